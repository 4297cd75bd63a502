#!/bin/sh
# Vendors three.js for the GUI's 3D view into gui/vendor/three/, from the npm registry,
# pinned by version and checked against the registry's integrity hash. The page loads these
# files as ES modules from the strata binary; nothing is fetched at run time.
#
#   scripts/vendor_three.sh        (needs node's npm; run from the repository's root)
set -eu
VERSION=0.187.0
INTEGRITY='sha512-Qiu7R+Cmh8CstZsY1uJOSWnVlfo7ZtNLV7mF8Jltk3LB3AtDu9cRZlcnRKkAk8Y4z6KKw35z7Y7Urd7jWY8etA=='
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack "three@$VERSION" --silent > /dev/null)
tgz="$work/three-$VERSION.tgz"
got="sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)"
[ "$got" = "$INTEGRITY" ] || { echo "integrity mismatch: $got" >&2; exit 1; }
tar xzf "$tgz" -C "$work"
out=gui/vendor/three
mkdir -p "$out"
cp "$work/package/build/three.module.js" "$work/package/build/three.core.js" \
   "$work/package/examples/jsm/controls/OrbitControls.js" "$work/package/LICENSE" "$out/"
echo "three $VERSION ($INTEGRITY)" > "$out/VERSION"
echo "vendored three $VERSION into $out"
