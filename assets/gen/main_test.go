package main

import (
	"bytes"
	"slices"
	"testing"

	"physview/assets"
	"physview/scene"
)

// TestDemoUpToDate: the committed demo.glb is what the generator makes now
// (run go generate ./assets after changing it).
func TestDemoUpToDate(t *testing.T) {
	data, err := build()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, assets.Demo) {
		t.Fatal("assets/demo.glb is stale: run go generate ./assets")
	}
}

// TestDemoCoversEveryFeature: the demo shows every shape type, every motion
// type, a compound collider, a dynamic mesh with a compound of convex hulls,
// a compound trigger, every gravity type, a joint and at least two variants.
func TestDemoCoversEveryFeature(t *testing.T) {
	d, err := scene.Decode(assets.Demo, nil)
	if err != nil {
		t.Fatal(err)
	}
	if scene.HasErrors(d.Findings()) {
		t.Errorf("demo has errors: %v", d.Findings())
	}
	shapes := map[scene.ShapeType]bool{}
	for _, s := range d.Shapes {
		shapes[s.Type] = true
	}
	for _, st := range scene.ShapeTypes() {
		if !shapes[st] {
			t.Errorf("no %s shape", st)
		}
	}
	motions := map[scene.MotionType]bool{}
	gravity := map[scene.GravityType]bool{}
	compoundCollider, compoundTrigger, joint := false, false, false
	for _, ne := range d.Nodes {
		if b := ne.Body; b != nil {
			if b.Motion != nil {
				motions[b.Motion.Type] = true
			}
			if b.Collider != nil && b.Collider.Shape < 0 {
				compoundCollider = true
			}
			if b.Trigger != nil && b.Trigger.Nodes != nil {
				compoundTrigger = true
			}
		}
		if ne.Gravity != nil {
			gravity[ne.Gravity.Type] = true
		}
		joint = joint || ne.Joint != nil
	}
	for _, mt := range []scene.MotionType{scene.MotionStatic, scene.MotionKinematic, scene.MotionDynamic} {
		if !motions[mt] {
			t.Errorf("no %s body", mt)
		}
	}
	for _, gt := range scene.GravityTypes() {
		if !gravity[gt] {
			t.Errorf("no %s gravity", gt)
		}
	}
	if !compoundCollider || !compoundTrigger || !joint || len(d.Variants) < 2 {
		t.Errorf("compound collider %v, compound trigger %v, joint %v, variants %d", compoundCollider, compoundTrigger, joint, len(d.Variants))
	}
	// A dynamic body with a mesh whose colliders are convex hulls on
	// child nodes, as a compound fit leaves them.
	hulls := 0
	for n, ne := range d.Nodes {
		if b := ne.Body; b != nil && b.Motion != nil && b.Motion.Type == scene.MotionDynamic && d.GLTF.Nodes[n].Mesh != nil {
			if parts := d.CompoundParts(n); len(parts) > 1 {
				hulls = len(parts)
				t.Logf("%s: %d hulls", d.GLTF.Nodes[n].Name, hulls)
			}
		}
	}
	if hulls == 0 {
		t.Error("no dynamic mesh with a compound of convex hulls")
	}
}

// TestDemoVariantMaterials: some variant gives a primitive an iridescent
// material and one an anisotropic material (on a primitive with tangents),
// and extensionsUsed names both extensions.
func TestDemoVariantMaterials(t *testing.T) {
	d, err := scene.Decode(assets.Demo, nil)
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]string{}
	for ref, pv := range d.Primitives {
		prim := d.GLTF.Meshes[ref.Mesh].Primitives[ref.Primitive]
		for _, m := range pv.Mappings {
			for _, ext := range []string{"KHR_materials_iridescence", "KHR_materials_anisotropy"} {
				if _, ok := d.GLTF.Materials[m.Material].Extensions[ext]; !ok {
					continue
				}
				if _, tan := prim.Attributes["TANGENT"]; ext == "KHR_materials_anisotropy" && !tan {
					t.Errorf("mesh %s has an anisotropic variant material but no tangents", d.GLTF.Meshes[ref.Mesh].Name)
				}
				for _, v := range m.Variants {
					found[ext] = d.VariantLabel(v)
				}
			}
		}
	}
	for _, ext := range []string{"KHR_materials_iridescence", "KHR_materials_anisotropy"} {
		if found[ext] == "" {
			t.Errorf("no variant uses %s", ext)
		}
		if !slices.Contains(d.GLTF.ExtensionsUsed, ext) {
			t.Errorf("extensionsUsed %v lacks %s", d.GLTF.ExtensionsUsed, ext)
		}
	}
	t.Logf("variants: %v", found)
}
