package ui

import (
	"testing"

	"physview/scene"
)

// TestAddShapeChoices loops over every shape kind the model knows: each
// is offered as a fit to the mesh (first, for a node with a mesh), and
// each that needs no mesh at its default size.
func TestAddShapeChoices(t *testing.T) {
	kinds := scene.ShapeTypes()
	if len(kinds) < 6 {
		t.Fatalf("only %d shape kinds", len(kinds))
	}
	for _, hasMesh := range []bool{true, false} {
		cs := addShapeChoices(hasMesh)
		fits, plain := map[scene.ShapeType]int{}, map[scene.ShapeType]int{}
		for i, c := range cs {
			if c.Fit {
				fits[c.Type]++
				if i > 0 && !cs[i-1].Fit {
					t.Errorf("mesh %v: fit %s comes after a default-size entry", hasMesh, c.Type)
				}
			} else {
				plain[c.Type]++
			}
		}
		for _, k := range kinds {
			wantFit, wantPlain := 0, 1
			if hasMesh {
				wantFit = 1
			}
			if k.UsesMesh() {
				wantPlain = 0
			}
			if fits[k] != wantFit || plain[k] != wantPlain {
				t.Errorf("mesh %v, kind %s: %d fit and %d default entries, want %d and %d", hasMesh, k, fits[k], plain[k], wantFit, wantPlain)
			}
		}
		if hasMesh && (cs[0].Header != "Fit to mesh" || !cs[0].Fit) {
			t.Errorf("first entry %+v, want the fits under Fit to mesh", cs[0])
		}
	}
}
