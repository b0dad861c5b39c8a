package debugdraw

import (
	"fmt"
	"strings"
	"testing"

	"physview/scene"
)

// bigScene has n colliders of four shape types on static, kinematic and
// dynamic bodies, in a grid, plus ten point-gravity volumes.
func bigScene(b *testing.B, n int) *scene.Document {
	var nodes []string
	for i := 0; i < n+10; i++ {
		nodes = append(nodes, fmt.Sprintf(`{"translation":[%d,0,%d]}`, i%100*2, i/100*2))
	}
	js := `{"asset":{"version":"2.0"},"nodes":[` + strings.Join(nodes, ",") + `]}`
	d, err := scene.Decode([]byte(js), nil)
	if err != nil {
		b.Fatal(err)
	}
	d.Shapes = []scene.Shape{
		{Type: scene.ShapeBox, Size: [3]float64{1, 1, 1}, Mesh: -1},
		{Type: scene.ShapeSphere, Radius: 0.5, Mesh: -1},
		{Type: scene.ShapeCapsule, Height: 1, RadiusTop: 0.3, RadiusBottom: 0.5, Mesh: -1},
		{Type: scene.ShapeCylinder, Height: 1, RadiusTop: 0.5, RadiusBottom: 0.5, Mesh: -1},
		{Type: scene.ShapeSphere, Radius: 8, Mesh: -1},
	}
	motions := []scene.MotionType{scene.MotionStatic, scene.MotionKinematic, scene.MotionDynamic}
	for i := 0; i < n; i++ {
		m := scene.DefaultMotion(motions[i%3])
		d.Nodes[i].Body = &scene.Body{Motion: &m, Collider: &scene.Collider{Shape: i % 4, PhysicsMaterial: -1, CollisionFilter: -1}}
	}
	for i := n; i < n+10; i++ {
		g := scene.DefaultGravity(scene.GravityPoint)
		d.Nodes[i].Body = &scene.Body{Trigger: &scene.Trigger{Shape: 4, CollisionFilter: -1}}
		d.Nodes[i].Gravity = &g
	}
	return d
}

// BenchmarkBuildAll is the baseline: every line of 10,000 colliders and ten
// gravity volumes built from scratch.
func BenchmarkBuildAll(b *testing.B) {
	d := bigScene(b, 10000)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		c := NewCache(d, nil, Options{MarkerSize: 0.2})
		c.Update()
	}
}

// BenchmarkFrameNothingChanged is what the window pays per frame for the
// debug drawing when nothing changed: no regeneration at all.
func BenchmarkFrameNothingChanged(b *testing.B) {
	d := bigScene(b, 10000)
	c := NewCache(d, nil, Options{MarkerSize: 0.2})
	c.Update()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.Select(-1)
		if c.Update() {
			b.Fatal("nothing changed, yet the cache rebuilt")
		}
	}
}

// BenchmarkEditOneShape is one step of a handle drag on one collider, end
// to end: the edit through the History, then the line rebuild its Change
// asks for (that node, and its group of GroupSize nodes re-joined).
func BenchmarkEditOneShape(b *testing.B) {
	d, c, own := dragScene(b)
	var h scene.History
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := d.Shapes[own]
		s.Size[0] = 1 + float64(i%10)/10 + 0.05
		ch, err := h.Do(d, scene.SetShape{Index: own, Shape: s, Label: "Drag box size x"})
		if err != nil {
			b.Fatal(err)
		}
		c.Apply(ch)
		if !c.Update() {
			b.Fatal("the edit rebuilt nothing")
		}
	}
}

// BenchmarkUndoOneShape undoes one drag step and rebuilds what it changed.
func BenchmarkUndoOneShape(b *testing.B) {
	d, c, own := dragScene(b)
	var h scene.History
	for i := 0; i < b.N; i++ {
		s := d.Shapes[own]
		s.Size[0] = 1 + float64(i%10)/10 + 0.05
		if _, err := h.Do(d, scene.SetShape{Index: own, Shape: s}); err != nil {
			b.Fatal(err)
		}
		h.Seal()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ch, ok := h.Undo(d)
		if !ok {
			b.Fatal("nothing to undo")
		}
		c.Apply(ch)
		if !c.Update() {
			b.Fatal("the undo rebuilt nothing")
		}
	}
}

// dragScene is the 10,000-collider scene with node 5000 given a shape of
// its own, so an edit of it touches one node.
func dragScene(b *testing.B) (*scene.Document, *Cache, int) {
	d := bigScene(b, 10000)
	d.Shapes = append(d.Shapes, scene.Shape{Type: scene.ShapeBox, Size: [3]float64{1, 1, 1}, Mesh: -1})
	own := len(d.Shapes) - 1
	d.Nodes[5000].Body.Collider.Shape = own
	c := NewCache(d, nil, Options{MarkerSize: 0.2})
	c.Update()
	return d, c, own
}
