"""gen.py SETS OCCLUSION OUT writes OUT: two quads side by side (red at x<0,
green at x>0, factors), each with TEXCOORD_0 to TEXCOORD_<SETS-1>, every UV
(0.99, 0.5); with OCCLUSION 1 both materials have a white occlusion texture
on set 1. make.sh runs glTF-Transform's palette on them, which puts the
palette texture on the next free set, TEXCOORD_<SETS>."""
import base64, json, struct, sys, zlib

nsets, occlusion, out = int(sys.argv[1]), sys.argv[2] == "1", sys.argv[3]

def png_white():
    """A 2x2 white RGB PNG."""
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    raw = b"".join(b"\0" + b"\xff" * 6 for _ in range(2))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")

pos = lambda x0: [(x0, -0.5, 0), (x0 + 0.9, -0.5, 0), (x0 + 0.9, 0.5, 0), (x0, 0.5, 0)]
buf = b""
views, accs = [], []
def add(data, count, typ, ctype=5126, minmax=None, target=34962):
    global buf
    views.append({"buffer": 0, "byteOffset": len(buf), "byteLength": len(data), "target": target})
    a = {"bufferView": len(views) - 1, "componentType": ctype, "count": count, "type": typ}
    if minmax:
        a["min"], a["max"] = minmax
    accs.append(a)
    buf += data
    buf += b"\0" * (-len(buf) % 4)
    return len(accs) - 1
meshes = []
idx = add(struct.pack("<6H", 0, 1, 2, 0, 2, 3), 6, "SCALAR", 5123, target=34963)
nrm = add(struct.pack("<12f", *[0, 0, 1] * 4), 4, "VEC3")
uv = add(struct.pack("<8f", *[0.99, 0.5] * 4), 4, "VEC2")
for i, x0 in enumerate([-0.95, 0.05]):
    p = pos(x0)
    a = add(struct.pack("<12f", *[c for v in p for c in v]), 4, "VEC3", minmax=([x0, -0.5, 0], [x0 + 0.9, 0.5, 0]))
    attrs = {"POSITION": a, "NORMAL": nrm}
    for k in range(nsets):
        attrs["TEXCOORD_%d" % k] = uv
    meshes.append({"primitives": [{"attributes": attrs, "indices": idx, "material": i}]})
doc = {
    "asset": {"version": "2.0", "generator": "physview render/testdata/transform/gen.py"},
    "scene": 0, "scenes": [{"nodes": [0, 1]}],
    "nodes": [{"mesh": 0, "name": "red"}, {"mesh": 1, "name": "green"}],
    "meshes": meshes,
    "materials": [
        {"name": "red", "pbrMetallicRoughness": {"baseColorFactor": [0.9, 0.05, 0.05, 1], "metallicFactor": 0, "roughnessFactor": 1}},
        {"name": "green", "pbrMetallicRoughness": {"baseColorFactor": [0.05, 0.9, 0.05, 1], "metallicFactor": 0, "roughnessFactor": 1}},
    ],
    "accessors": accs, "bufferViews": views,
    "buffers": [{"byteLength": len(buf), "uri": "data:application/octet-stream;base64," + base64.b64encode(buf).decode()}],
}
if occlusion:
    for m in doc["materials"]:
        m["occlusionTexture"] = {"index": 0, "texCoord": 1}
    doc["textures"] = [{"source": 0}]
    doc["images"] = [{"uri": "data:image/png;base64," + base64.b64encode(png_white()).decode()}]
with open(out, "w") as f:
    json.dump(doc, f, indent=1)
