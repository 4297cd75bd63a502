#!/bin/sh
# Self-play data and fitted evaluation weights for the built-in variants.
#
# Usage: scripts/tune_all.sh [VARIANT...]   (default: every built-in variant, as
# `strata variants` lists them)
#
# For each variant: `strata datagen` writes data/VARIANT.txt (seeded: the same command gives
# the same file), then `strata tune` fits the weights to it and writes
# src/eval/weights/VARIANT.txt with the command, the positions and the loss before and after
# in its header, keeping the pairs of src/eval/weights/VARIANT.order in order where that file
# exists (`strata tune --order`). Rebuild, then test the new weights against the old build with
# scripts/sprt.sh before committing them.
#
# GAMES and NODES (environment) override the games per variant and the nodes per move.
set -eu
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/strata
mkdir -p data
variants=${*:-$("$bin" variants)}
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
    order=""
    if [ -f "src/eval/weights/$v.order" ]; then
        order="--order src/eval/weights/$v.order"
    fi
    # shellcheck disable=SC2086 # $order is empty or two words
    "$bin" tune --variant "$v" --data "data/$v.txt" $order --out "src/eval/weights/$v.txt" \
        2>/dev/null | grep -E "^# (Made|Log|Ordered)"
done
