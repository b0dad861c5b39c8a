#include "collide.h"
#include <math.h>
#include <stdlib.h>
#include <time.h>

pv_ctx *pv_ctx_new(dWorldID w) {
	pv_ctx *c = calloc(1, sizeof(pv_ctx));
	if (!c) return NULL;
	c->world = w;
	c->contacts = dJointGroupCreate(0);
	c->bounce_vel = 0.01;
	return c;
}

void pv_ctx_free(pv_ctx *c) {
	if (!c) return;
	dJointGroupDestroy(c->contacts);
	free(c->geoms);
	free(c->overlaps);
	free(c->points);
	free(c);
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

static double combine(double a, double b, int ma, int mb) {
	switch (ma > mb ? ma : mb) {
	case PV_MINIMUM: return fmin(a, b);
	case PV_MULTIPLY: return a * b;
	case PV_MAXIMUM: return fmax(a, b);
	}
	return (a + b) / 2;
}

#define PV_MAX_CONTACTS 8

static void near_callback(void *data, dGeomID o1, dGeomID o2) {
	pv_ctx *c = data;
	intptr_t i1 = (intptr_t)dGeomGetData(o1) - 1, i2 = (intptr_t)dGeomGetData(o2) - 1;
	if (i1 < 0 || i2 < 0 || i1 >= c->ngeoms || i2 >= c->ngeoms) return;
	pv_geom *g1 = &c->geoms[i1], *g2 = &c->geoms[i2];
	dBodyID b1 = dGeomGetBody(o1), b2 = dGeomGetBody(o2);
	if (b1 == b2) return; // one body, or both static
	if (!(g1->category & g2->collide) || !(g2->category & g1->collide)) return;
	if (g1->pass & g2->pass) return;
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
	if (c->joints && b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact)) return;
	dContact ct[PV_MAX_CONTACTS];
	int n = dCollide(o1, o2, PV_MAX_CONTACTS, &ct[0].geom, sizeof(dContact));
	if (n <= 0) return;
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
		if (c->record_points && grow((void **)&c->points, &c->cappoints, c->npoints * 3 + 3, sizeof(double) * 3)) {
			c->points[c->npoints * 3] = ct[i].geom.pos[0];
			c->points[c->npoints * 3 + 1] = ct[i].geom.pos[1];
			c->points[c->npoints * 3 + 2] = ct[i].geom.pos[2];
			c->npoints++;
		}
	}
}

void pv_collide(pv_ctx *c, dSpaceID space) {
	c->noverlaps = 0;
	c->npoints = 0;
	dSpaceCollide(space, c, near_callback);
}

void pv_add_forces(dBodyID *bodies, const double *f, int n) {
	for (int i = 0; i < n; i++) {
		if (f[3 * i] != 0 || f[3 * i + 1] != 0 || f[3 * i + 2] != 0)
			dBodyAddForce(bodies[i], f[3 * i], f[3 * i + 1], f[3 * i + 2]);
	}
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
