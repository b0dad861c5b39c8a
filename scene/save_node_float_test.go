package scene

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestSaveEditsNodeWrittenOddly: an edit to a node that qmuntal/gltf's
// typed decoder cannot read as written (an index written 1.0, which glTF
// allows) is saved, not silently dropped: the renamed, moved node comes
// back renamed and moved, and the other bytes stay.
func TestSaveEditsNodeWrittenOddly(t *testing.T) {
	const text = `{
  "asset": {"version": "2.0"},
  "scene": 0,
  "scenes": [{"nodes": [0]}],
  "nodes": [
    {"name": "parent", "children": [1.0]},
    {"name": "child", "translation": [1, 2, 3]}
  ]
}
`
	tests := []struct {
		name  string
		edit  Edit
		check func(d *Document) string
	}{
		{"rename the node with children 1.0", SetNodeName{Node: 0, To: "renamed"},
			func(d *Document) string { return d.GLTF.Nodes[0].Name }},
		{"move the node with children 1.0", SetNodeTransform{Node: 0, Transform: Transform{Translation: [3]float64{4, 5, 6}, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}}},
			func(d *Document) string { t := d.GLTF.Nodes[0].Translation; return ftoa3(t) }},
	}
	want := []string{"renamed", "4 5 6"}
	for k, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "odd.gltf")
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			d, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			var h History
			if _, err := h.Do(d, tc.edit); err != nil {
				t.Fatal(err)
			}
			if err := d.Save(path); err != nil {
				t.Fatal(err)
			}
			back, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := tc.check(back); got != want[k] {
				saved, _ := os.ReadFile(path)
				t.Errorf("after the save, node 0 has %q, want %q; the file:\n%s", got, want[k], saved)
			}
			if back.GLTF.Nodes[1].Name != "child" || len(back.GLTF.Nodes[0].Children) != 1 {
				t.Errorf("the save lost the child: %+v", back.GLTF.Nodes)
			}
		})
	}
}

func ftoa3(v [3]float64) string { return fmt.Sprintf("%g %g %g", v[0], v[1], v[2]) }
