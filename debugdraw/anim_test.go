package debugdraw

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// xRange is the X extent of every line of the cache.
func xRange(c *Cache) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, g := range c.Groups() {
		for _, ls := range g.Lines {
			for _, l := range ls {
				for _, p := range [][3]float32{l.A, l.B} {
					lo, hi = math.Min(lo, float64(p[0])), math.Max(hi, float64(p[0]))
				}
			}
		}
	}
	return lo, hi
}

// TestCacheSetPose: a 1 m box collider at the origin drawn at a pose that
// puts its node at x = 5 spans x 4.5 to 5.5; back to the document's
// transforms, -0.5 to 0.5 again.
func TestCacheSetPose(t *testing.T) {
	d, err := scene.Decode([]byte(`{"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body"],
 "extensions": {"OMI_physics_shape": {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]}},
 "scene": 0, "scenes": [{"nodes": [0]}],
 "nodes": [{"name": "box", "extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}}]}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	c := NewCache(d, nil, Options{MarkerSize: 0.1})
	tests := []struct {
		name   string
		world  []mgl64.Mat4
		lo, hi float64
	}{
		{"rest", nil, -0.5, 0.5},
		{"posed", []mgl64.Mat4{mgl64.Translate3D(5, 0, 0)}, 4.5, 5.5},
		{"back to rest", nil, -0.5, 0.5},
	}
	for _, tc := range tests {
		c.SetPose(tc.world, nil)
		c.Update()
		if lo, hi := xRange(c); math.Abs(lo-tc.lo) > 1e-6 || math.Abs(hi-tc.hi) > 1e-6 {
			t.Errorf("%s: lines span x %g to %g, want %g to %g", tc.name, lo, hi, tc.lo, tc.hi)
		}
	}
}

// TestSkinLines: a chain root -> a -> (not a joint) -> b draws a bone from
// the root to a and one from a to b (skipping the non-joint), plus three
// marker lines per joint.
func TestSkinLines(t *testing.T) {
	d, err := scene.Decode([]byte(`{"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
 "nodes": [{"name": "root", "children": [1]}, {"name": "a", "translation": [0, 1, 0], "children": [2]},
  {"name": "between", "translation": [0, 1, 0], "children": [3]}, {"name": "b", "translation": [1, 0, 0]}]}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	lines := SkinLines(d, []int{0, 1, 3}, d.WorldMatrices(), 0.1)
	var bones [][2][3]float32
	for _, l := range lines {
		if l.A[0] == l.B[0] && l.A[1] == l.B[1] || l.A[1] == l.B[1] && l.A[2] == l.B[2] || l.A[0] == l.B[0] && l.A[2] == l.B[2] {
			if d := float64(l.B[0]-l.A[0]) + float64(l.B[1]-l.A[1]) + float64(l.B[2]-l.A[2]); math.Abs(d-0.1) < 1e-6 {
				continue // a marker
			}
		}
		bones = append(bones, [2][3]float32{l.A, l.B})
	}
	want := [][2][3]float32{{{0, 0, 0}, {0, 1, 0}}, {{0, 1, 0}, {1, 2, 0}}}
	if len(lines) != 3*3+2 || len(bones) != 2 || bones[0] != want[0] || bones[1] != want[1] {
		t.Errorf("%d lines, bones %v; want 11 lines and bones %v", len(lines), bones, want)
	}
}

// TestPickInstances: a click on the second instance of the instancing
// fixture (at x 10..12) picks the node; with the instances unknown (a
// MeshSource without them) only the first instance is there to hit.
func TestPickInstances(t *testing.T) {
	d, err := scene.Load("../scene/anim/testdata/instancing.gltf")
	if err != nil {
		t.Fatal(err)
	}
	eye := mgl64.Vec3{10.5, 1.5, 10}
	view := mgl64.LookAtV(eye, mgl64.Vec3{10.5, 1.5, 0}, mgl64.Vec3{0, 1, 0})
	proj := mgl64.Perspective(math.Pi/4, 1, 0.1, 100)
	world := d.WorldMatrices()
	// The centre of a 200 x 200 view looks at (10.5, 1.5, 0), inside the
	// second instance's triangle (10,1) (12,1) (10,3).
	if n := PickNode(d, world, &DocumentMeshes{Doc: d}, nil, view, proj, 100, 100, 200, 200, 3); n != 0 {
		t.Errorf("pick on the second instance: node %d, want 0", n)
	}
	if n := PickNode(d, world, plainMeshes{&DocumentMeshes{Doc: d}}, nil, view, proj, 100, 100, 200, 200, 3); n != -1 {
		t.Errorf("pick without instances: node %d, want -1 (nothing there)", n)
	}
}

// plainMeshes hides DocumentMeshes' instances.
type plainMeshes struct{ dm *DocumentMeshes }

func (p plainMeshes) MeshTriangles(m int) ([][3]mgl64.Vec3, error) { return p.dm.MeshTriangles(m) }
