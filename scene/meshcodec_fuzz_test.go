package scene_test

import (
	"os"
	"path/filepath"
	"testing"

	"physview/scene"
)

// FuzzCompressedGeometry mutates the Draco, meshopt and quantized fixtures
// (whole .glb files, up to 64 KiB) and reads every primitive the way the
// renderer, picking and the simulation do: an error is fine, a panic, an
// abort in the C decoders or an index past the vertices is not.
func FuzzCompressedGeometry(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "meshcodec", "*.glb"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 64<<10 {
			return
		}
		d, err := scene.Decode(data, nil)
		if err != nil {
			return
		}
		for m, mesh := range d.GLTF.Meshes {
			for p := range mesh.Primitives {
				pd, err := d.ReadPrimitive(m, p)
				if err != nil {
					continue
				}
				for _, i := range pd.Indices {
					if int(i) >= len(pd.Positions) {
						t.Fatalf("mesh %d primitive %d: index %d past %d vertices", m, p, i, len(pd.Positions))
					}
				}
			}
		}
		d.EmptyPictureReason()
	})
}
