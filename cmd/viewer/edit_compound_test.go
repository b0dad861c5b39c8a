package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The U fixture (go generate ./internal/concave): node 1 "u" is a dynamic
// body whose node has a U-shaped mesh.
const compoundFixture = "../../internal/concave/testdata/u.glb"

func TestEditFitCompound(t *testing.T) {
	orig, err := os.ReadFile(compoundFixture)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "u.glb")
	os.WriteFile(in, orig, 0o644)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"edit", in, "fit", "u", "compound", "max=8", "vertices=32"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "Fit compound of") {
		t.Errorf("stdout %q does not name the edit", stdout.String())
	}
	data, _ := os.ReadFile(in)
	if len(data) <= len(orig) || !bytes.Contains(data, []byte(`"convex":{"mesh":2}`)) || !bytes.Contains(data, []byte(`"name":"u hull 1"`)) {
		t.Errorf("the saved file has no hull meshes or part nodes (%d bytes, was %d)", len(data), len(orig))
	}
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"validate", in}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "0 errors, 0 warnings") {
		t.Errorf("validate: exit %d, %s%s", code, stdout.String(), stderr.String())
	}
}

func TestEditFitCompoundRefuses(t *testing.T) {
	orig, err := os.ReadFile(compoundFixture)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"fit", "u", "compound", "max=0"}, "max=0: want a whole number above 0"},
		{[]string{"fit", "u", "compound", "max=many"}, "max=many"},
		{[]string{"fit", "u", "compound", "vertices=300"}, "max vertices 300 is out of range (4 to 255)"},
		{[]string{"fit", "u", "compound", "concavity=-1"}, "concavity=-1"},
		{[]string{"fit", "u", "compound", "colour=3"}, `unknown key "colour"`},
		{[]string{"fit", "ground", "compound"}, "the node has no mesh"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			in := filepath.Join(t.TempDir(), "u.glb")
			os.WriteFile(in, orig, 0o644)
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"edit", in}, tc.args...), &stdout, &stderr)
			if code != 2 || !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 naming %q", code, stderr.String(), tc.want)
			}
			if got, _ := os.ReadFile(in); !bytes.Equal(got, orig) {
				t.Error("the file changed")
			}
		})
	}
}
