package diff

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestRenamedAndChanged: a node renamed whose collider changed too (or
// that moved, or whose mass changed) is one node renamed with its changes,
// not a node removed and another added: matched by its kind (mesh,
// children, motion type, shape types) when it is the only one of its kind
// left, else by its index in the file. A node of another kind in its place
// is still a removal and an addition. The fixtures under testdata/rename
// are written by hand.
func TestRenamedAndChanged(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		// want are the changes as "category kind node: summary [A|B]".
		want []string
	}{
		{"a.gltf", "b_resized.gltf", []string{
			`structure changed Box01: renamed "Crate" → "Box01" [/nodes/1/name|/nodes/1/name]`,
			`physics changed Box01: collider resized: box size 1 x 1 x 1 → box size 2 x 1 x 1 [/extensions/OMI_physics_shape/shapes/1|/extensions/OMI_physics_shape/shapes/1]`,
		}},
		// A node inserted before them: Ball (renamed, moved, resized) is
		// the only dynamic sphere; Lamp keeps its child Bulb.
		{"a.gltf", "b_inserted.gltf", []string{
			`structure changed Marble: renamed "Ball" → "Marble" [/nodes/2/name|/nodes/3/name]`,
			`structure changed Light: renamed "Lamp" → "Light" [/nodes/3/name|/nodes/4/name]`,
			`structure added Marker: node "Marker" added under the scene root [|/nodes/0]`,
			`physics moved Marble: collider moved: translation [2, 2, 0] → [3, 2, 0] [/nodes/2/translation|/nodes/3/translation]`,
			`physics changed Marble: collider resized: sphere radius 0.5 → sphere radius 0.75 [/extensions/OMI_physics_shape/shapes/2|/extensions/OMI_physics_shape/shapes/2]`,
		}},
		{"a.gltf", "b_other.gltf", []string{
			`structure removed Crate: node "Crate" removed [/nodes/1|]`,
			`structure added Spinner: node "Spinner" added under the scene root [|/nodes/1]`,
		}},
		// Three of a kind: paired by index.
		{"stack_a.gltf", "stack_b.gltf", []string{
			`structure changed Box1: renamed "Crate1" → "Box1" [/nodes/1/name|/nodes/1/name]`,
			`structure changed Box2: renamed "Crate2" → "Box2" [/nodes/2/name|/nodes/2/name]`,
			`structure changed Box3: renamed "Crate3" → "Box3" [/nodes/3/name|/nodes/3/name]`,
			`physics changed Box1: collider resized: box size 1 x 1 x 1 → box size 1 x 0.5 x 1 [/extensions/OMI_physics_shape/shapes/1|/extensions/OMI_physics_shape/shapes/1]`,
			`physics changed Box2: collider resized: box size 1 x 1 x 1 → box size 1 x 0.5 x 1 [/extensions/OMI_physics_shape/shapes/1|/extensions/OMI_physics_shape/shapes/1]`,
			`physics changed Box3: collider resized: box size 1 x 1 x 1 → box size 1 x 0.5 x 1 [/extensions/OMI_physics_shape/shapes/1|/extensions/OMI_physics_shape/shapes/1]`,
		}},
		// glTF 2.1 core shapes: the pointers are KHR_physics_rigid_bodies'.
		{"core21_a.gltf", "core21_b.gltf", []string{
			`structure changed Capsule01: renamed "Pill" → "Capsule01" [/nodes/1/name|/nodes/1/name]`,
			`physics changed Capsule01: mass 1 → 4 kg [/nodes/1/extensions/KHR_physics_rigid_bodies/motion/mass|/nodes/1/extensions/KHR_physics_rigid_bodies/motion/mass]`,
			`physics changed Capsule01: collider resized: capsule mid height 1, radius top 0.25, bottom 0.25 (full height 1.5) → capsule mid height 2, radius top 0.25, bottom 0.25 (full height 2.5) [/nodes/1/extensions/KHR_physics_rigid_bodies/collider/geometry|/nodes/1/extensions/KHR_physics_rigid_bodies/collider/geometry]`,
		}},
	} {
		t.Run(tc.b, func(t *testing.T) {
			dir := filepath.Join("testdata", "rename")
			r, err := Compare(load(t, filepath.Join(dir, tc.a)), load(t, filepath.Join(dir, tc.b)))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range r.Changes {
				got = append(got, fmt.Sprintf("%s %s %s: %s [%s|%s]", c.Category, c.Kind, c.Node, c.Summary, c.PointerA, c.PointerB))
			}
			if g, w := strings.Join(got, "\n"), strings.Join(tc.want, "\n"); g != w {
				t.Errorf("changes\n%s\nwant\n%s", g, w)
			}
		})
	}
}
