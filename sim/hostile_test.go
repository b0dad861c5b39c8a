package sim

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"physview/scene"
)

// hostileDoc is a glTF file with a static ground and one dynamic body
// "victim" (node 1) whose node and motion carry the given JSON, shape 1
// given by shape.
func hostileDoc(nodeJSON, motionJSON, shape string) string {
	if motionJSON != "" {
		motionJSON = ", " + motionJSON
	}
	if nodeJSON != "" {
		nodeJSON = ", " + nodeJSON
	}
	return fmt.Sprintf(`{"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body"],
	"extensions": {"OMI_physics_shape": {"shapes": [{"type": "box", "box": {"size": [20, 1, 20]}}, %s]}},
	"scene": 0, "scenes": [{"nodes": [0, 1]}],
	"nodes": [
		{"name": "ground", "translation": [0, -0.5, 0], "extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}},
		{"name": "victim", "translation": [0, 2, 0]%s, "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic", "mass": 1%s}, "collider": {"shape": 1}}}}
	]}`, shape, nodeJSON, motionJSON)
}

// TestHostileValues: each hostile value of issue 24 (which used to abort
// the process inside ODE) gives an error naming the node and the value,
// in this process.
func TestHostileValues(t *testing.T) {
	unit := sphere(0.5)
	for _, tc := range []struct {
		name, node, motion, shape string
		want                      string
	}{
		{"velocity 1e30", "", `"linearVelocity": [1e30, 0, 0]`, unit, `node "victim" (node 1): linear velocity [1e+30 0 0] must be finite and at most 10000 m/s`},
		{"angular velocity 1e30", "", `"angularVelocity": [0, -1e30, 0]`, unit, `angular velocity [0 -1e+30 0]`},
		{"scale 1e30", `"scale": [1e30, 1e30, 1e30]`, "", unit, `node "victim" (node 1): world scale 1e+30 along X must be between 1e-06 and 1e+06`},
		{"scale 0", `"scale": [1, 0, 1]`, "", unit, `world transform (scale 1, 0, 1) is degenerate`},
		{"scale 1e-9", `"scale": [1e-9, 1e-9, 1e-9]`, "", unit, `world scale 1e-09 along X must be between`},
		{"matrix with a zero column", `"matrix": [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 2, 0, 1]`, "", unit, `node "victim" (node 1): world transform (scale 0, 1, 1) is degenerate`},
		{"translation 1e10", `"translation": [1e10, 0, 0]`, "", unit, `node "victim" (node 1): position (1e+10, 0, 0) is more than 1e+06 m from the origin`},
		{"box size 0", "", "", box(0, 1, 1), `node "victim" (node 1): collider shape 1 is invalid: box size x must be greater than 0`},
		{"capsule radius -1", "", "", `{"type": "capsule", "capsule": {"radius": -1, "height": 1}}`, `node "victim" (node 1): collider shape 1 is invalid: capsule`},
		{"box size [0, -1e308, 0]", "", "", `{"type": "box", "box": {"size": [0, -1e308, 0]}}`, `node "victim" (node 1): collider shape 1 is invalid: box size x`},
		{"box size 1e300", "", "", box(1e300, 1, 1), `node "victim" (node 1): collider shape 1 (box 1e+300 x 1 x 1) scaled by 1 is more than 2e+06 m across`},
		{"mass 1e300", "", `"mass": 1e300`, unit, `node "victim" (node 1): mass 1e+300 kg is more than 1e+12 kg`},
		{"centre of mass 1e20", "", `"centerOfMass": [0, 1e20, 0]`, unit, `centre of mass [0 1e+20 0]`},
		{"inertia 1e300", "", `"inertiaDiagonal": [1e300, 1e300, 1e300]`, unit, `node "victim" (node 1): inertia [1e+300 1e+300 1e+300]`},
		{"gravity factor 1e300", "", `"gravityFactor": 1e300`, unit, `gravity factor [1e+300]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := scene.Decode([]byte(hostileDoc(tc.node, tc.motion, tc.shape)), nil)
			if err != nil {
				t.Fatal(err)
			}
			s, err := New(d, Options{})
			if err == nil {
				defer s.Close()
				t.Fatalf("New accepted the scene, want an error containing %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v\nwant one containing %q", err, tc.want)
			}
			var ve *ValueError
			if errors.As(err, &ve) && ve.Node != 1 {
				t.Errorf("the error names node %d, want 1", ve.Node)
			}
		})
	}
}

// TestHostileCycle: a file whose nodes are each other's children (a cycle
// the loader breaks, with a NODE_LOOP finding) builds and steps, or is
// refused with an error: never an abort.
func TestHostileCycle(t *testing.T) {
	doc := `{"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body"],
	"extensions": {"OMI_physics_shape": {"shapes": [{"type": "sphere", "sphere": {"radius": 0.5}}]}},
	"scene": 0, "scenes": [{"nodes": [0]}],
	"nodes": [
		{"name": "a", "translation": [0, 1, 0], "children": [1], "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}, "collider": {"shape": 0}}}},
		{"name": "b", "translation": [0, 1, 0], "children": [0], "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}, "collider": {"shape": 0}}}}
	]}`
	d, err := scene.Decode([]byte(doc), nil)
	if err != nil {
		t.Fatal(err)
	}
	loop := false
	for _, f := range d.Findings() {
		loop = loop || f.Code == "NODE_LOOP"
	}
	if !loop {
		t.Errorf("no NODE_LOOP finding for the cycle")
	}
	s, err := New(d, Options{})
	if err != nil {
		t.Logf("refused: %v", err)
		return
	}
	defer s.Close()
	for i := 0; i < 10; i++ {
		if err := s.Step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
}

// TestODEErrorStopsRun: an error ODE reports while the world runs (here
// raised through its debug handler, as a failed internal check would) stops
// the simulation with the message, for good, in this process; ODE's
// messages become warnings.
func TestODEErrorStopsRun(t *testing.T) {
	s := newSim(t, tscene{shapes: []string{sphere(0.5)}, gravity: earth,
		nodes: []tnode{{name: "ball", t: [3]float64{0, 5, 0}, ext: dynamic(1, 0, "")}}}, Options{})
	if err := s.Run(0.1); err != nil {
		t.Fatal(err)
	}
	if err := s.w.RaiseForTest(3); err != nil {
		t.Fatal(err)
	}
	if err := s.w.RaiseForTest(2); err == nil {
		t.Fatal("the raised error did not come back")
	}
	err := s.Step()
	if err == nil || !strings.Contains(err.Error(), "ODE failed at t = 0.1 s: ODE internal error 8: raised for a test (2); the simulation stopped") {
		t.Fatalf("Step after an ODE error: %v", err)
	}
	if again := s.Step(); again == nil || again.Error() != err.Error() {
		t.Errorf("the next Step gave %v, want the same error", again)
	}
	found := false
	for _, w := range s.Warnings {
		found = found || w == "ODE: a message for a test (3)"
	}
	if !found {
		t.Errorf("warnings %q lack ODE's message", s.Warnings)
	}
	s.Close() // a broken world still closes
}
