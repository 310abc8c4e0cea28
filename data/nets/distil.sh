#!/usr/bin/env bash
# Trains a network taught by others (knowledge distillation; docs/training.md "Fifty-ninth session"): kdw3.
#
#   [RECIPE=r7s25|r7|shipped|mixed] [TEACHERS=...] [QUARTERS=...] [SHARE=0.5] [TEACHER_DIM=N] data/nets/distil.sh NAME [TRY.SH OPTIONS...]
#
# 1. The teachers: r7s25's recipe (d64mm's, the results of corpus batches 64-83 added and every game-result label
#    counted a quarter) with seeds 1-4, as $LAB/r7s25.net and $LAB/r7s25s2.net ... s4.net (kept when there);
#    RECIPE=r7: r7's (the same, the results counted in full), as $LAB/r7.net, r7s2.net ... s4.net.
#    RECIPE=shipped: no teachers trained: d64mm (data/nets/d64mm.net, shipped before kdm) teaches, or the networks named
#    in TEACHERS (paths, space-separated); the student's labels are then the corpus's alone (no quarter bases:
#    make.sh's steps corpus results results3 results8 homid, minutes instead of hours), the results of batches 64-86
#    among them (results8). QUARTERS="q" (or "q q2", ...) adds those quarter bases back (make.sh q1, q2, q3).
#    RECIPE=mixed: the eight teachers of r7 and r7s25 (trained as above when missing) and d64mm (or
#    those in TEACHERS) teach together; the student's recipe is RECIPE=shipped's with QUARTERS (default "q q2 q3").
#    QUARTERS=none leaves the quarter bases out of the teachers' recipes and the student's: the teachers are then
#    $LAB/r7nq.net ... r7s25nq.net ... (s2-s4), and only make.sh's cheap steps and val are needed (about 40 minutes
#    of 2 cores instead of about 2 hours and a quarter: the whole run fits in a session).
#    TEACHER_DIM=N trains the teachers of r7 and r7s25 with `--dim N` (the recipe's is 64) and names them with dN
#    added: $LAB/r7d80.net, r7d80s2.net ... r7s25d80.net ... for TEACHER_DIM=80.
# 2. The positions of three archives of other players' games (WTHOR, Egaroucid 3's self-play, Logistello's logbook;
#    24-54 discs, 11.1 M in all), whose labels are not used: the teachers' averaged value is their label.
# 3. The student, by data/nets/try.sh on the same recipe: each labelled position's label moved a share SHARE
#    (default 0.5: half way) to the teachers' value, and the archives' positions with the teachers' value alone. Options after NAME go to try.sh
#    (e.g. `--seed 2`; LEVELS as try.sh's, default "5": level 5 against the shipped network).
#
# Needs data/labels/make.sh's steps val q1 q2 q3 corpus results results3 homid results7 in $LAB (RECIPE=shipped: see
# above; RECIPE=mixed: results8 as well, and with QUARTERS=none no q steps). Time on 2 idle cores: about 3 minutes
# a teacher, a minute for the positions, 12-13 minutes for the student (RECIPE=shipped: about 8).
set -euo pipefail
cd "$(dirname "$0")/../.."
LAB=${LAB:-$(cd .. && pwd)/lab}
B=${B:-target/release/shirokuro-cli}
G=../shared/reference/games
export LAB B
[ $# -ge 1 ] || { sed -n 2,28p "$0"; exit 2; }
name=$1; shift
RECIPE=${RECIPE:-r7s25}
r7=(--plus-labels "$LAB/tr7-ex.txt" --plus-labels "$LAB/tr7-res-mid.txt")
shipped=(--plus-labels "$LAB/tr8-ex.txt" --plus-labels "$LAB/tr8-res-mid.txt")
teachers=()
# train_teachers RECIPE-NAME TRY.SH-OPTIONS...: seeds 1-4 of a recipe (kept when there), added to the teachers.
train_teachers() {
    local base=$1 seed t
    shift
    if [ -n "${TEACHER_DIM:-}" ]; then base=${base}d$TEACHER_DIM; set -- "$@" --dim "$TEACHER_DIM"; fi
    for seed in 1 2 3 4; do
        t=$base; [ "$seed" = 1 ] || t=${base}s$seed
        [ -s "$LAB/$t.net" ] || LEVELS="" data/nets/try.sh "$t" "$@" --seed "$seed" > /dev/null
        teachers+=(--teacher "$LAB/$t.net")
    done
}
# named_teachers DEFAULT: the networks in TEACHERS (or DEFAULT), added to the teachers.
named_teachers() {
    local t
    for t in ${TEACHERS:-$1}; do
        [ -s "$t" ] || { echo "distil.sh: the teacher $t is missing" >&2; exit 1; }
        teachers+=(--teacher "$t")
    done
}
case $RECIPE in
    r7s25) recipe=("${r7[@]}" --soft-results 0.25); train_teachers r7s25 "${recipe[@]}" ;;
    r7) recipe=("${r7[@]}"); train_teachers r7 "${recipe[@]}" ;;
    shipped)
        recipe=("${shipped[@]}")
        if [ -n "${QUARTERS:-}" ]; then recipe+=(--quarters "$QUARTERS"); else recipe+=(--no-quarters); fi
        named_teachers data/nets/d64mm.net ;;
    mixed)
        if [ "${QUARTERS:-}" = none ]; then
            recipe=("${shipped[@]}" --no-quarters)
            train_teachers r7nq "${r7[@]}" --no-quarters
            train_teachers r7s25nq "${r7[@]}" --soft-results 0.25 --no-quarters
        else
            recipe=("${shipped[@]}" --quarters "${QUARTERS:-q q2 q3}")
            train_teachers r7 "${r7[@]}"
            train_teachers r7s25 "${r7[@]}" --soft-results 0.25
        fi
        named_teachers data/nets/d64mm.net ;;
    *) echo "distil.sh: RECIPE is r7s25, r7, shipped or mixed, not $RECIPE" >&2; exit 2 ;;
esac
positions=()
for f in wthor-1977-2025 egaroucid3-selfplay logistello-logbook; do
    if [ ! -s "$LAB/$f-pos.txt" ]; then
        "$B" label --records "$G/$f.txt" --results --min-discs 24 --max-discs 54 --out "$LAB/$f-pos.txt.part" > /dev/null
        mv "$LAB/$f-pos.txt.part" "$LAB/$f-pos.txt"
    fi
    positions+=(--teacher-labels "$LAB/$f-pos.txt")
done
LEVELS=${LEVELS-5} data/nets/try.sh "$name" "${recipe[@]}" "${teachers[@]}" --teacher-share "${SHARE:-0.5}" "${positions[@]}" "$@"
