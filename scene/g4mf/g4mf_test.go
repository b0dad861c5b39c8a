package g4mf

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"physview/assets"
	"physview/debugdraw"
	"physview/internal/testcorpus"
	"physview/scene"
)

var s45 = math.Sqrt(0.5)

func quat(q [4]float64) mgl64.Quat { return mgl64.Quat{W: q[3], V: mgl64.Vec3{q[0], q[1], q[2]}} }

func near(a, b mgl64.Vec3) bool { return a.Sub(b).Len() < 1e-9 }

// TestRotor90: a 90-degree rotor in each plane turns the plane's first axis
// onto its second, and back again through QuatToRotor.
func TestRotor90(t *testing.T) {
	cases := []struct {
		name     string
		rotor    [4]float64
		from, to mgl64.Vec3
		wantQuat [4]float64
	}{
		{"xy", [4]float64{s45, s45, 0, 0}, mgl64.Vec3{1, 0, 0}, mgl64.Vec3{0, 1, 0}, [4]float64{0, 0, s45, s45}},
		{"xz", [4]float64{s45, 0, s45, 0}, mgl64.Vec3{1, 0, 0}, mgl64.Vec3{0, 0, 1}, [4]float64{0, -s45, 0, s45}},
		{"yz", [4]float64{s45, 0, 0, s45}, mgl64.Vec3{0, 1, 0}, mgl64.Vec3{0, 0, 1}, [4]float64{s45, 0, 0, s45}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := RotorToQuat(c.rotor)
			for i := range q {
				if math.Abs(q[i]-c.wantQuat[i]) > 1e-12 {
					t.Fatalf("quaternion %v, want %v", q, c.wantQuat)
				}
			}
			if got := quat(q).Rotate(c.from); !near(got, c.to) {
				t.Errorf("turns %v to %v, want %v", c.from, got, c.to)
			}
			if back := QuatToRotor(q); back != c.rotor {
				t.Errorf("back to rotor %v, want %v", back, c.rotor)
			}
		})
	}
}

// TestSpin90: a body spinning at pi/2 rad/s in a plane has turned, after one
// second, by the 90-degree rotor of that plane.
func TestSpin90(t *testing.T) {
	for _, c := range []struct {
		name     string
		bivector [3]float64
		rotor    [4]float64
	}{
		{"xy", [3]float64{math.Pi / 2, 0, 0}, [4]float64{s45, s45, 0, 0}},
		{"xz", [3]float64{0, math.Pi / 2, 0}, [4]float64{s45, 0, s45, 0}},
		{"yz", [3]float64{0, 0, math.Pi / 2}, [4]float64{s45, 0, 0, s45}},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := mgl64.Vec3(BivectorToVector(c.bivector))
			turned := mgl64.QuatRotate(w.Len(), w.Normalize())
			want := quat(RotorToQuat(c.rotor))
			if !turned.ApproxEqualThreshold(want, 1e-12) {
				t.Errorf("angular velocity %v turns by %v in 1 s, want %v", w, turned, want)
			}
			if back := VectorToBivector([3]float64(w)); back != c.bivector {
				t.Errorf("back to bivector %v", back)
			}
		})
	}
}

// TestInertia90: principal moments per plane [3, 2, 1] (XY, XZ, YZ) turned
// 90 degrees in XY give the tensor diag(2, 1, 3) in the body's space.
func TestInertia90(t *testing.T) {
	diag := InertiaFromBivector([3]float64{3, 2, 1})
	if diag != [3]float64{1, 2, 3} {
		t.Fatalf("moments %v, want Ixx 1, Iyy 2, Izz 3", diag)
	}
	r := quat(RotorToQuat([4]float64{s45, s45, 0, 0})).Mat4().Mat3()
	tensor := r.Mul3(mgl64.Diag3(mgl64.Vec3(diag))).Mul3(r.Transpose())
	want := mgl64.Diag3(mgl64.Vec3{2, 1, 3})
	for i := range tensor {
		if math.Abs(tensor[i]-want[i]) > 1e-12 {
			t.Fatalf("tensor %v, want %v", tensor, want)
		}
	}
	if InertiaToBivector(diag) != [3]float64{3, 2, 1} {
		t.Error("InertiaToBivector is not the inverse")
	}
}

func load(t *testing.T, path string) *scene.Document {
	t.Helper()
	d, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range d.Findings() {
		if f.Severity == scene.Error {
			t.Errorf("finding: %s", f)
		}
	}
	return d
}

func TestBodiesMeshFixture(t *testing.T) {
	d := load(t, "testdata/bodies_mesh.g4tf")
	n := d.GLTF.Nodes
	if len(n) != 9 || n[1].Name != "Tetra body" {
		t.Fatalf("%d nodes", len(n))
	}
	// Basis: 90 degrees about Z.
	if got := quat(n[1].Rotation).Rotate(mgl64.Vec3{1, 0, 0}); !near(got, mgl64.Vec3{0, 1, 0}) || n[1].Scale != [3]float64{1, 1, 1} || n[1].Translation != [3]float64{1, 2, 3} {
		t.Errorf("body transform: T %v R %v S %v", n[1].Translation, n[1].Rotation, n[1].Scale)
	}
	// Rotor: 90 degrees in YZ (about X), uniform scale 2.
	if got := quat(n[3].Rotation).Rotate(mgl64.Vec3{0, 1, 0}); !near(got, mgl64.Vec3{0, 0, 1}) || n[3].Scale != [3]float64{2, 2, 2} {
		t.Errorf("ramp transform: R %v S %v", n[3].Rotation, n[3].Scale)
	}
	m := d.Nodes[1].Body.Motion
	want := scene.Motion{Type: scene.MotionDynamic, Mass: 3, GravityFactor: 0.5,
		InertiaDiagonal: [3]float64{1, 2, 3}, InertiaOrientation: [4]float64{0, 0, s45, s45},
		AngularVelocity: [3]float64{0, 0, math.Pi / 2}, LinearVelocity: [3]float64{0, 0, -1}}
	if diff := cmp.Diff(want, *m, cmpopts.EquateApprox(0, 1e-12), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("motion (-want +got):\n%s", diff)
	}
	wantShapes := []scene.Shape{
		{Type: scene.ShapeConvex, Mesh: 0, Name: "hull"},
		{Type: scene.ShapeTrimesh, Mesh: 0, Name: "ramp"},
		{Type: scene.ShapeHeightmap, Mesh: -1, Name: "hills", Size: [3]float64{3, 1, 2}, Heights: []float64{0, 0.5, 0, 0.25, 1, 0.25}},
		{Type: scene.ShapeRay, Mesh: -1, Name: "probe", Length: 2},
		{Type: scene.ShapeGeneral, Mesh: -1, Name: "zone", Size: [3]float64{2, 1, 2}, Curves: []scene.Curve{{Radii: [3]float64{0.5, 0, 0.5}, Exponent: 3}}},
	}
	if diff := cmp.Diff(wantShapes, d.Shapes, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("shapes (-want +got):\n%s", diff)
	}
	if tr := d.Nodes[6].Body.Trigger; tr == nil || len(tr.Nodes) != 1 || tr.Nodes[0] != 8 {
		t.Errorf("compound trigger %+v", tr)
	}
	pd, err := d.ReadPrimitive(0, 0)
	if err != nil || pd.Mode != scene.DrawTriangles || len(pd.Positions) != 12 {
		t.Errorf("tetra mesh: %v, %+v", err, pd)
	}
	if pd, err := d.ReadPrimitive(1, 0); err != nil || pd.Mode != scene.DrawLines || len(pd.Indices) != 4 {
		t.Errorf("wire mesh: %v, %+v", err, pd)
	}
}

// fixtures are the G4MF files tested: ours and the corpus's 3D one.
func fixtures(t *testing.T) []string {
	files, _ := filepath.Glob("testdata/*.g4tf")
	corpus := filepath.Join(testcorpus.Root(t), "..", "shared", "corpus", "synthesized", "g4mf", "shapes_3d_bodies.g4tf")
	if _, err := os.Stat(corpus); err == nil {
		files = append(files, corpus)
	}
	return files
}

func TestCorpusBodies(t *testing.T) {
	d := load(t, testcorpus.File(t, "synthesized/g4mf/shapes_3d_bodies.g4tf"))
	types := []scene.ShapeType{scene.ShapeBox, scene.ShapeSphere, scene.ShapeCapsule, scene.ShapeCylinder, scene.ShapeCylinder,
		scene.ShapeGeneral, scene.ShapeGeneral, scene.ShapePlane, scene.ShapeBox}
	for i, st := range types {
		if d.Shapes[i].Type != st {
			t.Errorf("shape %d (%s) is %s, want %s", i, d.Shapes[i].Name, d.Shapes[i].Type, st)
		}
	}
	if s := d.Shapes[2]; s.Height != 1 || s.RadiusTop != 0.5 || s.RadiusBottom != 0.5 {
		t.Errorf("capsule %+v, want mid height 1, radius 0.5", s)
	}
	if s := d.Shapes[4]; s.Height != 2 || s.RadiusTop != 0 || s.RadiusBottom != 0.5 {
		t.Errorf("cone %+v, want cylinder height 2, radius top 0, bottom 0.5", s)
	}
	// The 45-degree rotor in XZ is -45 degrees about Y.
	q := quat(d.GLTF.Nodes[4].Rotation)
	if got := q.Rotate(mgl64.Vec3{1, 0, 0}); got.Sub(mgl64.Vec3{s45, 0, s45}).Len() > 1e-6 {
		t.Errorf("rotor turns +X to %v, want towards +Z", got)
	}
	// Angular velocity [xy, xz, yz] = [0, 0, 1] is 1 rad/s about X.
	if w := d.Nodes[1].Body.Motion.AngularVelocity; w != [3]float64{1, 0, 0} {
		t.Errorf("angular velocity %v, want (1, 0, 0)", w)
	}
}

// TestDrawOnSurface: every wireframe vertex of every shape of the fixtures
// lies on the shape's surface within 1e-5 of its size.
func TestDrawOnSurface(t *testing.T) {
	for _, path := range fixtures(t) {
		d := load(t, path)
		for i, s := range d.Shapes {
			if s.Type == scene.ShapeConvex || s.Type == scene.ShapeTrimesh || s.Type == scene.ShapePlane || s.Type == scene.ShapeRay || s.Type == scene.ShapeHeightmap {
				continue
			}
			ls := debugdraw.Shape(s, mgl64.Ident4(), [4]float32{1, 1, 1, 1}, nil)
			lo, hi := s.Bounds(mgl64.Vec3{}, mgl64.Vec3{})
			size := hi.Sub(lo).Len()
			dist := func(p mgl64.Vec3) float64 { return s.Distance(p, mgl64.Vec3{}, mgl64.Vec3{}) }
			if g, ok := s.General(); ok && s.Type == scene.ShapeGeneral {
				dist = g.Implicit
			}
			worst := 0.0
			for _, l := range ls {
				for _, p := range [][3]float32{l.A, l.B} {
					v := mgl64.Vec3{float64(p[0]), float64(p[1]), float64(p[2])}
					worst = math.Max(worst, math.Abs(dist(v)))
				}
			}
			if len(ls) == 0 || worst > 1e-5*size {
				t.Errorf("%s shape %d (%s): %d lines, worst vertex %g off (size %g)", filepath.Base(path), i, s.Type, len(ls), worst, size)
			}
		}
	}
}

// model is what a G4MF round trip must keep.
func model(d *scene.Document) map[string]any {
	type node struct {
		Name     string
		T        [3]float64
		R        [4]float64
		S        [3]float64
		Mesh     int
		Children []int
	}
	var nodes []node
	for i, n := range d.GLTF.Nodes {
		m := -1
		if n.Mesh != nil {
			m = *n.Mesh
		}
		nodes = append(nodes, node{n.Name, n.TranslationOrDefault(), n.RotationOrDefault(), n.ScaleOrDefault(), m, d.Children(i)})
	}
	return map[string]any{"shapes": d.Shapes, "bodies": d.Nodes, "nodes": nodes, "meshes": len(d.GLTF.Meshes)}
}

var cmpModel = cmp.Options{cmpopts.EquateEmpty(), cmpopts.EquateApprox(0, 1e-6), cmpopts.IgnoreUnexported(scene.Trigger{})}

// TestRoundTrip: G4MF -> model -> G4MF (text and binary) -> model, and
// model -> glTF -> model, give the same model.
func TestRoundTrip(t *testing.T) {
	for _, path := range fixtures(t) {
		d := load(t, path)
		for _, bin := range []bool{false, true} {
			data, warns, err := Encode(d, bin)
			if err != nil {
				t.Fatal(err)
			}
			d2, err := Decode(data, nil)
			if err != nil {
				t.Fatalf("%s (binary %v): reloading: %v", path, bin, err)
			}
			if diff := cmp.Diff(model(d), model(d2), cmpModel); diff != "" {
				t.Errorf("%s (binary %v): model changed (-first +second):\n%s\nwarnings: %q", path, bin, diff, warns)
			}
		}
		files, err := d.Encode("out.glb")
		if err != nil {
			t.Fatal(err)
		}
		d3, err := scene.Decode(files[0].Data, nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(model(d), model(d3), cmpModel); diff != "" {
			t.Errorf("%s via glTF: model changed:\n%s", path, diff)
		}
	}
}

// TestExportWarnings: what G4MF cannot hold is named.
func TestExportWarnings(t *testing.T) {
	d, err := scene.Load(filepath.Join(testcorpus.Root(t), "scene", "testdata", "current.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	_, warns, err := Encode(d, false)
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(warns, "\n")
	for _, want := range []string{"physics materials", "joint"} {
		if len(d.PhysicsMaterials) > 0 && want == "physics materials" || len(d.Joints) > 0 && want == "joint" {
			if !strings.Contains(all, want) {
				t.Errorf("no warning about %s in:\n%s", want, all)
			}
		}
	}
}

func TestBadInput(t *testing.T) {
	cases := []struct {
		name, data, want string
	}{
		{"4D", `{"asset":{"dimension":4}}`, "dimension 4"},
		{"not json", `{"asset":`, "not a G4MF file"},
		{"no asset", `{"nodes":[]}`, "no asset"},
		{"truncated g4b", "G4MF\x00\x00\x00\x00", "truncated G4B"},
		{"bad buffer", `{"asset":{"dimension":3},"shapes":[{"type":"heightmap","size":[2,1,2],"heights":0}],"accessors":[{"bufferView":0,"componentType":"float32"}],"bufferViews":[{"byteLength":16}],"buffers":[{"byteLength":16,"uri":"missing.bin"}]}`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := Decode([]byte(c.data), os.DirFS(t.TempDir()))
			if c.want == "" {
				if err != nil {
					t.Fatalf("error %v, want a finding", err)
				}
				found := false
				for _, f := range d.Findings() {
					found = found || strings.Contains(f.Message, "heights not read")
				}
				if !found {
					t.Errorf("no finding about the missing buffer: %v", d.Findings())
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
		})
	}
}

// TestDemoToG4MF: the demo scene written as G4MF and read back keeps every
// shape (OMI shapes come back as themselves through their general form),
// and each body keeps its motion and its collider's or trigger's shape,
// moved to a child node where G4MF wants separate nodes.
func TestDemoToG4MF(t *testing.T) {
	d, err := scene.Decode(assets.Demo, nil)
	if err != nil {
		t.Fatal(err)
	}
	data, warns, err := Encode(d, true)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	// General shapes that are exactly an OMI shape come back as that shape
	// (import classifies, as godot-4d does).
	want := make([]scene.Shape, len(d.Shapes))
	for i, s := range d.Shapes {
		want[i] = s
		if c, ok := s.Classify(); ok {
			want[i] = c
		}
	}
	if diff := cmp.Diff(want, back.Shapes, cmpModel); diff != "" {
		t.Errorf("shapes changed (-demo +G4MF):\n%s", diff)
	}
	byName := map[string]int{}
	for i, n := range back.GLTF.Nodes {
		byName[n.Name] = i
	}
	for i, ne := range d.Nodes {
		b := ne.Body
		if b == nil {
			continue
		}
		name := d.GLTF.Nodes[i].Name
		got := back.Nodes[byName[name]].Body
		if b.Motion != nil && b.Motion.CenterOfMass == [3]float64{} {
			if got == nil || got.Motion == nil || got.Motion.Type != b.Motion.Type || got.Motion.Mass != b.Motion.Mass {
				t.Errorf("%s: motion %+v, want %+v", name, got, b.Motion)
			}
		}
		if c := b.Collider; c != nil && c.Shape >= 0 {
			on := byName[name]
			if b.Motion != nil {
				on = byName[name+" collider"]
			}
			if g := back.Nodes[on].Body; g == nil || g.Collider == nil || g.Collider.Shape != c.Shape {
				t.Errorf("%s: collider lost", name)
			}
		}
	}
	if !strings.Contains(strings.Join(warns, "\n"), "gravity fields are not in G4MF") {
		t.Errorf("no warning about gravity: %q", warns)
	}
}

// TestFindingsInFileTerms: the findings of a G4MF file name its own
// paths: a body's bad mass under the node's "physics", a shape by its index
// in "shapes"; no glTF note about the glTF made from it (an empty node) or
// about OMI readers (a general shape).
func TestFindingsInFileTerms(t *testing.T) {
	src, err := os.ReadFile("testdata/bodies_mesh.g4tf")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(src), `"mass": 3,`, `"mass": -3,`, 1)
	d, err := Decode([]byte(text), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range d.Findings() {
		got = append(got, f.Code+" "+f.Path)
		if f.Code == "NODE_EMPTY" || f.Code == "OMI_G4MF_SHAPE" || !strings.HasPrefix(f.Path, "g4mf:") {
			t.Errorf("finding not in the file's terms: %v", f)
		}
	}
	if !slices.Contains(got, "OMI_VALUE_NOT_IN_RANGE g4mf:/nodes/1/physics/motion/mass") {
		t.Errorf("findings %q: the negative mass is not at its node's physics", got)
	}
}

// TestFindingsOnAddedNode: a node added in the window is in no G4MF file:
// a finding about it keeps its glTF path, not a g4mf: path that names a
// node the file does not have.
func TestFindingsOnAddedNode(t *testing.T) {
	src, err := os.ReadFile("testdata/bodies_mesh.g4tf")
	if err != nil {
		t.Fatal(err)
	}
	d, err := Decode(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	added := len(d.Nodes)
	e := scene.Batch{Label: "add", Edits: []scene.Edit{
		scene.AddChildNode{Parent: 0, NodeName: "added", Transform: scene.Transform{Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}}},
		scene.SetBody{Node: added, Body: &scene.Body{Motion: &scene.Motion{Type: scene.MotionDynamic, Mass: 0}}, Label: "add"},
	}}
	if _, err := scene.Apply(d, e); err != nil {
		t.Fatal(err)
	}
	d.Validate()
	want := fmt.Sprintf("/nodes/%d/extensions/%s/motion/mass", added, scene.ExtBody)
	var got []string
	for _, f := range d.Findings() {
		got = append(got, f.Code+" "+f.Path)
		if f.Path == fmt.Sprintf("g4mf:/nodes/%d/physics/motion/mass", added) {
			t.Errorf("finding on the added node named as the file's: %v", f)
		}
	}
	if !slices.Contains(got, "OMI_VALUE_NOT_IN_RANGE "+want) {
		t.Errorf("findings %q: no OMI_VALUE_NOT_IN_RANGE at %s", got, want)
	}
}
