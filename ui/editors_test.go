package ui

import (
	"strings"
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

// TestShapeKindsInUI: every shape kind the model knows has Inspector
// fields, and the shape line names it (a kind forgotten here fails this
// test rather than a user).
func TestShapeKindsInUI(t *testing.T) {
	d := &scene.Document{}
	for _, k := range scene.ShapeTypes() {
		if _, ok := shapeEditors[k]; !ok {
			t.Errorf("shape kind %s has no Inspector fields", k)
		}
		d.Shapes = []scene.Shape{scene.DefaultShape(k)}
		if got := shapeText(d, 0); !strings.Contains(got, k.String()) || strings.Contains(got, "unknown") {
			t.Errorf("shape kind %s: shape line %q", k, got)
		}
	}
}
