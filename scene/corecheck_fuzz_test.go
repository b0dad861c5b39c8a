package scene

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzDecode feeds whole documents to Decode: whatever the bytes, it must
// return a document or an error, never panic or hang, and never allocate
// from a count it has not checked against the bytes.
func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "corecheck", "*.gltf"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("glTF\x02\x00\x00\x00\x20\x00\x00\x00\x0c\x00\x00\x00JSON{\"asset\":{}}"))
	// An unknown first chunk before the JSON, and a BIN chunk cut off.
	f.Add([]byte("glTF\x02\x00\x00\x00\x30\x00\x00\x00\x04\x00\x00\x00UNKNabcd\x1c\x00\x00\x00JSON{\"asset\":{\"version\":\"2.0\"}} "))
	f.Add([]byte("glTF\x02\x00\x00\x00\x60\x00\x00\x00\x38\x00\x00\x00JSON{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":4}]}\x40\x00\x00\x00BIN\x00\x01\x02"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Decode(data, nil)
		if err == nil && d.GLTF == nil {
			t.Fatal("no error and no document")
		}
	})
}
