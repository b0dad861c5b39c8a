package debugdraw

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

const eps = 1e-5

// roundCone is the distance from p to a capsule with caps of radius rb at
// y = -h/2 and ra at y = +h/2: scene's own distance function.
func roundCone(p mgl64.Vec3, h, rb, ra float64) float64 {
	s := scene.Shape{Type: scene.ShapeCapsule, Height: h, RadiusBottom: rb, RadiusTop: ra}
	return s.Distance(p, mgl64.Vec3{}, mgl64.Vec3{})
}

func points(ls []Line) []mgl64.Vec3 {
	var out []mgl64.Vec3
	for _, l := range ls {
		out = append(out, mgl64.Vec3{float64(l.A[0]), float64(l.A[1]), float64(l.A[2])}, mgl64.Vec3{float64(l.B[0]), float64(l.B[1]), float64(l.B[2])})
	}
	return out
}

func TestShapesOnSurface(t *testing.T) {
	white := [4]float32{1, 1, 1, 1}
	cases := []struct {
		name  string
		shape scene.Shape
		dist  func(p mgl64.Vec3) float64
		lines int
	}{
		{"sphere", scene.Shape{Type: scene.ShapeSphere, Radius: 0.7}, func(p mgl64.Vec3) float64 { return p.Len() - 0.7 }, 3 * Segments},
		{"capsule", scene.Shape{Type: scene.ShapeCapsule, Height: 1, RadiusTop: 0.5, RadiusBottom: 0.5}, func(p mgl64.Vec3) float64 { return roundCone(p, 1, 0.5, 0.5) }, 0},
		{"tapered capsule", scene.Shape{Type: scene.ShapeCapsule, Height: 1.2, RadiusTop: 0.3, RadiusBottom: 0.6}, func(p mgl64.Vec3) float64 { return roundCone(p, 1.2, 0.6, 0.3) }, 0},
		{"capsule wide top", scene.Shape{Type: scene.ShapeCapsule, Height: 2, RadiusTop: 0.9, RadiusBottom: 0.2}, func(p mgl64.Vec3) float64 { return roundCone(p, 2, 0.2, 0.9) }, 0},
		{"cylinder", scene.Shape{Type: scene.ShapeCylinder, Height: 2, RadiusTop: 0.5, RadiusBottom: 0.5}, func(p mgl64.Vec3) float64 {
			// On the side or on a rim: distance to the infinite side or the caps.
			return math.Min(math.Abs(math.Hypot(p[0], p[2])-0.5), math.Abs(math.Abs(p[1])-1))
		}, 2*Segments + 4},
		{"box", scene.Shape{Type: scene.ShapeBox, Size: [3]float64{1, 2, 3}}, func(p mgl64.Vec3) float64 {
			// Edges of a box: two of the three coordinates at their extreme.
			n := 0
			for k, h := range []float64{0.5, 1, 1.5} {
				if math.Abs(math.Abs(p[k])-h) < eps {
					n++
				}
			}
			if n >= 2 {
				return 0
			}
			return 1
		}, 12},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ls := Shape(c.shape, mgl64.Ident4(), white, nil)
			if c.lines > 0 && len(ls) != c.lines {
				t.Errorf("%d segments, want %d", len(ls), c.lines)
			}
			if len(ls) == 0 {
				t.Fatal("no lines")
			}
			for _, p := range points(ls) {
				if d := c.dist(p); math.Abs(d) > eps {
					t.Fatalf("point %v is %g from the surface", p, d)
				}
			}
		})
	}
}

// TestCapsuleExtremes: a capsule reaches +-(height/2 + radius) on Y, with
// each end's own radius.
func TestCapsuleExtremes(t *testing.T) {
	for _, c := range []struct{ h, rt, rb float64 }{{1, 0.5, 0.5}, {1.2, 0.3, 0.6}, {2, 0.9, 0.2}} {
		ls := Shape(scene.Shape{Type: scene.ShapeCapsule, Height: c.h, RadiusTop: c.rt, RadiusBottom: c.rb}, mgl64.Ident4(), [4]float32{}, nil)
		top, bottom := math.Inf(-1), math.Inf(1)
		for _, p := range points(ls) {
			top, bottom = math.Max(top, p[1]), math.Min(bottom, p[1])
		}
		if math.Abs(top-(c.h/2+c.rt)) > eps || math.Abs(bottom+(c.h/2+c.rb)) > eps {
			t.Errorf("%+v: Y from %g to %g, want %g to %g", c, bottom, top, -(c.h/2 + c.rb), c.h/2+c.rt)
		}
	}
}

func TestShapePlacedByMatrix(t *testing.T) {
	m := mgl64.Translate3D(1, 2, 3).Mul4(mgl64.HomogRotate3DX(math.Pi / 2))
	ls := Shape(scene.Shape{Type: scene.ShapeSphere, Radius: 2}, m, [4]float32{}, nil)
	for _, p := range points(ls) {
		if d := p.Sub(mgl64.Vec3{1, 2, 3}).Len(); math.Abs(d-2) > eps {
			t.Fatalf("placed sphere point %v at distance %g from its centre", p, d)
		}
	}
}

func cubeTriangles() [][3]mgl64.Vec3 {
	v := func(i int) mgl64.Vec3 {
		return mgl64.Vec3{float64(i&1) - 0.5, float64(i>>1&1) - 0.5, float64(i>>2&1) - 0.5}
	}
	quads := [][4]int{{0, 1, 3, 2}, {4, 6, 7, 5}, {0, 4, 5, 1}, {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 5, 7, 3}}
	var tris [][3]mgl64.Vec3
	for _, q := range quads {
		tris = append(tris, [3]mgl64.Vec3{v(q[0]), v(q[1]), v(q[2])}, [3]mgl64.Vec3{v(q[0]), v(q[2]), v(q[3])})
	}
	return tris
}

func TestCubeHullHas12Edges(t *testing.T) {
	pts := trianglePoints(cubeTriangles())
	// Points inside and on faces do not change the hull.
	pts = append(pts, mgl64.Vec3{0, 0, 0}, mgl64.Vec3{0.5, 0, 0}, mgl64.Vec3{0.1, 0.2, -0.3})
	edges := HullEdges(pts)
	if len(edges) != 12 {
		t.Fatalf("cube hull has %d edges, want 12", len(edges))
	}
	for _, e := range edges {
		if l := e[0].Sub(e[1]).Len(); math.Abs(l-1) > eps {
			t.Errorf("edge %v has length %g, want 1", e, l)
		}
	}
	if n := len(TriangleEdges(cubeTriangles())); n != 18 {
		t.Errorf("cube trimesh has %d unique edges, want 18 (12 + 6 diagonals)", n)
	}
}

func TestHullTetraAndFlat(t *testing.T) {
	tet := []mgl64.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.1, 0.1, 0.1}}
	if n := len(HullEdges(tet)); n != 6 {
		t.Errorf("tetrahedron hull has %d edges, want 6", n)
	}
	square := []mgl64.Vec3{{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}, {0.5, 0, 0.5}}
	if n := len(HullEdges(square)); n != 4 {
		t.Errorf("flat square hull has %d edges, want 4", n)
	}
	if n := len(HullEdges([]mgl64.Vec3{{0, 0, 0}, {1, 1, 1}, {2, 2, 2}})); n != 1 {
		t.Errorf("collinear points give %d edges, want 1", n)
	}
}
