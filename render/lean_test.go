package render

import (
	"bytes"
	"testing"

	"physview/internal/testcorpus"
	"physview/scene"
)

// TestLeanProgramsChangeNoPixel draws files whose primitives lack some of
// the tangent, second and third UV set and colour attributes, and whose
// materials leave texture slots empty, with the programs that leave those
// varyings out (gpuPrimitive.lean) and the empty slots' tests compiled
// out (absentTextures), and with the full programs: the pictures must be
// the same bytes.
func TestLeanProgramsChangeNoPixel(t *testing.T) {
	headless(t)
	cases := []struct {
		file string
		// lean is the first primitive's attributes left out.
		lean shaderFeatures
	}{
		{"gltf-sample-assets/Models/BoxTextured/glTF/BoxTextured.gltf", featLean},
		// Normal-mapped: the loader makes its tangents.
		{"gltf-sample-assets/Models/StainedGlassLamp/glTF/StainedGlassLamp.gltf", featNoUV1 | featNoUV2 | featNoColor},
		{"gltf-sample-assets/Models/TextureTransformMultiTest/glTF/TextureTransformMultiTest.gltf", featNoTangent | featNoUV2 | featNoColor},
	}
	opt := DefaultOptions()
	// One goroutine: the GL context is current on this test's thread.
	for _, tc := range cases {
		func() {
			d, err := scene.Load(testcorpus.File(t, tc.file))
			if err != nil {
				t.Fatalf("%s: %v", tc.file, err)
			}
			r := showing(t, d)
			defer r.Delete()
			lo, hi := r.Bounds()
			cam := NewCamera(lo, hi)
			if got := r.prims[0][0].lean; got != tc.lean {
				t.Errorf("%s: first primitive leaves out %b, want %b", tc.file, got, tc.lean)
			}
			lean, err := r.RenderImage(cam, 160, 120, opt)
			if err != nil {
				t.Fatalf("%s: %v", tc.file, err)
			}
			// The lean picture was drawn by programs with both kinds of bits.
			both := false
			for f := range r.programs {
				both = both || (f&featLean != 0 && f>>firstAbsentBit != 0)
			}
			if !both {
				t.Errorf("%s: no program leaves out both varyings and texture slots", tc.file)
			}
			compileOutTextures = false
			defer func() { compileOutTextures = true }()
			for _, ps := range r.prims {
				for _, gp := range ps {
					if gp != nil {
						gp.lean = 0
					}
				}
			}
			full, err := r.RenderImage(cam, 160, 120, opt)
			if err != nil {
				t.Fatalf("%s: %v", tc.file, err)
			}
			if !bytes.Equal(lean.Pix, full.Pix) {
				t.Errorf("%s: the picture of the lean programs differs from the full ones'", tc.file)
			}
			bg := lean.NRGBAAt(0, 0)
			if c := lean.NRGBAAt(80, 60); c == bg {
				t.Errorf("%s: centre pixel %v is the background's: nothing drawn", tc.file, c)
			}
		}()
	}
}
