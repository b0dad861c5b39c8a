package imgdec

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math/rand"
	"testing"
	"unsafe"
)

// encodeRGBA returns a w x h PNG with colour type RGBA (some alpha below
// 255), its pixels from seed.
func encodeRGBA(t *testing.T, w, h int, seed int64) []byte {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetNRGBA(x, y, color.NRGBA{uint8(rng.Intn(256)), uint8(x), uint8(y), uint8(128 + rng.Intn(128))})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func addr(m *Image) uintptr { return uintptr(unsafe.Pointer(&m.Pix[0])) }

// TestPoolReuse checks the buffers kept between the decodes of one load:
// none without Expect; with it, a freed buffer serves the next decode of
// the same size, which overwrites every byte of the old image; and all
// are given back once no decode is expected.
func TestPoolReuse(t *testing.T) {
	a, b := encodeRGBA(t, 512, 512, 1), encodeRGBA(t, 512, 512, 2)
	want, err := DecodeStd(b)
	if err != nil {
		t.Fatal(err)
	}
	decode := func(data []byte) *Image {
		t.Helper()
		m, err := Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}

	m := decode(a)
	m.Free()
	if n := pooled(); n != 0 {
		t.Fatalf("%d bytes kept with no decode expected", n)
	}

	Expect(2)
	m = decode(a)
	first := addr(m)
	m.Free()
	if n := pooled(); n < 4*512*512 {
		t.Fatalf("%d bytes kept after freeing a 512x512 image while decodes are expected", n)
	}
	m = decode(b)
	if addr(m) != first {
		t.Errorf("the second decode of the same size did not reuse the freed buffer")
	}
	if !bytes.Equal(m.Pix, want.Pix) {
		t.Errorf("a reused buffer holds pixels that are not the second image's")
	}
	if n := pooled(); n != 0 {
		t.Errorf("%d bytes still kept after the reuse", n)
	}

	// Mipmap levels of 1 MB and more are reused too.
	big := decode(encodeRGBA(t, 1024, 1024, 3))
	levels := Mipmaps(big)
	l1 := addr(levels[0])
	for _, l := range levels {
		l.Free()
	}
	again := Mipmaps(big)
	if addr(again[0]) != l1 {
		t.Errorf("mipmap level 1 (512x512) did not reuse the freed level")
	}
	ref, w, h := mipRef(big.Pix, big.Width, big.Height)
	if again[0].Width != w || again[0].Height != h || !bytes.Equal(again[0].Pix, ref) {
		t.Errorf("a reused mipmap level holds other pixels than the box filter's")
	}

	Expect(-2)
	if n := pooled(); n != 0 {
		t.Errorf("%d bytes kept after the last expected decode", n)
	}
	for _, im := range append(again, m, big) {
		im.Free()
	}
	if n := pooled(); n != 0 {
		t.Errorf("%d bytes kept after freeing with no decode expected", n)
	}
}
