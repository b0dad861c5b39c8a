// Collision handling for the physview ODE binding: the near callback runs in
// C, so a step makes no calls back into Go.
#ifndef PHYSVIEW_COLLIDE_H
#define PHYSVIEW_COLLIDE_H
#include <ode/ode.h>
#include <stdint.h>

// Combine modes of OMI physics materials, ranked as OMI_physics_body says
// which applies when two materials disagree: "if either uses average ...,
// else if either uses minimum ..., else maximum, else multiply" (the
// higher number wins).
enum { PV_MULTIPLY = 0, PV_MAXIMUM = 1, PV_MINIMUM = 2, PV_AVERAGE = 3 };

// pv_geom is what the near callback knows about one geom; the geom's data
// pointer holds its index + 1 into pv_ctx.geoms.
typedef struct {
	double friction, restitution;
	int friction_combine, restitution_combine;
	int trigger;          // a trigger reports overlaps and makes no contacts
	int owner;            // the binding user's number for the geom's owner
	uint64_t category, collide; // collision filter bits (both must agree)
	uint64_t pass;              // geoms sharing a pass bit never touch
} pv_geom;

typedef struct { int trigger_geom, other_geom; } pv_overlap;

typedef struct {
	dWorldID world;
	dJointGroupID contacts;
	pv_geom *geoms;
	int ngeoms, capgeoms;
	pv_overlap *overlaps;
	int noverlaps, capoverlaps;
	double *points; // contact positions x, y, z
	int npoints, cappoints;
	int record_points;
	double bounce_vel, soft_cfm;
	int joints; // set once the world has a joint: only then are joined bodies looked for
} pv_ctx;

pv_ctx *pv_ctx_new(dWorldID w);
void pv_ctx_free(pv_ctx *c);
int pv_ctx_add_geom(pv_ctx *c, dGeomID g, pv_geom info);
void pv_collide(pv_ctx *c, dSpaceID space);
void pv_add_forces(dBodyID *bodies, const double *forces, int n);
void pv_read_states(dBodyID *bodies, double *out, int n);
double pv_reference_run(int boxes, int steps, double dt, int iterations);
double pv_thread_cpu(void);
#endif
