package ui

import (
	"fmt"
	"strings"
	"testing"

	"physview/assets"
	"physview/scene"
)

// TestFindingNode checks which node a click on a finding selects.
func TestFindingNode(t *testing.T) {
	d, err := scene.Decode(assets.Demo, nil)
	if err != nil {
		t.Fatal(err)
	}
	meshNode, shapeNode, shape := -1, -1, -1
	for n, node := range d.GLTF.Nodes {
		if node.Mesh != nil && meshNode < 0 {
			meshNode = n
		}
		if b := d.Nodes[n].Body; b != nil && b.Collider != nil && b.Collider.Shape >= 0 && shapeNode < 0 {
			shapeNode, shape = n, b.Collider.Shape
		}
	}
	if meshNode < 0 || shapeNode < 0 {
		t.Fatal("the demo scene has no mesh node or no collider")
	}
	mesh := *d.GLTF.Nodes[meshNode].Mesh
	cases := []struct {
		path string
		want int
	}{
		{"/nodes/3/extensions/OMI_physics_body/collider/shape", 3},
		{"/nodes/3", 3},
		{fmt.Sprintf("/nodes/%d", len(d.GLTF.Nodes)), -1},
		{fmt.Sprintf("/meshes/%d/primitives/0", mesh), meshNode},
		{fmt.Sprintf("/extensions/OMI_physics_shape/shapes/%d/box/size", shape), shapeNode},
		{"/asset", -1},
		{"", -1},
		{"/extensions", -1},
	}
	for _, c := range cases {
		if got := FindingNode(d, c.path); got != c.want {
			t.Errorf("FindingNode(%q) = %d, want %d", c.path, got, c.want)
		}
	}
}

// TestBySeverity: errors, then warnings, then notes, each kind in the
// file's order, and the count line above them.
func TestBySeverity(t *testing.T) {
	fs := []scene.Finding{
		{Severity: scene.Info, Code: "A"},
		{Severity: scene.Warning, Code: "B"},
		{Severity: scene.Info, Code: "C"},
		{Severity: scene.Error, Code: "D"},
		{Severity: scene.Warning, Code: "E"},
	}
	var got []string
	for _, f := range BySeverity(fs) {
		got = append(got, f.Code)
	}
	if want := "D B E A C"; strings.Join(got, " ") != want {
		t.Errorf("order %v, want %s", got, want)
	}
	if fs[0].Code != "A" {
		t.Error("BySeverity reordered its argument")
	}
	if got, want := findingSummary(fs), "1 error, 2 warnings, 2 notes (most serious first)"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	if got := findingSummary(nil); got != "" {
		t.Errorf("summary of none: %q", got)
	}
}
