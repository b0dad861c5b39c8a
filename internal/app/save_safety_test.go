package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"physview/scene"
)

// openBox writes a red box .gltf and its .bin to a new folder and opens it
// in a new session, renamed "Crate" (one unsaved edit).
func openBox(t *testing.T) (*Session, string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "box.gltf")
	text, bin := boxGLTF([4]float64{0.9, 0.1, 0.1, 1}, "box.bin")
	os.WriteFile(path, text, 0o644)
	os.WriteFile(filepath.Join(dir, "box.bin"), bin, 0o644)
	s := New()
	s.Open(path)
	if err := s.WaitLoad(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	if err := s.RunCommand([]string{"rename", "0", "Crate"}); err != nil {
		t.Fatal(err)
	}
	if !s.Modified() {
		t.Fatal("the rename left the document unmodified")
	}
	return s, path
}

// TestSaveChangedOnDisk: issue 31. Another program rewrites the open file
// (or its .bin) after it was read; the user's Save asks Overwrite / Save as
// / Reload and lose mine / Cancel instead of writing over that change, and
// each answer does what it says. A file only touched (same bytes) is not a
// change.
func TestSaveChangedOnDisk(t *testing.T) {
	theirs := []byte(`{"asset":{"version":"2.0"},"nodes":[{"name":"TheirNode"}],"scenes":[{"nodes":[0]}],"scene":0}`)
	for _, tc := range []struct {
		answer int
		// want: the file's content afterwards contains it; chooser: the
		// Save as chooser is asked for.
		want     string
		chooser  bool
		modified bool
	}{
		{AnswerKeepEditing, "TheirNode", false, true},
		{AnswerOverwrite, "Crate", false, false},
		{AnswerSaveElsewhere, "TheirNode", true, true},
		{AnswerReloadLoseMine, "TheirNode", false, false},
	} {
		t.Run(promptChoice(tc.answer), func(t *testing.T) {
			s, path := openBox(t)
			os.WriteFile(path, theirs, 0o644)
			if s.Save() {
				t.Fatal("Save wrote over a change on disk")
			}
			p := s.Prompt()
			if p == nil || p.Title != "Changed on disk" || strings.Join(p.Choices, "|") != "Overwrite|Save as...|Reload and lose mine|Cancel" {
				t.Fatalf("prompt %+v", p)
			}
			if !strings.Contains(p.Text, "box.gltf was changed on disk by another program") {
				t.Errorf("prompt text %q", p.Text)
			}
			if got, _ := os.ReadFile(path); !bytes.Equal(got, theirs) {
				t.Fatal("the other program's change was overwritten before the answer")
			}
			if s.TakeChooser() != ChooseNone {
				t.Error("a chooser under the prompt")
			}
			s.Answer(tc.answer)
			if err := s.WaitLoad(); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(path)
			if !strings.Contains(string(got), tc.want) {
				t.Errorf("the file holds %.80q, want %q in it", got, tc.want)
			}
			if c := s.TakeChooser(); (c == ChooseSave) != tc.chooser {
				t.Errorf("chooser %v, want Save as: %v", c, tc.chooser)
			}
			if s.Modified() != tc.modified {
				t.Errorf("modified %v, want %v", s.Modified(), tc.modified)
			}
			if s.Prompt() != nil {
				t.Errorf("a prompt after the answer: %+v", s.Prompt())
			}
		})
	}

	t.Run("bin changed", func(t *testing.T) {
		s, path := openBox(t)
		bin := filepath.Join(filepath.Dir(path), "box.bin")
		b, _ := os.ReadFile(bin)
		b[0] ^= 1
		os.WriteFile(bin, b, 0o644)
		if s.Save() || s.Prompt() == nil || !strings.Contains(s.Prompt().Text, "(box.bin)") {
			t.Errorf("a changed .bin: saved anyway or no prompt naming it: %+v", s.Prompt())
		}
	})
	t.Run("touched only", func(t *testing.T) {
		s, path := openBox(t)
		b, _ := os.ReadFile(path)
		os.WriteFile(path, b, 0o644)
		if !s.Save() || s.Prompt() != nil {
			t.Errorf("the same bytes written again counted as a change: %+v", s.Prompt())
		}
		// Saved: the next save compares with what it wrote.
		s.RunCommand([]string{"rename", "0", "Again"})
		if !s.Save() {
			t.Error("a second save in place asks although nothing changed on disk")
		}
	})
	t.Run("after the unsaved prompt", func(t *testing.T) {
		// Opening another file with unsaved edits, Save, Overwrite: the
		// edit is saved and the other file opens.
		s, path := openBox(t)
		other := filepath.Join(filepath.Dir(path), "other.gltf")
		os.WriteFile(other, theirs, 0o644)
		os.WriteFile(path, theirs, 0o644)
		s.Open(other)
		s.Answer(AnswerSave)
		if p := s.Prompt(); p == nil || p.Title != "Changed on disk" {
			t.Fatalf("prompt %+v", p)
		}
		s.Answer(AnswerOverwrite)
		if err := s.WaitLoad(); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); !bytes.Contains(got, []byte("Crate")) || s.Name != "other.gltf" {
			t.Errorf("after Overwrite: box.gltf has the edit %v, open is %s", bytes.Contains(got, []byte("Crate")), s.Name)
		}
	})
}

// TestSaveReadOnlyAsks: issue 31. A read-only file (and a file in a
// read-only folder) is not overwritten: the error names the file, and the
// prompt offers Save as, which asks for the chooser.
func TestSaveReadOnlyAsks(t *testing.T) {
	for _, tc := range []struct {
		name string
		lock func(path string)
		want string
	}{
		{"file", func(p string) { os.Chmod(p, 0o444) }, "box.gltf: the file is read-only"},
		{"folder", func(p string) { os.Chmod(filepath.Dir(p), 0o555) }, "is not writable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, path := openBox(t)
			before, _ := os.ReadFile(path)
			tc.lock(path)
			t.Cleanup(func() { os.Chmod(filepath.Dir(path), 0o755) })
			if s.Save() {
				t.Fatal("saved over a read-only file")
			}
			if got, _ := os.ReadFile(path); !bytes.Equal(got, before) {
				t.Error("the read-only file changed")
			}
			p := s.Prompt()
			if p == nil || p.Title != "Cannot save" || strings.Join(p.Choices, "|") != "Save as...|Cancel" || !strings.Contains(strings.ReplaceAll(p.Text, "\n", " "), tc.want) {
				t.Fatalf("prompt %+v, want Cannot save with %q", p, tc.want)
			}
			if m, _, _ := s.Message(); !m.Error || strings.Contains(m.Text, ".tmp") {
				t.Errorf("message %+v", m)
			}
			s.Answer(0)
			if s.TakeChooser() != ChooseSave {
				t.Error("Save as did not ask for the chooser")
			}
		})
	}
}

// TestEditFileRefusals: `viewer edit` on a read-only file fails with an
// error naming it and writes nothing.
func TestEditFileRefusals(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "box.gltf")
	text, bin := boxGLTF([4]float64{0.9, 0.1, 0.1, 1}, "box.bin")
	os.WriteFile(path, text, 0o444)
	os.WriteFile(filepath.Join(dir, "box.bin"), bin, 0o644)
	_, err := EditFile(path, "", [][]string{{"rename", "0", "Crate"}}, func([]string, string, string) {})
	if !errors.Is(err, scene.ErrReadOnly) || !strings.Contains(err.Error(), path+": the file is read-only") {
		t.Errorf("edit of a read-only file: %v", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, text) {
		t.Error("the read-only file changed")
	}
}

// promptChoice names an answer of the changed-on-disk prompt.
func promptChoice(i int) string {
	return []string{"Overwrite", "Save as", "Reload and lose mine", "Cancel"}[i]
}

// TestOpenFinishesInterruptedSave: a save of box.gltf and box.bin was
// killed among its renames (its journal and the new .gltf's temporary file
// are left, the new .bin is in place): opening the file first finishes it,
// so the window shows the new pair, and removes the temporary files dead
// saves left beside the file and its .bin.
func TestOpenFinishesInterruptedSave(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "box.gltf")
	text, bin := boxGLTF([4]float64{0.9, 0.1, 0.1, 1}, "box.bin")
	os.WriteFile(path, text, 0o644)
	newText := bytes.Replace(text, []byte(`"Box"`), []byte(`"NewBox"`), 1)
	newBin := append(bytes.Clone(bin), bin...)
	newText = bytes.Replace(newText, []byte(fmt.Sprintf(`"byteLength": %d`, len(bin))), []byte(fmt.Sprintf(`"byteLength": %d`, len(newBin))), 1)
	os.WriteFile(filepath.Join(dir, "box.bin"), newBin, 0o644) // renamed already
	tmp := filepath.Join(dir, ".box.gltf.123.tmp")
	os.WriteFile(tmp, newText, 0o644)
	journal, _ := json.Marshal(map[string]any{"renames": [][2]string{
		{filepath.Join(dir, ".box.bin.456.tmp"), filepath.Join(dir, "box.bin")},
		{tmp, path},
	}})
	os.WriteFile(filepath.Join(dir, ".box.gltf.journal"), journal, 0o644)
	old := time.Now().Add(-time.Minute)
	for _, stale := range []string{".box.bin.789.tmp", ".box.gltf.42.tmp"} {
		os.WriteFile(filepath.Join(dir, stale), []byte("partial"), 0o644)
		os.Chtimes(filepath.Join(dir, stale), old, old)
	}
	var log []string
	s := New()
	s.Log = func(l string) { log = append(log, l) }
	s.Open(path)
	if err := s.WaitLoad(); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if name := s.Doc.NodeName(0); name != "NewBox" {
		t.Errorf("node 0 is %q, want the interrupted save's NewBox", name)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "box.bin box.gltf" {
		t.Errorf("the folder holds %v, want box.bin box.gltf", names)
	}
	if !slices.ContainsFunc(log, func(l string) bool { return l == "finished an interrupted save of box.gltf: box.gltf" }) {
		t.Errorf("log %q", log)
	}
}

// TestSaveToChangedOnDisk: `viewer edit`'s save (SaveTo) refuses to write
// over a change made since the file was read, naming it, and writes
// nothing; after another read it saves.
func TestSaveToChangedOnDisk(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "box.gltf")
	text, bin := boxGLTF([4]float64{0.9, 0.1, 0.1, 1}, "box.bin")
	os.WriteFile(path, text, 0o644)
	os.WriteFile(filepath.Join(dir, "box.bin"), bin, 0o644)
	s := New()
	if err := s.LoadNow(path); err != nil {
		t.Fatal(err)
	}
	s.RunCommand([]string{"rename", "0", "Crate"})
	theirs := append(bytes.Clone(text), '\n')
	os.WriteFile(path, theirs, 0o644)
	_, err := s.SaveTo(path)
	var changed *ChangedOnDiskError
	if !errors.As(err, &changed) || err.Error() != path+" changed on disk since it was read (box.gltf written by another program): nothing was saved, so as not to lose that change" {
		t.Errorf("SaveTo over a change: %v", err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, theirs) {
		t.Error("the change was overwritten")
	}
	// Saving elsewhere is no overwrite.
	if _, err := s.SaveTo(filepath.Join(dir, "copy.gltf")); err != nil {
		t.Errorf("SaveTo another file: %v", err)
	}
}
