#!/bin/sh
# Self-play data and a trained chess evaluation network.
#
# Usage: scripts/train_net.sh GAMES [SEED]
#
# Plays GAMES chess games with `strata datagen` on every core (5000 nodes a move, 8 random
# opening plies, seed SEED: the same command gives the same data/net-SEED.txt whatever the
# core count), then trains the network on every data/net-*.txt file with `strata train-net`
# into src/eval/nets/chess.net. Rebuild, then test the new network against the build before
# it with scripts/sprt.sh before committing it.
#
# The data are played by whatever src/eval/nets/chess.net the build holds (the first were
# played by the evaluation by terms). EPOCHS, LAMBDA and RATE (environment) override the
# training; INIT=FILE trains that network further instead of starting from random weights
# (the README's last round: INIT=src/eval/nets/chess.net EPOCHS=4 RATE=0.0001, with only
# the new games' file in data/).
set -eu
cd "$(dirname "$0")/.."
games=$1
seed=${2:-1}
cargo build --release --quiet
bin=target/release/strata
mkdir -p data
cores=$(nproc)
"$bin" datagen --variant chess --games "$games" --nodes 5000 --seed "$seed" --threads "$cores" \
    --out "data/net-$seed.txt"
init=
if [ -n "${INIT:-}" ]; then
    init="--init $INIT"
fi
# shellcheck disable=SC2086 # $init is empty or two words
"$bin" train-net --variant chess --mirror --k 180 --data data/net-*.txt $init --epochs "${EPOCHS:-12}" --lambda "${LAMBDA:-0.3}" \
    --batch 8192 --rate "${RATE:-0.002}" --threads "$cores" --out src/eval/nets/chess.net
