package xode

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/debugdraw"
	"physview/internal/testcorpus"
	"physview/scene"
)

func pybrain(t *testing.T, name string) *scene.Document {
	t.Helper()
	d, err := Load(testcorpus.File(t, "pybrain/pybrain/rl/environments/ode/models/"+name))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func node(t *testing.T, d *scene.Document, name string) int {
	t.Helper()
	for i, n := range d.GLTF.Nodes {
		if n.Name == name {
			return i
		}
	}
	t.Fatalf("no node %q", name)
	return -1
}

func TestCorpusOpens(t *testing.T) {
	dir := testcorpus.Dir(t)
	files := testcorpus.Models(t, ".xode")
	if len(files) != 15 {
		t.Errorf("found %d XODE files, want 15", len(files))
	}
	for _, f := range files {
		d, err := Load(filepath.Join(dir, f))
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if scene.HasErrors(d.Findings()) {
			t.Errorf("%s: %v", f, d.Findings())
		}
		if len(d.Shapes) == 0 {
			t.Errorf("%s: no shapes", f)
		}
	}
}

// TestMassFromDensity: johnnie's palm is a 4.12 x 3 x 2 box of density
// 0.135760517799.
func TestMassFromDensity(t *testing.T) {
	d := pybrain(t, "johnnie.xode")
	palm := d.Nodes[node(t, d, "palm")].Body.Motion
	want := 4.12 * 3 * 2 * 0.135760517799
	if math.Abs(palm.Mass-want) > 1e-9 {
		t.Errorf("palm mass %g, want %g", palm.Mass, want)
	}
	// A box's principal moments: m/12 (b^2 + c^2) for each axis.
	m := want
	ws := []float64{m / 12 * (9 + 4), m / 12 * (4.12*4.12 + 4), m / 12 * (4.12*4.12 + 9)}
	got := palm.InertiaDiagonal
	for _, w := range ws {
		found := false
		for _, g := range got {
			if math.Abs(g-w) < 1e-9 {
				found = true
			}
		}
		if !found {
			t.Errorf("inertia %v lacks the moment %g", got, w)
		}
	}
}

// TestCapsuleAxis: johnnie's neck is a Z-axis capped cylinder turned 90
// degrees about X: in the world its axis (OMI's +Y on the shape node) is
// vertical, and it sits at y = 2.8.
func TestCapsuleAxis(t *testing.T) {
	d := pybrain(t, "johnnie.xode")
	world := d.WorldMatrices()
	neck := node(t, d, "neck")
	if p := world[neck].Col(3).Vec3(); p.Sub(mgl64.Vec3{0, 2.8, 0}).Len() > 1e-9 {
		t.Errorf("neck at %v, want (0, 2.8, 0)", p)
	}
	var shapeNode = -1
	for _, c := range d.Children(neck) {
		for _, cc := range d.Children(c) {
			if d.Nodes[cc].Body != nil && d.Nodes[cc].Body.Collider != nil {
				shapeNode = cc
			}
		}
	}
	if shapeNode < 0 {
		t.Fatal("no capsule collider under the neck")
	}
	s := d.Shapes[d.Nodes[shapeNode].Body.Collider.Shape]
	if s.Type != scene.ShapeCapsule || s.Height != 5.6 || s.RadiusTop != 0.25 {
		t.Errorf("neck shape %+v", s)
	}
	axis := world[shapeNode].Mul4x1(mgl64.Vec4{0, 1, 0, 0}).Vec3()
	if math.Abs(math.Abs(axis[1])-1) > 1e-9 {
		t.Errorf("capsule axis in the world %v, want vertical", axis)
	}
}

// TestAbsoluteAnchors: every hinge of johnnie has an absolute anchor; its
// joint node sits exactly there in the world, with its X axis along the
// hinge axis, and its connected twin at the same pose.
func TestAbsoluteAnchors(t *testing.T) {
	data, err := os.ReadFile(testcorpus.File(t, "pybrain/pybrain/rl/environments/ode/models/johnnie.xode"))
	if err != nil {
		t.Fatal(err)
	}
	root, err := parse(data)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	world := d.WorldMatrices()
	checked := 0
	var walk func(e *element)
	walk = func(e *element) {
		if e.Name == "joint" {
			if h := e.child("hinge"); h != nil {
				a := h.child("anchor")
				ax := h.child("axis")
				if a != nil && a.Attr["absolute"] == "true" && e.Attr["name"] != "" {
					want, _ := a.vec()
					axis, _ := ax.vec()
					n := node(t, d, e.Attr["name"])
					if got := world[n].Col(3).Vec3(); got.Sub(mgl64.Vec3(want)).Len() > 1e-6 {
						t.Errorf("joint %s at %v, want %v", e.Attr["name"], got, want)
					}
					x := world[n].Col(0).Vec3().Normalize()
					if math.Abs(x.Dot(mgl64.Vec3(axis).Normalize())) < 1-1e-9 {
						t.Errorf("joint %s X axis %v, want along %v", e.Attr["name"], x, axis)
					}
					twin := d.Nodes[n].Joint.ConnectedNode
					if world[twin].Col(3).Vec3().Sub(world[n].Col(3).Vec3()).Len() > 1e-6 {
						t.Errorf("joint %s: the connected node is not at the anchor", e.Attr["name"])
					}
					checked++
				}
			}
		}
		for _, c := range e.Children {
			walk(c)
		}
	}
	walk(root)
	if checked < 5 {
		t.Errorf("checked only %d hinges", checked)
	}
}

// TestPyODEDocument checks the PyODE test document: composed masses,
// euler in radians, scale, nested bodies and geoms, a ray and a plane.
func TestPyODEDocument(t *testing.T) {
	d, err := Load(testcorpus.File(t, "kephale-pyode/tests/test_xode.test_doc.xode"))
	if err != nil {
		t.Fatal(err)
	}
	world := d.WorldMatrices()
	// body1: a sphere of radius 1 and density 1, plus a nested mass adjusted to 4.
	if m := d.Nodes[node(t, d, "body1")].Body.Motion.Mass; math.Abs(m-(4.0/3*math.Pi+4)) > 1e-9 {
		t.Errorf("body1 mass %g, want 4/3 pi + 4", m)
	}
	if gf := d.Nodes[node(t, d, "body1")].Body.Motion.GravityFactor; gf != 0 {
		t.Errorf("gravitymode 0 should give gravityFactor 0, got %g", gf)
	}
	// body5 is at (2,2,2) inside body4 at (1,1,1).
	if p := world[node(t, d, "body5")].Col(3).Vec3(); p.Sub(mgl64.Vec3{3, 3, 3}).Len() > 1e-9 {
		t.Errorf("body5 at %v, want (3,3,3)", p)
	}
	// body6 is turned 0.78 rad about Z (euler in radians): its X axis points
	// at (cos 0.78, sin 0.78, 0).
	x6 := world[node(t, d, "body6")].Col(0).Vec3()
	if x6.Sub(mgl64.Vec3{math.Cos(0.78), math.Sin(0.78), 0}).Len() > 1e-9 {
		t.Errorf("body6 X axis %v, want (cos 0.78, sin 0.78, 0)", x6)
	}
	// body3's row-vector matrix translates by (10, 20, 30).
	if p := world[node(t, d, "body3")].Col(3).Vec3(); p.Sub(mgl64.Vec3{10, 20, 30}).Len() > 1e-9 {
		t.Errorf("body3 at %v, want (10,20,30)", p)
	}
	var ray, scale bool
	for _, f := range d.Findings() {
		ray = ray || strings.Contains(f.Message, "ray geom")
		scale = scale || strings.Contains(f.Message, "transform scale 2")
	}
	if !ray || !scale {
		t.Errorf("findings lack the ray or the scale: %v", d.Findings())
	}
	// The ray is kept for display: drawn along its geom's +Z, 11 long.
	g3 := node(t, d, "geom3")
	ls := debugdraw.NodeLines(d, g3, world, false, nil, debugdraw.Options{})[debugdraw.Colliders]
	if len(ls) == 0 {
		t.Fatal("the ray is not drawn")
	}
	a := mgl64.Vec3{float64(ls[0].A[0]), float64(ls[0].A[1]), float64(ls[0].A[2])}
	b := mgl64.Vec3{float64(ls[0].B[0]), float64(ls[0].B[1]), float64(ls[0].B[2])}
	zw := world[g3].Mul4x1(mgl64.Vec4{0, 0, 1, 0}).Vec3()
	if math.Abs(b.Sub(a).Len()-11*zw.Len()) > 1e-4 || b.Sub(a).Normalize().Dot(zw.Normalize()) < 1-1e-6 {
		t.Errorf("ray drawn from %v to %v, want 11 along %v", a, b, zw)
	}
	// The plane 0 1 0 17 becomes a box whose top face is at y = 17.
	pl := node(t, d, "geom4 (plane)")
	s := d.Shapes[d.Nodes[pl].Body.Collider.Shape]
	top := world[pl].Mul4x1(mgl64.Vec4{0, s.Size[1] / 2, 0, 1}).Vec3()
	if math.Abs(top[1]-17) > 1e-9 {
		t.Errorf("plane box top at %v, want y = 17", top)
	}
}

func TestEulerOrder(t *testing.T) {
	// X then Y then Z about fixed axes: (1,0,0) turned 90 degrees about Y
	// then 90 degrees about Z ends at (0,0,-1) turned about Z = (0,0,-1).
	e, err := parse([]byte(`<rotation><euler x="0" y="90" z="90" aformat="degrees"/></rotation>`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := rotation(e)
	if err != nil {
		t.Fatal(err)
	}
	got := r.Mul4x1(mgl64.Vec4{1, 0, 0, 0}).Vec3()
	if got.Sub(mgl64.Vec3{0, 0, -1}).Len() > 1e-12 {
		t.Errorf("x axis goes to %v, want (0,0,-1)", got)
	}
	got = r.Mul4x1(mgl64.Vec4{0, 1, 0, 0}).Vec3()
	if got.Sub(mgl64.Vec3{-1, 0, 0}).Len() > 1e-12 {
		t.Errorf("y axis goes to %v, want (-1,0,0)", got)
	}
}

func TestMalformed(t *testing.T) {
	const head = `<?xml version="1.0"?>` + "\n<xode><world><space>\n"
	const tail = "\n</space></world></xode>"
	cases := []struct{ name, doc, want string }{
		{"not XML", "this is not XML at all", "line 1"},
		{"not xode", `<scene/>`, "not an XODE file"},
		{"no world", `<xode/>`, "has no <world>"},
		{"unclosed", head + `<body name="a">`, "not well-formed XML"},
		{"bad number", head + `<body name="a"><transform><position x="1" y="zwei" z="3"/></transform></body>` + tail, `line 3: <position y="zwei">: not a number`},
		{"unknown body", head + `<body name="a"/>` + "\n" + `<joint><link1 body="a"/><link2 body="ghost"/><ball/></joint>` + tail, `line 4: <link2 body="ghost">: there is no such body`},
		{"axis count", head + `<body name="a"/><body name="b"/>` + "\n" + `<joint><link1 body="a"/><link2 body="b"/><hinge><anchor x="0" y="0" z="0"/></hinge></joint>` + tail, "line 4: a hinge joint needs 1 axis elements, has 0"},
		{"bad aformat", head + `<body name="a"><transform><rotation><euler x="1" y="0" z="0" aformat="turns"/></rotation></transform></body>` + tail, "want degrees or radians"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode([]byte(c.doc))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

// TestPostlink: a joint may name a body defined later in the file.
func TestPostlink(t *testing.T) {
	doc := `<xode><world><space>
<joint name="j"><link1 body="late"/><link2 body="early"/><hinge><anchor x="1" y="0" z="0" absolute="true"/><axis x="0" y="1" z="0" LowStop="-0.5" HiStop="0.5" Vel="2" FMax="10"/></hinge></joint>
<body name="early"/><body name="late"><transform><position x="2" y="0" z="0"/></transform></body>
</space></world></xode>`
	d, err := Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	j := d.Nodes[node(t, d, "j")].Joint
	if j == nil {
		t.Fatal("no joint")
	}
	js := d.Joints[j.Joint]
	ranged := js.Limits[len(js.Limits)-1]
	if len(ranged.AngularAxes) != 1 || ranged.AngularAxes[0] != 0 || ranged.Min != -0.5 || ranged.Max != 0.5 {
		t.Errorf("hinge stop limit %+v", ranged)
	}
	if len(js.Drives) != 1 || *js.Drives[0].VelocityTarget != 2 || js.Drives[0].MaxForce != 10 {
		t.Errorf("motor drive %+v", js.Drives)
	}
	if p := d.Parent(node(t, d, "j")); d.GLTF.Nodes[p].Name != "late" {
		t.Errorf("joint node under %q, want under link1 'late'", d.GLTF.Nodes[p].Name)
	}
}

// TestConvertToGLTF: xode -> glTF -> scene keeps the bodies, shapes and
// joints in world space.
func TestConvertToGLTF(t *testing.T) {
	d := pybrain(t, "johnnie-heavyarms.xode")
	out := filepath.Join(t.TempDir(), "johnnie.gltf")
	if err := d.Save(out); err != nil {
		t.Fatal(err)
	}
	g, err := scene.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if scene.HasErrors(g.Findings()) {
		t.Errorf("converted file has errors: %v", g.Findings())
	}
	wa, wb := d.WorldMatrices(), g.WorldMatrices()
	if len(wa) != len(wb) || len(d.Shapes) != len(g.Shapes) || len(d.Joints) != len(g.Joints) {
		t.Fatalf("nodes %d/%d shapes %d/%d joints %d/%d", len(wa), len(wb), len(d.Shapes), len(g.Shapes), len(d.Joints), len(g.Joints))
	}
	for i := range wa {
		for k := range wa[i] {
			if math.Abs(wa[i][k]-wb[i][k]) > 1e-6 {
				t.Fatalf("node %d world matrix differs: %v vs %v", i, wa[i], wb[i])
			}
		}
		if (d.Nodes[i].Body == nil) != (g.Nodes[i].Body == nil) || (d.Nodes[i].Joint == nil) != (g.Nodes[i].Joint == nil) {
			t.Errorf("node %d: bodies or joints differ", i)
		}
	}
}

func TestInfiniteMass(t *testing.T) {
	doc := `<xode><world><space><body name="big">
<mass><mass_shape density="1e300"><box sizex="1e300" sizey="1e300" sizez="1e300"/></mass_shape></mass>
</body></space></world></xode>`
	if _, err := Decode([]byte(doc)); err == nil || !strings.Contains(err.Error(), "line 2: the mass of body \"big\" is not a finite number") {
		t.Errorf("error %v", err)
	}
}

// TestFindingsAtLines: a finding of the physics checks names the line of
// the XODE element it is about, as the import's own findings do, and no
// glTF check of the glTF made from the file is shown.
func TestFindingsAtLines(t *testing.T) {
	doc := `<xode><world><space>
<body name="b"><geom><box sizex="1" sizey="1" sizez="1"/></geom></body>
<joint name="j"><link1 body="b"/><ball><anchor x="0" y="0" z="0"/></ball></joint>
</space></world></xode>`
	d, err := Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range d.Findings() {
		got = append(got, f.Code+" "+f.Path)
	}
	if want := []string{"OMI_JOINT_CONNECTED_NOT_BODY xode line 3"}; !slices.Equal(got, want) {
		t.Errorf("findings %q, want %q", got, want)
	}
}
