package scene_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"physview/scene"
)

// TestPackGLBMeshoptFallback: a meshopt file saved as .glb (from a .glb
// through a .gltf, from glTF-Transform's own .gltf, and with the fallback
// buffer listed first) keeps its fallback buffer as a buffer of its own
// without bytes, points every meshopt block into the BIN chunk, validates
// without errors and draws exactly what its input draws.
func TestPackGLBMeshoptFallback(t *testing.T) {
	dir := t.TempDir()
	// meshopt.glb as a .gltf first (the round trip `viewer convert` makes).
	viaGLTF := filepath.Join(dir, "via.gltf")
	if d, err := scene.Load("testdata/meshcodec/meshopt.glb"); err != nil {
		t.Fatal(err)
	} else if err := d.Save(viaGLTF); err != nil {
		t.Fatal(err)
	}
	// meshopt_sep.gltf with its two buffers swapped (the fallback buffer
	// first), and with a buffer of padding before the data buffer (the
	// meshopt blocks' offsets move by 4 in the BIN chunk).
	swapped := filepath.Join(dir, "swapped.gltf")
	writeReorderedBuffers(t, "testdata/meshcodec/meshopt_sep.gltf", swapped, []int{1, 0}, false)
	padded := filepath.Join(dir, "padded.gltf")
	writeReorderedBuffers(t, "testdata/meshcodec/meshopt_sep.gltf", padded, []int{0, 1}, true)
	tests := []struct {
		name, in       string
		fallbackLength int
	}{
		{"glb through gltf", viaGLTF, 13468},
		{"glTF-Transform gltf", "testdata/meshcodec/meshopt_sep.gltf", 13468},
		{"fallback buffer first", swapped, 13468},
		{"data buffer after another", padded, 13468},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in, err := scene.Load(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			want := drawnGeometry(t, in)
			out := filepath.Join(t.TempDir(), "out.glb")
			if err := in.Save(out); err != nil {
				t.Fatalf("save as .glb: %v", err)
			}
			d, err := scene.Load(out)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range d.Findings() {
				if f.Severity == scene.Error || f.Severity == scene.Warning {
					t.Errorf("finding %s %s: %s", f.Code, f.Path, f.Message)
				}
			}
			if n := len(d.GLTF.Buffers); n != 2 {
				t.Fatalf("%d buffers, want 2 (the BIN chunk and the fallback)", n)
			}
			fb := d.GLTF.Buffers[1]
			if fb.URI != "" || fb.ByteLength != tc.fallbackLength || len(fb.Data) != 0 {
				t.Errorf("buffer 1: uri %q, byteLength %d, %d bytes; want no uri, %d, none", fb.URI, fb.ByteLength, len(fb.Data), tc.fallbackLength)
			}
			got := drawnGeometry(t, d)
			if len(got) != len(want) || len(got) == 0 {
				t.Fatalf("%d drawn nodes, want %d", len(got), len(want))
			}
			for name, w := range want {
				g := got[name]
				if g == nil || !slices.Equal(g.verts, w.verts) || !slices.Equal(g.tris, w.tris) {
					t.Errorf("node %s: the saved .glb draws other vertices or triangles than its input", name)
				}
			}
		})
	}
}

// writeReorderedBuffers writes the .gltf src to dst with its buffers
// reordered (buffer i becomes buffer order[i]) and a 4-byte buffer of
// padding (used by one buffer view) put first when pad is set, its .bin
// copied beside it.
func writeReorderedBuffers(t *testing.T, src, dst string, order []int, pad bool) {
	t.Helper()
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	shift := 0
	if pad {
		shift = 1
	}
	old := doc["buffers"].([]any)
	bufs := make([]any, len(old)+shift)
	for i, b := range old {
		bufs[order[i]+shift] = b
	}
	remap := func(m map[string]any) {
		if b, ok := m["buffer"].(float64); ok {
			m["buffer"] = order[int(b)] + shift
		}
	}
	views := doc["bufferViews"].([]any)
	for _, v := range views {
		bv := v.(map[string]any)
		remap(bv)
		if ext, ok := bv["extensions"].(map[string]any); ok {
			if mo, ok := ext["EXT_meshopt_compression"].(map[string]any); ok {
				remap(mo)
			}
		}
	}
	if pad {
		bufs[0] = map[string]any{"byteLength": 4, "uri": "data:application/octet-stream;base64,AAAAAA=="}
		doc["bufferViews"] = append(views, map[string]any{"buffer": 0, "byteLength": 4})
		doc["extras"] = map[string]any{"padding view": len(views)}
	}
	doc["buffers"] = bufs
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, out, 0o644); err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(filepath.Join(filepath.Dir(src), "meshopt_sep.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(dst), "meshopt_sep.bin"), bin, 0o644); err != nil {
		t.Fatal(err)
	}
}
