package shot

import (
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
