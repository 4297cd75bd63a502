#!/bin/sh
# Builds commit REV of this repository into target/bins/strata-REV (in a temporary worktree),
# for scripts/sprt.sh and the other A/B measurements.
#
# Usage: scripts/build_rev.sh REV
set -eu
cd "$(dirname "$0")/.."
rev=$(git rev-parse --short "$1")
out="$PWD/target/bins/strata-$rev"
if [ -x "$out" ]; then
    echo "$out"
    exit 0
fi
dir=$(mktemp -d)
git worktree add --quiet --detach "$dir" "$rev"
(cd "$dir" && CARGO_TARGET_DIR="$PWD/../strata-build-$rev" cargo build --release --quiet)
mkdir -p target/bins
cp "$dir/../strata-build-$rev/release/strata" "$out"
git worktree remove --force "$dir"
rm -rf "$dir/../strata-build-$rev"
echo "$out"
