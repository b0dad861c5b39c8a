package scene

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/google/go-cmp/cmp"
)

func TestGeneralShapesLoad(t *testing.T) {
	d := mustLoad(t, "testdata/general_shapes.gltf")
	if HasErrors(d.Findings()) {
		t.Fatalf("findings: %v", d.Findings())
	}
	want := []Shape{
		{Type: ShapeGeneral, Name: "rounded box", Mesh: -1, Size: [3]float64{1, 0.5, 2}, Curves: []Curve{{Radii: [3]float64{0.25, 0.25, 0.25}, Exponent: 2}}},
		{Type: ShapeGeneral, Name: "superellipsoid", Mesh: -1, Curves: []Curve{{Radii: [3]float64{1, 0.5, 0.75}, Exponent: 4,
			Extra: Members{{Key: "extras", Value: []byte(`{"note": "kept"}`)}}}}},
		{Type: ShapeGeneral, Name: "cone", Mesh: -1, Size: [3]float64{0, 2, 0}, Curves: []Curve{{Radii: [3]float64{0.25, 0, 0.25}, Exponent: 2, Taper: []Taper{
			{Position: [3]float64{0, 1, 0}},
			{Position: [3]float64{0, -1, 0}, Radii: [3]float64{0.5, 0, 0.5}, Exponent: 2},
		}}}},
		{Type: ShapePlane, Name: "floor", Mesh: -1},
		{Type: ShapeRay, Name: "probe", Mesh: -1, Length: 2.5},
		{Type: ShapeHeightmap, Name: "hills", Mesh: -1, Size: [3]float64{3, 1, 2}, Heights: []float64{0, 0.5, 0, 0.25, 1, 0.25}},
	}
	if diff := cmp.Diff(want, d.Shapes, cmpModel); diff != "" {
		t.Errorf("shapes (-want +got):\n%s", diff)
	}
}

func TestClassifyGeneral(t *testing.T) {
	round := func(r float64) []Curve { return []Curve{{Radii: [3]float64{r, r, r}, Exponent: 2}} }
	cases := []struct {
		name string
		g    General
		want Shape // Type 0: stays general
	}{
		{"box", General{Size: [3]float64{1, 2, 3}}, Shape{Type: ShapeBox, Size: [3]float64{1, 2, 3}}},
		{"sphere", General{Curves: round(0.5)}, Shape{Type: ShapeSphere, Radius: 0.5}},
		{"capsule", General{Size: [3]float64{0, 1, 0}, Curves: round(0.5)}, Shape{Type: ShapeCapsule, Height: 1, RadiusTop: 0.5, RadiusBottom: 0.5}},
		{"cylinder", General{Size: [3]float64{0, 2, 0}, Curves: []Curve{{Radii: [3]float64{0.5, 0, 0.5}, Exponent: 2}}}, Shape{Type: ShapeCylinder, Height: 2, RadiusTop: 0.5, RadiusBottom: 0.5}},
		{"cone", General{Size: [3]float64{0, 2, 0}, Curves: []Curve{{Radii: [3]float64{0.25, 0, 0.25}, Exponent: 2, Taper: []Taper{
			{Position: [3]float64{0, 1, 0}}, {Position: [3]float64{0, -1, 0}, Radii: [3]float64{0.5, 0, 0.5}}}}}},
			Shape{Type: ShapeCylinder, Height: 2, RadiusTop: 0, RadiusBottom: 0.5}},
		{"tapered capsule", General{Size: [3]float64{0, 1.5, 0}, Curves: []Curve{{Radii: [3]float64{0.3, 0.3, 0.3}, Exponent: 2, Taper: []Taper{
			{Position: [3]float64{0, -0.75, 0}, Radii: [3]float64{0.4, 0.4, 0.4}}, {Position: [3]float64{0, 0.75, 0}, Radii: [3]float64{0.2, 0.2, 0.2}}}}}},
			Shape{Type: ShapeCapsule, Height: 1.5, RadiusTop: 0.2, RadiusBottom: 0.4}},
		{"rounded box", General{Size: [3]float64{1, 1, 1}, Curves: round(0.25)}, Shape{}},
		{"ellipsoid", General{Curves: []Curve{{Radii: [3]float64{1, 0.5, 0.75}, Exponent: 2}}}, Shape{}},
		{"squircle", General{Curves: []Curve{{Radii: [3]float64{1, 1, 1}, Exponent: 4}}}, Shape{}},
		{"capsule along X", General{Size: [3]float64{1, 0, 0}, Curves: round(0.5)}, Shape{}},
		{"flat box", General{Size: [3]float64{1, 0, 1}}, Shape{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := NewGeneralShape(c.g).Classify()
			if c.want.Type == 0 {
				if ok {
					t.Fatalf("classified as %+v, want general", got)
				}
				return
			}
			c.want.Mesh = -1
			if !ok {
				t.Fatalf("not classified, want %s", c.want.Type)
			}
			if diff := cmp.Diff(c.want, got, cmpModel); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
			// The OMI shape's own general form is the same solid.
			back, ok := got.General()
			if !ok {
				t.Fatal("no general form")
			}
			for _, dir := range []mgl64.Vec3{{1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {1, 1, 1}, {-0.3, 0.8, 0.2}} {
				dir = dir.Normalize()
				_, h1 := c.g.Support(dir)
				_, h2 := back.Support(dir)
				if math.Abs(h1-h2) > 1e-12 {
					t.Errorf("support along %v: %g, OMI form %g", dir, h1, h2)
				}
			}
		})
	}
}

func TestGeneralDistance(t *testing.T) {
	rounded := General{Size: [3]float64{1, 1, 1}, Curves: []Curve{{Radii: [3]float64{0.25, 0.25, 0.25}, Exponent: 2}}}
	cases := []struct {
		name string
		g    General
		p    mgl64.Vec3
		want float64
	}{
		{"sphere outside", General{Curves: []Curve{{Radii: [3]float64{0.5, 0.5, 0.5}}}}, mgl64.Vec3{0, 2, 0}, 1.5},
		{"sphere inside", General{Curves: []Curve{{Radii: [3]float64{0.5, 0.5, 0.5}}}}, mgl64.Vec3{0.1, 0, 0}, -0.4},
		{"rounded box face", rounded, mgl64.Vec3{1.25, 0, 0}, 0.5},
		{"rounded box corner", rounded, mgl64.Vec3{1.5, 1.5, 1.5}, math.Sqrt(3) - 0.25},
		{"box", General{Size: [3]float64{2, 2, 2}}, mgl64.Vec3{0, 0.5, 0}, -0.5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.g.SignedDistance(c.p); math.Abs(got-c.want) > 1e-6 {
				t.Errorf("SignedDistance(%v) = %g, want %g", c.p, got, c.want)
			}
			if c.want > 0 && c.g.Implicit(c.p) <= 0 || c.want < 0 && c.g.Implicit(c.p) >= 0 {
				t.Errorf("Implicit(%v) = %g has the wrong sign", c.p, c.g.Implicit(c.p))
			}
		})
	}
}

func TestGeneralValidation(t *testing.T) {
	cases := []struct {
		name  string
		shape Shape
		want  string // a substring of an error or warning; "" for none
	}{
		{"rounded box", DefaultShape(ShapeGeneral), ""},
		{"negative size", Shape{Type: ShapeGeneral, Size: [3]float64{-1, 1, 1}, Mesh: -1}, "size[0] = -1"},
		{"negative radius", NewGeneralShape(General{Curves: []Curve{{Radii: [3]float64{1, -1, 1}, Exponent: 2}}}), "radii[1] = -1"},
		{"zero exponent", NewGeneralShape(General{Curves: []Curve{{Radii: [3]float64{1, 1, 1}, Exponent: -2}}}), "exponent -2"},
		{"concave exponent", NewGeneralShape(General{Curves: []Curve{{Radii: [3]float64{1, 1, 1}, Exponent: 0.5}}}), "not convex"},
		{"flat box", NewGeneralShape(General{Size: [3]float64{1, 0, 1}}), "no volume"},
		{"one radius", NewGeneralShape(General{Size: [3]float64{1, 1, 1}, Curves: []Curve{{Radii: [3]float64{1, 0, 0}, Exponent: 2}}}), "at least two"},
		{"ray", Shape{Type: ShapeRay, Length: 0, Mesh: -1}, "ray length 0"},
		{"heightmap count", Shape{Type: ShapeHeightmap, Size: [3]float64{3, 1, 3}, Heights: []float64{1, 2}, Mesh: -1}, "needs 9 heights, has 2"},
		{"heightmap fraction", Shape{Type: ShapeHeightmap, Size: [3]float64{2.5, 1, 3}, Mesh: -1}, "whole numbers"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var fs findings
			c.shape.validate("/s", &fs, 0)
			var msgs []string
			for _, f := range fs {
				if f.Severity != Info {
					msgs = append(msgs, f.Message)
				}
			}
			if c.want == "" {
				if len(msgs) > 0 {
					t.Fatalf("unexpected findings %q", msgs)
				}
				return
			}
			for _, m := range msgs {
				if contains(m, c.want) {
					return
				}
			}
			t.Fatalf("findings %q lack %q", msgs, c.want)
		})
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestG4BoundsAndDistance(t *testing.T) {
	hm := Shape{Type: ShapeHeightmap, Size: [3]float64{3, 1, 2}, Heights: []float64{0, 0.5, 0, 0.25, 1, 0.25}}
	lo, hi := hm.Bounds(mgl64.Vec3{}, mgl64.Vec3{})
	if lo != (mgl64.Vec3{-1, 0, -0.5}) || hi != (mgl64.Vec3{1, 1, 0.5}) {
		t.Errorf("heightmap bounds %v %v", lo, hi)
	}
	// Between the samples 0.5 (x=0,z=-0.5) and 1 (x=0,z=0.5): 0.75 at z=0.
	if d := hm.Distance(mgl64.Vec3{0, 1, 0}, lo, hi); math.Abs(d-0.25) > 1e-12 {
		t.Errorf("heightmap distance %g, want 0.25", d)
	}
	ray := Shape{Type: ShapeRay, Length: 2}
	if d := ray.Distance(mgl64.Vec3{1, -1, 0}, lo, hi); math.Abs(d-1) > 1e-12 {
		t.Errorf("ray distance %g, want 1", d)
	}
	if !(Shape{Type: ShapePlane}).Contains(mgl64.Vec3{5, -0.1, 3}, lo, hi) {
		t.Error("a point below the plane is not inside")
	}
}
