package g4mf

import (
	"path/filepath"
	"slices"
	"testing"

	"physview/scene"
)

// TestBadSceneRoots: a scene listing a node the file does not have (found
// by FuzzConvert: index out of range in Encode) or one twice is written
// with the nodes it has, each once, under the added root.
func TestBadSceneRoots(t *testing.T) {
	d, err := scene.Load(filepath.Join("testdata", "bad_scene_roots.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, binary := range []bool{false, true} {
		out, _, err := Encode(d, binary)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Decode(out, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, r := range back.SceneNodes() {
			if back.Parent(r) >= 0 && back.Parent(back.Parent(r)) < 0 {
				names = append(names, back.GLTF.Nodes[r].Name)
			}
		}
		if want := []string{"A", "B"}; !slices.Equal(names, want) {
			t.Errorf("binary %v: the root's children %q, want %q", binary, names, want)
		}
	}
}
