package report

import (
	"bytes"
	"testing"
)

// TestSimulationOutput checks both forms Write chooses between: JSON writes an empty list, not
// null, when no body is dynamic, and the text has one line per body with
// the gravity's source.
func TestSimulationOutput(t *testing.T) {
	r := Simulation{Time: 1, Steps: 60, StepSize: 1.0 / 60, Gravity: [3]float64{0, -9.81, 0}, DefaultGravity: true}
	var out bytes.Buffer
	if err := r.Write(&out, true); err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"gravity\": [\n    0,\n    -9.81,\n    0\n  ],\n  \"defaultGravity\": true,\n  \"bodies\": []\n}\n"
	if out.String() != want {
		t.Errorf("JSON:\n%s\nwant:\n%s", out.String(), want)
	}
	r.DefaultGravity = false
	r.Bodies = []BodyState{{Node: 2, Name: "Ball", Position: [3]float64{0, 0.5, 0}, Rotation: [4]float64{0, 0, 0, 1}, LinearVelocity: [3]float64{0, -0.25, 0}}}
	out.Reset()
	if err := r.Write(&out, false); err != nil {
		t.Fatal(err)
	}
	want = "t = 1 s (60 steps of 0.01667 s), 1 dynamic bodies\n" +
		"gravity (0, -9.81, 0) m/s² (the file's world gravity)\n" +
		"node 2 \"Ball\": position (0.0000, 0.5000, 0.0000) rotation (0.0000, 0.0000, 0.0000, 1.0000) velocity (0.0000, -0.2500, 0.0000) angular (0.0000, 0.0000, 0.0000)\n"
	if out.String() != want {
		t.Errorf("text:\n%s\nwant:\n%s", out.String(), want)
	}
}
