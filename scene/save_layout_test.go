package scene

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSaveKeepsLayout: a .gltf saved after one edit differs from the file
// it was read from only in the edited value, whatever the file's layout
// (its own mix, four spaces, tabs with CRLF line ends, one line); saved
// with no edit it is the same bytes.
func TestSaveKeepsLayout(t *testing.T) {
	src, err := os.ReadFile(editFixture)
	if err != nil {
		t.Fatal(err)
	}
	indent := func(unit, eol string) []byte {
		var b bytes.Buffer
		if err := json.Indent(&b, src, "", unit); err != nil {
			t.Fatal(err)
		}
		return []byte(strings.ReplaceAll(b.String(), "\n", eol) + eol)
	}
	var compact bytes.Buffer
	json.Compact(&compact, src)
	layouts := []struct {
		name string
		text []byte
	}{
		{"as written", src},
		{"four spaces", indent("    ", "\n")},
		{"tabs and CRLF", indent("\t", "\r\n")},
		{"one line", compact.Bytes()},
	}
	for _, l := range layouts {
		t.Run(l.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "in.gltf")
			if err := os.WriteFile(path, l.text, 0o644); err != nil {
				t.Fatal(err)
			}
			d, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			save := func() []byte {
				files, err := d.Encode(path)
				if err != nil {
					t.Fatal(err)
				}
				return files[0].Data
			}
			if got := save(); !bytes.Equal(got, l.text) {
				t.Fatalf("saved without an edit, %d bytes differ from the %d read", len(got), len(l.text))
			}
			s := d.Shapes[1]
			if s.Size != [3]float64{1, 1, 1} {
				t.Fatalf("shape 1 is %v, the fixture's is a 1 m box", s.Size)
			}
			s.Size[0] = 2.5
			var h History
			if _, err := h.Do(d, SetShape{Index: 1, Shape: s}); err != nil {
				t.Fatal(err)
			}
			got := save()
			// What differs, once the bytes both share at the start and at
			// the end are taken off, is the one number.
			p := 0
			for p < len(got) && p < len(l.text) && got[p] == l.text[p] {
				p++
			}
			q := 0
			for q < len(got)-p && q < len(l.text)-p && got[len(got)-1-q] == l.text[len(l.text)-1-q] {
				q++
			}
			was, now := string(l.text[p:len(l.text)-q]), string(got[p:len(got)-q])
			if was != "1" || now != "2.5" {
				t.Errorf("the save changed %q into %q; want only the box's first size 1 into 2.5", was, now)
			}
			if n := strings.Count(string(got[:p]), `"box"`); n < 2 {
				t.Errorf("the change is in the %d. box, want the second", n)
			}
		})
	}
}
