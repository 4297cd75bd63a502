#!/bin/sh
# Self-play data and fitted evaluation weights for the built-in variants.
#
# Usage: scripts/tune_all.sh [VARIANT...]   (default: every built-in variant)
#
# For each variant: `strata datagen` writes data/VARIANT.txt (seeded: the same command gives
# the same file), then `strata tune` fits the weights to it and writes
# src/eval/weights/VARIANT.txt with the command, the positions and the loss before and after
# in its header. Rebuild, then test the new weights against the old build with
# scripts/sprt.sh before committing them.
#
# GAMES and NODES (environment) override the games per variant and the nodes per move.
set -eu
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/strata
mkdir -p data
variants=${*:-chess pole polyhedron podionic pentaplane future-generation}
threads=$(nproc)
for v in $variants; do
    case $v in
        polyhedron) games=${GAMES:-600} ;;
        future-generation) games=${GAMES:-4000} ;;
        chess) games=${GAMES:-10000} ;;
        *) games=${GAMES:-3000} ;;
    esac
    "$bin" datagen --variant "$v" --games "$games" --nodes "${NODES:-3000}" --seed 1 \
        --threads "$threads" --out "data/$v.txt"
    "$bin" tune --variant "$v" --data "data/$v.txt" --out "src/eval/weights/$v.txt" \
        2>/dev/null | grep -E "^# (Made|Log)"
done
