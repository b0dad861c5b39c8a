package khr_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"physview/scene"
)

// update writes the rules' documents where scene's corecheck test reads
// them (scene/testdata/khr_rules).
var update = flag.Bool("update", false, "write the KHR rules' documents to scene/testdata/khr_rules")

// khrDoc is a KHR physics document: shapes, the rigid-bodies root object
// and the nodes are given as JSON; one mesh (a triangle) is there for
// geometry.mesh and geometry.node.
func khrDoc(shapes, root, nodes string) []byte {
	return []byte(`{"asset":{"version":"2.0"},"extensionsUsed":["KHR_implicit_shapes","KHR_physics_rigid_bodies"],` +
		`"extensions":{"KHR_implicit_shapes":{"shapes":[` + shapes + `]},"KHR_physics_rigid_bodies":{` + root + `}},` +
		`"buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}],` +
		`"bufferViews":[{"buffer":0,"byteLength":36,"target":34962}],` +
		`"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],` +
		`"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],` +
		`"nodes":[{"mesh":0},` + nodes + `],"scenes":[{"nodes":[0,1]}],"scene":0}`)
}

// body is node 1 with a KHR_physics_rigid_bodies block.
func body(block string) string {
	return `{"extensions":{"KHR_physics_rigid_bodies":` + block + `}}`
}

const dynamicBox = `{"motion":{"mass":1},"collider":{"geometry":{"shape":0}}}`

// TestKHRRules checks each KHR physics rule on a fixture at its boundary:
// the file that keeps the rule gives no finding of its code, the one that
// breaks it gives it, at its path.
func TestKHRRules(t *testing.T) {
	box := `{"type":"box","box":{"size":[1,1,1]}}`
	capsule := func(h, rt, rb float64) string {
		return fmt.Sprintf(`{"type":"capsule","capsule":{"height":%g,"radiusTop":%g,"radiusBottom":%g}}`, h, rt, rb)
	}
	cylinder := func(h, rt, rb float64) string {
		return fmt.Sprintf(`{"type":"cylinder","cylinder":{"height":%g,"radiusTop":%g,"radiusBottom":%g}}`, h, rt, rb)
	}
	limitDoc := func(limit string) []byte {
		return khrDoc(box, `"physicsJoints":[{"limits":[`+limit+`]}]`,
			body(`{"motion":{"mass":1},"collider":{"geometry":{"shape":0}},"joint":{"connectedNode":0,"joint":0}}`))
	}
	// jointDoc: body node 1 with two joint frames, nodes 2 and 3; node 2's
	// joint has the members connected (then "joint":0).
	jointDoc := func(connected string) []byte {
		return khrDoc(box, `"physicsJoints":[{"limits":[{"linearAxes":[0],"min":0,"max":0}]}]`,
			`{"children":[2,3],"extensions":{"KHR_physics_rigid_bodies":{"motion":{"mass":1},"collider":{"geometry":{"shape":0}}}}},`+
				`{"extensions":{"KHR_physics_rigid_bodies":{"joint":{`+connected+`"joint":0}}}},{"name":"frame"}`)
	}
	filterDoc := func(filters string) []byte {
		return khrDoc(box, `"collisionFilters":[`+filters+`]`, body(`{"collider":{"geometry":{"shape":0},"collisionFilter":0}}`))
	}
	cases := []struct {
		name, code, path string
		data             []byte
		want             bool
	}{
		// geometry names exactly one of shape and mesh (or node).
		{"geometry_shape", "KHR_GEOMETRY_SHAPE_AND_MESH", "", khrDoc(box, ``, body(dynamicBox)), false},
		{"geometry_mesh", "KHR_GEOMETRY_SHAPE_AND_MESH", "", khrDoc(box, ``, body(`{"collider":{"geometry":{"mesh":0}}}`)), false},
		{"geometry_both", "KHR_GEOMETRY_SHAPE_AND_MESH", "/nodes/1/extensions/KHR_physics_rigid_bodies/collider/geometry", khrDoc(box, ``, body(`{"collider":{"geometry":{"shape":0,"mesh":0}}}`)), true},
		{"geometry_neither", "KHR_GEOMETRY_NO_SHAPE", "/nodes/1/extensions/KHR_physics_rigid_bodies/collider/geometry", khrDoc(box, ``, body(`{"collider":{"geometry":{"convexHull":true}}}`)), true},
		{"geometry_mesh_missing", "UNRESOLVED_REFERENCE", "/nodes/1/extensions/KHR_physics_rigid_bodies/collider/geometry/mesh", khrDoc(box, ``, body(`{"collider":{"geometry":{"mesh":1}}}`)), true},
		{"collider_no_geometry", "UNDEFINED_PROPERTY", "/nodes/1/extensions/KHR_physics_rigid_bodies/collider/geometry", khrDoc(box, ``, body(`{"collider":{}}`)), true},
		// Tapered shapes with one radius 0 are valid; both 0 is not.
		{"cone_cylinder", "VALUE_NOT_IN_RANGE", "", khrDoc(cylinder(1, 0, 0.5), ``, body(dynamicBox)), false},
		{"cone_capsule", "VALUE_NOT_IN_RANGE", "", khrDoc(capsule(1, 0.5, 0), ``, body(dynamicBox)), false},
		{"tapered_not_noted", "KHR_TAPERED_SHAPE", "", khrDoc(capsule(1, 0.5, 0), ``, body(dynamicBox)), false},
		{"no_radius", "KHR_IMPLICIT_SHAPES_DEGENERATE_SHAPE", "/extensions/KHR_implicit_shapes/shapes/0/cylinder", khrDoc(cylinder(1, 0, 0), ``, body(dynamicBox)), true},
		// Degenerate: height and radii summing under 0.0039216.
		{"tiny_capsule_ok", "KHR_IMPLICIT_SHAPES_DEGENERATE_SHAPE", "", khrDoc(capsule(0.002, 0.001, 0.001), ``, body(dynamicBox)), false},
		{"tiny_capsule_degenerate", "KHR_IMPLICIT_SHAPES_DEGENERATE_SHAPE", "/extensions/KHR_implicit_shapes/shapes/0/capsule", khrDoc(capsule(0.0019, 0.001, 0.0009), ``, body(dynamicBox)), true},
		{"capsule_height_0", "KHR_IMPLICIT_SHAPES_DEGENERATE_SHAPE", "/extensions/KHR_implicit_shapes/shapes/0/capsule/height", khrDoc(capsule(0, 0.5, 0.5), ``, body(dynamicBox)), true},
		{"box_zero", "KHR_IMPLICIT_SHAPES_DEGENERATE_SHAPE", "/extensions/KHR_implicit_shapes/shapes/0/box/size/1", khrDoc(`{"type":"box","box":{"size":[1,0,1]}}`, ``, body(dynamicBox)), true},
		// Joint limits: axes and ranges.
		{"limit_ok", "KHR_RIGID_BODIES_JOINT_INVALID_RANGE", "", limitDoc(`{"linearAxes":[0],"min":0.5,"max":0.5}`), false},
		{"limit_min_max", "KHR_RIGID_BODIES_JOINT_INVALID_RANGE", "/extensions/KHR_physics_rigid_bodies/physicsJoints/0/limits/0", limitDoc(`{"linearAxes":[0],"min":0.5,"max":0.4999}`), true},
		{"limit_no_axes", "ONE_OF_MISMATCH", "/extensions/KHR_physics_rigid_bodies/physicsJoints/0/limits/0", limitDoc(`{"min":0,"max":1}`), true},
		{"limit_axis_3", "VALUE_NOT_IN_RANGE", "/extensions/KHR_physics_rigid_bodies/physicsJoints/0/limits/0", limitDoc(`{"angularAxes":[3],"min":0,"max":1}`), true},
		{"joint_node_has_body", "KHR_JOINT_NODE_HAS_BODY", "/nodes/1/extensions/KHR_physics_rigid_bodies/joint", limitDoc(`{"linearAxes":[0]}`), true},
		// A joint joins two bodies: not the joint node's own body (the node
		// itself, the body, another frame of it); connectedNode -1 is no node.
		{"joint_other_body", "KHR_JOINT_SAME_BODY", "", jointDoc(`"connectedNode":0,`), false},
		{"joint_own_body", "KHR_JOINT_SAME_BODY", "/nodes/2/extensions/KHR_physics_rigid_bodies/joint/connectedNode", jointDoc(`"connectedNode":1,`), true},
		{"joint_itself", "KHR_JOINT_SAME_BODY", "/nodes/2/extensions/KHR_physics_rigid_bodies/joint/connectedNode", jointDoc(`"connectedNode":2,`), true},
		{"joint_other_frame", "KHR_JOINT_SAME_BODY", "/nodes/2/extensions/KHR_physics_rigid_bodies/joint/connectedNode", jointDoc(`"connectedNode":3,`), true},
		{"joint_connected_minus_one", "UNRESOLVED_REFERENCE", "/nodes/2/extensions/KHR_physics_rigid_bodies/joint/connectedNode", jointDoc(`"connectedNode":-1,`), true},
		{"joint_connected_absent", "UNRESOLVED_REFERENCE", "", jointDoc(``), false},
		// Collision filter sets.
		{"filter_ok", "KHR_COLLISION_SYSTEM_UNKNOWN", "", filterDoc(`{"collisionSystems":["a"],"collideWithSystems":["a"]}`), false},
		{"filter_unknown_system", "KHR_COLLISION_SYSTEM_UNKNOWN", "/extensions/KHR_physics_rigid_bodies/collisionFilters/0/collideWithSystems/0", filterDoc(`{"collisionSystems":["a"],"collideWithSystems":["b"]}`), true},
		{"filter_both", "KHR_RIGID_BODIES_COLLISION_FILTER_INVALID_FILTER_SET", "/extensions/KHR_physics_rigid_bodies/collisionFilters/0", filterDoc(`{"collisionSystems":["a"],"collideWithSystems":["a"],"notCollideWithSystems":["a"]}`), true},
		{"filter_missing", "UNRESOLVED_REFERENCE", "/nodes/1/extensions/KHR_physics_rigid_bodies/collider/collisionFilter", khrDoc(box, ``, body(`{"collider":{"geometry":{"shape":0},"collisionFilter":0}}`)), true},
		// Trigger node lists.
		{"trigger_nodes_ok", "KHR_COMPOUND_TRIGGER", "", khrDoc(box, ``, `{"children":[2],"extensions":{"KHR_physics_rigid_bodies":{"trigger":{"nodes":[2]}}}},`+body(`{"trigger":{"geometry":{"shape":0}}}`)), false},
		{"trigger_nodes_not_descendant", "KHR_COMPOUND_TRIGGER", "/nodes/1/extensions/KHR_physics_rigid_bodies/trigger/nodes/0", khrDoc(box, ``, `{"extensions":{"KHR_physics_rigid_bodies":{"trigger":{"nodes":[2]}}}},`+body(`{"trigger":{"geometry":{"shape":0}}}`)), true},
		{"trigger_nodes_and_geometry", "KHR_MUTUALLY_EXCLUSIVE", "/nodes/1/extensions/KHR_physics_rigid_bodies/trigger", khrDoc(box, ``, `{"children":[2],"extensions":{"KHR_physics_rigid_bodies":{"trigger":{"nodes":[2],"geometry":{"shape":0}}}}},`+body(`{"trigger":{"geometry":{"shape":0}}}`)), true},
		// Motion.
		// The fork's schema rules (scene/khr/fork.go).
		{"limit_both_axes", "ONE_OF_MISMATCH", "/extensions/KHR_physics_rigid_bodies/physicsJoints/0/limits/0", limitDoc(`{"linearAxes":[0],"angularAxes":[1]}`), true},
		{"limit_duplicate_axes", "DUPLICATE_ELEMENTS", "/extensions/KHR_physics_rigid_bodies/physicsJoints/0/limits/0/linearAxes/1", limitDoc(`{"linearAxes":[0,0]}`), true},
		{"drive_mode_unknown", "VALUE_NOT_IN_LIST", "/extensions/KHR_physics_rigid_bodies/physicsJoints/0/drives/0/mode", khrDoc(box, `"physicsJoints":[{"drives":[{"type":"linear","mode":"push","axis":0}]}]`, body(dynamicBox)), true},
		{"drive_damping_negative", "VALUE_NOT_IN_RANGE", "/extensions/KHR_physics_rigid_bodies/physicsJoints/0/drives/0/damping", khrDoc(box, `"physicsJoints":[{"drives":[{"type":"linear","mode":"force","axis":0,"damping":-1}]}]`, body(dynamicBox)), true},
		{"drives_empty", "EMPTY_ENTITY", "/extensions/KHR_physics_rigid_bodies/physicsJoints/0/drives", khrDoc(box, `"physicsJoints":[{"limits":[{"linearAxes":[0]}],"drives":[]}]`, body(dynamicBox)), true},
		{"custom_property", "UNEXPECTED_PROPERTY", "/nodes/1/extensions/KHR_physics_rigid_bodies/customProperty", khrDoc(box, ``, body(`{"motion":{"mass":1},"collider":{"geometry":{"shape":0}},"customProperty":1}`)), true},
		{"shape_unused", "UNUSED_OBJECT", "/extensions/KHR_implicit_shapes/shapes/1", khrDoc(box+`,`+box, ``, body(dynamicBox)), true},
		{"shape_used", "UNUSED_OBJECT", "", khrDoc(box, ``, body(dynamicBox)), false},
		{"trigger_of_compound", "KHR_RIGID_BODIES_TRIGGER_NODES_INVALID", "/nodes/1/extensions/KHR_physics_rigid_bodies/trigger/nodes/0", khrDoc(box, ``, `{"children":[2],"extensions":{"KHR_physics_rigid_bodies":{"trigger":{"nodes":[2]}}}},{"children":[3],"extensions":{"KHR_physics_rigid_bodies":{"trigger":{"nodes":[3]}}}},`+body(`{"trigger":{"geometry":{"shape":0}}}`)), true},
		{"inertia_length", "ARRAY_LENGTH_NOT_IN_LIST", "/nodes/1/extensions/KHR_physics_rigid_bodies/motion/inertiaDiagonal", khrDoc(box, ``, body(`{"motion":{"mass":1,"inertiaDiagonal":[1]},"collider":{"geometry":{"shape":0}}}`)), true},
		{"inertia_negative", "VALUE_NOT_IN_RANGE", "/nodes/1/extensions/KHR_physics_rigid_bodies/motion/inertiaDiagonal/2", khrDoc(box, ``, body(`{"motion":{"mass":1,"inertiaDiagonal":[1,1,-1]},"collider":{"geometry":{"shape":0}}}`)), true},
		{"mass_negative", "VALUE_NOT_IN_RANGE", "/nodes/1/extensions/KHR_physics_rigid_bodies/motion/mass", khrDoc(box, ``, body(`{"motion":{"mass":-1},"collider":{"geometry":{"shape":0}}}`)), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if *update {
				dir := filepath.Join("..", "testdata", "khr_rules")
				os.MkdirAll(dir, 0o755)
				os.WriteFile(filepath.Join(dir, c.name+".gltf"), c.data, 0o644)
			}
			d, err := scene.Decode(c.data, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := false
			for _, f := range d.Findings() {
				if strings.HasPrefix(f.Code, "OMI_") {
					t.Errorf("OMI code in a KHR document: %v", f)
				}
				if strings.Contains(f.Path, "OMI_physics") {
					t.Errorf("OMI path in a KHR document: %v", f)
				}
				if f.Code == c.code && (c.path == "" || f.Path == c.path) {
					got = true
				}
			}
			if got != c.want {
				t.Errorf("%s at %q: found %v, want %v; findings:\n%v", c.code, c.path, got, c.want, d.Findings())
			}
		})
	}
}

// TestKHRGeometryMesh checks geometry.mesh (the current draft) is read as a
// mesh shape and written back as mesh, and geometry.node as node, each in
// the form the file used, and that a save of a KHR document writes no OMI
// block and an OMI one no KHR block.
func TestKHRGeometryMesh(t *testing.T) {
	for _, form := range []string{"mesh", "node"} {
		t.Run(form, func(t *testing.T) {
			data := khrDoc(`{"type":"sphere","sphere":{"radius":0.5}}`, ``,
				body(`{"motion":{"mass":1},"collider":{"geometry":{"`+form+`":0,"convexHull":true}}}`))
			d, err := scene.Decode(data, nil)
			if err != nil {
				t.Fatal(err)
			}
			s := d.Nodes[1].Body.Collider.Shape
			if s < 0 || d.Shapes[s].Type != scene.ShapeConvex || d.Shapes[s].Mesh != 0 {
				t.Fatalf("collider shape %d: %+v", s, d.Shapes)
			}
			d.Nodes[1].Body.Motion.Mass = 2 // touch the node so it is written
			out, err := d.Encode(filepath.Join(t.TempDir(), "out.gltf"))
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				ExtensionsUsed []string                   `json:"extensionsUsed"`
				Extensions     map[string]json.RawMessage `json:"extensions"`
				Nodes          []struct {
					Extensions map[string]struct {
						Collider struct {
							Geometry map[string]any `json:"geometry"`
						} `json:"collider"`
					} `json:"extensions"`
				} `json:"nodes"`
			}
			if err := json.Unmarshal(out[0].Data, &doc); err != nil {
				t.Fatal(err)
			}
			g := doc.Nodes[1].Extensions[scene.ExtKHRBodies].Collider.Geometry
			if g[form] != 0.0 || g["convexHull"] != true || len(g) != 2 {
				t.Errorf("geometry written %v, want {%q: 0, convexHull: true}", g, form)
			}
			for _, name := range []string{scene.ExtShape, scene.ExtBody, scene.ExtJoint} {
				if _, ok := doc.Extensions[name]; ok {
					t.Errorf("a KHR save wrote %s", name)
				}
				if _, ok := doc.Nodes[1].Extensions[name]; ok {
					t.Errorf("a KHR save wrote %s on node 1", name)
				}
			}
			if strings.Join(doc.ExtensionsUsed, ",") != "KHR_implicit_shapes,KHR_physics_rigid_bodies" {
				t.Errorf("extensionsUsed %v", doc.ExtensionsUsed)
			}
		})
	}
}
