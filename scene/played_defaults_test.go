package scene

import "testing"

// TestPointerPlace: a JSON pointer written as a reader of the file names
// the place, with indices in brackets and ~1, ~0 unescaped.
func TestPointerPlace(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/nodes/3/extensions/KHR_physics_rigid_bodies/motion/mass", "nodes[3].extensions.KHR_physics_rigid_bodies.motion.mass"},
		{"/shapes/1/capsule/height", "shapes[1].capsule.height"},
		{"/extensions/OMI_physics_shape/shapes/0/box/size", "extensions.OMI_physics_shape.shapes[0].box.size"},
		{"/nodes/0/extras/a~1b~0c", "nodes[0].extras.a/b~c"},
	} {
		if got := PointerPlace(tc.in); got != tc.want {
			t.Errorf("PointerPlace(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestPlayedDefaultsOnlyPhysics: a value of the wrong type outside the
// physics (a node's name) is not one a simulation plays; a physics one is,
// with the message that says what is used instead.
func TestPlayedDefaultsOnlyPhysics(t *testing.T) {
	d, err := Decode([]byte(`{"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body"],
	"extensions": {"OMI_physics_shape": {"shapes": [{"type": "sphere", "sphere": {"radius": 0.5}}]}},
	"nodes": [{"name": 5, "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic", "gravityFactor": "half"}, "collider": {"shape": 0}}}}]}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range d.PlayedDefaults() {
		got = append(got, f.Path+": "+f.Message)
	}
	want := []string{`/nodes/0/extensions/OMI_physics_body/motion/gravityFactor: must be a number, found "half"; 1 is used instead`}
	if len(got) != len(want) || got[0] != want[0] {
		t.Errorf("PlayedDefaults\n%q\nwant\n%q", got, want)
	}
}
