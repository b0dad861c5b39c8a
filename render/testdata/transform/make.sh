#!/bin/sh
# make.sh writes the fixtures of TestHigherUVSet: the sources (gen.py) and
# their palettes with glTF-Transform (npm @gltf-transform/cli 4.5.1 on PATH,
# or GT set to its gltf-transform): the palette texture lands on TEXCOORD_2
# (palette.glb), on TEXCOORD_3 (palette3.glb), and on TEXCOORD_2 beside an
# occlusion texture on set 1 (palette_occlusion.glb).
set -e
cd "$(dirname "$0")"
GT=${GT:-gltf-transform}
python3 gen.py 2 0 uvsets.gltf
python3 gen.py 3 0 uvsets3.gltf
python3 gen.py 2 1 uvsets_occlusion.gltf
$GT palette --min 2 uvsets.gltf palette.glb
$GT palette --min 2 uvsets3.gltf palette3.glb
$GT palette --min 2 uvsets_occlusion.gltf palette_occlusion.glb
rm uvsets.gltf uvsets3.gltf uvsets_occlusion.gltf
