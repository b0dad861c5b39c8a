package render

import (
	"image"
	"math"
	"strings"
	"testing"

	"physview/internal/testcorpus"
	"physview/scene"
)

// ktx2MeanDiff is the mean absolute difference of two same-sized images
// over R, G and B, in levels of 255.
func ktx2MeanDiff(a, b *image.NRGBA) float64 {
	var s float64
	for i := range a.Pix {
		if i%4 != 3 {
			s += math.Abs(float64(a.Pix[i]) - float64(b.Pix[i]))
		}
	}
	return s / float64(len(a.Pix)/4*3)
}

// magenta counts the pixels of the missing-image colour (lit or not).
func magenta(img *image.NRGBA) int {
	n := 0
	for i := 0; i < len(img.Pix); i += 4 {
		if p := img.Pix[i : i+3]; p[0] > 150 && p[2] > 150 && p[1] < 60 {
			n++
		}
	}
	return n
}

func loadDoc(t *testing.T, path string) *scene.Document {
	t.Helper()
	d, err := scene.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestKTX2Textures: KHR_texture_basisu images (UASTC with Zstandard and
// mipmaps, ETC1S with alpha) draw like the PNG they were encoded from, with
// no message; a KTX2 image cut short is magenta with a message naming it.
func TestKTX2Textures(t *testing.T) {
	headless(t)
	ktx, msgs := shot(t, loadDoc(t, "testdata/ktx2/quads_ktx2.gltf"), -1, 320, 240)
	if len(msgs) != 0 {
		t.Errorf("messages %q", msgs)
	}
	png, _ := shot(t, loadDoc(t, "testdata/ktx2/quads_png.gltf"), -1, 320, 240)
	broken, bmsgs := shot(t, loadDoc(t, "testdata/ktx2/broken_ktx2.gltf"), -1, 320, 240)
	d := ktx2MeanDiff(ktx, png)
	t.Logf("mean difference KTX2 vs PNG %.3f; magenta pixels %d (PNG twin %d, broken file %d)", d, magenta(ktx), magenta(png), magenta(broken))
	// The quads cover about a tenth of the picture; ETC1S is 29 dB off its
	// source there, UASTC 38 dB.
	if d > 1.5 {
		t.Errorf("KTX2 quads differ from the PNG ones by %.3f levels on average, want at most 1.5", d)
	}
	// The texture has magenta-like texels of its own, and ETC1S moves a
	// few more into the range: count against the twin.
	if magenta(ktx) > magenta(png)+100 {
		t.Errorf("%d magenta pixels in the KTX2 picture, the PNG twin has %d", magenta(ktx), magenta(png))
	}
	if db := ktx2MeanDiff(broken, png); db < 3*d {
		t.Errorf("the broken file differs from the PNG one by %.3f, barely more than the good one (%.3f)", db, d)
	}
	if magenta(broken) < magenta(png)+1000 {
		t.Errorf("the broken KTX2 image shows in %d magenta pixels, want the whole quad", magenta(broken))
	}
	if len(bmsgs) != 1 || !strings.Contains(bmsgs[0], "broken.ktx2") || !strings.Contains(bmsgs[0], "magenta") {
		t.Errorf("broken file messages %q, want one naming broken.ktx2", bmsgs)
	}
}

// TestKTX2Fallback: a KTX2 image that cannot be decoded gives way to the
// texture's core source (a PNG) where there is one, with a message saying so.
func TestKTX2Fallback(t *testing.T) {
	headless(t)
	fb, msgs := shot(t, loadDoc(t, "testdata/ktx2/fallback_ktx2.gltf"), -1, 320, 240)
	png, _ := shot(t, loadDoc(t, "testdata/ktx2/quads_png.gltf"), -1, 320, 240)
	if len(msgs) != 1 || !strings.Contains(msgs[0], "broken.ktx2") || !strings.Contains(msgs[0], "fallback image is shown") {
		t.Errorf("messages %q, want one naming broken.ktx2 and the fallback", msgs)
	}
	// The left quad is the PNG itself, the right one the ETC1S image.
	if d := ktx2MeanDiff(fb, png); d > 1.5 || magenta(fb) > magenta(png)+100 {
		t.Errorf("mean difference %.3f from the PNG twin, %d magenta pixels (twin %d)", d, magenta(fb), magenta(png))
	}
}

// TestKTX2Corpus: the Khronos StainedGlassLamp with KTX2 textures (ETC1S
// and UASTC) draws like its PNG/JPEG twin.
func TestKTX2Corpus(t *testing.T) {
	headless(t)
	const dir = "gltf-sample-assets/Models/StainedGlassLamp/"
	ktx, msgs := shot(t, loadDoc(t, testcorpus.File(t, dir+"glTF-KTX-BasisU/StainedGlassLamp.gltf")), -1, 320, 240)
	png, _ := shot(t, loadDoc(t, testcorpus.File(t, dir+"glTF/StainedGlassLamp.gltf")), -1, 320, 240)
	if len(msgs) != 0 {
		t.Errorf("messages %q", msgs)
	}
	d := ktx2MeanDiff(ktx, png)
	t.Logf("mean difference KTX2 vs PNG %.3f; magenta pixels %d (PNG twin %d)", d, magenta(ktx), magenta(png))
	if d > 1.5 {
		t.Errorf("KTX2 lamp differs from the PNG one by %.3f levels on average, want at most 1.5", d)
	}
	if magenta(ktx) > magenta(png)+20 {
		t.Errorf("%d magenta pixels, the PNG twin has %d", magenta(ktx), magenta(png))
	}
}
