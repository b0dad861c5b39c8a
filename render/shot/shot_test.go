package shot

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"physview/scene"
)

// TestVariantIndex checks that a variant is found by its name, its label
// or its index, and that an unknown one is an error naming the file's
// variants.
func TestVariantIndex(t *testing.T) {
	d, err := scene.Load("../../scene/testdata/variants.gltf")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Variants) != 4 {
		t.Fatalf("%d variants, the fixture has 4 (Red, Blue, unnamed, Red)", len(d.Variants))
	}
	cases := []struct {
		name string
		want int
	}{
		{"", -1},
		{"Blue", 1},
		{"Red", 0},             // two are named Red: the first
		{d.VariantLabel(2), 2}, // the unnamed one, by its label
		{"3", 3},
		{"0", 0},
	}
	for _, c := range cases {
		got, err := VariantIndex(d, c.name)
		if err != nil || got != c.want {
			t.Errorf("%q: %d, %v; want %d", c.name, got, err, c.want)
		}
	}
	for _, bad := range []string{"Green", "-1", "4"} {
		_, err := VariantIndex(d, bad)
		if err == nil || !strings.Contains(err.Error(), d.VariantLabel(0)) {
			t.Errorf("%q: error %v, want one listing the variants", bad, err)
		}
	}
}

// TestOutputPath: the default screenshot name replaces the last ending
// only, never a dot in a folder's name.
func TestOutputPath(t *testing.T) {
	for _, c := range [][2]string{
		{"a.gltf", "a.png"},
		{"dir/box.glb", "dir/box.png"},
		{"x.tar.glb", "x.tar.png"},
		{"v1.2/model", "v1.2/model.png"},
		{"model", "model.png"},
		{"./scene.xode", "./scene.png"},
		{".hidden", ".png"},
	} {
		if got := OutputPath(c[0]); got != c[1] {
			t.Errorf("OutputPath(%q) = %q, want %q", c[0], got, c[1])
		}
	}
}

// TestWritePNG writes a 3x2 image and reads the same pixels back, and
// checks that a file that cannot be created is an error naming it.
func TestWritePNG(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 3, 2))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 11)
	}
	path := filepath.Join(t.TempDir(), "out.png")
	if err := WritePNG(path, img); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	back, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := back.(*image.NRGBA); !ok || got.Rect != img.Rect || !bytes.Equal(got.Pix, img.Pix) {
		t.Errorf("read back a %T of %v, want the NRGBA %v %v", back, back.Bounds(), img.Rect, img.Pix)
	}
	bad := filepath.Join(t.TempDir(), "no", "such", "dir", "x.png")
	if err := WritePNG(bad, img); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("WritePNG into a missing folder: %v, want an error naming %s", err, bad)
	}
}
