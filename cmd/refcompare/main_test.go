package main

import (
	"bytes"
	"image"
	"math"
	"strings"
	"testing"

	"physview/render"
)

// decodeRGBE is the Radiance decoding the Sample Renderer applies.
func decodeRGBE(b []byte) [3]float64 {
	if b[3] == 0 {
		return [3]float64{}
	}
	f := math.Ldexp(1, int(b[3])-128-8)
	return [3]float64{float64(b[0]) * f, float64(b[1]) * f, float64(b[2]) * f}
}

func TestRGBE(t *testing.T) {
	for _, c := range [][3]float64{{1, 1, 1}, {0.5, 0.25, 0.125}, {60, 56, 48}, {0.003, 0.002, 0.001}, {0, 0, 0}} {
		got := decodeRGBE(rgbe(c))
		for k := range c {
			if math.Abs(got[k]-c[k]) > 0.01*math.Max(c[0], math.Max(c[1], c[2]))+1e-9 {
				t.Errorf("%v decodes to %v", c, got)
				break
			}
		}
	}
}

// TestPanorama: the header the Sample Renderer's reader expects, one RGBE
// pixel per texel, the top row straight up (the studio's overhead strip
// is brighter than its floor straight down).
func TestPanorama(t *testing.T) {
	const w, h = 64, 32
	b := panoramaHDR(render.EnvStudio, w, h)
	header := "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 32 +X 64\n"
	if !bytes.HasPrefix(b, []byte(header)) {
		t.Fatalf("header %q", b[:len(header)])
	}
	px := b[len(header):]
	if len(px) != 4*w*h {
		t.Fatalf("%d pixel bytes, want %d", len(px), 4*w*h)
	}
	top := decodeRGBE(px[4*(w/2) : 4*(w/2)+4])
	bottom := decodeRGBE(px[4*((h-1)*w+w/2) : 4*((h-1)*w+w/2)+4])
	if top[1] < 2*bottom[1] {
		t.Errorf("top row %v not brighter than bottom row %v", top, bottom)
	}
}

func TestMAE(t *testing.T) {
	a := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	b := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	// Pixel 0 is background in both (left out); pixel 1 differs by 10, 20, 30.
	copy(a.Pix, []uint8{51, 51, 51, 255, 100, 100, 100, 255})
	copy(b.Pix, []uint8{51, 51, 51, 255, 110, 80, 130, 255})
	if got := mae(a, b); got != [3]float64{10, 20, 30} {
		t.Errorf("mae %v, want [10 20 30]", got)
	}
}

func TestPatchedModule(t *testing.T) {
	dir := t.TempDir()
	if _, err := patchedModule(dir); err == nil {
		t.Error("no error for a missing module")
	}
	if got := urlEscape("Lamp on@x/y"); got != "Lamp%20on%40x%2Fy" {
		t.Errorf("urlEscape: %q", got)
	}
	if !strings.Contains(page, "Khronos PBR Neutral") {
		t.Error("the page does not ask for the PBR Neutral tone map")
	}
}
