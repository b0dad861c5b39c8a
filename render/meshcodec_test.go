package render

import (
	"image"
	"math"
	"strings"
	"testing"

	"physview/scene"
)

// meanDiff is the mean absolute difference per channel (0-255) of two
// images of one size, and the share of pixels where they differ by more
// than 32 in some channel.
func meanDiff(a, b *image.NRGBA) (mean, off float64) {
	sum, n, bad := 0.0, 0, 0
	for i := 0; i+3 < len(a.Pix); i += 4 {
		worst := 0.0
		for k := 0; k < 3; k++ {
			dd := math.Abs(float64(a.Pix[i+k]) - float64(b.Pix[i+k]))
			sum += dd
			worst = max(worst, dd)
		}
		if worst > 32 {
			bad++
		}
		n++
	}
	return sum / float64(3*n), float64(bad) / float64(n)
}

// covered is the share of pixels that differ from the top-left one (the
// background).
func covered(img *image.NRGBA) float64 {
	bg := img.Pix[:4]
	c := 0
	for i := 0; i+3 < len(img.Pix); i += 4 {
		if math.Abs(float64(img.Pix[i])-float64(bg[0]))+math.Abs(float64(img.Pix[i+1])-float64(bg[1]))+math.Abs(float64(img.Pix[i+2])-float64(bg[2])) > 30 {
			c++
		}
	}
	return float64(c) / float64(len(img.Pix)/4)
}

// TestCompressedScreenshots draws each compressed fixture (Draco, meshopt,
// quantized; scene/testdata/meshcodec) and its uncompressed source from the
// same framing: the pictures match within a small mean difference, and
// the source covers a real part of the picture (so an empty picture cannot
// pass).
func TestCompressedScreenshots(t *testing.T) {
	headless(t)
	load := func(name string) *scene.Document {
		d, err := scene.Load("../scene/testdata/meshcodec/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	want, msgs := shot(t, load("source.glb"), -1, 240, 180)
	if len(msgs) > 0 {
		t.Fatalf("source: %v", msgs)
	}
	if c := covered(want); c < 0.1 {
		t.Fatalf("the source covers %.1f%% of the picture", 100*c)
	}
	// No subtests: the GL context is current on this goroutine's thread.
	for _, name := range []string{"draco.glb", "meshopt.glb", "meshopt_medium.glb", "quantized.glb"} {
		got, msgs := shot(t, load(name), -1, 240, 180)
		if len(msgs) > 0 {
			t.Errorf("%s: messages: %v", name, msgs)
		}
		mean, off := meanDiff(want, got)
		t.Logf("%s: mean difference %.3f, %.2f%% of pixels off by more than 32", name, mean, 100*off)
		if mean > 1.0 || off > 0.005 {
			t.Errorf("%s differs from the source's picture: mean %.3f (limit 1.0), %.2f%% of pixels off (limit 0.5%%)", name, mean, 100*off)
		}
	}
}

// TestEmptyPictureMessage: a file whose only mesh cannot be drawn (its
// positions are a zero-filled accessor) says why in the messages.
func TestEmptyPictureMessage(t *testing.T) {
	headless(t)
	d, err := scene.Decode([]byte(`{"asset":{"version":"2.0"},
"accessors":[{"componentType":5126,"count":3999999999,"type":"VEC3","min":[0,0,0],"max":[0,0,0]}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, msgs := shot(t, d, -1, 64, 48)
	joined := strings.Join(msgs, "\n")
	if !strings.Contains(joined, "nothing is drawn: no primitive of scene 0 can be drawn: mesh 0 primitive 0: POSITION accessor 0 has no bufferView") {
		t.Errorf("messages %q do not say why nothing is drawn", joined)
	}
}

// TestUnsupportedExtensionMessage: an optional extension the viewer cannot
// honour is named in the messages (the Findings tab, screenshot's stderr);
// a material extension is named once, as not rendered.
func TestUnsupportedExtensionMessage(t *testing.T) {
	headless(t)
	d, err := scene.Decode([]byte(`{"asset":{"version":"2.0"},"extensionsUsed":["EXT_made_up","KHR_materials_volume_scatter"],
"materials":[{"extensions":{"KHR_materials_volume_scatter":{"multiscatterColor":[0.5,0.5,0.5]}}}]}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, msgs := shot(t, d, -1, 32, 24)
	want := []string{"material extension KHR_materials_volume_scatter: not rendered", "extension EXT_made_up: not supported by the viewer, the file is shown without it"}
	if strings.Join(msgs, "\n") != strings.Join(want, "\n") {
		t.Errorf("messages %q, want %q", msgs, want)
	}
}
