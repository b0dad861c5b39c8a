package scene_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"physview/scene"
	"physview/scene/g4mf"
	"physview/scene/xode"
)

// FuzzConvert: a file that loads is saved as .glb and as .gltf, and each
// output loads again with no finding code the input did not have (issue 24
// item 7) and without a panic. A save may refuse (a buffer whose bytes
// were never read cannot be packed); it must not write a worse file. The
// finding codes are compared for a valid input (no error), which is what
// the promise is about; an input that already has errors may lose or
// reshape its broken parts on the way (a legacy collider naming no
// collider is not written, a buffer without uri or byteLength has no place
// in a .glb), and must still convert without a panic and load again.
func FuzzConvert(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/convert/*.gl*")
	more, _ := filepath.Glob("testdata/*.gltf")
	for _, p := range append(seeds, more...) {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// The input is read from a file like the outputs, so a resource
		// it names is looked for the same way on both sides.
		dir := t.TempDir()
		inName := "in.gltf"
		if bytes.HasPrefix(data, []byte("glTF")) {
			inName = "in.glb"
		}
		if err := os.WriteFile(filepath.Join(dir, inName), data, 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := scene.Load(filepath.Join(dir, inName))
		if err != nil {
			return
		}
		otherFormats(t, d)
		in := codeSet(d.Findings())
		valid := true
		for _, f := range d.Findings() {
			valid = valid && f.Severity != scene.Error
		}
		for _, name := range []string{"c.glb", filepath.Join("sub", "c.gltf")} {
			out := filepath.Join(dir, name)
			if err := d.Save(out); err != nil {
				if _, serr := os.Stat(out); serr == nil {
					t.Errorf("the refused save (%v) wrote %s", err, name)
				}
				continue
			}
			o, err := scene.Load(out)
			if err != nil {
				t.Errorf("the converted %s does not load: %v", name, err)
				continue
			}
			if !valid {
				continue
			}
			a := added(in, codeSet(o.Findings()))
			if filepath.Ext(name) == ".glb" {
				// A resource that could not be read (a remote or missing
				// image) stays a URI in the GLB, which the checks note
				// and the convert command says when it writes the file.
				a = slices.DeleteFunc(a, func(c string) bool { return c == "URI_GLB" })
			}
			if len(a) > 0 {
				t.Errorf("converting to %s adds %v: %v\ninput findings: %v", name, a, o.Findings(), d.Findings())
			}
		}
	})
}

// otherFormats writes d as XODE and as G4MF (text and binary): a write may
// refuse with an error, never panic, and what it writes reads back. (A
// collider naming a shape the file lacks panicked in the XODE writer.)
func otherFormats(t *testing.T, d *scene.Document) {
	t.Helper()
	if out, _, err := xode.Encode(d); err == nil {
		if _, err := xode.Decode(out); err != nil {
			t.Errorf("the written XODE does not read back: %v", err)
		}
	}
	for _, binary := range []bool{false, true} {
		if out, _, err := g4mf.Encode(d, binary); err == nil {
			if _, err := g4mf.Decode(out, nil); err != nil {
				t.Errorf("the written G4MF (binary %v) does not read back: %v", binary, err)
			}
		}
	}
}
