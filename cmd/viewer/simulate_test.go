package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"physview/internal/report"
	"physview/scene"
)

type simOutput struct {
	Bodies []report.BodyState `json:"bodies"`
}

func TestSimulateJSON(t *testing.T) {
	code, out, errOut := runCLI("simulate", "-json", "-t", "1", "testdata/sim_fall.gltf")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got simOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	// Only the dynamic ball is listed; it falls g t²/2 (4.905 m, Euler adds 0.4%).
	if len(got.Bodies) != 1 || got.Bodies[0].Node != 0 || got.Bodies[0].Name != "ball" {
		t.Fatalf("bodies = %+v, want the ball (node 0) only", got.Bodies)
	}
	b := got.Bodies[0]
	if drop := 10 - b.Position[1]; math.Abs(drop-4.905) > 0.01*4.905 {
		t.Errorf("the ball dropped %g m, want 4.905 within 1%%", drop)
	}
	if v := b.LinearVelocity[1]; math.Abs(v+9.81) > 0.01*9.81 {
		t.Errorf("vertical velocity %g, want -9.81", v)
	}
	if b.Rotation[3] != 1 {
		t.Errorf("rotation %v, want identity", b.Rotation)
	}
}

func TestSimulateText(t *testing.T) {
	code, out, errOut := runCLI("simulate", "-t", "3", "-dt", "0.005", "testdata/sim_fall.gltf")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// After 3 s the ball rests on the floor: its centre 0.5 m above y = 0,
	// less the 1 mm contact surface layer ODE lets it sink.
	for _, want := range []string{"t = 3 s (600 steps of 0.005 s), 1 dynamic bodies", `node 0 "ball": position (0.0000, 0.4990, 0.0000)`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestSimulateWritesPoses(t *testing.T) {
	out := filepath.Join(t.TempDir(), "after.gltf")
	if code, _, errOut := runCLI("simulate", "-t", "0.5", "-o", out, "testdata/sim_fall.gltf"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	d, err := scene.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	ball, floor, spinner := d.GLTF.Nodes[0], d.GLTF.Nodes[1], d.GLTF.Nodes[2]
	if y := ball.Translation[1]; math.Abs(y-(10-0.5*9.81*0.25)) > 0.02 {
		t.Errorf("ball saved at y = %g, want about %g", y, 10-0.5*9.81*0.25)
	}
	if floor.Translation != [3]float64{0, -0.5, 0} {
		t.Errorf("the static floor moved to %v", floor.Translation)
	}
	// The kinematic spinner turned 0.5 rad about Y in place.
	if a := 2 * math.Asin(spinner.Rotation[1]); math.Abs(a-0.5) > 0.005 || spinner.Translation != [3]float64{5, 1, 0} {
		t.Errorf("spinner at %v turned %g rad, want (5, 1, 0) and 0.5 rad", spinner.Translation, a)
	}
	if ex, ok := ball.Extras.(map[string]any); !ok || ex["kept"] != true {
		t.Errorf("the ball's extras were not kept: %v", ball.Extras)
	}
}

func TestSimulateBadScenes(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"no bodies", []string{"simulate", "testdata/sim_nobody.gltf"}, 1, "testdata/sim_nobody.gltf: the scene has no dynamic or kinematic bodies"},
		{"zero mass", []string{"simulate", "testdata/sim_zero_mass.gltf"}, 1, `dynamic body "ghost" (node 0): mass 0 must be greater than 0`},
		{"bad step", []string{"simulate", "-dt", "0", "testdata/sim_fall.gltf"}, 2, "-dt 0 must be greater than 0"},
		{"missing file", []string{"simulate", "testdata/nope.gltf"}, 2, "nope.gltf"},
		{"no file", []string{"simulate"}, 2, "needs one FILE"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, errOut := runCLI(c.args...)
			if code != c.code || !strings.Contains(errOut, c.err) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut, c.code, c.err)
			}
		})
	}
}
