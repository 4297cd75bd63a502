#!/bin/sh
# An SPRT of two strata builds with `strata match`: NEW against OLD, colours swapped on each
# opening, until the test decides or GAMES games are played.
#
# Usage: scripts/sprt.sh OLD NEW [VARIANT] [LIMIT] [GAMES] [ELO0 ELO1]
#   VARIANT  chess (default), or another of `strata variants`
#   LIMIT    a strata match limit for both engines: nodes=30000 (default), tc=8+0.08, ...
#   GAMES    the most games to play (default 4000)
#   ELO0 ELO1  the SPRT bounds (default 0 10)
# Example: scripts/sprt.sh target/bins/strata-7f27833 target/release/strata chess nodes=30000
#
# Fixed-node matches do not depend on the machine's load, so they can run beside a build.
# Openings: 6 random plies from seed 11 (or $SEED), each played with both colours; a second
# run of a test should play new openings.
set -eu
old=$1
new=$2
variant=${3:-chess}
limit=${4:-nodes=30000}
games=${5:-4000}
elo0=${6:-0}
elo1=${7:-10}
cores=$(nproc)
exec "$new" match \
    --engine cmd="$new" name=new \
    --engine cmd="$old" name=old \
    --each "$limit" \
    --variant "$variant" \
    --games "$games" \
    --concurrency "$cores" \
    --openings random-plies=6 seed=${SEED:-11} \
    --sprt elo0="$elo0" elo1="$elo1" alpha=0.05 beta=0.05 \
    --ratinginterval 100
