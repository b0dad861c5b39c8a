package scene_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"physview/scene"
)

// TestRequiredNull: a member written null is a TYPE_MISMATCH read as if
// absent, and a required one is also reported missing, as the Khronos
// validator does. Before, the lenient reader read the null as the default
// without a word: a gravity field of null played at 9.8 m/s² and validated
// clean. An optional member written null reads as absent (a KHR joint's
// connectedNode: the world).
func TestRequiredNull(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string // "severity code path: message"
		not  []string // findings the nulls no longer give
	}{
		{"omi_required_null.gltf", []string{
			"error UNDEFINED_PROPERTY /extensions/OMI_physics_gravity/gravity: world gravity needs a gravity value",
			"error UNDEFINED_PROPERTY /nodes/0/extensions/OMI_physics_gravity/gravity: gravity value is required",
			`error UNDEFINED_PROPERTY /nodes/2/extensions/OMI_physics_joint/joint: joint node needs "joint"`,
			`error UNDEFINED_PROPERTY /nodes/2/extensions/OMI_physics_joint/connectedNode: joint node needs "connectedNode"`,
			"warning OMI_LEGACY_FORM /nodes/3/extensions/OMI_physics_body/trigger: trigger with neither shape nor nodes (the form before 2024): read as a compound of its descendant triggers and saved with explicit nodes",
			"error TYPE_MISMATCH /nodes/0/extensions/OMI_physics_gravity/gravity: must not be null: read as if absent",
			"error TYPE_MISMATCH /nodes/3/extensions/OMI_physics_body/trigger/nodes: must not be null: read as if absent",
		}, []string{
			"error OMI_MUTUALLY_EXCLUSIVE /nodes/3/extensions/OMI_physics_body/trigger: trigger has both shape and nodes; only one may be set",
		}},
		{"khr_required_null.gltf", []string{
			`error UNDEFINED_PROPERTY /extensions/KHR_implicit_shapes/shapes/1: property "type" must be defined`,
			`error UNDEFINED_PROPERTY /extensions/KHR_physics_rigid_bodies/physicsJoints/0/drives/0/mode: drive needs "mode"`,
			`error UNDEFINED_PROPERTY /extensions/KHR_physics_rigid_bodies/physicsJoints/0/drives/0/axis: drive needs "axis"`,
			"error TYPE_MISMATCH /nodes/1/extensions/KHR_physics_rigid_bodies/joint/connectedNode: must not be null: read as if absent",
		}, []string{
			"error UNRESOLVED_REFERENCE /nodes/1/extensions/KHR_physics_rigid_bodies/joint/connectedNode: connected node -1 is not a node index",
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			d, err := scene.Load(filepath.Join("testdata", "null", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range d.Findings() {
				got = append(got, fmt.Sprintf("%s %s %s: %s", f.Severity, f.Code, f.Path, f.Message))
			}
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("missing finding %q; got:\n%q", w, got)
				}
			}
			for _, w := range tc.not {
				if slices.Contains(got, w) {
					t.Errorf("finding %q given for a null", w)
				}
			}
		})
	}
}
