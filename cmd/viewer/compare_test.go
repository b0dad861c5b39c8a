package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// compareOutput is simulate -compare -json's schema.
type compareOutput struct {
	Engines   []string `json:"engines"`
	Threshold float64  `json:"threshold"`
	Parted    int      `json:"parted"`
	Bodies    []struct {
		Node                    int                 `json:"node"`
		Name                    string              `json:"name"`
		PositionDistance        float64             `json:"positionDistance"`
		RotationDistanceDegrees float64             `json:"rotationDistanceDegrees"`
		PartedAt                *float64            `json:"partedAt"`
		RestedAt                map[string]*float64 `json:"restedAt"`
		MaxSpeed                map[string]float64  `json:"maxSpeed"`
		Cause                   string              `json:"cause"`
	} `json:"bodies"`
}

// TestSimulateCompare: resting boxes agree within 1 cm (exit 0); a fast
// ball at a 2 cm wall tunnels through in ODE and stops in Bullet (exit 1,
// the cause named); -engine picks the engine; bad flags exit 2.
func TestSimulateCompare(t *testing.T) {
	code, out, errOut := runCLI("simulate", "-compare", "-json", "-t", "2", "../../internal/app/testdata/compare/resting_boxes.gltf")
	if code != 0 {
		t.Fatalf("resting boxes: exit %d: %s\n%s", code, errOut, out)
	}
	var got compareOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if strings.Join(got.Engines, ",") != "ode,bullet" || len(got.Bodies) != 4 || got.Parted != 0 || got.Threshold != 0.05 {
		t.Fatalf("engines %v, %d bodies, %d parted, threshold %g; want ode,bullet, 4, 0, 0.05", got.Engines, len(got.Bodies), got.Parted, got.Threshold)
	}
	for _, b := range got.Bodies {
		if b.PositionDistance > 0.01 || b.PartedAt != nil || b.Cause != "" {
			t.Errorf("%s: %.3g m apart, parted at %v, cause %q; want within 1 cm, never parted", b.Name, b.PositionDistance, b.PartedAt, b.Cause)
		}
		if b.RestedAt["ode"] == nil || b.RestedAt["bullet"] == nil || *b.RestedAt["bullet"] > 0.5 {
			t.Errorf("%s: rested at %v / %v, want both at rest within 0.5 s", b.Name, b.RestedAt["ode"], b.RestedAt["bullet"])
		}
	}

	code, out, errOut = runCLI("simulate", "-compare", "-json", "-t", "0.5", "../../internal/app/testdata/compare/thin_wall.gltf")
	if code != 1 || !strings.Contains(errOut, "1 of 1 bodies part by more than 0.05 m between ode and bullet") {
		t.Fatalf("thin wall: exit %d, stderr %q; want 1 naming the parted body", code, errOut)
	}
	got = compareOutput{}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	b := got.Bodies[0]
	// The ball crosses the wall's 2.0 m between steps of 0.42 m: first
	// apart after the fifth step (1/48 s).
	if b.PartedAt == nil || math.Abs(*b.PartedAt-5.0/240) > 1e-9 || !strings.HasPrefix(b.Cause, `tunnelling: at 1`) || !strings.Contains(b.Cause, `more than it and "thin wall" are thick (0.2 m and 0.02 m)`) {
		t.Errorf("parted at %v, cause %q; want 5 steps and tunnelling through the thin wall", b.PartedAt, b.Cause)
	}

	code, out, _ = runCLI("simulate", "-compare", "-t", "3", "../../internal/app/testdata/compare/bouncy_minimum.gltf")
	if code != 1 || !strings.Contains(out, `likely cause: restitution combine mode "minimum" on "ground"`) {
		t.Errorf("bouncy ball on a minimum ground: exit %d, want 1 naming the combine mode:\n%s", code, out)
	}

	for _, e := range []string{"ode", "bullet"} {
		code, out, errOut = runCLI("simulate", "-engine", e, "-t", "1", "../../internal/app/testdata/compare/thin_wall.gltf")
		want := map[string]string{"ode": "position (100.1000,", "bullet": "position (1.8900,"}[e]
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("-engine %s: exit %d, want the ball at %q:\n%s%s", e, code, want, out, errOut)
		}
	}
	for _, args := range [][]string{{"-engine", "havok"}, {"-compare", "-threshold", "0"}, {"-compare", "-threshold", "-1"}} {
		code, _, errOut = runCLI(append(append([]string{"simulate"}, args...), "../../internal/app/testdata/compare/thin_wall.gltf")...)
		if code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", args, code, errOut)
		}
	}
}
