package app

import (
	"testing"
)

// TestMakeSingleUndo: Make single gives the node its own copy of a shared
// shape as one undoable step named after the node; a handle drag on a
// shared shape says which other nodes it resizes, and on the node's own
// copy says nothing.
func TestMakeSingleUndo(t *testing.T) {
	s, _ := open(t, "../../cmd/viewer/testdata/shared/omi.gltf")
	const green = 2
	if got, want := SharedShapeNote(s.Doc, green, 1, "hint"), "shape 1 is shared by 3 nodes: edits change all of them (also red, blue); hint"; got != want {
		t.Errorf("note %q, want %q", got, want)
	}
	s.Select(green)
	if !s.BeginDrag(0) {
		t.Fatal("no handle to drag")
	}
	s.EndDrag()
	if m, _, _ := s.Message(); m.Text != "shape 1 is shared by 3 nodes: edits change all of them (also red, blue); Inspector > Make single gives this node a copy of its own" {
		t.Errorf("drag message %q", m.Text)
	}
	if err := s.Apply(MakeSingleEdit(s.Doc, green, false)); err != nil {
		t.Fatal(err)
	}
	if got := s.Hist.UndoName(); got != "Make shape single for green" {
		t.Errorf("undo name %q", got)
	}
	if n, sh := len(s.Doc.Shapes), s.Doc.Nodes[green].Body.Collider.Shape; n != 3 || sh != 2 || s.Doc.Shapes[2].Radius != s.Doc.Shapes[1].Radius {
		t.Errorf("after Make single: %d shapes, green uses %d; want 3 and 2, a copy of shape 1", n, sh)
	}
	if users := s.Doc.ShapeUsers(1); len(users) != 2 {
		t.Errorf("shape 1 users %v, want red and blue", users)
	}
	s.Notice("")
	if !s.BeginDrag(0) {
		t.Fatal("no handle to drag")
	}
	s.EndDrag()
	if m, _, ok := s.Message(); ok {
		t.Errorf("a drag on the node's own shape said %q", m.Text)
	}
	s.Do(Undo{})
	if n, sh := len(s.Doc.Shapes), s.Doc.Nodes[green].Body.Collider.Shape; n != 2 || sh != 1 {
		t.Errorf("after undo: %d shapes, green uses %d; want 2 and 1", n, sh)
	}
}
