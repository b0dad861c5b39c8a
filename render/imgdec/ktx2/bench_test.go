package ktx2

import (
	"os"
	"path/filepath"
	"testing"

	"physview/internal/testcorpus"
)

// BenchmarkDecodeLamp decodes the base level of each of the
// StainedGlassLamp's KTX2 textures (one op is all 19).
func BenchmarkDecodeLamp(b *testing.B) {
	dir := testcorpus.File(b, "gltf-sample-assets/Models/StainedGlassLamp/glTF-KTX-BasisU")
	files, _ := filepath.Glob(filepath.Join(dir, "*.ktx2"))
	var data [][]byte
	for _, f := range files {
		d, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		data = append(data, d)
	}
	for _, kind := range []string{"ETC1S", "UASTC"} {
		b.Run(kind, func(b *testing.B) {
			px := 0
			for i := 0; i < b.N; i++ {
				for _, d := range data {
					f, err := Parse(d)
					if err != nil {
						b.Fatal(err)
					}
					if f.Format() != kind {
						continue
					}
					l, err := f.DecodeLevel(0)
					if err != nil {
						b.Fatal(err)
					}
					px += l.Width * l.Height
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(px), "ns/pixel")
		})
	}
}
