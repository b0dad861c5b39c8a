package concave

import (
	"bytes"
	"math"
	"os"
	"testing"
)

// TestClosed: every mesh is closed (each edge in exactly two triangles,
// once each way) and encloses its volume counter-clockwise.
func TestClosed(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    Mesh
		vol  float64 // the solid's volume, up to the facets
		tol  float64
	}{
		{"L", L(), 5 * 0.125, 1e-12},
		{"U", U(), 7 * 0.125, 1e-12},
		{"torus", Torus(), 2 * math.Pi * math.Pi * 0.09, 0.05},
		{"cup", Cup(), math.Pi * (0.05*0.05*0.1 - 0.042*0.042*0.092), 0.05},
	} {
		edges := map[[2]uint32]int{}
		for _, tr := range tc.m.Tris {
			for k := 0; k < 3; k++ {
				edges[[2]uint32{tr[k], tr[(k+1)%3]}]++
			}
		}
		for e, n := range edges {
			if n != 1 || edges[[2]uint32{e[1], e[0]}] != 1 {
				t.Errorf("%s: edge %v is used %d times, its twin %d", tc.name, e, n, edges[[2]uint32{e[1], e[0]}])
				break
			}
		}
		if v := tc.m.Volume(); math.Abs(v-tc.vol) > tc.tol*tc.vol {
			t.Errorf("%s: volume %g, want %g", tc.name, v, tc.vol)
		}
	}
}

// TestFixturesCurrent: the files in testdata are what go generate writes.
func TestFixturesCurrent(t *testing.T) {
	u, err := File{Mesh: U(), Name: "u", Y: 1}.GLB()
	if err != nil {
		t.Fatal(err)
	}
	js, bin, err := File{Mesh: L(), Name: "l", Y: 1}.GLTF("l.bin")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]byte{"testdata/u.glb": u, "testdata/l.gltf": js, "testdata/l.bin": bin} {
		if got, err := os.ReadFile(name); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is not what the generator writes (go generate ./internal/concave): %v", name, err)
		}
	}
}
