package scene

import (
	"os"
	"testing"
)

// TestSaveWritesOnlyMissingRequired: a block the file wrote without a
// required member (a motion without "type", a shape without its
// sub-object) is saved with that member added, and with every other
// member as the file spelled it; no default the file left out appears.
func TestSaveWritesOnlyMissingRequired(t *testing.T) {
	const fixture = "testdata/edit/required.gltf"
	orig, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Load(fixture)
	if err != nil {
		t.Fatal(err)
	}
	var h History
	if _, err := h.Do(d, SetNodeName{Node: 2, To: "Lantern"}); err != nil {
		t.Fatal(err)
	}
	files, err := d.Encode(fixture)
	if err != nil {
		t.Fatal(err)
	}
	checkDiff(t, rawDiff(orig, files[0].Data), []string{
		"/extensions/OMI_physics_shape/shapes/1/sphere",
		"/nodes/0/extensions/OMI_physics_body/motion/type",
		"/nodes/2/name",
	})
	back, err := Decode(files[0].Data, os.DirFS("testdata/edit"))
	if err != nil {
		t.Fatal(err)
	}
	m := back.Nodes[0].Body.Motion
	if m == nil || m.Type != MotionDynamic || m.Mass != 2.5 {
		t.Fatalf("saved motion reads back as %+v, want dynamic of 2.5 kg", m)
	}
	for _, f := range back.Findings() {
		if f.Code == "OMI_UNDEFINED_PROPERTY" {
			t.Errorf("saved file still lacks a required member: %s %s", f.Path, f.Message)
		}
	}
}
