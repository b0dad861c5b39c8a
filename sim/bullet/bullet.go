package bullet

/*
#cgo pkg-config: bullet
#cgo CXXFLAGS: -std=c++17 -O2
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"math"
	"unsafe"
)

// Combine modes for Surface (OMI physics material combine modes); when two
// surfaces disagree, average wins, then minimum, then maximum, then
// multiply (as in sim/ode).
const (
	CombineAverage  = C.PVB_AVERAGE
	CombineMinimum  = C.PVB_MINIMUM
	CombineMultiply = C.PVB_MULTIPLY
	CombineMaximum  = C.PVB_MAXIMUM
)

// MaxDistance bounds coordinates and sizes (m), as sim/ode's binding does.
const MaxDistance = 1e6

// Surface is what contacts and filters need to know about a geom.
type Surface struct {
	Friction, Restitution               float64
	FrictionCombine, RestitutionCombine int
	// Trigger geoms report overlaps (Overlaps) and make no contacts.
	Trigger bool
	// Owner is the caller's number for a trigger (reported in Overlaps).
	Owner int
	// Category and Collide are filter bits: two geoms touch only when each
	// one's Category meets the other's Collide.
	Category, Collide uint64
	// Pass groups: two geoms that share a bit never touch.
	Pass uint64
}

// Error is an error Bullet reported (a C++ exception); the world that
// reported it is broken.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// World is a Bullet discrete dynamics world. Bodies and geoms are made and
// placed first; the Bullet objects are built when the first joint is made
// or the world first steps, after which no body or geom may be added.
type World struct {
	w       *C.pvb_world
	err     error
	nBodies int
	states  []float64
	fresh   bool
}

// NewWorld makes a world with no gravity, the given solver iterations
// (sequential impulse, split impulse on), sleeping unless noSleep, and
// contact points kept when record.
func NewWorld(iterations int, noSleep, record bool) (*World, error) {
	w := C.pvb_world_new(C.int(iterations), cbool(noSleep), cbool(record))
	if w == nil {
		return nil, errors.New("bullet: out of memory")
	}
	return &World{w: w}, nil
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

// check turns a guarded call's result into the world's sticky error.
func (w *World) check(rc C.int) error {
	if rc >= 0 {
		return nil
	}
	if w.err == nil {
		if w.w == nil {
			w.err = errors.New("bullet: the world was destroyed")
		} else {
			w.err = &Error{Msg: C.GoString(C.pvb_error(w.w))}
		}
	}
	return w.err
}

func (w *World) usable() bool { return w.w != nil && w.err == nil }

func (w *World) brokenErr() error {
	if w.err != nil {
		return w.err
	}
	return errors.New("bullet: the world was destroyed")
}

// Err returns the error that broke the world, or nil.
func (w *World) Err() error { return w.err }

// Messages returns the binding's notes since the last call.
func (w *World) Messages() (msgs []string, more int) {
	if w.w == nil {
		return nil, 0
	}
	n := int(C.pvb_nmessages(w.w))
	for i := 0; i < n; i++ {
		msgs = append(msgs, C.GoString(C.pvb_message(w.w, C.int(i))))
	}
	C.pvb_clear_messages(w.w)
	return msgs, 0
}

// Destroy frees the world and everything in it.
func (w *World) Destroy() {
	if w.w != nil {
		C.pvb_world_free(w.w)
		w.w = nil
	}
}

// SetERP sets the world's error reduction parameter (ODE's meaning, 0..1):
// how much of an overlap or joint error is corrected each step.
func (w *World) SetERP(v float64) {
	if w.usable() && v >= 0 && v <= 1 {
		w.check(C.pvb_world_param(w.w, C.PVB_W_ERP, C.double(v)))
	}
}

// SetCFM sets the world's constraint force mixing (ODE's meaning): the
// softness of contacts, an overlap of CFM × force / ERP × step at rest.
// Values above 0.5 are played as 0.5 (Bullet's joint rows diverge from 1).
func (w *World) SetCFM(v float64) {
	if w.usable() && v >= 0 && !math.IsInf(v, 0) {
		w.check(C.pvb_world_param(w.w, C.PVB_W_CFM, C.double(v)))
	}
}

// Awake returns how many dynamic bodies are awake.
func (w *World) Awake() int {
	if !w.usable() {
		return 0
	}
	return int(C.pvb_awake(w.w))
}

// Contacts returns how many contact points the last Step kept (points of
// two shapes at most 1 mm apart; triggers' overlaps are not contacts).
func (w *World) Contacts() int {
	if !w.usable() {
		return 0
	}
	return int(C.pvb_body_flags(w.w, nil, nil, 0))
}

// BodyFlags fills asleep (1 for a body Bullet has put to sleep) and
// contacts (the contact points each body had in the last step, as
// Contacts counts them), one entry per body in creation order; both must
// hold that many.
func (w *World) BodyFlags(asleep []byte, contacts []int32) {
	if !w.usable() || w.nBodies == 0 || len(asleep) < w.nBodies || len(contacts) < w.nBodies {
		return
	}
	C.pvb_body_flags(w.w, (*C.uchar)(unsafe.Pointer(&asleep[0])), (*C.int)(unsafe.Pointer(&contacts[0])), C.int(w.nBodies))
}

// Dropped returns how many pairs the last Step left out: a moving body
// already touching 32 others takes no more until some part. A body at its
// budget does not look for pairs with other moving bodies at all and
// counts as one (a lower bound in a crowd).
func (w *World) Dropped() int {
	if w.w == nil {
		return 0
	}
	return int(C.pvb_dropped_pairs(w.w))
}

// counts returns what the last Step's collision detection did: the pairs
// its broadphase search met, the contact manifolds (pairs that ran the
// narrowphase) and the broadphase pairs. For tests.
func (w *World) counts() (met, manifolds, pairs int) {
	if w.w == nil {
		return 0, 0, 0
	}
	var out [3]C.long
	C.pvb_counts(w.w, &out[0])
	return int(out[0]), int(out[1]), int(out[2])
}

// Step applies forces[3*i:3*i+3] to body i (awake dynamic bodies only),
// moves kinematic bodies by their velocities, advances dt and reads the
// states back.
func (w *World) Step(dt float64, forces []float64) error {
	if !w.usable() {
		return w.brokenErr()
	}
	var f *C.double
	if len(forces) >= 3*w.nBodies && w.nBodies > 0 {
		f = (*C.double)(unsafe.Pointer(&forces[0]))
	}
	w.grow()
	var st *C.double
	if w.nBodies > 0 {
		st = (*C.double)(unsafe.Pointer(&w.states[0]))
	}
	w.fresh = false
	if err := w.check(C.pvb_step(w.w, f, C.int(w.nBodies), C.double(dt), st)); err != nil {
		return err
	}
	w.fresh = true
	return nil
}

func (w *World) grow() {
	if cap(w.states) < 13*w.nBodies {
		w.states = make([]float64, 13*w.nBodies)
	}
	w.states = w.states[:13*w.nBodies]
}

// States returns, per body, the position of its centre of mass (3), its
// rotation as a quaternion w, x, y, z (4), linear (3) and angular (3)
// velocity. The slice is reused by the next call.
func (w *World) States() []float64 {
	if w.fresh {
		w.fresh = false
		return w.states
	}
	w.grow()
	if w.nBodies > 0 && w.usable() {
		w.check(C.pvb_read_states(w.w, (*C.double)(unsafe.Pointer(&w.states[0])), C.int(w.nBodies)))
	}
	return w.states
}

// Overlaps returns the (trigger owner, body index) pairs of the last Step.
func (w *World) Overlaps() [][2]int {
	if w.w == nil {
		return nil
	}
	n := int(C.pvb_noverlaps(w.w))
	if n == 0 {
		return nil
	}
	ov := unsafe.Slice(C.pvb_overlaps(w.w), 2*n)
	out := make([][2]int, n)
	for i := range out {
		out[i] = [2]int{int(ov[2*i]), int(ov[2*i+1])}
	}
	return out
}

// ContactPoints returns the contact positions of the last Step (when recording).
func (w *World) ContactPoints() [][3]float64 {
	if w.w == nil {
		return nil
	}
	n := int(C.pvb_npoints(w.w))
	if n == 0 {
		return nil
	}
	p := unsafe.Slice(C.pvb_points(w.w), 3*n)
	out := make([][3]float64, n)
	for i := range out {
		out[i] = [3]float64{float64(p[3*i]), float64(p[3*i+1]), float64(p[3*i+2])}
	}
	return out
}

// Speed-ups of the binding that Tune can turn off, to measure them.
const (
	// TuneNoFetch: the walks over pairs and bodies fetch nothing ahead.
	TuneNoFetch = 1 << iota
	// TuneNoShare: bodies of one shape size and surface share no shape.
	TuneNoShare
)

// Tune turns off the speed-ups in bits (TuneNoFetch, ...), for
// measurements that step worlds with and without them in one process
// (sim's TestPileAB). Set it before the first step.
func (w *World) Tune(bits uint) {
	if w.w != nil {
		C.pvb_tune(w.w, C.uint(bits))
	}
}

// RaiseForTest makes the shim throw a C++ exception (kind 2) or note a
// message (3) inside a guarded call, for tests of the guard.
func (w *World) RaiseForTest(kind int) error {
	if !w.usable() {
		return w.brokenErr()
	}
	return w.check(C.pvb_raise(w.w, C.int(kind)))
}

// BulletStepsForTest makes the world run Bullet's own solver and world
// steps where physview's replace them to go faster (fetching memory
// ahead, sleep decided without sorting the islands, Bullet's
// predictive-contact pass for every body), from the first step on, for
// tests that check the two give the same motion to the bit. It must be
// called before the first step.
func (w *World) BulletStepsForTest() error {
	if !w.usable() {
		return w.brokenErr()
	}
	return w.check(C.pvb_bullet_steps(w.w))
}

// Body is a rigid body; its position is its centre of mass.
type Body struct {
	w     *World
	Index int
}

// NewBody makes a body at the origin with unit mass.
func (w *World) NewBody() *Body {
	b := &Body{w: w, Index: -1}
	if !w.usable() {
		return b
	}
	i := C.pvb_body_new(w.w)
	if w.check(i) != nil {
		return b
	}
	b.Index = int(i)
	w.nBodies++
	return b
}

func (b *Body) set(what C.int, v ...float64) {
	if b.Index < 0 || !b.w.usable() {
		return
	}
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return // never reaches Bullet; sim checks values first
		}
	}
	b.w.fresh = false
	var a [4]C.double
	for i, x := range v {
		a[i] = C.double(x)
	}
	b.w.check(C.pvb_body_set(b.w.w, C.int(b.Index), what, &a[0]))
}

// SetPosition sets the body's centre of mass and wakes it.
func (b *Body) SetPosition(p [3]float64) { b.set(C.PVB_B_POSITION, p[:]...) }

// SetRotation sets the body's orientation (quaternion x, y, z, w).
func (b *Body) SetRotation(q [4]float64) { b.set(C.PVB_B_ROTATION, q[:]...) }

// SetLinearVel sets the velocity of the centre of mass (m/s).
func (b *Body) SetLinearVel(v [3]float64) { b.set(C.PVB_B_LINEAR_VEL, v[:]...) }

// SetAngularVel sets the angular velocity (rad/s, world axes).
func (b *Body) SetAngularVel(v [3]float64) { b.set(C.PVB_B_ANGULAR_VEL, v[:]...) }

// SetKinematic makes the body move only by its velocities.
func (b *Body) SetKinematic() { b.set(C.PVB_B_KINEMATIC) }

// SetGravityMode does nothing: the world has no gravity of its own, the
// caller applies it as forces.
func (b *Body) SetGravityMode(bool) {}

// SetMass sets the mass (kg) and the inertia tensor about the centre of
// mass (row-major 3x3, body axes). Bullet takes principal moments: the
// tensor is diagonalised and the body turned onto its principal axes
// inside the binding, invisibly to the caller.
func (b *Body) SetMass(mass float64, inertia [9]float64) error {
	if !(mass > 0) || math.IsInf(mass, 0) {
		return fmt.Errorf("mass %g must be a positive number", mass)
	}
	for _, v := range inertia {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("inertia %v is not finite", inertia)
		}
	}
	diag, q := principal(inertia)
	if !(diag[0] > 0 && diag[1] > 0 && diag[2] > 0) {
		return fmt.Errorf("inertia %v is not positive definite", inertia)
	}
	if b.Index < 0 || !b.w.usable() {
		return b.w.brokenErr()
	}
	d := [3]C.double{C.double(diag[0]), C.double(diag[1]), C.double(diag[2])}
	p := [4]C.double{C.double(q[0]), C.double(q[1]), C.double(q[2]), C.double(q[3])}
	return b.w.check(C.pvb_body_mass(b.w.w, C.int(b.Index), C.double(mass), &d[0], &p[0]))
}

// Geom is a collision shape, static or attached to a body.
type Geom struct {
	w     *World
	index int
	body  int
	pos   [3]float64
	rot   [4]float64
}

func checkSize(what string, v float64, zeroOK bool) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || (v == 0 && !zeroOK) || v > 2*MaxDistance {
		return fmt.Errorf("bullet: %s %g must be greater than 0 and at most %g", what, v, 2*MaxDistance)
	}
	return nil
}

func (w *World) newGeom(kind C.int, s Surface, p []float64, pts []float64, idx []uint32) (*Geom, error) {
	if !w.usable() {
		return nil, w.brokenErr()
	}
	var a [3]C.double
	copy3 := func() {
		for i, x := range p {
			a[i] = C.double(x)
		}
	}
	copy3()
	var cp *C.double
	var ci *C.uint
	if len(pts) > 0 {
		cp = (*C.double)(C.malloc(C.size_t(len(pts)) * 8))
		defer C.free(unsafe.Pointer(cp))
		copy(unsafe.Slice(cp, len(pts)), unsafe.Slice((*C.double)(unsafe.Pointer(&pts[0])), len(pts)))
	}
	if len(idx) > 0 {
		ci = (*C.uint)(C.malloc(C.size_t(len(idx)) * 4))
		defer C.free(unsafe.Pointer(ci))
		copy(unsafe.Slice(ci, len(idx)), unsafe.Slice((*C.uint)(unsafe.Pointer(&idx[0])), len(idx)))
	}
	sf := C.pvb_surface{friction: C.double(s.Friction), restitution: C.double(s.Restitution),
		friction_combine: C.int(s.FrictionCombine), restitution_combine: C.int(s.RestitutionCombine),
		trigger: cbool(s.Trigger), owner: C.int(s.Owner),
		category: C.uint64_t(s.Category), collide: C.uint64_t(s.Collide), pass: C.uint64_t(s.Pass)}
	i := C.pvb_geom_new(w.w, kind, &a[0], cp, C.int(len(pts)/3), ci, C.int(len(idx)), sf)
	if err := w.check(i); err != nil {
		return nil, err
	}
	return &Geom{w: w, index: int(i), body: -1, rot: [4]float64{0, 0, 0, 1}}, nil
}

// NewBox makes a box of full extents x, y, z.
func (w *World) NewBox(x, y, z float64, s Surface) (*Geom, error) {
	for i, v := range []float64{x, y, z} {
		if err := checkSize("box size "+"xyz"[i:i+1], v, false); err != nil {
			return nil, err
		}
	}
	return w.newGeom(C.PVB_BOX, s, []float64{x, y, z}, nil, nil)
}

// NewSphere makes a sphere.
func (w *World) NewSphere(r float64, s Surface) (*Geom, error) {
	if err := checkSize("sphere radius", r, false); err != nil {
		return nil, err
	}
	return w.newGeom(C.PVB_SPHERE, s, []float64{r}, nil, nil)
}

// NewCapsule makes a capsule along local Z; length is the straight part.
func (w *World) NewCapsule(r, length float64, s Surface) (*Geom, error) {
	if err := checkSize("capsule radius", r, false); err != nil {
		return nil, err
	}
	if err := checkSize("capsule height", length, true); err != nil {
		return nil, err
	}
	return w.newGeom(C.PVB_CAPSULE_Z, s, []float64{r, length}, nil, nil)
}

// NewCylinder makes a cylinder along local Z of full length.
func (w *World) NewCylinder(r, length float64, s Surface) (*Geom, error) {
	if err := checkSize("cylinder radius", r, false); err != nil {
		return nil, err
	}
	if err := checkSize("cylinder height", length, false); err != nil {
		return nil, err
	}
	return w.newGeom(C.PVB_CYLINDER_Z, s, []float64{r, length}, nil, nil)
}

func finiteWithin(what string, v []float64) error {
	for _, x := range v {
		if !(math.Abs(x) <= MaxDistance) {
			return fmt.Errorf("bullet: %s has a coordinate %g that is not a finite number within %g", what, x, float64(MaxDistance))
		}
	}
	return nil
}

// NewConvex makes the convex hull of points (x, y, z each).
func (w *World) NewConvex(points []float64, s Surface) (*Geom, error) {
	if len(points) < 12 {
		return nil, fmt.Errorf("bullet: a convex shape needs at least 4 points, has %d", len(points)/3)
	}
	if err := finiteWithin("a convex shape", points); err != nil {
		return nil, err
	}
	return w.newGeom(C.PVB_CONVEX, s, nil, points, nil)
}

// NewTriMesh makes a triangle mesh from vertices x, y, z and triangle indices.
func (w *World) NewTriMesh(vertices []float64, indices []uint32, s Surface) (*Geom, error) {
	if len(indices) < 3 || len(vertices) < 9 {
		return nil, errors.New("bullet: a triangle mesh needs at least one triangle")
	}
	if err := finiteWithin("a triangle mesh", vertices); err != nil {
		return nil, err
	}
	for _, i := range indices {
		if int(i) >= len(vertices)/3 {
			return nil, fmt.Errorf("bullet: triangle index %d is past the %d vertices", i, len(vertices)/3)
		}
	}
	return w.newGeom(C.PVB_TRIMESH, s, nil, vertices, indices)
}

func (g *Geom) place() {
	if !g.w.usable() {
		return
	}
	p := [3]C.double{C.double(g.pos[0]), C.double(g.pos[1]), C.double(g.pos[2])}
	q := [4]C.double{C.double(g.rot[0]), C.double(g.rot[1]), C.double(g.rot[2]), C.double(g.rot[3])}
	g.w.check(C.pvb_geom_place(g.w.w, C.int(g.index), C.int(g.body), &p[0], &q[0]))
}

// SetBody attaches the geom to b (nil for static).
func (g *Geom) SetBody(b *Body) {
	g.body = -1
	if b != nil {
		g.body = b.Index
	}
	g.place()
}

// SetPosition places a static geom.
func (g *Geom) SetPosition(p [3]float64) {
	g.pos = p
	g.place()
}

// SetRotation sets a static geom's orientation (quaternion x, y, z, w).
func (g *Geom) SetRotation(q [4]float64) {
	g.rot = q
	g.place()
}

// SetOffset places a geom attached to a body relative to the body.
func (g *Geom) SetOffset(p [3]float64, q [4]float64) {
	g.pos, g.rot = p, q
	g.place()
}

// NoCollide keeps body b from colliding with static geom g.
func (w *World) NoCollide(b *Body, g *Geom) error {
	if !w.usable() {
		return w.brokenErr()
	}
	if b == nil || g == nil || b.w != w || g.w != w {
		return errors.New("bullet: NoCollide needs a body and a geom of this world")
	}
	return w.check(C.pvb_no_collide(w.w, C.int(b.Index), C.int(g.index)))
}

// JointType selects the joint NewJoint makes (the free axes of sim/ode's).
type JointType int

// Joint types.
const (
	JointFixed JointType = C.PVB_FIXED
	JointBall  JointType = C.PVB_BALL
	JointHinge JointType = C.PVB_HINGE
	// JointSlider has one free linear axis.
	JointSlider    JointType = C.PVB_SLIDER
	JointUniversal JointType = C.PVB_UNIVERSAL
	JointPiston    JointType = C.PVB_PISTON
)

// Joint parameters, per axis group (ODE's meanings).
const (
	ParamLoStop  = C.PVB_LO_STOP
	ParamHiStop  = C.PVB_HI_STOP
	ParamVel     = C.PVB_VEL
	ParamFMax    = C.PVB_FMAX
	ParamStopERP = C.PVB_STOP_ERP
	ParamStopCFM = C.PVB_STOP_CFM
	ParamCFM     = C.PVB_CFM
)

// Joint is a Bullet constraint: a generic 6-DOF spring constraint
// (btGeneric6DofSpring2Constraint) with the joint type's axes free, or a
// point-to-point constraint for a ball joint.
type Joint struct {
	w     *World
	index int
	typ   JointType
}

// NewJoint makes a joint of type t between b1 and b2 (either may be nil
// for the world) at anchor, with axes axis1 and axis2 (world space); the
// axes measured are b1's relative to b2, as ODE measures them.
func (w *World) NewJoint(t JointType, b1, b2 *Body, anchor, axis1, axis2 [3]float64) (*Joint, error) {
	if t < JointFixed || t > JointPiston {
		return nil, fmt.Errorf("bullet: unknown joint type %d", t)
	}
	for _, v := range [][3]float64{anchor, axis1, axis2} {
		if err := finiteWithin("a joint frame", v[:]); err != nil {
			return nil, err
		}
	}
	if !w.usable() {
		return nil, w.brokenErr()
	}
	i1, i2 := -1, -1
	if b1 != nil {
		i1 = b1.Index
	}
	if b2 != nil {
		i2 = b2.Index
	}
	cv := func(v [3]float64) [3]C.double { return [3]C.double{C.double(v[0]), C.double(v[1]), C.double(v[2])} }
	a, x, y := cv(anchor), cv(axis1), cv(axis2)
	i := C.pvb_joint_new(w.w, C.int(t), C.int(i1), C.int(i2), &a[0], &x[0], &y[0])
	if err := w.check(i); err != nil {
		return nil, err
	}
	return &Joint{w: w, index: int(i), typ: t}, nil
}

// SetParam sets parameter p of axis group (0 or 1).
func (j *Joint) SetParam(group, p int, v float64) {
	if !j.w.usable() || math.IsNaN(v) {
		return
	}
	j.w.check(C.pvb_joint_param(j.w.w, C.int(j.index), C.int(group), C.int(p), C.double(v)))
}

// State returns the position along axis group 0 or 1 (rad or m) and its rate.
func (j *Joint) State(group int) (x, v float64) {
	if !j.w.usable() {
		return 0, 0
	}
	var cx, cv C.double
	if j.w.check(C.pvb_joint_state(j.w.w, C.int(j.index), C.int(group), &cx, &cv)) != nil {
		return 0, 0
	}
	return float64(cx), float64(cv)
}

// Angle returns a hinge's angle or a slider's position (0 for other types).
func (j *Joint) Angle() float64 {
	if j.typ != JointHinge && j.typ != JointSlider {
		return 0
	}
	x, _ := j.State(0)
	return x
}

// principal diagonalises a symmetric 3x3 tensor (Jacobi rotations): the
// principal moments and the rotation (x, y, z, w) whose columns are the
// principal axes.
func principal(m [9]float64) ([3]float64, [4]float64) {
	a := [3][3]float64{{m[0], (m[1] + m[3]) / 2, (m[2] + m[6]) / 2}, {(m[1] + m[3]) / 2, m[4], (m[5] + m[7]) / 2}, {(m[2] + m[6]) / 2, (m[5] + m[7]) / 2, m[8]}}
	v := [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	for sweep := 0; sweep < 50; sweep++ {
		off := math.Abs(a[0][1]) + math.Abs(a[0][2]) + math.Abs(a[1][2])
		if off < 1e-15*(math.Abs(a[0][0])+math.Abs(a[1][1])+math.Abs(a[2][2])) {
			break
		}
		for p := 0; p < 2; p++ {
			for q := p + 1; q < 3; q++ {
				if a[p][q] == 0 {
					continue
				}
				theta := (a[q][q] - a[p][p]) / (2 * a[p][q])
				t := math.Copysign(1, theta) / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				for k := 0; k < 3; k++ {
					akp, akq := a[k][p], a[k][q]
					a[k][p], a[k][q] = c*akp-s*akq, s*akp+c*akq
				}
				for k := 0; k < 3; k++ {
					apk, aqk := a[p][k], a[q][k]
					a[p][k], a[q][k] = c*apk-s*aqk, s*apk+c*aqk
				}
				for k := 0; k < 3; k++ {
					vkp, vkq := v[k][p], v[k][q]
					v[k][p], v[k][q] = c*vkp-s*vkq, s*vkp+c*vkq
				}
			}
		}
	}
	// A right-handed frame.
	det := v[0][0]*(v[1][1]*v[2][2]-v[1][2]*v[2][1]) - v[0][1]*(v[1][0]*v[2][2]-v[1][2]*v[2][0]) + v[0][2]*(v[1][0]*v[2][1]-v[1][1]*v[2][0])
	if det < 0 {
		for k := 0; k < 3; k++ {
			v[k][2] = -v[k][2]
		}
	}
	return [3]float64{a[0][0], a[1][1], a[2][2]}, matQuat(v)
}

// matQuat turns a rotation matrix (rows) into a quaternion x, y, z, w.
func matQuat(m [3][3]float64) [4]float64 {
	tr := m[0][0] + m[1][1] + m[2][2]
	var x, y, z, w float64
	switch {
	case tr > 0:
		s := 0.5 / math.Sqrt(tr+1)
		w, x, y, z = 0.25/s, (m[2][1]-m[1][2])*s, (m[0][2]-m[2][0])*s, (m[1][0]-m[0][1])*s
	case m[0][0] > m[1][1] && m[0][0] > m[2][2]:
		s := 2 * math.Sqrt(1+m[0][0]-m[1][1]-m[2][2])
		w, x, y, z = (m[2][1]-m[1][2])/s, 0.25*s, (m[0][1]+m[1][0])/s, (m[0][2]+m[2][0])/s
	case m[1][1] > m[2][2]:
		s := 2 * math.Sqrt(1+m[1][1]-m[0][0]-m[2][2])
		w, x, y, z = (m[0][2]-m[2][0])/s, (m[0][1]+m[1][0])/s, 0.25*s, (m[1][2]+m[2][1])/s
	default:
		s := 2 * math.Sqrt(1+m[2][2]-m[0][0]-m[1][1])
		w, x, y, z = (m[1][0]-m[0][1])/s, (m[0][2]+m[2][0])/s, (m[1][2]+m[2][1])/s, 0.25*s
	}
	return [4]float64{x, y, z, w}
}
