package meshdec

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// largestDraco returns the largest Draco bitstream of draco_large.glb (a
// sphere of about 19,000 vertices with normals, UVs and colours).
func largestDraco(b *testing.B) []byte {
	doc, bin := glbBlocks(b, "draco_large.glb")
	views := doc["bufferViews"].([]any)
	var best []byte
	for _, m := range doc["meshes"].([]any) {
		for _, p := range m.(map[string]any)["primitives"].([]any) {
			ext := p.(map[string]any)["extensions"].(map[string]any)["KHR_draco_mesh_compression"].(map[string]any)
			bv := views[num(ext["bufferView"])].(map[string]any)
			off := num(bv["byteOffset"])
			if s := bin[off : off+num(bv["byteLength"])]; len(s) > len(best) {
				best = s
			}
		}
	}
	return best
}

// BenchmarkDracoDecode decodes the largest fixture's Draco bitstream in
// process (all attributes to float32, the indices), against Debian's
// draco_decoder tool on the same bitstream as a .drc file (a process that
// decodes and writes a PLY; skipped when the draco package is absent).
// Report the ratio of the two ns/op.
func BenchmarkDracoDecode(b *testing.B) {
	data := largestDraco(b)
	b.Run("meshdec", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			m, err := DecodeDraco(data)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := m.Indices(-1); err != nil {
				b.Fatal(err)
			}
			for uid := 0; uid < 8; uid++ {
				if c := m.Components(uid); c > 0 {
					if _, err := m.Attribute(uid, 5126, c); err != nil {
						b.Fatal(err)
					}
				}
			}
			m.Close()
		}
	})
	b.Run("draco_decoder", func(b *testing.B) {
		tool, err := exec.LookPath("draco_decoder")
		if err != nil {
			b.Skip("draco_decoder not installed (Debian package draco)")
		}
		dir := b.TempDir()
		in := filepath.Join(dir, "in.drc")
		if err := os.WriteFile(in, data, 0o644); err != nil {
			b.Fatal(err)
		}
		out := filepath.Join(dir, "out.ply")
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if msg, err := exec.Command(tool, "-i", in, "-o", out).CombinedOutput(); err != nil {
				b.Fatalf("%v: %s", err, msg)
			}
		}
	})
}
