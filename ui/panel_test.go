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
		"Ground":                                     "Ground  [mesh, collider box]",
		"Dumbbell (dynamic compound collider)":       "Dumbbell (dynamic compound collider)  [dynamic, compound collider]",
		"Planetoid (point gravity)":                  "Planetoid (point gravity)  [trigger, gravity point]",
		"Hinge (joint)":                              "Hinge (joint)  [joint]",
		"Bracket (dynamic compound of convex hulls)": "Bracket (dynamic compound of convex hulls)  [mesh, dynamic, compound of 3 convex hulls]",
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

// TestNodeLabelMixedCompound: a body whose child colliders are not all
// convex hulls counts all of them (the OMI boom box: two hulls and two
// capsules used to read "compound of 2 convex hulls").
func TestNodeLabelMixedCompound(t *testing.T) {
	d, err := scene.Decode(assets.Demo, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := -1
	for i, node := range d.GLTF.Nodes {
		if node.Name == "Bracket (dynamic compound of convex hulls)" {
			n = i
		}
	}
	parts := d.CompoundParts(n)
	if len(parts) != 3 {
		t.Fatalf("bracket: %d hull parts, want 3", len(parts))
	}
	d.Shapes[d.Nodes[parts[0]].Body.Collider.Shape].Type = scene.ShapeSphere
	want := "Bracket (dynamic compound of convex hulls)  [mesh, dynamic, compound of 3 colliders]"
	if got := NodeLabel(d, n); got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

func TestNodeLabelInstancesAndSkin(t *testing.T) {
	for _, tc := range []struct {
		file string
		node int
		want string
	}{
		{"instancing.gltf", 0, "triangles x 3  [mesh]"},
		{"skin.gltf", 0, "skinned  [mesh, skin]"},
	} {
		d, err := scene.Load("../scene/anim/testdata/" + tc.file)
		if err != nil {
			t.Fatal(err)
		}
		if got := NodeLabel(d, tc.node); got != tc.want {
			t.Errorf("%s node %d: %q, want %q", tc.file, tc.node, got, tc.want)
		}
	}
	for n, want := range map[int]string{0: "0", 999: "999", 1200: "1,200", 1234567: "1,234,567"} {
		if got := groupThousands(n); got != want {
			t.Errorf("groupThousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestTooltipX(t *testing.T) {
	for _, c := range []struct{ x, w, right, want float32 }{
		{100, 200, 800, 116}, // fits right of the cursor
		{600, 200, 800, 396}, // would cross into the panel: to the left
		{584, 200, 800, 600}, // just fits
		{150, 300, 400, 0},   // fits nowhere: at the window's edge
	} {
		if got := TooltipX(c.x, c.w, c.right); got != c.want {
			t.Errorf("TooltipX(%v, %v, %v) = %v, want %v", c.x, c.w, c.right, got, c.want)
		}
	}
}
