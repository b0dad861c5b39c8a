package scene

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The codecs register in Order, whatever the order of the files' init: the
// order of ownedExtensions is the order new keys get in a saved extensions
// object.
func TestRegisteredExtensions(t *testing.T) {
	want := []string{ExtShape, ExtBody, ExtCollider, ExtGravity, ExtJoint, ExtVariants, ExtKHRShapes, ExtKHRBodies, ExtNodeVisibility}
	if diff := cmp.Diff(want, ownedExtensions); diff != "" {
		t.Errorf("ownedExtensions (-want +got):\n%s", diff)
	}
	for i := 1; i < len(extensionCodecs); i++ {
		if extensionCodecs[i-1].Order > extensionCodecs[i].Order {
			t.Errorf("codec %v (order %d) runs before %v (order %d)", extensionCodecs[i-1].Names, extensionCodecs[i-1].Order, extensionCodecs[i].Names, extensionCodecs[i].Order)
		}
	}
}

func TestExtensionsUsedAndRequired(t *testing.T) {
	for _, tc := range []struct {
		file         string
		used         []string
		savedUsed    []string
		savedRequire []string
	}{
		{"current.gltf", []string{ExtBody, ExtGravity, ExtJoint, ExtShape}, []string{ExtBody, ExtGravity, ExtJoint, ExtShape}, nil},
		// The archived OMI_collider is read, never written; a file that
		// required it requires what replaced it.
		{"legacy_collider.gltf", []string{ExtBody, ExtShape}, []string{ExtBody, ExtShape}, []string{ExtBody, ExtShape}},
		{"variants.gltf", []string{ExtVariants}, []string{ExtVariants}, nil},
		// A KHR document lists the KHR names, as a save writes them.
		{"khr_physics.gltf", []string{ExtKHRShapes, ExtKHRBodies}, []string{ExtKHRShapes, ExtKHRBodies}, nil},
	} {
		t.Run(tc.file, func(t *testing.T) {
			d, err := Load(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.used, d.ExtensionsUsed()); diff != "" {
				t.Errorf("ExtensionsUsed (-want +got):\n%s", diff)
			}
			files, err := d.Encode(filepath.Join(t.TempDir(), "out.gltf"))
			if err != nil {
				t.Fatal(err)
			}
			var saved struct {
				Used     []string `json:"extensionsUsed"`
				Required []string `json:"extensionsRequired"`
			}
			if err := json.Unmarshal(files[0].Data, &saved); err != nil {
				t.Fatal(err)
			}
			slices.Sort(saved.Used)
			slices.Sort(saved.Required)
			if diff := cmp.Diff(tc.savedUsed, saved.Used); diff != "" {
				t.Errorf("saved extensionsUsed (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.savedRequire, saved.Required); diff != "" {
				t.Errorf("saved extensionsRequired (-want +got):\n%s", diff)
			}
		})
	}
}

// Every kind has an entry with its name, and the names read back.
func TestShapeKindTable(t *testing.T) {
	want := []string{"box", "sphere", "capsule", "cylinder", "convex", "trimesh", "general", "plane", "ray", "heightmap"}
	var got []string
	for i, k := range ShapeTypes() {
		if int(k) != i+1 {
			t.Errorf("ShapeTypes()[%d] = %d, want %d", i, k, i+1)
		}
		got = append(got, k.String())
		if back, _, ok := ParseShapeType(k.String()); !ok || back != k {
			t.Errorf("ParseShapeType(%q) = %v, %v", k.String(), back, ok)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("kinds (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		t        ShapeType
		usesMesh bool
		half     [3]float64
	}{
		{ShapeBox, false, [3]float64{0.5, 0.5, 0.5}},
		{ShapeSphere, false, [3]float64{0.5, 0.5, 0.5}},
		{ShapeCapsule, false, [3]float64{0.5, 1, 0.5}},
		{ShapeCylinder, false, [3]float64{0.5, 1, 0.5}},
		{ShapeConvex, true, [3]float64{}},
		{ShapeTrimesh, true, [3]float64{}},
		{ShapeGeneral, false, [3]float64{}},
		{0, false, [3]float64{}},
	} {
		if got := tc.t.UsesMesh(); got != tc.usesMesh {
			t.Errorf("%v.UsesMesh() = %v, want %v", tc.t, got, tc.usesMesh)
		}
		if got := DefaultShape(tc.t).HalfExtents(); got != tc.half {
			t.Errorf("DefaultShape(%v).HalfExtents() = %v, want %v", tc.t, got, tc.half)
		}
	}
}
