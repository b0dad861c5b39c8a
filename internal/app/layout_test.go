package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"physview/internal/recent"
	"physview/scene"
)

// TestPanelFor: the default panel takes at most 45% of a narrow window,
// a dragged width is kept within the limits, and both the panel and the 3D
// view stay usable.
func TestPanelFor(t *testing.T) {
	for _, tc := range []struct {
		dragged, window, want float32
	}{
		{0, 1280, DefaultPanelWidth},
		{0, 700, 315}, // a 700 px window: the view keeps 385 px, not 220
		{0, 450, 260}, // the panel's least
		{300, 1280, 300},
		{1200, 1280, 1280 - MinViewWidth}, // dragged too far left: the view keeps its least
		{100, 1280, MinPanelWidth},        // too far right: the panel keeps its least
	} {
		if got := (ViewOptions{PanelWidth: tc.dragged}).PanelFor(tc.window); got != tc.want {
			t.Errorf("dragged %v in a %v px window: panel %v px, want %v", tc.dragged, tc.window, got, tc.want)
		}
	}
}

// TestResizePanelRemembered: a splitter drag sets the panel's width (kept
// within the limits), and its end keeps the width and the window's size in
// the recent-files list, which the next start reads back.
func TestResizePanelRemembered(t *testing.T) {
	path := filepath.Join(t.TempDir(), "recent.json")
	s := New()
	s.Recent, _ = recent.Load(path)
	s.Do(ResizePanel{Width: 350, WindowWidth: 1000, WindowHeight: 600})
	if got := s.View.PanelFor(1000); got != 350 {
		t.Fatalf("after the drag the panel is %v px, want 350", got)
	}
	if s.Recent.Window != nil {
		t.Error("remembered before the drag ended")
	}
	s.Do(ResizePanel{Width: 2000, WindowWidth: 1000, WindowHeight: 600, Done: true})
	if got := s.View.PanelFor(1000); got != 1000-MinViewWidth {
		t.Errorf("dragged past the view's least: panel %v px, want %v", got, 1000-MinViewWidth)
	}
	next := New()
	var err error
	if next.Recent, err = recent.Load(path); err != nil {
		t.Fatal(err)
	}
	w, h, ok := next.RememberedWindow()
	if !ok || w != 1000 || h != 600 || next.View.PanelFor(1000) != 1000-MinViewWidth {
		t.Errorf("the next start: %dx%d (%v), panel %v; want 1000x600 and %v", w, h, ok, next.View.PanelFor(1000), 1000-MinViewWidth)
	}
}

// TestProbeOffWithNewFile: the gravity probe is the open scene's; opening
// another file (or the demo) turns it off.
func TestProbeOffWithNewFile(t *testing.T) {
	s := New()
	s.OpenDemo()
	s.View.Probe = true
	p := filepath.Join("..", "..", "internal", "concave", "testdata", "torus.gltf")
	if err := s.LoadNow(p); err != nil {
		t.Fatal(err)
	}
	if s.View.Probe {
		t.Error("the probe stayed on in a new file")
	}
}

// TestOpenTextFile: a .txt gets one friendly message, whether dropped or
// chosen, before any question about unsaved changes, and the open
// document stays; a glTF saved without an ending still opens.
func TestOpenTextFile(t *testing.T) {
	dir := t.TempDir()
	txt := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(txt, []byte("shopping list\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := New()
	s.OpenDemo()
	s.Edit(scene.SetNodeName{Node: 0, To: "changed"})
	if !s.Modified() {
		t.Fatal("the rename did not modify the demo")
	}
	s.Do(OpenFile{Path: txt})
	if s.Prompt() != nil {
		t.Errorf("a .txt asked about unsaved changes: %+v", s.Prompt())
	}
	if msg, _, _ := s.Message(); !msg.Error || !strings.Contains(msg.Text, "notes.txt: not a file the viewer opens") {
		t.Errorf("message %+v", msg)
	}
	if s.Doc == nil || s.Doc.Path != "" {
		t.Error("the demo did not stay open")
	}
	src, err := os.ReadFile(filepath.Join("..", "..", "internal", "concave", "testdata", "torus.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(dir, "model")
	if err := os.WriteFile(bare, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if looksLikeModel(txt) || !looksLikeModel(bare) {
		t.Errorf("looksLikeModel: notes.txt %v, a glTF without an ending %v", looksLikeModel(txt), looksLikeModel(bare))
	}
}

// TestFitSaysWhatItMade: a fit on a child node says so; the next fit, on
// the node itself, replaces that note with its own (it stayed and spoke of
// the child node).
func TestFitSaysWhatItMade(t *testing.T) {
	s := New()
	if err := s.LoadNow(filepath.Join("..", "..", "internal", "concave", "testdata", "torus.gltf")); err != nil {
		t.Fatal(err)
	}
	n, err := FindNode(s.Doc, "torus")
	if err != nil {
		t.Fatal(err)
	}
	e, err := s.Doc.FitConvexEdit(n, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	s.Do(Select{Node: n})
	s.Do(ApplyEdit{Edit: e})
	if msg, _, _ := s.Message(); !strings.HasPrefix(msg.Text, "Fit convex collider to mesh (") {
		t.Errorf("after fit convex the message line says %q", msg.Text)
	}
	s.Edit(scene.SetNodeName{Node: n, To: "ring"})
	if msg, _, ok := s.Message(); ok {
		t.Errorf("after a rename the fit's note stays: %q", msg.Text)
	}
}
