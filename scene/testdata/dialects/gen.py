#!/usr/bin/env python3
"""Writes the dialect fixtures: one scene in glTF 2.1 core shapes, in
KHR_implicit_shapes + KHR_physics_rigid_bodies (glTF 2.0) and in OMI, every
shape size left out so each dialect's defaults apply. Run from this folder."""
import base64, json, struct

# A unit cube mesh (-0.5..0.5), 8 positions, 12 triangles.
pos = [(x, y, z) for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)]
tri = [0,1,3, 0,3,2, 4,6,7, 4,7,5, 0,4,5, 0,5,1, 2,3,7, 2,7,6, 0,2,6, 0,6,4, 1,5,7, 1,7,3]
data = b"".join(struct.pack("<3f", *p) for p in pos) + struct.pack("<36H", *tri)
uri = "data:application/octet-stream;base64," + base64.b64encode(data).decode()

def base():
    return {
        "buffers": [{"byteLength": len(data), "uri": uri}],
        "bufferViews": [{"buffer": 0, "byteLength": 96, "target": 34962},
                        {"buffer": 0, "byteOffset": 96, "byteLength": 72, "target": 34963}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 8, "type": "VEC3",
                       "min": [-0.5, -0.5, -0.5], "max": [0.5, 0.5, 0.5]},
                      {"bufferView": 1, "componentType": 5123, "count": 36, "type": "SCALAR"}],
        "meshes": [{"name": "Cube", "primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
    }

# Shapes, sizes left out (defaults), except the ground box.
SHAPES = [
    ("ground", "box", {"size": [20, 1, 20]}),
    ("capsule", "capsule", {}),
    ("box", "box", {}),
    ("sphere", "sphere", {}),
    ("cylinder", "cylinder", {}),
    ("plane", "plane", {}),
    ("plane2x3", "plane", {"sizeX": 2, "sizeZ": 3}),
    ("mesh", "mesh", {"mesh": 0}),
    ("hull", "convexMesh", {"mesh": 0}),
]

# Nodes: (name, translation, shape name or None, motion, extra)
NODES = [
    ("Ground", [0, -0.5, 0], "ground", None),
    ("Capsule", [0, 3, 0], "capsule", "dynamic"),
    ("Box", [-6, 0.5, 0], "box", None),
    ("Sphere", [-6, 0.5, 3], "sphere", None),
    ("Cylinder", [-6, 1, -3], "cylinder", None),
    ("Floor", [0, -2, 0], "plane", None),
    ("Pad", [6, 0.01, 6], "plane2x3", None),
    ("Crate", [6, 0.5, 0], "mesh", None),
    ("Rock", [6, 0.5, -3], "hull", None),
    ("Zone", [0, 1, 8], "sphere", "trigger"),
    ("Anchor", [-8, 4, 8], None, "kinematic"),
    ("Bob", [-8, 3, 8], "sphere", "dynamic"),
    ("Hidden", [3, 0.5, -6], None, None),
    ("HiddenChild", [0, 1, 0], None, None),
    ("BobJoint", [0, 1, 0], None, "joint"),
]

def write(dialect):
    g = base()
    g["asset"] = {"version": "2.1" if dialect == "gltf2.1" else "2.0", "generator": "physview testdata/dialects/gen.py"}
    nodes = []
    shape_index = {name: i for i, (name, _, _) in enumerate(SHAPES)}
    for name, t, s, role in NODES:
        n = {"name": name, "translation": t}
        if name in ("Crate", "Rock", "Hidden", "HiddenChild"):
            n["mesh"] = 0
        nodes.append(n)
    idx = {n["name"]: i for i, n in enumerate(nodes)}
    nodes[idx["Hidden"]]["children"] = [idx["HiddenChild"]]
    nodes[idx["Bob"]]["children"] = [idx["BobJoint"]]
    g["scenes"] = [{"nodes": [i for i, n in enumerate(nodes) if n["name"] not in ("HiddenChild", "BobJoint")]}]
    g["scene"] = 0
    nodes[idx["Hidden"]].setdefault("extensions", {})["KHR_node_visibility"] = {"visible": False}
    used = ["KHR_node_visibility"]

    if dialect in ("gltf2.1", "khr"):
        shapes = []
        mesh_geom = {}
        for name, t, p in SHAPES:
            if t in ("mesh", "convexMesh"):
                if dialect == "gltf2.1":
                    shapes.append({"type": t, t: dict(p)})
                else:
                    mesh_geom[name] = {"mesh": p["mesh"], "convexHull": t == "convexMesh"}
                    shapes.append(None)
                continue
            sh = {"type": t, t: dict(p)}
            if dialect == "gltf2.1" and name == "box":
                sh["box"] = {}
            shapes.append(sh)
        kept = [i for i, s in enumerate(shapes) if s is not None]
        remap = {old: new for new, old in enumerate(kept)}
        shapes = [s for s in shapes if s is not None]
        if dialect == "gltf2.1":
            g["shapes"] = shapes
        else:
            g.setdefault("extensions", {})["KHR_implicit_shapes"] = {"shapes": shapes}
            used.append("KHR_implicit_shapes")
        g.setdefault("extensions", {})["KHR_physics_rigid_bodies"] = {
            "physicsMaterials": [{"staticFriction": 0.8, "dynamicFriction": 0.7, "restitution": 0.1,
                                  "frictionCombine": "minimum", "restitutionCombine": "maximum"}],
            "collisionFilters": [{"collisionSystems": ["props"], "notCollideWithSystems": ["ghosts"]},
                                 {"collisionSystems": ["ghosts"]}],
            "physicsJoints": [{"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}]}],
        }
        used.append("KHR_physics_rigid_bodies")
        def geom(sname):
            if sname in mesh_geom:
                return dict(mesh_geom[sname])
            return {"shape": remap[shape_index[sname]]}
        for name, t, s, role in NODES:
            n = nodes[idx[name]]
            b = {}
            if role in ("dynamic", "kinematic"):
                b["motion"] = {"mass": 2} if role == "dynamic" else {"isKinematic": True}
            if s and role != "trigger":
                c = {"geometry": geom(s)}
                if name == "Capsule":
                    c["physicsMaterial"] = 0
                    c["collisionFilter"] = 0
                b["collider"] = c
            if role == "trigger":
                b["trigger"] = {"geometry": geom(s), "collisionFilter": 1}
            if name == "BobJoint":
                b["joint"] = {"connectedNode": idx["Anchor"], "joint": 0}
            if b:
                n.setdefault("extensions", {})["KHR_physics_rigid_bodies"] = b
        if dialect == "gltf2.1":
            crate = nodes[idx["Crate"]]
            # The bounding volume: the default box (1 m) scaled 1.25 around the unit cube.
            crate["boundingVolume"] = {"shape": shape_index["box"], "scale": [1.25, 1.25, 1.25]}
    else:  # OMI
        shapes = []
        for name, t, p in SHAPES:
            if t == "plane":
                continue  # OMI has no plane
            ot = {"mesh": "trimesh", "convexMesh": "convex"}.get(t, t)
            shapes.append((name, {"type": ot, ot: dict(p)}))
        sidx = {name: i for i, (name, _) in enumerate(shapes)}
        g["extensions"] = {
            "OMI_physics_shape": {"shapes": [s for _, s in shapes]},
            "OMI_physics_body": {
                "physicsMaterials": [{"staticFriction": 0.8, "dynamicFriction": 0.7, "restitution": 0.1,
                                      "frictionCombine": "minimum", "restitutionCombine": "maximum"}],
                "collisionFilters": [{"collisionSystems": ["props"], "notCollideWithSystems": ["ghosts"]},
                                 {"collisionSystems": ["ghosts"]}],
            },
            "OMI_physics_joint": {"physicsJoints": [{"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}]}]},
        }
        used += ["OMI_physics_shape", "OMI_physics_body", "OMI_physics_joint"]
        for name, t, s, role in NODES:
            if s in ("plane", "plane2x3"):
                continue
            n = nodes[idx[name]]
            b = {}
            if role in ("dynamic", "kinematic"):
                b["motion"] = {"type": role}
                if role == "dynamic":
                    b["motion"]["mass"] = 2
            elif s and role != "trigger":
                b["motion"] = {"type": "static"}
            if s and role != "trigger":
                b["collider"] = {"shape": sidx[s]}
                if name == "Capsule":
                    b["collider"]["physicsMaterial"] = 0
                    b["collider"]["collisionFilter"] = 0
            if role == "trigger":
                b["trigger"] = {"shape": sidx[s], "collisionFilter": 1}
            if b:
                n.setdefault("extensions", {})["OMI_physics_body"] = b
            if name == "BobJoint":
                n.setdefault("extensions", {})["OMI_physics_joint"] = {"connectedNode": idx["Anchor"], "joint": 0}
    g["extensionsUsed"] = sorted(used)
    g["nodes"] = nodes
    out = {"gltf2.1": "scene_gltf21.gltf", "khr": "scene_khr.gltf", "omi": "scene_omi.gltf"}[dialect]
    with open(out, "w") as f:
        json.dump(g, f, indent=2)
        f.write("\n")

for d in ("gltf2.1", "khr", "omi"):
    write(d)
