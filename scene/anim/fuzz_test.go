package anim

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"physview/scene"
)

// FuzzModel reads any document that decodes, samples every animation at a
// few times and bounds the posed scene: never a panic, and the bounds of a
// scene that draws something are ordered (NaN aside).
func FuzzModel(f *testing.F) {
	for name := range fixtures {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, 0.5)
	}
	f.Fuzz(func(t *testing.T, data []byte, tt float64) {
		d, err := scene.Decode(data, nil)
		if err != nil {
			return
		}
		m := NewModel(d)
		for a := -1; a < len(m.Animations) && a < 4; a++ {
			p := m.Pose(a, tt)
			lo, hi, ok := m.Bounds(p)
			for k := 0; ok && k < 3; k++ {
				if !math.IsNaN(lo[k]) && !math.IsNaN(hi[k]) && lo[k] > hi[k] {
					t.Fatalf("bounds %v > %v", lo, hi)
				}
			}
			for s := range d.GLTF.Skins {
				m.JointMatrices(p, s, nil)
			}
		}
	})
}
