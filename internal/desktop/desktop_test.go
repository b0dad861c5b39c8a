package desktop

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMimeappsFromNothing(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sub", "mimeapps.list")
	if err := editMimeapps(p, true); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	if want := "[Default Applications]\nmodel/gltf+json=physview.desktop;\nmodel/gltf-binary=physview.desktop;\n"; string(got) != want {
		t.Errorf("new mimeapps.list:\n%q\nwant\n%q", got, want)
	}
}

func TestDesktopQuote(t *testing.T) {
	cases := []struct{ in, want string }{
		{"/usr/bin/viewer", "/usr/bin/viewer"},
		{"/opt/a b/viewer", `"/opt/a b/viewer"`},
		{`/x/$HOME"q`, `"/x/\\$HOME\\"q"`},
	}
	for _, c := range cases {
		if got := desktopQuote(c.in); got != c.want {
			t.Errorf("desktopQuote(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// TestExecutable: a given path is made absolute, silently; no path is this
// binary, which `go test` builds under a go-build folder, so the note about
// temporary binaries is printed.
func TestExecutable(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ exe, want string }{
		{"/opt/phys view/viewer", "/opt/phys view/viewer"},
		{"bin/viewer", filepath.Join(wd, "bin/viewer")},
		{"/usr/local/bin/../bin/viewer", "/usr/local/bin/viewer"},
	} {
		var note strings.Builder
		got, err := Executable(c.exe, &note)
		if err != nil || got != c.want || note.Len() > 0 {
			t.Errorf("Executable(%q) = %q, %v, note %q; want %q and no note", c.exe, got, err, note.String(), c.want)
		}
	}
	self, err := os.Executable()
	if err != nil {
		t.Skip("os.Executable:", err)
	}
	var note strings.Builder
	got, err := Executable("", &note)
	if err != nil || got != self {
		t.Errorf("Executable(\"\") = %q, %v; want %q", got, err, self)
	}
	if strings.Contains(self, "go-build") != strings.Contains(note.String(), "temporary 'go run' binary") {
		t.Errorf("binary %s, note %q", self, note.String())
	}
}
