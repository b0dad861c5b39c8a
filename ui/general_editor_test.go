package ui

import (
	"testing"

	"physview/scene"
)

func TestGeneralEditorCopies(t *testing.T) {
	s := scene.DefaultShape(scene.ShapeGeneral)
	s.Curves[0].Taper = []scene.Taper{{Radii: [3]float64{1, 1, 1}}}
	got := withCurve(s, 0, func(c *scene.Curve) { c.Radii[0] = 2; c.Taper[0].Radii[1] = 3 })
	if s.Curves[0].Radii[0] != 0.25 || s.Curves[0].Taper[0].Radii[1] != 1 {
		t.Errorf("the edit changed the original: %+v", s.Curves[0])
	}
	if got.Curves[0].Radii[0] != 2 || got.Curves[0].Taper[0].Radii[1] != 3 {
		t.Errorf("the edit was lost: %+v", got.Curves[0])
	}
}
