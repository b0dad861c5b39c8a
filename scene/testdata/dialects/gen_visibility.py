#!/usr/bin/env python3
"""Writes the KHR_node_visibility fixtures: two unit cubes, Left and Right;
Right hidden (visibility_hidden.gltf), shown (visibility_shown.gltf), or
shown and hidden from 1 s on by a KHR_animation_pointer channel
(visibility_anim.gltf). Run from this folder."""
import base64, json, struct

pos = [(x, y, z) for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)]
tri = [0,1,3, 0,3,2, 4,6,7, 4,7,5, 0,4,5, 0,5,1, 2,3,7, 2,7,6, 0,2,6, 0,6,4, 1,5,7, 1,7,3]
times = [0.0, 1.0]
flags = [1, 0]
data = (b"".join(struct.pack("<3f", *p) for p in pos) + struct.pack("<36H", *tri)
        + struct.pack("<2f", *times) + bytes(flags) + b"\0\0")
uri = "data:application/octet-stream;base64," + base64.b64encode(data).decode()

def write(name, visible, animated):
    g = {
        "asset": {"version": "2.0", "generator": "physview testdata/dialects/gen_visibility.py"},
        "buffers": [{"byteLength": len(data), "uri": uri}],
        "bufferViews": [{"buffer": 0, "byteLength": 96, "target": 34962},
                        {"buffer": 0, "byteOffset": 96, "byteLength": 72, "target": 34963},
                        {"buffer": 0, "byteOffset": 168, "byteLength": 8},
                        {"buffer": 0, "byteOffset": 176, "byteLength": 2}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 8, "type": "VEC3",
                       "min": [-0.5, -0.5, -0.5], "max": [0.5, 0.5, 0.5]},
                      {"bufferView": 1, "componentType": 5123, "count": 36, "type": "SCALAR"}],
        "materials": [{"pbrMetallicRoughness": {"baseColorFactor": [0.9, 0.2, 0.2, 1]}}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1, "material": 0}]}],
        "nodes": [{"name": "Left", "mesh": 0, "translation": [-1.5, 0, 0]},
                  {"name": "Right", "mesh": 0, "translation": [1.5, 0, 0],
                   "extensions": {"KHR_node_visibility": {"visible": visible}}}],
        "scenes": [{"nodes": [0, 1]}],
        "scene": 0,
        "extensionsUsed": ["KHR_node_visibility"],
        "extensionsRequired": ["KHR_node_visibility"],
    }
    if animated:
        g["accessors"] += [{"bufferView": 2, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
                           {"bufferView": 3, "componentType": 5121, "count": 2, "type": "SCALAR"}]
        g["animations"] = [{"channels": [{"sampler": 0, "target": {"path": "pointer", "extensions": {
            "KHR_animation_pointer": {"pointer": "/nodes/1/extensions/KHR_node_visibility/visible"}}}}],
            "samplers": [{"input": 2, "output": 3, "interpolation": "STEP"}]}]
        g["extensionsUsed"].append("KHR_animation_pointer")
    with open(name, "w") as f:
        json.dump(g, f, indent=2)
        f.write("\n")

write("visibility_hidden.gltf", False, False)
write("visibility_shown.gltf", True, False)
write("visibility_anim.gltf", True, True)
