#!/usr/bin/env bash
# A lent machine's minutes on the corpus (README.md, "On a lent machine"). Run from the repository root on the lent
# machine, with the release CLI built here and carried (`target/release/shirokuro-cli`) or built there:
#
#   data/selfplay/lent-machine.sh           # env: OUT (required), MINUTES (8), FIRST (1000), DIR, B
#
# Plays whole batches of DIR's series on all cores, numbered from FIRST on (the lowest free number from there, so
# far above the batches the 2-core growth is playing), one `corpus grow --batches 1` at a time, and starts another
# only while the time left holds one more batch at the pace of the last. Each finished batch is copied to $OUT at
# once, so a run killed at its limit still returns every batch it finished; the batch under way then is lost, and
# a later run plays it again from its seed (the same games). Copy the returned files into DIR and commit them.
set -euo pipefail

: "${OUT:?set OUT to the folder the finished batches go to}"
MINUTES=${MINUTES:-8}
FIRST=${FIRST:-1000}
DIR=${DIR:-data/selfplay/l10-r10-19}
B=${B:-target/release/shirokuro-cli}

if ! compgen -G "$DIR/batch-*.selfplay.gz" > /dev/null; then
    echo "lent-machine.sh: $DIR holds no finished batch: this script only extends a series" >&2
    exit 1
fi
# A carried program that cannot run there (another system library) is rebuilt like a missing one.
if ! "$B" --version > /dev/null 2>&1; then
    cargo build --release -p shirokuro-engine --bin shirokuro-cli
    B=target/release/shirokuro-cli
fi
threads=$(nproc)
start=$(date +%s)
budget=$(awk -v m="$MINUTES" 'BEGIN { printf "%d", m * 60 }')
last=-1
mkdir -p "$OUT"
while :; do
    now=$(date +%s)
    left=$((budget - (now - start)))
    # The first batch is always begun; later ones when the last one's time, and a fifth more, fits.
    if [ "$last" -ge 0 ] && { [ "$left" -le 0 ] || [ $((last * 6 / 5)) -gt "$left" ]; }; then
        break
    fi
    before=$(date +%s)
    # Its own output names the batch it played ("batch N finished").
    log=$("$B" corpus grow "$DIR" --first-batch "$FIRST" --batches 1 --threads "$threads" 2>&1) || {
        printf '%s\n' "$log" >&2
        echo "lent-machine.sh: corpus grow failed; the batches copied so far are in $OUT" >&2
        exit 1
    }
    last=$(($(date +%s) - before))
    batch=$(printf '%s\n' "$log" | sed -n 's/^.*batch \([0-9]*\) finished.*$/\1/p' | tail -n 1)
    if [ -z "$batch" ]; then
        printf '%s\n' "$log" >&2
        echo "lent-machine.sh: corpus grow finished no batch" >&2
        exit 1
    fi
    file=$(printf '%s/batch-%05d.selfplay.gz' "$DIR" "$batch")
    cp "$file" "$OUT/"
    echo "batch $batch: $last s on $threads threads ($(($(date +%s) - start)) s of $budget)"
done
"$B" corpus stats "$DIR" > "$OUT/stats.txt"
head -n 3 "$OUT/stats.txt"
