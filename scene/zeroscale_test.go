package scene_test

import (
	"path/filepath"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// TestZeroScale: a scale written [0, 0, 0] is a scale of 0 (the object
// collapsed to its origin, as exporters hide one), not the default 1 that
// qmuntal/gltf's ScaleOrDefault reads it as; an absent scale is 1. Its
// colliders are disabled (KHR_physics_rigid_bodies), so they are not out
// of an engine's range either.
func TestZeroScale(t *testing.T) {
	d, err := scene.Load(filepath.Join("testdata", "zero_scale.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	world := d.WorldMatrices()
	for _, tc := range []struct {
		node  int
		scale [3]float64 // NodeTransform's
		world mgl64.Mat4
	}{
		{0, [3]float64{0, 0, 0}, mgl64.Translate3D(10, 2, 0).Mul4(mgl64.Scale3D(0, 0, 0))},
		{1, [3]float64{1, 1, 1}, mgl64.Translate3D(1, 2, 3)},
		{3, [3]float64{0, 0, 0}, mgl64.Translate3D(2, 0, 0).Mul4(mgl64.Scale3D(0, 0, 0))},
	} {
		if got := d.NodeTransform(tc.node).Scale; got != tc.scale {
			t.Errorf("node %d: NodeTransform scale %v, want %v", tc.node, got, tc.scale)
		}
		if !world[tc.node].ApproxEqual(tc.world) {
			t.Errorf("node %d: world matrix %v, want %v", tc.node, world[tc.node], tc.world)
		}
	}
	for _, f := range d.Findings() {
		if f.Severity == scene.Error {
			t.Errorf("finding %v on a collapsed collider", f)
		}
	}
}
