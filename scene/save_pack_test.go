package scene

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPackUnreadBuffer: a buffer whose bytes were never read (a placeholder
// without uri, a remote uri, a data URI that does not decode or is short)
// cannot go into a .glb: saving says so, names the buffer and why, and
// writes nothing; saving as .gltf keeps the reference.
func TestPackUnreadBuffer(t *testing.T) {
	tests := []struct{ name, buffer, want string }{
		{"placeholder", `{"byteLength": 12}`, "buffer 0: it has no uri, so its 12 bytes are unknown (a placeholder), so it cannot be packed into a .glb"},
		{"remote", `{"byteLength": 12, "uri": "https://example.com/data.bin"}`, "buffer 0: its 12 bytes at https://example.com/data.bin were never fetched (only local files are read), so it cannot be packed"},
		{"data URI of bad base64", `{"byteLength": 12, "uri": "data:application/octet-stream;base64,AAAA!!AAAAAAAAAA"}`, "buffer 0 has no data (its data URI does not decode: bad base64: illegal base64 data at input byte 4), so it cannot be packed"},
		{"short data URI", `{"byteLength": 12, "uri": "data:application/octet-stream;base64,AAAAAAAA"}`, "buffer 0: its data URI holds 6 of its 12 bytes, so it cannot be packed"},
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
			if err == nil || !strings.Contains(err.Error(), tc.want) {
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
