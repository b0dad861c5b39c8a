// Collision handling and guarded entry points for the physview ODE binding:
// the near callback runs in C, so a step makes no calls back into Go, and
// every call that can reach one of ODE's error checks goes through a C
// function that catches the error (see "Errors" below).
#ifndef PHYSVIEW_COLLIDE_H
#define PHYSVIEW_COLLIDE_H
#include <ode/ode.h>
#include <stdint.h>

// Combine modes of OMI physics materials, ranked as OMI_physics_body says
// which applies when two materials disagree: "if either uses average ...,
// else if either uses minimum ..., else maximum, else multiply" (the
// higher number wins).
enum { PV_MULTIPLY = 0, PV_MAXIMUM = 1, PV_MINIMUM = 2, PV_AVERAGE = 3 };

// PV_MAX_CONTACTS is the most contacts one pair of geoms makes a step: ODE
// reduces a box-box or convex contact to its deepest points, four of which
// hold a resting face as well as eight.
#define PV_MAX_CONTACTS 4

// PV_MAX_MESSAGES is how many distinct ODE messages a world keeps until Go
// reads them; later ones are only counted.
#define PV_MAX_MESSAGES 16
#define PV_MESSAGE_LEN 240

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
	dSpaceID space;
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
	// Contact budget: at most max_step contact joints a step; the pairs
	// and contacts past it are counted, not made.
	int max_step, ncontacts;
	long dropped_pairs, dropped_contacts; // this step
	long bad_contacts; // contacts ODE made with a NaN or zero normal, skipped (all steps)
	// CPU seconds the steps spent colliding and solving (pv_step).
	double collide_time, solve_time;
	// Per body (in creation order): bit 0 set when its geoms came near
	// another's this step, bit 1 when its auto-disable is off (pv_step).
	char *touched;
	int nbodies, captouched;
	// Per body (in creation order): the contact points it got in the
	// last collision pass (pv_body_flags reads them for recordings).
	int *body_contacts;
	int capbodycontacts;
	int no_sleep; // auto-disable is off for the whole world
	// Pairs (body index, static geom index) that never collide: a body
	// and the static colliders it is jointed to.
	int *excl;
	int nexcl, capexcl;
	// Errors: set once ODE reported an error (the world is then broken).
	int broken;
	char error[512];
	// Messages ODE printed through dMessage since Go last read them.
	char messages[PV_MAX_MESSAGES][PV_MESSAGE_LEN];
	int nmessages;
	long more_messages;
} pv_ctx;

void pv_install_handlers(void);
pv_ctx *pv_ctx_new(void);
int pv_ctx_free(pv_ctx *c);
int pv_ctx_add_geom(pv_ctx *c, dGeomID g, pv_geom info);
// pv_no_collide keeps body index b (creation order) and geom index g apart;
// -1 when out of memory.
int pv_no_collide(pv_ctx *c, int b, int g);
int pv_step(pv_ctx *c, dBodyID *bodies, const double *forces, int n, double dt, double *states);
int pv_awake(dBodyID *bodies, int n);
void pv_read_states(dBodyID *bodies, double *out, int n);
// pv_body_flags writes, per body, 1 when ODE has put it to sleep
// (asleep) and its contact points in the last collision pass (contacts).
void pv_body_flags(pv_ctx *c, dBodyID *bodies, int n, unsigned char *asleep, int *contacts);

// Guarded constructors and setters: 0 on success, -1 when ODE reported an
// error (c->error says which).
enum { PV_BOX = 1, PV_SPHERE, PV_CAPSULE, PV_CYLINDER };
int pv_geom_new(pv_ctx *c, int kind, const double *p, dGeomID *out);
int pv_convex_new(pv_ctx *c, double *planes, unsigned nplanes, double *points, unsigned npoints, unsigned *polygons, dGeomID *out);
int pv_trimesh_new(pv_ctx *c, dTriMeshDataID data, double *v, int nv, unsigned *ix, int ni, dGeomID *out);
enum { PV_GEOM_BODY = 1, PV_GEOM_POSITION, PV_GEOM_QUATERNION, PV_GEOM_OFFSET_POSITION, PV_GEOM_OFFSET_QUATERNION };
int pv_geom_set(pv_ctx *c, dGeomID g, int what, dBodyID b, const double *v);
int pv_body_new(pv_ctx *c, dBodyID *out);
enum { PV_BODY_POSITION = 1, PV_BODY_QUATERNION, PV_BODY_LINEAR_VEL, PV_BODY_ANGULAR_VEL, PV_BODY_KINEMATIC, PV_BODY_GRAVITY_MODE };
int pv_body_set(pv_ctx *c, dBodyID b, int what, const double *v);
int pv_body_set_mass(pv_ctx *c, dBodyID b, double mass, const double *inertia);
enum { PV_J_FIXED = 1, PV_J_BALL, PV_J_HINGE, PV_J_SLIDER, PV_J_UNIVERSAL, PV_J_PISTON, PV_J_AMOTOR };
int pv_joint_new(pv_ctx *c, int type, dBodyID b1, dBodyID b2, const double *anchor, const double *axis1, const double *axis2, dJointID *out);
int pv_joint_param(pv_ctx *c, dJointID j, int type, int param, double v);
// pv_joint_state reads a joint's position (m or rad) and its rate along
// axis group (0 or 1).
int pv_joint_state(pv_ctx *c, dJointID j, int type, int group, double *x, double *v);
// pv_amotor_new makes an angular motor in user mode with naxes (1..3) axes
// between b1 and b2; pv_amotor_axis sets axis i's direction (world space)
// and the angle its stops are measured at.
int pv_amotor_new(pv_ctx *c, dBodyID b1, dBodyID b2, int naxes, dJointID *out);
int pv_amotor_axis(pv_ctx *c, dJointID j, int i, const double *axis, double angle);
enum { PV_W_GRAVITY = 1, PV_W_ERP, PV_W_CFM, PV_W_ITERATIONS, PV_W_NO_SLEEP, PV_W_MAX_CORRECTING_VEL, PV_W_SURFACE_LAYER };
int pv_world_set(pv_ctx *c, int what, const double *v);
// pv_raise_error and pv_raise_debug make ODE report an error (for tests).
int pv_raise(pv_ctx *c, int kind);

double pv_reference_run(int boxes, int steps, double dt, int iterations);
double pv_thread_cpu(void);
#endif
