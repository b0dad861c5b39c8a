package scene

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSaveKeepsGLBChunks: a GLB's chunk of an unknown type (which an
// extension may refer to; the specification has readers ignore it) stays
// in a GLB save: unedited, the file comes back byte for byte; edited, the
// chunk follows the new JSON and BIN chunks as it was. A .gltf cannot hold
// it, and the save says so.
func TestSaveKeepsGLBChunks(t *testing.T) {
	js := []byte(`{"asset":{"version":"2.0"},"nodes":[{"name":"a"}],"scenes":[{"nodes":[0]}],"scene":0}`)
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	xtra := []byte("physview test chunk data!!!")
	for len(xtra)%4 != 0 {
		xtra = append(xtra, 0)
	}
	chunk := binary.LittleEndian.AppendUint32(nil, uint32(len(xtra)))
	chunk = append(chunk, 'X', 'T', 'R', 'A')
	chunk = append(chunk, xtra...)
	var glb []byte
	glb = binary.LittleEndian.AppendUint32(glb, 0x46546C67)
	glb = binary.LittleEndian.AppendUint32(glb, 2)
	glb = binary.LittleEndian.AppendUint32(glb, uint32(12+8+len(js)+len(chunk)))
	glb = binary.LittleEndian.AppendUint32(glb, uint32(len(js)))
	glb = binary.LittleEndian.AppendUint32(glb, 0x4E4F534A)
	glb = append(glb, js...)
	glb = append(glb, chunk...)
	dir := t.TempDir()
	in := filepath.Join(dir, "in.glb")
	if err := os.WriteFile(in, glb, 0o644); err != nil {
		t.Fatal(err)
	}
	d := mustLoad(t, in)
	same := filepath.Join(dir, "same.glb")
	if err := d.Save(same); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(same); !bytes.Equal(got, glb) {
		t.Errorf("unedited save differs:\n%q\n%q", got, glb)
	}
	if _, err := Apply(d, SetNodeName{Node: 0, To: "renamed"}); err != nil {
		t.Fatal(err)
	}
	edited := filepath.Join(dir, "edited.glb")
	if err := d.Save(edited); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(edited)
	if !bytes.HasSuffix(got, chunk) || !bytes.Contains(got, []byte(`"renamed"`)) || int(binary.LittleEndian.Uint32(got[8:])) != len(got) {
		t.Errorf("edited save does not end in the chunk or has a wrong length: %q", got)
	}
	back := mustLoad(t, edited)
	for _, f := range back.Findings() {
		if f.Severity == Error {
			t.Errorf("the edited save reads with %v", f)
		}
	}
	if err := d.Save(filepath.Join(dir, "out.gltf")); err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(d.SaveWarnings(), "\n"); !strings.Contains(w, "chunk(s) of other types") {
		t.Errorf("save warnings %q do not say the chunk is not written", w)
	}
}
