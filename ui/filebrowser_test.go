package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestFileBrowser(t *testing.T) {
	dir := t.TempDir()
	for name, size := range map[string]int{"b.glb": 2048, "A.gltf": 10, "c.xode": 5, "d.g4tf": 7, "notes.txt": 3, ".hidden.glb": 1} {
		if err := os.WriteFile(filepath.Join(dir, name), make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "sub", "inner.glb"), nil, 0o644)
	when := time.Date(2025, 3, 4, 5, 6, 0, 0, time.Local)
	os.Chtimes(filepath.Join(dir, "b.glb"), when, when)

	var b FileBrowser
	b.Show(false, dir, "")
	names := func() string {
		var s []string
		for _, e := range b.Entries {
			s = append(s, e.Name)
		}
		return strings.Join(s, " ")
	}
	cases := []struct {
		filter int
		want   string
	}{
		{0, ".. sub A.gltf b.glb c.xode d.g4tf"},
		{2, ".. sub b.glb"},
		{len(FilterNames()) - 1, ".. sub A.gltf b.glb c.xode d.g4tf notes.txt"},
	}
	for _, c := range cases {
		b.Filter = c.filter
		b.List()
		if got := names(); got != c.want {
			t.Errorf("filter %q: %s, want %s", FilterNames()[c.filter], got, c.want)
		}
	}
	b.Filter = 0
	b.List()
	if e := b.Entries[3]; e.Size != 2048 || !e.Modified.Equal(when) || HumanSize(e.Size) != "2.0 kB" {
		t.Errorf("b.glb entry %+v (%s)", e, HumanSize(e.Size))
	}

	// Keyboard: Down to "sub", Enter enters it, Down to inner.glb, Enter chooses it.
	b.Move(1)
	if b.Path != filepath.Join(dir, "sub") {
		t.Fatalf("path after Down = %q", b.Path)
	}
	if _, ok := b.Submit(); ok || b.Dir != filepath.Join(dir, "sub") {
		t.Fatalf("Enter on a folder: dir %q", b.Dir)
	}
	b.Move(1)
	if p, ok := b.Submit(); !ok || p != filepath.Join(dir, "sub", "inner.glb") || b.Visible {
		t.Fatalf("Enter on a file: %q %v visible %v", p, ok, b.Visible)
	}
	// Parent keeps the cursor on the folder we came from.
	b.Up()
	if b.Dir != dir || b.Entries[b.Cursor].Name != "sub" || b.Path != filepath.Join(dir, "sub") {
		t.Errorf("Up: dir %q cursor on %q", b.Dir, b.Entries[b.Cursor].Name)
	}
	// Typed paths: relative, missing, and in save mode a new name.
	b.Path = "A.gltf"
	if p, ok := b.Submit(); !ok || p != filepath.Join(dir, "A.gltf") {
		t.Errorf("typed relative path: %q %v", p, ok)
	}
	b.Path = "missing.glb"
	if _, ok := b.Submit(); ok || !strings.Contains(b.Err, "missing.glb") {
		t.Errorf("missing file: err %q", b.Err)
	}
	b.Show(true, dir, filepath.Join(dir, "new.glb"))
	if p, ok := b.Submit(); !ok || p != filepath.Join(dir, "new.glb") {
		t.Errorf("save as a new file: %q %v", p, ok)
	}
	b.Path = filepath.Join(dir, "nofolder", "x.glb")
	if _, ok := b.Submit(); ok {
		t.Errorf("save into a missing folder accepted")
	}
	// Cursor clamps at both ends.
	b.Move(-100)
	if b.Cursor != 0 {
		t.Errorf("cursor %d after moving far up", b.Cursor)
	}
	b.Move(100)
	if b.Cursor != len(b.Entries)-1 {
		t.Errorf("cursor %d after moving far down, %d entries", b.Cursor, len(b.Entries))
	}
}
