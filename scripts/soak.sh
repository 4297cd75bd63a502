#!/usr/bin/env bash
# Soak run (issue 9): fast self-play games in every variant (`strata variants`) through the
# match runner, which adjudicates crashes, stalls, illegal moves and time forfeits. Target: 0
# of each.
#
#   scripts/soak.sh [GAMES] [TC]       (default: 200 games per variant at 1+0.01)
#
# Writes soak-<variant>.pgn in a temporary directory and prints, per variant, the score line
# and the count of each termination reason.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200}
tc=${2:-1+0.01}
S=$PWD/target/release/strata
cargo build --release -q
dir=$(mktemp -d)
echo "PGN files in $dir"
variants=$($S variants)
for variant in $variants; do
    pgn=$dir/soak-$variant.pgn
    out=$($S match --engine cmd=$S name=a --engine cmd=$S name=b --each tc="$tc" \
                   --variant "$variant" --games "$games" --concurrency 2 \
                   --openings random-plies=8 seed=11 --pgnout file="$pgn")
    line=$(grep -E "^Games:" <<<"$out" | tail -1)
    reasons=$(grep -o '^\[Termination "[^"]*"\]' "$pgn" | sort | uniq -c | sed 's/\[Termination "\(.*\)"\]/\1/' | tr -s ' ' | paste -sd, -)
    bad=$(grep -cE '^\[Termination "(time forfeit|illegal move|abandoned|stalled connection)"\]' "$pgn" || true)
    echo "$variant: $line | terminations:$reasons | crashes, stalls, illegal moves, time forfeits: $bad"
done
