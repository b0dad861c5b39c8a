package sim

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
	"physview/scene/anim"
)

// platformScene: a kinematic 4 x 0.2 x 4 platform at the origin, animated
// along X by travel metres over 2 s (CUBICSPLINE, zero tangents: it eases
// in and out), and a 0.2 m dynamic box resting on it. khr writes the
// platform as a KHR_physics_rigid_bodies kinematic body instead of OMI's.
func platformScene(t *testing.T, travel float64, khr bool) *scene.Document {
	t.Helper()
	var buf bytes.Buffer
	for _, v := range []float32{0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, float32(travel), 0, 0, 0, 0, 0} {
		binary.Write(&buf, binary.LittleEndian, v)
	}
	uri := "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
	platform := `"OMI_physics_body": {"motion": {"type": "kinematic"}, "collider": {"shape": 0}}`
	used := `"OMI_physics_shape", "OMI_physics_body", "OMI_physics_gravity"`
	exts := `"OMI_physics_shape": {"shapes": [{"type": "box", "box": {"size": [4, 0.2, 4]}}, {"type": "box", "box": {"size": [0.2, 0.2, 0.2]}}]}`
	boxBody := `"OMI_physics_body": {"motion": {"type": "dynamic", "mass": 1}, "collider": {"shape": 1}}`
	if khr {
		used = `"KHR_implicit_shapes", "KHR_physics_rigid_bodies", "OMI_physics_gravity"`
		exts = `"KHR_implicit_shapes": {"shapes": [{"type": "box", "box": {"size": [4, 0.2, 4]}}, {"type": "box", "box": {"size": [0.2, 0.2, 0.2]}}]}`
		platform = `"KHR_physics_rigid_bodies": {"motion": {"isKinematic": true}, "collider": {"geometry": {"shape": 0}}}`
		boxBody = `"KHR_physics_rigid_bodies": {"motion": {"mass": 1}, "collider": {"geometry": {"shape": 1}}}`
	}
	js := fmt.Sprintf(`{"asset": {"version": "2.0"}, "extensionsUsed": [%s],
 "extensions": {%s, "OMI_physics_gravity": {"gravity": 9.81, "direction": [0, -1, 0]}},
 "scene": 0, "scenes": [{"nodes": [0, 1]}],
 "nodes": [{"name": "platform", "extensions": {%s}},
  {"name": "box", "translation": [0, 0.2, 0], "extensions": {%s}}],
 "buffers": [{"byteLength": %d, "uri": %q}],
 "bufferViews": [{"buffer": 0, "byteLength": 8}, {"buffer": 0, "byteOffset": 8, "byteLength": 72}],
 "accessors": [{"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [2]},
  {"bufferView": 1, "componentType": 5126, "count": 6, "type": "VEC3"}],
 "animations": [{"channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}],
  "samplers": [{"input": 0, "output": 1, "interpolation": "CUBICSPLINE"}]}]}`, used, exts, platform, boxBody, buf.Len(), uri)
	d, err := scene.Decode([]byte(js), nil)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return d
}

// TestKinematicPlatformCarriesBox: the animated kinematic platform moves
// along X and the box resting on it is carried the same distance (within
// 1% of the travel); the platform's velocity is the animation's.
func TestKinematicPlatformCarriesBox(t *testing.T) {
	for _, tc := range []struct {
		name   string
		travel float64
		khr    bool
	}{{"OMI 1 m", 1, false}, {"OMI 3 m", 3, false}, {"KHR 2 m", 2, true}} {
		t.Run(tc.name, func(t *testing.T) {
			d := platformScene(t, tc.travel, tc.khr)
			m := anim.NewModel(d)
			if len(m.Problems) > 0 {
				t.Fatal(m.Problems)
			}
			s, err := New(d, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			moves := m.Moves(0)
			s.AnimateKinematic(&KinematicAnimation{
				World: func(tt float64) []mgl64.Mat4 { return m.Pose(0, tt).World },
				Moves: func(n int) bool { return n < len(moves) && moves[n] },
			})
			pi, bi := s.BodyIndex(0), s.BodyIndex(1)
			if pi < 0 || bi < 0 || s.Bodies[pi].Type != scene.MotionKinematic {
				t.Fatalf("bodies %d %d", pi, bi)
			}
			box0 := s.Bodies[bi].Position
			if err := s.Run(1); err != nil {
				t.Fatal(err)
			}
			// Halfway the platform moves at the spline's peak speed:
			// d/dt travel (3u^2 - 2u^3) at u = 0.5 over 2 s = 0.75 travel / s.
			if v := s.Bodies[pi].LinearVelocity[0]; math.Abs(v-0.75*tc.travel) > 0.01*tc.travel {
				t.Errorf("platform speed at 1 s: %g, want %g", v, 0.75*tc.travel)
			}
			if err := s.Run(2.5); err != nil {
				t.Fatal(err)
			}
			plat := s.Bodies[pi].Position
			if math.Abs(plat[0]-tc.travel) > 1e-6 {
				t.Errorf("platform at x = %g, want %g", plat[0], tc.travel)
			}
			moved := s.Bodies[bi].Position.Sub(box0)
			if math.Abs(moved[0]-tc.travel) > 0.01*tc.travel || math.Abs(moved[2]) > 0.01*tc.travel {
				t.Errorf("box moved %v, want (%g, 0, 0) within 1%%", moved, tc.travel)
			}
		})
	}
}

// stepScene: platformScene's platform and box, the platform's animation a
// STEP from the origin to jump at 0.5 s.
func stepScene(t *testing.T, jump mgl64.Vec3) *scene.Document {
	return keyScene(t, jump, "STEP", 0, 0.5)
}

// keyScene is stepScene with the platform's two keys at times t0 and t1
// and the given interpolation.
func keyScene(t *testing.T, jump mgl64.Vec3, interpolation string, t0, t1 float32) *scene.Document {
	t.Helper()
	var buf bytes.Buffer
	for _, v := range []float32{t0, t1, 0, 0, 0, float32(jump[0]), float32(jump[1]), float32(jump[2])} {
		binary.Write(&buf, binary.LittleEndian, v)
	}
	uri := "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
	js := fmt.Sprintf(`{"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body", "OMI_physics_gravity"],
 "extensions": {"OMI_physics_shape": {"shapes": [{"type": "box", "box": {"size": [4, 0.2, 4]}}, {"type": "box", "box": {"size": [0.2, 0.2, 0.2]}}]},
  "OMI_physics_gravity": {"gravity": 9.81, "direction": [0, -1, 0]}},
 "scene": 0, "scenes": [{"nodes": [0, 1]}],
 "nodes": [{"name": "platform", "extensions": {"OMI_physics_body": {"motion": {"type": "kinematic"}, "collider": {"shape": 0}}}},
  {"name": "box", "translation": [0, 0.2, 0], "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic", "mass": 1}, "collider": {"shape": 1}}}}],
 "buffers": [{"byteLength": %d, "uri": %q}],
 "bufferViews": [{"buffer": 0, "byteLength": 8}, {"buffer": 0, "byteOffset": 8, "byteLength": 24}],
 "accessors": [{"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [%g], "max": [%g]},
  {"bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC3"}],
 "animations": [{"channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}],
  "samplers": [{"input": 0, "output": 1, "interpolation": %q}]}]}`, buf.Len(), uri, t0, t1, interpolation)
	d, err := scene.Decode([]byte(js), nil)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return d
}

// TestKinematicJump: a kinematic body whose animation jumps (a STEP key)
// is put where it jumps to, not driven there at the speed of one step:
// a 1 m jump up (240 m/s over a step) no longer launches the box resting on
// the platform, which comes out of the platform it is now inside at the
// separation speed; a 100 m jump along X (24,000 m/s, past what ODE is
// given) no longer stops Play, and the box falls where the platform was.
func TestKinematicJump(t *testing.T) {
	for _, jump := range []mgl64.Vec3{{0, 1, 0}, {100, 0, 0}} {
		t.Run(fmt.Sprint(jump), func(t *testing.T) {
			d := stepScene(t, jump)
			s := animatedSim(t, d)
			if err := s.Run(1); err != nil {
				t.Fatalf("Play stopped: %v", err)
			}
			pi, bi := s.BodyIndex(0), s.BodyIndex(1)
			if p := s.Bodies[pi].Position; p.Sub(jump).Len() > 1e-6 {
				t.Errorf("platform at %v, want %v", p, jump)
			}
			box := s.Bodies[bi]
			if v := box.LinearVelocity.Len(); v > 6 || math.Abs(box.Position[0]) > 0.1 || box.Position[1] > 2 {
				t.Errorf("the box is at %v at %.3g m/s: the jump flung it", box.Position, v)
			}
		})
	}
}

// TestKinematicTurnJump: a kinematic wall whose animation turns it at once
// (a STEP rotation key) about its centre, which does not move, is turned
// there, not spun at the step's speed (126 rad/s for 30°): a box touching
// it 1.5 m from the axis was hit at 190 m/s. A LINEAR turn is still
// driven at its speed.
func TestKinematicTurnJump(t *testing.T) {
	for _, c := range []struct {
		deg    float64
		interp string
	}{{30, "STEP"}, {90, "STEP"}, {90, "LINEAR"}} {
		deg := c.deg
		t.Run(fmt.Sprint(deg, c.interp), func(t *testing.T) {
			q := mgl64.QuatRotate(mgl64.DegToRad(deg), mgl64.Vec3{0, 1, 0})
			var buf bytes.Buffer
			for _, v := range []float32{0, 0.5, 0, 0, 0, 1, float32(q.V[0]), float32(q.V[1]), float32(q.V[2]), float32(q.W)} {
				binary.Write(&buf, binary.LittleEndian, v)
			}
			uri := "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())
			js := fmt.Sprintf(`{"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body", "OMI_physics_gravity"],
 "extensions": {"OMI_physics_shape": {"shapes": [{"type": "box", "box": {"size": [4, 1, 0.2]}}, {"type": "box", "box": {"size": [0.2, 0.2, 0.2]}}]},
  "OMI_physics_gravity": {"gravity": 0, "direction": [0, -1, 0]}},
 "scene": 0, "scenes": [{"nodes": [0, 1]}],
 "nodes": [{"name": "wall", "extensions": {"OMI_physics_body": {"motion": {"type": "kinematic"}, "collider": {"shape": 0}}}},
  {"name": "box", "translation": [1.5, 0, -0.2], "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic", "mass": 1}, "collider": {"shape": 1}}}}],
 "buffers": [{"byteLength": %d, "uri": %q}],
 "bufferViews": [{"buffer": 0, "byteLength": 8}, {"buffer": 0, "byteOffset": 8, "byteLength": 32}],
 "accessors": [{"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [0.5]},
  {"bufferView": 1, "componentType": 5126, "count": 2, "type": "VEC4"}],
 "animations": [{"channels": [{"sampler": 0, "target": {"node": 0, "path": "rotation"}}],
  "samplers": [{"input": 0, "output": 1, "interpolation": %q}]}]}`, buf.Len(), uri, c.interp)
			d, err := scene.Decode([]byte(js), nil)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			s := animatedSim(t, d)
			pi, bi := s.BodyIndex(0), s.BodyIndex(1)
			if c.interp == "LINEAR" {
				if err := s.Run(0.25); err != nil {
					t.Fatalf("Play stopped: %v", err)
				}
				want := mgl64.DegToRad(deg) / 0.5
				if w := s.Bodies[pi].AngularVelocity; math.Abs(w[1]-want) > 1e-4 { // float32 keys
					t.Errorf("a LINEAR turn at %v rad/s, want (0, %.6g, 0)", w, want)
				}
				return
			}
			if err := s.Run(1); err != nil {
				t.Fatalf("Play stopped: %v", err)
			}
			if r := s.Bodies[pi].Rotation; math.Abs(r.Dot(q)) < 1-1e-6 {
				t.Errorf("wall turned to %v, want %v", r, q)
			}
			box := s.Bodies[bi]
			if v := box.LinearVelocity.Len(); v > 20 {
				t.Errorf("the box is at %v at %.3g m/s: the turn flung it", box.Position, v)
			}
		})
	}
}

// TestKinematicStartsMidStep: a platform whose LINEAR animation starts
// inside a step (at 0.1035 s, late in the step from 0.1 s; 2 m/s along X) is driven by its velocity in
// that step, not put in place as a jump (half a step on it has not moved
// yet, as a jump would not have): slow motions never count as jumps.
func TestKinematicStartsMidStep(t *testing.T) {
	d := keyScene(t, mgl64.Vec3{2, 0, 0}, "LINEAR", 0.1035, 1.1035)
	s := animatedSim(t, d)
	pi := s.BodyIndex(0)
	moving := false
	for s.Time < 0.11 {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		x, v := s.Bodies[pi].Position[0], s.Bodies[pi].LinearVelocity[0]
		if x > 0 && v <= 0 {
			t.Fatalf("at %.4f s the platform is at x = %g with no velocity: put in place, not driven", s.Time, x)
		}
		moving = moving || v > 0
	}
	if !moving {
		t.Error("the platform never moved")
	}
}

// animatedSim builds d's simulation, closed at the end of the test, with
// its kinematic bodies following d's first animation.
func animatedSim(t *testing.T, d *scene.Document) *Sim {
	t.Helper()
	m := anim.NewModel(d)
	if len(m.Problems) > 0 {
		t.Fatal(m.Problems)
	}
	s, err := New(d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	world, moves := m.Driver(0)
	s.AnimateKinematic(&KinematicAnimation{World: world, Moves: moves})
	return s
}
