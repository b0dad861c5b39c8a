package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// TestEditJointThenSimulate: `viewer edit` hinges the door to the post
// (limit 0..90 degrees, which gravity pushes it past), then `viewer
// simulate -json` reports the joint resting on its 90 degree stop.
func TestEditJointThenSimulate(t *testing.T) {
	src, err := os.ReadFile("../../internal/app/testdata/joints/bodies.gltf")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "bodies.gltf")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := cmdEdit([]string{file, "joint", "door", "post", "hinge", "axis=0,0,-1", "pivot=0.05,2.05,0", "limit=0,90"}, &out); err != nil {
		t.Fatalf("edit: %v\n%s", err, out.String())
	}
	out.Reset()
	var errs bytes.Buffer
	if err := cmdSimulate([]string{"-t", "5", "-json", file}, &out, &errs); err != nil {
		t.Fatalf("simulate: %v\n%s", err, errs.String())
	}
	var r struct {
		Joints []struct {
			Node     int      `json:"node"`
			Name     string   `json:"name"`
			Type     string   `json:"type"`
			Angle    *float64 `json:"angle"`
			Position *float64 `json:"position"`
		} `json:"joints"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if len(r.Joints) != 1 {
		t.Fatalf("joints %+v", r.Joints)
	}
	j := r.Joints[0]
	if j.Node != 9 || j.Name != "door hinge joint" || j.Type != "hinge" || j.Angle == nil || j.Position != nil || math.Abs(*j.Angle-90) > 1 {
		t.Errorf("joint %+v (angle %v), want node 9 \"door hinge joint\", a hinge at 90 degrees", j, *j.Angle)
	}
}
