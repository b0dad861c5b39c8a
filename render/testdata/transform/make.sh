#!/bin/sh
# make.sh writes the fixtures of TestHigherUVSet: uvsets.gltf (gen.py) and
# palette.glb from it with glTF-Transform (npm @gltf-transform/cli 4.5.1 on
# PATH, or GT set to its gltf-transform).
set -e
cd "$(dirname "$0")"
GT=${GT:-gltf-transform}
python3 gen.py
$GT palette --min 2 uvsets.gltf palette.glb
