package scene

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// TestCompoundLeavesUnreadBufferFile: a compound's hulls never go into a
// buffer whose file was not read (its byteLength missing or invalid, so
// the loader left it without bytes): saving would overwrite that file
// with the hulls alone. They go into a buffer that was read, or a new
// file, and every file the document had keeps its bytes.
func TestCompoundLeavesUnreadBufferFile(t *testing.T) {
	tri := []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0}
	for _, tc := range []struct{ name, buffer0 string }{
		{"no byteLength", `{"uri": "keep.bin"}`},
		{"byteLength not a number", `{"uri": "keep.bin", "byteLength": "8"}`},
		{"negative byteLength", `{"uri": "keep.bin", "byteLength": -1}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			keep := []byte("KEEPKEEP")
			text := `{
  "asset": {"version": "2.0"},
  "buffers": [` + tc.buffer0 + `, {"uri": "data:application/octet-stream;base64,` + base64.StdEncoding.EncodeToString(tri) + `", "byteLength": 36}],
  "bufferViews": [{"buffer": 1, "byteLength": 36}],
  "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]}],
  "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
  "nodes": [{"mesh": 0}],
  "scenes": [{"nodes": [0]}],
  "scene": 0
}
`
			path := filepath.Join(dir, "m.gltf")
			for name, b := range map[string][]byte{"m.gltf": []byte(text), "keep.bin": keep} {
				if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			d, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			fitUnitCube(t, d)
			if err := d.Save(path); err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(filepath.Join(dir, "keep.bin")); !bytes.Equal(got, keep) {
				t.Errorf("keep.bin, never read, was overwritten: %q", got)
			}
			back, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			// The hull's mesh reads back as the unit cube.
			m := len(back.GLTF.Meshes) - 1
			pd, err := back.ReadPrimitive(m, 0)
			if err != nil {
				t.Fatalf("the saved hull mesh %d does not read back: %v", m, err)
			}
			var hi [3]float32
			for _, p := range pd.Positions {
				for k := range hi {
					hi[k] = max(hi[k], p[k])
				}
			}
			if len(pd.Positions) == 0 || hi != [3]float32{1, 1, 1} {
				t.Errorf("the saved hull mesh reads back as %d positions up to %v, want the unit cube", len(pd.Positions), hi)
			}
		})
	}
}

// TestCompoundCutGLB: in a .glb whose BIN chunk is cut off (its buffer has
// no bytes), a compound's hulls do not go into that chunk: saved, the BIN
// chunk would hold zeros where the file's data was. The cut chunk is
// written as it was read (absent) and the hulls read back.
func TestCompoundCutGLB(t *testing.T) {
	tri := []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0}
	js := []byte(`{"asset":{"version":"2.0"},"buffers":[{"byteLength":64},{"uri":"data:application/octet-stream;base64,` + base64.StdEncoding.EncodeToString(tri) + `","byteLength":36}],` +
		`"bufferViews":[{"buffer":1,"byteLength":36}],"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],` +
		`"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0}`)
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	le := binary.LittleEndian
	var b []byte
	b = le.AppendUint32(append(b, "glTF"...), 2)
	b = le.AppendUint32(b, uint32(12+8+len(js)+8+64))
	b = le.AppendUint32(b, uint32(len(js)))
	b = le.AppendUint32(b, 0x4E4F534A)
	b = append(b, js...)
	b = le.AppendUint32(b, 64)
	b = le.AppendUint32(b, 0x004E4942)
	b = append(b, 1, 2, 3, 4, 5, 6, 7, 8) // 8 of the 64 bytes: cut off
	path := filepath.Join(t.TempDir(), "cut.glb")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	fitUnitCube(t, d)
	if err := d.Save(path); err != nil {
		t.Fatal(err)
	}
	saved, _ := os.ReadFile(path)
	if n := le.Uint32(saved[12:]); len(saved) > int(20+n) && le.Uint32(saved[20+n+4:]) == 0x004E4942 {
		chunk := saved[20+n+8:]
		if bytes.Count(chunk, []byte{0}) > len(chunk)/2 {
			t.Errorf("the saved BIN chunk is %d bytes, mostly zeros, in place of the file's cut data", len(chunk))
		}
	}
	back, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := back.ReadPrimitive(len(back.GLTF.Meshes)-1, 0); err != nil {
		t.Errorf("the hull mesh does not read back: %v", err)
	}
}

// fitUnitCube fits node 0 of d a compound of one hull, the unit cube, as
// one undoable edit.
func fitUnitCube(t *testing.T, d *Document) {
	t.Helper()
	var pts []mgl64.Vec3
	for i := 0; i < 8; i++ {
		pts = append(pts, mgl64.Vec3{float64(i & 1), float64(i >> 1 & 1), float64(i >> 2 & 1)})
	}
	h, err := ConvexHull(pts)
	if err != nil {
		t.Fatal(err)
	}
	e, err := d.FitCompoundEdit(0, []*Hull{h})
	if err != nil {
		t.Fatal(err)
	}
	var hist History
	if _, err := hist.Do(d, e); err != nil {
		t.Fatal(err)
	}
}
