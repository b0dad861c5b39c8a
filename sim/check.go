package sim

import (
	"errors"
	"fmt"
	"math"

	"physview/scene"
	"physview/sim/ode"
)

// The range of values a scene may give ODE. ODE works in double precision,
// but its hash space turns coordinates into integer cell numbers (cells of
// 1/16 m: a position of 1e10 m overflows them), its contact layer is 1 mm and
// its solver is tuned for bodies of centimetres to kilometres. Within
// MaxDistance of the origin every coordinate keeps 1e-10 m of resolution and
// every cell number fits; MaxSpeed moves a body 42 m in a step of 1/240 s,
// past any contact already (bullets fly at 1e3 m/s).
// The same range is what validation reports as
// OMI_VALUE_OUT_OF_ENGINE_RANGE (scene.PhysicsMaxDistance and the rest).
const (
	MaxDistance = scene.PhysicsMaxDistance // m, for positions, sizes and centres of mass
	MaxSpeed    = scene.PhysicsMaxSpeed    // m/s, and rad/s for angular velocity
	MaxMass     = scene.PhysicsMaxMass     // kg (a mountain)
	// MinScale is the smallest world scale of a node with a body or shape:
	// below it a shape is too small for the 1 mm contact layer to mean anything.
	MinScale = scene.PhysicsMinScale
)

// The binding's own checks (sizes, coordinates) use the same range.
var _ = [1]int{}[int(ode.MaxDistance-MaxDistance)+int(ode.MaxSpeed-MaxSpeed)]

// ValueError is a scene value physview refuses to give ODE: it names the
// node and the value.
type ValueError struct {
	Node int
	Name string
	// What is the value ("linear velocity", "box size", ...) and Value it.
	What  string
	Value string
	// Limit says what would be accepted.
	Limit string
}

// Error names the node, the value and the range.
func (e *ValueError) Error() string {
	return fmt.Sprintf("node %q (node %d): %s %s %s; the scene is not played", e.Name, e.Node, e.What, e.Value, e.Limit)
}

func finite(v ...float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// checkValues refuses, before anything reaches ODE, a scene with a value ODE
// cannot play: every node with a body, collider, trigger or joint must have
// a finite world transform within MaxDistance and a scale of at least
// MinScale; every motion a finite mass up to MaxMass, finite inertia,
// centre of mass and gravity factor, velocities up to MaxSpeed; every shape
// used valid (scene.Shape.Check) and, scaled, within MaxDistance.
func (s *Sim) checkValues(nodes []int) error {
	d := s.Doc
	for _, n := range nodes {
		ne := d.Nodes[n]
		if ne.Body == nil && ne.Joint == nil {
			continue
		}
		bad := func(what, value, limit string) error {
			return &ValueError{Node: n, Name: nodeName(d, n), What: what, Value: value, Limit: limit}
		}
		// The hierarchy above a physics node must end (scene breaks cycles
		// when it loads; an edit could make one again).
		depth := 0
		d.Ancestors(n, func(int) bool { depth++; return depth <= len(d.Nodes) })
		if depth > len(d.Nodes) {
			return bad("parent chain", "is a cycle", "(a node is its own ancestor)")
		}
		if s.disabled(n) {
			continue // left out of the simulation (disabled, build)
		}
		m := s.world[n]
		if !finite(m[:]...) {
			return bad("world transform", fmt.Sprint(m), "is not finite")
		}
		t, r, sc := rigid(m)
		if q := quatOf(r); !finite(q.W, q.V[0], q.V[1], q.V[2]) || sc[0]*sc[1]*sc[2] == 0 {
			return bad("world transform", fmt.Sprintf("(scale %g, %g, %g)", sc[0], sc[1], sc[2]), "is degenerate: it has no orientation (a zero scale or matrix column)")
		}
		if t.Len() > MaxDistance {
			return bad("position", fmt.Sprintf("(%g, %g, %g)", t[0], t[1], t[2]), fmt.Sprintf("is more than %g m from the origin", MaxDistance))
		}
		if ne.Body != nil && (ne.Body.Collider != nil || ne.Body.Trigger != nil) {
			for k, v := range sc {
				if v < MinScale || v > MaxDistance {
					return bad("world scale", fmt.Sprintf("%g along %c", v, "XYZ"[k]), fmt.Sprintf("must be between %g and %g", MinScale, MaxDistance))
				}
			}
		}
		if ne.Body == nil {
			continue
		}
		if mo := ne.Body.Motion; mo != nil {
			if mo.Type == scene.MotionDynamic && mo.Mass > MaxMass {
				return bad("mass", fmt.Sprintf("%g kg", mo.Mass), fmt.Sprintf("is more than %g kg", float64(MaxMass)))
			}
			for _, c := range []struct {
				what string
				v    []float64
				max  float64
				unit string
			}{
				{"linear velocity", mo.LinearVelocity[:], MaxSpeed, "m/s"},
				{"angular velocity", mo.AngularVelocity[:], MaxSpeed, "rad/s"},
				{"centre of mass", mo.CenterOfMass[:], MaxDistance, "m"},
				{"inertia", mo.InertiaDiagonal[:], MaxMass * MaxDistance, "kg·m²"},
				{"inertia orientation", mo.InertiaOrientation[:], 2, ""},
				{"gravity factor", []float64{mo.GravityFactor}, scene.PhysicsMaxGravityFactor, ""},
			} {
				l := 0.0
				for _, x := range c.v {
					l += x * x
				}
				l = math.Sqrt(l)
				if !finite(c.v...) || !(l <= c.max) {
					return bad(c.what, fmt.Sprintf("%g", c.v), fmt.Sprintf("must be finite and at most %g %s", c.max, c.unit))
				}
			}
		}
		for _, sh := range []struct {
			kind  string
			shape int
		}{{"collider", shapeOf(ne.Body.Collider)}, {"trigger", triggerShape(ne.Body.Trigger)}} {
			if sh.shape < 0 || sh.shape >= len(d.Shapes) || s.skipped(sh.shape) {
				continue
			}
			shape := s.shape(sh.shape) // sizes of 0 thickened (degenerate.go)
			// Mesh references are checked where the mesh is read (meshPoints).
			if err := shape.Check(math.MaxInt32); err != nil {
				return bad(sh.kind+" shape", fmt.Sprint(sh.shape), "is invalid: "+err.Error())
			}
			h := shape.HalfExtents()
			for k := range h {
				if v := 2 * h[k] * sc[k]; !finite(v) || v > 2*MaxDistance {
					return bad(sh.kind+" shape", fmt.Sprintf("%d (%s)", sh.shape, shapeParams(shape)), fmt.Sprintf("scaled by %g is more than %g m across", sc[k], 2*MaxDistance))
				}
			}
		}
	}
	return nil
}

func shapeOf(c *scene.Collider) int {
	if c == nil {
		return -1
	}
	return c.Shape
}

func triggerShape(t *scene.Trigger) int {
	if t == nil || t.Nodes != nil {
		return -1
	}
	return t.Shape
}

func shapeParams(sh scene.Shape) string {
	switch sh.Type {
	case scene.ShapeBox:
		return fmt.Sprintf("box %g x %g x %g", sh.Size[0], sh.Size[1], sh.Size[2])
	case scene.ShapeSphere:
		return fmt.Sprintf("sphere of radius %g", sh.Radius)
	case scene.ShapeCapsule, scene.ShapeCylinder:
		return fmt.Sprintf("%s of height %g, radii %g and %g", sh.Type, sh.Height, sh.RadiusTop, sh.RadiusBottom)
	}
	return sh.Type.String()
}

// checkRange reports a body that left the region ODE plays (MaxDistance
// from the origin) or whose speed grew past what a step can resolve.
func (s *Sim) checkRange() error {
	for _, b := range s.Bodies {
		if b.CenterOfMass.Len() > MaxDistance {
			return &RangeError{Node: b.Node, Name: b.Name, Time: s.Time, What: fmt.Sprintf("is more than %g m from the origin", MaxDistance)}
		}
		if v := b.LinearVelocity.Len(); v > 100*MaxSpeed {
			return &RangeError{Node: b.Node, Name: b.Name, Time: s.Time, What: fmt.Sprintf("moves at %.3g m/s", v)}
		}
	}
	return nil
}

// Stopped reports whether err (from Step or Run) stopped the run because a
// body left what ODE plays (a *NaNError or a *RangeError): the bodies keep
// their last finite states, which can still be reported, unlike after any
// other error.
func Stopped(err error) bool {
	var nan *NaNError
	var far *RangeError
	return errors.As(err, &nan) || errors.As(err, &far)
}

// RangeError reports a body that left the range ODE plays during the run.
type RangeError struct {
	Node int
	Name string
	Time float64
	What string
}

// Error names the body, what happened and when.
func (e *RangeError) Error() string {
	return fmt.Sprintf("body %q (node %d) %s at t = %.4g s; the run stopped there", e.Name, e.Node, e.What, e.Time)
}

// disabled reports whether node n's world scale is 0 on every axis: a
// collapsed object, as exporters write a hidden one, whose shapes
// KHR_physics_rigid_bodies reads as disabled. Its colliders, triggers,
// body and joint are left out of the simulation, said in the warnings.
func (s *Sim) disabled(n int) bool {
	m := s.world[n]
	if m.Col(0).Vec3().Len() != 0 || m.Col(1).Vec3().Len() != 0 || m.Col(2).Vec3().Len() != 0 {
		return false
	}
	s.warnf("node %q (node %d) has a scale of 0 on every axis: its physics is disabled (left out)", nodeName(s.Doc, n), n)
	return true
}
