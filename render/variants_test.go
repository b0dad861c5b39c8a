package render

import (
	"image"
	"path/filepath"
	"testing"

	"github.com/go-gl/gl/v3.3-core/gl"

	"physview/internal/testcorpus"
	"physview/scene"
)

// centre returns the colour at the middle of img.
func centre(img *image.NRGBA) [3]uint8 {
	p := img.Pix[img.PixOffset(img.Rect.Dx()/2, img.Rect.Dy()/2):]
	return [3]uint8{p[0], p[1], p[2]}
}

// TestVariantSwitchUploadsNothing loads a model, waits for its textures and
// draws it, then switches through every material variant: every texture of
// every variant is on the GPU before the first frame, so a switch uploads
// nothing.
func TestVariantSwitchUploadsNothing(t *testing.T) {
	headless(t)
	for _, tc := range []struct {
		name string
		path func(t testing.TB) string
		// uploads is the number of GL textures made: one per image and
		// colour space; -1 when not checked.
		uploads int
		// dominant is the channel (0 red, 2 blue, -1 grey) brightest at the
		// centre of the default and each variant; nil when not checked.
		dominant []int
	}{
		{
			// 4 images: 3 base colours (sRGB; the blue one through two
			// glTF textures that share a GL texture) and one used as
			// emissive (sRGB) by the variants and as occlusion (linear) by
			// default.
			name: "fixture", uploads: 5, dominant: []int{-1, 0, 2},
			path: func(testing.TB) string { return filepath.Join("testdata", "variants", "variants.gltf") },
		},
		{
			// 2 images (normal and occlusion), both linear data.
			name: "GlamVelvetSofa", uploads: 2,
			path: func(t testing.TB) string {
				return testcorpus.File(t, "gltf-sample-assets/Models/GlamVelvetSofa/glTF-Binary/GlamVelvetSofa.glb")
			},
		},
	} {
		// Not t.Run: the GL context is current on this goroutine's thread.
		func() {
			d, err := scene.Load(tc.path(t))
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Variants) < 2 {
				t.Fatalf("%s: %d variants, want at least 2", tc.name, len(d.Variants))
			}
			r := showing(t, d)
			defer r.Delete()
			if len(r.Messages) > 0 {
				t.Errorf("%s: messages: %q", tc.name, r.Messages)
			}
			before := r.Uploads()
			if tc.uploads >= 0 && before != tc.uploads {
				t.Errorf("%s: %d textures uploaded before the first frame, want %d", tc.name, before, tc.uploads)
			}
			lo, hi := r.Bounds()
			cam := NewCamera(lo, hi)
			opt := DefaultOptions()
			opt.Grid, opt.Axes = false, false
			for v := -1; v < len(d.Variants); v++ {
				opt.Variant = v
				img, err := r.RenderImage(cam, 64, 64, opt)
				if err != nil {
					t.Fatal(err)
				}
				if n := r.Uploads() - before; n != 0 {
					t.Errorf("%s: variant %d: %d uploads while switching, want 0", tc.name, v, n)
				}
				if tc.dominant == nil {
					continue
				}
				c := centre(img)
				got := -1
				switch {
				case c[0] > c[1]+40 && c[0] > c[2]+40:
					got = 0
				case c[2] > c[0]+40 && c[2] > c[1]+40:
					got = 2
				}
				if want := tc.dominant[v+1]; got != want {
					t.Errorf("%s: variant %d: centre %v, want dominant channel %d", tc.name, v, c, want)
				}
			}
		}()
	}
}

// BenchmarkVariantSwitch draws one frame after switching to the next
// variant of GlamVelvetSofa; uploads/op must stay 0.
func BenchmarkVariantSwitch(b *testing.B) {
	h, err := NewHeadless()
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	d, err := scene.Load(testcorpus.File(b, "gltf-sample-assets/Models/GlamVelvetSofa/glTF-Binary/GlamVelvetSofa.glb"))
	if err != nil {
		b.Fatal(err)
	}
	r, err := New()
	if err != nil {
		b.Fatal(err)
	}
	defer r.Delete()
	r.SetDocument(d)
	r.WaitTextures()
	lo, hi := r.Bounds()
	cam := NewCamera(lo, hi)
	opt := DefaultOptions()
	before := r.Uploads()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		opt.Variant = i%(len(d.Variants)+1) - 1
		if _, err := r.RenderImage(cam, 320, 240, opt); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(r.Uploads()-before)/float64(b.N), "uploads/op")
}

// TestUploadPaths draws the two-variant fixture through each way of making
// textures (immutable storage or not, mipmaps by the workers or by the
// driver), after Preload, and checks the colours and the upload count.
func TestUploadPaths(t *testing.T) {
	headless(t)
	defer func(s int, w bool) { hasTexStorage, mipmapsOnWorkers = s, w }(hasTexStorage, mipmapsOnWorkers)
	for _, tc := range []struct {
		name    string
		storage int // hasTexStorage: 1 yes, 2 no
		workers bool
	}{
		{"storage, workers' mipmaps", 1, true},
		{"storage, driver's mipmaps", 1, false},
		{"glTexImage2D, workers' mipmaps", 2, true},
		{"glTexImage2D, driver's mipmaps", 2, false},
	} {
		hasTexStorage, mipmapsOnWorkers = tc.storage, tc.workers
		d, err := scene.Load(filepath.Join("testdata", "variants", "variants.gltf"))
		if err != nil {
			t.Fatal(err)
		}
		Preload(d)
		r, err := New()
		if err != nil {
			t.Fatal(err)
		}
		r.SetDocument(d)
		preloads.Lock()
		left := len(preloads.m)
		preloads.Unlock()
		if left != 0 {
			t.Errorf("%s: %d preloads not taken over by SetDocument", tc.name, left)
		}
		r.WaitTextures()
		if r.Uploads() != 5 {
			t.Errorf("%s: %d uploads, want 5", tc.name, r.Uploads())
		}
		lo, hi := r.Bounds()
		opt := DefaultOptions()
		opt.Grid, opt.Axes = false, false
		for v, want := range [][3]uint8{{128, 128, 128}, {220, 20, 20}, {20, 20, 220}} {
			opt.Variant = v - 1
			img, err := r.RenderImage(NewCamera(lo, hi), 64, 64, opt)
			if err != nil {
				t.Fatal(err)
			}
			c := centre(img)
			// Lit, so not the texture's colour, but its order of channels.
			if (want[0] > want[2]) != (c[0] > c[2]+40) || (want[2] > want[0]) != (c[2] > c[0]+40) {
				t.Errorf("%s: variant %d: centre %v, texture %v", tc.name, v-1, c, want)
			}
		}
		if e := gl.GetError(); e != gl.NO_ERROR {
			t.Errorf("%s: GL error 0x%x", tc.name, e)
		}
		r.Delete()
	}
}
