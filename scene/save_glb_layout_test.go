package scene_test

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"physview/scene"
)

// TestSaveGLBKeepsJSONChunkEnd: a .glb whose JSON chunk ends in a line
// break before its padding (as many exporters write it) saves unedited
// byte for byte, and an edited save keeps that line break; saving twice
// does not grow the padding.
func TestSaveGLBKeepsJSONChunkEnd(t *testing.T) {
	const jsonType, binType = uint32(0x4E4F534A), uint32(0x004E4942)
	body := "{\n  \"asset\": {\"version\": \"2.0\"},\n  \"nodes\": [{\"name\": \"a\"}],\n  \"buffers\": [{\"byteLength\": 4}]\n}"
	for _, tc := range []struct{ name, end string }{
		{"no line break", ""},
		{"LF", "\n"},
		{"CRLF", "\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			js := []byte(body + tc.end)
			for len(js)%4 != 0 {
				js = append(js, ' ')
			}
			data := glb(0, jsonType, js, binType, []byte{1, 2, 3, 4})
			path := filepath.Join(t.TempDir(), "a.glb")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			d, err := scene.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			files, err := d.Encode(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(files[0].Data, data) {
				t.Errorf("saved unedited, the JSON chunk is %q, was %q", jsonChunk(files[0].Data), js)
			}
			var h scene.History
			for i, name := range []string{"bb", "c"} {
				if _, err := h.Do(d, scene.SetNodeName{Node: 0, To: name}); err != nil {
					t.Fatal(err)
				}
				files, err := d.Encode(path)
				if err != nil {
					t.Fatal(err)
				}
				got := jsonChunk(files[0].Data)
				want := bytes.Replace([]byte(body+tc.end), []byte(`"a"`), []byte(`"`+name+`"`), 1)
				if !bytes.Equal(bytes.TrimRight(got, " "), want) || len(got)-len(want) > 3 {
					t.Errorf("edit %d: the JSON chunk is %q, want %q padded", i, got, want)
				}
			}
		})
	}
}

// jsonChunk is the body of a GLB's first chunk.
func jsonChunk(b []byte) []byte {
	n := binary.LittleEndian.Uint32(b[12:])
	return b[20 : 20+n]
}
