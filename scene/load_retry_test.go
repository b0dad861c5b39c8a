package scene

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// pairGLTF is a .gltf of one buffer of n bytes in file bin, read by one
// view and one accessor of n/4 floats.
func pairGLTF(n int, bin string) []byte {
	return fmt.Appendf(nil, `{"asset":{"version":"2.0"},"buffers":[{"byteLength":%d,"uri":%q}],
"bufferViews":[{"buffer":0,"byteLength":%d}],"accessors":[{"bufferView":0,"componentType":5126,"count":%d,"type":"SCALAR"}]}`, n, bin, n, n/4)
}

// TestLoadWaitsForSave: issue 31. A save renames a .gltf's new .bin into
// place before the new .gltf; a Load that reads between the two renames
// (the save's journal is there) waits for the save to finish and reads
// the new pair, never the old .gltf with the new .bin. A file replaced
// while it was read is read again too.
func TestLoadWaitsForSave(t *testing.T) {
	for _, tc := range []struct {
		name    string
		journal bool
	}{
		{"journal", true},
		{"replaced while read", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "a.gltf")
			os.WriteFile(path, pairGLTF(12, "a.bin"), 0o644)
			// The save is halfway: the new .bin (24 bytes) is in
			// place, the new .gltf waits in its temporary file.
			os.WriteFile(filepath.Join(dir, "a.bin"), make([]byte, 24), 0o644)
			tmp := filepath.Join(dir, ".a.gltf.1.tmp")
			os.WriteFile(tmp, pairGLTF(24, "a.bin"), 0o644)
			jp := journalPath(path)
			finish := func() {
				os.Rename(tmp, path)
				os.Remove(jp)
			}
			if tc.journal {
				os.WriteFile(jp, []byte(`{"renames":[["a.bin.tmp","a.bin"],[".a.gltf.1.tmp","a.gltf"]]}`), 0o644)
				done := make(chan struct{})
				go func() {
					defer close(done)
					time.Sleep(100 * time.Millisecond)
					finish()
				}()
				defer func() { <-done }()
			}
			before, _ := os.Stat(path)
			if !tc.journal {
				// The rename of the .gltf happened during the read.
				finish()
				if !saveCrossed(path, before) {
					t.Fatal("a file replaced since it was stat'ed is not seen as crossed by a save")
				}
				return
			}
			d, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := d.GLTF.Buffers[0].ByteLength; got != 24 {
				t.Errorf("read a buffer of %d bytes: the old .gltf with the new .bin", got)
			}
			if got := d.GLTF.Accessors[0].Count; got != 6 {
				t.Errorf("accessor count %d, want the new file's 6", got)
			}
		})
	}
}
