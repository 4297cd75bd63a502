#!/bin/sh
# Grows a corpus of datagen shards that can be stopped and resumed, on one machine or many.
#
# Usage: scripts/corpus.sh VARIANT SEED FIRST [LAST]
#
# Plays shards FIRST, FIRST+1, ... (up to LAST, or until the file DIR/STOP exists) of
# `strata datagen --variant VARIANT --games 2000 --nodes 5000 --seed SEED --shard K` on every
# core into DIR/VARIANT-SEED-K.bin (DIR: $CORPUS, by default data/corpus; $GAMES games a
# shard instead of 2000, the same games as a 2000-game shard's first ones). A shard is written
# to a .part file and renamed when it is whole, so a shard that exists is complete and is
# skipped when the script runs again; an interrupted one is played again from its start.
# Shards are reproduced byte for byte from their seed by the same build
# (tests/datagen.rs), so machines that play different shards of one seed make one corpus
# (`cat` the files, or give them all to `strata train-net --data`). The build is copied
# into DIR under its commit and reused, so that rebuilding the tree does not change the
# games halfway; DIR/shards.log gets a line a shard (its size and time).
set -eu
cd "$(dirname "$0")/.."
variant=$1
seed=$2
k=$3
last=${4:-}
dir=${CORPUS:-data/corpus}
mkdir -p "$dir"
rev=$(git rev-parse --short HEAD)
bin="$dir/strata-$rev"
if [ ! -x "$bin" ]; then
    cargo build --release --quiet
    cp target/release/strata "$bin"
fi
cores=$(nproc)
while [ ! -e "$dir/STOP" ] && { [ -z "$last" ] || [ "$k" -le "$last" ]; }; do
    out="$dir/$variant-$seed-$k.bin"
    if [ ! -e "$out" ]; then
        start=$(date +%s)
        "$bin" datagen --variant "$variant" --games "${GAMES:-2000}" --nodes 5000 --seed "$seed" \
            --shard "$k" --threads "$cores" --format binary --out "$out.part" \
            >>"$dir/datagen.log" 2>&1
        mv "$out.part" "$out"
        echo "$out $(wc -c <"$out") bytes $(($(date +%s) - start)) s build $rev" \
            >>"$dir/shards.log"
    fi
    k=$((k + 1))
done
