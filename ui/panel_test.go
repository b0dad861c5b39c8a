package ui

import (
	"testing"

	"physview/assets"
	"physview/scene"
)

func TestNodeLabel(t *testing.T) {
	d, err := scene.Decode(assets.Demo, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"Ground":                               "Ground  [mesh, collider box]",
		"Dumbbell (dynamic compound collider)": "Dumbbell (dynamic compound collider)  [dynamic, compound collider]",
		"Planetoid (point gravity)":            "Planetoid (point gravity)  [trigger, gravity point]",
		"Hinge (joint)":                        "Hinge (joint)  [joint]",
	}
	found := 0
	for i, n := range d.GLTF.Nodes {
		if w, ok := want[n.Name]; ok {
			found++
			if got := NodeLabel(d, i); got != w {
				t.Errorf("node %d: %q, want %q", i, got, w)
			}
		}
	}
	if found != len(want) {
		t.Errorf("found %d of %d nodes", found, len(want))
	}
}

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
