#!/bin/sh
# Makes the fixtures with gen.go and glTF-Transform (installed outside the
# repository: mkdir -p /work/npm/meshcodec && cd /work/npm/meshcodec &&
# npm install @gltf-transform/cli). draco_sequential.glb uses Draco's
# sequential method, whose counts meshdec reads ahead of the data. source.glb is the uncompressed twin of
# draco, meshopt, meshopt_medium and quantized; draco_large.glb (the Draco
# benchmark's input, about 19,000 vertices) is made from a finer sphere
# that is not kept.
set -e
GT=${GT:-/work/npm/meshcodec/node_modules/.bin/gltf-transform}
cd "$(dirname "$0")"
go run gen.go
$GT draco source.glb draco.glb
$GT draco source.glb draco_sequential.glb --method sequential
$GT meshopt source.glb meshopt.glb
$GT meshopt --level medium source.glb meshopt_medium.glb
# As .gltf: the fallback buffer (no uri, no bytes) is buffer 1.
$GT meshopt source.glb meshopt_sep.gltf
$GT quantize source.glb quantized.glb
tmp=$(mktemp -d)
go run gen.go -seg 160 -ring 120 -o "$tmp/large.glb"
$GT draco "$tmp/large.glb" draco_large.glb
rm -r "$tmp"
# Draco primitives with attributes outside the stream, and their decoded
# twins as glTF-Transform decodes them (see draco_outside.cjs).
NODE_PATH=${NODE_PATH:-$(dirname "$GT")/..} node draco_outside.cjs
