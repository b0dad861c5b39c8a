package scene

import (
	"fmt"
	"math"
)

// The range of physics values an engine handles in double precision
// (physview/sim refuses to play a scene outside it; validation reports it
// as OMI_VALUE_OUT_OF_ENGINE_RANGE). Within PhysicsMaxDistance of the origin
// a coordinate keeps 1e-10 m of resolution and ODE's hash space cell
// numbers fit in an int; a speed of PhysicsMaxSpeed moves a body 42 m in a
// step of 1/240 s, past any contact.
const (
	PhysicsMaxDistance = 1e6  // m: positions, centres of mass, half sizes
	PhysicsMaxSpeed    = 1e4  // m/s and rad/s
	PhysicsMaxMass     = 1e12 // kg
	PhysicsMinScale    = 1e-6 // the smallest world scale of a shape node
	// PhysicsMaxGravityFactor bounds a motion's gravityFactor.
	PhysicsMaxGravityFactor = 1e6
)

// validatePhysicsRange reports the values of node n's body that no engine
// plays: its world position and scale and its motion's mass, inertia,
// centre of mass, velocities and gravity factor, and its shapes' sizes
// under its world scale.
func (d *Document) validatePhysicsRange(n int, b *Body, path string, fs *findings, pp physicsPaths) {
	code := pp.code("VALUE_OUT_OF_ENGINE_RANGE")
	node := fmt.Sprintf("/nodes/%d", n)
	m := d.vcache.world(d, n)
	if norm(m[0:3]) == 0 && norm(m[4:7]) == 0 && norm(m[8:11]) == 0 {
		// Scaled by 0 on every axis: disabled (KHR_physics_rigid_bodies),
		// left out of the engines, not out of their range.
		return
	}
	t := [3]float64{m[12], m[13], m[14]}
	if l := norm(t[:]); !(l <= PhysicsMaxDistance) {
		fs.errorf(code, node, "%s with a physics body is at (%g, %g, %g), more than %g m from the origin: physics engines cannot play it", d.nodeRef(n), t[0], t[1], t[2], float64(PhysicsMaxDistance))
	}
	if b.Collider != nil || b.Trigger != nil {
		for k := 0; k < 3; k++ {
			if s := norm(m[4*k : 4*k+3]); !(s >= PhysicsMinScale && s <= PhysicsMaxDistance) {
				fs.errorf(code, node, "%s has a world scale of %g along %c; a shape node's scale must be between %g and %g for a physics engine", d.nodeRef(n), s, "XYZ"[k], PhysicsMinScale, float64(PhysicsMaxDistance))
				break
			}
		}
		for _, s := range []int{shapeIndex(b)} {
			if s < 0 || s >= len(d.Shapes) {
				continue
			}
			h := d.Shapes[s].HalfExtents()
			for k := 0; k < 3; k++ {
				if v := 2 * h[k] * norm(m[4*k:4*k+3]); !(v <= 2*PhysicsMaxDistance) && !math.IsNaN(v) {
					fs.errorf(code, node, "shape %d on node %d is %g m across (scaled), more than %g m: physics engines cannot play it", s, n, v, 2*PhysicsMaxDistance)
					break
				}
			}
		}
	}
	mo := b.Motion
	if mo == nil {
		return
	}
	for _, c := range []struct {
		key  string
		v    []float64
		max  float64
		unit string
	}{
		{"mass", []float64{mo.Mass}, PhysicsMaxMass, "kg"},
		{"linearVelocity", mo.LinearVelocity[:], PhysicsMaxSpeed, "m/s"},
		{"angularVelocity", mo.AngularVelocity[:], PhysicsMaxSpeed, "rad/s"},
		{"centerOfMass", mo.CenterOfMass[:], PhysicsMaxDistance, "m"},
		{"inertiaDiagonal", mo.InertiaDiagonal[:], PhysicsMaxMass * PhysicsMaxDistance, "kg·m²"},
		{"gravityFactor", []float64{mo.GravityFactor}, PhysicsMaxGravityFactor, ""},
	} {
		if l := norm(c.v); !(l <= c.max) {
			var v any = c.v
			if len(c.v) == 1 {
				v = c.v[0]
			}
			fs.errorf(code, path+"/motion/"+c.key, "%s %g is more than %g %s: physics engines cannot play it", c.key, v, c.max, c.unit)
		}
	}
}

func shapeIndex(b *Body) int {
	switch {
	case b.Collider != nil:
		return b.Collider.Shape
	case b.Trigger != nil && b.Trigger.Nodes == nil:
		return b.Trigger.Shape
	}
	return -1
}

func norm(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x * x
	}
	return math.Sqrt(s)
}
