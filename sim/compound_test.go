package sim

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// TestHullMass: a 2 x 1 x 1 box's hull has volume 2, its centre in the
// middle and the inertia of a solid box, (y²+z²)/12 and so on.
func TestHullMass(t *testing.T) {
	var pts []mgl64.Vec3
	for i := 0; i < 8; i++ {
		pts = append(pts, mgl64.Vec3{3 + 2*float64(i&1), float64(i >> 1 & 1), -1 + float64(i>>2&1)})
	}
	h, err := scene.ConvexHull(pts)
	if err != nil {
		t.Fatal(err)
	}
	vol, c, I := hullMass(h)
	if math.Abs(vol-2) > 1e-12 || c.Sub(mgl64.Vec3{4, 0.5, -0.5}).Len() > 1e-12 {
		t.Errorf("volume %g centre %v, want 2 and (4, 0.5, -0.5)", vol, c)
	}
	want := mgl64.Diag3(mgl64.Vec3{2.0 / 12, 5.0 / 12, 5.0 / 12})
	for i := 0; i < 9; i++ {
		if math.Abs(I[i]-want[i]) > 1e-12 {
			t.Fatalf("inertia %v, want %v", I, want)
		}
	}
}

// TestCompoundRests: a concave body given a compound of convex hulls falls
// onto the ground box and rests on its lowest point, upright.
func TestCompoundRests(t *testing.T) {
	for _, tc := range []struct {
		file string
		want float64 // resting height of the node: minus the mesh's lowest y
	}{
		{"u.glb", 0},
		{"l.gltf", 0},
		{"torus.gltf", 0.3},
		{"cup.glb", 0},
	} {
		t.Run(tc.file, func(t *testing.T) {
			d, err := scene.Load("../internal/concave/testdata/" + tc.file)
			if err != nil {
				t.Fatal(err)
			}
			res, err := d.DecomposeNode(context.Background(), 1, scene.CompoundOptions{MaxHulls: 8, MaxVertices: 32})
			if err != nil {
				t.Fatal(err)
			}
			e, err := d.FitCompoundEdit(1, scene.PartHulls(res.Parts))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := scene.Apply(d, e); err != nil {
				t.Fatal(err)
			}
			if _, err := scene.Apply(d, scene.SetWorldGravity{Gravity: &scene.WorldGravity{Gravity: 9.81, Direction: [3]float64{0, -1, 0}}}); err != nil {
				t.Fatal(err)
			}
			s, err := New(d, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			start := s.Bodies[0].Position[1]
			if err := s.Run(3); err != nil {
				t.Fatal(err)
			}
			b := s.Bodies[0]
			t.Logf("%d parts: fell from y = %.3f to %.4f", len(res.Parts), start, b.Position[1])
			if y := b.Position[1]; math.Abs(y-tc.want) > 0.003 {
				t.Errorf("rests at y = %.4f, want %.4f", y, tc.want)
			}
			if up := b.Rotation.Rotate(mgl64.Vec3{0, 1, 0}); up[1] < 0.999 {
				t.Errorf("fell over: its +Y points along %v", up)
			}
		})
	}
}

// TestTrimeshOnDynamicBody: a dynamic body whose collider is a triangle
// mesh plays with the mesh's convex hull, and Play says so (ODE collides
// moving triangle meshes unreliably): the U falls and rests on its lowest
// point, as its hull does, instead of Play refusing the scene.
func TestTrimeshOnDynamicBody(t *testing.T) {
	d, err := scene.Load("../internal/concave/testdata/u.glb")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []func() (scene.Edit, error){
		func() (scene.Edit, error) { return d.FitColliderEdit(1, scene.ShapeTrimesh, false) },
		func() (scene.Edit, error) {
			return scene.SetWorldGravity{Gravity: &scene.WorldGravity{Gravity: 9.81, Direction: [3]float64{0, -1, 0}}}, nil
		},
	} {
		edit, err := e()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := scene.Apply(d, edit); err != nil {
			t.Fatal(err)
		}
	}
	if c := d.Nodes[1].Body.Collider; c == nil || d.Shapes[c.Shape].Type != scene.ShapeTrimesh {
		t.Fatalf("node 1's collider is %+v, want a trimesh", c)
	}
	s, err := New(d, Options{})
	if err != nil {
		t.Fatalf("Play refused a trimesh on a dynamic body: %v", err)
	}
	defer s.Close()
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "played as its convex hull") {
		t.Errorf("warnings %q, want one saying the trimesh plays as its hull", s.Warnings)
	}
	start := s.Bodies[0].Position[1]
	if err := s.Run(3); err != nil {
		t.Fatal(err)
	}
	t.Logf("fell from %.3f to %.4f; %q", start, s.Bodies[0].Position[1], s.Warnings)
	if y := s.Bodies[0].Position[1]; y >= start-0.5 || math.Abs(y) > 0.003 {
		t.Errorf("fell from y = %.3f to %.4f, want to rest at 0", start, y)
	}
	if d.Shapes[d.Nodes[1].Body.Collider.Shape].Type != scene.ShapeTrimesh {
		t.Error("playing changed the document's shape")
	}
}

// TestTrimeshOnDynamicBodyInertia: a trimesh played as its hull also
// turns as its hull does: the body's inertia is the one the same mesh as a
// convex collider gives (its hull's volume and centre), not that of the
// mesh's bounding box about the node's origin.
func TestTrimeshOnDynamicBodyInertia(t *testing.T) {
	inertia := func(typ scene.ShapeType) mgl64.Mat3 {
		d, err := scene.Load("../internal/concave/testdata/l.gltf")
		if err != nil {
			t.Fatal(err)
		}
		e, err := d.FitColliderEdit(1, typ, false)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := scene.Apply(d, e); err != nil {
			t.Fatal(err)
		}
		s, err := New(d, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		return s.Bodies[0].Inertia
	}
	hull, tri := inertia(scene.ShapeConvex), inertia(scene.ShapeTrimesh)
	for i := range hull {
		if math.Abs(tri[i]-hull[i]) > 1e-9*math.Max(1, math.Abs(hull[i])) {
			t.Fatalf("trimesh played as its hull has inertia %v, its hull as a convex collider %v", tri, hull)
		}
	}
}
