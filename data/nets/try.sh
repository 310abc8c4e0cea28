#!/usr/bin/env bash
# Trains one network on d64mm's recipe (shipped from the fiftieth session to the sixty-fifth: docs/training.md
# "Fiftieth session") with changes, and measures it the way #32 judges networks: the error on the held-out batch's
# results (`val-ho-mid`), then 2,000 games at level 5 and 2,000 at level 8 against the shipped network
# (data/nets/kd80ts1.net since the seventy-first session, or SHIPPED=FILE; eval-2 under both), XOT openings 1-1,000.
#
#   data/nets/try.sh NAME [--plus-labels FILE]... [--no-tr3] [--no-quarters | --quarters "q q2 q3"] [--no-extra-rows] [--soft-results W] [--keep-exact] [TRAIN-NET OPTIONS...]
#
# NAME.net and NAME.log go to $LAB (default: `lab` beside the repository, where data/labels/make.sh builds the labels:
# it needs the steps q1 q2 q3 corpus results results3 homid, and val for the deep sets' errors).
# `--plus-labels FILE` adds a label file (a path under $LAB) to the recipe's; `--dim`, `--buckets`, `--learning-rate`,
# `--epochs` and `--seed` replace the recipe's values (64, 2, 0.0003, 2, 1); other options go to `train-net` as they
# are. With no options it remakes d64mm itself (compare the files with `cmp` to check the labels); `--no-extra-rows`
# (no --moves-and-mobility) is d64r3's recipe, the network shipped before it; `--no-extra-rows --dim 32 --no-tr3` is
# n32b2xr's recipe (shipped before d64r3; docs/training.md "Forty-fifth session"). `--soft-results W` counts the
# error of the labels that are a game's final result (the recipe's `*-res-mid` files and any --plus-labels file so
# named) W times (0-1) as much as the others'. Level 5 takes about 35 s, level 8 about 8 minutes of 2 idle cores;
# LEVELS="5" skips level 8, LEVELS="" both. `--no-quarters` leaves out the quarter bases (make.sh q1 q2 q3, the slow
# steps), for a network taught by another one on the archives' positions instead (data/nets/distil.sh RECIPE=shipped);
# `--quarters LIST` keeps only the quarter bases named (q, q2, q3: make.sh's steps q1, q2, q3), e.g. `--quarters q`.
# `--keep-exact` gives the solver's exact scores (files named *-ex.txt or ex-*.txt) to train-net as --exact-labels:
# with teachers (data/nets/distil.sh) they are then trained on as they are, not moved towards the teachers' value.
set -euo pipefail
cd "$(dirname "$0")/../.."
LAB=${LAB:-$(cd .. && pwd)/lab}
B=${B:-target/release/shirokuro-cli}
LEVELS=${LEVELS-5 8}
XOT=../shared/reference/xot-openings-large.txt
SHIPPED=${SHIPPED:-data/nets/kd80ts1.net}
[ $# -ge 1 ] || { sed -n 2,15p "$0"; exit 2; }
name=$1; shift
# The recipe's options; one given on the command line replaces its value (train-net takes each only once).
declare -A recipe=([--dim]=64 [--buckets]=2 [--learning-rate]=0.0003 [--epochs]=2 [--seed]=1)
extra=(); plus=(); tr3=(tr3-ex tr3-res-mid); rows=(--moves-and-mobility); soft=; quarters=(q q2 q3); keep_exact=
while [ $# -gt 0 ]; do
    case $1 in
        --plus-labels)
            [ $# -ge 2 ] || { echo "try.sh: --plus-labels needs a file" >&2; exit 2; }
            plus+=(--labels "$2"); shift 2 ;;
        --no-tr3) tr3=(); shift ;;
        --no-quarters) quarters=(); shift ;;
        --quarters)
            [ $# -ge 2 ] || { echo "try.sh: --quarters needs a list (q q2 q3)" >&2; exit 2; }
            read -r -a quarters <<< "$2"
            for d in "${quarters[@]}"; do
                case $d in q|q2|q3) ;; *) echo "try.sh: --quarters takes q, q2, q3, not $d" >&2; exit 2 ;; esac
            done
            shift 2 ;;
        --no-extra-rows) rows=(); shift ;;
        --keep-exact) keep_exact=1; shift ;;
        --soft-results)
            [ $# -ge 2 ] || { echo "try.sh: --soft-results needs a weight" >&2; exit 2; }
            soft=$2; shift 2 ;;
        --dim|--buckets|--learning-rate|--epochs|--seed)
            [ $# -ge 2 ] || { echo "try.sh: $1 needs a value" >&2; exit 2; }
            recipe[$1]=$2; shift 2 ;;
        *) extra+=("$1"); shift ;;
    esac
done
for key in "${!recipe[@]}"; do extra+=("$key" "${recipe[$key]}"); done
extra+=("${rows[@]}")
labels=()
for d in "${quarters[@]}"; do
    for f in playok early egaroucid3 logistello wthor ex-logistello; do labels+=(--labels "$LAB/$d/$f.txt"); done
done
for f in tr-ex tr-d10r2 tr2-ex tr-res-mid tr2-res-mid "${tr3[@]}"; do labels+=(--labels "$LAB/$f.txt"); done
# The deep validation sets (make.sh val) are reported when they are there; val-ho-mid is needed.
for v in val-playok-deep val-early-deep val-selfplay-deep-1000; do
    [ -s "$LAB/$v.txt" ] && labels+=(--validation "$LAB/$v.txt")
done
labels+=(--validation "$LAB/val-ho-mid.txt")
added=("${plus[@]}"); labels+=("${plus[@]}"); plus=()
# move_labels OPTION GLOB...: each `--labels FILE` whose file name matches a GLOB becomes `OPTION FILE` (train-net
# reads each option's files as one list, so where they stand on the line does not matter).
move_labels() {
    local option=$1 moved=() i glob
    shift
    for ((i = 0; i < ${#labels[@]}; i++)); do
        if [ "${labels[i]}" = --labels ]; then
            for glob in "$@"; do
                # shellcheck disable=SC2053 # the glob is meant to match
                if [[ ${labels[i + 1]##*/} == $glob ]]; then
                    moved+=("$option" "${labels[i + 1]}"); i=$((i + 1)); continue 2
                fi
            done
        fi
        moved+=("${labels[i]}")
    done
    labels=("${moved[@]}")
}
# The results' files count $soft times; the exact scores are trained on as given (never moved towards teachers).
if [ -n "$soft" ]; then move_labels --soft-labels '*-res-mid.txt'; extra+=(--soft-weight "$soft"); fi
[ -z "$keep_exact" ] || move_labels --exact-labels '*-ex.txt' 'ex-*.txt'
for arg in "${labels[@]}" "${plus[@]}"; do
    case $arg in
        --*) ;;
        *) [ -s "$arg" ] || { echo "try.sh: $arg is missing (data/labels/make.sh)" >&2; exit 1; } ;;
    esac
done
out="$LAB/$name"
{
    echo "# try.sh $name ${added[*]} ${plus[*]} ${extra[*]}${keep_exact:+ --keep-exact} [quarter bases: ${quarters[*]:-none}] ($(date -u +%FT%TZ), $(git rev-parse --short HEAD))"
    "$B" train-net "${labels[@]}" "${plus[@]}" --weights resources/eval/shirokuro-eval-2.skw "${extra[@]}" \
        --out "$out.net" 2>&1
    echo "# val-ho-mid (the held-out batch's results, moves 20-39); d64mm reads 6.67 (+0.23), kdm 6.63 (+0.59), kd80ts1 (shipped) 6.66 (+0.72)"
    "$B" eval-error --labels "$LAB/val-ho-mid.txt" -t 1 --net "$out.net" 2>&1 | tail -1
    for level in $LEVELS; do
        echo "# level $level against $SHIPPED"
        "$B" match --level-a "$level" --level-b "$level" --net-a "$out.net" --net-b "$SHIPPED" --openings "$XOT" \
            --games 1000 -t 2 2>&1 | grep -E "^A|score|disc|nodes|time"
    done
} | tee "$out.log"
