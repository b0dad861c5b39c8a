package debugdraw

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/assets"
	"physview/scene"
)

func demo(t testing.TB) *scene.Document {
	d, err := scene.Decode(assets.Demo, nil)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func nodeNamed(t testing.TB, d *scene.Document, name string) int {
	for i, n := range d.GLTF.Nodes {
		if n.Name == name {
			return i
		}
	}
	t.Fatalf("no node %q", name)
	return -1
}

func vec(p [3]float32) mgl64.Vec3 { return mgl64.Vec3{float64(p[0]), float64(p[1]), float64(p[2])} }

// TestGravityArrowsPointAsTheFieldSays: every arrow of the demo's point
// field starts inside its sphere and points at its centre.
func TestGravityArrowsPointAsTheFieldSays(t *testing.T) {
	d := demo(t)
	n := nodeNamed(t, d, "Planetoid (point gravity)")
	world := d.WorldMatrices()
	centre := world[n].Col(3).Vec3()
	ls := NodeLines(d, n, world, false, nil, Options{MarkerSize: 0.1, GravitySamples: 5})
	if len(ls[Gravity]) == 0 {
		t.Fatal("no gravity arrows")
	}
	shafts := 0
	for i := 0; i < len(ls[Gravity]); i += 5 { // an arrow is a shaft and 4 head lines
		a, b := vec(ls[Gravity][i].A), vec(ls[Gravity][i].B)
		if a.Sub(centre).Len() > 1+1e-6 {
			t.Errorf("arrow starts at %v, outside the radius-1 volume", a)
		}
		toCentre := centre.Sub(a).Normalize()
		if b.Sub(a).Normalize().Dot(toCentre) < 1-1e-6 {
			t.Errorf("arrow %v -> %v does not point at the centre", a, b)
		}
		shafts++
	}
	// With unitDistance 1 the strength falls off: inner arrows are longer.
	if shafts < 10 {
		t.Errorf("only %d arrows", shafts)
	}
}

func TestJointLimitArc(t *testing.T) {
	d := demo(t)
	n := nodeNamed(t, d, "Hinge (joint)")
	world := d.WorldMatrices()
	size := 0.1
	ls := NodeLines(d, n, world, false, nil, Options{MarkerSize: size})[Joints]
	o := world[n].Col(3).Vec3()
	// The hinge limits angular X to +-1.22 rad: the arc lies at radius 2*size
	// in the joint's YZ plane, and spans 2.44 rad.
	xAxisWorld := world[n].Col(0).Vec3().Normalize()
	onArc := 0
	for _, l := range ls {
		if l.Color != axisColors[0] {
			continue
		}
		for _, p := range []mgl64.Vec3{vec(l.A), vec(l.B)} {
			r := p.Sub(o)
			if math.Abs(r.Len()-2*size) < 1e-5 && math.Abs(r.Dot(xAxisWorld)) < 1e-5 {
				onArc++
			}
		}
	}
	if onArc < 2*32 {
		t.Errorf("%d arc points at radius %g in the joint's YZ plane, want at least 64", onArc, 2*size)
	}
}

func TestRolesAndSelection(t *testing.T) {
	d := demo(t)
	world := d.WorldMatrices()
	cases := map[string][4]float32{
		"Ground":                               ColorStatic,
		"Crate (dynamic box)":                  ColorDynamic,
		"Dumbbell end A":                       ColorDynamic, // moved by its compound parent
		"Platform (kinematic tapered capsule)": ColorKinematic,
	}
	for name, want := range cases {
		n := nodeNamed(t, d, name)
		ls := NodeLines(d, n, world, false, nil, Options{})[Colliders]
		if len(ls) == 0 || ls[0].Color != want {
			t.Errorf("%s: colour %v, want %v", name, ls[0].Color, want)
		}
		if sel := NodeLines(d, n, world, true, nil, Options{})[Colliders]; sel[0].Color != ColorSelected {
			t.Errorf("%s selected: colour %v", name, sel[0].Color)
		}
	}
	if tr := NodeLines(d, nodeNamed(t, d, "Checkpoint (trigger)"), world, false, nil, Options{})[Triggers]; len(tr) != 12 || tr[0].Color != ColorTrigger {
		t.Errorf("trigger box: %d lines", len(tr))
	}
}

func TestCacheRebuildsOnlyWhatChanged(t *testing.T) {
	d := demo(t)
	c := NewCache(d, &DocumentMeshes{Doc: d}, Options{MarkerSize: 0.1})
	if !c.Update() {
		t.Fatal("first update built nothing")
	}
	if c.Update() {
		t.Error("update with nothing dirty changed something")
	}
	v := c.Groups()[0].Version
	crate := nodeNamed(t, d, "Crate (dynamic box)")
	si := d.Nodes[crate].Body.Collider.Shape
	s := d.Shapes[si]
	s.Size = [3]float64{2, 2, 2}
	ch, err := scene.Apply(d, scene.SetShape{Index: si, Shape: s})
	if err != nil {
		t.Fatal(err)
	}
	c.Apply(ch)
	if !c.Update() || c.Groups()[0].Version == v {
		t.Fatal("an edited shape was not rebuilt")
	}
	// The crate's edges are now 2 long.
	found := false
	for _, l := range c.Groups()[0].Lines[Colliders] {
		if l.Color == ColorDynamic && math.Abs(vec(l.A).Sub(vec(l.B)).Len()-2) < 1e-5 {
			found = true
		}
	}
	if !found {
		t.Error("no 2 m edge after resizing the crate")
	}
}

// TestProbe: the probe's arrow shows the net gravity (world gravity plus the
// Planetoid's point field inside its volume) and the path falls.
func TestProbe(t *testing.T) {
	d := demo(t)
	p := mgl64.Vec3{-3.3, 2.2, -4.5} // 0.7 above the Planetoid's centre (-3.3, 1.5, -4.5)
	ls := Probe(d, p, 0.1, 0.02, 50)
	// Lines: 3 for the cross, 5 for the arrow, then the path.
	shaft := vec(ls[3].B).Sub(vec(ls[3].A))
	want := 9.8*(1/0.7)*(1/0.7) + 9.81
	if math.Abs(shaft.Len()/0.1-want) > 1e-3 || shaft.Normalize().Dot(mgl64.Vec3{0, -1, 0}) < 1-1e-6 {
		t.Errorf("probe arrow %v, want %g m/s² down (scaled by 0.1)", shaft, want)
	}
	if len(ls) != 8+50 {
		t.Errorf("%d lines, want 8 + 50 path segments", len(ls))
	}
	if end := vec(ls[len(ls)-1].B); end[1] >= p[1] {
		t.Errorf("the particle did not fall: ends at %v", end)
	}
}

// TestLegendColoursApart: no two meanings in the legend share a colour
// that could be confused (at least 0.25 apart in RGB), so a selected
// sphere collider never looks like the selection's bounds or a handle.
func TestLegendColoursApart(t *testing.T) {
	for i, a := range Legend {
		for _, b := range Legend[i+1:] {
			var d2 float64
			for k := 0; k < 3; k++ {
				d := float64(a.Color[k] - b.Color[k])
				d2 += d * d
			}
			if d := math.Sqrt(d2); d < 0.25 {
				t.Errorf("%q and %q are %.2f apart in RGB, want at least 0.25", a.What, b.What, d)
			}
		}
	}
	if len(Legend) < 8 {
		t.Errorf("the legend has %d entries", len(Legend))
	}
}

// TestGravityArrowsShowStrength: the same field at 9.81 and at 30 m/s²
// draws arrows of different lengths (half and about three quarters of a
// cell), on one scale for every field.
func TestGravityArrowsShowStrength(t *testing.T) {
	length := func(g float64) float64 {
		d, err := scene.Decode([]byte(`{"asset":{"version":"2.0"},"nodes":[{}],"scenes":[{"nodes":[0]}]}`), nil)
		if err != nil {
			t.Fatal(err)
		}
		d.Shapes = []scene.Shape{{Type: scene.ShapeBox, Size: [3]float64{10, 10, 10}, Mesh: -1}}
		d.Nodes[0].Body = &scene.Body{Trigger: &scene.Trigger{Shape: 0, CollisionFilter: -1}}
		gv := scene.DefaultGravity(scene.GravityDirectional)
		gv.Gravity, gv.Direction = g, [3]float64{0, -1, 0}
		d.Nodes[0].Gravity = &gv
		lines := gravityLines(d, 0, d.WorldMatrices(), Options{GravitySamples: 5})
		if len(lines) == 0 {
			t.Fatalf("g %g: no arrows", g)
		}
		// The first line of an arrow is its shaft.
		a, b := lines[0].A, lines[0].B
		return math.Sqrt(float64((a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) + (a[2]-b[2])*(a[2]-b[2])))
	}
	cell := 10.0 / 5
	for _, tc := range []struct{ g, want float64 }{{9.80665, 0.5 * cell}, {30, 30 / 39.80665 * cell}, {1, 1 / 10.80665 * cell}} {
		if got := length(tc.g); math.Abs(got-tc.want) > 1e-5 {
			t.Errorf("g %g: arrow %.5f m long, want %.5f", tc.g, got, tc.want)
		}
	}
}

// TestDashed: a 1 m line in dashes of 0.1 m is five dashes of 0.1 m, and
// a run of joined lines keeps one pattern across the joints.
func TestDashed(t *testing.T) {
	cases := []struct {
		name   string
		in     []Line
		dashes int
		total  float64
	}{
		{"straight", []Line{{A: [3]float32{0, 0, 0}, B: [3]float32{1, 0, 0}}}, 5, 0.5},
		{"joined", []Line{{A: [3]float32{0, 0, 0}, B: [3]float32{0.15, 0, 0}}, {A: [3]float32{0.15, 0, 0}, B: [3]float32{1, 0, 0}}}, 5, 0.5},
		{"empty", nil, 0, 0},
	}
	for _, c := range cases {
		got := Dashed(c.in, 0.1)
		total := 0.0
		for _, l := range got {
			total += float64(mgl32Len(l))
		}
		if len(got) != c.dashes || math.Abs(total-c.total) > 1e-5 {
			t.Errorf("%s: %d dashes of %.4f m in all, want %d of %.4f", c.name, len(got), total, c.dashes, c.total)
		}
	}
}

func mgl32Len(l Line) float32 {
	var s float32
	for k := 0; k < 3; k++ {
		d := l.B[k] - l.A[k]
		s += d * d
	}
	return float32(math.Sqrt(float64(s)))
}
