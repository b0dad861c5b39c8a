package render

import (
	"image"
	"image/color"
	"testing"
)

// This file tests the draft material extensions of issue 36
// (KHR_materials_diffuse_roughness, KHR_materials_fuzz, KHR_materials_coat)
// on a generated fixture, testdata/khr/drafts.gltf, the way
// khr_materials_test.go tests the ratified ones: a golden picture, and each
// extension taken out to check that it changes the spheres that use it
// and nothing else.

// ringRatio is the mean luminance of sphere i's rim (from 0.7 to 0.95 of
// its radius on screen) over that of its centre (within 0.4).
func ringRatio(img *image.NRGBA, i int) float64 {
	var rim, mid float64
	var nr, nm int
	for y := 0; y < khrH; y++ {
		for x := 0; x < khrW; x++ {
			p := img.NRGBAAt(x, y)
			l := luminance([3]float64{float64(p.R), float64(p.G), float64(p.B)})
			switch {
			case inDisc(x, y, i, 0.4):
				mid += l
				nm++
			case inDisc(x, y, i, 0.95) && !inDisc(x, y, i, 0.7):
				rim += l
				nr++
			}
		}
	}
	return (rim / float64(nr)) / (mid / float64(nm))
}

// TestDraftMaterialsFixture: KHR_materials_diffuse_roughness flattens a
// matte sphere (its rim brighter against its centre than Lambert's, by
// factor and by texture); KHR_materials_fuzz lays a white fuzz over a dark
// red sphere (paler, brightest at the rim, over the sheen fallback it
// replaces); KHR_materials_coat tints a white sphere blue through its coat
// colour, over the clearcoat fallback it replaces.
func TestDraftMaterialsFixture(t *testing.T) {
	rough := genImage(16, 16, func(u, v float64) color.NRGBA { return color.NRGBA{255, 0, 0, 255} })
	matte := [3]float64{0.8, 0.45, 0.2}
	f := khrFixture{
		name:     "drafts",
		exts:     []string{"KHR_materials_diffuse_roughness", "KHR_materials_fuzz", "KHR_materials_sheen", "KHR_materials_coat", "KHR_materials_clearcoat"},
		backdrop: -1,
		images:   []image.Image{rough},
		lights:   []khrLight{keyLight},
		mats: [4]obj{
			pbr("rough diffuse", matte, 0, 0.9, obj{"KHR_materials_diffuse_roughness": obj{"diffuseRoughnessFactor": 1}}),
			pbr("rough diffuse texture", matte, 0, 0.9, obj{"KHR_materials_diffuse_roughness": obj{"diffuseRoughnessFactor": 1, "diffuseRoughnessTexture": texInfo(0, 0, 0)}}),
			pbr("fuzz", [3]float64{0.25, 0.02, 0.03}, 0, 0.7, obj{
				"KHR_materials_fuzz":  obj{"fuzzFactor": 1, "fuzzColorFactor": []float64{0.9, 0.9, 0.9}, "fuzzRoughnessFactor": 0.6},
				"KHR_materials_sheen": obj{"sheenColorFactor": []float64{0.1, 0.1, 0.1}, "sheenRoughnessFactor": 0.6}}),
			pbr("blue coat", [3]float64{0.9, 0.9, 0.9}, 0, 0.6, obj{
				"KHR_materials_coat":      obj{"coatFactor": 1, "coatRoughnessFactor": 0.1, "coatIor": 1.6, "coatColorFactor": []float64{0.3, 0.5, 1}},
				"KHR_materials_clearcoat": obj{"clearcoatFactor": 1, "clearcoatRoughnessFactor": 0.1}}),
		},
	}
	src, img := khrFixtureImage(t, f)

	noRough := checkAblation(t, src, img, "KHR_materials_diffuse_roughness", []int{0, 1}, 2)
	for _, i := range []int{0, 1} {
		with, without := ringRatio(img, i), ringRatio(noRough, i)
		t.Logf("sphere %d: rim / centre %.3f rough, %.3f Lambertian", i, with, without)
		if with < without+0.03 {
			t.Errorf("sphere %d: rim / centre %.3f with diffuse roughness, %.3f without: want it flatter", i, with, without)
		}
	}

	noFuzz := checkAblation(t, src, img, "KHR_materials_fuzz", []int{2}, 4)
	m, c := discStats(img, 2, 0.9)
	m0, c0 := discStats(noFuzz, 2, 0.9)
	t.Logf("fuzz: mean %.0f chroma %.1f, without (sheen fallback) %.0f chroma %.1f; rim/centre %.2f, %.2f", m, c, m0, c0, ringRatio(img, 2), ringRatio(noFuzz, 2))
	if c > c0-5 || luminance(m) < luminance(m0)+5 {
		t.Errorf("fuzz: mean %.0f chroma %.1f, without %.0f chroma %.1f: want a paler, brighter sphere", m, c, m0, c0)
	}

	noCoat := checkAblation(t, src, img, "KHR_materials_coat", []int{3}, 4)
	b, _ := discStats(img, 3, 0.8)
	b0, _ := discStats(noCoat, 3, 0.8)
	t.Logf("coat: %.0f, without (clearcoat fallback) %.0f", b, b0)
	if b[2] < b[0]+40 || b0[2] > b0[0]+10 {
		t.Errorf("coat: %.0f, without %.0f: want blue under the coat, grey under the clearcoat", b, b0)
	}
}
