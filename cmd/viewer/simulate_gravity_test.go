package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"physview/internal/report"
	"physview/internal/testcorpus"
)

// TestSimulateDefaultGravity: a file without world gravity falls under
// 9.80665 m/s² (issue 22 item 1), the output says the default was used,
// and -o writes no world gravity into the file.
func TestSimulateDefaultGravity(t *testing.T) {
	out := filepath.Join(t.TempDir(), "after.gltf")
	code, stdout, stderr := runCLI("simulate", "-json", "-t", "1", "-o", out, "testdata/sim_fall_nogravity.gltf")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Gravity        [3]float64         `json:"gravity"`
		DefaultGravity bool               `json:"defaultGravity"`
		Bodies         []report.BodyState `json:"bodies"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	if !got.DefaultGravity || got.Gravity != [3]float64{0, -9.80665, 0} {
		t.Errorf("gravity %v, defaultGravity %v; want (0, -9.80665, 0), true", got.Gravity, got.DefaultGravity)
	}
	if len(got.Bodies) != 1 {
		t.Fatalf("bodies %+v, want the ball", got.Bodies)
	}
	if drop := 10 - got.Bodies[0].Position[1]; math.Abs(drop-4.903325) > 0.01*4.903325 {
		t.Errorf("the ball dropped %g m in 1 s, want 4.903 within 1%%", drop)
	}
	if !strings.Contains(stderr, "no world gravity") {
		t.Errorf("stderr does not say the default gravity was used:\n%s", stderr)
	}
	saved, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(saved, []byte("OMI_physics_gravity")) {
		t.Errorf("the default gravity was written into the saved file:\n%s", saved)
	}
	code, text, _ := runCLI("simulate", "-t", "0", "testdata/sim_fall.gltf")
	if code != 0 || !strings.Contains(text, "gravity (0, -9.81, 0) m/s² (the file's world gravity)") {
		t.Errorf("text output for a file with world gravity (exit %d):\n%s", code, text)
	}
}

// TestSimulateBallPit: the official OMI ball_pit.gltf has no world gravity;
// its balls fall (issue 22: they hung in the air). At 0.5 s the two top
// balls, still in the air, have dropped g t²/2 = 1.226 m.
func TestSimulateBallPit(t *testing.T) {
	p := filepath.Join(testcorpus.Dir(t), "omigroup-gltf-extensions/extensions/2.0/OMI_physics_body/examples/complex/ball_pit.gltf")
	var start, end struct {
		DefaultGravity bool               `json:"defaultGravity"`
		Bodies         []report.BodyState `json:"bodies"`
	}
	for _, run := range []struct {
		t   string
		out any
	}{{"0", &start}, {"0.5", &end}} {
		code, stdout, stderr := runCLI("simulate", "-json", "-t", run.t, p)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if err := json.Unmarshal([]byte(stdout), run.out); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, stdout)
		}
	}
	if !end.DefaultGravity || len(end.Bodies) != 5 || len(start.Bodies) != 5 {
		t.Fatalf("defaultGravity %v, %d bodies; want true and the 5 balls", end.DefaultGravity, len(end.Bodies))
	}
	want := 9.80665 * 0.5 * 0.5 / 2
	airborne := 0
	for i, b := range end.Bodies {
		y0 := start.Bodies[i].Position[1]
		if y0 < 3 { // the lower balls meet the pit or each other within 0.5 s
			continue
		}
		airborne++
		if drop := y0 - b.Position[1]; math.Abs(drop-want) > 0.01*want {
			t.Errorf("%s dropped %.4g m in 0.5 s, want %.4g within 1%%", b.Name, drop, want)
		}
	}
	if airborne < 2 {
		t.Errorf("only %d balls checked in the air", airborne)
	}
}
