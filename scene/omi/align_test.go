package omi_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"physview/scene"
	_ "physview/scene/omi"
)

// TestCoreCodesInOMIBlocks: each fixture has one fault in an OMI block,
// and the document's findings in the OMI blocks are exactly the core code
// (or OMI's own, for OMI's semantic rules) at the member, once.
func TestCoreCodesInOMIBlocks(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string // "severity code pointer", in pointer order
	}{
		{"valid.gltf", nil},
		{"unresolved_shape.gltf", []string{"error UNRESOLVED_REFERENCE /nodes/1/extensions/OMI_physics_body/collider/shape"}},
		{"shape_without_type.gltf", []string{"error UNDEFINED_PROPERTY /extensions/OMI_physics_shape/shapes/1/type"}},
		{"shape_without_parameters.gltf", []string{"warning UNDEFINED_PROPERTY /extensions/OMI_physics_shape/shapes/1/sphere"}},
		{"negative_size.gltf", []string{"error VALUE_NOT_IN_RANGE /extensions/OMI_physics_shape/shapes/0/box/size/1"}},
		{"unknown_motion_type.gltf", []string{"warning VALUE_NOT_IN_LIST /nodes/0/extensions/OMI_physics_body/motion/type"}},
		{"unknown_combine_mode.gltf", []string{"warning VALUE_NOT_IN_LIST /extensions/OMI_physics_body/physicsMaterials/0/frictionCombine"}},
		{"velocity_length.gltf", []string{"error ARRAY_LENGTH_NOT_IN_LIST /nodes/0/extensions/OMI_physics_body/motion/linearVelocity"}},
		{"empty_materials.gltf", []string{"error EMPTY_ENTITY /extensions/OMI_physics_body/physicsMaterials"}},
		{"joint_without_settings.gltf", []string{
			"error EMPTY_ENTITY /extensions/OMI_physics_joint/physicsJoints/0/limits",
			"error UNDEFINED_PROPERTY /nodes/2/extensions/OMI_physics_joint/joint",
		}},
		{"gravity_on_collider.gltf", []string{
			"error OMI_GRAVITY_NOT_ON_BASE_TRIGGER /nodes/1/extensions/OMI_physics_gravity",
			"error VALUE_NOT_IN_RANGE /nodes/1/extensions/OMI_physics_gravity/point/unitDistance",
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			d, err := scene.Load(filepath.Join("testdata", "codes", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range d.Findings() {
				if strings.Contains(f.Path, "/extensions/OMI_") && f.Severity != scene.Info {
					got = append(got, f.Severity.String()+" "+f.Code+" "+f.Path)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("findings in the OMI blocks:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}
