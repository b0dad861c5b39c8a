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
# webp on a quad textured with a 3x2 PNG (written here): the texture's only
# source is its EXT_texture_webp one, 3x2, sampled with the default
# (repeating, mipmapped) sampler: IMAGE_NPOT_DIMENSIONS.
python3 - <<'PY'
import base64, json, struct, zlib
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
raw = b"".join(b"\0" + bytes([200, 40, 40]) * 3 for _ in range(2))
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 3, 2, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
buf = struct.pack("<12f", 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0) + struct.pack("<8f", 0, 0, 1, 0, 1, 1, 0, 1) + struct.pack("<6H", 0, 1, 2, 0, 2, 3)
doc = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
       "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "indices": 2, "material": 0}]}],
       "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}],
       "textures": [{"source": 0}],
       "images": [{"uri": "data:image/png;base64," + base64.b64encode(png).decode()}],
       "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
                     {"bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC2"},
                     {"bufferView": 2, "componentType": 5123, "count": 6, "type": "SCALAR"}],
       "bufferViews": [{"buffer": 0, "byteLength": 48, "target": 34962}, {"buffer": 0, "byteOffset": 48, "byteLength": 32, "target": 34962},
                       {"buffer": 0, "byteOffset": 80, "byteLength": 12, "target": 34963}],
       "buffers": [{"byteLength": len(buf), "uri": "data:application/octet-stream;base64," + base64.b64encode(buf).decode()}]}
json.dump(doc, open("npot_png.gltf", "w"))
PY
$GT webp npot_png.gltf webp_npot.glb
rm npot_png.gltf
