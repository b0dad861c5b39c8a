package debugdraw

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"physview/scene"
)

// TestHiddenChain: in a chain whose node 2 is hidden, nodes 2 to 5 draw
// their colliders grey and nodes 0 and 1 do not, whether every node is
// built (the first Update) or one is (a selection).
func TestHiddenChain(t *testing.T) {
	d, err := scene.Load("testdata/hidden_chain.gltf")
	if err != nil {
		t.Fatal(err)
	}
	c := NewCache(d, nil, Options{MarkerSize: 0.1})
	c.Update()
	check := func(when string, want []bool) {
		t.Helper()
		for n, hidden := range want {
			ls := c.nodes[n][Colliders]
			if len(ls) == 0 {
				t.Fatalf("%s: node %d draws no collider", when, n)
			}
			if got := ls[0].Color == ColorHidden; got != hidden {
				t.Errorf("%s: node %d grey %v, want %v", when, n, got, hidden)
			}
		}
	}
	check("first build", []bool{false, false, true, true, true, true})
	c.Select(4) // one node rebuilt, in the selection colour
	c.Update()
	if ls := c.nodes[4][Colliders]; len(ls) == 0 || ls[0].Color != ColorSelected {
		t.Fatalf("node 4 selected: colour %v", ls)
	}
	c.Select(-1)
	c.Update()
	check("after a selection", []bool{false, false, true, true, true, true})
}

// chainDoc is a chain of n nodes with a collider on every 100th and the
// first hidden.
func chainDoc(t *testing.T, n int) *scene.Document {
	var b strings.Builder
	b.WriteString(`{"asset":{"version":"2.0"},"extensionsUsed":["KHR_implicit_shapes","KHR_physics_rigid_bodies","KHR_node_visibility"],` +
		`"extensions":{"KHR_implicit_shapes":{"shapes":[{"type":"sphere","sphere":{"radius":0.2}}]}},"scenes":[{"nodes":[0]}],"scene":0,"nodes":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		ext := ""
		if i%100 == 0 {
			ext = `"KHR_physics_rigid_bodies":{"collider":{"geometry":{"shape":0}}}`
		}
		if i == 0 {
			ext += `,"KHR_node_visibility":{"visible":false}`
		}
		fmt.Fprintf(&b, `{"extensions":{%s}`, ext)
		if i+1 < n {
			fmt.Fprintf(&b, `,"children":[%d]`, i+1)
		}
		b.WriteByte('}')
	}
	b.WriteString("]}")
	d, err := scene.Decode([]byte(b.String()), nil)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestFirstBuildLinear: the first Update of a deep chain finds every
// node's visibility in one pass (each node's walk up its parents made
// 50,000 nodes take 3 s).
func TestFirstBuildLinear(t *testing.T) {
	timeOf := func(n int) time.Duration {
		d := chainDoc(t, n)
		c := NewCache(d, nil, Options{MarkerSize: 0.1})
		start := time.Now()
		c.Update()
		el := time.Since(start)
		if ls := c.nodes[n-100][Colliders]; len(ls) == 0 || ls[0].Color != ColorHidden {
			t.Fatalf("%d nodes: the last collider is not grey under the hidden root", n)
		}
		return el
	}
	// The least of three runs of each: one run can take a collection or
	// the machine's stall.
	small, large := minOf3(func() time.Duration { return timeOf(2000) }), minOf3(func() time.Duration { return timeOf(40000) })
	t.Logf("2,000 nodes %v, 40,000 nodes %v: %.1f times", small, large, float64(large)/float64(small))
	if r := float64(large) / float64(small); r > 80 {
		t.Errorf("20x the nodes took %.1f times as long (%v, %v): not linear", r, small, large)
	}
}

// minOf3 is the least of three runs of f.
func minOf3(f func() time.Duration) time.Duration {
	return min(f(), f(), f())
}
