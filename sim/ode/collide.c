#include "collide.h"
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Errors. ODE reports a broken precondition or an internal failure through
   dError or dDebug, which call the handler installed with dSetErrorHandler
   or dSetDebugHandler and then abort() the process if it returns. Every
   entry point below that reaches ODE sets a jump buffer first (GUARD); the
   handlers write the message into the world's pv_ctx and longjmp back to it,
   so the call returns -1 instead of aborting. ODE's C++ frames between are
   left without unwinding, so the world is marked broken and never stepped
   again. The jump buffer and the world are per thread: a cgo call runs on
   one thread from entry to return. dMessage (warnings) is collected into the
   world's message list for Go to turn into warnings: nothing goes to stdout. */
double pv_thread_cpu(void);

double pv_thread_cpu(void);
int pv_awake(dBodyID *bodies, int n);

static __thread jmp_buf *pv_jmp;
static __thread pv_ctx *pv_cur;

#define GUARD_RET(c, ret)                                             \
	jmp_buf jb__;                                                     \
	jmp_buf *prev_jmp__ = pv_jmp;                                     \
	pv_ctx *prev_cur__ = pv_cur;                                      \
	pv_jmp = &jb__;                                                   \
	pv_cur = (c);                                                     \
	if (setjmp(jb__)) {                                               \
		pv_jmp = prev_jmp__;                                          \
		pv_cur = prev_cur__;                                          \
		(c)->broken = 1;                                              \
		return ret;                                                   \
	}
#define GUARD_ANY(c) GUARD_RET(c, -1)
#define GUARD(c)                     \
	if ((c)->broken) return -1;      \
	GUARD_ANY(c)
#define UNGUARD()              \
	do {                       \
		pv_jmp = prev_jmp__;   \
		pv_cur = prev_cur__;   \
	} while (0)

static void fail(const char *kind, int num, const char *msg, va_list ap) {
	char buf[400];
	vsnprintf(buf, sizeof buf, msg ? msg : "", ap);
	pv_ctx *c = pv_cur;
	if (c && pv_jmp) {
		snprintf(c->error, sizeof c->error, "ODE %s %d: %s", kind, num, buf);
		longjmp(*pv_jmp, 1);
	}
	// Outside a guarded call there is nowhere to return to: ODE aborts
	// after this. Every ODE call of the binding is guarded.
	fprintf(stderr, "physview: ODE %s %d outside a guarded call: %s\n", kind, num, buf);
}

static void on_error(int num, const char *msg, va_list ap) { fail("error", num, msg, ap); }
static void on_debug(int num, const char *msg, va_list ap) { fail("internal error", num, msg, ap); }

static void on_message(int num, const char *msg, va_list ap) {
	char buf[PV_MESSAGE_LEN];
	vsnprintf(buf, sizeof buf, msg ? msg : "", ap);
	size_t n = strlen(buf);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ')) buf[--n] = 0;
	pv_ctx *c = pv_cur;
	if (!c) {
		fprintf(stderr, "physview: ODE message %d: %s\n", num, buf);
		return;
	}
	for (int i = 0; i < c->nmessages; i++)
		if (strcmp(c->messages[i], buf) == 0) return;
	if (c->nmessages < PV_MAX_MESSAGES) {
		memcpy(c->messages[c->nmessages++], buf, n + 1);
	} else {
		c->more_messages++;
	}
}

void pv_install_handlers(void) {
	dSetErrorHandler(on_error);
	dSetDebugHandler(on_debug);
	dSetMessageHandler(on_message);
}

pv_ctx *pv_ctx_new(void) {
	pv_ctx *c = calloc(1, sizeof(pv_ctx));
	if (!c) return NULL;
	c->bounce_vel = 0.01;
	c->max_step = 1 << 16;
	GUARD_RET(c, c); // a broken ctx: Go reads the error and frees it
	c->world = dWorldCreate();
	// QuickStep solves constraints in a random order (ODE's own generator,
	// one for the process): seeded here, a world plays the same every time
	// it is built, whatever ran before it in the process.
	dRandSetSeed(0);
	// A hash space from 1/16 m cells to 1 km: geoms larger than the top
	// level are tested against all others, so a ground of a few hundred
	// metres is still hashed.
	c->space = dHashSpaceCreate(0);
	dHashSpaceSetLevels(c->space, -4, 10);
	c->contacts = dJointGroupCreate(0);
	dWorldSetGravity(c->world, 0, 0, 0);
	dWorldSetQuickStepNumIterations(c->world, 20);
	dWorldSetContactSurfaceLayer(c->world, 0.001);
	// Resting bodies sleep and wake when touched, moved or pushed: a body
	// whose velocity, averaged over 10 steps, stays under 0.05 m/s and
	// 0.05 rad/s for 10 steps. ODE's own thresholds (0.01, no averaging)
	// never let a stack sleep: its bodies jitter above them. A body that
	// touches nothing is woken again at once (pv_step), so a slow drift
	// in zero gravity or a pendulum at the top of its swing never freezes.
	dWorldSetAutoDisableFlag(c->world, 1);
	dWorldSetAutoDisableLinearThreshold(c->world, 0.05);
	dWorldSetAutoDisableAngularThreshold(c->world, 0.05);
	dWorldSetAutoDisableAverageSamplesCount(c->world, 10);
	dWorldSetAutoDisableSteps(c->world, 10);
	UNGUARD();
	return c;
}

// pv_ctx_free destroys the world; a broken world is destroyed as far as
// ODE lets it and the rest is left (returns -1).
int pv_ctx_free(pv_ctx *c) {
	if (!c) return 0;
	int rc = 0;
	{
		GUARD_ANY(c);
		if (c->contacts) dJointGroupDestroy(c->contacts);
		c->contacts = 0;
		if (c->space) dSpaceDestroy(c->space); // destroys the geoms in it
		c->space = 0;
		if (c->world) dWorldDestroy(c->world);
		c->world = 0;
		UNGUARD();
	}
	free(c->geoms);
	free(c->overlaps);
	free(c->points);
	free(c->touched);
	free(c->body_contacts);
	free(c->excl);
	free(c);
	return rc;
}

static int grow(void **p, int *cap, int need, size_t size) {
	if (need <= *cap) return 1;
	int n = *cap ? *cap * 2 : 64;
	while (n < need) n *= 2;
	void *q = realloc(*p, (size_t)n * size);
	if (!q) return 0;
	*p = q;
	*cap = n;
	return 1;
}

int pv_ctx_add_geom(pv_ctx *c, dGeomID g, pv_geom info) {
	if (!grow((void **)&c->geoms, &c->capgeoms, c->ngeoms + 1, sizeof(pv_geom))) return -1;
	c->geoms[c->ngeoms] = info;
	dGeomSetData(g, (void *)(intptr_t)(c->ngeoms + 1));
	return c->ngeoms++;
}

int pv_no_collide(pv_ctx *c, int b, int g) {
	if (!grow((void **)&c->excl, &c->capexcl, 2 * (c->nexcl + 1), sizeof(int))) return -1;
	c->excl[2 * c->nexcl] = b;
	c->excl[2 * c->nexcl + 1] = g;
	c->nexcl++;
	return 0;
}

// excluded reports whether the body of one geom and the other, static,
// geom are jointed and must not collide.
static int excluded(pv_ctx *c, dBodyID b1, dBodyID b2, intptr_t i1, intptr_t i2) {
	if (!c->nexcl || !b1 == !b2) return 0;
	intptr_t b = (intptr_t)dBodyGetData(b1 ? b1 : b2) - 1, g = b1 ? i2 : i1;
	for (int k = 0; k < c->nexcl; k++)
		if (c->excl[2 * k] == b && c->excl[2 * k + 1] == g) return 1;
	return 0;
}

static double combine(double a, double b, int ma, int mb) {
	switch (ma > mb ? ma : mb) {
	case PV_MINIMUM: return fmin(a, b);
	case PV_MULTIPLY: return a * b;
	case PV_MAXIMUM: return fmax(a, b);
	}
	return (a + b) / 2;
}

static void count_contacts(pv_ctx *c, dBodyID b, int n) {
	intptr_t i = b ? (intptr_t)dBodyGetData(b) - 1 : -1;
	if (i >= 0 && i < c->nbodies && c->body_contacts) c->body_contacts[i] += n;
}

static void touch(pv_ctx *c, dBodyID b) {
	intptr_t i = b ? (intptr_t)dBodyGetData(b) - 1 : -1;
	if (i >= 0 && i < c->nbodies) c->touched[i] |= 1;
}

static void near_callback(void *data, dGeomID o1, dGeomID o2) {
	pv_ctx *c = data;
	intptr_t i1 = (intptr_t)dGeomGetData(o1) - 1, i2 = (intptr_t)dGeomGetData(o2) - 1;
	if (i1 < 0 || i2 < 0 || i1 >= c->ngeoms || i2 >= c->ngeoms) return;
	pv_geom *g1 = &c->geoms[i1], *g2 = &c->geoms[i2];
	dBodyID b1 = dGeomGetBody(o1), b2 = dGeomGetBody(o2);
	if (b1 == b2) return; // one body, or both static
	if (!(g1->category & g2->collide) || !(g2->category & g1->collide)) return;
	if (g1->pass & g2->pass) return;
	if (!g1->trigger && !g2->trigger) {
		// Near something it can rest on (the boxes around the geoms meet).
		touch(c, b1);
		touch(c, b2);
	}
	if (g1->trigger || g2->trigger) {
		if (g1->trigger && g2->trigger) return;
		dBodyID other = g1->trigger ? b2 : b1;
		if (!other) return; // static geoms do not enter triggers
		dContactGeom cg;
		if (dCollide(o1, o2, 1, &cg, sizeof(dContactGeom)) > 0 &&
		    grow((void **)&c->overlaps, &c->capoverlaps, c->noverlaps + 1, sizeof(pv_overlap))) {
			pv_overlap ov = {g1->trigger ? (int)i1 : (int)i2, g1->trigger ? (int)i2 : (int)i1};
			c->overlaps[c->noverlaps++] = ov;
		}
		return;
	}
	int d1 = b1 && !dBodyIsKinematic(b1), d2 = b2 && !dBodyIsKinematic(b2);
	if (!d1 && !d2) return;
	// Two resting (disabled) bodies, or a resting one on static ground:
	// ODE does not step them, so their contacts would be made for nothing.
	if ((!b1 || !dBodyIsEnabled(b1)) && (!b2 || !dBodyIsEnabled(b2))) return;
	if (c->joints && b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact)) return;
	if (excluded(c, b1, b2, i1, i2)) return;
	if (c->ncontacts >= c->max_step) {
		c->dropped_pairs++; // over the step's budget: not even collided
		return;
	}
	dContact ct[PV_MAX_CONTACTS];
	int n = dCollide(o1, o2, PV_MAX_CONTACTS, &ct[0].geom, sizeof(dContact));
	if (n <= 0) return;
	// ODE's convex collider can return a contact with a NaN or zero normal
	// on deep overlaps; one such contact makes the whole island NaN.
	int k = 0;
	for (int i = 0; i < n; i++) {
		const dContactGeom *g = &ct[i].geom;
		double l = g->normal[0] * g->normal[0] + g->normal[1] * g->normal[1] + g->normal[2] * g->normal[2];
		if (!isfinite(g->depth) || !isfinite(g->pos[0]) || !isfinite(g->pos[1]) || !isfinite(g->pos[2]) || !(l > 0.25 && l < 4)) {
			c->bad_contacts++;
			continue;
		}
		if (k != i) ct[k].geom = ct[i].geom;
		k++;
	}
	n = k;
	if (n <= 0) return;
	if (n > c->max_step - c->ncontacts) {
		c->dropped_contacts += n - (c->max_step - c->ncontacts);
		n = c->max_step - c->ncontacts;
	}
	c->ncontacts += n;
	count_contacts(c, b1, n);
	count_contacts(c, b2, n);
	double mu = combine(g1->friction, g2->friction, g1->friction_combine, g2->friction_combine);
	double bounce = combine(g1->restitution, g2->restitution, g1->restitution_combine, g2->restitution_combine);
	for (int i = 0; i < n; i++) {
		dSurfaceParameters *s = &ct[i].surface;
		s->mode = dContactApprox1;
		s->mu = mu;
		if (bounce > 0) {
			s->mode |= dContactBounce;
			s->bounce = bounce > 1 ? 1 : bounce;
			s->bounce_vel = c->bounce_vel;
		}
		if (c->soft_cfm > 0) {
			s->mode |= dContactSoftCFM;
			s->soft_cfm = c->soft_cfm;
		}
		dJointID j = dJointCreateContact(c->world, c->contacts, &ct[i]);
		dJointAttach(j, b1, b2);
		if (c->record_points && grow((void **)&c->points, &c->cappoints, c->npoints + 1, sizeof(double) * 3)) {
			c->points[c->npoints * 3] = ct[i].geom.pos[0];
			c->points[c->npoints * 3 + 1] = ct[i].geom.pos[1];
			c->points[c->npoints * 3 + 2] = ct[i].geom.pos[2];
			c->npoints++;
		}
	}
}

// pv_step is one whole step in one cgo call: forces onto the awake bodies
// (a sleeping body keeps none, or it would wake with all of them), collision,
// QuickStep, the contacts cleared, the states read back (when states is not
// NULL).
int pv_step(pv_ctx *c, dBodyID *bodies, const double *f, int n, double dt, double *states) {
	GUARD(c);
	if (f) {
		for (int i = 0; i < n; i++) {
			if (f[3 * i] == 0 && f[3 * i + 1] == 0 && f[3 * i + 2] == 0) continue;
			if (!dBodyIsEnabled(bodies[i])) continue;
			dBodyAddForce(bodies[i], f[3 * i], f[3 * i + 1], f[3 * i + 2]);
		}
	}
	// With every body asleep nothing can move: the last step's overlaps
	// and contact points still hold, and collision is skipped.
	int awake = pv_awake(bodies, n);
	double t0 = pv_thread_cpu();
	if (awake > 0) {
		c->noverlaps = 0;
		c->npoints = 0;
		c->ncontacts = 0;
		c->dropped_pairs = 0;
		c->dropped_contacts = 0;
		for (int i = 0; i < c->nbodies; i++) c->touched[i] &= 2;
		if (c->body_contacts) memset(c->body_contacts, 0, sizeof(int) * c->nbodies);
		dSpaceCollide(c->space, c, near_callback);
	}
	if (awake > 0 && !c->no_sleep) {
		// Only a body that touches something may sleep: one that touches
		// nothing is not resting (a pendulum at the top of its swing, a
		// slow drift in zero gravity) and is woken, and ODE's auto-disable
		// is off for it until it touches something again. (Turning it off
		// resets ODE's velocity averages, so it changes only on a change.)
		for (int i = 0; i < c->nbodies && i < n; i++) {
			int t = c->touched[i] & 1, on = (c->touched[i] & 2) == 0;
			if (!t && !dBodyIsEnabled(bodies[i])) dBodyEnable(bodies[i]);
			if (t != on) {
				dBodySetAutoDisableFlag(bodies[i], t);
				c->touched[i] = t ? t : 2;
			} else {
				c->touched[i] = t | (on ? 0 : 2);
			}
		}
	}
	double t1 = pv_thread_cpu();
	int ok = dWorldQuickStep(c->world, dt);
	dJointGroupEmpty(c->contacts);
	double t2 = pv_thread_cpu();
	c->collide_time += t1 - t0;
	c->solve_time += t2 - t1;
	if (!ok) {
		snprintf(c->error, sizeof c->error, "ODE could not allocate the memory for a step");
		c->broken = 1;
		UNGUARD();
		return -1;
	}
	if (states) pv_read_states(bodies, states, n);
	UNGUARD();
	return 0;
}

void pv_body_flags(pv_ctx *c, dBodyID *bodies, int n, unsigned char *asleep, int *contacts) {
	for (int i = 0; i < n; i++) {
		asleep[i] = !dBodyIsEnabled(bodies[i]);
		contacts[i] = (c->body_contacts && i < c->nbodies) ? c->body_contacts[i] : 0;
	}
}

// pv_awake counts the bodies ODE has not put to sleep.
int pv_awake(dBodyID *bodies, int n) {
	int k = 0;
	for (int i = 0; i < n; i++) k += dBodyIsEnabled(bodies[i]) != 0;
	return k;
}

// pv_read_states writes, per body, position (3), quaternion w x y z (4),
// linear (3) and angular (3) velocity: 13 numbers.
void pv_read_states(dBodyID *bodies, double *out, int n) {
	for (int i = 0; i < n; i++) {
		const dReal *p = dBodyGetPosition(bodies[i]);
		const dReal *q = dBodyGetQuaternion(bodies[i]);
		const dReal *l = dBodyGetLinearVel(bodies[i]);
		const dReal *a = dBodyGetAngularVel(bodies[i]);
		double *o = out + 13 * i;
		for (int k = 0; k < 3; k++) o[k] = p[k];
		for (int k = 0; k < 4; k++) o[3 + k] = q[k];
		for (int k = 0; k < 3; k++) o[7 + k] = l[k];
		for (int k = 0; k < 3; k++) o[10 + k] = a[k];
	}
}

int pv_geom_new(pv_ctx *c, int kind, const double *p, dGeomID *out) {
	GUARD(c);
	switch (kind) {
	case PV_BOX: *out = dCreateBox(c->space, p[0], p[1], p[2]); break;
	case PV_SPHERE: *out = dCreateSphere(c->space, p[0]); break;
	case PV_CAPSULE: *out = dCreateCapsule(c->space, p[0], p[1]); break;
	case PV_CYLINDER: *out = dCreateCylinder(c->space, p[0], p[1]); break;
	default: dError(0, "unknown geom kind %d", kind);
	}
	UNGUARD();
	return 0;
}

int pv_convex_new(pv_ctx *c, double *planes, unsigned nplanes, double *points, unsigned npoints, unsigned *polygons, dGeomID *out) {
	GUARD(c);
	*out = dCreateConvex(c->space, planes, nplanes, points, npoints, polygons);
	UNGUARD();
	return 0;
}

int pv_trimesh_new(pv_ctx *c, dTriMeshDataID data, double *v, int nv, unsigned *ix, int ni, dGeomID *out) {
	GUARD(c);
	dGeomTriMeshDataBuildDouble(data, v, 3 * sizeof(double), nv, ix, ni, 3 * sizeof(unsigned));
	// ODE's convex-trimesh collider needs the angles between faces: without
	// them it raises ODE INTERNAL ERROR 2 ("Please preprocess the trimesh
	// data") when a convex body touches the mesh.
	if (!dGeomTriMeshDataPreprocess2(data, 1U << dTRIDATAPREPROCESS_BUILD_FACE_ANGLES, NULL)) {
		snprintf(c->error, sizeof c->error, "ODE: preparing the triangle mesh failed (out of memory?)");
		c->broken = 1;
		UNGUARD();
		return -1;
	}
	*out = dCreateTriMesh(c->space, data, NULL, NULL, NULL);
	UNGUARD();
	return 0;
}

static void quat(const double *v, dQuaternion q) {
	// v is x, y, z, w; ODE's is w, x, y, z.
	q[0] = v[3];
	q[1] = v[0];
	q[2] = v[1];
	q[3] = v[2];
}

int pv_geom_set(pv_ctx *c, dGeomID g, int what, dBodyID b, const double *v) {
	GUARD(c);
	dQuaternion q;
	switch (what) {
	case PV_GEOM_BODY: dGeomSetBody(g, b); break;
	case PV_GEOM_POSITION: dGeomSetPosition(g, v[0], v[1], v[2]); break;
	case PV_GEOM_QUATERNION: quat(v, q); dGeomSetQuaternion(g, q); break;
	case PV_GEOM_OFFSET_POSITION: dGeomSetOffsetPosition(g, v[0], v[1], v[2]); break;
	case PV_GEOM_OFFSET_QUATERNION: quat(v, q); dGeomSetOffsetQuaternion(g, q); break;
	}
	UNGUARD();
	return 0;
}

int pv_body_new(pv_ctx *c, dBodyID *out) {
	if (!grow((void **)&c->touched, &c->captouched, c->nbodies + 1, 1)) return -2;
	if (!grow((void **)&c->body_contacts, &c->capbodycontacts, c->nbodies + 1, sizeof(int))) return -2;
	GUARD(c);
	*out = dBodyCreate(c->world);
	dBodySetData(*out, (void *)(intptr_t)(c->nbodies + 1));
	c->body_contacts[c->nbodies] = 0;
	c->touched[c->nbodies++] = 0;
	UNGUARD();
	return 0;
}

int pv_body_set(pv_ctx *c, dBodyID b, int what, const double *v) {
	GUARD(c);
	dQuaternion q;
	switch (what) {
	case PV_BODY_POSITION: dBodySetPosition(b, v[0], v[1], v[2]); break;
	case PV_BODY_QUATERNION: quat(v, q); dBodySetQuaternion(b, q); break;
	case PV_BODY_LINEAR_VEL: dBodySetLinearVel(b, v[0], v[1], v[2]); break;
	case PV_BODY_ANGULAR_VEL: dBodySetAngularVel(b, v[0], v[1], v[2]); break;
	case PV_BODY_KINEMATIC: dBodySetKinematic(b); break;
	case PV_BODY_GRAVITY_MODE: dBodySetGravityMode(b, v[0] != 0); break;
	}
	// A body that is placed or set moving wakes up.
	if (what != PV_BODY_GRAVITY_MODE) dBodyEnable(b);
	UNGUARD();
	return 0;
}

// pv_body_set_mass returns 1 (and sets nothing) when ODE's dMassCheck
// refuses the mass and inertia.
int pv_body_set_mass(pv_ctx *c, dBodyID b, double mass, const double *in) {
	GUARD(c);
	dMass m;
	dMassSetParameters(&m, mass, 0, 0, 0, in[0], in[4], in[8], in[1], in[2], in[5]);
	if (!dMassCheck(&m)) {
		UNGUARD();
		return 1;
	}
	dBodySetMass(b, &m);
	UNGUARD();
	return 0;
}

int pv_joint_new(pv_ctx *c, int type, dBodyID b1, dBodyID b2, const double *a, const double *x, const double *y, dJointID *out) {
	GUARD(c);
	dJointID id = 0;
	switch (type) {
	case PV_J_FIXED: id = dJointCreateFixed(c->world, 0); break;
	case PV_J_BALL: id = dJointCreateBall(c->world, 0); break;
	case PV_J_HINGE: id = dJointCreateHinge(c->world, 0); break;
	case PV_J_SLIDER: id = dJointCreateSlider(c->world, 0); break;
	case PV_J_UNIVERSAL: id = dJointCreateUniversal(c->world, 0); break;
	case PV_J_PISTON: id = dJointCreatePiston(c->world, 0); break;
	default: dError(0, "unknown joint type %d", type);
	}
	dJointAttach(id, b1, b2);
	c->joints = 1;
	switch (type) {
	case PV_J_FIXED: dJointSetFixed(id); break;
	case PV_J_BALL: dJointSetBallAnchor(id, a[0], a[1], a[2]); break;
	case PV_J_HINGE:
		dJointSetHingeAnchor(id, a[0], a[1], a[2]);
		dJointSetHingeAxis(id, x[0], x[1], x[2]);
		break;
	case PV_J_SLIDER: dJointSetSliderAxis(id, x[0], x[1], x[2]); break;
	case PV_J_UNIVERSAL:
		dJointSetUniversalAnchor(id, a[0], a[1], a[2]);
		dJointSetUniversalAxis1(id, x[0], x[1], x[2]);
		dJointSetUniversalAxis2(id, y[0], y[1], y[2]);
		break;
	case PV_J_PISTON:
		dJointSetPistonAnchor(id, a[0], a[1], a[2]);
		dJointSetPistonAxis(id, x[0], x[1], x[2]);
		break;
	}
	*out = id;
	UNGUARD();
	return 0;
}

int pv_joint_param(pv_ctx *c, dJointID j, int type, int param, double v) {
	GUARD(c);
	if (isinf(v)) v = v > 0 ? dInfinity : -dInfinity;
	switch (type) {
	case PV_J_HINGE: dJointSetHingeParam(j, param, v); break;
	case PV_J_SLIDER: dJointSetSliderParam(j, param, v); break;
	case PV_J_UNIVERSAL: dJointSetUniversalParam(j, param, v); break;
	case PV_J_PISTON: dJointSetPistonParam(j, param, v); break;
	case PV_J_AMOTOR: dJointSetAMotorParam(j, param, v); break;
	}
	UNGUARD();
	return 0;
}

int pv_joint_state(pv_ctx *c, dJointID j, int type, int group, double *x, double *v) {
	GUARD(c);
	*x = 0;
	*v = 0;
	switch (type) {
	case PV_J_HINGE:
		*x = dJointGetHingeAngle(j);
		*v = dJointGetHingeAngleRate(j);
		break;
	case PV_J_SLIDER:
		*x = dJointGetSliderPosition(j);
		*v = dJointGetSliderPositionRate(j);
		break;
	case PV_J_UNIVERSAL:
		if (group == 0) {
			*x = dJointGetUniversalAngle1(j);
			*v = dJointGetUniversalAngle1Rate(j);
		} else {
			*x = dJointGetUniversalAngle2(j);
			*v = dJointGetUniversalAngle2Rate(j);
		}
		break;
	case PV_J_PISTON:
		if (group == 0) {
			*x = dJointGetPistonPosition(j);
			*v = dJointGetPistonPositionRate(j);
		} else {
			*x = dJointGetPistonAngle(j);
			*v = dJointGetPistonAngleRate(j);
		}
		break;
	case PV_J_AMOTOR:
		if (group >= 0 && group < dJointGetAMotorNumAxes(j)) {
			*x = dJointGetAMotorAngle(j, group);
			*v = dJointGetAMotorAngleRate(j, group);
		}
		break;
	}
	UNGUARD();
	return 0;
}

int pv_amotor_new(pv_ctx *c, dBodyID b1, dBodyID b2, int naxes, dJointID *out) {
	GUARD(c);
	if (naxes < 1 || naxes > 3) dError(0, "angular motor with %d axes", naxes);
	dJointID id = dJointCreateAMotor(c->world, 0);
	dJointAttach(id, b1, b2);
	c->joints = 1;
	dJointSetAMotorMode(id, dAMotorUser);
	dJointSetAMotorNumAxes(id, naxes);
	for (int i = 0; i < naxes; i++) dJointSetAMotorAxis(id, i, 0, i == 0, i == 1, i == 2);
	*out = id;
	UNGUARD();
	return 0;
}

int pv_amotor_axis(pv_ctx *c, dJointID j, int i, const double *axis, double angle) {
	GUARD(c);
	if (i < 0 || i >= dJointGetAMotorNumAxes(j)) dError(0, "angular motor axis %d of %d", i, dJointGetAMotorNumAxes(j));
	dJointSetAMotorAxis(j, i, 0, axis[0], axis[1], axis[2]);
	dJointSetAMotorAngle(j, i, angle);
	UNGUARD();
	return 0;
}

int pv_world_set(pv_ctx *c, int what, const double *v) {
	GUARD(c);
	switch (what) {
	case PV_W_GRAVITY: dWorldSetGravity(c->world, v[0], v[1], v[2]); break;
	case PV_W_ERP: dWorldSetERP(c->world, v[0]); break;
	case PV_W_CFM: dWorldSetCFM(c->world, v[0]); break;
	case PV_W_ITERATIONS: dWorldSetQuickStepNumIterations(c->world, (int)v[0]); break;
	case PV_W_MAX_CORRECTING_VEL: dWorldSetContactMaxCorrectingVel(c->world, v[0]); break;
	case PV_W_SURFACE_LAYER: dWorldSetContactSurfaceLayer(c->world, v[0]); break;
	case PV_W_NO_SLEEP:
		c->no_sleep = 1;
		dWorldSetAutoDisableFlag(c->world, 0);
		for (int i = 0; i < c->nbodies; i++) c->touched[i] = 0;
		break;
	}
	UNGUARD();
	return 0;
}

int pv_raise(pv_ctx *c, int kind) {
	GUARD(c);
	switch (kind) {
	case 1: dError(7, "raised for a test (%d)", kind); break;
	case 2: dDebug(8, "raised for a test (%d)", kind); break;
	case 3: dMessage(9, "a message for a test (%d)", kind); break;
	case 4: dCreateBox(c->space, -1, 1, 1); break; // ODE's own argument check
	}
	UNGUARD();
	return 0;
}

/* The reference for the benchmark: the same scene as the Go benchmark (a
   static floor box, boxes of 0.5 m in a 10-wide grid, 1 m apart, in layers
   from 1 m up) stepped with ODE's own world gravity and a minimal near
   callback, no binding in between. Returns the CPU seconds the steps took
   on this thread (CPU time, so that other work on a shared machine does not
   count). */
typedef struct { dWorldID w; dJointGroupID cg; } ref_ctx;

static void ref_near(void *data, dGeomID o1, dGeomID o2) {
	ref_ctx *r = data;
	dBodyID b1 = dGeomGetBody(o1), b2 = dGeomGetBody(o2);
	if (b1 == b2) return;
	dContact ct[PV_MAX_CONTACTS];
	int n = dCollide(o1, o2, PV_MAX_CONTACTS, &ct[0].geom, sizeof(dContact));
	for (int i = 0; i < n; i++) {
		ct[i].surface.mode = dContactApprox1;
		ct[i].surface.mu = 0.6;
		dJointID j = dJointCreateContact(r->w, r->cg, &ct[i]);
		dJointAttach(j, b1, b2);
	}
}

double pv_reference_run(int boxes, int steps, double dt, int iterations) {
	ref_ctx r;
	r.w = dWorldCreate();
	r.cg = dJointGroupCreate(0);
	dWorldSetGravity(r.w, 0, -9.81, 0);
	dWorldSetQuickStepNumIterations(r.w, iterations);
	dWorldSetContactSurfaceLayer(r.w, 0.001);
	dSpaceID space = dHashSpaceCreate(0);
	dGeomID floor = dCreateBox(space, 100, 1, 100);
	dGeomSetPosition(floor, 0, -0.5, 0);
	for (int i = 0; i < boxes; i++) {
		dBodyID b = dBodyCreate(r.w);
		dMass m;
		dMassSetBoxTotal(&m, 1, 0.5, 0.5, 0.5);
		dBodySetMass(b, &m);
		dBodySetPosition(b, (i % 10) - 4.5, 1 + i / 100, ((i / 10) % 10) - 4.5);
		dGeomID g = dCreateBox(space, 0.5, 0.5, 0.5);
		dGeomSetBody(g, b);
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	for (int s = 0; s < steps; s++) {
		dSpaceCollide(space, &r, ref_near);
		dWorldQuickStep(r.w, dt);
		dJointGroupEmpty(r.cg);
	}
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
	dSpaceDestroy(space);
	dJointGroupDestroy(r.cg);
	dWorldDestroy(r.w);
	return (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
}

double pv_thread_cpu(void) {
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}
