package scene

import (
	"bytes"
	"path/filepath"
	"testing"
)

// TestCommitNodeTransforms: the listed node's transform is written, the
// document it was cloned from and every other node are not touched.
func TestCommitNodeTransforms(t *testing.T) {
	d, err := Load(filepath.Join("testdata", "current.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	before, err := d.Encode(filepath.Join(t.TempDir(), "a.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	c := d.Clone()
	c.GLTF.Nodes[2].Translation = [3]float64{1.5, -2, 0.25}
	c.GLTF.Nodes[2].Rotation = [4]float64{0, 0.6, 0, 0.8}
	c.GLTF.Nodes[0].Translation = [3]float64{9, 9, 9} // changed but not committed
	if err := c.CommitNodeTransforms([]int{2}); err != nil {
		t.Fatal(err)
	}
	files, err := c.Encode(filepath.Join(t.TempDir(), "b.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(files[0].Data, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := back.GLTF.Nodes[2]
	if n.Translation != [3]float64{1.5, -2, 0.25} || n.Rotation != [4]float64{0, 0.6, 0, 0.8} || n.Scale != [3]float64{1, 1, 1} {
		t.Errorf("node 2 saved as %v %v %v", n.Translation, n.Rotation, n.Scale)
	}
	if back.GLTF.Nodes[0].Translation != [3]float64{} {
		t.Errorf("node 0 was not committed but saved at %v", back.GLTF.Nodes[0].Translation)
	}
	again, err := d.Encode(filepath.Join(t.TempDir(), "a.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before[0].Data, again[0].Data) {
		t.Error("committing on the clone changed what the original saves")
	}
	if err := c.CommitNodeTransforms([]int{99}); err == nil {
		t.Error("a node that does not exist gave no error")
	}
}
