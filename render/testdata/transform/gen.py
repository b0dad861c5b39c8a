"""gen.py writes uvsets.gltf: two quads side by side (red at x<0, green at
x>0, factors only), each with TEXCOORD_0 and TEXCOORD_1 that no material
samples (every UV is (0.99, 0.5)). make.sh runs glTF-Transform's palette
on it, which puts the palette texture on the next free set, TEXCOORD_2."""
import base64, json, struct

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
    meshes.append({"primitives": [{"attributes": {"POSITION": a, "NORMAL": nrm, "TEXCOORD_0": uv, "TEXCOORD_1": uv}, "indices": idx, "material": i}]})
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
with open("uvsets.gltf", "w") as f:
    json.dump(doc, f, indent=1)
