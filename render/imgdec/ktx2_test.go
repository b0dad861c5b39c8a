package imgdec

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"physview/internal/testcorpus"
	"physview/render/imgdec/ktx2"
)

// TestDecodeKTX2: Decode gives a KTX2 file's base level, DecodeLevels its
// whole chain; other images have no levels from DecodeLevels.
func TestDecodeKTX2(t *testing.T) {
	data, err := os.ReadFile("ktx2/testdata/uastc_zstd_mips.ktx2")
	if err != nil {
		t.Fatal(err)
	}
	want, err := ktx2.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if m.Width != 32 || m.Height != 32 || !bytes.Equal(m.Pix, want.Levels[0].Pix) {
		t.Errorf("Decode: %dx%d, pixels equal %v", m.Width, m.Height, bytes.Equal(m.Pix, want.Levels[0].Pix))
	}
	m, levels, err := DecodeLevels(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(levels) != 5 || !bytes.Equal(m.Pix, want.Levels[0].Pix) {
		t.Fatalf("DecodeLevels: %d levels after the base, want 5", len(levels))
	}
	for i, l := range levels {
		if w := 32 >> (i + 1); l.Width != w || l.Height != w || !bytes.Equal(l.Pix, want.Levels[i+1].Pix) {
			t.Errorf("level %d: %dx%d", i+1, l.Width, l.Height)
		}
	}
	png, err := os.ReadFile("ktx2/testdata/rgba.png")
	if err != nil {
		t.Fatal(err)
	}
	m, levels, err = DecodeLevels(png)
	if err != nil || m.Width != 32 || levels != nil {
		t.Errorf("PNG through DecodeLevels: %v, %d levels", err, len(levels))
	}
	m.Free()
	if _, err := Decode(data[:100]); err == nil {
		t.Error("a cut KTX2 file decodes")
	}
}

// lampPairs returns the StainedGlassLamp's 19 KTX2 textures and, for
// each, the same image as a PNG: its decoded base level encoded with Go's
// image/png at the default compression (RGB when opaque), so that both
// sides hold exactly the same pixels.
func lampPairs(b *testing.B) (ktx, pngs [][]byte) {
	dir := testcorpus.File(b, "gltf-sample-assets/Models/StainedGlassLamp/glTF-KTX-BasisU")
	files, _ := filepath.Glob(filepath.Join(dir, "*.ktx2"))
	for _, f := range files {
		k, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		t, err := ktx2.Decode(k)
		if err != nil {
			b.Fatal(err)
		}
		l := t.Levels[0]
		var buf bytes.Buffer
		if err := png.Encode(&buf, &image.NRGBA{Pix: l.Pix, Stride: 4 * l.Width, Rect: image.Rect(0, 0, l.Width, l.Height)}); err != nil {
			b.Fatal(err)
		}
		ktx, pngs = append(ktx, k), append(pngs, buf.Bytes())
	}
	return ktx, pngs
}

// BenchmarkKTX2VsPNG decodes the lamp's 19 KTX2 textures (6 ETC1S, 13
// UASTC; 18 M pixels) and the 19 PNGs of the same pixels, one op being all of them,
// and reports the ratio of the times in the same run: base levels
// (Decode), and whole mipmap chains (KTX2's own levels against a PNG plus
// Mipmaps, what the renderer's workers do).
func BenchmarkKTX2VsPNG(b *testing.B) {
	ktx, png := lampPairs(b)
	base := func(files [][]byte) {
		for _, f := range files {
			m, err := Decode(f)
			if err != nil {
				b.Fatal(err)
			}
			m.Free()
		}
	}
	chain := func(files [][]byte) {
		for _, f := range files {
			m, levels, err := DecodeLevels(f)
			if err != nil {
				b.Fatal(err)
			}
			if levels == nil {
				levels = Mipmaps(m)
			}
			m.Free()
			for _, l := range levels {
				l.Free()
			}
		}
	}
	for _, c := range []struct {
		name string
		run  func([][]byte)
	}{{"base", base}, {"chain", chain}} {
		b.Run(c.name, func(b *testing.B) {
			var tk, tp time.Duration
			for i := 0; i < b.N; i++ {
				s := time.Now()
				c.run(ktx)
				tk += time.Since(s)
				s = time.Now()
				c.run(png)
				tp += time.Since(s)
			}
			b.ReportMetric(float64(tk.Milliseconds())/float64(b.N), "ktx2-ms/op")
			b.ReportMetric(float64(tp.Milliseconds())/float64(b.N), "png-ms/op")
			b.ReportMetric(float64(tk)/float64(tp), "ktx2/png")
		})
	}
}
