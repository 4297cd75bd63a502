#!/bin/sh
# A build against the build issue 19 started from (7f27833) in every variant but chess, at
# fixed nodes (the limits the issue's tests used), with scripts/sprt.sh.
#
# Usage: scripts/vs_start.sh [NEW_BINARY] [GAMES] [VARIANT...]
#   NEW_BINARY  default target/release/strata
#   GAMES       the most games per variant (default 200; the SPRT may stop a variant sooner)
#   VARIANT     default: every variant NEW_BINARY plays (`strata variants`) but chess
# Builds target/bins/strata-7f27833 first if it is missing. Each variant's log goes to
# target/vs_start/VARIANT.txt; the last lines (Elo, games, pentanomial, LLR) are printed.
set -eu
cd "$(dirname "$0")/.."
new=${1:-target/release/strata}
games=${2:-200}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && shift
variants=${*:-$("$new" variants | grep -vx chess)}
old=$(scripts/build_rev.sh 7f27833)
mkdir -p target/vs_start
for v in $variants; do
    case $v in
    polyhedron) limit=nodes=10000 ;;
    *) limit=nodes=20000 ;;
    esac
    log=target/vs_start/$v.txt
    scripts/sprt.sh "$old" "$new" "$v" "$limit" "$games" >"$log" 2>&1 || true
    echo "== $v ($limit, new $new against $old)"
    grep -E '^(Elo|Games|Ptnml|LLR)' "$log" | tail -4
done
