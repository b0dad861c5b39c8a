package sim

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"testing"

	"physview/scene"
	"physview/sim/bullet"
	"physview/sim/ode"
)

// fuzzDoc is a small scene whose physics values the fuzzer chooses: a
// static ground box and a dynamic body of one shape (kind%4: box, sphere,
// capsule, cylinder) with size a, b, c, under a parent node with
// translation t, rotation q (x, y, z, w as given: the loader normalizes
// it) and scale s, with mass m, linear velocity v and angular
// velocity w, and world gravity g.
func fuzzDoc(kind uint8, a, b, c, m, vx, vy, vz, wy, tx, ty, tz, qx, qw, sx, sy, sz, g float64) string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	var shape string
	switch kind % 4 {
	case 0:
		shape = fmt.Sprintf(`{"type": "box", "box": {"size": [%s, %s, %s]}}`, f(a), f(b), f(c))
	case 1:
		shape = fmt.Sprintf(`{"type": "sphere", "sphere": {"radius": %s}}`, f(a))
	case 2:
		shape = fmt.Sprintf(`{"type": "capsule", "capsule": {"radiusTop": %s, "radiusBottom": %s, "height": %s}}`, f(a), f(b), f(c))
	case 3:
		shape = fmt.Sprintf(`{"type": "cylinder", "cylinder": {"radiusTop": %s, "radiusBottom": %s, "height": %s}}`, f(a), f(b), f(c))
	}
	return fmt.Sprintf(`{"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body", "OMI_physics_gravity"],
	"extensions": {"OMI_physics_shape": {"shapes": [{"type": "box", "box": {"size": [20, 1, 20]}}, %s]},
		"OMI_physics_gravity": {"gravity": %s, "direction": [0, -1, 0]}},
	"scene": 0, "scenes": [{"nodes": [0, 1]}],
	"nodes": [
		{"name": "ground", "translation": [0, -0.5, 0], "extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}},
		{"name": "parent", "translation": [%s, %s, %s], "rotation": [%s, 0, 0, %s], "scale": [%s, %s, %s], "children": [2]},
		{"name": "body", "translation": [0, 1, 0], "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic", "mass": %s,
			"linearVelocity": [%s, %s, %s], "angularVelocity": [0, %s, 0]}, "collider": {"shape": 1}}}}
	]}`, shape, f(g), f(tx), f(ty), f(tz), f(qx), f(qw), f(sx), f(sy), f(sz), f(m), f(vx), f(vy), f(vz), f(wy))
}

// engineError reports an error an engine itself raised (ODE's checks, a
// C++ exception inside Bullet), not one of sim's own refusals.
func engineError(err error) bool {
	var oe *ode.Error
	var be *bullet.Error
	return errors.As(err, &oe) || errors.As(err, &be)
}

// FuzzSimBuild feeds scene values chosen by the fuzzer (shape sizes,
// masses, velocities, transforms, gravity) through the physics build and
// 10 steps, in every engine. Nothing may abort the process (ODE's checks
// and Bullet's exceptions come back as errors); and a scene New accepts
// must not make an engine report an error: the value checks must refuse
// what the engines cannot take.
func FuzzSimBuild(f *testing.F) {
	f.Add(uint8(0), 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 9.81)
	f.Add(uint8(1), 0.5, 0.5, 0.5, 2.0, 1e30, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 9.81)
	f.Add(uint8(2), -1.0, -1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1e30, 1e30, 1e30, 9.81)
	f.Add(uint8(0), 0.0, -1e308, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1e10, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 9.81)
	f.Add(uint8(3), 0.3, 0.1, 2.0, 1e-9, 0.0, 5e3, 0.0, 9e3, 0.0, 9e5, 0.0, 0.0, 1.0, 1e-5, 3.0, 1.0, 1e5)
	f.Add(uint8(2), 0.25, 0.25, 0.0, 1e12, 0.0, -1e4, 0.0, -1e4, -9e5, 0.0, 9e5, 0.0, 1.0, 1.0, 1e-6, 1.0, -9.81)
	f.Add(uint8(0), 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 9.81)
	f.Add(uint8(1), 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1e300, 1e-300, 1.0, 1.0, 1.0, 9.81)
	f.Fuzz(func(t *testing.T, kind uint8, a, b, c, m, vx, vy, vz, wy, tx, ty, tz, qx, qw, sx, sy, sz, g float64) {
		for _, x := range []float64{a, b, c, m, vx, vy, vz, wy, tx, ty, tz, qx, qw, sx, sy, sz, g} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return // not in JSON
			}
		}
		d, err := scene.Decode([]byte(fuzzDoc(kind, a, b, c, m, vx, vy, vz, wy, tx, ty, tz, qx, qw, sx, sy, sz, g)), nil)
		if err != nil {
			return
		}
		for _, eng := range Engines {
			s, err := New(d, Options{Engine: eng})
			if err != nil {
				if engineError(err) {
					t.Fatalf("%s: building gave an engine error (a value got past the checks): %v", eng, err)
				}
				continue
			}
			for i := 0; i < 10; i++ {
				if err := s.Step(); err != nil {
					if engineError(err) {
						t.Fatalf("%s: step %d: engine error on an accepted scene: %v", eng, i, err)
					}
					break
				}
			}
			s.Close()
		}
	})
}
