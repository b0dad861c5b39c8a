package sim

import (
	"fmt"

	"physview/sim/ode"
)

// The engines Options.Engine names.
const (
	// EngineODE is the Open Dynamics Engine (sim/ode), the default.
	EngineODE = "ode"
	// EngineBullet is Bullet Physics (sim/bullet).
	EngineBullet = "bullet"
)

// Engines lists the engines a Sim can run on, the default first.
var Engines = []string{EngineODE, EngineBullet}

// engine is what Sim asks of a physics engine: the vocabulary of sim/ode's
// World (bodies whose position is the centre of mass, geoms attached to a
// body at an offset or placed static, joints with ODE's parameters, one
// call that applies forces and steps), which sim/bullet's adapter
// (engine_bullet.go) plays on Bullet. Surfaces, joint types and joint
// parameters keep sim/ode's types and numbers.
type engine interface {
	Err() error
	Messages() (msgs []string, more int)
	Destroy()
	SetERP(v float64)
	SetCFM(v float64)
	SetMaxContacts(n int)
	Awake() int
	BadContacts() int
	Contacts() int
	Dropped() (pairs, contacts int)
	Step(dt float64, forces []float64) error
	States() []float64
	Overlaps() [][2]int
	ContactPoints() [][3]float64
	// BodyFlags fills, per body, whether it sleeps and how many contact
	// points it got in the last step (Play's recording).
	BodyFlags(asleep []byte, contacts []int32)
	RaiseForTest(kind int) error

	NewBody() engineBody
	NewBox(x, y, z float64, s ode.Surface) (engineGeom, error)
	NewSphere(r float64, s ode.Surface) (engineGeom, error)
	NewCapsule(r, length float64, s ode.Surface) (engineGeom, error)
	NewCylinder(r, length float64, s ode.Surface) (engineGeom, error)
	NewConvex(planes, points []float64, polygons []uint32, s ode.Surface) (engineGeom, error)
	NewTriMesh(vertices []float64, indices []uint32, s ode.Surface) (engineGeom, error)
	NewJoint(t ode.JointType, b1, b2 engineBody, anchor, axis1, axis2 [3]float64) (engineJoint, error)
	NoCollide(b engineBody, g engineGeom) error
}

// engineBody is a rigid body of an engine (ode.Body's methods).
type engineBody interface {
	SetPosition(p [3]float64)
	SetRotation(q [4]float64)
	SetLinearVel(v [3]float64)
	SetAngularVel(v [3]float64)
	SetMass(mass float64, inertia [9]float64) error
	SetKinematic()
	SetGravityMode(on bool)
}

// engineGeom is a collision shape of an engine (ode.Geom's methods).
type engineGeom interface {
	SetBody(b engineBody)
	SetPosition(p [3]float64)
	SetRotation(q [4]float64)
	SetOffset(p [3]float64, q [4]float64)
}

// engineJoint is a joint of an engine (ode.Joint's methods).
type engineJoint interface {
	SetParam(p int, v float64)
	State(group int) (x, v float64)
	Angle() float64
}

// angularMotorEngine is an engine that can limit a ball joint's turning:
// ODE's angular motor in user mode (sim/ode NewAMotor; sim/bullet's
// AMotor plays the same). Engines without it play a ball joint's angular
// limits not at all, and say so.
type angularMotorEngine interface {
	NewAMotor(b1, b2 engineBody, n int) (angularMotor, error)
}

// angularMotor is a joint whose axes the sim sets before each step: their
// directions in world space and the angles their stops bound.
type angularMotor interface {
	engineJoint
	SetAMotorAxis(i int, axis [3]float64, angle float64)
}

// engineSettings are what New gives every engine before building.
type engineSettings struct {
	iterations      int
	separationSpeed float64
	surfaceLayer    float64
	recordContacts  bool
	noSleep         bool
}

// newEngine makes the world of the engine opt.Engine names.
func newEngine(opt Options) (engine, error) {
	set := engineSettings{iterations: opt.Iterations, separationSpeed: opt.SeparationSpeed,
		surfaceLayer: ContactSurfaceLayer, recordContacts: opt.RecordContacts, noSleep: opt.NoSleep}
	switch opt.Engine {
	case "", EngineODE:
		w, err := ode.NewWorld()
		if err != nil {
			return nil, err
		}
		w.SetIterations(set.iterations)
		w.SetContactMaxCorrectingVel(set.separationSpeed)
		w.SetContactSurfaceLayer(set.surfaceLayer)
		w.SetRecordContacts(set.recordContacts)
		if set.noSleep {
			w.NoSleep()
		}
		return odeWorld{w}, nil
	case EngineBullet:
		return newBulletWorld(set)
	}
	return nil, fmt.Errorf("unknown physics engine %q (want %q or %q)", opt.Engine, EngineODE, EngineBullet)
}

// EngineName returns the engine the simulation runs on ("ode", "bullet").
func (s *Sim) EngineName() string {
	if s.opt.Engine == "" {
		return EngineODE
	}
	return s.opt.Engine
}

// engineLabel is the engine's name as prose says it ("ODE", "Bullet").
func (s *Sim) engineLabel() string {
	if s.opt.Engine == EngineBullet {
		return "Bullet"
	}
	return "ODE"
}

// odeWorld adapts *ode.World to engine: only the methods that make or take
// bodies and geoms differ (they return ode's concrete types).
type odeWorld struct{ *ode.World }

type odeGeom struct{ *ode.Geom }

func (g odeGeom) SetBody(b engineBody) {
	ob, _ := b.(*ode.Body)
	g.Geom.SetBody(ob)
}

func odeG(g *ode.Geom, err error) (engineGeom, error) {
	if err != nil {
		return nil, err
	}
	return odeGeom{g}, nil
}

func (w odeWorld) NewBody() engineBody { return w.World.NewBody() }

func (w odeWorld) NewBox(x, y, z float64, s ode.Surface) (engineGeom, error) {
	return odeG(w.World.NewBox(x, y, z, s))
}

func (w odeWorld) NewSphere(r float64, s ode.Surface) (engineGeom, error) {
	return odeG(w.World.NewSphere(r, s))
}

func (w odeWorld) NewCapsule(r, l float64, s ode.Surface) (engineGeom, error) {
	return odeG(w.World.NewCapsule(r, l, s))
}

func (w odeWorld) NewCylinder(r, l float64, s ode.Surface) (engineGeom, error) {
	return odeG(w.World.NewCylinder(r, l, s))
}

func (w odeWorld) NewConvex(planes, points []float64, polygons []uint32, s ode.Surface) (engineGeom, error) {
	return odeG(w.World.NewConvex(planes, points, polygons, s))
}

func (w odeWorld) NewTriMesh(v []float64, idx []uint32, s ode.Surface) (engineGeom, error) {
	return odeG(w.World.NewTriMesh(v, idx, s))
}

func (w odeWorld) NewJoint(t ode.JointType, b1, b2 engineBody, anchor, a1, a2 [3]float64) (engineJoint, error) {
	o1, _ := b1.(*ode.Body)
	o2, _ := b2.(*ode.Body)
	j, err := w.World.NewJoint(t, o1, o2, anchor, a1, a2)
	if err != nil {
		return nil, err
	}
	return j, nil
}

func (w odeWorld) NewAMotor(b1, b2 engineBody, n int) (angularMotor, error) {
	o1, _ := b1.(*ode.Body)
	o2, _ := b2.(*ode.Body)
	j, err := w.World.NewAMotor(o1, o2, n)
	if err != nil {
		return nil, err
	}
	return j, nil
}

func (w odeWorld) NoCollide(b engineBody, g engineGeom) error {
	ob, _ := b.(*ode.Body)
	og, _ := g.(odeGeom)
	return w.World.NoCollide(ob, og.Geom)
}
