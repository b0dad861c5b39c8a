package scene

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestNodeVisibility: a hidden node hides its subtree, an animated flag
// overrides the file's, and SetNodeVisible is undoable and saved as the
// extension block (the file's bytes again after undo).
func TestNodeVisibility(t *testing.T) {
	d := mustLoad(t, dialectFixtures+"scene_gltf21.gltf")
	// Node 12 "Hidden" (visible false) has child 13.
	cases := []struct {
		name  string
		props map[string][]float64
		want  map[int]bool
	}{
		{"file", nil, map[int]bool{12: true, 13: true, 1: false, 14: false}},
		{"animated shown", map[string][]float64{VisibilityPointer(12): {1}}, map[int]bool{12: false, 13: false}},
		{"animated hidden", map[string][]float64{VisibilityPointer(1): {0}}, map[int]bool{1: true, 12: true}},
	}
	for _, c := range cases {
		h := d.HiddenNodes(c.props)
		for n, want := range c.want {
			if h[n] != want || (c.props == nil && d.NodeHidden(n) != want) {
				t.Errorf("%s: node %d hidden %v, want %v", c.name, n, h[n], want)
			}
		}
	}
	orig, err := os.ReadFile(dialectFixtures + "scene_gltf21.gltf")
	if err != nil {
		t.Fatal(err)
	}
	var hist History
	if _, err := hist.Do(d, SetNodeVisible{Node: 12, Visible: true}); err != nil {
		t.Fatal(err)
	}
	if hist.UndoName() != "Show node 12" || d.NodeHidden(13) {
		t.Errorf("after show: undo %q, child hidden %v", hist.UndoName(), d.NodeHidden(13))
	}
	if _, err := hist.Do(d, SetNodeVisible{Node: 2, Visible: false}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out, err := d.Encode(filepath.Join(dir, "v.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	back := reload(t, out[0].Data, dir)
	if !back.NodeVisible(12) || back.NodeVisible(2) || back.Nodes[12].Visibility == nil {
		t.Errorf("saved: node 12 visible %v, node 2 visible %v", back.NodeVisible(12), back.NodeVisible(2))
	}
	hist.Undo(d)
	hist.Undo(d)
	out, err = d.Encode(filepath.Join(dir, "v.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out[0].Data, orig) {
		t.Error("after undoing both edits the save differs from the file")
	}
}
