package main

import (
	"bytes"
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
// type, a compound collider, a compound trigger, every gravity type, a joint
// and at least two variants.
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
}
