package app

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenMissingBuffer: a .gltf whose buffer file does not exist opens
// (the IO_ERROR is a finding), and the status bar says at once, as an
// error, which mesh is not drawn and which file it lacks. When the file
// appears, the reload draws the mesh and the message is gone.
func TestOpenMissingBuffer(t *testing.T) {
	dir := t.TempDir()
	text, err := os.ReadFile("../../scene/testdata/missing/missing_buffer.gltf")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "missing_buffer.gltf")
	if err := os.WriteFile(p, text, 0o644); err != nil {
		t.Fatal(err)
	}
	s, _ := open(t, p)
	m, _, ok := s.Message()
	want := `missing_buffer.gltf: mesh 1 "gone" is not drawn: its file gone.bin was not found (buffer 1, POSITION accessor 1 of primitive 0)`
	if !ok || !m.Error || m.Text != want {
		t.Errorf("message %q (error %v), want the error %q", m.Text, m.Error, want)
	}
	ioErrors := func() (n int) {
		for _, f := range s.Doc.Findings() {
			if f.Code == "IO_ERROR" && f.Path == "/buffers/1/uri" {
				n++
			}
		}
		return n
	}
	if ioErrors() != 1 {
		t.Errorf("findings %v, want IO_ERROR at /buffers/1/uri", s.Doc.Findings())
	}

	var tri []byte
	for _, v := range []float32{0, 0, 0, 1, 0, 0, 0, 1, 0} {
		tri = binary.LittleEndian.AppendUint32(tri, math.Float32bits(v))
	}
	bin := filepath.Join(dir, "gone.bin")
	if err := os.WriteFile(bin, tri, 0o644); err != nil {
		t.Fatal(err)
	}
	s.FilesChanged([]string{bin})
	if err := s.WaitLoad(); err != nil {
		t.Fatal(err)
	}
	if n := ioErrors(); n != 0 || len(s.Doc.MissingData()) != 0 {
		t.Errorf("after gone.bin appeared: %d IO_ERRORs, missing %q", n, s.Doc.MissingData())
	}
	if _, err := s.Doc.ReadPrimitive(1, 0); err != nil {
		t.Errorf("mesh 1 after the reload: %v", err)
	}
	if m, _, _ := s.Message(); m.Error || strings.Contains(m.Text, "not drawn") {
		t.Errorf("after the reload the message is %q (error %v)", m.Text, m.Error)
	}
}
