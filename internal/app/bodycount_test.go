package app

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"physview/scene"
)

// chain returns a glTF file of n nodes, each the child of the one before,
// with a collider on every 100th and motion on the nodes in motion.
func chain(n int, motion map[int]bool) []byte {
	var b strings.Builder
	b.WriteString(`{"asset":{"version":"2.0"},"extensionsUsed":["OMI_physics_body","OMI_physics_shape"],` +
		`"extensions":{"OMI_physics_shape":{"shapes":[{"type":"sphere","sphere":{"radius":0.5}}]}},` +
		`"scenes":[{"nodes":[0]}],"scene":0,"nodes":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		var body []string
		if motion[i] {
			body = append(body, `"motion":{"type":"dynamic"}`)
		}
		if i%100 == 0 {
			body = append(body, `"collider":{"shape":0}`)
		}
		fmt.Fprintf(&b, `{"name":"C%d"`, i)
		if i+1 < n {
			fmt.Fprintf(&b, `,"children":[%d]`, i+1)
		}
		if len(body) > 0 {
			fmt.Fprintf(&b, `,"extensions":{"OMI_physics_body":{%s}}`, strings.Join(body, ","))
		}
		b.WriteByte('}')
	}
	b.WriteString("]}")
	return []byte(b.String())
}

// TestBodyCountHierarchies: bodies counted as an engine makes them, in
// nested and deep hierarchies, in one pass. The status bar counts them
// every frame; walking each collider's parent chain made a chain of 20,000
// nodes take 600 ms a frame in the window.
func TestBodyCountHierarchies(t *testing.T) {
	nested, err := scene.Load(filepath.Join("testdata", "bodycount", "nested.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	load := func(data []byte) *scene.Document {
		d, err := scene.Decode(data, nil)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	for _, tc := range []struct {
		name string
		d    *scene.Document
		want int
	}{
		// A static compound (StaticTop), a dynamic body of three parts
		// at two depths, a static collider under a plain node, and a
		// kinematic body inside a dynamic one; the trigger is no body.
		{"nested.gltf", nested, 5},
		{"chain of 20,000, colliders only", load(chain(20000, nil)), 1},
		{"chain of 20,000, motion at 0 and 10,050", load(chain(20000, map[int]bool{0: true, 10050: true})), 2},
		{"chain of 20,000, motion at 150", load(chain(20000, map[int]bool{150: true})), 2},
	} {
		if got := BodyCount(tc.d); got != tc.want {
			t.Errorf("%s: %d bodies, want %d", tc.name, got, tc.want)
		}
		// The walk it replaces, node by node.
		want := 0
		for i, ne := range tc.d.Nodes {
			if b := ne.Body; b != nil && (b.Motion != nil || b.Collider != nil && !hasMotionAbove(tc.d, i) && !hasColliderAbove(tc.d, i)) {
				want++
			}
		}
		if want != tc.want {
			t.Errorf("%s: the parent-chain walk counts %d, the table %d", tc.name, want, tc.want)
		}
	}
	deep := load(chain(20000, nil))
	if a := testing.AllocsPerRun(3, func() { BodyCount(deep) }); a > 4 {
		t.Errorf("BodyCount of a 20,000-node chain allocates %.0f times, want at most 4 (one pass)", a)
	}
}
