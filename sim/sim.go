package sim

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"

	"physview/scene"
	"physview/scene/anim"
)

// DefaultStep is the fixed time step when Options.Step is 0: 1/240 s.
const DefaultStep = 1.0 / 240

// StandardGravity is the gravity a scene without a world gravity plays
// with (m/s², standard gravity), pulling down -Y as Godot, Unity and the
// other engines default to. It is never written into the document.
const StandardGravity = 9.80665

// MaxSeparationSpeed is the fastest (m/s) contacts push overlapping
// bodies apart (ODE's contact max correcting velocity). ODE pushes at
// ERP × depth / step, unbounded: at 1/240 s and ERP 0.2 a crate placed
// 0.5 m inside the floor leaves it at 24 m/s and keeps that speed, so a
// scene authored with overlaps (a common state: a crate half inside the
// ground, a pile of touching spheres) flew apart when played. Engines
// bound this push (PhysX's and Unity's max depenetration velocity, 10 m/s
// by default in Unity; Bullet's split impulse and Jolt move positions
// instead and add no speed at all). 1 m/s lifts a body out of a 0.5 m
// overlap in half a second and lets it hop v²/2g = 5 cm at most when it
// comes free: it looks like settling. Overlaps shallower than bound ×
// step / ERP (2 cm at 1/240 s and ERP 0.2), those of resting contacts and
// of most impacts, are corrected exactly as before. Rigid joint stops are
// bounded the same way (m/s, or rad/s for an angle): a hinge authored
// outside its limits turns into them instead of spinning in.
const MaxSeparationSpeed = 1.0

// ContactSurfaceLayer is how deep (m) contacts may overlap before they are
// pushed apart: a body resting on another sits in this layer instead of
// being pushed out and falling back each step (jitter). 1 mm is ODE's
// manual's suggestion and invisible at the scale of furniture.
const ContactSurfaceLayer = 0.001

// Options tune a simulation. The zero value is usable.
type Options struct {
	// Step is the fixed time step in seconds (DefaultStep when 0).
	Step float64
	// Iterations is the solver's iteration count, ODE QuickStep's or
	// Bullet's sequential impulse's (when 0: 20 for ODE,
	// BulletStepIterations(Step) for Bullet).
	Iterations int
	// RecordContacts keeps each step's contact points (Contacts).
	RecordContacts bool
	// NoSleep keeps every body awake. By default a body resting on
	// something sleeps (ODE's auto-disable: its velocity, averaged over
	// 10 steps, under 0.05 m/s and 0.05 rad/s for 10 steps) until
	// something touches, moves or pushes it; a body touching nothing never
	// sleeps.
	NoSleep bool
	// MaxContacts is the most contact points one step makes (the rest are
	// dropped and counted in Sim.Dropped); 0 gives 32 a body plus 1,024.
	MaxContacts int
	// SeparationSpeed bounds how fast contacts push overlapping bodies
	// apart and stops pull joints back into range (m/s or rad/s;
	// MaxSeparationSpeed when 0, +Inf for ODE's unbounded push).
	SeparationSpeed float64
	// NoDefaultGravity plays a document without a world gravity with none
	// (only its gravity fields) instead of StandardGravity down -Y.
	NoDefaultGravity bool
	// Engine is the physics engine: EngineODE ("ode", also when empty) or
	// EngineBullet ("bullet").
	Engine string
}

// Body is one dynamic or kinematic body of the simulation and its state
// after the last step, in world space.
type Body struct {
	// Node is the glTF node with the motion; Name is its name.
	Node int
	Name string
	Type scene.MotionType
	// Mass (kg) and Inertia (kg·m², about the centre of mass, in the body's
	// axes) as given to ODE.
	Mass    float64
	Inertia mgl64.Mat3
	// GravityFactor multiplies the gravity acting on the body.
	GravityFactor float64
	// Position and Rotation are the node's world pose (the node origin, not
	// the centre of mass).
	Position mgl64.Vec3
	Rotation mgl64.Quat
	// CenterOfMass is the centre of mass in world space; LinearVelocity is
	// its velocity; AngularVelocity is in rad/s about world axes.
	CenterOfMass, LinearVelocity, AngularVelocity mgl64.Vec3

	body   engineBody
	com    mgl64.Vec3   // centre of mass in node axes
	locked []mgl64.Vec3 // body axes of infinite inertia (KHR zeros)
	// freeAxis is a body axis of finite inertia; with two locked axes,
	// freeDir is the world direction it keeps.
	freeAxis, freeDir mgl64.Vec3
	// hold is the rotation a body locked about all three axes keeps.
	hold    mgl64.Quat
	holding bool
	// infiniteMass marks a KHR mass of 0 with a finite moment of inertia:
	// Mass is 0 and the body keeps its start velocity v0 from c0 (its
	// centre of mass at the start).
	infiniteMass bool
	v0, c0       mgl64.Vec3
	scale        [3]float64 // the node's local scale, kept when poses are written
}

// NaNError reports a body whose state stopped being a finite number.
type NaNError struct {
	Node int
	Name string
	Time float64
}

// Error names the body and the time.
func (e *NaNError) Error() string {
	return fmt.Sprintf("body %q (node %d) became NaN or infinite at t = %.4g s; the run stopped there", e.Name, e.Node, e.Time)
}

// DroppedContacts counts what a contact budget left out: pairs of geoms
// never collided and contacts cut off a pair.
type DroppedContacts struct{ Pairs, Contacts int }

// ErrNoBodies is returned by New for a scene with nothing that moves.
var ErrNoBodies = errors.New("the scene has no dynamic or kinematic bodies: nothing to simulate")

// Sim is an ODE world built from a copy of a document.
type Sim struct {
	// Doc is the copy the simulation plays on: Apply writes poses into its
	// nodes. The document given to New is never changed.
	Doc *scene.Document
	// Bodies are the moving bodies, parents before children.
	Bodies []*Body
	// Triggers are the base trigger nodes (a compound trigger counts once).
	Triggers []int
	// Warnings say what was approximated, and what ODE warned about
	// (dMessage) while building and stepping.
	Warnings []string
	// Dropped counts what the contact budget left out (Options.MaxContacts)
	// over the whole run; DroppedSteps is how many steps dropped any.
	Dropped      DroppedContacts
	DroppedSteps int
	// Time is the simulated time in seconds; Steps the steps taken.
	Time  float64
	Steps int

	opt      Options
	w        engine
	byNode   map[int]int // body node -> index in Bodies
	forces   []float64
	constG   *mgl64.Vec3 // the gravity everywhere, when no field exists
	world    []mgl64.Mat4
	moveGrav bool // a gravity field rides on a moving body
	inside   map[int][]int
	contacts [][3]float64
	joints   []*joint
	err      error
	// worldG is the world gravity played: the document's, or when it has
	// none a default (StandardGravity, or an XODE scene's) that is never
	// written into the document. DefaultGravity says which.
	worldG *scene.WorldGravity
	// DefaultGravity is true when the document has no world gravity and
	// the scene plays with a default one (GravityVector says which).
	DefaultGravity bool
	// pass holds each body's PyBrain pass-group bits.
	pass map[int]uint64
	// kinematic drives kinematic bodies from an animation (kinematic.go).
	kinematic *KinematicAnimation
	// erp is the world's error reduction parameter (ODE's 0.2, or an XODE
	// world's).
	erp float64
	// staticGeoms are the static colliders' geoms by node.
	staticGeoms map[int][]engineGeom
	// odeWarnings counts the ODE messages in Warnings; moreODE those left out.
	odeWarnings, moreODE int
	// warned holds the messages in Warnings (warnf).
	warned map[string]bool
	// parts are the nodes with a collider of a valid shape by the node of
	// the body they belong to, in node order (colliderNodes).
	parts map[int][]int
}

// New builds the ODE world for a copy of d. Bad input gives an error naming
// the node: a trimesh collider on a dynamic body, a mass that is not
// positive, no moving bodies at all (ErrNoBodies).
func New(d *scene.Document, opt Options) (*Sim, error) {
	if d == nil || d.GLTF == nil {
		return nil, errors.New("sim: no document")
	}
	if opt.Step <= 0 || math.IsNaN(opt.Step) {
		opt.Step = DefaultStep
	}
	if opt.Iterations <= 0 {
		opt.Iterations = 20
		if opt.Engine == EngineBullet {
			opt.Iterations = BulletStepIterations(opt.Step)
		}
	}
	if !(opt.SeparationSpeed > 0) {
		opt.SeparationSpeed = MaxSeparationSpeed
	}
	s := &Sim{Doc: d.Clone(), opt: opt, byNode: map[int]int{}, inside: map[int][]int{}, staticGeoms: map[int][]engineGeom{}, erp: 0.2}
	if err := s.build(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Close frees the ODE world. The Sim must not be stepped afterwards.
func (s *Sim) Close() {
	if s.w != nil {
		s.w.Destroy()
		s.w = nil
	}
}

// Awake returns how many bodies are awake (the rest rest on something and
// sleep; see Options.NoSleep).
func (s *Sim) Awake() int {
	if s.w == nil {
		return 0
	}
	return s.w.Awake()
}

// StepSize returns the fixed time step in seconds.
func (s *Sim) StepSize() float64 { return s.opt.Step }

func nodeName(d *scene.Document, n int) string {
	if name := d.GLTF.Nodes[n].Name; name != "" {
		return name
	}
	return fmt.Sprintf("node %d", n)
}

func (s *Sim) warnf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	// A set, not a scan of Warnings: a file can give one per node (20,000
	// disabled bodies), which a scan made quadratic.
	if s.warned == nil {
		s.warned = map[string]bool{}
	}
	if s.warned[msg] {
		return
	}
	s.warned[msg] = true
	s.Warnings = append(s.Warnings, msg)
}

func (s *Sim) build() error {
	d := s.Doc
	w, err := newEngine(s.opt)
	if err != nil {
		return err
	}
	s.w = w
	s.applyXODE()
	s.world = d.WorldMatrices()
	s.parts = nil
	nodes := d.SceneNodes()
	if err := s.checkValues(nodes); err != nil {
		return err
	}

	// Moving bodies first, parents before children.
	for _, n := range nodes {
		b := d.Nodes[n].Body
		if b == nil || b.Motion == nil || b.Motion.Type == scene.MotionStatic || s.disabled(n) {
			continue
		}
		mo := b.Motion
		typ := mo.Type
		infinite := false
		if d.PhysicsDialect().KHRBodies() && typ == scene.MotionDynamic && mo.Mass == 0 {
			// KHR_physics_rigid_bodies: "a value of zero in mass ... should
			// be understood to represent a value of infinity". A body of
			// infinite mass is moved by nothing: ODE plays it kinematic,
			// unless it has a finite moment of inertia (a wheel on a
			// fixed axle): then it stays dynamic, turning about that
			// axis, and lockMotion keeps its velocity.
			if id := mo.InertiaDiagonal; id[0] > 0 || id[1] > 0 || id[2] > 0 {
				infinite = true
				s.warnf("body %q has mass 0, which KHR_physics_rigid_bodies reads as infinite: it keeps its velocity and turns only about its axes of finite inertia", nodeName(d, n))
			} else {
				typ = scene.MotionKinematic
				s.warnf("body %q has mass 0, which KHR_physics_rigid_bodies reads as infinite: played as kinematic (it keeps its velocities)", nodeName(d, n))
			}
		}
		if typ == scene.MotionDynamic && !infinite && (!(mo.Mass > 0) || math.IsInf(mo.Mass, 0)) {
			return fmt.Errorf("dynamic body %q (node %d): mass %g must be greater than 0", nodeName(d, n), n, mo.Mass)
		}
		for _, v := range mo.InertiaDiagonal {
			if v < 0 || math.IsNaN(v) {
				return fmt.Errorf("dynamic body %q (node %d): inertia %v must not be negative", nodeName(d, n), n, mo.InertiaDiagonal)
			}
		}
		if k := anim.InstanceCount(d, n); k > 1 {
			// No physics draft says what instancing a body means.
			s.warnf("body %q has %d instances (EXT_mesh_gpu_instancing): they are drawn, the body is played once, at the node", nodeName(d, n), k)
		}
		s.byNode[n] = len(s.Bodies)
		s.Bodies = append(s.Bodies, &Body{Node: n, Name: nodeName(d, n), Type: typ, Mass: mo.Mass, GravityFactor: mo.GravityFactor, infiniteMass: infinite})
	}
	if len(s.Bodies) == 0 {
		return ErrNoBodies
	}
	s.pyBrainPassPairs()
	for _, b := range s.Bodies {
		if err := s.makeBody(b); err != nil {
			return err
		}
	}
	if err := s.makeGeoms(nodes); err != nil {
		return err
	}
	if err := s.makeJoints(nodes); err != nil {
		return err
	}
	s.setupGravity()
	if g := s.constG; g != nil && !(g.Len() <= MaxDistance) {
		return fmt.Errorf("the scene's gravity (%g, %g, %g) is not finite or more than %g m/s²; the scene is not played", g[0], g[1], g[2], MaxDistance)
	}
	s.forces = make([]float64, 3*len(s.Bodies))
	maxContacts := s.opt.MaxContacts
	if maxContacts <= 0 {
		maxContacts = 32*len(s.Bodies) + 1024
	}
	w.SetMaxContacts(maxContacts)
	s.odeMessages()
	if err := w.Err(); err != nil {
		return fmt.Errorf("building the physics world: %w", err)
	}
	s.readStates()
	s.lockMotion() // an initial spin about a locked axis too
	return nil
}

// maxODEWarnings bounds the ODE messages kept in Warnings over a run.
const maxODEWarnings = 20

// odeMessages moves ODE's warnings (dMessage) into Warnings, a bounded
// number of them.
func (s *Sim) odeMessages() {
	msgs, more := s.w.Messages()
	for _, m := range msgs {
		if s.odeWarnings >= maxODEWarnings {
			more++
			continue
		}
		n := len(s.Warnings)
		s.warnf("%s: %s", s.engineLabel(), m)
		if len(s.Warnings) > n {
			s.odeWarnings++
		}
	}
	if more > 0 {
		s.moreODE += more
		s.warnf("%s: more messages than shown", s.engineLabel())
	}
}

// applyXODE gives a scene imported from XODE what ODE would play it with:
// XODE has no gravity element, so the world gravity of PyBrain's ODE
// environment (0, -9.81, 0), which wrote the real files, unless the
// document has its own; ERP and CFM from the world element where given.
func (s *Sim) applyXODE() {
	d := s.Doc
	isXODE := false
	for _, n := range d.GLTF.Nodes {
		x := xodeExtras(n)
		if x == nil {
			continue
		}
		if x["element"] == "xode" {
			isXODE = true
		}
		if x["element"] != "world" {
			continue
		}
		attrs, _ := x["attributes"].([]any)
		for _, a := range attrs {
			kv, _ := a.([]any)
			if len(kv) != 2 {
				continue
			}
			k, _ := kv[0].(string)
			v, _ := kv[1].(string)
			var f float64
			if _, err := fmt.Sscan(v, &f); err != nil {
				continue
			}
			switch k {
			case "erp", "ERP":
				s.w.SetERP(f)
				s.erp = f
			case "cfm", "CFM":
				s.w.SetCFM(f)
			}
		}
	}
	if isXODE && d.WorldGravity == nil {
		s.worldG = &scene.WorldGravity{Gravity: 9.81, Direction: [3]float64{0, -1, 0}}
		s.DefaultGravity = true
		s.warnf("XODE has no gravity: playing with (0, -9.81, 0), the gravity of PyBrain's ODE environment")
	}
}

// chooseGravity picks the world gravity played (after applyXODE, which may
// have chosen PyBrain's): the document's, else StandardGravity down -Y
// unless Options.NoDefaultGravity.
func (s *Sim) chooseGravity() {
	if s.worldG != nil {
		return
	}
	if wg := s.Doc.WorldGravity; wg != nil {
		s.worldG = wg
		return
	}
	if s.opt.NoDefaultGravity {
		return
	}
	s.worldG = &scene.WorldGravity{Gravity: StandardGravity, Direction: [3]float64{0, -1, 0}}
	s.DefaultGravity = true
	s.warnf("the file has no world gravity: playing with %g m/s² down (-Y), the default of game engines; it is not written to the file (add one in the Physics tab to change it)", StandardGravity)
}

// GravityVector returns the world gravity the scene plays with (m/s²),
// default included; gravity fields come on top of it where they act.
func (s *Sim) GravityVector() mgl64.Vec3 { return s.worldG.Vector() }

func xodeExtras(n *gltf.Node) map[string]any {
	if n == nil {
		return nil
	}
	m, ok := n.Extras.(map[string]any)
	if !ok {
		return nil
	}
	x, _ := m["xode"].(map[string]any)
	return x
}

// rigid splits a world matrix into translation, rotation and per-axis scale.
func rigid(m mgl64.Mat4) (t mgl64.Vec3, r mgl64.Mat3, scale mgl64.Vec3) {
	t = m.Col(3).Vec3()
	for k := 0; k < 3; k++ {
		c := m.Col(k).Vec3()
		scale[k] = c.Len()
		if scale[k] > 0 {
			c = c.Mul(1 / scale[k])
		}
		r.SetCol(k, c)
	}
	return t, r, scale
}

func quatOf(r mgl64.Mat3) mgl64.Quat { return mgl64.Mat4ToQuat(r.Mat4()).Normalize() }

func xyzw(q mgl64.Quat) [4]float64 { return [4]float64{q.V[0], q.V[1], q.V[2], q.W} }

func (s *Sim) makeBody(b *Body) error {
	d := s.Doc
	mo := d.Nodes[b.Node].Body.Motion
	t, r, _ := rigid(s.world[b.Node])
	_, _, local := rigid(d.LocalMatrix(b.Node))
	b.scale = local
	b.com = mgl64.Vec3(mo.CenterOfMass)
	b.body = s.w.NewBody()
	b.body.SetPosition(t.Add(r.Mul3x1(b.com)))
	b.body.SetRotation(xyzw(quatOf(r)))
	b.body.SetLinearVel(mo.LinearVelocity)
	b.body.SetAngularVel(mo.AngularVelocity)
	b.body.SetGravityMode(false)
	if b.Type == scene.MotionKinematic {
		b.body.SetKinematic()
		return nil
	}
	if mo.InertiaDiagonal != [3]float64{} {
		q := mo.InertiaOrientation
		rq := mgl64.Quat{W: q[3], V: mgl64.Vec3{q[0], q[1], q[2]}}
		if rq.Len() == 0 {
			rq = mgl64.QuatIdent()
		}
		rm := rq.Normalize().Mat4().Mat3()
		diag := mgl64.Vec3(mo.InertiaDiagonal)
		s.zeroInertia(b, rm, &diag)
		b.Inertia = rm.Mul3(mgl64.Diag3(diag)).Mul3(rm.Transpose())
	} else {
		b.Inertia = s.shapeInertia(b)
		if mo.InertiaInfinite && s.Doc.PhysicsDialect().KHRBodies() {
			// ODE gets the colliders' inertia; lockMotion keeps the
			// body from turning at all.
			b.locked = []mgl64.Vec3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
			s.warnf("body %q: inertia [0 0 0] is infinite about every axis (a zero in KHR_physics_rigid_bodies): it never turns", b.Name)
		}
	}
	in := b.Inertia
	mass := b.Mass
	if b.infiniteMass {
		// ODE needs a finite mass: one far above every other body's, so
		// that contacts barely move it before lockMotion puts it back.
		mass = 1
		for _, o := range s.Bodies {
			mass = math.Max(mass, o.Mass)
		}
		mass *= 1e4
	}
	if err := b.body.SetMass(mass, [9]float64{in.At(0, 0), in.At(0, 1), in.At(0, 2), in.At(1, 0), in.At(1, 1), in.At(1, 2), in.At(2, 0), in.At(2, 1), in.At(2, 2)}); err != nil {
		return fmt.Errorf("dynamic body %q (node %d): %w", b.Name, b.Node, err)
	}
	return nil
}

// zeroInertia fills the zero components of a given inertia diagonal (in
// the inertia axes rm, body space), some of which are not zero. In a KHR
// document a zero is infinite ("as zero is an invalid value ... a value of
// zero ... should be understood to represent a value of infinity"): the
// body never turns about that axis (a character kept upright), which
// lockMotion enforces after every step; ODE gets the largest given
// moment there, so that its solver sees a finite, well-conditioned body.
// In an OMI document zero means "computed", as a whole [0, 0, 0] does: the
// component is the one the colliders give, as Godot fills a zero one.
func (s *Sim) zeroInertia(b *Body, rm mgl64.Mat3, diag *mgl64.Vec3) {
	if diag[0] != 0 && diag[1] != 0 && diag[2] != 0 {
		return
	}
	khr := s.Doc.PhysicsDialect().KHRBodies()
	given := *diag
	var computed mgl64.Mat3
	if !khr {
		computed = rm.Transpose().Mul3(s.shapeInertia(b)).Mul3(rm)
	}
	largest := math.Max(diag[0], math.Max(diag[1], diag[2]))
	var axes []string
	for i := range diag {
		switch {
		case diag[i] != 0:
			b.freeAxis = rm.Col(i)
		case khr:
			diag[i] = largest
			b.locked = append(b.locked, rm.Col(i))
			axes = append(axes, string(rune('X'+i)))
		default:
			diag[i] = computed.At(i, i)
		}
	}
	if khr {
		word := "axis"
		if len(axes) > 1 {
			word = "axes"
		}
		s.warnf("body %q: inertia %v is infinite about its %s %s (a zero in KHR_physics_rigid_bodies): it does not turn about them", b.Name, [3]float64(given), strings.Join(axes, " and "), word)
	}
}

// lockMotion removes the turning about the axes of infinite inertia
// (zeroInertia) that the step's contacts and joints gave. With two such
// axes the body turns only about the third, which therefore keeps its
// direction: the step's own turning of it (ODE integrates before the
// velocity is cut) is undone, so that it does not drift over a run. With
// three, the body keeps the rotation it started with. A body of infinite
// mass (infiniteMass) is put back on its straight line at its start
// velocity.
func (s *Sim) lockMotion() {
	for _, b := range s.Bodies {
		if b.infiniteMass {
			if s.Steps == 0 {
				b.c0, b.v0 = b.CenterOfMass, b.LinearVelocity
			}
			want := b.c0.Add(b.v0.Mul(s.Time))
			if b.CenterOfMass != want || b.LinearVelocity != b.v0 {
				b.CenterOfMass, b.LinearVelocity = want, b.v0
				b.Position = b.CenterOfMass.Sub(b.Rotation.Rotate(b.com))
				b.body.SetPosition(want)
				b.body.SetLinearVel(b.v0)
			}
		}
		if len(b.locked) == 0 {
			continue
		}
		w := b.AngularVelocity
		if len(b.locked) == 3 {
			if !b.holding {
				b.hold, b.holding = b.Rotation, true // at the start
			}
			if b.Rotation != b.hold {
				b.Rotation = b.hold
				b.Position = b.CenterOfMass.Sub(b.Rotation.Rotate(b.com))
				b.body.SetRotation(xyzw(b.Rotation))
			}
			w = mgl64.Vec3{}
		} else if len(b.locked) == 2 {
			if b.freeDir == (mgl64.Vec3{}) {
				b.freeDir = b.Rotation.Rotate(b.freeAxis) // at the start
			}
			if now := b.Rotation.Rotate(b.freeAxis); now.Sub(b.freeDir).Len() > 1e-12 {
				b.Rotation = mgl64.QuatBetweenVectors(now, b.freeDir).Mul(b.Rotation).Normalize()
				b.Position = b.CenterOfMass.Sub(b.Rotation.Rotate(b.com))
				b.body.SetRotation(xyzw(b.Rotation))
			}
			w = b.freeDir.Mul(w.Dot(b.freeDir))
		} else {
			axis := b.Rotation.Rotate(b.locked[0])
			w = w.Sub(axis.Mul(w.Dot(axis)))
		}
		if w.Sub(b.AngularVelocity).Len() > 1e-12 {
			b.AngularVelocity = w
			b.body.SetAngularVel(w)
		}
	}
}

// readStates copies ODE's body states into Bodies and reports the first
// body that is no longer finite.
func (s *Sim) readStates() error {
	st := s.w.States()
	for i, b := range s.Bodies {
		v := st[13*i : 13*i+13]
		for _, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return &NaNError{Node: b.Node, Name: b.Name, Time: s.Time}
			}
		}
		b.CenterOfMass = mgl64.Vec3{v[0], v[1], v[2]}
		b.Rotation = mgl64.Quat{W: v[3], V: mgl64.Vec3{v[4], v[5], v[6]}}.Normalize()
		b.LinearVelocity = mgl64.Vec3{v[7], v[8], v[9]}
		b.AngularVelocity = mgl64.Vec3{v[10], v[11], v[12]}
		b.Position = b.CenterOfMass.Sub(b.Rotation.Rotate(b.com))
	}
	return nil
}

// Step advances the simulation by one fixed step. After an error (a body
// became NaN) the simulation stays stopped and Step returns that error.
func (s *Sim) Step() error {
	if s.err != nil {
		return s.err
	}
	if s.w == nil {
		return errors.New("sim: the simulation was closed")
	}
	s.gravityForces()
	s.driveJoints()
	s.boundStops()
	s.turnJoints()
	if err := s.driveKinematic(); err != nil {
		s.err = err
		return err
	}
	stepErr := s.w.Step(s.opt.Step, s.forces)
	s.odeMessages()
	if stepErr != nil {
		s.err = fmt.Errorf("%s failed at t = %.4g s: %w; the simulation stopped and must be reset", s.engineLabel(), s.Time, stepErr)
		return s.err
	}
	s.Time += s.opt.Step
	s.Steps++
	if s.w.BadContacts() > 0 {
		s.warnf("%s's collision made contacts with no valid normal (deep overlaps of convex shapes): they were skipped", s.engineLabel())
	}
	if pairs, contacts := s.w.Dropped(); pairs+contacts > 0 {
		s.Dropped.Pairs += pairs
		s.Dropped.Contacts += contacts
		s.DroppedSteps++
	}
	if err := s.readStates(); err != nil {
		s.err = err
		return err
	}
	s.lockMotion()
	if err := s.checkRange(); err != nil {
		s.err = err
		return err
	}
	clear(s.inside)
	for _, ov := range s.w.Overlaps() {
		if ov[1] < 0 {
			continue
		}
		list := s.inside[ov[0]]
		if !containsInt(list, ov[1]) {
			s.inside[ov[0]] = append(list, ov[1])
		}
	}
	for _, l := range s.inside {
		sort.Ints(l)
	}
	if s.opt.RecordContacts {
		s.contacts = s.w.ContactPoints()
	}
	return nil
}

func containsInt(l []int, v int) bool {
	for _, x := range l {
		if x == v {
			return true
		}
	}
	return false
}

// Run steps until Time reaches t seconds (a step that would pass t by less
// than half a step is still taken).
func (s *Sim) Run(t float64) error {
	for s.Time+s.opt.Step/2 < t {
		if err := s.Step(); err != nil {
			return err
		}
	}
	return nil
}

// Inside returns the indices (into Bodies) of the bodies inside base
// trigger node n after the last step.
func (s *Sim) Inside(n int) []int { return s.inside[n] }

// Contacts returns the contact points of the last step (Options.RecordContacts).
func (s *Sim) Contacts() [][3]float64 { return s.contacts }

// Energy returns the kinetic energy of the dynamic bodies plus their
// potential energy in the world gravity (J), for watching a scene gain or
// lose energy. Gravity fields are not included in the potential.
func (s *Sim) Energy() float64 {
	g := s.worldG.Vector()
	e := 0.0
	for _, b := range s.Bodies {
		if b.Type != scene.MotionDynamic {
			continue
		}
		e += 0.5 * b.Mass * b.LinearVelocity.Dot(b.LinearVelocity)
		r := b.Rotation.Mat4().Mat3()
		wl := r.Transpose().Mul3x1(b.AngularVelocity)
		e += 0.5 * wl.Dot(b.Inertia.Mul3x1(wl))
		e -= b.Mass * b.GravityFactor * g.Dot(b.CenterOfMass)
	}
	return e
}

// BodyIndex returns the index in Bodies of the body moving node n, or -1.
func (s *Sim) BodyIndex(n int) int {
	if i, ok := s.byNode[s.Doc.BodyNode(n)]; ok {
		return i
	}
	return -1
}

// Apply writes every body's pose into its node in Doc (translation and
// rotation relative to the parent, the node's scale kept), so Doc's world
// matrices show the simulated scene. It returns the nodes it changed.
func (s *Sim) Apply() []int {
	d := s.Doc
	out := make([]int, 0, len(s.Bodies))
	for _, b := range s.Bodies {
		world := mgl64.Translate3D(b.Position[0], b.Position[1], b.Position[2]).Mul4(b.Rotation.Mat4())
		if p := d.Parent(b.Node); p >= 0 {
			world = d.WorldMatrix(p).Inv().Mul4(world)
		}
		t, r, _ := rigid(world)
		q := quatOf(r)
		// Through an edit like any other change, so saving writes it.
		tr := scene.Transform{Translation: [3]float64{t[0], t[1], t[2]}, Rotation: xyzw(q), Scale: b.scale}
		if _, err := scene.Apply(d, scene.SetNodeTransform{Node: b.Node, Transform: tr, Label: "Simulated pose"}); err != nil {
			continue
		}
		out = append(out, b.Node)
	}
	return out
}
