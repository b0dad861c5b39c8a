package app

import (
	"os"
	"path/filepath"
	"testing"

	"physview/scene"
)

// copyDiffFixture copies scene/diff's base.gltf (and its texture) to a
// folder twice: a.gltf and b.gltf.
func copyDiffFixture(t *testing.T) (a, b string) {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join("..", "..", "scene", "diff", "testdata")
	for _, f := range [][2]string{{"base.gltf", "a.gltf"}, {"base.gltf", "b.gltf"}, {"paint.png", "paint.png"}} {
		data, err := os.ReadFile(filepath.Join(src, f[0]))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f[1]), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "a.gltf"), filepath.Join(dir, "b.gltf")
}

// TestCompareWorkflow is the Diff tab without a window: open A, pick B in
// the chooser (File > Open for compare...), read the changes, click one
// (the node is selected), edit A so that it matches B (the report follows:
// equal), switch the view to B and close the compare.
func TestCompareWorkflow(t *testing.T) {
	a, b := copyDiffFixture(t)
	d, err := scene.Load(b)
	if err != nil {
		t.Fatal(err)
	}
	m := *d.Nodes[1].Body.Motion
	m.Mass = 5
	scene.Apply(d, d.SetMotionEdit(1, &m, ""))
	if err := d.Save(b); err != nil {
		t.Fatal(err)
	}

	s, _ := open(t, a)
	s.Do(OpenCompareDialog{})
	if k := s.TakeChooser(); k != ChooseOpen {
		t.Fatalf("Open for compare asks for chooser %v", k)
	}
	s.Do(FileChosen{Path: b})
	if s.Doc.Path != a || s.Compare.Path != b {
		t.Fatalf("the chooser's answer opened %q, compared %q", s.Doc.Path, s.Compare.Path)
	}
	r := s.CompareReport()
	if len(r.Changes) != 1 || r.Changes[0].Summary != "mass 2 → 5 kg" || r.Changes[0].NodeA != 1 {
		t.Fatalf("changes %+v", r.Changes)
	}
	if !s.ChangedNodes()[1] || len(s.ChangedNodes()) != 1 {
		t.Errorf("changed nodes %v, want the crate (1)", s.ChangedNodes())
	}
	if n := len(s.CompareLines()); n != 12 {
		t.Errorf("%d lines on top, want the crate's box (12)", n)
	}
	s.Do(SelectChange{Index: 0})
	if s.Selected != 1 || s.Compare.Selected != 0 {
		t.Errorf("selected node %d, change %d", s.Selected, s.Compare.Selected)
	}
	if _, _, ok := s.ChangeFocus(); ok {
		t.Error("the crate has a mesh: the view frames the selection, not ChangeFocus")
	}
	s.Do(SetCompareShow{Show: ShowBoth})
	if n := len(s.CompareLines()); n != 12+2*36+2*12 {
		t.Errorf("%d lines with B as a ghost, want the box, two cubes' 12 triangles × 3 edges and two box colliders' 12 edges (%d)", n, 12+2*36+2*12)
	}
	s.Do(ApplyEdit{Edit: s.Doc.SetMotionEdit(1, &m, "")})
	if r := s.CompareReport(); !r.Equal {
		t.Errorf("after the same edit in A: %+v", r.Changes)
	}
	s.Do(SetCompareShow{Show: 7}) // out of range: ignored
	s.Do(OpenCompareDialog{})
	s.Do(OpenDialog{}) // the user opens a file instead
	s.TakeChooser()
	other := filepath.Join(filepath.Dir(a), "b.gltf")
	s.Do(FileChosen{Path: other})
	if err := s.WaitLoad(); err != nil {
		t.Fatal(err)
	}
	if s.Doc.Path != other || s.Compare.Path != b {
		t.Fatalf("Open after Open for compare: opened %q, compared %q", s.Doc.Path, s.Compare.Path)
	}
	s.Do(SetCompareShow{Show: ShowB})
	if s.CompareDoc() == nil || s.CompareLines() != nil {
		t.Error("ShowB does not give B to draw")
	}
	s.Do(CloseCompare{})
	if s.Compare.Doc != nil || s.CompareDoc() != nil {
		t.Error("the compare is still open")
	}
	s.Do(CompareWith{Path: filepath.Join(t.TempDir(), "none.glb")})
	if m, _, ok := s.Message(); !ok || !m.Error {
		t.Errorf("a missing file: message %+v", m)
	}
}
