package sim

import (
	"strings"
	"testing"
)

// TestWarningsNameTheEngine: the warnings a scene gets when it is built
// name the engine that plays it, never the other: a material with two
// friction coefficients, a tapered cylinder; a cone joint, which both
// engines play, gets no warning in either.
func TestWarningsNameTheEngine(t *testing.T) {
	cone := `{"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}, {"angularAxes": [0, 2], "min": 0, "max": 0.5}]}`
	ts := tscene{
		shapes:    []string{box(10, 1, 10), `{"type": "cylinder", "cylinder": {"radiusTop": 0.2, "radiusBottom": 0.4, "height": 1}}`, sphere(0.1)},
		materials: []string{`{"staticFriction": 0.8, "dynamicFriction": 0.5}`},
		joints:    []string{cone},
		gravity:   earth,
		nodes: []tnode{
			{name: "ground", t: [3]float64{0, -0.5, 0}, ext: static(0, `, "physicsMaterial": 0`)},
			{name: "cup", t: [3]float64{0, 1, 0}, ext: dynamic(1, 1, "")},
			{name: "bob", t: [3]float64{3, 1, 0}, children: []int{3}, ext: dynamic(1, 2, "")},
			{name: "pin", t: [3]float64{0, 1, 0}, ext: `"OMI_physics_joint": {"joint": 0, "connectedNode": 4}`},
			{name: "anchor", t: [3]float64{3, 2, 0}, ext: `"OMI_physics_body": {"motion": {"type": "static"}}`},
		},
	}
	cases := []struct {
		engine, label, other string
		want                 []string
	}{
		{EngineODE, "ODE", "Bullet", []string{"ODE has one friction coefficient", "ODE has no tapered shapes"}},
		{EngineBullet, "Bullet", "ODE", []string{"Bullet has one friction coefficient", "Bullet has no tapered shapes"}},
	}
	for _, tc := range cases {
		t.Run(tc.engine, func(t *testing.T) {
			s := newSim(t, ts, Options{Engine: tc.engine})
			all := strings.Join(s.Warnings, "\n")
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("no warning %q in:\n%s", w, all)
				}
			}
			if strings.Contains(all, tc.other) {
				t.Errorf("a warning names %s while %s plays:\n%s", tc.other, tc.label, all)
			}
			if strings.Contains(all, "pin") {
				t.Errorf("%s warns about the cone joint it plays:\n%s", tc.label, all)
			}
		})
	}
}
