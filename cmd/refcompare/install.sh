#!/bin/sh
# Installs what cmd/refcompare needs, once: Debian's chromium and the
# Khronos glTF Sample Renderer from npm (pinned) under
# ~/.cache/physview-refcompare. Not part of .ci/install-deps: CI does not
# run the reference comparison.
set -e
if ! command -v chromium >/dev/null 2>&1; then
	apt-get install -y chromium
fi
dir="$HOME/.cache/physview-refcompare"
mkdir -p "$dir"
cd "$dir"
[ -f package.json ] || echo '{"private": true}' > package.json
npm install --no-audit --no-fund @khronosgroup/gltf-viewer@1.1.0
echo "refcompare: Sample Renderer in $dir/node_modules/@khronosgroup/gltf-viewer/dist"
