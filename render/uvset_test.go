package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUVSetsFor checks which glTF UV sets go in a primitive's second and
// third UV attributes for a material's texture sets: 1 and 2, unless it
// samples a higher set, which then takes the place of one it does not
// sample.
func TestUVSetsFor(t *testing.T) {
	mat := func(sets ...int) material {
		m := defaultMaterial()
		for i, s := range sets {
			m.tex[i] = textureRef{texture: i, texCoord: s}
		}
		return m
	}
	cases := []struct {
		name string
		m    material
		want [2]int
	}{
		{"no textures", mat(), [2]int{1, 2}},
		{"set 0", mat(0, 0), [2]int{1, 2}},
		{"sets 1 and 2", mat(0, 1, 2), [2]int{1, 2}},
		{"set 3", mat(3), [2]int{1, 3}},
		{"sets 0 and 3", mat(0, 3, 3), [2]int{1, 3}},
		{"sets 1 and 3", mat(1, 3), [2]int{1, 3}},
		{"sets 2 and 3", mat(2, 3), [2]int{3, 2}},
		{"sets 3 and 4", mat(4, 3), [2]int{4, 3}},
		{"sets 1, 2 and 3", mat(1, 2, 3), [2]int{1, 2}},
	}
	for _, c := range cases {
		if got := uvSetsFor([]material{c.m}, 0); got != c.want {
			t.Errorf("%s: sets %v, want %v", c.name, got, c.want)
		}
	}
	if got := uvSetsFor(nil, 0); got != [2]int{1, 2} {
		t.Errorf("no material: sets %v, want [1 2]", got)
	}
	for _, c := range []struct {
		sets [2]int
		want [5]int // attribute for texCoord 0..4
	}{
		{[2]int{}, [5]int{0, 1, 2, 0, 0}},
		{[2]int{1, 2}, [5]int{0, 1, 2, 0, 0}},
		{[2]int{1, 3}, [5]int{0, 1, 0, 2, 0}},
		{[2]int{1, -1}, [5]int{0, 1, 0, 0, 0}},
	} {
		gp := &gpuPrimitive{uvSets: c.sets}
		for tc, want := range c.want {
			if got := gp.uvSlot(tc); got != want {
				t.Errorf("sets %v, texCoord %d: attribute %d, want %d", c.sets, tc, got, want)
			}
		}
	}
}

// TestHigherUVSet draws glTF-Transform's palette of two quads whose meshes
// already had TEXCOORD_0 and TEXCOORD_1 (testdata/transform, make.sh): the
// palette texture is on TEXCOORD_2, and each quad must take its own block
// of it (red left, green right). Read with set 0 (every UV at the green
// block's end) both came out green. palette3.glb is the same with a third
// unused set, so the palette is on TEXCOORD_3.
func TestHigherUVSet(t *testing.T) {
	for _, name := range []string{"palette.glb", "palette3.glb", "palette_occlusion.glb"} {
		t.Run(name, func(t *testing.T) {
			headless(t) // the context is current on the subtest's thread
			src, err := os.ReadFile(filepath.Join("testdata", "transform", name))
			if err != nil {
				t.Fatal(err)
			}
			img, msgs := renderFixture(t, src)
			for _, m := range msgs {
				if strings.Contains(m, "UV set") {
					t.Errorf("message %q", m)
				}
			}
			// The quads' centres, x = -0.5 and 0.5 at the fixture camera's 7 m.
			mean := func(cx int) (r, g float64) {
				for y := khrH/2 - 3; y <= khrH/2+3; y++ {
					for x := cx - 3; x <= cx+3; x++ {
						p := img.NRGBAAt(x, y)
						r, g = r+float64(p.R), g+float64(p.G)
					}
				}
				return r / 49, g / 49
			}
			px := float64(khrH) / (2 * 7 * 0.41421356) // pixels per metre (tan 22.5°)
			lr, lg := mean(khrW/2 - int(0.5*px))
			rr, rg := mean(khrW/2 + int(0.5*px))
			t.Logf("left R %.0f G %.0f, right R %.0f G %.0f", lr, lg, rr, rg)
			if lr < lg+60 {
				t.Errorf("left quad R %.0f G %.0f: want red", lr, lg)
			}
			if rg < rr+60 {
				t.Errorf("right quad R %.0f G %.0f: want green", rr, rg)
			}
		})
	}
}
