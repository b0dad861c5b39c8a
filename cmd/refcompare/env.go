package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"

	"physview/render"
)

// panoramaHDR writes environment e as an equirectangular Radiance .hdr
// (flat RGBE scanlines, top row straight up; column u looks along
// atan2(z, x) = (u - 0.5) * 2 pi, as the Sample Renderer reads panoramas).
func panoramaHDR(e render.Environment, w, h int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y %d +X %d\n", h, w)
	for j := 0; j < h; j++ {
		theta := (float64(j) + 0.5) / float64(h) * math.Pi
		for i := 0; i < w; i++ {
			phi := ((float64(i)+0.5)/float64(w) - 0.5) * 2 * math.Pi
			d := [3]float64{math.Sin(theta) * math.Cos(phi), math.Cos(theta), math.Sin(theta) * math.Sin(phi)}
			c := render.EnvironmentRadiance(e, d)
			b.Write(rgbe(c))
		}
	}
	return b.Bytes()
}

// rgbe encodes a linear colour as Radiance's shared-exponent bytes.
func rgbe(c [3]float64) []byte {
	m := math.Max(c[0], math.Max(c[1], c[2]))
	if m < 1e-32 {
		return []byte{0, 0, 0, 0}
	}
	frac, exp := math.Frexp(m)
	s := frac * 256 / m
	return []byte{byte(c[0] * s), byte(c[1] * s), byte(c[2] * s), byte(exp + 128)}
}

// sheenELUT is the sheen albedo table the Sample Renderer reads (red:
// albedo; x NdotV, y sheen roughness, row 0 roughness 0), computed with
// this viewer's integral so both renderers scale the base layer alike.
func sheenELUT(n int) []byte {
	img := image.NewGray(image.Rect(0, 0, n, n))
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			e := render.SheenAlbedo((float64(i)+0.5)/float64(n), (float64(j)+0.5)/float64(n), 256)
			img.SetGray(i, j, color.Gray{Y: uint8(math.Round(e * 255))})
		}
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}
