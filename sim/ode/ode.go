// Package ode is a thin cgo binding to the Open Dynamics Engine (Debian's
// libode 0.16, double precision): worlds, bodies, geoms, joints and a step
// whose collision callback runs in C. Only physview/sim imports it.
//
// Every object is owned by the World it was made in; World.Destroy frees
// them all. Methods on a destroyed world or its objects must not be called.
//
// ODE aborts the process when one of its checks fails (dError, dDebug). The
// binding installs handlers that turn such a failure into a Go error
// instead: every call into ODE goes through a C entry point that the
// handler jumps back to. After such an error the world is broken: Err
// returns the error, every later call does nothing, and Step returns it.
// ODE's warnings (dMessage) are kept for Messages, never printed.
package ode

/*
#cgo pkg-config: ode
#cgo LDFLAGS: -lm
#include <ode/ode.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collide.h"

static void pv_flush_stdout(void) { fflush(stdout); }
*/
import "C"

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"unsafe"
)

var initOnce sync.Once

func initODE() {
	initOnce.Do(func() {
		C.dInitODE2(0)
		C.pv_install_handlers()
	})
}

// Combine modes for Surface (OMI physics material combine modes); when two
// surfaces disagree, average wins, then minimum, then maximum, then multiply.
const (
	CombineAverage  = C.PV_AVERAGE
	CombineMinimum  = C.PV_MINIMUM
	CombineMultiply = C.PV_MULTIPLY
	CombineMaximum  = C.PV_MAXIMUM
)

// The range the binding gives ODE (physview/sim explains the choice):
// coordinates and sizes within MaxDistance metres, speeds up to MaxSpeed.
const (
	MaxDistance = 1e6
	MaxSpeed    = 1e4
)

// MaxContactsPerPair is the most contact points one pair of geoms makes in
// a step.
const MaxContactsPerPair = C.PV_MAX_CONTACTS

// Surface is what the collision callback needs to know about a geom.
type Surface struct {
	Friction, Restitution               float64
	FrictionCombine, RestitutionCombine int
	// Trigger geoms report overlaps (Overlaps) and make no contacts.
	Trigger bool
	// Owner is the caller's number for the geom (reported back in Overlaps).
	Owner int
	// Category and Collide are filter bits: two geoms touch only when each
	// one's Category meets the other's Collide.
	Category, Collide uint64
	// Pass groups: two geoms that share a bit never touch (PyBrain's passpairs).
	Pass uint64
}

// Error is an error ODE reported (its dError or dDebug); the world that
// reported it is broken.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// World is an ODE world with one hash space and a contact joint group.
type World struct {
	ctx     *C.pv_ctx
	bodies  []C.dBodyID // C memory mirror kept by cBodies
	cBodies *C.dBodyID
	cCap    int
	nBodies int
	allocs  []unsafe.Pointer
	tmeshes []C.dTriMeshDataID
	owners  []int
	states  []float64
	err     error
	fresh   bool // states were read by the last Step
}

// NewWorld makes a world with zero gravity, ODE's default ERP (0.2) and CFM
// (1e-5), 20 QuickStep iterations, a 1 mm contact surface layer, resting
// bodies put to sleep (ODE's auto-disable) and at most 65,536 contacts a
// step (SetMaxContacts).
func NewWorld() (*World, error) {
	initODE()
	ctx := C.pv_ctx_new()
	if ctx == nil {
		return nil, errors.New("ode: out of memory")
	}
	w := &World{ctx: ctx}
	if ctx.broken != 0 {
		err := w.check(-1)
		C.pv_ctx_free(ctx)
		return nil, err
	}
	return w, nil
}

// check turns a guarded call's result into the world's sticky error.
func (w *World) check(rc C.int) error {
	if rc == 0 {
		return nil
	}
	if w.err == nil {
		w.err = &Error{Msg: C.GoString(&w.ctx.error[0])}
	}
	return w.err
}

// Err returns the ODE error that broke the world, or nil.
func (w *World) Err() error { return w.err }

// usable reports whether calls may still reach ODE.
func (w *World) usable() bool { return w.ctx != nil && w.err == nil }

// Messages returns ODE's warnings (dMessage) since the last call, each once,
// and how many more there were past the ones kept.
func (w *World) Messages() (msgs []string, more int) {
	if w.ctx == nil {
		return nil, 0
	}
	n := int(w.ctx.nmessages)
	for i := 0; i < n; i++ {
		msgs = append(msgs, C.GoString(&w.ctx.messages[i][0]))
	}
	more = int(w.ctx.more_messages)
	w.ctx.nmessages, w.ctx.more_messages = 0, 0
	return msgs, more
}

// Destroy frees the world and everything in it (of a broken world, what ODE
// still lets go).
func (w *World) Destroy() {
	if w.ctx == nil {
		return
	}
	// A broken world is destroyed as far as ODE lets it; when ODE fails
	// on the way, what its geoms may still point at is left allocated.
	if C.pv_ctx_free(w.ctx) == 0 {
		for _, t := range w.tmeshes {
			C.dGeomTriMeshDataDestroy(t)
		}
		for _, p := range w.allocs {
			C.free(p)
		}
	}
	if w.cBodies != nil {
		C.free(unsafe.Pointer(w.cBodies))
	}
	*w = World{}
}

func (w *World) set(what C.int, v ...float64) {
	if !w.usable() {
		return
	}
	var a [4]C.double
	for i, x := range v {
		a[i] = C.double(x)
	}
	w.check(C.pv_world_set(w.ctx, what, &a[0]))
}

// SetGravity sets ODE's own world gravity (m/s²).
func (w *World) SetGravity(x, y, z float64) { w.set(C.PV_W_GRAVITY, x, y, z) }

// SetERP and SetCFM set the world's error reduction parameter and
// constraint force mixing.
func (w *World) SetERP(v float64) { w.set(C.PV_W_ERP, v) }

// SetCFM sets the world's constraint force mixing.
func (w *World) SetCFM(v float64) { w.set(C.PV_W_CFM, v) }

// SetIterations sets the QuickStep iteration count.
func (w *World) SetIterations(n int) { w.set(C.PV_W_ITERATIONS, float64(n)) }

// SetContactMaxCorrectingVel bounds the speed (m/s) at which a contact
// pushes overlapping bodies apart (ODE's default is unbounded: the push
// grows with the depth, ERP × depth / step). Infinity lifts the bound.
func (w *World) SetContactMaxCorrectingVel(v float64) {
	if math.IsNaN(v) || v < 0 {
		return
	}
	w.set(C.PV_W_MAX_CORRECTING_VEL, v)
}

// SetContactSurfaceLayer sets how deep (m) contacts may overlap before
// ODE pushes them apart: resting contacts sit in that layer instead of
// being pushed out and falling back every step.
func (w *World) SetContactSurfaceLayer(d float64) {
	if math.IsNaN(d) || d < 0 || math.IsInf(d, 0) {
		return
	}
	w.set(C.PV_W_SURFACE_LAYER, d)
}

// NoSleep keeps every body awake (ODE's auto-disable off); call it before
// making bodies.
func (w *World) NoSleep() { w.set(C.PV_W_NO_SLEEP) }

// SetMaxContacts sets the most contact joints one step makes (at least 1);
// the contacts past it are dropped and counted (Dropped).
func (w *World) SetMaxContacts(n int) {
	if w.ctx == nil {
		return
	}
	w.ctx.max_step = C.int(max(1, min(n, math.MaxInt32)))
}

// Dropped returns what the last Step left out to stay within the contact
// budget: pairs of geoms not collided at all, and contacts of a pair cut off.
// Contacts returns how many contacts it made.
func (w *World) Dropped() (pairs, contacts int) {
	if w.ctx == nil {
		return 0, 0
	}
	return int(w.ctx.dropped_pairs), int(w.ctx.dropped_contacts)
}

// Awake returns how many bodies are awake: ODE steps only those; resting
// ones sleep until something touches or moves them.
func (w *World) Awake() int {
	if !w.usable() || w.nBodies == 0 {
		return 0
	}
	return int(C.pv_awake(w.cBodies, C.int(w.nBodies)))
}

// BodyFlags fills asleep (1 for a body ODE has put to sleep) and contacts
// (the contact points each body got in the last collision pass), one entry
// per body in creation order; both must hold that many.
func (w *World) BodyFlags(asleep []byte, contacts []int32) {
	if !w.usable() || w.nBodies == 0 || len(asleep) < w.nBodies || len(contacts) < w.nBodies {
		return
	}
	C.pv_body_flags(w.ctx, w.cBodies, C.int(w.nBodies), (*C.uchar)(unsafe.Pointer(&asleep[0])), (*C.int)(unsafe.Pointer(&contacts[0])))
}

// StepTimes returns the CPU seconds all Steps so far spent in collision
// and in the solver.
func (w *World) StepTimes() (collide, solve float64) {
	if w.ctx == nil {
		return 0, 0
	}
	return float64(w.ctx.collide_time), float64(w.ctx.solve_time)
}

// BadContacts returns how many contacts ODE's colliders made with a NaN or
// zero normal or depth, over all Steps: they are skipped, not made.
func (w *World) BadContacts() int {
	if w.ctx == nil {
		return 0
	}
	return int(w.ctx.bad_contacts)
}

// Contacts returns how many contact joints the last Step made.
func (w *World) Contacts() int {
	if w.ctx == nil {
		return 0
	}
	return int(w.ctx.ncontacts)
}

// SetRecordContacts turns recording of contact points on or off.
func (w *World) SetRecordContacts(on bool) {
	if w.ctx == nil { // destroyed
		return
	}
	w.ctx.record_points = 0
	if on {
		w.ctx.record_points = 1
	}
}

// Step applies forces[3*i:3*i+3] to body i (in the order the bodies were
// made; bodies asleep get none), collides, advances dt with QuickStep,
// clears the contacts and reads the states back, all in one C call. An error
// means ODE failed: the world is broken.
func (w *World) Step(dt float64, forces []float64) error {
	if !w.usable() {
		if w.err != nil {
			return w.err
		}
		return errors.New("ode: the world was destroyed")
	}
	var f *C.double
	if len(forces) >= 3*w.nBodies && w.nBodies > 0 {
		f = (*C.double)(unsafe.Pointer(&forces[0]))
	}
	w.growStates()
	var st *C.double
	if w.nBodies > 0 {
		st = (*C.double)(unsafe.Pointer(&w.states[0]))
	}
	w.fresh = false
	if err := w.check(C.pv_step(w.ctx, w.cBodies, f, C.int(w.nBodies), C.double(dt), st)); err != nil {
		return err
	}
	w.fresh = true
	return nil
}

func (w *World) growStates() {
	if cap(w.states) < 13*w.nBodies {
		w.states = make([]float64, 13*w.nBodies)
	}
	w.states = w.states[:13*w.nBodies]
}

// States returns, per body, position (3), quaternion w, x, y, z (4), linear
// (3) and angular (3) velocity, in one slice of 13 numbers a body. The slice
// is reused by the next call.
func (w *World) States() []float64 {
	if w.fresh {
		w.fresh = false
		return w.states
	}
	w.growStates()
	if w.nBodies > 0 && w.usable() {
		C.pv_read_states(w.cBodies, (*C.double)(unsafe.Pointer(&w.states[0])), C.int(w.nBodies))
	}
	return w.states
}

// Overlaps returns the (trigger owner, other owner) pairs found by the last Step.
func (w *World) Overlaps() [][2]int {
	if w.ctx == nil { // destroyed
		return nil
	}
	n := int(w.ctx.noverlaps)
	if n == 0 {
		return nil
	}
	ov := unsafe.Slice(w.ctx.overlaps, n)
	out := make([][2]int, n)
	for i, o := range ov {
		out[i] = [2]int{w.owners[o.trigger_geom], w.owners[o.other_geom]}
	}
	return out
}

// ContactPoints returns the contact positions of the last Step (when recording).
func (w *World) ContactPoints() [][3]float64 {
	if w.ctx == nil { // destroyed
		return nil
	}
	n := int(w.ctx.npoints)
	if n == 0 {
		return nil
	}
	p := unsafe.Slice(w.ctx.points, 3*n)
	out := make([][3]float64, n)
	for i := range out {
		out[i] = [3]float64{float64(p[3*i]), float64(p[3*i+1]), float64(p[3*i+2])}
	}
	return out
}

// RaiseForTest makes ODE report an error (kind 1: dError, 2: dDebug, 4: a
// box of size -1, ODE's own argument check) or a message (3) inside a
// guarded call, for tests of the handlers.
func (w *World) RaiseForTest(kind int) error {
	if !w.usable() {
		return w.err
	}
	return w.check(C.pv_raise(w.ctx, C.int(kind)))
}

// Body is a rigid body.
type Body struct {
	id    C.dBodyID
	w     *World
	Index int // order of creation, the index into States and Step's forces
}

// NewBody makes a body at the origin with unit mass.
func (w *World) NewBody() *Body {
	b := &Body{w: w, Index: w.nBodies}
	if !w.usable() {
		return b // a broken world: the body is never used
	}
	switch rc := C.pv_body_new(w.ctx, &b.id); rc {
	case 0:
	case -2:
		w.err = errors.New("ode: out of memory")
		return b
	default:
		w.check(rc)
		return b
	}
	w.bodies = append(w.bodies, b.id)
	w.nBodies++
	if len(w.bodies) > w.cCap {
		// Grow the C mirror the step reads by doubling.
		if w.cBodies != nil {
			C.free(unsafe.Pointer(w.cBodies))
		}
		w.cCap = max(64, 2*w.cCap)
		w.cBodies = (*C.dBodyID)(C.malloc(C.size_t(unsafe.Sizeof(b.id)) * C.size_t(w.cCap)))
		copy(unsafe.Slice(w.cBodies, w.cCap), w.bodies)
		return b
	}
	unsafe.Slice(w.cBodies, w.cCap)[len(w.bodies)-1] = b.id
	return b
}

func (b *Body) set(what C.int, v ...float64) {
	if b.id == nil || !b.w.usable() {
		return
	}
	b.w.fresh = false // the states the last Step read are out of date
	var a [4]C.double
	for i, x := range v {
		a[i] = C.double(x)
	}
	b.w.check(C.pv_body_set(b.w.ctx, b.id, what, &a[0]))
}

// SetPosition sets the body's position (its centre of mass) and wakes it.
func (b *Body) SetPosition(p [3]float64) { b.set(C.PV_BODY_POSITION, p[:]...) }

// SetRotation sets the body's orientation from a quaternion x, y, z, w.
func (b *Body) SetRotation(q [4]float64) { b.set(C.PV_BODY_QUATERNION, q[:]...) }

// SetLinearVel and SetAngularVel set the body's velocities and wake it.
func (b *Body) SetLinearVel(v [3]float64) { b.set(C.PV_BODY_LINEAR_VEL, v[:]...) }

// SetAngularVel sets the body's angular velocity (rad/s, world axes).
func (b *Body) SetAngularVel(v [3]float64) { b.set(C.PV_BODY_ANGULAR_VEL, v[:]...) }

// SetMass sets the mass (kg) and the inertia tensor about the body's
// position, row-major 3x3 in body axes. ODE needs a positive mass and a
// positive definite tensor; an error says what is wrong.
func (b *Body) SetMass(mass float64, inertia [9]float64) error {
	if !(mass > 0) || math.IsInf(mass, 0) {
		return fmt.Errorf("mass %g must be a positive number", mass)
	}
	if !b.w.usable() || b.id == nil {
		return b.w.err
	}
	var in [9]C.double
	for i, v := range inertia {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("inertia %v is not finite", inertia)
		}
		in[i] = C.double(v)
	}
	switch rc := C.pv_body_set_mass(b.w.ctx, b.id, C.double(mass), &in[0]); rc {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("inertia %v is not positive definite or breaks the triangle inequality", inertia)
	default:
		return b.w.check(rc)
	}
}

// SetKinematic makes the body move only by its velocities.
func (b *Body) SetKinematic() { b.set(C.PV_BODY_KINEMATIC) }

// SetGravityMode turns ODE's world gravity on or off for the body.
func (b *Body) SetGravityMode(on bool) {
	v := 0.0
	if on {
		v = 1
	}
	b.set(C.PV_BODY_GRAVITY_MODE, v)
}

// Geom is a collision shape, static or attached to a body.
type Geom struct {
	id    C.dGeomID
	w     *World
	index int // into the world's geom list (pv_ctx.geoms)
	// shift is where the geom's own origin is in the caller's shape frame:
	// a convex hull ODE needs around its origin was moved by it (NewConvex).
	shift [3]float64
	pos   [3]float64
	rot   [4]float64
}

func (w *World) addGeom(rc C.int, id C.dGeomID, s Surface) (*Geom, error) {
	if err := w.check(rc); err != nil {
		return nil, err
	}
	info := C.pv_geom{
		friction: C.double(s.Friction), restitution: C.double(s.Restitution),
		friction_combine: C.int(s.FrictionCombine), restitution_combine: C.int(s.RestitutionCombine),
		owner: C.int(s.Owner), category: C.uint64_t(s.Category), collide: C.uint64_t(s.Collide), pass: C.uint64_t(s.Pass),
	}
	if s.Trigger {
		info.trigger = 1
	}
	index := C.pv_ctx_add_geom(w.ctx, id, info)
	if index < 0 {
		return nil, errors.New("ode: out of memory")
	}
	w.owners = append(w.owners, s.Owner)
	return &Geom{id: id, w: w, index: int(index), rot: [4]float64{0, 0, 0, 1}}, nil
}

// checkSize refuses what ODE's geoms cannot hold: sizes must be finite and
// positive (zero allowed where zeroOK: a capsule's straight part).
func checkSize(what string, v float64, zeroOK bool) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || (v == 0 && !zeroOK) || v > 2*MaxDistance {
		return fmt.Errorf("ode: %s %g must be greater than 0 and at most %g", what, v, 2*MaxDistance)
	}
	return nil
}

func (w *World) newGeom(kind C.int, s Surface, p ...float64) (*Geom, error) {
	if !w.usable() {
		return nil, w.brokenErr()
	}
	var a [3]C.double
	for i, x := range p {
		a[i] = C.double(x)
	}
	var id C.dGeomID
	rc := C.pv_geom_new(w.ctx, kind, &a[0], &id)
	return w.addGeom(rc, id, s)
}

func (w *World) brokenErr() error {
	if w.err != nil {
		return w.err
	}
	return errors.New("ode: the world was destroyed")
}

// NewBox makes a box of full extents x, y, z.
func (w *World) NewBox(x, y, z float64, s Surface) (*Geom, error) {
	for i, v := range []float64{x, y, z} {
		if err := checkSize("box size "+"xyz"[i:i+1], v, false); err != nil {
			return nil, err
		}
	}
	return w.newGeom(C.PV_BOX, s, x, y, z)
}

// NewSphere makes a sphere.
func (w *World) NewSphere(r float64, s Surface) (*Geom, error) {
	if err := checkSize("sphere radius", r, false); err != nil {
		return nil, err
	}
	return w.newGeom(C.PV_SPHERE, s, r)
}

// NewCapsule makes a capsule along local Z; length is the straight part.
func (w *World) NewCapsule(r, length float64, s Surface) (*Geom, error) {
	if err := checkSize("capsule radius", r, false); err != nil {
		return nil, err
	}
	if err := checkSize("capsule height", length, true); err != nil {
		return nil, err
	}
	return w.newGeom(C.PV_CAPSULE, s, r, length)
}

// NewCylinder makes a cylinder along local Z of full length.
func (w *World) NewCylinder(r, length float64, s Surface) (*Geom, error) {
	if err := checkSize("cylinder radius", r, false); err != nil {
		return nil, err
	}
	if err := checkSize("cylinder height", length, false); err != nil {
		return nil, err
	}
	return w.newGeom(C.PV_CYLINDER, s, r, length)
}

func (w *World) cDoubles(v []float64) *C.dReal {
	p := C.malloc(C.size_t(len(v)+1) * C.size_t(unsafe.Sizeof(C.dReal(0))))
	w.allocs = append(w.allocs, p)
	dst := unsafe.Slice((*C.dReal)(p), len(v)+1)
	for i, x := range v {
		dst[i] = C.dReal(x)
	}
	return (*C.dReal)(p)
}

func (w *World) cUints(v []uint32) *C.uint {
	p := C.malloc(C.size_t(len(v)+1) * C.size_t(unsafe.Sizeof(C.uint(0))))
	w.allocs = append(w.allocs, p)
	dst := unsafe.Slice((*C.uint)(p), len(v)+1)
	for i, x := range v {
		dst[i] = C.uint(x)
	}
	return (*C.uint)(p)
}

// convexOK reports whether ODE's dCreateConvex accepts the hull without
// its debug checks firing: those print "Polygon N is not defined
// counterclockwise" and "Plane N does not contain the origin" on the
// process's standard output (fprintf, not dMessage, so no handler sees them).
// It is the same test: the triple product of each face's first three points
// and each plane's distance must not be negative.
func convexOK(planes, points []float64, polygons []uint32) bool {
	at := 0
	for i := 0; i < len(planes)/4; i++ {
		if at >= len(polygons) {
			return false
		}
		n := int(polygons[at])
		if n < 3 || at+n >= len(polygons) {
			return false
		}
		var p [3][3]float64
		for k := 0; k < 3; k++ {
			ix := int(polygons[at+1+k])
			if 3*ix+2 >= len(points) {
				return false
			}
			p[k] = [3]float64{points[3*ix], points[3*ix+1], points[3*ix+2]}
		}
		det := p[0][0]*(p[1][1]*p[2][2]-p[1][2]*p[2][1]) -
			p[0][1]*(p[1][0]*p[2][2]-p[1][2]*p[2][0]) +
			p[0][2]*(p[1][0]*p[2][1]-p[1][1]*p[2][0])
		if !(det >= 0) || !(planes[4*i+3] >= 0) {
			return false
		}
		at += n + 1
	}
	return true
}

// NewConvex makes a convex polyhedron: planes are a, b, c, d per face
// (ax + by + cz = d, outward normals), points x, y, z, polygons a count
// followed by that many point indices per face, counter-clockwise. ODE
// needs the hull around the geom's origin: a hull that does not contain
// the origin is moved to be centred on it, and the geom placed so that it
// stays where the caller's points say (SetPosition, SetOffset).
func (w *World) NewConvex(planes, points []float64, polygons []uint32, s Surface) (*Geom, error) {
	if len(planes) < 16 || len(points) < 12 {
		return nil, fmt.Errorf("ode: a convex shape needs at least 4 faces and 4 points, has %d and %d", len(planes)/4, len(points)/3)
	}
	for _, v := range append(append([]float64(nil), planes...), points...) {
		if !(math.Abs(v) <= MaxDistance) {
			return nil, fmt.Errorf("ode: a convex shape has a coordinate %g that is not a finite number within %g", v, float64(MaxDistance))
		}
	}
	if !w.usable() {
		return nil, w.brokenErr()
	}
	var shift [3]float64
	if !convexOK(planes, points, polygons) {
		np := len(points) / 3
		for i := 0; i < np; i++ {
			for k := 0; k < 3; k++ {
				shift[k] += points[3*i+k] / float64(np)
			}
		}
		points = append([]float64(nil), points...)
		planes = append([]float64(nil), planes...)
		for i := 0; i < np; i++ {
			for k := 0; k < 3; k++ {
				points[3*i+k] -= shift[k]
			}
		}
		for i := 0; i < len(planes)/4; i++ {
			planes[4*i+3] -= planes[4*i]*shift[0] + planes[4*i+1]*shift[1] + planes[4*i+2]*shift[2]
		}
		if !convexOK(planes, points, polygons) {
			return nil, errors.New("ode: the convex hull is flat or its faces are not wound counter-clockwise")
		}
	}
	var id C.dGeomID
	rc := C.pv_convex_new(w.ctx, w.cDoubles(planes), C.uint(len(planes)/4), w.cDoubles(points), C.uint(len(points)/3), w.cUints(polygons), &id)
	g, err := w.addGeom(rc, id, s)
	if err != nil {
		return nil, err
	}
	g.shift = shift
	if shift != [3]float64{} {
		g.place(false)
	}
	return g, nil
}

// NewTriMesh makes a triangle mesh from vertices x, y, z and triangle indices.
func (w *World) NewTriMesh(vertices []float64, indices []uint32, s Surface) (*Geom, error) {
	if len(indices) < 3 || len(vertices) < 9 {
		return nil, errors.New("ode: a triangle mesh needs at least one triangle")
	}
	for _, v := range vertices {
		if !(math.Abs(v) <= MaxDistance) {
			return nil, fmt.Errorf("ode: a triangle mesh has a coordinate %g that is not a finite number within %g", v, float64(MaxDistance))
		}
	}
	for _, i := range indices {
		if int(i) >= len(vertices)/3 {
			return nil, fmt.Errorf("ode: triangle index %d is past the %d vertices", i, len(vertices)/3)
		}
	}
	if !w.usable() {
		return nil, w.brokenErr()
	}
	data := C.dGeomTriMeshDataCreate()
	w.tmeshes = append(w.tmeshes, data)
	v := w.cDoubles(vertices)
	ix := w.cUints(indices)
	var id C.dGeomID
	rc := C.pv_trimesh_new(w.ctx, data, v, C.int(len(vertices)/3), ix, C.int(len(indices)), &id)
	return w.addGeom(rc, id, s)
}

func (g *Geom) set(what C.int, b C.dBodyID, v ...float64) {
	if g == nil || !g.w.usable() {
		return
	}
	var a [4]C.double
	for i, x := range v {
		a[i] = C.double(x)
	}
	g.w.check(C.pv_geom_set(g.w.ctx, g.id, what, b, &a[0]))
}

// NoCollide keeps body b from colliding with static geom g: a body and
// the static collider it is jointed to (bodies jointed to each other never
// collide anyway).
func (w *World) NoCollide(b *Body, g *Geom) error {
	if !w.usable() {
		return w.brokenErr()
	}
	if b == nil || g == nil || b.w != w || g.w != w {
		return errors.New("ode: NoCollide needs a body and a geom of this world")
	}
	if C.pv_no_collide(w.ctx, C.int(b.Index), C.int(g.index)) < 0 {
		return errors.New("ode: out of memory")
	}
	return nil
}

// SetBody attaches the geom to b (nil for static).
func (g *Geom) SetBody(b *Body) {
	if b == nil {
		g.set(C.PV_GEOM_BODY, nil)
		return
	}
	g.set(C.PV_GEOM_BODY, b.id)
}

// place sets the geom's ODE position from pos and rot, moved by its shift.
func (g *Geom) place(offset bool) {
	p := g.pos
	if g.shift != [3]float64{} {
		p = add(p, rotate(g.rot, g.shift))
	}
	if offset {
		g.set(C.PV_GEOM_OFFSET_POSITION, nil, p[:]...)
		g.set(C.PV_GEOM_OFFSET_QUATERNION, nil, g.rot[:]...)
		return
	}
	g.set(C.PV_GEOM_POSITION, nil, p[:]...)
	g.set(C.PV_GEOM_QUATERNION, nil, g.rot[:]...)
}

// SetPosition and SetRotation place a static geom (quaternion x, y, z, w).
func (g *Geom) SetPosition(p [3]float64) {
	g.pos = p
	g.place(false)
}

// SetRotation sets a static geom's orientation (quaternion x, y, z, w).
func (g *Geom) SetRotation(q [4]float64) {
	g.rot = q
	g.place(false)
}

// SetOffset places a geom attached to a body relative to the body.
func (g *Geom) SetOffset(p [3]float64, q [4]float64) {
	g.pos, g.rot = p, q
	g.place(true)
}

func add(a, b [3]float64) [3]float64 { return [3]float64{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }

// rotate turns v by the unit quaternion q (x, y, z, w).
func rotate(q [4]float64, v [3]float64) [3]float64 {
	l := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	if !(l > 0) {
		return v
	}
	x, y, z, s := q[0]/l, q[1]/l, q[2]/l, q[3]/l
	// t = 2 (u × v); v' = v + s t + u × t
	tx, ty, tz := 2*(y*v[2]-z*v[1]), 2*(z*v[0]-x*v[2]), 2*(x*v[1]-y*v[0])
	return [3]float64{
		v[0] + s*tx + (y*tz - z*ty),
		v[1] + s*ty + (z*tx - x*tz),
		v[2] + s*tz + (x*ty - y*tx),
	}
}

// JointType selects the ODE joint NewJoint makes.
type JointType int

// Joint types.
const (
	JointFixed JointType = iota + 1
	JointBall
	JointHinge
	JointSlider
	JointUniversal
	JointPiston
	// JointAMotor is an angular motor in user mode (NewAMotor): up to
	// three axes whose directions and angles the caller sets each step,
	// each with stops and a motor.
	JointAMotor
)

// Joint is a constraint between two bodies (or a body and the world).
type Joint struct {
	id  C.dJointID
	w   *World
	typ JointType
}

// NewJoint makes a joint of type t between b1 and b2 (either may be nil for
// the world), anchored at anchor with axes axis1 and axis2 (world space;
// which are used depends on the type).
func (w *World) NewJoint(t JointType, b1, b2 *Body, anchor, axis1, axis2 [3]float64) (*Joint, error) {
	if t < JointFixed || t > JointPiston {
		return nil, fmt.Errorf("ode: unknown joint type %d", t)
	}
	for _, v := range [][3]float64{anchor, axis1, axis2} {
		for _, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("ode: joint anchor %v or axes %v, %v not finite", anchor, axis1, axis2)
			}
		}
	}
	if !w.usable() {
		return nil, w.brokenErr()
	}
	var i1, i2 C.dBodyID
	if b1 != nil {
		i1 = b1.id
	}
	if b2 != nil {
		i2 = b2.id
	}
	cv := func(v [3]float64) [3]C.double { return [3]C.double{C.double(v[0]), C.double(v[1]), C.double(v[2])} }
	a, x, y := cv(anchor), cv(axis1), cv(axis2)
	var id C.dJointID
	if err := w.check(C.pv_joint_new(w.ctx, C.int(t), i1, i2, &a[0], &x[0], &y[0], &id)); err != nil {
		return nil, err
	}
	return &Joint{id, w, t}, nil
}

// NewAMotor makes an angular motor between b1 and b2 (either may be nil for
// the world) in ODE's user mode with n axes (1 to 3): the caller gives each
// axis's direction and angle with SetAMotorAxis before each step, and its
// stops and motor with SetParam (ParamGroup2 and ParamGroup3 add the
// offsets of the second and third axes). Beside a ball joint it limits the
// swing and twist a ball has no stops for.
func (w *World) NewAMotor(b1, b2 *Body, n int) (*Joint, error) {
	if n < 1 || n > 3 {
		return nil, fmt.Errorf("ode: an angular motor has 1 to 3 axes, not %d", n)
	}
	if !w.usable() {
		return nil, w.brokenErr()
	}
	var i1, i2 C.dBodyID
	if b1 != nil {
		i1 = b1.id
	}
	if b2 != nil {
		i2 = b2.id
	}
	var id C.dJointID
	if err := w.check(C.pv_amotor_new(w.ctx, i1, i2, C.int(n), &id)); err != nil {
		return nil, err
	}
	return &Joint{id, w, JointAMotor}, nil
}

// SetAMotorAxis sets axis i of an angular motor: its direction in world
// space (turning body 1 about it relative to body 2 increases the angle)
// and its angle (rad), which the axis's stops bound. Non-finite or zero
// axes, and axes the motor does not have, are ignored.
func (j *Joint) SetAMotorAxis(i int, axis [3]float64, angle float64) {
	if j.typ != JointAMotor || !j.w.usable() || math.IsNaN(angle) || math.IsInf(angle, 0) {
		return
	}
	if i < 0 || i >= int(C.dJointGetAMotorNumAxes(j.id)) {
		return // ODE would raise an error, which breaks the world
	}
	n := 0.0
	for _, x := range axis {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return
		}
		n += x * x
	}
	if !(n > 0) {
		return
	}
	a := [3]C.double{C.double(axis[0]), C.double(axis[1]), C.double(axis[2])}
	j.w.check(C.pv_amotor_axis(j.w.ctx, j.id, C.int(i), &a[0], C.double(angle)))
}

// Joint parameters (ODE's dParam*); Axis2 adds the offset of the second axis.
const (
	ParamLoStop  = C.dParamLoStop
	ParamHiStop  = C.dParamHiStop
	ParamVel     = C.dParamVel
	ParamFMax    = C.dParamFMax
	ParamStopERP = C.dParamStopERP
	ParamStopCFM = C.dParamStopCFM
	ParamCFM     = C.dParamCFM
	ParamGroup2  = C.dParamGroup2
	ParamGroup3  = C.dParamGroup3
)

// SetParam sets an ODE joint parameter (ParamLoStop + ParamGroup2 for the
// second axis). Infinite stops are passed as ODE's dInfinity.
func (j *Joint) SetParam(p int, v float64) {
	if !j.w.usable() || math.IsNaN(v) {
		return
	}
	j.w.check(C.pv_joint_param(j.w.ctx, j.id, C.int(j.typ), C.int(p), C.double(v)))
}

// State returns the joint's position along axis group 0 or 1 (a hinge's
// or universal's angle in rad, a slider's or piston's position in m, a
// piston's angle for group 1; an angular motor's axis 0, 1 or 2: the angle
// last set and the bodies' rate about it) and its rate, as ODE measures
// them; zeros for other types.
func (j *Joint) State(group int) (x, v float64) {
	if !j.w.usable() {
		return 0, 0
	}
	var cx, cv C.double
	if j.w.check(C.pv_joint_state(j.w.ctx, j.id, C.int(j.typ), C.int(group), &cx, &cv)) != nil {
		return 0, 0
	}
	return float64(cx), float64(cv)
}

// Angle returns a hinge's angle or a slider's position (0 for other types).
func (j *Joint) Angle() float64 {
	if !j.w.usable() {
		return 0
	}
	switch j.typ {
	case JointHinge:
		return float64(C.dJointGetHingeAngle(j.id))
	case JointSlider:
		return float64(C.dJointGetSliderPosition(j.id))
	}
	return 0
}

// FlushStdout flushes C's buffered standard output, where ODE's few
// fprintf calls would wait: tests that check nothing was printed call it.
func FlushStdout() { C.pv_flush_stdout() }

// ThreadCPUTime returns the CPU seconds the calling OS thread has used, for
// benchmarks on a shared machine (lock the goroutine to its thread first).
func ThreadCPUTime() float64 { return float64(C.pv_thread_cpu()) }

// ReferenceRun steps the benchmark scene (a static floor and boxes of 0.5 m
// falling on it, ODE's world gravity) through ODE's C API with no binding in
// between and returns the CPU seconds the steps took on the calling thread:
// the floor the binding's overhead is measured against.
func ReferenceRun(boxes, steps int, dt float64, iterations int) float64 {
	initODE()
	return float64(C.pv_reference_run(C.int(boxes), C.int(steps), C.double(dt), C.int(iterations)))
}
