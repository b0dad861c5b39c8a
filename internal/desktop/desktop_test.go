package desktop

import (
	"os"
	"path/filepath"
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
