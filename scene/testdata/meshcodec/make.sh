#!/bin/sh
# Makes the compressed fixtures from source.glb (written by `go run gen.go`)
# with glTF-Transform, installed outside the repository:
#   mkdir -p /work/npm/meshcodec && cd /work/npm/meshcodec && npm install @gltf-transform/cli
set -e
GT=${GT:-/work/npm/meshcodec/node_modules/.bin/gltf-transform}
cd "$(dirname "$0")"
$GT draco source.glb draco.glb
$GT meshopt source.glb meshopt.glb
$GT quantize source.glb quantized.glb
$GT meshopt --level medium source.glb meshopt_medium.glb
