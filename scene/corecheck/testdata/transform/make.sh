#!/bin/sh
# make.sh writes the glTF-Transform fixtures of TestTransformVariants from the
# repository's own test files (npm @gltf-transform/cli 4.5.1 on PATH, or GT
# set to its gltf-transform).
set -e
cd "$(dirname "$0")"
GT=${GT:-gltf-transform}
# join on a file with no mesh data: an empty GLB buffer written as {} (no
# byteLength) and no BIN chunk.
$GT join ../../../testdata/khr_physics.gltf join_physics.glb
