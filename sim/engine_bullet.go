package sim

import (
	"fmt"
	"math"

	"physview/sim/bullet"
	"physview/sim/ode"
)

// BulletIterations is Bullet's solver iteration count at a step of 1/60 s
// or longer unless Options.Iterations sets one: the count Bullet and Jolt
// ship with (PhysX runs 4 position iterations, Rapier 4). The analytic
// tables hold with it, and Jolt's pyramid of 1,240 boxes still comes to
// rest and sleeps. Shorter steps take fewer (BulletStepIterations).
const BulletIterations = 10

// BulletMinIterations is the fewest iterations BulletStepIterations gives
// (PhysX's 4 position iterations).
const BulletMinIterations = 4

// BulletStepIterations is Bullet's iteration count for a step of dt
// seconds: BulletIterations × √(dt / (1/60 s)), rounded up, from
// BulletMinIterations to BulletIterations (5 at physview's default 1/240 s,
// 8 at 1/120 s). A shorter step changes each contact's impulse less, and
// the warm start (the last step's impulses) is nearer the answer, so fewer
// sweeps settle it: Jolt's pyramid played at 1/240 s comes to rest and
// sleeps as soon with 4 iterations as with 10 (0.42 s), where at 1/60 s
// it needs 10 (at 8 it never sleeps). Solver work per simulated second
// still grows as the step shrinks, as the square root of the step count.
func BulletStepIterations(dt float64) int {
	if !(dt > 0) {
		return BulletIterations
	}
	n := int(math.Ceil(BulletIterations*math.Sqrt(dt*60) - 1e-9))
	return max(BulletMinIterations, min(BulletIterations, n))
}

// bulletWorld adapts *bullet.World to engine: sim/ode's surfaces, joint
// types and joint parameters become Bullet's.
type bulletWorld struct{ *bullet.World }

func newBulletWorld(set engineSettings) (engine, error) {
	w, err := bullet.NewWorld(set.iterations, set.noSleep, set.recordContacts)
	if err != nil {
		return nil, err
	}
	return bulletWorld{w}, nil
}

type bulletGeom struct{ *bullet.Geom }

func (g bulletGeom) SetBody(b engineBody) {
	bb, _ := b.(*bullet.Body)
	g.Geom.SetBody(bb)
}

func bulletG(g *bullet.Geom, err error) (engineGeom, error) {
	if err != nil {
		return nil, err
	}
	return bulletGeom{g}, nil
}

func bulletSurface(s ode.Surface) bullet.Surface {
	mode := func(m int) int {
		switch m {
		case ode.CombineMinimum:
			return bullet.CombineMinimum
		case ode.CombineMultiply:
			return bullet.CombineMultiply
		case ode.CombineMaximum:
			return bullet.CombineMaximum
		}
		return bullet.CombineAverage
	}
	return bullet.Surface{Friction: s.Friction, Restitution: s.Restitution,
		FrictionCombine: mode(s.FrictionCombine), RestitutionCombine: mode(s.RestitutionCombine),
		Trigger: s.Trigger, Owner: s.Owner, Category: s.Category, Collide: s.Collide, Pass: s.Pass}
}

func (w bulletWorld) SetMaxContacts(int)  {}
func (w bulletWorld) BadContacts() int    { return 0 }
func (w bulletWorld) Dropped() (int, int) { return w.World.Dropped(), 0 }

func (w bulletWorld) NewBody() engineBody { return w.World.NewBody() }

func (w bulletWorld) NewBox(x, y, z float64, s ode.Surface) (engineGeom, error) {
	return bulletG(w.World.NewBox(x, y, z, bulletSurface(s)))
}

func (w bulletWorld) NewSphere(r float64, s ode.Surface) (engineGeom, error) {
	return bulletG(w.World.NewSphere(r, bulletSurface(s)))
}

func (w bulletWorld) NewCapsule(r, l float64, s ode.Surface) (engineGeom, error) {
	return bulletG(w.World.NewCapsule(r, l, bulletSurface(s)))
}

func (w bulletWorld) NewCylinder(r, l float64, s ode.Surface) (engineGeom, error) {
	return bulletG(w.World.NewCylinder(r, l, bulletSurface(s)))
}

// NewConvex takes ODE's planes, points and polygons; Bullet needs the points.
func (w bulletWorld) NewConvex(_, points []float64, _ []uint32, s ode.Surface) (engineGeom, error) {
	return bulletG(w.World.NewConvex(points, bulletSurface(s)))
}

func (w bulletWorld) NewTriMesh(v []float64, idx []uint32, s ode.Surface) (engineGeom, error) {
	return bulletG(w.World.NewTriMesh(v, idx, bulletSurface(s)))
}

func (w bulletWorld) NewJoint(t ode.JointType, b1, b2 engineBody, anchor, a1, a2 [3]float64) (engineJoint, error) {
	var bt bullet.JointType
	switch t {
	case ode.JointFixed:
		bt = bullet.JointFixed
	case ode.JointBall:
		bt = bullet.JointBall
	case ode.JointHinge:
		bt = bullet.JointHinge
	case ode.JointSlider:
		bt = bullet.JointSlider
	case ode.JointUniversal:
		bt = bullet.JointUniversal
	case ode.JointPiston:
		bt = bullet.JointPiston
	default:
		return nil, fmt.Errorf("bullet: unknown joint type %d", t)
	}
	o1, _ := b1.(*bullet.Body)
	o2, _ := b2.(*bullet.Body)
	j, err := w.World.NewJoint(bt, o1, o2, anchor, a1, a2)
	if err != nil {
		return nil, err
	}
	return bulletJoint{j}, nil
}

func (w bulletWorld) NoCollide(b engineBody, g engineGeom) error {
	bb, _ := b.(*bullet.Body)
	bg, _ := g.(bulletGeom)
	return w.World.NoCollide(bb, bg.Geom)
}

// bulletJoint takes ODE's parameter numbers (ParamGroup2 added for the
// second axis group).
type bulletJoint struct{ *bullet.Joint }

func (j bulletJoint) SetParam(p int, v float64) {
	group := 0
	if p >= ode.ParamGroup2 {
		group, p = 1, p-ode.ParamGroup2
	}
	var bp int
	switch p {
	case ode.ParamLoStop:
		bp = bullet.ParamLoStop
	case ode.ParamHiStop:
		bp = bullet.ParamHiStop
	case ode.ParamVel:
		bp = bullet.ParamVel
	case ode.ParamFMax:
		bp = bullet.ParamFMax
	case ode.ParamStopERP:
		bp = bullet.ParamStopERP
	case ode.ParamStopCFM:
		bp = bullet.ParamStopCFM
	case ode.ParamCFM:
		bp = bullet.ParamCFM
	default:
		return
	}
	j.Joint.SetParam(group, bp, v)
}
