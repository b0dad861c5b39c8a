package app

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"physview/internal/portal"
	"physview/internal/recent"
	"physview/scene"
)

func TestTitle(t *testing.T) {
	if got := New().Title(); got != "physview" {
		t.Errorf("nothing open: title %q", got)
	}
	s, _ := open(t, writeBox(t, t.TempDir(), "box.gltf"))
	steps := []struct {
		do   func()
		want string
	}{
		{func() {}, "box.gltf - physview"},
		{func() { s.Do(ApplyEdit{Edit: scene.SetNodeName{Node: 0, To: "Crate"}}) }, "*box.gltf - physview"},
		{func() { s.Do(Undo{}) }, "box.gltf - physview"},
		{func() { s.Do(Redo{}) }, "*box.gltf - physview"},
		{func() { s.Do(Save{}) }, "box.gltf - physview"},
	}
	for i, st := range steps {
		st.do()
		if got := s.Title(); got != st.want {
			t.Errorf("step %d: title %q, want %q", i, got, st.want)
		}
	}
}

func TestChooserFilters(t *testing.T) {
	fs := ChooserFilters()
	exts := scene.Extensions()
	if len(exts) < 4 || len(fs) != 1+len(exts) {
		t.Fatalf("%d filters for the extensions %v, want one for all and one each", len(fs), exts)
	}
	var want []string
	for _, e := range exts {
		want = append(want, "*"+e)
	}
	if !slices.Equal(fs[0].Patterns, want) || !strings.HasSuffix(fs[0].Name, " scenes") {
		t.Errorf("first filter %+v, want every pattern %v", fs[0], want)
	}
	for _, f := range scene.Formats() {
		if !strings.Contains(fs[0].Name, f.Name) {
			t.Errorf("first filter %q does not name %s", fs[0].Name, f.Name)
		}
	}
	// Every ending once among the rest, in its own filter.
	seen := map[string]int{}
	for _, f := range fs[1:] {
		if len(f.Patterns) != 1 || strings.ToLower(f.Name) != strings.TrimPrefix(f.Patterns[0], "*.")+" files" {
			t.Errorf("filter %+v: want one pattern, named after it", f)
		}
		seen[f.Patterns[0]]++
	}
	for _, p := range want {
		if seen[p] != 1 {
			t.Errorf("%s is in %d of the per-ending filters, want 1", p, seen[p])
		}
	}
	if fs[2].Name != "GLB files" || fs[2].Patterns[0] != "*.glb" {
		t.Errorf("second ending's filter %+v, want GLB files *.glb", fs[2])
	}
}

func TestChooserRequest(t *testing.T) {
	cwd, _ := os.Getwd()
	dir := t.TempDir()
	box := writeBox(t, dir, "box.gltf")
	older, newer := filepath.Join("/r", "old", "y.glb"), filepath.Join("/r", "new", "x.xode")
	recents := &recent.List{Entries: []recent.Entry{{Path: newer}, {Path: older}}}
	cases := []struct {
		name     string
		doc      string // "": nothing open, "demo", or the box
		recent   *recent.List
		save     bool
		wantDir  string
		wantName string
	}{
		{"open, nothing open, no recent files", "", nil, false, cwd, ""},
		{"open, nothing open, recent files", "", recents, false, filepath.Dir(newer), ""},
		{"open, a file open, recent files", "box", recents, false, dir, ""},
		{"open, the demo open, recent files", "demo", recents, false, cwd, ""},
		{"save, nothing open", "", recents, true, cwd, "scene.glb"},
		{"save, the demo open", "demo", nil, true, cwd, "scene.glb"},
		{"save, a file open", "box", recents, true, dir, "box.gltf"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := New()
			switch c.doc {
			case "box":
				s, _ = open(t, box)
			case "demo":
				s.OpenDemo()
			}
			if c.recent != nil {
				l := *c.recent
				l.Entries = slices.Clone(l.Entries)
				s.Recent = &l
			}
			r := s.ChooserRequest(c.save)
			title := map[bool]string{false: "Open a scene", true: "Save the scene as"}[c.save]
			if r.Save != c.save || r.Title != title || r.Folder != c.wantDir || r.Name != c.wantName || len(r.Filters) != len(ChooserFilters()) {
				t.Errorf("request %q %q in %q (save %v, %d filters), want %q %q in %q", r.Title, r.Name, r.Folder, r.Save, len(r.Filters), title, c.wantName, c.wantDir)
			}
			if want := map[bool]string{false: "", true: filepath.Join(c.wantDir, c.wantName)}[c.wantName != ""]; r.Path() != want {
				t.Errorf("Path() = %q, want %q", r.Path(), want)
			}
		})
	}
}

// TestChooserAnswered hands the desktop dialog's answers to a session:
// for Save as, one whose unsaved demo is to be saved before other.gltf
// opens; for Open, one with the demo unchanged.
func TestChooserAnswered(t *testing.T) {
	dir := t.TempDir()
	other := writeBox(t, dir, "other.gltf")
	target := filepath.Join(dir, "demo.glb")
	failed := errors.New("portal: SaveFile: the file chooser failed (response 2)")
	const demo = "demo scene (built in)"
	cases := []struct {
		name        string
		answer      portal.Answer
		wantChooser ChooserKind // asked for again
		wantWaiting bool        // the open still waits for the save
		wantName    string      // open once the loads are done
		wantSaved   bool
	}{
		{"save chosen", portal.Answer{Save: true, Path: target}, ChooseNone, false, "other.gltf", true},
		{"save cancelled", portal.Answer{Save: true, Err: fmt.Errorf("wrapped: %w", portal.ErrCancelled)}, ChooseNone, false, demo, false},
		{"save failed", portal.Answer{Save: true, Err: failed}, ChooseSave, true, demo, false},
		{"open chosen", portal.Answer{Path: other}, ChooseNone, false, "other.gltf", false},
		{"open cancelled", portal.Answer{Err: portal.ErrCancelled}, ChooseNone, false, demo, false},
		{"open failed", portal.Answer{Err: failed}, ChooseOpen, false, demo, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			os.Remove(target)
			s := New()
			t.Cleanup(s.Close)
			s.OpenDemo()
			want := ChooseOpen
			if c.answer.Save {
				s.Do(ApplyEdit{Edit: scene.SetNodeName{Node: 0, To: "Edited"}})
				s.Do(OpenFile{Path: other})
				s.Do(AnswerPrompt{Choice: AnswerSave})
				want = ChooseSave
			} else {
				s.Do(OpenDialog{})
			}
			if k := s.TakeChooser(); k != want || s.AwaitingSaveAs() != c.answer.Save {
				t.Fatalf("before the answer: chooser %v, awaiting %v", k, s.AwaitingSaveAs())
			}
			s.ChooserAnswered(c.answer)
			if k := s.TakeChooser(); k != c.wantChooser {
				t.Errorf("chooser asked for %v, want %v", k, c.wantChooser)
			}
			if s.AwaitingSaveAs() != c.wantWaiting {
				t.Errorf("awaiting save as = %v, want %v", s.AwaitingSaveAs(), c.wantWaiting)
			}
			if err := s.WaitLoad(); err != nil || s.Name != c.wantName {
				t.Errorf("open: %q (%v), want %q", s.Name, err, c.wantName)
			}
			if _, err := os.Stat(target); (err == nil) != c.wantSaved {
				t.Errorf("%s written: %v, want %v", target, err == nil, c.wantSaved)
			}
		})
	}
}
