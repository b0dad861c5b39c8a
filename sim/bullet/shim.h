// A C interface over Bullet Physics for cgo (shim.cc). Every entry point
// catches C++ exceptions and reports them as an error code and a message in
// the world; after one the world is broken and only pvb_world_free may be
// called.
#ifndef PVB_SHIM_H
#define PVB_SHIM_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pvb_world pvb_world;

// Combine modes (the same order as sim/ode's: a higher one wins).
enum { PVB_MULTIPLY = 0, PVB_MAXIMUM = 1, PVB_MINIMUM = 2, PVB_AVERAGE = 3 };

typedef struct {
	double friction, restitution;
	int friction_combine, restitution_combine;
	int trigger, owner;
	uint64_t category, collide, pass;
} pvb_surface;

enum { PVB_BOX = 1, PVB_SPHERE, PVB_CAPSULE_Z, PVB_CYLINDER_Z, PVB_CONVEX, PVB_TRIMESH };
enum { PVB_FIXED = 1, PVB_BALL, PVB_HINGE, PVB_SLIDER, PVB_UNIVERSAL, PVB_PISTON };
enum { PVB_LO_STOP = 1, PVB_HI_STOP, PVB_VEL, PVB_FMAX, PVB_STOP_ERP, PVB_STOP_CFM, PVB_CFM };
enum { PVB_B_POSITION = 1, PVB_B_ROTATION, PVB_B_LINEAR_VEL, PVB_B_ANGULAR_VEL, PVB_B_KINEMATIC };

enum { PVB_W_ERP = 1, PVB_W_CFM };

// pvb_world_param sets the world's ERP (contacts' and joints' error
// reduction) or CFM (constraint force mixing, ODE's meaning).
int pvb_world_param(pvb_world *w, int what, double v);
// pvb_world_new makes a world; NULL when out of memory.
pvb_world *pvb_world_new(int iterations, int no_sleep, int record_points);
void pvb_world_free(pvb_world *w);
// pvb_error is the message of the error that broke the world ("" if none).
const char *pvb_error(pvb_world *w);
int pvb_nmessages(pvb_world *w);
const char *pvb_message(pvb_world *w, int i);
void pvb_clear_messages(pvb_world *w);

int pvb_body_new(pvb_world *w);
// pvb_body_set sets a body's position (v[0..2]), rotation (x, y, z, w),
// velocities, or makes it kinematic.
int pvb_body_set(pvb_world *w, int b, int what, const double *v);
// pvb_body_mass sets the mass and the principal moments of inertia, the
// principal axes given as a rotation (x, y, z, w) of the body's axes.
int pvb_body_mass(pvb_world *w, int b, double mass, const double *diag, const double *principal);

// pvb_geom_new makes a shape: p holds sizes (box full extents; sphere
// radius; capsule radius and straight length; cylinder radius and length),
// pts and idx a convex hull's points or a triangle mesh. Returns its index
// or -1.
int pvb_geom_new(pvb_world *w, int kind, const double *p, const double *pts, int npts, const unsigned *idx, int nidx, pvb_surface s);
// pvb_geom_place attaches geom g to body b at offset (pos, quat x, y, z, w)
// from the body's frame, or places it static (b < 0) in the world.
int pvb_geom_place(pvb_world *w, int g, int b, const double *pos, const double *quat);
int pvb_no_collide(pvb_world *w, int b, int g);

int pvb_joint_new(pvb_world *w, int kind, int b1, int b2, const double *anchor, const double *a1, const double *a2);
int pvb_joint_param(pvb_world *w, int j, int group, int param, double v);
int pvb_joint_state(pvb_world *w, int j, int group, double *x, double *v);

// pvb_step applies forces[3i..3i+2] to each awake dynamic body, moves the
// kinematic ones by their velocities, steps dt and writes 13 numbers a body
// into states (position, quaternion w x y z, linear and angular velocity).
int pvb_step(pvb_world *w, const double *forces, int n, double dt, double *states);
int pvb_read_states(pvb_world *w, double *states, int n);
int pvb_awake(pvb_world *w);
// pvb_body_flags fills, per body, asleep (1 when Bullet has put it to
// sleep) and contacts (its contact points in the last step, each point
// counted for both bodies it joins; either array may be NULL) and returns
// the contact points of the last step.
int pvb_body_flags(pvb_world *w, unsigned char *asleep, int *contacts, int n);
// pvb_dropped_pairs is how many pairs the pair budget (32 a moving body)
// left out in the last step: the pairs refused that its search met, and
// one for each body at its budget that did not search the moving objects
// (a lower bound in a crowd).
long pvb_dropped_pairs(pvb_world *w);
// pvb_counts writes what the last step's collision detection did (for
// tests): out[0] the pairs its broadphase search met (every pair the
// filter was asked about or the crowd search passed over), out[1] the
// contact manifolds (pairs that ran the narrowphase), out[2] the
// broadphase pairs.
void pvb_counts(pvb_world *w, long *out);
// pvb_tune turns off physview's own speed-ups (bits, shim.cc's tune*) for
// measurements that compare worlds with and without them.
void pvb_tune(pvb_world *w, unsigned bits);
int pvb_noverlaps(pvb_world *w);
const int *pvb_overlaps(pvb_world *w);
int pvb_npoints(pvb_world *w);
const double *pvb_points(pvb_world *w);
int pvb_raise(pvb_world *w, int kind);
// pvb_bullet_steps makes the world run Bullet's own solver and world steps
// where physview's replace them (the same motion), before the first step;
// for tests that compare the two.
int pvb_bullet_steps(pvb_world *w);

// Angular motors (ODE's user mode): n (1 to 3) axes between body b1 and
// b2 (the world when b2 < 0) whose world directions and angles the caller
// sets before each step (pvb_amotor_axis; turning b1 about an axis relative
// to b2 increases its angle), each with stops (PVB_LO_STOP, PVB_HI_STOP,
// PVB_STOP_ERP, PVB_STOP_CFM as ODE reads them). Their index is a joint's.
enum { PVB_AMOTOR = 16 };
int pvb_amotor_new(pvb_world *w, int b1, int b2, int n);
int pvb_amotor_axis(pvb_world *w, int j, int i, const double *dir, double angle);
int pvb_amotor_param(pvb_world *w, int j, int i, int param, double v);
int pvb_amotor_angle(pvb_world *w, int j, int i, double *angle);

#ifdef __cplusplus
}
#endif
#endif
