package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUVSetFor checks which glTF UV set goes in a primitive's second UV
// attribute for a material's texture sets: a set above 1 takes the place
// of set 1 only when the material samples no texture on set 1 and no other
// set above 1.
func TestUVSetFor(t *testing.T) {
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
		want int
	}{
		{"no textures", mat(), 1},
		{"set 0", mat(0, 0), 1},
		{"set 1", mat(0, 1), 1},
		{"set 2", mat(2), 2},
		{"sets 0 and 3", mat(0, 3, 3), 3},
		{"sets 1 and 2", mat(1, 2), 1},
		{"sets 2 and 3", mat(2, 3), 1},
	}
	for _, c := range cases {
		if got := uvSetFor([]material{c.m}, 0); got != c.want {
			t.Errorf("%s: set %d, want %d", c.name, got, c.want)
		}
	}
	if got := uvSetFor(nil, 0); got != 1 {
		t.Errorf("no material: set %d, want 1", got)
	}
	gp := &gpuPrimitive{uvSet1: 2}
	for tc, want := range map[int]int{0: 0, 1: 0, 2: 1, 3: 0} {
		if got := gp.uvSlot(tc); got != want {
			t.Errorf("uvSet1 2, texCoord %d: attribute %d, want %d", tc, got, want)
		}
	}
}

// TestHigherUVSet draws glTF-Transform's palette of two quads whose meshes
// already had TEXCOORD_0 and TEXCOORD_1 (testdata/transform, make.sh): the
// palette texture is on TEXCOORD_2, and each quad must take its own block
// of it (red left, green right). Read with set 0 (every UV at the green
// block's end) both came out green.
func TestHigherUVSet(t *testing.T) {
	headless(t)
	src, err := os.ReadFile(filepath.Join("testdata", "transform", "palette.glb"))
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
}
