package app

import (
	"testing"

	"physview/scene"
)

// TestCompoundPreviewApplyUndo: a preview runs in the background and
// changes nothing; Apply adds the parts as one step, which undo removes;
// Cancel drops a preview; Apply without a preview is refused.
func TestCompoundPreviewApplyUndo(t *testing.T) {
	s, _ := open(t, "../concave/testdata/u.glb")
	s.Do(ApplyCompound{})
	if m, _, ok := s.Message(); !ok || !m.Error || s.Hist.Len() != 0 {
		t.Errorf("apply without a preview: message %+v, %d steps", m, s.Hist.Len())
	}
	o := scene.CompoundOptions{MaxHulls: 8, MaxVertices: 32}
	s.Do(PreviewCompound{Node: 1, Options: o})
	if !s.Compound.Running || s.Hist.Len() != 0 {
		t.Fatalf("preview: running %v, %d steps", s.Compound.Running, s.Hist.Len())
	}
	s.WaitCompound()
	n, hulls := s.PreviewHulls()
	if n != 1 || len(hulls) < 3 || len(hulls) > 8 || s.Compound.Err != "" {
		t.Fatalf("preview of node %d: %d hulls, error %q", n, len(hulls), s.Compound.Err)
	}
	if len(s.Doc.GLTF.Nodes) != 2 || s.Modified() {
		t.Fatal("the preview changed the document")
	}
	s.Do(ApplyCompound{})
	if got := len(s.Doc.CompoundParts(1)); got != len(hulls) || s.Hist.Len() != 1 || s.Selected != 1 {
		t.Fatalf("applied: %d parts of %d hulls, %d steps, node %d selected", got, len(hulls), s.Hist.Len(), s.Selected)
	}
	if _, h := s.PreviewHulls(); h != nil {
		t.Error("the preview is still shown after Apply")
	}
	s.Do(Undo{})
	if len(s.Doc.GLTF.Nodes) != 2 || len(s.Doc.GLTF.Meshes) != 1 || s.Modified() {
		t.Errorf("undo: %d nodes, %d meshes, modified %v", len(s.Doc.GLTF.Nodes), len(s.Doc.GLTF.Meshes), s.Modified())
	}
	// A preview cancelled while it runs never shows.
	s.Do(PreviewCompound{Node: 1, Options: o})
	s.Do(CancelCompound{})
	s.WaitCompound()
	s.Poll()
	if _, h := s.PreviewHulls(); h != nil || s.Compound.Running {
		t.Error("a cancelled preview shows")
	}
	// A node without a mesh: the error shows, nothing runs.
	s.Do(PreviewCompound{Node: 0, Options: o})
	if s.Compound.Running || s.Compound.Err == "" {
		t.Errorf("ground: running %v, error %q", s.Compound.Running, s.Compound.Err)
	}
}
