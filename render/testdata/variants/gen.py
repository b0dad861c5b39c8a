#!/usr/bin/env python3
"""Writes variants.gltf: one textured quad facing +Z whose base colour
texture is grey by default, red in variant "red" and blue in variant "blue"
(KHR_materials_variants), each texture its own PNG image; a fourth image
is shared by the red and blue materials as the emissive texture (sRGB) and
by the default one as the occlusion texture (linear). The blue base colour
is a second texture of the blue image, also shown (with a zero emissive
factor) by the grey material's emissive slot through the first: two glTF
textures, one image, one sampler, one colour space, so one GL texture."""
import base64, json, struct, zlib

def png(rgb, size=4):
    raw = b"".join(b"\0" + bytes(rgb) * size for _ in range(size))
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))

def uri(data, mime):
    return "data:%s;base64,%s" % (mime, base64.b64encode(data).decode())

pos = [-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0]
nrm = [0, 0, 1] * 4
uv = [0, 1, 1, 1, 1, 0, 0, 0]
idx = [0, 1, 2, 0, 2, 3]
buf = struct.pack("<12f", *pos) + struct.pack("<12f", *nrm) + struct.pack("<8f", *uv) + struct.pack("<6H", *idx)
doc = {
    "asset": {"version": "2.0", "generator": "physview render/testdata/variants/gen.py"},
    "extensionsUsed": ["KHR_materials_variants"],
    "extensions": {"KHR_materials_variants": {"variants": [{"name": "red"}, {"name": "blue"}]}},
    "scene": 0,
    "scenes": [{"nodes": [0]}],
    "nodes": [{"mesh": 0}],
    "meshes": [{"primitives": [{
        "attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2}, "indices": 3, "material": 0,
        "extensions": {"KHR_materials_variants": {"mappings": [
            {"material": 1, "variants": [0]}, {"material": 2, "variants": [1]}]}}}]}],
    "materials": [
        {"name": "grey", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}, "metallicFactor": 0}, "occlusionTexture": {"index": 3},
         "emissiveTexture": {"index": 2}, "emissiveFactor": [0, 0, 0]},
        {"name": "red", "pbrMetallicRoughness": {"baseColorTexture": {"index": 1}, "metallicFactor": 0}, "emissiveTexture": {"index": 3}},
        {"name": "blue", "pbrMetallicRoughness": {"baseColorTexture": {"index": 4}, "metallicFactor": 0}, "emissiveTexture": {"index": 3}},
    ],
    "textures": [{"source": 0}, {"source": 1}, {"source": 2}, {"source": 3}, {"source": 2}],
    "images": [{"uri": uri(png(c), "image/png")} for c in ([128, 128, 128], [220, 20, 20], [20, 20, 220], [0, 0, 0])],
    "buffers": [{"byteLength": len(buf), "uri": uri(buf, "application/octet-stream")}],
    "bufferViews": [
        {"buffer": 0, "byteOffset": 0, "byteLength": 48, "target": 34962},
        {"buffer": 0, "byteOffset": 48, "byteLength": 48, "target": 34962},
        {"buffer": 0, "byteOffset": 96, "byteLength": 32, "target": 34962},
        {"buffer": 0, "byteOffset": 128, "byteLength": 12, "target": 34963},
    ],
    "accessors": [
        {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [-1, -1, 0], "max": [1, 1, 0]},
        {"bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC3"},
        {"bufferView": 2, "componentType": 5126, "count": 4, "type": "VEC2"},
        {"bufferView": 3, "componentType": 5123, "count": 6, "type": "SCALAR"},
    ],
}
with open("variants.gltf", "w") as f:
    json.dump(doc, f, indent=2)
    f.write("\n")
