package sim

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"physview/scene"
)

// rowOfBodies is a glTF file of n dynamic spheres 1 m apart over a ground
// box, every tenth with its collider on a child node; collapsed: all but
// the first scaled by 0 (disabled, a warning each).
func rowOfBodies(t *testing.T, n int, collapsed bool) *scene.Document {
	var b strings.Builder
	b.WriteString(`{"asset":{"version":"2.0"},"extensionsUsed":["KHR_implicit_shapes","KHR_physics_rigid_bodies"],` +
		`"extensions":{"KHR_implicit_shapes":{"shapes":[{"type":"box","box":{"size":[1000,1,1000]}},{"type":"sphere","sphere":{"radius":0.4}}]}},` +
		`"scenes":[{"nodes":[0`)
	for i := range n {
		fmt.Fprintf(&b, ",%d", 1+2*i)
	}
	b.WriteString(`]}],"scene":0,"nodes":[{"translation":[0,-0.5,0],"extensions":{"KHR_physics_rigid_bodies":{"collider":{"geometry":{"shape":0}}}}}`)
	for i := range n {
		body, child := `"motion":{"mass":1},"collider":{"geometry":{"shape":1}}`, `{}`
		if i%10 == 0 {
			body, child = `"motion":{"mass":1}`, `{"extensions":{"KHR_physics_rigid_bodies":{"collider":{"geometry":{"shape":1}}}}}`
		}
		scale := ""
		if collapsed && i > 0 {
			scale = `"scale":[0,0,0],`
		}
		fmt.Fprintf(&b, `,{%s"translation":[%d,1,%d],"children":[%d],"extensions":{"KHR_physics_rigid_bodies":{%s}}},%s`, scale, i%100, i/100, 2+2*i, body, child)
	}
	b.WriteString("]}")
	d, err := scene.Decode([]byte(b.String()), nil)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestManyBodiesBuildLinear: building the world groups the colliders by
// body once; each body scanned every node for its colliders, and 20,000
// bodies took 10 s to build. The inertia of a body whose collider is on a
// child node is that of its sphere all the same. Thousands of disabled
// bodies build, each said once.
func TestManyBodiesBuildLinear(t *testing.T) {
	build := func(n int, collapsed bool) (time.Duration, *Sim) {
		d := rowOfBodies(t, n, collapsed)
		start := time.Now()
		s, err := New(d, Options{})
		el := time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		want := n
		if collapsed {
			want = 1
		}
		if len(s.Bodies) != want {
			t.Fatalf("%d bodies built, want %d", len(s.Bodies), want)
		}
		return el, s
	}
	small, s := build(400, false)
	// A solid sphere of 1 kg and radius 0.4: 2/5 m r² = 0.064 kg·m².
	for _, k := range []int{0, 1} { // collider on a child node, on the body
		if got := s.Bodies[k].Inertia.At(0, 0); got < 0.0639 || got > 0.0641 {
			t.Errorf("body %d: inertia %.5f, want 0.064", k, got)
		}
	}
	s.Close()
	// The least of three runs of each size: one run can take a
	// collection or the machine's stall.
	for range 2 {
		el, s := build(400, false)
		s.Close()
		small = min(small, el)
	}
	large := time.Duration(1<<63 - 1)
	for range 3 {
		el, s := build(8000, false)
		s.Close()
		large = min(large, el)
	}
	t.Logf("400 bodies %v, 8,000 bodies %v: %.1f times", small, large, float64(large)/float64(small))
	if r := float64(large) / float64(small); r > 80 {
		t.Errorf("20x the bodies took %.1f times as long to build (%v, %v): not linear", r, small, large)
	}
	_, s = build(8000, true)
	if len(s.Warnings) < 7999 {
		t.Errorf("%d warnings for 7,999 disabled bodies", len(s.Warnings))
	}
	s.Close()
}
