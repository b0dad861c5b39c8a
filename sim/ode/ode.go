// Package ode is a thin cgo binding to the Open Dynamics Engine (Debian's
// libode 0.16, double precision): worlds, bodies, geoms, joints and a step
// whose collision callback runs in C. Only physview/sim imports it.
//
// Every object is owned by the World it was made in; World.Destroy frees
// them all. Methods on a destroyed world or its objects must not be called.
package ode

/*
#cgo pkg-config: ode
#cgo LDFLAGS: -lm
#include <ode/ode.h>
#include <stdlib.h>
#include <string.h>
#include "collide.h"

static dReal pv_dinfinity(void) { return dInfinity; }
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
	initOnce.Do(func() { C.dInitODE2(0) })
}

// Combine modes for Surface (OMI physics material combine modes); when two
// surfaces disagree, average wins, then minimum, then maximum, then multiply.
const (
	CombineAverage  = C.PV_AVERAGE
	CombineMinimum  = C.PV_MINIMUM
	CombineMultiply = C.PV_MULTIPLY
	CombineMaximum  = C.PV_MAXIMUM
)

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

// World is an ODE world with one hash space and a contact joint group.
type World struct {
	id      C.dWorldID
	space   C.dSpaceID
	ctx     *C.pv_ctx
	bodies  []C.dBodyID // C memory mirror kept by cBodies
	cBodies *C.dBodyID
	nBodies int
	allocs  []unsafe.Pointer
	tmeshes []C.dTriMeshDataID
	geoms   []C.dGeomID
	owners  []int
	forces  []float64
	states  []float64
}

// NewWorld makes a world with zero gravity, ODE's default ERP (0.2) and CFM
// (1e-5), 20 QuickStep iterations and a 1 mm contact surface layer.
func NewWorld() (*World, error) {
	initODE()
	w := &World{id: C.dWorldCreate()}
	w.space = C.dHashSpaceCreate(nil)
	w.ctx = C.pv_ctx_new(w.id)
	if w.ctx == nil {
		C.dSpaceDestroy(w.space)
		C.dWorldDestroy(w.id)
		return nil, errors.New("ode: out of memory")
	}
	C.dWorldSetGravity(w.id, 0, 0, 0)
	C.dWorldSetQuickStepNumIterations(w.id, 20)
	C.dWorldSetContactSurfaceLayer(w.id, 0.001)
	return w, nil
}

// Destroy frees the world and everything in it.
func (w *World) Destroy() {
	if w.id == nil {
		return
	}
	C.pv_ctx_free(w.ctx)
	C.dSpaceDestroy(w.space) // destroys the geoms in it
	for _, t := range w.tmeshes {
		C.dGeomTriMeshDataDestroy(t)
	}
	C.dWorldDestroy(w.id)
	for _, p := range w.allocs {
		C.free(p)
	}
	if w.cBodies != nil {
		C.free(unsafe.Pointer(w.cBodies))
	}
	*w = World{}
}

// SetGravity sets ODE's own world gravity (m/s²).
func (w *World) SetGravity(x, y, z float64) {
	C.dWorldSetGravity(w.id, C.dReal(x), C.dReal(y), C.dReal(z))
}

// SetERP and SetCFM set the world's error reduction parameter and
// constraint force mixing.
func (w *World) SetERP(v float64) { C.dWorldSetERP(w.id, C.dReal(v)) }

// SetCFM sets the world's constraint force mixing.
func (w *World) SetCFM(v float64) { C.dWorldSetCFM(w.id, C.dReal(v)) }

// SetIterations sets the QuickStep iteration count.
func (w *World) SetIterations(n int) { C.dWorldSetQuickStepNumIterations(w.id, C.int(n)) }

// SetRecordContacts turns recording of contact points on or off.
func (w *World) SetRecordContacts(on bool) {
	w.ctx.record_points = 0
	if on {
		w.ctx.record_points = 1
	}
}

// Step collides, applies forces[3*i:3*i+3] to body i (in the order the
// bodies were made), advances dt with QuickStep and clears the contacts.
func (w *World) Step(dt float64, forces []float64) {
	if len(forces) >= 3*w.nBodies && w.nBodies > 0 {
		C.pv_add_forces(w.cBodies, (*C.double)(unsafe.Pointer(&forces[0])), C.int(w.nBodies))
	}
	C.pv_collide(w.ctx, w.space)
	C.dWorldQuickStep(w.id, C.dReal(dt))
	C.dJointGroupEmpty(w.ctx.contacts)
}

// States returns, per body, position (3), quaternion w, x, y, z (4), linear
// (3) and angular (3) velocity, in one slice of 13 numbers a body. The slice
// is reused by the next call.
func (w *World) States() []float64 {
	if cap(w.states) < 13*w.nBodies {
		w.states = make([]float64, 13*w.nBodies)
	}
	w.states = w.states[:13*w.nBodies]
	if w.nBodies > 0 {
		C.pv_read_states(w.cBodies, (*C.double)(unsafe.Pointer(&w.states[0])), C.int(w.nBodies))
	}
	return w.states
}

// Overlaps returns the (trigger owner, other owner) pairs found by the last Step.
func (w *World) Overlaps() [][2]int {
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

// Body is a rigid body.
type Body struct {
	id    C.dBodyID
	Index int // order of creation, the index into States and Step's forces
}

// NewBody makes a body at the origin with unit mass.
func (w *World) NewBody() *Body {
	b := &Body{id: C.dBodyCreate(w.id), Index: w.nBodies}
	w.bodies = append(w.bodies, b.id)
	w.nBodies++
	if w.cBodies != nil {
		C.free(unsafe.Pointer(w.cBodies))
	}
	size := C.size_t(unsafe.Sizeof(b.id)) * C.size_t(len(w.bodies))
	w.cBodies = (*C.dBodyID)(C.malloc(size))
	copy(unsafe.Slice(w.cBodies, len(w.bodies)), w.bodies)
	return b
}

// SetPosition sets the body's position (its centre of mass).
func (b *Body) SetPosition(p [3]float64) {
	C.dBodySetPosition(b.id, C.dReal(p[0]), C.dReal(p[1]), C.dReal(p[2]))
}

// SetRotation sets the body's orientation from a quaternion x, y, z, w.
func (b *Body) SetRotation(q [4]float64) {
	cq := [4]C.dReal{C.dReal(q[3]), C.dReal(q[0]), C.dReal(q[1]), C.dReal(q[2])}
	C.dBodySetQuaternion(b.id, &cq[0])
}

// SetLinearVel and SetAngularVel set the body's velocities.
func (b *Body) SetLinearVel(v [3]float64) {
	C.dBodySetLinearVel(b.id, C.dReal(v[0]), C.dReal(v[1]), C.dReal(v[2]))
}

// SetAngularVel sets the body's angular velocity (rad/s, world axes).
func (b *Body) SetAngularVel(v [3]float64) {
	C.dBodySetAngularVel(b.id, C.dReal(v[0]), C.dReal(v[1]), C.dReal(v[2]))
}

// SetMass sets the mass (kg) and the inertia tensor about the body's
// position, row-major 3x3 in body axes. ODE needs a positive mass and a
// positive definite tensor; an error says what is wrong.
func (b *Body) SetMass(mass float64, inertia [9]float64) error {
	if !(mass > 0) || math.IsInf(mass, 0) {
		return fmt.Errorf("mass %g must be a positive number", mass)
	}
	var m C.dMass
	C.dMassSetParameters(&m, C.dReal(mass), 0, 0, 0,
		C.dReal(inertia[0]), C.dReal(inertia[4]), C.dReal(inertia[8]),
		C.dReal(inertia[1]), C.dReal(inertia[2]), C.dReal(inertia[5]))
	if C.dMassCheck(&m) == 0 {
		return fmt.Errorf("inertia %v is not positive definite or breaks the triangle inequality", inertia)
	}
	C.dBodySetMass(b.id, &m)
	return nil
}

// SetKinematic makes the body move only by its velocities.
func (b *Body) SetKinematic() { C.dBodySetKinematic(b.id) }

// SetGravityMode turns ODE's world gravity on or off for the body.
func (b *Body) SetGravityMode(on bool) {
	v := C.int(0)
	if on {
		v = 1
	}
	C.dBodySetGravityMode(b.id, v)
}

// Geom is a collision shape, static or attached to a body.
type Geom struct{ id C.dGeomID }

func (w *World) addGeom(id C.dGeomID, s Surface) (*Geom, error) {
	info := C.pv_geom{
		friction: C.double(s.Friction), restitution: C.double(s.Restitution),
		friction_combine: C.int(s.FrictionCombine), restitution_combine: C.int(s.RestitutionCombine),
		owner: C.int(s.Owner), category: C.uint64_t(s.Category), collide: C.uint64_t(s.Collide), pass: C.uint64_t(s.Pass),
	}
	if s.Trigger {
		info.trigger = 1
	}
	if C.pv_ctx_add_geom(w.ctx, id, info) < 0 {
		return nil, errors.New("ode: out of memory")
	}
	w.geoms = append(w.geoms, id)
	w.owners = append(w.owners, s.Owner)
	return &Geom{id}, nil
}

// NewBox makes a box of full extents x, y, z.
func (w *World) NewBox(x, y, z float64, s Surface) (*Geom, error) {
	return w.addGeom(C.dCreateBox(w.space, C.dReal(x), C.dReal(y), C.dReal(z)), s)
}

// NewSphere makes a sphere.
func (w *World) NewSphere(r float64, s Surface) (*Geom, error) {
	return w.addGeom(C.dCreateSphere(w.space, C.dReal(r)), s)
}

// NewCapsule makes a capsule along local Z; length is the straight part.
func (w *World) NewCapsule(r, length float64, s Surface) (*Geom, error) {
	return w.addGeom(C.dCreateCapsule(w.space, C.dReal(r), C.dReal(length)), s)
}

// NewCylinder makes a cylinder along local Z of full length.
func (w *World) NewCylinder(r, length float64, s Surface) (*Geom, error) {
	return w.addGeom(C.dCreateCylinder(w.space, C.dReal(r), C.dReal(length)), s)
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

// NewConvex makes a convex polyhedron: planes are a, b, c, d per face
// (ax + by + cz = d, outward normals), points x, y, z, polygons a count
// followed by that many point indices per face, counter-clockwise.
func (w *World) NewConvex(planes, points []float64, polygons []uint32, s Surface) (*Geom, error) {
	if len(planes) < 16 || len(points) < 12 {
		return nil, fmt.Errorf("ode: a convex shape needs at least 4 faces and 4 points, has %d and %d", len(planes)/4, len(points)/3)
	}
	id := C.dCreateConvex(w.space, w.cDoubles(planes), C.uint(len(planes)/4), w.cDoubles(points), C.uint(len(points)/3), w.cUints(polygons))
	return w.addGeom(id, s)
}

// NewTriMesh makes a triangle mesh from vertices x, y, z and triangle indices.
func (w *World) NewTriMesh(vertices []float64, indices []uint32, s Surface) (*Geom, error) {
	if len(indices) < 3 || len(vertices) < 9 {
		return nil, errors.New("ode: a triangle mesh needs at least one triangle")
	}
	data := C.dGeomTriMeshDataCreate()
	w.tmeshes = append(w.tmeshes, data)
	v := w.cDoubles(vertices)
	ix := w.cUints(indices)
	C.dGeomTriMeshDataBuildDouble(data, unsafe.Pointer(v), C.int(3*unsafe.Sizeof(C.dReal(0))), C.int(len(vertices)/3),
		unsafe.Pointer(ix), C.int(len(indices)), C.int(3*unsafe.Sizeof(C.uint(0))))
	// ODE's convex-trimesh collider needs the angles between faces: without
	// them it aborts the process (ODE INTERNAL ERROR 2) when a convex body
	// touches the mesh.
	if C.dGeomTriMeshDataPreprocess2(data, 1<<C.dTRIDATAPREPROCESS_BUILD_FACE_ANGLES, nil) == 0 {
		return nil, errors.New("ode: preparing the triangle mesh failed (out of memory?)")
	}
	return w.addGeom(C.dCreateTriMesh(w.space, data, nil, nil, nil), s)
}

// SetBody attaches the geom to b (nil for static).
func (g *Geom) SetBody(b *Body) {
	if b == nil {
		C.dGeomSetBody(g.id, nil)
		return
	}
	C.dGeomSetBody(g.id, b.id)
}

// SetPosition and SetRotation place a static geom (quaternion x, y, z, w).
func (g *Geom) SetPosition(p [3]float64) {
	C.dGeomSetPosition(g.id, C.dReal(p[0]), C.dReal(p[1]), C.dReal(p[2]))
}

// SetRotation sets a static geom's orientation (quaternion x, y, z, w).
func (g *Geom) SetRotation(q [4]float64) {
	cq := [4]C.dReal{C.dReal(q[3]), C.dReal(q[0]), C.dReal(q[1]), C.dReal(q[2])}
	C.dGeomSetQuaternion(g.id, &cq[0])
}

// SetOffset places a geom attached to a body relative to the body.
func (g *Geom) SetOffset(p [3]float64, q [4]float64) {
	C.dGeomSetOffsetPosition(g.id, C.dReal(p[0]), C.dReal(p[1]), C.dReal(p[2]))
	cq := [4]C.dReal{C.dReal(q[3]), C.dReal(q[0]), C.dReal(q[1]), C.dReal(q[2])}
	C.dGeomSetOffsetQuaternion(g.id, &cq[0])
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
)

// Joint is a constraint between two bodies (or a body and the world).
type Joint struct {
	id  C.dJointID
	typ JointType
}

// NewJoint makes a joint of type t between b1 and b2 (either may be nil for
// the world), anchored at anchor with axes axis1 and axis2 (world space;
// which are used depends on the type).
func (w *World) NewJoint(t JointType, b1, b2 *Body, anchor, axis1, axis2 [3]float64) (*Joint, error) {
	var id C.dJointID
	switch t {
	case JointFixed:
		id = C.dJointCreateFixed(w.id, nil)
	case JointBall:
		id = C.dJointCreateBall(w.id, nil)
	case JointHinge:
		id = C.dJointCreateHinge(w.id, nil)
	case JointSlider:
		id = C.dJointCreateSlider(w.id, nil)
	case JointUniversal:
		id = C.dJointCreateUniversal(w.id, nil)
	case JointPiston:
		id = C.dJointCreatePiston(w.id, nil)
	default:
		return nil, fmt.Errorf("ode: unknown joint type %d", t)
	}
	var i1, i2 C.dBodyID
	if b1 != nil {
		i1 = b1.id
	}
	if b2 != nil {
		i2 = b2.id
	}
	C.dJointAttach(id, i1, i2)
	w.ctx.joints = 1
	a := [3]C.dReal{C.dReal(anchor[0]), C.dReal(anchor[1]), C.dReal(anchor[2])}
	x := [3]C.dReal{C.dReal(axis1[0]), C.dReal(axis1[1]), C.dReal(axis1[2])}
	y := [3]C.dReal{C.dReal(axis2[0]), C.dReal(axis2[1]), C.dReal(axis2[2])}
	switch t {
	case JointFixed:
		C.dJointSetFixed(id)
	case JointBall:
		C.dJointSetBallAnchor(id, a[0], a[1], a[2])
	case JointHinge:
		C.dJointSetHingeAnchor(id, a[0], a[1], a[2])
		C.dJointSetHingeAxis(id, x[0], x[1], x[2])
	case JointSlider:
		C.dJointSetSliderAxis(id, x[0], x[1], x[2])
	case JointUniversal:
		C.dJointSetUniversalAnchor(id, a[0], a[1], a[2])
		C.dJointSetUniversalAxis1(id, x[0], x[1], x[2])
		C.dJointSetUniversalAxis2(id, y[0], y[1], y[2])
	case JointPiston:
		C.dJointSetPistonAnchor(id, a[0], a[1], a[2])
		C.dJointSetPistonAxis(id, x[0], x[1], x[2])
	}
	return &Joint{id, t}, nil
}

// Joint parameters (ODE's dParam*); Axis2 adds the offset of the second axis.
const (
	ParamLoStop  = C.dParamLoStop
	ParamHiStop  = C.dParamHiStop
	ParamVel     = C.dParamVel
	ParamFMax    = C.dParamFMax
	ParamStopERP = C.dParamStopERP
	ParamStopCFM = C.dParamStopCFM
	ParamGroup2  = C.dParamGroup2
)

// SetParam sets an ODE joint parameter (ParamLoStop + ParamGroup2 for the
// second axis). Infinite stops are passed as ODE's dInfinity.
func (j *Joint) SetParam(p int, v float64) {
	if math.IsInf(v, 1) {
		v = float64(C.pv_dinfinity())
	} else if math.IsInf(v, -1) {
		v = -float64(C.pv_dinfinity())
	}
	param := C.int(p)
	switch j.typ {
	case JointHinge:
		C.dJointSetHingeParam(j.id, param, C.dReal(v))
	case JointSlider:
		C.dJointSetSliderParam(j.id, param, C.dReal(v))
	case JointUniversal:
		C.dJointSetUniversalParam(j.id, param, C.dReal(v))
	case JointPiston:
		C.dJointSetPistonParam(j.id, param, C.dReal(v))
	}
}

// Angle returns a hinge's angle or a slider's position (0 for other types).
func (j *Joint) Angle() float64 {
	switch j.typ {
	case JointHinge:
		return float64(C.dJointGetHingeAngle(j.id))
	case JointSlider:
		return float64(C.dJointGetSliderPosition(j.id))
	}
	return 0
}

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
