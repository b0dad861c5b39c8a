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
