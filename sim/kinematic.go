package sim

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// KinematicAnimation makes kinematic bodies follow an animation: World(t)
// gives every node's world matrix at time t (an anim.Pose's World), Moves
// says which nodes the animation moves (animated nodes and their
// descendants). Kinematic bodies on other nodes keep their own velocities.
type KinematicAnimation struct {
	World func(t float64) []mgl64.Mat4
	Moves func(node int) bool
}

// AnimateKinematic drives the simulation's kinematic bodies on moved nodes
// by k from now on (nil stops): they are placed at the pose of the current
// time at once, and before each step their linear and angular velocities
// are set so that the step ends at the pose of the step's end, so dynamic
// bodies touching them are pushed and carried with those velocities.
func (s *Sim) AnimateKinematic(k *KinematicAnimation) {
	s.kinematic = k
	if k == nil || s.w == nil {
		return
	}
	world := k.World(s.Time)
	for _, b := range s.Bodies {
		if !s.animated(b) || b.Node >= len(world) {
			continue
		}
		t, r, _ := rigid(world[b.Node])
		if p := t.Add(r.Mul3x1(b.com)); !finite(p[:]...) || p.Len() > MaxDistance {
			s.err = &RangeError{Node: b.Node, Name: b.Name, Time: s.Time, What: fmt.Sprintf("is animated to (%g, %g, %g), outside what %s plays (%g m)", p[0], p[1], p[2], s.engineLabel(), MaxDistance)}
			return
		}
		b.body.SetPosition(t.Add(r.Mul3x1(b.com)))
		b.body.SetRotation(xyzw(quatOf(r)))
		b.body.SetLinearVel([3]float64{})
		b.body.SetAngularVel([3]float64{})
	}
	s.readStates()
}

func (s *Sim) animated(b *Body) bool {
	return b.Type == scene.MotionKinematic && s.kinematic != nil && s.kinematic.Moves != nil && s.kinematic.Moves(b.Node)
}

// driveKinematic sets the animated kinematic bodies' velocities for the
// next step (the hook Step calls before stepping ODE), or puts a body where
// its animation jumps to.
func (s *Sim) driveKinematic() error {
	if s.kinematic == nil {
		return nil
	}
	dt := s.opt.Step
	world := s.kinematic.World(s.Time + dt)
	var mid []mgl64.Mat4 // the pose half a step on, made when needed
	for _, b := range s.Bodies {
		if !s.animated(b) || b.Node >= len(world) {
			continue
		}
		t, r, _ := rigid(world[b.Node])
		q := quatOf(r)
		com := t.Add(r.Mul3x1(b.com))
		v := com.Sub(b.CenterOfMass).Mul(1 / dt)
		// The turn from the current to the target orientation, as an
		// angular velocity over one step.
		dq := q.Mul(b.Rotation.Conjugate()).Normalize()
		if dq.W < 0 {
			dq = dq.Scale(-1)
		}
		var w mgl64.Vec3
		angle := 0.0
		if s := dq.V.Len(); s > 1e-12 {
			angle = 2 * math.Atan2(s, dq.W)
			w = dq.V.Mul(angle / s / dt)
		}
		if !finite(com[:]...) || !finite(q.V[0], q.V[1], q.V[2], q.W) || com.Len() > MaxDistance {
			return &RangeError{Node: b.Node, Name: b.Name, Time: s.Time,
				What: fmt.Sprintf("is animated to (%g, %g, %g), outside what %s plays (%g m)", com[0], com[1], com[2], s.engineLabel(), MaxDistance)}
		}
		// A jump (a STEP key, an animation starting over) is not a speed:
		// driven by velocity the body would fling what it carries at
		// thousands of m/s for a step. Half a step on, a motion is near
		// the middle of its step and a jump at one end; so is a turn (a
		// STEP rotation key turns the body about its centre of mass, which
		// does not move, and spun at the step's speed it hit what touched
		// it at hundreds of m/s).
		jump := !finite(v[:]...) || !finite(w[:]...) || v.Len() > MaxSpeed || w.Len() > MaxSpeed
		// Below minJumpSpeed a jump driven as a speed harms nothing, and an
		// animation that starts or stops inside a step (which the half-step
		// test would also take for a jump) keeps its velocity.
		move := com.Sub(b.CenterOfMass).Len()
		fast, turnsFast := move > minJumpSpeed*dt, angle > minJumpSpeed*dt
		if !jump && (fast || turnsFast) {
			if mid == nil {
				mid = s.kinematic.World(s.Time + dt/2)
			}
			mt, mr, _ := rigid(mid[b.Node])
			half := b.CenterOfMass.Add(com).Mul(0.5)
			jump = fast && mt.Add(mr.Mul3x1(b.com)).Sub(half).Len() > 0.25*move
			if !jump && turnsFast {
				halfTurn := mgl64.QuatSlerp(b.Rotation, q, 0.5)
				jump = quatAngle(quatOf(mr), halfTurn) > 0.25*angle
			}
		}
		if jump {
			b.body.SetPosition(com)
			b.body.SetRotation(xyzw(q))
			v, w = mgl64.Vec3{}, mgl64.Vec3{}
		}
		b.body.SetLinearVel(v)
		b.body.SetAngularVel(w)
	}
	return nil
}

// minJumpSpeed is the speed (m/s, and rad/s for turns) below which an
// animated kinematic body is always driven by velocity.
const minJumpSpeed = 5

// quatAngle is the angle (radians, 0 to π) of the turn from a to b.
func quatAngle(a, b mgl64.Quat) float64 {
	d := math.Abs(a.Dot(b))
	return 2 * math.Acos(math.Min(1, d))
}
