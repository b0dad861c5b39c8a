package imgdec

import (
	"bytes"
	"math"
	"os"
	"strings"
	"testing"
)

// TestDecodeAVIF: a lossless AVIF gives its source PNG's bytes; a lossy
// 4:2:0 one is close to it (AV1 at quantizer 20 of 63 on a plasma fractal,
// whose fine chroma 4:2:0 halves: 26 dB or more); a cut file
// is an error naming AVIF.
func TestDecodeAVIF(t *testing.T) {
	cases := []struct {
		avif, png string
		minPSNR   float64 // +Inf: identical
	}{
		{"rgba8_lossless.avif", "rgba8.png", math.Inf(1)},
		{"rgb8_420.avif", "rgb8.png", 26},
	}
	for _, c := range cases {
		t.Run(c.avif, func(t *testing.T) {
			data, err := os.ReadFile("testdata/" + c.avif)
			if err != nil {
				t.Fatal(err)
			}
			if !isAVIF(data) {
				t.Fatal("not recognised as AVIF")
			}
			m, err := Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			defer m.Free()
			src, err := os.ReadFile("testdata/" + c.png)
			if err != nil {
				t.Fatal(err)
			}
			ref, err := DecodeStd(src)
			if err != nil {
				t.Fatal(err)
			}
			if m.Width != ref.Width || m.Height != ref.Height {
				t.Fatalf("%dx%d, source %dx%d", m.Width, m.Height, ref.Width, ref.Height)
			}
			var se float64
			for i := range m.Pix {
				d := float64(m.Pix[i]) - float64(ref.Pix[i])
				se += d * d
			}
			p := math.Inf(1)
			if se > 0 {
				p = 10 * math.Log10(255*255*float64(len(m.Pix))/se)
			}
			t.Logf("PSNR %.2f dB", p)
			if math.IsInf(c.minPSNR, 1) && !bytes.Equal(m.Pix, ref.Pix) || p < c.minPSNR {
				t.Errorf("PSNR %.2f dB, want at least %g", p, c.minPSNR)
			}
			if _, err := Decode(data[:len(data)/2]); err == nil || !strings.HasPrefix(err.Error(), "avif: ") {
				t.Errorf("cut file: %v", err)
			}
		})
	}
}
