package debugdraw

import (
	"math"
	"testing"

	"physview/scene"
)

// TestMarkDirtyFollowsMovedNodes: after a node moves (as a simulation step
// moves it) and MarkDirty names it, its lines are rebuilt where it now is,
// not where the cache's world matrices had it.
func TestMarkDirtyFollowsMovedNodes(t *testing.T) {
	d := demo(t)
	c := NewCache(d, &DocumentMeshes{Doc: d}, Options{MarkerSize: 0.1})
	c.Update()
	crate := nodeNamed(t, d, "Crate (dynamic box)")
	before := d.WorldMatrix(crate).Col(3).Vec3()
	tr := d.NodeTransform(crate)
	tr.Translation[1] += 10
	if _, err := scene.Apply(d, scene.SetNodeTransform{Node: crate, Transform: tr}); err != nil {
		t.Fatal(err)
	}
	c.MarkDirty([]int{crate})
	c.Update()
	ls := c.PickLines(crate)
	if len(ls) == 0 {
		t.Fatal("the crate has no collider lines")
	}
	lowest := math.Inf(1)
	for _, l := range ls {
		lowest = math.Min(lowest, math.Min(float64(l.A[1]), float64(l.B[1])))
	}
	if lowest < before[1]+9 {
		t.Errorf("the crate's lines start at y %g: they did not follow it 10 m up from %g", lowest, before[1])
	}
}
