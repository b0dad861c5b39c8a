package g4mf

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// TestCollapsed: a basis of zeros is a node collapsed to its position
// (scale 0), kept as a glTF matrix, since a glTF scale of [0, 0, 0] read
// back through qmuntal/gltf as 1; it survives a save to G4MF and back. A
// zero rotor and a collider shape of -1 (G4MF requires a shape) are
// warnings; both were read without a word.
func TestCollapsed(t *testing.T) {
	d, err := Load(filepath.Join("testdata", "collapsed.g4tf"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range d.Findings() {
		got = append(got, f.Code+" "+f.Path+": "+f.Message)
	}
	for _, want := range []string{
		"G4MF_IMPORT g4mf:/nodes/2/rotor: rotor is zero, which is no rotation; ignored",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("no finding %q in\n%q", want, got)
		}
	}
	// (In its own file: the writer leaves a shapeless collider out, which
	// TestRoundTrip, over testdata/*.g4tf, would see as a change.)
	m, err := Load(filepath.Join("testdata", "import", "collider_shape_minus_one.g4tf"))
	if err != nil {
		t.Fatal(err)
	}
	if f := m.Findings(); len(f) != 1 || f[0].String() != "warning g4mf:/nodes/1/physics/collider: collider without a shape (G4MF requires one); read as a compound collider" {
		t.Errorf("shape -1: findings %v", f)
	}
	collapsed := func(d *scene.Document) {
		t.Helper()
		for i, n := range d.GLTF.Nodes {
			if n.Name != "Collapsed" {
				continue
			}
			want := mgl64.Translate3D(0, 2, 0).Mul4(mgl64.Scale3D(0, 0, 0))
			if w := d.WorldMatrices()[i]; !w.ApproxEqual(want) {
				t.Errorf("Collapsed: world matrix %v, want %v", w, want)
			}
			return
		}
		t.Fatal("no node Collapsed")
	}
	collapsed(d)
	// From glTF, a scale written [0, 0, 0] (was written as 1).
	g, err := scene.Decode([]byte(`{"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"scene":0,`+
		`"nodes":[{"name":"Collapsed","translation":[0,2,0],"scale":[0,0,0]}]}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []*scene.Document{d, g} {
		for _, binary := range []bool{false, true} {
			out, _, err := Encode(d, binary)
			if err != nil {
				t.Fatal(err)
			}
			back, err := Decode(out, nil)
			if err != nil {
				t.Fatal(err)
			}
			collapsed(back)
		}
	}
}
