package debugdraw

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

func boxDist(p, h mgl64.Vec3) float64 {
	q := mgl64.Vec3{math.Abs(p[0]) - h[0], math.Abs(p[1]) - h[1], math.Abs(p[2]) - h[2]}
	out := mgl64.Vec3{math.Max(q[0], 0), math.Max(q[1], 0), math.Max(q[2], 0)}.Len()
	return out + math.Min(math.Max(q[0], math.Max(q[1], q[2])), 0)
}

// TestGeneralShapesOnSurface: every point drawn for a G4MF general shape
// lies on that shape's surface, checked with a formula of its own.
func TestGeneralShapesOnSurface(t *testing.T) {
	cases := []struct {
		name  string
		shape General
		dist  func(p mgl64.Vec3) float64
	}{
		{"sphere", General{Curves: []Curve{{Radii: [3]float64{0.7, 0.7, 0.7}}}}, func(p mgl64.Vec3) float64 { return p.Len() - 0.7 }},
		{"capsule (size = mid height)", General{Size: [3]float64{0, 1, 0}, Curves: []Curve{{Radii: [3]float64{0.5, 0.5, 0.5}}}}, func(p mgl64.Vec3) float64 { return roundCone(p, 1, 0.5, 0.5) }},
		{"cylinder (zero radius on Y)", General{Size: [3]float64{0, 2, 0}, Curves: []Curve{{Radii: [3]float64{0.5, 0, 0.5}}}}, func(p mgl64.Vec3) float64 {
			r := math.Hypot(p[0], p[2])
			return math.Max(r-0.5, math.Abs(p[1])-1)
		}},
		{"tapered capsule", General{Size: [3]float64{0, 1.5, 0}, Curves: []Curve{{Radii: [3]float64{0.3, 0.3, 0.3}, Taper: []Taper{
			{Position: [3]float64{0, 0.75, 0}, Radii: [3]float64{0.2, 0.2, 0.2}},
			{Position: [3]float64{0, -0.75, 0}, Radii: [3]float64{0.4, 0.4, 0.4}},
		}}}}, func(p mgl64.Vec3) float64 { return roundCone(p, 1.5, 0.4, 0.2) }},
		{"box", General{Size: [3]float64{1, 2, 3}}, func(p mgl64.Vec3) float64 { return boxDist(p, mgl64.Vec3{0.5, 1, 1.5}) }},
		{"rounded box", General{Size: [3]float64{1, 1, 1}, Curves: []Curve{{Radii: [3]float64{0.25, 0.25, 0.25}}}}, func(p mgl64.Vec3) float64 { return boxDist(p, mgl64.Vec3{0.5, 0.5, 0.5}) - 0.25 }},
		{"ellipsoid", General{Curves: []Curve{{Radii: [3]float64{1, 0.5, 2}}}}, func(p mgl64.Vec3) float64 {
			return math.Sqrt(p[0]*p[0]/1+p[1]*p[1]/0.25+p[2]*p[2]/4) - 1
		}},
		{"squircle (exponent 4)", General{Curves: []Curve{{Radii: [3]float64{1, 1, 1}, Exponent: 4}}}, func(p mgl64.Vec3) float64 {
			return math.Pow(math.Pow(p[0], 4)+math.Pow(p[1], 4)+math.Pow(p[2], 4), 0.25) - 1
		}},
		{"octahedron (exponent 1)", General{Curves: []Curve{{Radii: [3]float64{1, 1, 1}, Exponent: 1}}}, func(p mgl64.Vec3) float64 {
			return math.Abs(p[0]) + math.Abs(p[1]) + math.Abs(p[2]) - 1
		}},
		{"cone (taper)", General{Size: [3]float64{0, 2, 0}, Curves: []Curve{{Radii: [3]float64{0.25, 0, 0.25}, Taper: []Taper{
			{Position: [3]float64{0, 1, 0}},
			{Position: [3]float64{0, -1, 0}, Radii: [3]float64{0.5, 0, 0.5}},
		}}}}, func(p mgl64.Vec3) float64 {
			// Side: radius 0.5 at y = -1 shrinking to 0 at y = 1; or the base disc.
			r := math.Hypot(p[0], p[2])
			side := r - 0.25*(1-p[1])
			if math.Abs(p[1]+1) < 1e-9 && r <= 0.5+1e-9 {
				return 0
			}
			return side
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ls := GeneralShape(c.shape, mgl64.Ident4(), [4]float32{1, 1, 1, 1})
			if len(ls) < 8 { // polyhedra (box, octahedron) have few distinct support points
				t.Fatalf("only %d segments", len(ls))
			}
			for _, p := range points(ls) {
				if d := c.dist(p); math.Abs(d) > 1e-5 {
					t.Fatalf("point %v is %g from the surface", p, d)
				}
			}
		})
	}
}

func TestGeneralCapsuleExtremes(t *testing.T) {
	g := General{Size: [3]float64{0, 1, 0}, Curves: []Curve{{Radii: [3]float64{0.5, 0.5, 0.5}}}}
	top, _ := g.Support(mgl64.Vec3{0, 1, 0})
	if math.Abs(top[1]-1) > 1e-12 {
		t.Errorf("capsule of mid height 1 and radius 0.5 reaches %v, want y = 1 (full height 2)", top)
	}
}

func TestPlaneAndRay(t *testing.T) {
	m := mgl64.Translate3D(0, 2, 0)
	pl := Plane(m, 10, [4]float32{1, 1, 1, 1})
	for _, p := range points(pl[:4]) {
		if math.Abs(p[1]-2) > 1e-6 || math.Abs(math.Abs(p[0])-5) > 1e-6 || math.Abs(math.Abs(p[2])-5) > 1e-6 {
			t.Errorf("plane corner %v", p)
		}
	}
	if n := vec(pl[4].B).Sub(vec(pl[4].A)); n.Normalize().Dot(mgl64.Vec3{0, 1, 0}) < 1-1e-9 {
		t.Errorf("plane normal %v is not +Y", n)
	}
	r := Ray(m, 3, [4]float32{})
	if e := vec(r[0].B); e.Sub(mgl64.Vec3{0, -1, 0}).Len() > 1e-6 {
		t.Errorf("ray of length 3 from y = 2 ends at %v, want (0, -1, 0)", e)
	}
}

// TestGeneralOnImplicit: every vertex drawn for a general shape satisfies
// the shape's own implicit function (scene.General.Implicit, or the support
// based signed distance for tapers) within 1e-5 of the shape's size.
func TestGeneralOnImplicit(t *testing.T) {
	shapes := map[string]scene.General{
		"rounded box":      {Size: [3]float64{1, 0.5, 2}, Curves: []Curve{{Radii: [3]float64{0.25, 0.25, 0.25}, Exponent: 2}}},
		"superellipsoid":   {Curves: []Curve{{Radii: [3]float64{1, 0.5, 0.75}, Exponent: 4}}},
		"rounded squircle": {Size: [3]float64{0.5, 1, 0.5}, Curves: []Curve{{Radii: [3]float64{0.5, 0, 0.5}, Exponent: 3}}},
		"duo curves":       {Size: [3]float64{0, 0, 1}, Curves: []Curve{{Radii: [3]float64{0.5, 0.5, 0}, Exponent: 2}, {Radii: [3]float64{0, 0, 0.25}, Exponent: 2}}},
		"tapered capsule": {Size: [3]float64{0, 1.5, 0}, Curves: []Curve{{Radii: [3]float64{0.3, 0.3, 0.3}, Exponent: 2, Taper: []Taper{
			{Position: [3]float64{0, 0.75, 0}, Radii: [3]float64{0.2, 0.2, 0.2}}, {Position: [3]float64{0, -0.75, 0}, Radii: [3]float64{0.4, 0.4, 0.4}}}}}},
	}
	for name, g := range shapes {
		t.Run(name, func(t *testing.T) {
			lo, hi := g.Bounds()
			size := hi.Sub(lo).Len()
			ls := Shape(scene.NewGeneralShape(g), mgl64.Ident4(), [4]float32{1, 1, 1, 1}, nil)
			if len(ls) < 100 {
				t.Fatalf("only %d segments", len(ls))
			}
			worst := 0.0
			for _, p := range points(ls) {
				worst = math.Max(worst, math.Abs(g.Implicit(p)))
			}
			// Points are float32 in the line list: allow their rounding.
			if worst > 1e-5*size {
				t.Fatalf("a vertex is %g off the surface (size %g)", worst, size)
			}
		})
	}
}

// TestEveryShapeKindDraws: the one switch in Shape handles every kind the
// model knows (convex and trimesh need a mesh, so none is given here).
func TestEveryShapeKindDraws(t *testing.T) {
	for _, st := range scene.ShapeTypes() {
		if st == scene.ShapeConvex || st == scene.ShapeTrimesh {
			continue
		}
		if ls := Shape(scene.DefaultShape(st), mgl64.Ident4(), [4]float32{1, 1, 1, 1}, nil); len(ls) == 0 {
			t.Errorf("%s draws nothing", st)
		}
	}
}
