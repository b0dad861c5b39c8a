package scene

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPackUnreadBuffer: a buffer whose bytes were never read (a placeholder
// without uri, a remote uri) cannot go into a .glb: saving says so, names
// the buffer and writes nothing; saving as .gltf keeps the reference.
func TestPackUnreadBuffer(t *testing.T) {
	tests := []struct{ name, buffer string }{
		{"placeholder", `{"byteLength": 12}`},
		{"remote", `{"byteLength": 12, "uri": "https://example.com/data.bin"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			js := `{"asset": {"version": "2.0"}, "buffers": [` + tc.buffer + `], "nodes": [{"name": "a"}]}`
			d, err := Decode([]byte(js), nil)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			out := filepath.Join(dir, "out.glb")
			err = d.Save(out)
			if err == nil || !strings.Contains(err.Error(), "buffer 0") || !strings.Contains(err.Error(), "cannot be packed") {
				t.Fatalf("save as .glb: %v", err)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Error("a failed save left a file behind")
			}
			files, err := d.Encode(filepath.Join(dir, "out.gltf"))
			if err != nil {
				t.Fatalf("save as .gltf: %v", err)
			}
			if !strings.Contains(string(files[0].Data), `"byteLength": 12`) {
				t.Errorf("the buffer did not stay as it was:\n%s", files[0].Data)
			}
		})
	}
}
