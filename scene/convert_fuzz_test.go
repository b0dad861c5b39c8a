package scene_test

import (
	"os"
	"path/filepath"
	"testing"

	"physview/scene"
)

// FuzzConvert: a file that loads is saved as .glb and as .gltf, and each
// output loads again with no finding code the input did not have (issue 24
// item 7) and without a panic. A save may refuse (a buffer whose bytes
// were never read cannot be packed); it must not write a worse file.
func FuzzConvert(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/convert/*.gl*")
	more, _ := filepath.Glob("testdata/*.gltf")
	for _, p := range append(seeds, more...) {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := scene.Decode(data, nil)
		if err != nil {
			return
		}
		in := codeSet(d.Findings())
		dir := t.TempDir()
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
			if a := added(in, codeSet(o.Findings())); len(a) > 0 {
				t.Errorf("converting to %s adds %v: %v\ninput findings: %v", name, a, o.Findings(), d.Findings())
			}
		}
	})
}
