package scene_test

import (
	"strings"
	"testing"

	"physview/scene"
)

// TestEngineRange: every physics value no engine plays (issue 24's hostile
// values) is an error finding OMI_VALUE_OUT_OF_ENGINE_RANGE at the node or
// motion property; a fast but playable body is not.
func TestEngineRange(t *testing.T) {
	d, err := scene.Load("testdata/engine_range.gltf")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range d.Findings() {
		if f.Code == "OMI_VALUE_OUT_OF_ENGINE_RANGE" {
			if f.Severity != scene.Error {
				t.Errorf("%v is not an error", f)
			}
			got[f.Path] += f.Message + "; "
		}
	}
	for path, want := range map[string]string{
		"/nodes/1/extensions/OMI_physics_body/motion/linearVelocity":  "linearVelocity [1e+30 0 0] is more than 10000 m/s",
		"/nodes/2/extensions/OMI_physics_body/motion/angularVelocity": "angularVelocity [0 20000 0] is more than 10000 rad/s",
		"/nodes/3": "is at (1e+10, 0, 0), more than 1e+06 m from the origin",
		"/nodes/4": "world scale of 1e+30 along X; a shape node's scale must be between 1e-06 and 1e+06 for a physics engine; shape 0 on node 4 is 1e+30 m across",
		"/nodes/5": "world scale of 1e-09 along X",
		"/nodes/6/extensions/OMI_physics_body/motion/mass": "mass 1e+20 is more than 1e+12 kg",
		"/nodes/7": "shape 1 on node 7 is 1e+300 m across",
		"/nodes/9": "is at (0, 0, 1.1e+06)",
	} {
		if !strings.Contains(got[path], want) {
			t.Errorf("%s: finding %q, want one containing %q", path, got[path], want)
		}
		delete(got, path)
	}
	for path, msg := range got {
		t.Errorf("unexpected finding at %s: %s", path, msg)
	}
}
