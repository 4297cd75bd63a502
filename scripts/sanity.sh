#!/usr/bin/env bash
# Self-play sanity (issue 7): strata against the built-in random mover and the built-in 1-ply
# greedy player, 10 games each, in every variant (as `strata variants` lists them), through
# the match runner (which referees every move). Target: 10/10 against random, at least 9/10
# against greedy.
#
#   scripts/sanity.sh [NODES] [GAMES]
#
# strata searches NODES nodes per move (default 100000: from a few hundredths of a second in
# chess to about half a second in Polyhedron). Prints one summary line per match.
set -euo pipefail
cd "$(dirname "$0")/.."
nodes=${1:-100000}
games=${2:-10}
S=target/release/strata
cargo build --release -q
variants=$($S variants)
for variant in $variants; do
    for opponent in random greedy; do
        out=$($S match --engine cmd=$S name=strata nodes="$nodes" --engine builtin=$opponent name=$opponent \
                       --variant "$variant" --games "$games" --concurrency 2 --seed 7 \
                       --openings random-plies=2 seed=7 --maxmoves 400)
        line=$(grep -E "^Games:" <<<"$out" | tail -1)
        echo "$variant vs $opponent: $line"
    done
done
