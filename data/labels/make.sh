#!/usr/bin/env bash
# Rebuilds the training and validation labels of #32 from the games in the repository (../shared/reference/games and
# data/selfplay). Labels are never stored in the repository; this script recomputes them, step by step.
#
#   data/labels/make.sh [STEP...]        (default: every step, in the order below)
#
# LAB (default: `lab` beside the repository, e.g. /work/lab; not /tmp, which lost them twice) receives the files; B
# (default target/release/shirokuro-cli) is the program. Each step writes its file under a `.part` name and renames it
# when done, and a step whose file exists is skipped: stop the script at any moment (a signal, the end of a session)
# and run it again to go on. A `label` step under way goes on from its last 500 positions too: they are kept in
# FILE.part.resume (`label --checkpoint-every`), so even the hour-long steps get done across short sessions. The labels are deterministic (seeded sampling, one single-threaded search with a cleared
# table per position), so a rebuilt file equals the lost one as long as the search has not changed. Run it at low
# priority beside other work: `nice -n 10 data/labels/make.sh`.
#
# Steps (docs/training.md has what each file is for and where it was first made):
#   val       the three deep validation sets (PlayOK, early Egaroucid, self-play: 4,000 positions each side of 8,000)
#   q1 q2 q3  the quarter bases Q, Q2, Q3 (eval-2's recipe, 661,579 labels each, about 50 minutes of 2 cores each)
#   corpus    from the corpus batches 0-26 (training) and 27 (held out): tr-res, tr-ex, tr-d10r2, ho-res
#   corpus2   the same from batches 28-34 (training): tx-res, tx-ex, tx-d10r2
#   results   (after corpus) the games' results of batches 28-56: tr2-res, tr2-ex (20 empties or fewer: exact), and
#             the results before the exact part (more than 20 empties) of batches 0-26 and 28-56: tr-res-mid,
#             tr2-res-mid (seconds)
#   results3  (after corpus) the same for batches 57-63: tr3-res, tr3-ex, tr3-res-mid (seconds)
#   results4  the same for batches 64-68 (the forty-eighth and forty-ninth sessions'): tr4-res, tr4-ex, tr4-res-mid
#   results5  the same for batches 64-72 (to the fiftieth session): tr5-res, tr5-ex, tr5-res-mid
#   results6  the same for batches 64-77 (to the fifty-second session): tr6-res, tr6-ex, tr6-res-mid
#   results7  the same for batches 64-83 (to the fifty-sixth session): tr7-res, tr7-ex, tr7-res-mid
#   results8  the same for batches 64-86 (to the fifty-ninth session): tr8-res, tr8-ex, tr8-res-mid
#   results9  the same for batches 64-173 (to the sixty-ninth session): tr9-res, tr9-ex, tr9-res-mid (seconds)
#   xresults  the games' results of the Egaroucid-3 self-play and Logistello logbook records (positions of 20-43
#             discs, before 20 empties): xres-egaroucid3-selfplay, xres-logistello-logbook (`label --results`, seconds)
#   cut21     ho-cut21 (the held-out batch's results averaged with depth-21 exact scores; for parity-lean)
#   deep      tr-d14 (after corpus): depth-14 values of positions on the corpus games 0-26, labelled as the self-play
#             validation set is (but by eval-2), in 27 chunks of 1,000 games (about 3.6 minutes of 2 cores each)
#   deepx     tx-d14 (after corpus2): the same on the games of batches 28-34 (7 chunks)
#   deep2     tr-d14b: four other positions a game of batches 0-26, as deep (other seeds; 27 chunks)
#   homid     val-ho-mid: moves 20-39 of the held-out batch with their games' results (after corpus; seconds)
#   netdeep   tr-n14: four positions a game between moves 24 and 37 of batches 0-26, searched to depth 14 with the
#             network data/nets/n32b2x.net (27 chunks, about 7 minutes of 2 cores each)
#   netdeep2  tr-n14b: four more positions of the same games and range (the picks after netdeep's), as netdeep
set -euo pipefail
cd "$(dirname "$0")/../.."
LAB=${LAB:-$(cd .. && pwd)/lab}
B=${B:-target/release/shirokuro-cli}
G=../shared/reference/games
W1=resources/eval/shirokuro-eval-1.skw
W2=resources/eval/shirokuro-eval-2.skw
CORPUS=data/selfplay/l10-r10-19
THREADS=${THREADS:-2}
mkdir -p "$LAB"
if [ ! -x "$B" ]; then
    echo "make.sh: $B not found; build it: cargo build --release -p shirokuro-engine --bin shirokuro-cli" >&2
    exit 1
fi

log() { echo "$(date -u +%H:%M:%S) $*"; }

# check_sum FILE: compares a file just made with its SHA-256 in data/labels/SHA256SUMS (when it is listed there). The
# labels are deterministic, so a difference means the search, the weights or the games changed since the sum was
# recorded; the file is kept, and the log says so.
check_sum() {
    local rel=${1#"$LAB"/} want got
    want=$(awk -v f="$rel" '$2 == f { print $1 }' data/labels/SHA256SUMS)
    [ -n "$want" ] || return 0
    got=$(sha256sum < "$1" | cut -d' ' -f1)
    if [ "$got" = "$want" ]; then
        log "sum matches data/labels/SHA256SUMS: $rel"
    else
        log "SUM DIFFERS from data/labels/SHA256SUMS: $rel ($got, recorded $want)"
    fi
}

# make FILE COMMAND...: runs COMMAND with its --out (or stdout) going to FILE.part, then renames it; skips a done file.
make_label() {
    local out=$1; shift
    if [ -s "$out" ]; then log "have $out"; return; fi
    mkdir -p "$(dirname "$out")"
    log "making $out"
    "$B" label "$@" -t "$THREADS" --out "$out.part" > "$out.log" 2>&1
    mv "$out.part" "$out"
    log "done $out ($(wc -l < "$out") labels)"
    check_sum "$out"
}

rest() { # the record games after the first 2,000 (those are the validation sets' games)
    [ -s "$LAB/playok-rest.txt" ] || tail -n +2001 $G/playok-2023.txt > "$LAB/playok-rest.txt"
    [ -s "$LAB/early-rest.txt" ] || tail -n +2001 $G/egaroucid-early-selfplay.txt > "$LAB/early-rest.txt"
}

step_val() {
    make_label "$LAB/val-playok-deep.txt" --records $G/playok-2023.txt --max-games 2000 --per-game 4 --depth 14 \
        --selectivity 2 --exact-empties 22 --seed 7 --weights $W1
    make_label "$LAB/val-early-deep.txt" --records $G/egaroucid-early-selfplay.txt --max-games 2000 --per-game 4 \
        --depth 14 --selectivity 2 --exact-empties 22 --seed 7 --weights $W1
    local games="$LAB/val-selfplay-games-1000.txt"
    if [ ! -s "$games" ]; then
        mkdir -p "$LAB/sp-val"
        for i in $(seq 0 19); do
            local chunk="$LAB/sp-val/$i.txt"
            [ -s "$chunk" ] && continue
            log "self-play chunk $i of 20"
            "$B" selfplay --games 50 --level 10 --random-moves 10-19 --seed $((9000 + i)) --weights $W2 \
                --out "$chunk.part" > /dev/null 2>&1
            mv "$chunk.part" "$chunk"
        done
        for i in $(seq 0 19); do cat "$LAB/sp-val/$i.txt"; done > "$games.part"
        mv "$games.part" "$games"
    fi
    make_label "$LAB/val-selfplay-deep-1000.txt" --records "$games" --max-games 2000 --per-game 4 --depth 14 \
        --selectivity 2 --exact-empties 22 --seed 7 --weights $W1
}

quarter() { # quarter K DIR: eval-2's recipe with a quarter of the positions per game
    local k=$1 dir=$2
    rest
    local l1=(--depth 10 --selectivity 2 --weights $W1)
    make_label "$dir/playok.txt" --records "$LAB/playok-rest.txt" --per-game 2 --seed $((1000 + k * 100)) "${l1[@]}"
    make_label "$dir/early.txt" --records "$LAB/early-rest.txt" --per-game 2 --seed $((2000 + k * 100)) "${l1[@]}"
    make_label "$dir/egaroucid3.txt" --records $G/egaroucid3-selfplay.txt --max-games 75000 --per-game 2 \
        --random-moves 2 --seed $((4000 + k * 100)) "${l1[@]}"
    make_label "$dir/logistello.txt" --records $G/logistello-logbook.txt --max-games 84000 --per-game 1 \
        --random-moves 2 --seed $((5000 + k * 100)) "${l1[@]}"
    make_label "$dir/wthor.txt" --records $G/wthor-1977-2025.txt --per-game 1 --random-moves 2 \
        --seed $((6000 + k * 100)) "${l1[@]}"
    make_label "$dir/ex-logistello.txt" --records $G/logistello-logbook.txt --max-games 91000 --per-game 1 \
        --min-discs 48 --max-discs 60 --exact-empties 16 --random-moves 3 --seed $((130 + k)) --weights $W1
}

batches() { # batches DIR FIRST LAST: copies of corpus batches FIRST..LAST
    local dir=$1 first=$2 last=$3
    mkdir -p "$dir"
    for i in $(seq "$first" "$last"); do
        local f; f=$(printf 'batch-%05d.selfplay.gz' "$i")
        [ -s "$dir/$f" ] || cp "$CORPUS/$f" "$dir/"
    done
}

# export_to DIR OUT [ARGS...]: `corpus export` of the batches in DIR to OUT (skipped when OUT is done).
export_to() {
    local dir=$1 out=$2; shift 2
    [ -s "$out" ] && return
    "$B" corpus export "$dir" --out "$out.part" "$@" > /dev/null
    mv "$out.part" "$out"
    check_sum "$out"
}

# by_empties IN OUT CONDITION: the lines of IN whose position's empties `n` meet CONDITION (awk), e.g. 'n<=20'.
by_empties() {
    local in=$1 out=$2 condition=$3
    [ -s "$out" ] && return
    awk "{n=gsub(/-/,\"-\",\$1); if($condition) print}" "$in" > "$out.part"
    mv "$out.part" "$out"
    check_sum "$out"
}

# corpus_set NAME FIRST LAST SEED: from batches FIRST..LAST, NAME-res (every engine position with its game's result),
# NAME-ex (those with 20 empties or fewer: exact scores), NAME-games and NAME-d10r2 (depth-10 values off the games).
corpus_set() {
    local name=$1 first=$2 last=$3 seed=$4
    batches "$LAB/$name" "$first" "$last"
    export_to "$LAB/$name" "$LAB/$name-res.txt" --positions engine
    by_empties "$LAB/$name-res.txt" "$LAB/$name-ex.txt" 'n<=20'
    export_to "$LAB/$name" "$LAB/$name-games.txt"
    make_label "$LAB/$name-d10r2.txt" --records "$LAB/$name-games.txt" --per-game 6 --min-discs 20 --max-discs 60 \
        --depth 10 --selectivity 2 --exact-empties 16 --random-moves 2 --seed "$seed" --weights $W2
}

step_corpus() { # batches 0-26 for training, 27 held out
    corpus_set tr 0 26 41
    batches "$LAB/ho" 27 27
    export_to "$LAB/ho" "$LAB/ho-res.txt" --positions engine
    log "corpus labels done"
}

step_corpus2() { # batches 28-34 (after the held-out 27)
    corpus_set tx 28 34 42
    log "corpus2 labels done"
}

step_results() { # batches 28-56 (after the held-out 27): results only, no searches
    step_corpus
    batches "$LAB/tr2" 28 56
    export_to "$LAB/tr2" "$LAB/tr2-res.txt" --positions engine
    by_empties "$LAB/tr2-res.txt" "$LAB/tr2-ex.txt" 'n<=20'
    by_empties "$LAB/tr-res.txt" "$LAB/tr-res-mid.txt" 'n>20'
    by_empties "$LAB/tr2-res.txt" "$LAB/tr2-res-mid.txt" 'n>20'
    log "results labels done"
}

# results_set NAME FIRST LAST: corpus batches FIRST..LAST copied to $LAB/NAME, their positions with the games' results
# (NAME-res), split into the exact scores of the last 20 empties (NAME-ex) and the earlier positions (NAME-res-mid).
results_set() {
    local name=$1 first=$2 last=$3
    batches "$LAB/$name" "$first" "$last"
    export_to "$LAB/$name" "$LAB/$name-res.txt" --positions engine
    by_empties "$LAB/$name-res.txt" "$LAB/$name-ex.txt" 'n<=20'
    by_empties "$LAB/$name-res.txt" "$LAB/$name-res-mid.txt" 'n>20'
}

# Results only, no searches: batches 57-63 (the forty-sixth session's), 64-68 (the forty-eighth and forty-ninth
# sessions'), 64-72 (to the fiftieth session), 64-77 (to the fifty-second), 64-83 (to the fifty-sixth), 64-86 (to the
# fifty-ninth), 64-173 (to the sixty-ninth).
step_results3() { results_set tr3 57 63; log "results3 labels done"; }
step_results4() { results_set tr4 64 68; log "results4 labels done"; }
step_results5() { results_set tr5 64 72; log "results5 labels done"; }
step_results6() { results_set tr6 64 77; log "results6 labels done"; }
step_results7() { results_set tr7 64 83; log "results7 labels done"; }
step_results8() { results_set tr8 64 86; log "results8 labels done"; }
step_results9() { results_set tr9 64 173; log "results9 labels done"; }

# The results of two engines' own games (their positions before the exact part), as the corpus's res-mid files are.
step_xresults() {
    local f
    for f in egaroucid3-selfplay logistello-logbook; do
        [ -s "$LAB/xres-$f.txt" ] && { log "have $LAB/xres-$f.txt"; continue; }
        "$B" label --records "$G/$f.txt" --results --min-discs 20 --max-discs 43 --out "$LAB/xres-$f.txt.part" \
            > /dev/null
        mv "$LAB/xres-$f.txt.part" "$LAB/xres-$f.txt"
        log "done $LAB/xres-$f.txt ($(wc -l < "$LAB/xres-$f.txt") labels)"
    done
    log "xresults labels done"
}

step_cut21() {
    batches "$LAB/ho" 27 27
    export_to "$LAB/ho" "$LAB/ho-cut21.txt" --positions engine --cut-empties 21 -t "$THREADS"
}

# deep_set NAME DIR SEEDBASE OUT [LABEL ARGS...]: depth-14 values (labelled as the self-play validation set is, but by
# eval-2) of 4 positions a game on $LAB/NAME-games.txt, in chunks of 1,000 games (DIR/NAME-NN, seed SEEDBASE + NN) so
# that a stop loses one chunk at most; OUT is all chunks in order, made when the last is done. LABEL ARGS replace the
# positions' disc range (default 20-56) or add to the search (a network).
deep_set() {
    local name=$1 dir=$2 seed=$3 out=$4; shift 4
    local extra=("$@")
    [ ${#extra[@]} -gt 0 ] || extra=(--min-discs 20 --max-discs 56)
    local games="$LAB/$name-games.txt"
    [ -s "$out" ] && { log "have $out"; return; }
    local count; count=$(wc -l < "$games")
    local chunks=$(((count + 999) / 1000))
    mkdir -p "$dir"
    for i in $(seq 0 $((chunks - 1))); do
        local part; part=$(printf '%s/%s-%02d' "$dir" "$name" "$i")
        [ -s "$part-games.txt" ] || sed -n "$((i * 1000 + 1)),$(((i + 1) * 1000))p" "$games" > "$part-games.txt"
        make_label "$part.txt" --records "$part-games.txt" --per-game 4 --depth 14 --selectivity 2 \
            --exact-empties 22 --seed $((seed + i)) --weights $W2 "${extra[@]}"
    done
    for i in $(seq 0 $((chunks - 1))); do cat "$(printf '%s/%s-%02d.txt' "$dir" "$name" "$i")"; done > "$out.part"
    mv "$out.part" "$out"
    log "done $out ($(wc -l < "$out") labels)"
    check_sum "$out"
}

step_deep() { step_corpus; deep_set tr "$LAB/deep" 300 "$LAB/tr-d14.txt"; }
step_deepx() { step_corpus2; deep_set tx "$LAB/deepx" 400 "$LAB/tx-d14.txt"; }
step_deep2() { step_corpus; deep_set tr "$LAB/deep2" 500 "$LAB/tr-d14b.txt"; }
# A lean-free midgame reference: every fifth engine position between moves 20 and 39 of the held-out batch 27, with
# its game's final result (exact from 20 empties on; noisy, but no evaluation's family): 4,000 positions.
step_homid() {
    step_corpus
    [ -s "$LAB/val-ho-mid.txt" ] && { log "have $LAB/val-ho-mid.txt"; return; }
    # A label line starts with the board (64 squares, '-' empty); its move number is 60 minus the empties.
    awk '{b=$1; e=gsub(/-/,"-",b); m=60-e; if (m>=20 && m<=39 && NR%5==0) print}' "$LAB/ho-res.txt" \
        > "$LAB/val-ho-mid.txt.part"
    mv "$LAB/val-ho-mid.txt.part" "$LAB/val-ho-mid.txt"
    log "done $LAB/val-ho-mid.txt ($(wc -l < "$LAB/val-ho-mid.txt") labels)"
}

# Moves 24-37 (28-41 discs) searched with the network data/nets/n32b2x.net added to eval-2: the searches' leaves lie
# at moves 38-51, where the network is much better than eval-2 (docs/training.md "Forty-second session").
step_netdeep() {
    step_corpus
    deep_set tr "$LAB/netdeep" 600 "$LAB/tr-n14.txt" --min-discs 28 --max-discs 41 --net data/nets/n32b2x.net
}
# The same seeds as netdeep, past its four picks a game: new positions, none labelled twice.
step_netdeep2() {
    step_corpus
    deep_set tr "$LAB/netdeep2" 600 "$LAB/tr-n14b.txt" --min-discs 28 --max-discs 41 --net data/nets/n32b2x.net --skip 4
}

steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(corpus val q1 corpus2 results q2 q3 cut21 homid deep deepx deep2)
for s in "${steps[@]}"; do
    case $s in
        val) step_val ;;
        q1) quarter 1 "$LAB/q" ;;
        q2) quarter 2 "$LAB/q2" ;;
        q3) quarter 3 "$LAB/q3" ;;
        corpus) step_corpus ;;
        corpus2) step_corpus2 ;;
        results) step_results ;;
        results3) step_results3 ;;
        results4) step_results4 ;;
        results5) step_results5 ;;
        results6) step_results6 ;;
        results7) step_results7 ;;
        results8) step_results8 ;;
        results9) step_results9 ;;
        xresults) step_xresults ;;
        cut21) step_cut21 ;;
        deep) step_deep ;;
        deepx) step_deepx ;;
        deep2) step_deep2 ;;
        homid) step_homid ;;
        netdeep) step_netdeep ;;
        netdeep2) step_netdeep2 ;;
        *) echo "make.sh: unknown step $s" \
                "(val q1 q2 q3 corpus corpus2 results results3 results4 results5 results6 results7 results8 results9 xresults cut21 deep deepx deep2 homid netdeep netdeep2)" >&2
           exit 2 ;;
    esac
done
log "all done: ${steps[*]}"
