package debugdraw

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// TestRayShape: the distance at which a ray enters each solid shape kind
// agrees with the shape's own geometry, worked out by hand.
func TestRayShape(t *testing.T) {
	o, dir := mgl64.Vec3{0, 0, 10}, mgl64.Vec3{0, 0, -1}
	cases := []struct {
		name string
		s    scene.Shape
		m    mgl64.Mat4
		want float64 // -1: no hit
	}{
		{"sphere r 0.5", scene.Shape{Type: scene.ShapeSphere, Radius: 0.5, Mesh: -1}, mgl64.Ident4(), 9.5},
		{"sphere scaled x2", scene.Shape{Type: scene.ShapeSphere, Radius: 0.5, Mesh: -1}, mgl64.Scale3D(2, 2, 2), 9},
		{"box 1x2x4", scene.Shape{Type: scene.ShapeBox, Size: [3]float64{1, 2, 4}, Mesh: -1}, mgl64.Ident4(), 8},
		{"box missed beside it", scene.Shape{Type: scene.ShapeBox, Size: [3]float64{1, 1, 1}, Mesh: -1}, mgl64.Translate3D(0.6, 0, 0), -1},
		// A capsule along Y seen from the side: its radius.
		{"capsule r 0.3", scene.Shape{Type: scene.ShapeCapsule, Height: 1, RadiusTop: 0.3, RadiusBottom: 0.3, Mesh: -1}, mgl64.Ident4(), 9.7},
		// Laid along Z: the ray meets the top cap, at half the height plus the radius.
		{"capsule along Z", scene.Shape{Type: scene.ShapeCapsule, Height: 1, RadiusTop: 0.3, RadiusBottom: 0.3, Mesh: -1}, mgl64.HomogRotate3DX(math.Pi / 2), 9.2},
		{"cylinder r 0.25", scene.Shape{Type: scene.ShapeCylinder, Height: 2, RadiusTop: 0.25, RadiusBottom: 0.25, Mesh: -1}, mgl64.Ident4(), 9.75},
		{"ray starts inside", scene.Shape{Type: scene.ShapeSphere, Radius: 20, Mesh: -1}, mgl64.Ident4(), -1},
		{"plane has no inside", scene.Shape{Type: scene.ShapePlane, Mesh: -1}, mgl64.Ident4(), -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := RayShape(c.s, c.m, nil, o, dir)
			if c.want < 0 {
				if ok {
					t.Fatalf("hit at %g, want none", got)
				}
				return
			}
			if !ok || math.Abs(got-c.want) > 1e-3 {
				t.Fatalf("hit %v at %g, want %g", ok, got, c.want)
			}
		})
	}
}

// TestPickInsideVolumes: clicks inside a collider's wireframe select its
// node; a mesh wrapped by its collider or by a trigger field still selects
// the mesh node; a mesh behind a trigger does not; the convex shape is hit
// on its mesh.
func TestPickInsideVolumes(t *testing.T) {
	d := decodeDoc(t, cubeGLTF([]string{
		`{"name":"ball","translation":[-3,0,0]}`,
		`{"name":"pill","translation":[0,2,0]}`,
		`{"name":"crate","mesh":0,"translation":[3,0,0]}`,
		`{"name":"crate collider","translation":[3,0,0]}`,
		`{"name":"field","translation":[0,-2,0]}`,
		`{"name":"rock","mesh":0,"translation":[0,-2,0]}`,
		`{"name":"hull","translation":[0,0,0]}`,
		`{"name":"wall","mesh":0,"translation":[-1,1.5,-3],"scale":[2,2,1]}`,
		`{"name":"gate","translation":[-1,1.5,0]}`,
	}, []int{0, 1, 2, 3, 4, 5, 6, 7, 8}))
	d.Shapes = []scene.Shape{
		{Type: scene.ShapeSphere, Radius: 0.8, Mesh: -1},
		{Type: scene.ShapeCapsule, Height: 1, RadiusTop: 0.3, RadiusBottom: 0.3, Mesh: -1},
		{Type: scene.ShapeBox, Size: [3]float64{1.4, 1.4, 1.4}, Mesh: -1},
		{Type: scene.ShapeBox, Size: [3]float64{3, 1.5, 3}, Mesh: -1},
		{Type: scene.ShapeConvex, Mesh: 0},
	}
	col := func(s int) *scene.Body {
		return &scene.Body{Collider: &scene.Collider{Shape: s, PhysicsMaterial: -1, CollisionFilter: -1}}
	}
	d.Nodes[0].Body = col(0)
	d.Nodes[1].Body = col(1)
	d.Nodes[3].Body = col(2)
	d.Nodes[4].Body = &scene.Body{Trigger: &scene.Trigger{Shape: 3, CollisionFilter: -1}}
	d.Nodes[6].Body = col(4)
	d.Nodes[8].Body = &scene.Body{Trigger: &scene.Trigger{Shape: 2, CollisionFilter: -1}}
	world := d.WorldMatrices()
	meshes := &DocumentMeshes{Doc: d}
	lines := func(n int) []Line {
		ls := NodeLines(d, n, world, false, meshes, Options{MarkerSize: 0.1})
		return append(ls[Colliders], ls[Triggers]...)
	}
	cases := []struct {
		name string
		at   mgl64.Vec3
		want string
	}{
		{"middle of a sphere", mgl64.Vec3{-3, 0.1, 0}, "ball"},
		{"sphere, off centre", mgl64.Vec3{-3.4, -0.3, 0}, "ball"},
		{"beside the sphere", mgl64.Vec3{-3.95, 0, 0}, ""},
		{"capsule body", mgl64.Vec3{0.05, 2.3, 0}, "pill"},
		{"capsule cap", mgl64.Vec3{0, 2.65, 0}, "pill"},
		{"beside the capsule cap", mgl64.Vec3{0.32, 2.8, 0}, ""},
		{"mesh wrapped by its collider", mgl64.Vec3{3.1, 0.1, 0}, "crate"},
		{"collider beyond its mesh", mgl64.Vec3{3.65, 0.1, 0.7}, "crate collider"},
		{"mesh inside a trigger field", mgl64.Vec3{0.1, -1.9, 0}, "rock"},
		{"trigger field beside the mesh", mgl64.Vec3{1.2, -2.2, 0}, "field"},
		{"convex hull on its mesh", mgl64.Vec3{0.1, 0.1, 0}, "hull"},
		{"trigger in front of a mesh", mgl64.Vec3{-0.9, 1.5, 0.1}, "gate"},
	}
	var picker Picker
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x, y := screenOf(t, c.at)
			got := picker.PickNode(d, world, meshes, lines, camView, camProj, x, y, vpW, vpH, 2)
			name := ""
			if got >= 0 {
				name = d.GLTF.Nodes[got].Name
			}
			if name != c.want {
				t.Errorf("picked %d %q, want %q", got, name, c.want)
			}
		})
	}
	// With the shapes hidden (no lines) the inside of the sphere is empty.
	x, y := screenOf(t, mgl64.Vec3{-3, 0.1, 0})
	if got := PickNode(d, world, meshes, func(int) []Line { return nil }, camView, camProj, x, y, vpW, vpH, 2); got != -1 {
		t.Errorf("hidden shapes: picked %d inside the sphere", got)
	}
}
