// The C++ side of physview's binding to Debian's Bullet (libbullet-dev,
// single precision): a world built lazily from bodies and geoms the way
// sim/ode's binding takes them, one entry point per operation, every one
// guarded by a try/catch so that no C++ exception crosses into Go.
#include "shim.h"

#include <btBulletDynamicsCommon.h>
#include <BulletCollision/CollisionShapes/btEmptyShape.h>
#include <BulletCollision/CollisionDispatch/btCompoundCompoundCollisionAlgorithm.h>
#include <BulletCollision/CollisionDispatch/btSphereBoxCollisionAlgorithm.h>
#include <BulletCollision/CollisionDispatch/btSphereSphereCollisionAlgorithm.h>
#include <BulletCollision/CollisionDispatch/btSimulationIslandManager.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

// jointIterations is the least number of solver iterations a joint's rows
// get (ODE's count), whatever the world's count for contacts.
const int jointIterations = 20;

// info is what every collision object carries (its user pointer).
struct info {
	pvb_surface sf;
	int body = -1; // the body it moves with, -1 for static
	int geom = -1; // the static geom it is, -1 for a body
	bool dynamic = false;
	mutable int pairs = 0; // broadphase pairs it is in now
	double reach = INFINITY; // m: the most a step's push out of overlaps moves it (contactSolver)
};

struct geom {
	btCollisionShape *shape = nullptr;
	pvb_surface sf{};
	int body = -1;
	bool placed = false;
	btTransform xf = btTransform::getIdentity(); // offset, or world pose when static
	btCollisionObject *obj = nullptr;          // a static or trigger object
	info inf;
};

struct body {
	btRigidBody *rb = nullptr;
	btVector3 pos{0, 0, 0}, lv{0, 0, 0}, av{0, 0, 0};
	btQuaternion rot = btQuaternion::getIdentity();
	btQuaternion principal = btQuaternion::getIdentity();
	double mass = 1;
	btVector3 inertia{1, 1, 1};
	bool kinematic = false;
	std::vector<int> geoms;
	info inf;
};

struct axisDrive {
	double vel = 0, fmax = 0, cfm = 0;
	bool set = false;
};

struct joint {
	int kind = 0;
	btTypedConstraint *c = nullptr;
	btGeneric6DofSpring2Constraint *d6 = nullptr;
	int b1 = -1, b2 = -1; // b2 is Bullet's A (the reference), b1 its B
	int axis[2] = {-1, -1}; // 0..2 linear, 3..5 angular, per group
	double lo[2] = {1, 1}, hi[2] = {-1, -1};
	double stopCfm[2] = {-1, -1}; // ODE's stop CFM of a soft limit, -1 when rigid
	double stopErp[2] = {0.2, 0.2};
	axisDrive drive[2];
};

double combine(double a, double b, int ma, int mb) {
	switch (std::max(ma, mb)) {
	case PVB_MINIMUM: return std::min(a, b);
	case PVB_MULTIPLY: return a * b;
	case PVB_MAXIMUM: return std::max(a, b);
	}
	return (a + b) / 2;
}

const pvb_surface *surfaceOf(const btCollisionObjectWrapper *w) {
	if (const void *p = w->getCollisionShape()->getUserPointer()) return static_cast<const pvb_surface *>(p);
	if (const void *p = w->getCollisionObject()->getUserPointer()) return &static_cast<const info *>(p)->sf;
	return nullptr;
}

// materials combines the two surfaces' friction and restitution with the
// file's combine modes (Bullet would multiply both).
bool materials(btManifoldPoint &cp, const btCollisionObjectWrapper *w0, int, int, const btCollisionObjectWrapper *w1, int, int) {
	const pvb_surface *a = surfaceOf(w0), *b = surfaceOf(w1);
	if (!a || !b) return false;
	cp.m_combinedFriction = combine(a->friction, b->friction, a->friction_combine, b->friction_combine);
	double r = combine(a->restitution, b->restitution, a->restitution_combine, b->restitution_combine);
	cp.m_combinedRestitution = std::min(1.0, std::max(0.0, r));
	return true;
}

struct filter;
struct crowdBroadphase;

// contactSolver is Bullet's sequential impulse solver with two changes to
// the split impulse, the push out of overlaps (it moves positions and adds
// no speed):
//   - an overlap deeper than deepOverlap is taken out at deepErp a step
//     beyond that depth, not at the world's ERP2 (0.2): 2,000 spheres
//     started at one point part in a third of the steps, while resting
//     contacts (millimetres deep) keep 0.2 (at 0.8 Jolt's pyramid of
//     boxes never came to rest);
//   - a body moves at most its reach a step, the smallest half-extent of
//     its shape (the distance from which continuous collision sweeps it).
//     Overlaps of many bodies sum their pushes: 500 spheres started at
//     one point 1 m above the ground pushed some 3 m down in a few steps,
//     out of the ground's bottom; bounded, they land on it and the ground
//     pushes them out.
//
// Its conversion of contact points into solver rows, its set-up of the
// solver bodies and its write-back are Bullet's, in Bullet's order, with
// what they will read fetched a few items ahead (see fetchAhead): the
// rows, impulses and motion are the same (TestBulletStepsSame).
struct contactSolver : btSequentialImpulseConstraintSolver {
	static constexpr double deepOverlap = 0.04, deepErp = 0.8;
	bool plain = false; // Bullet's own steps, for tests (pvb_bullet_steps)

	// fetch asks for the cache lines of [p, p+n) ahead of their use.
	static void fetch(const void *p, size_t n) {
		const char *c = static_cast<const char *>(p);
		for (size_t k = 0; k < n; k += 64) __builtin_prefetch(c + k);
		__builtin_prefetch(c + n - 1);
	}

	// rigidLayout is where a rigid body's fields that a contact row reads
	// lie, measured on a body made once: fetchBody must not read the body
	// it fetches to find them.
	struct rigidLayout {
		ptrdiff_t inertia, inertiaLen, angularFactor;
		rigidLayout() {
			btRigidBody rb(0, nullptr, nullptr);
			const char *b = reinterpret_cast<const char *>(&rb);
			auto at = [&](const void *p) { return static_cast<const char *>(p) - b; };
			// The inverse inertia in world axes through the velocities,
			// inverse mass and linear factor, which follow it.
			inertia = at(&rb.getInvInertiaTensorWorld());
			inertiaLen = at(&rb.getLinearFactor()) + ptrdiff_t(sizeof(btVector3)) - inertia;
			angularFactor = at(&rb.getAngularFactor());
		}
	};

	// header is where a manifold's bodies and point count lie: past its
	// points.
	static const void *header(const btPersistentManifold *m) { return &m->getContactPoint(MANIFOLD_CACHE_SIZE - 1) + 1; }

	// islandLine is where a collision object's island tag lies (with its
	// flags and activation state, Bullet keeps them together), found once
	// by setting a probe's tag (there is no accessor to take its address).
	static ptrdiff_t islandLine() {
		static const ptrdiff_t at = [] {
			btCollisionObject probe;
			const int mark = 0x5a3c9617;
			probe.setIslandTag(mark);
			const char *b = reinterpret_cast<const char *>(&probe);
			for (size_t k = 0; k + sizeof(int) <= sizeof(probe); k += sizeof(int)) {
				int v;
				memcpy(&v, b + k, sizeof v);
				if (v == mark) return ptrdiff_t(k);
			}
			return ptrdiff_t(0);
		}();
		return at;
	}

	// fetchBody fetches what a contact row reads of a body: the collision
	// object (pose, flags, solver body index) and, past it in a rigid
	// body, the inverse inertia, velocities, inverse mass and factors.
	// (Fetching past a static collision object's end is harmless.)
	static void fetchBody(const btCollisionObject *o) {
		static const rigidLayout l;
		const char *c = reinterpret_cast<const char *>(o);
		fetch(c, sizeof(btCollisionObject));
		fetch(c + l.inertia, size_t(l.inertiaLen));
		fetch(c + l.angularFactor, sizeof(btVector3));
	}

	// fetchAhead fetches, while manifold i is converted, what manifolds
	// i + 4 to i + 12 will read, in three stages so that what a stage
	// reads has arrived: manifold i + 12's header (its bodies and point
	// count); i + 8's points and bodies; i + 4's bodies' solver bodies.
	// The manifolds, bodies and solver bodies of a pile lie scattered
	// over megabytes, and the conversion waited on memory for each: a
	// step of the tumbling pile takes 3 to 5 % less.
	void fetchAhead(btPersistentManifold **m, int n, int i) {
		if (i + 12 < n) __builtin_prefetch(header(m[i + 12]));
		if (i + 8 < n && m[i + 8]->getNumContacts()) {
			btPersistentManifold *q = m[i + 8];
			fetch(&q->getContactPoint(0), size_t(q->getNumContacts()) * sizeof(btManifoldPoint));
			fetchBody(q->getBody0());
			fetchBody(q->getBody1());
		}
		if (i + 4 < n && m[i + 4]->getNumContacts())
			for (const btCollisionObject *o : {m[i + 4]->getBody0(), m[i + 4]->getBody1()}) {
				int id = o->getCompanionId();
				if (id >= 0 && id < m_tmpSolverBodyPool.size()) fetch(&m_tmpSolverBodyPool[id], sizeof(btSolverBody));
			}
	}

	// convertBodies is Bullet's: every awake body's solver body, with its
	// gyroscopic term, in the bodies' order; with each body fetched four
	// bodies ahead.
	void convertBodies(btCollisionObject **bodies, int n, const btContactSolverInfo &si) override {
		if (plain) return btSequentialImpulseConstraintSolver::convertBodies(bodies, n, si);
		for (int i = 0; i < n; i++) bodies[i]->setCompanionId(-1);
		m_kinematicBodyUniqueIdToSolverBodyTable.resize(0);
		m_tmpSolverBodyPool.reserve(n + 1);
		m_tmpSolverBodyPool.resize(0);
		for (int i = 0; i < n; i++) {
			if (i + 4 < n) fetch(bodies[i + 4], sizeof(btRigidBody));
			int id = getOrInitSolverBody(*bodies[i], si.m_timeStep);
			btRigidBody *b = btRigidBody::upcast(bodies[i]);
			if (!b || !b->getInvMass()) continue;
			btSolverBody &sb = m_tmpSolverBodyPool[id];
			int flags = b->getFlags();
			if (flags & BT_ENABLE_GYROSCOPIC_FORCE_EXPLICIT)
				sb.m_externalTorqueImpulse -= b->computeGyroscopicForceExplicit(si.m_maxGyroscopicForce) * b->getInvInertiaTensorWorld() * si.m_timeStep;
			if (flags & BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_WORLD) sb.m_externalTorqueImpulse += b->computeGyroscopicImpulseImplicit_World(si.m_timeStep);
			if (flags & BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_BODY) sb.m_externalTorqueImpulse += b->computeGyroscopicImpulseImplicit_Body(si.m_timeStep);
		}
	}

	// solveGroupCacheFriendlyFinish is Bullet's: the solved impulses go
	// back to the contact points (the next step's warm start), the
	// velocities and poses to the bodies; in runs of 8 rows or bodies,
	// with the contact points and bodies 16 ahead fetched for writing
	// (a pile's points lie scattered over megabytes).
	btScalar solveGroupCacheFriendlyFinish(btCollisionObject **bodies, int numBodies, const btContactSolverInfo &si) override {
		if (plain) return btSequentialImpulseConstraintSolver::solveGroupCacheFriendlyFinish(bodies, numBodies, si);
		const int run = 8, ahead = 16;
		if (si.m_solverMode & SOLVER_USE_WARMSTARTING)
			for (int j = 0, n = m_tmpSolverContactConstraintPool.size(); j < n; j += run) {
				for (int k = j + ahead; k < std::min(j + ahead + run, n); k++)
					if (auto *cp = static_cast<btManifoldPoint *>(m_tmpSolverContactConstraintPool[k].m_originalContactPoint)) __builtin_prefetch(&cp->m_appliedImpulse, 1);
				writeBackContacts(j, std::min(j + run, n), si);
			}
		writeBackJoints(0, m_tmpSolverNonContactConstraintPool.size(), si);
		for (int i = 0, n = m_tmpSolverBodyPool.size(); i < n; i += run) {
			for (int k = i + ahead; k < std::min(i + ahead + run, n); k++)
				if (const btRigidBody *b = m_tmpSolverBodyPool[k].m_originalBody) fetchBody(b);
			writeBackBodies(i, std::min(i + run, n), si);
		}
		m_tmpSolverContactConstraintPool.resizeNoInitialize(0);
		m_tmpSolverNonContactConstraintPool.resizeNoInitialize(0);
		m_tmpSolverContactFrictionConstraintPool.resizeNoInitialize(0);
		m_tmpSolverContactRollingFrictionConstraintPool.resizeNoInitialize(0);
		m_tmpSolverBodyPool.resizeNoInitialize(0);
		return 0;
	}

	void convertContacts(btPersistentManifold **m, int n, const btContactSolverInfo &si) override {
		int first = m_tmpSolverContactConstraintPool.size();
		if (plain)
			btSequentialImpulseConstraintSolver::convertContacts(m, n, si);
		else
			for (int i = 0; i < n; i++) {
				fetchAhead(m, n, i);
				// A manifold without points makes no rows (many of a
				// pile's manifolds are near misses that keep their pair).
				if (m[i]->getNumContacts()) convertContact(m[i], si);
			}
		if (!si.m_splitImpulse || si.m_erp2 >= deepErp) return;
		for (int i = first; i < m_tmpSolverContactConstraintPool.size(); i++) {
			btSolverConstraint &c = m_tmpSolverContactConstraintPool[i];
			auto *cp = static_cast<const btManifoldPoint *>(c.m_originalContactPoint);
			double deeper = cp ? -cp->getDistance() - deepOverlap : 0;
			if (deeper > 0 && c.m_rhsPenetration > 0) c.m_rhsPenetration += btScalar((deepErp - si.m_erp2) * deeper / si.m_timeStep * c.m_jacDiagABInv);
		}
	}
	void solveGroupCacheFriendlySplitImpulseIterations(btCollisionObject **bodies, int numBodies, btPersistentManifold **m, int n, btTypedConstraint **c, int nc, const btContactSolverInfo &si, btIDebugDraw *dd) override {
		btSequentialImpulseConstraintSolver::solveGroupCacheFriendlySplitImpulseIterations(bodies, numBodies, m, n, c, nc, si, dd);
		boundPush(si);
	}

	// boundPush bounds each body's push out of overlaps to its reach a
	// step (see above), once the split impulse is solved.
	void boundPush(const btContactSolverInfo &si) {
		for (int i = 0; i < m_tmpSolverBodyPool.size(); i++) {
			btSolverBody &b = m_tmpSolverBodyPool[i];
			const info *in = b.m_originalBody ? static_cast<const info *>(b.m_originalBody->getUserPointer()) : nullptr;
			if (!in || !std::isfinite(in->reach)) continue;
			double v = b.m_pushVelocity.length(), max = in->reach / si.m_timeStep;
			if (v > max) b.m_pushVelocity *= btScalar(max / v);
		}
	}

	// solveGroupCacheFriendlyIterations solves the split impulse's passes
	// and the velocity passes over the contact rows together, each row's
	// push and then its velocity in one sweep, where Bullet sweeps all the
	// rows five times for the push and then five times for the velocities.
	// The two never read each other's numbers (the push works on the push
	// and turn velocities, the velocity passes on the velocity deltas), so
	// the results are Bullet's, and the rows are read from memory half as
	// often. Bullet's own runs for joints, rolling friction, shuffled or
	// interleaved rows, or no split impulse.
	btScalar solveGroupCacheFriendlyIterations(btCollisionObject **bodies, int numBodies, btPersistentManifold **m, int n, btTypedConstraint **c, int nc, const btContactSolverInfo &si, btIDebugDraw *dd) override {
		if (plain || nc || !si.m_splitImpulse || m_tmpSolverNonContactConstraintPool.size() || m_tmpSolverContactRollingFrictionConstraintPool.size() ||
			(si.m_solverMode & (SOLVER_RANDMIZE_ORDER | SOLVER_INTERLEAVE_CONTACT_AND_FRICTION_CONSTRAINTS)))
			return btSequentialImpulseConstraintSolver::solveGroupCacheFriendlyIterations(bodies, numBodies, m, n, c, nc, si, dd);
		auto &pool = m_tmpSolverBodyPool;
		btConstraintArray &contacts = m_tmpSolverContactConstraintPool, &friction = m_tmpSolverContactFrictionConstraintPool;
		int passes = std::max(m_maxOverrideNumSolverIterations, si.m_numIterations);
		bool pushing = si.m_numIterations > 0, solving = passes > 0;
		for (int it = 0; pushing || solving; it++) {
			btScalar pushResidual = 0, residual = 0;
			for (int j = 0, nr = contacts.size(); j < nr; j++) {
				const btSolverConstraint &r = contacts[m_orderTmpConstraintPool[j]];
				btSolverBody &a = pool[r.m_solverBodyIdA], &b = pool[r.m_solverBodyIdB];
				if (pushing) {
					btScalar e = m_resolveSplitPenetrationImpulse(a, b, r);
					pushResidual = btMax(pushResidual, e * e);
				}
				if (solving && it < si.m_numIterations) {
					btScalar e = m_resolveSingleConstraintRowLowerLimit(a, b, r);
					residual = btMax(residual, e * e);
				}
			}
			if (pushing && (pushResidual <= si.m_leastSquaresResidualThreshold || it >= si.m_numIterations - 1)) {
				pushing = false;
				boundPush(si);
			}
			if (!solving) continue;
			if (it < si.m_numIterations)
				for (int j = 0, nr = friction.size(); j < nr; j++) {
					btSolverConstraint &r = friction[m_orderFrictionConstraintPool[j]];
					btScalar normal = contacts[r.m_frictionIndex].m_appliedImpulse;
					if (normal > 0) {
						r.m_lowerLimit = -(r.m_friction * normal);
						r.m_upperLimit = r.m_friction * normal;
						btScalar e = m_resolveSingleConstraintRowGeneric(pool[r.m_solverBodyIdA], pool[r.m_solverBodyIdB], r);
						residual = btMax(residual, e * e);
					}
				}
			m_leastSquaresResidual = residual;
			if (residual <= si.m_leastSquaresResidualThreshold || it >= passes - 1) solving = false;
		}
		return 0;
	}
};

// oneBatch is Bullet's discrete world with the awake islands solved as one
// batch: the awake bodies, their contact manifolds in the dispatcher's
// order and their joints go to the solver in one call. Bullet's own way
// sorts the manifolds by island each step and solves them in batches of
// 128; its unsplit mode skips that but also solves sleeping bodies and
// the contacts of triggers. Which bodies sleep is still decided per island.
// Its other steps that read every body or manifold (sleep, predictive
// contacts, integration) are Bullet's with memory fetched ahead or work
// that changes nothing left out; the motion is Bullet's.
struct oneBatch : btDiscreteDynamicsWorld {
	oneBatch(btDispatcher *d, btBroadphaseInterface *bp, btConstraintSolver *s, btCollisionConfiguration *c) : btDiscreteDynamicsWorld(d, bp, s, c) {}
	btAlignedObjectArray<btCollisionObject *> bodies;
	btAlignedObjectArray<btPersistentManifold *> manifolds;
	btAlignedObjectArray<btTypedConstraint *> joints;
	// plain runs Bullet's own steps where physview's replace them (the
	// same motion, slower), for tests that compare the two
	// (pvb_bullet_steps).
	bool plain = false;

	// awake tells whether the island of a pair (the first of the two with
	// an island, as Bullet picks it) is awake.
	static bool awake(const btCollisionObject &a, const btCollisionObject &b) {
		const btCollisionObject &o = a.getIslandTag() >= 0 ? a : b;
		return o.getIslandTag() >= 0 && o.isActive();
	}

	std::vector<unsigned char> islandAwake; // per island id (sleepPerIsland)

	// sleepPerIsland decides which bodies sleep as Bullet's island manager
	// does: an island none of whose bodies is active goes to sleep, and in
	// an island that stays awake a sleeping body is woken to wanting sleep;
	// then a kinematic body wakes the bodies it touches. Bullet sorts all
	// bodies by island each step to find the islands; here a flag per
	// island (its id is an index below the number of objects) and two
	// passes over the bodies decide the same.
	void sleepPerIsland(btDispatcher *d) {
		int n = m_collisionObjects.size();
		islandAwake.assign(size_t(n), 0);
		bool kinematic = false;
		for (int i = 0; i < n; i++) {
			const btCollisionObject *o = m_collisionObjects[i];
			int tag = o->getIslandTag(), s = o->getActivationState();
			kinematic = kinematic || o->isKinematicObject();
			if (tag >= 0 && tag < n && (s == ACTIVE_TAG || s == DISABLE_DEACTIVATION)) islandAwake[tag] = 1;
		}
		for (int i = 0; i < n; i++) {
			btCollisionObject *o = m_collisionObjects[i];
			int tag = o->getIslandTag();
			if (tag < 0 || tag >= n) continue;
			if (!islandAwake[tag])
				o->setActivationState(ISLAND_SLEEPING);
			else if (o->getActivationState() == ISLAND_SLEEPING) {
				o->setActivationState(WANTS_DEACTIVATION);
				o->setDeactivationTime(0);
			}
		}
		if (!kinematic) return;
		bool deterministic = getDispatchInfo().m_deterministicOverlappingPairs;
		for (int i = 0, nm = d->getNumManifolds(); i < nm; i++) {
			btPersistentManifold *m = d->getManifoldByIndexInternal(i);
			if (deterministic && !m->getNumContacts()) continue;
			auto *a = const_cast<btCollisionObject *>(m->getBody0()), *b = const_cast<btCollisionObject *>(m->getBody1());
			bool aAwake = a->getActivationState() != ISLAND_SLEEPING, bAwake = b->getActivationState() != ISLAND_SLEEPING;
			if (!aAwake && !bAwake) continue;
			if (a->isKinematicObject() && aAwake && a->hasContactResponse()) b->activate();
			if (b->isKinematicObject() && b->getActivationState() != ISLAND_SLEEPING && b->hasContactResponse()) a->activate();
		}
	}

	// createPredictiveContacts is Bullet's, for the bodies whose motion
	// this step is long enough for it to sweep them (continuous
	// collision): Bullet integrates every active body's motion to find
	// them, and none of a pile's thousands is.
	void createPredictiveContacts(btScalar dt) override {
		if (plain) return btDiscreteDynamicsWorld::createPredictiveContacts(dt);
		releasePredictiveContacts();
		bool sweeps = getDispatchInfo().m_useContinuous;
		for (int i = 0; i < m_nonStaticRigidBodies.size(); i++) {
			btRigidBody *b = m_nonStaticRigidBodies[i];
			b->setHitFraction(1);
			btScalar ccd = b->getCcdSquareMotionThreshold();
			if (!sweeps || !ccd || !b->isActive() || b->isStaticOrKinematicObject()) continue;
			// The distance the body's origin moves this step, worked out
			// as Bullet does (its integration moves the origin by the
			// velocity times the step).
			const btVector3 &o = b->getWorldTransform().getOrigin();
			if (ccd < ((o + b->getLinearVelocity() * dt) - o).length2()) createPredictiveContactsInternal(&b, 1, dt);
		}
	}

	// integrateTransforms is Bullet's: each body moves by its velocities
	// (swept where continuous collision asks), in runs of 8 bodies with the
	// next run fetched.
	void integrateTransforms(btScalar dt) override {
		if (plain || m_applySpeculativeContactRestitution) return btDiscreteDynamicsWorld::integrateTransforms(dt);
		const int run = 8;
		for (int i = 0, n = m_nonStaticRigidBodies.size(); i < n; i += run) {
			for (int k = i + run; k < std::min(i + 2 * run, n); k++) contactSolver::fetch(m_nonStaticRigidBodies[k], sizeof(btRigidBody));
			integrateTransformsInternal(&m_nonStaticRigidBodies[i], std::min(run, n - i), dt);
		}
	}

	void solveConstraints(btContactSolverInfo &si) override {
		btDispatcher *d = getDispatcher();
		if (plain)
			m_islandManager->buildIslands(d, this);
		else
			sleepPerIsland(d);
		bodies.resize(0);
		manifolds.resize(0);
		joints.resize(0);
		for (int i = 0; i < m_collisionObjects.size(); i++) {
			btCollisionObject *o = m_collisionObjects[i];
			if (o->getIslandTag() >= 0 && o->isActive()) bodies.push_back(o);
		}
		// The manifolds with points (one without makes no rows) of awake
		// islands, in the dispatcher's order; each manifold's header
		// fetched 16 ahead and its bodies' island tags 8 ahead (the
		// manifolds and bodies of a pile lie scattered over megabytes).
		ptrdiff_t tag = contactSolver::islandLine();
		for (int i = 0, n = d->getNumManifolds(); i < n; i++) {
			if (!plain && i + 16 < n) __builtin_prefetch(contactSolver::header(d->getManifoldByIndexInternal(i + 16)));
			if (!plain && i + 8 < n) {
				const btPersistentManifold *q = d->getManifoldByIndexInternal(i + 8);
				__builtin_prefetch(reinterpret_cast<const char *>(q->getBody0()) + tag);
				__builtin_prefetch(reinterpret_cast<const char *>(q->getBody1()) + tag);
			}
			btPersistentManifold *m = d->getManifoldByIndexInternal(i);
			if (!plain && !m->getNumContacts()) continue;
			const btCollisionObject *a = m->getBody0(), *b = m->getBody1();
			if (awake(*a, *b) && d->needsResponse(a, b)) manifolds.push_back(m);
		}
		for (int i = 0; i < m_constraints.size(); i++) {
			btTypedConstraint *c = m_constraints[i];
			if (awake(c->getRigidBodyA(), c->getRigidBodyB())) joints.push_back(c);
		}
		m_constraintSolver->prepareSolve(bodies.size(), manifolds.size());
		m_constraintSolver->solveGroup(bodies.size() ? &bodies[0] : nullptr, bodies.size(),
			manifolds.size() ? &manifolds[0] : nullptr, manifolds.size(),
			joints.size() ? &joints[0] : nullptr, joints.size(), si, m_debugDrawer, d);
		m_constraintSolver->allSolved(si, m_debugDrawer);
	}
};

// apartSpheres tells whether two proxies are spheres (a body's or a
// geom's only shape, centred) farther apart than their radii and twice
// Bullet's contact threshold, each grown by it as their boxes are.
bool apartSpheres(const btBroadphaseProxy *a, const btBroadphaseProxy *b) {
	auto *oa = static_cast<const btCollisionObject *>(a->m_clientObject);
	auto *ob = static_cast<const btCollisionObject *>(b->m_clientObject);
	const btCollisionShape *sa = oa->getCollisionShape(), *sb = ob->getCollisionShape();
	if (sa->getShapeType() != SPHERE_SHAPE_PROXYTYPE || sb->getShapeType() != SPHERE_SHAPE_PROXYTYPE) return false;
	btScalar r = static_cast<const btSphereShape *>(sa)->getRadius() + static_cast<const btSphereShape *>(sb)->getRadius() + 2 * gContactBreakingThreshold;
	return (oa->getWorldTransform().getOrigin() - ob->getWorldTransform().getOrigin()).length2() > r * r;
}

// nearCallback runs the narrowphase of a broadphase pair only when the
// two objects' bounding boxes (grown by Bullet's contact threshold, 2 cm)
// overlap. The dynamic AABB tree pairs objects by boxes grown by a further
// 5 cm; in a pile half its pairs are such near misses, which make no
// contact point but cost a collision test each step (a sweep-and-prune
// broadphase would not pair them at all). A pair that is skipped loses its
// collision algorithm and manifold, as when the broadphase drops a pair.
// Two spheres are tested as spheres grown by the same threshold: boxes
// overlap for spheres up to 1.7 diameters apart, and on a floor of
// spheres rolling side by side three in five such pairs are that far.
void nearCallback(btBroadphasePair &p, btCollisionDispatcher &d, const btDispatcherInfo &info) {
	const btBroadphaseProxy *a = p.m_pProxy0, *b = p.m_pProxy1;
	if (!TestAabbAgainstAabb2(a->m_aabbMin, a->m_aabbMax, b->m_aabbMin, b->m_aabbMax) || apartSpheres(a, b)) {
		if (p.m_algorithm) {
			p.m_algorithm->~btCollisionAlgorithm();
			d.freeCollisionAlgorithm(p.m_algorithm);
			p.m_algorithm = nullptr;
		}
		return;
	}
	btCollisionDispatcher::defaultNearCallback(p, d, info);
}

// The bits of pvb_tune: physview's own speed-ups turned off, so that one
// process can step worlds with and without them (TestPileAB).
enum : unsigned {
	tuneNoFetch = 1, // no fetching ahead in the walks over pairs and bodies
	tuneNoShare = 2, // no shapes shared between bodies (sharedShape)
};

// fetch asks the processor to bring the cache lines of bytes at p into
// the cache ahead of their use (a hint: nothing is read or faulted).
inline void fetch(const void *p, size_t bytes) {
	uintptr_t a = uintptr_t(p) & ~uintptr_t(63), end = uintptr_t(p) + bytes;
	for (; a < end; a += 64) __builtin_prefetch(reinterpret_cast<const void *>(a));
}

// objectBytes is how much of a collision object the collision and island
// code read per pair (its transforms, shape, proxy, flags, island tag and
// activation state lie in its first 256 bytes).
const size_t objectBytes = 256;

// pairDispatcher is Bullet's collision dispatcher walking the pair cache
// itself, in the cache's order as Bullet does, and fetching ahead the
// memory a pair's test reads: the two proxies (their boxes) eight pairs
// ahead, the two collision objects and the pair's algorithm four ahead,
// its contact manifolds two ahead. A pile's pairs sit in the cache in the
// order they were found, their proxies, objects and manifolds all over
// the heap, and the near callback waited on memory for most of its time.
// With the other walks' fetching ahead (pairIslands, pairWorld,
// fetchBody), a pile's step takes 1.17 to 1.21 times as long without
// (TestPileAB). The pairs are tested in Bullet's order, with Bullet's
// results (TestSpeedUpsExact).
struct pairDispatcher : btCollisionDispatcher {
	unsigned *tune;
	btManifoldArray ms;
	pairDispatcher(btCollisionConfiguration *c, unsigned *tune) : btCollisionDispatcher(c), tune(tune) {}
	void dispatchAllCollisionPairs(btOverlappingPairCache *pc, const btDispatcherInfo &di, btDispatcher *d) override {
		if ((*tune & tuneNoFetch) || di.m_deterministicOverlappingPairs) {
			// The cache sorts its pairs first in this mode.
			btCollisionDispatcher::dispatchAllCollisionPairs(pc, di, d);
			return;
		}
		// The near callback never removes a pair (Bullet's pair callback
		// returns false for every pair), so the array stays as it is.
		btBroadphasePairArray &a = pc->getOverlappingPairArray();
		const int n = a.size();
		btNearCallback cb = getNearCallback();
		for (int i = 0; i < n; i++) {
			if (i + 8 < n) {
				fetch(a[i + 8].m_pProxy0, 64);
				fetch(a[i + 8].m_pProxy1, 64);
			}
			if (i + 4 < n) {
				// Only for a pair whose boxes overlap: the near callback
				// reads no more of a near miss (half a pile's pairs).
				const btBroadphasePair &q = a[i + 4];
				const btBroadphaseProxy *p0 = q.m_pProxy0, *p1 = q.m_pProxy1;
				if (TestAabbAgainstAabb2(p0->m_aabbMin, p0->m_aabbMax, p1->m_aabbMin, p1->m_aabbMax)) {
					fetch(p0->m_clientObject, objectBytes);
					fetch(p1->m_clientObject, objectBytes);
				}
				if (q.m_algorithm) fetch(q.m_algorithm, 64);
			}
			if (i + 2 < n && a[i + 2].m_algorithm) {
				ms.resize(0);
				a[i + 2].m_algorithm->getAllContactManifolds(ms);
				for (int k = 0; k < ms.size(); k++) fetch(ms[k], sizeof(btPersistentManifold));
			}
			cb(a[i], *this, di);
		}
	}
};

// pairIslands is Bullet's island manager with the union of the islands
// of every broadphase pair's two objects done from a table of the
// objects' island tags by proxy (tags): the walk over the pairs then reads
// the proxies' numbers, not the objects (half of a pile's pairs are near
// misses whose objects nothing else reads in the step). The islands are
// Bullet's.
struct pairIslands : btSimulationIslandManager {
	unsigned *tune;
	bool plain = false; // Bullet's own union, for tests (pvb_bullet_steps)
	btAlignedObjectArray<int> tags; // by proxy unique id: the island tag, -1 when the object merges no islands
	explicit pairIslands(unsigned *tune) : tune(tune) {}
	void updateActivationState(btCollisionWorld *cw, btDispatcher *d) override {
		if (plain || (*tune & tuneNoFetch)) {
			btSimulationIslandManager::updateActivationState(cw, d);
			return;
		}
		// Bullet's numbering of the islands' objects.
		btCollisionObjectArray &objs = cw->getCollisionObjectArray();
		int index = 0;
		for (int i = 0, n = objs.size(); i < n; i++) {
			btCollisionObject *o = objs[i];
			if (!o->isStaticOrKinematicObject()) o->setIslandTag(index++);
			o->setCompanionId(-1);
			o->setHitFraction(1);
			if (const btBroadphaseProxy *p = o->getBroadphaseHandle()) {
				int u = p->m_uniqueId;
				if (u < 0) continue;
				if (u >= tags.size()) tags.resize(u + 1, -1);
				tags[u] = o->mergesSimulationIslands() ? o->getIslandTag() : -1;
			}
		}
		initUnionFind(index);
		// Bullet's findUnions.
		btOverlappingPairCache *pc = cw->getPairCache();
		const int n = pc->getNumOverlappingPairs();
		const btBroadphasePair *a = pc->getOverlappingPairArrayPtr();
		btUnionFind &uf = getUnionFind();
		for (int i = 0; i < n; i++) {
			if (i + 8 < n) {
				fetch(a[i + 8].m_pProxy0, sizeof(btBroadphaseProxy));
				fetch(a[i + 8].m_pProxy1, sizeof(btBroadphaseProxy));
			}
			int u0 = a[i].m_pProxy0->m_uniqueId, u1 = a[i].m_pProxy1->m_uniqueId;
			if (u0 < 0 || u1 < 0 || u0 >= tags.size() || u1 >= tags.size()) continue;
			int t0 = tags[u0], t1 = tags[u1];
			if (t0 >= 0 && t1 >= 0) uf.unite(t0, t1);
		}
	}
};

// pairWorld is oneBatch with the walks over every object and every pair
// outside the solver fetching ahead: the update of the objects' bounding
// boxes here, the islands' union in pairIslands.
struct pairWorld : oneBatch {
	unsigned *tune;
	pairWorld(btDispatcher *d, btBroadphaseInterface *bp, btConstraintSolver *s, btCollisionConfiguration *c, unsigned *tune)
		: oneBatch(d, bp, s, c), tune(tune) {
		// The island manager is ours (pairIslands); the world frees it
		// with btAlignedFree, as it frees its own.
		if (m_ownsIslandManager) {
			m_islandManager->~btSimulationIslandManager();
			btAlignedFree(m_islandManager);
		}
		m_islandManager = new (btAlignedAlloc(sizeof(pairIslands), 16)) pairIslands(tune);
		m_ownsIslandManager = true;
	}
	void updateAabbs() override {
		if (*tune & tuneNoFetch) {
			oneBatch::updateAabbs();
			return;
		}
		const int n = m_collisionObjects.size();
		for (int i = 0; i < n; i++) {
			if (i + 8 < n) fetch(m_collisionObjects[i + 8], objectBytes);
			if (i + 4 < n) {
				if (btBroadphaseProxy *p = m_collisionObjects[i + 4]->getBroadphaseHandle()) fetch(p, sizeof(btDbvtProxy));
			}
			if (i + 2 < n) {
				auto *p = static_cast<btDbvtProxy *>(m_collisionObjects[i + 2]->getBroadphaseHandle());
				if (p && p->leaf) fetch(p->leaf, sizeof(btDbvtNode));
			}
			btCollisionObject *o = m_collisionObjects[i];
			if (m_forceUpdateAllAabbs || o->isActive()) updateSingleAabb(o);
		}
	}
};

// touching is how far apart two shapes' contact point may be and still
// count as a contact (ODE's surface layer): Bullet keeps points up to its
// breaking threshold (2 cm) apart in a manifold.
const double touching = 0.001;

// A body sleeps under these speeds (m/s, rad/s) held for gDeactivationTime.
const double sleepLinear = 0.1, sleepAngular = 0.1;

} // namespace

struct pvb_world {
	btDefaultCollisionConfiguration *config = nullptr;
	btCollisionDispatcher *dispatcher = nullptr;
	crowdBroadphase *broadphase = nullptr;
	contactSolver *solver = nullptr;
	btDiscreteDynamicsWorld *world = nullptr;
	filter *filt = nullptr;
	int iterations = 10;
	bool noSleep = false, record = false, built = false, broken = false;
	std::string error;
	std::vector<std::string> messages;
	std::vector<std::unique_ptr<body>> bodies;
	std::vector<std::unique_ptr<geom>> geoms;
	std::vector<std::unique_ptr<joint>> joints;
	std::vector<std::unique_ptr<btCollisionShape>> shapes;
	std::vector<std::unique_ptr<btTriangleIndexVertexArray>> meshes;
	std::vector<std::vector<btScalar>> meshVerts;
	std::vector<std::vector<int>> meshIdx;
	std::set<std::pair<int, int>> excluded; // (body, static geom)
	std::vector<int> overlaps;
	std::vector<double> points;
	std::vector<int> riders; // trigger geoms that move with a body
	bool triggers = false;   // any trigger geom
	bool stepped = false;    // stepSimulation has run once
	long droppedPairs = 0; // pairs the budget refused in the last step
	int maxPairs = 32;     // broadphase pairs a moving body may be in
	bool crowded = false;  // the last step refused pairs (crowdBroadphase)
	long met = 0;          // pairs the last step's search met (pvb_counts)
	// kinds holds kind bits per broadphase proxy, by its unique id: what
	// the budget asks of a pair, without a walk through two collision
	// objects (the tree search meets millions of pairs in a crowd).
	std::vector<unsigned char> kinds;
	btOverlappingPairCallback *counter = nullptr;
	std::unique_ptr<btCollisionAlgorithmCreateFunc> sphereBox, boxSphere, sphereSphere;
	double dt = 1.0 / 240;
	unsigned tune = 0; // speed-ups turned off for a measurement (pvb_tune)
	std::vector<btCollisionShape *> bodyShapes; // shapes bodies share (sharedShape)
};

namespace {

// The kind bits of a proxy (pvb_world::kinds).
enum : unsigned char {
	kindBudget = 1, // a body: its pairs with other bodies count against the budget
	kindStatic = 2, // a static geom (in crowdBroadphase::statics)
	kindFull = 4,   // a body at its budget
};

unsigned char kindOf(const pvb_world *w, const btBroadphaseProxy *p) {
	size_t u = size_t(p->m_uniqueId);
	return u < w->kinds.size() ? w->kinds[u] : 0;
}

struct filter : btOverlapFilterCallback {
	pvb_world *w;
	explicit filter(pvb_world *w) : w(w) {}
	bool needBroadphaseCollision(btBroadphaseProxy *p0, btBroadphaseProxy *p1) const override {
		w->met++;
		// Two bodies, one at its budget: refused as below, from the kind
		// bits alone.
		unsigned char k0 = kindOf(w, p0), k1 = kindOf(w, p1);
		if ((k0 & k1 & kindBudget) && ((k0 | k1) & kindFull)) {
			w->droppedPairs++;
			return false;
		}
		auto *o0 = static_cast<btCollisionObject *>(p0->m_clientObject);
		auto *o1 = static_cast<btCollisionObject *>(p1->m_clientObject);
		const info *a = static_cast<const info *>(o0->getUserPointer());
		const info *b = static_cast<const info *>(o1->getUserPointer());
		if (!a || !b) return true;
		if (a->body >= 0 && a->body == b->body) return false;
		if (!(a->sf.category & b->sf.collide) || !(b->sf.category & a->sf.collide)) return false;
		if (a->sf.pass & b->sf.pass) return false;
		if (a->sf.trigger || b->sf.trigger) {
			if (a->sf.trigger && b->sf.trigger) return false;
			return (a->sf.trigger ? b : a)->body >= 0; // static geoms do not enter triggers
		}
		if (!a->dynamic && !b->dynamic) return false;
		// A pair budget, as sim/ode's contact budget: a body already
		// touching maxPairs others (2,000 spheres started at one point
		// make two million pairs) takes no more moving ones until some
		// part. Static geometry is never refused: the ground stays solid.
		if (a->body >= 0 && b->body >= 0 && (a->pairs >= w->maxPairs || b->pairs >= w->maxPairs)) {
			w->droppedPairs++;
			return false;
		}
		if (a->body >= 0 && b->geom >= 0 && w->excluded.count({a->body, b->geom})) return false;
		if (b->body >= 0 && a->geom >= 0 && w->excluded.count({b->body, a->geom})) return false;
		return true;
	}
};

// counter keeps each object's count of broadphase pairs (info::pairs),
// told of every pair the cache adds and removes.
struct counter : btOverlappingPairCallback {
	pvb_world *w;
	explicit counter(pvb_world *w) : w(w) {}
	void add(btBroadphaseProxy *p, int d) {
		auto *o = static_cast<btCollisionObject *>(p->m_clientObject);
		const info *i = static_cast<const info *>(o->getUserPointer());
		if (!i) return;
		i->pairs += d;
		size_t u = size_t(p->m_uniqueId);
		if (u < w->kinds.size() && (w->kinds[u] & kindBudget)) {
			if (i->pairs >= w->maxPairs) w->kinds[u] |= kindFull;
			else w->kinds[u] &= ~kindFull;
		}
	}
	btBroadphasePair *addOverlappingPair(btBroadphaseProxy *p0, btBroadphaseProxy *p1) override {
		add(p0, 1);
		add(p1, 1);
		return nullptr;
	}
	void *removeOverlappingPair(btBroadphaseProxy *p0, btBroadphaseProxy *p1, btDispatcher *) override {
		add(p0, -1);
		add(p1, -1);
		return nullptr;
	}
	void removeOverlappingPairsContainingProxy(btBroadphaseProxy *, btDispatcher *) override {}
};

// crowdBroadphase is Bullet's dynamic AABB tree with its own search for
// new pairs in a crowd. Bullet's search, when a body's box has moved out
// of its leaf, finds every box it overlaps and asks the filter about each.
// 2,000 spheres started at one point overlap two million times, and the
// filter's budget turned down nearly all of them, twice a step: that
// search and the filter took a quarter of the run. Here, while the last
// step refused pairs (or the body is at its budget):
//   - the body searches the static geoms in a tree of their own
//     (statics): the budget never refuses those, the ground stays solid;
//   - it searches the moving objects only while it is under its budget,
//     stopping once it is at it, and passes over bodies at theirs
//     (counted as refused) without asking the filter.
// The pairs it makes are pairs Bullet's search and the filter could make
// (the budget takes the first ones met, here met in another order); in a
// world that never reaches the budget Bullet's search runs unchanged. A world with triggers riding
// bodies (never refused, and not in statics) always searches as Bullet
// does.
struct crowdBroadphase : btDbvtBroadphase {
	pvb_world *w;
	btDbvt statics; // the static geoms' proxies, by their bounding boxes
	explicit crowdBroadphase(pvb_world *w) : w(w) {}

	// addStatic puts a static geom's proxy into statics (build).
	void addStatic(btBroadphaseProxy *p) {
		if (p) statics.insert(btDbvtVolume::FromMM(p->m_aabbMin, p->m_aabbMax), p);
	}

	struct staticPairs : btDbvt::ICollide {
		btOverlappingPairCache *cache;
		btBroadphaseProxy *p;
		void Process(const btDbvtNode *n) override { cache->addOverlappingPair(p, static_cast<btBroadphaseProxy *>(n->data)); }
	};

	// search walks a tree for p's new pairs with moving objects while p
	// is under its budget.
	struct search : btDbvt::ICollide {
		crowdBroadphase *bp;
		btDbvtProxy *p;
		btDbvtVolume vol;
		bool Descent(const btDbvtNode *n) override { return !(kindOf(bp->w, p) & kindFull) && Intersect(n->volume, vol); }
		void Process(const btDbvtNode *n) override {
			auto *q = static_cast<btDbvtProxy *>(n->data);
			if (q == p) return;
			bp->w->met++;
			unsigned char k = kindOf(bp->w, q);
			if (k & kindStatic) return; // statics has it
			bp->m_newpairs++;
			if ((k & (kindBudget | kindFull)) == (kindBudget | kindFull)) {
				bp->w->droppedPairs++;
				return;
			}
			bp->m_paircache->addOverlappingPair(p, q);
		}
	};

	void setAabb(btBroadphaseProxy *p, const btVector3 &lo, const btVector3 &hi, btDispatcher *d) override {
		unsigned char k = kindOf(w, p);
		if (!(k & kindBudget) || !(w->crowded || (k & kindFull)) || !w->riders.empty()) {
			btDbvtBroadphase::setAabb(p, lo, hi, d);
			return;
		}
		// Bullet's own update of the tree, without its search; whether
		// the box left its leaf (and Bullet would search) is read from
		// the count of updates done or a leaf leaving the fixed set.
		auto *dp = static_cast<btDbvtProxy *>(p);
		bool moved = dp->stage == STAGECOUNT;
		unsigned done = m_updates_done;
		m_deferedcollide = true;
		btDbvtBroadphase::setAabb(p, lo, hi, d);
		m_deferedcollide = false;
		if (!moved && m_updates_done == done) return;
		m_needcleanup = true;
		staticPairs sp;
		sp.cache = m_paircache;
		sp.p = p;
		statics.collideTV(statics.m_root, dp->leaf->volume, sp);
		if (kindOf(w, p) & kindFull) {
			w->droppedPairs++; // at least one pair left out, likely many
			// Bullet's search counts every pair it meets as new, and
			// collide's clean-up then checks as many pairs for overlap:
			// all of them in a crowd, so that pairs that part free the
			// budget the next step. Keep that.
			m_newpairs = std::max(m_newpairs, m_paircache->getNumOverlappingPairs());
			return;
		}
		search s;
		s.bp = this;
		s.p = dp;
		s.vol = dp->leaf->volume;
		btDbvt::collideTU(m_sets[1].m_root, s);
		btDbvt::collideTU(m_sets[0].m_root, s);
	}
};

// apartDir is the direction two spheres whose centres coincide are pushed
// apart along: one of many spread over the sphere, picked from the pair's
// body and child numbers (deterministic), pointing from the second to the
// first. Bullet's sphere test pushes every such pair along +x, and a crowd
// started at one point then spreads into a line along x only.
btVector3 apartDir(const btCollisionObjectWrapper *w0, const btCollisionObjectWrapper *w1) {
	auto id = [](const btCollisionObjectWrapper *w) {
		const info *i = static_cast<const info *>(w->getCollisionObject()->getUserPointer());
		uint64_t b = i ? uint64_t(i->body >= 0 ? i->body : 1000000000 + i->geom) : 0;
		return (b << 20) ^ uint64_t(w->m_index + 1);
	};
	uint64_t a = id(w0), b = id(w1);
	bool flip = a > b;
	if (flip) std::swap(a, b);
	// splitmix64 of the ordered pair: two uniform numbers, a uniform
	// direction.
	uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull);
	h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
	h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
	h ^= h >> 31;
	double z = 2 * double(h >> 40) / double(1 << 24) - 1;
	double phi = 2 * M_PI * double(h & 0xFFFFFF) / double(1 << 24);
	double r = std::sqrt(std::max(0.0, 1 - z * z));
	btVector3 d(r * std::cos(phi), r * std::sin(phi), z);
	return flip ? -d : d;
}

// sphereSphere is Bullet's sphere test, but two spheres whose centres
// (nearly) coincide are pushed apart along apartDir instead of +x.
struct sphereSphere : btSphereSphereCollisionAlgorithm {
	using btSphereSphereCollisionAlgorithm::btSphereSphereCollisionAlgorithm;
	void processCollision(const btCollisionObjectWrapper *w0, const btCollisionObjectWrapper *w1, const btDispatcherInfo &di, btManifoldResult *out) override {
		const double near = 1e-5; // m: closer centres give no direction worth keeping in single precision
		if ((w0->getWorldTransform().getOrigin() - w1->getWorldTransform().getOrigin()).length2() > near * near) {
			btSphereSphereCollisionAlgorithm::processCollision(w0, w1, di, out);
			return;
		}
		// The second sphere moved a little against the direction: Bullet's
		// own test then takes it, with the same depth to within that.
		btTransform t = w1->getWorldTransform();
		t.setOrigin(w0->getWorldTransform().getOrigin() - apartDir(w0, w1) * btScalar(2 * near));
		btCollisionObjectWrapper moved(w1->m_parent, w1->getCollisionShape(), w1->getCollisionObject(), t, w1->m_partId, w1->m_index);
		btSphereSphereCollisionAlgorithm::processCollision(w0, &moved, di, out);
	}
	struct CreateFunc : btCollisionAlgorithmCreateFunc {
		btCollisionAlgorithm *CreateCollisionAlgorithm(btCollisionAlgorithmConstructionInfo &ci, const btCollisionObjectWrapper *w0, const btCollisionObjectWrapper *w1) override {
			void *mem = ci.m_dispatcher1->allocateCollisionAlgorithm(sizeof(sphereSphere));
			return new (mem) sphereSphere(nullptr, ci, w0, w1);
		}
	};
};

// childFilter applies the collision filter per child of a compound: two
// shapes touch only when each one's category meets the other's collide
// bits and they share no pass group (the broadphase has let the two
// objects through on the union of their children's bits).
bool childFilter(const btCollisionShape *s0, const btCollisionShape *s1) {
	const pvb_surface *a = static_cast<const pvb_surface *>(s0->getUserPointer());
	const pvb_surface *b = static_cast<const pvb_surface *>(s1->getUserPointer());
	if (!a || !b) return true;
	return (a->category & b->collide) && (b->category & a->collide) && !(a->pass & b->pass);
}

struct once {
	once() {
		gContactAddedCallback = materials;
		gCompoundChildShapePairCallback = childFilter;
		gCompoundCompoundChildShapePairCallback = childFilter;
		// Bullet puts a body to sleep after this long under its thresholds
		// (PhysX's wake counter).
		gDeactivationTime = 0.4;
	}
};

void check(bool ok, const char *what) {
	if (!ok) throw std::invalid_argument(what);
}

template <class F>
int guard(pvb_world *w, F f) {
	if (!w || w->broken) return -1;
	try {
		return f();
	} catch (const std::exception &e) {
		w->broken = true;
		w->error = std::string("Bullet: ") + e.what();
	} catch (...) {
		w->broken = true;
		w->error = "Bullet: an unknown C++ exception";
	}
	return -1;
}

btTransform bodyPose(const body &b) { return btTransform(b.rot * b.principal, b.pos); }

btVector3 vec(const double *v) { return btVector3(v[0], v[1], v[2]); }

// minExtent is the smallest half-extent of a shape's bounding box.
double minExtent(btCollisionShape *s) {
	btVector3 lo, hi;
	s->getAabb(btTransform::getIdentity(), lo, hi);
	btVector3 e = (hi - lo) * 0.5;
	return std::min(e.x(), std::min(e.y(), e.z()));
}

// sameSurface tells whether two surfaces play the same (a trigger's
// owner counts, a solid geom's does not).
bool sameSurface(const pvb_surface &a, const pvb_surface &b) {
	return a.friction == b.friction && a.restitution == b.restitution && a.friction_combine == b.friction_combine &&
		a.restitution_combine == b.restitution_combine && a.trigger == b.trigger && (!a.trigger || a.owner == b.owner) &&
		a.category == b.category && a.collide == b.collide && a.pass == b.pass;
}

// sharedShape is the first box or sphere shape of a body made so far with
// the same size and surface as g's, or g's own (the first 64 kept). Bodies
// of one shape then read one shape object, as a glTF file's nodes share
// one collider: a pile's 4,000 bodies read two instead of 4,000 scattered
// over the heap, and its step takes about 5 % less (TestPileAB).
btCollisionShape *sharedShape(pvb_world *w, geom &g) {
	int t = g.shape->getShapeType();
	if (t != BOX_SHAPE_PROXYTYPE && t != SPHERE_SHAPE_PROXYTYPE) return g.shape;
	for (btCollisionShape *s : w->bodyShapes) {
		if (s->getShapeType() != t || !sameSurface(*static_cast<const pvb_surface *>(s->getUserPointer()), g.sf)) continue;
		if (t == SPHERE_SHAPE_PROXYTYPE && static_cast<btSphereShape *>(s)->getRadius() == static_cast<btSphereShape *>(g.shape)->getRadius()) return s;
		if (t == BOX_SHAPE_PROXYTYPE && static_cast<btBoxShape *>(s)->getHalfExtentsWithMargin() == static_cast<btBoxShape *>(g.shape)->getHalfExtentsWithMargin()) return s;
	}
	if (w->bodyShapes.size() < 64) w->bodyShapes.push_back(g.shape);
	return g.shape;
}

// build makes the Bullet objects once every body and geom is known: a body
// gets its colliders as one shape (a compound when they are several or
// offset), triggers and static geoms are collision objects of their own.
void build(pvb_world *w) {
	if (w->built) return;
	w->built = true;
	for (size_t bi = 0; bi < w->bodies.size(); bi++) {
		body &b = *w->bodies[bi];
		std::vector<int> solid;
		for (int gi : b.geoms)
			if (!w->geoms[gi]->sf.trigger) solid.push_back(gi);
		btTransform toPrincipal(b.principal.inverse());
		btCollisionShape *shape = nullptr;
		if (solid.size() == 1) {
			btTransform off = toPrincipal * w->geoms[solid[0]]->xf;
			if (off.getOrigin().length2() < 1e-24 && std::fabs(std::fabs(off.getRotation().w()) - 1) < 1e-12)
				shape = (w->tune & tuneNoShare) ? w->geoms[solid[0]]->shape : sharedShape(w, *w->geoms[solid[0]]);
		}
		if (!shape && !solid.empty()) {
			auto *cs = new btCompoundShape(true, int(solid.size()));
			w->shapes.emplace_back(cs);
			for (int gi : solid) cs->addChildShape(toPrincipal * w->geoms[gi]->xf, w->geoms[gi]->shape);
			shape = cs;
		}
		if (!shape) {
			auto *e = new btEmptyShape();
			w->shapes.emplace_back(e);
			shape = e;
		}
		b.inf.body = int(bi);
		b.inf.dynamic = !b.kinematic;
		b.inf.sf = solid.empty() ? pvb_surface{0.6, 0, PVB_AVERAGE, PVB_AVERAGE, 0, int(bi), 1, ~uint64_t(0), 0} : w->geoms[solid[0]]->sf;
		// A compound's broadphase filter is the union of its children's
		// (any category, any collide bit, only the pass groups all share);
		// childFilter then tells the children apart.
		for (size_t k = 1; k < solid.size(); k++) {
			const pvb_surface &c = w->geoms[solid[k]]->sf;
			b.inf.sf.category |= c.category;
			b.inf.sf.collide |= c.collide;
			b.inf.sf.pass &= c.pass;
		}
		btScalar mass = b.kinematic ? 0 : b.mass;
		btVector3 inertia = b.kinematic ? btVector3(0, 0, 0) : b.inertia;
		btRigidBody::btRigidBodyConstructionInfo ci(mass, nullptr, shape, inertia);
		ci.m_friction = b.inf.sf.friction;
		ci.m_restitution = b.inf.sf.restitution;
		ci.m_startWorldTransform = bodyPose(b);
		auto *rb = new btRigidBody(ci);
		b.rb = rb;
		rb->setUserPointer(&b.inf);
		rb->setFlags(rb->getFlags() | BT_DISABLE_WORLD_GRAVITY);
		int flags = rb->getCollisionFlags() | btCollisionObject::CF_CUSTOM_MATERIAL_CALLBACK;
		if (b.kinematic) flags |= btCollisionObject::CF_KINEMATIC_OBJECT;
		rb->setCollisionFlags(flags);
		// PhysX's default: under 0.1 m/s (a mass-normalised kinetic
		// energy of 0.005 J/kg) for 0.4 s (gDeactivationTime).
		rb->setSleepingThresholds(sleepLinear, sleepAngular);
		if (w->noSleep || b.kinematic) rb->setActivationState(DISABLE_DEACTIVATION);
		if (!b.kinematic && !solid.empty()) {
			// Continuous collision for fast bodies: a sphere of half the
			// body's smallest half-extent is swept when it moves more than
			// that half-extent in a step.
			double e = minExtent(shape);
			if (e > 0 && std::isfinite(e)) {
				b.inf.reach = e;
				rb->setCcdMotionThreshold(e);
				rb->setCcdSweptSphereRadius(0.5 * e);
			}
		}
		w->world->addRigidBody(rb);
		rb->setGravity(btVector3(0, 0, 0));
		rb->setLinearVelocity(b.lv);
		rb->setAngularVelocity(b.av);
	}
	for (size_t gi = 0; gi < w->geoms.size(); gi++) {
		geom &g = *w->geoms[gi];
		if (g.body >= 0 && !g.sf.trigger) continue;
		auto *o = new btCollisionObject();
		g.obj = o;
		o->setCollisionShape(g.shape);
		g.inf.sf = g.sf;
		g.inf.body = g.body;
		g.inf.geom = g.body < 0 ? int(gi) : -1;
		o->setUserPointer(&g.inf);
		o->setFriction(g.sf.friction);
		o->setRestitution(g.sf.restitution);
		int flags = btCollisionObject::CF_CUSTOM_MATERIAL_CALLBACK;
		if (g.sf.trigger) flags |= btCollisionObject::CF_NO_CONTACT_RESPONSE;
		if (g.body >= 0) flags |= btCollisionObject::CF_KINEMATIC_OBJECT;
		else flags |= btCollisionObject::CF_STATIC_OBJECT;
		o->setCollisionFlags(flags);
		if (g.body >= 0) o->setWorldTransform(w->bodies[g.body]->rb->getWorldTransform() * btTransform(w->bodies[g.body]->principal.inverse()) * g.xf);
		else o->setWorldTransform(g.xf);
		if (g.sf.trigger) {
			o->setActivationState(DISABLE_DEACTIVATION);
			w->triggers = true;
			if (g.body >= 0) w->riders.push_back(int(gi));
		}
		w->world->addCollisionObject(o, btBroadphaseProxy::DefaultFilter, btBroadphaseProxy::AllFilter);
		if (g.body < 0) w->broadphase->addStatic(o->getBroadphaseHandle());
	}
	// The kind bits of every proxy, and which bodies the search while
	// building left at their budget.
	auto kind = [&](btCollisionObject *o, unsigned char k) {
		btBroadphaseProxy *p = o ? o->getBroadphaseHandle() : nullptr;
		if (!p || p->m_uniqueId < 0) return;
		if (size_t(p->m_uniqueId) >= w->kinds.size()) w->kinds.resize(size_t(p->m_uniqueId) + 1, 0);
		const info *i = static_cast<const info *>(o->getUserPointer());
		if ((k & kindBudget) && i && i->pairs >= w->maxPairs) k |= kindFull;
		w->kinds[size_t(p->m_uniqueId)] = k;
	};
	for (auto &b : w->bodies) kind(b->rb, kindBudget);
	for (auto &g : w->geoms)
		if (g->body < 0) kind(g->obj, kindStatic);
}

body &bodyAt(pvb_world *w, int b) {
	check(b >= 0 && size_t(b) < w->bodies.size(), "no such body");
	return *w->bodies[b];
}

// fetchBody fetches ahead what a walk over the bodies from i reads: the
// body's own record eight bodies ahead, its Bullet body's pose, velocities
// and forces four ahead (velocities only when reading the state).
void fetchBody(const pvb_world *w, int i, int n, bool state) {
	if (i + 8 < n) fetch(w->bodies[i + 8].get(), sizeof(body));
	if (i + 4 < n) {
		if (const btRigidBody *rb = w->bodies[i + 4]->rb) {
			fetch(&rb->getWorldTransform(), sizeof(btTransform));
			fetch(&rb->getLinearVelocity(), 2 * sizeof(btVector3));
			if (!state) {
				fetch(&rb->getAnisotropicFriction(), 80); // the activation state
				fetch(&rb->getTotalForce(), sizeof(btVector3));
			}
		}
	}
}

// readState writes one body's 13 numbers (the frame sim/ode reports:
// position of the centre of mass, the body's rotation without its
// principal axes).
void readState(const body &b, double *s) {
	btVector3 p = b.pos, lv = b.lv, av = b.av;
	btQuaternion q = b.rot;
	if (b.rb) {
		const btTransform &t = b.rb->getWorldTransform();
		p = t.getOrigin();
		q = t.getRotation() * b.principal.inverse();
		lv = b.rb->getLinearVelocity();
		av = b.rb->getAngularVelocity();
	}
	double v[13] = {p.x(), p.y(), p.z(), q.w(), q.x(), q.y(), q.z(), lv.x(), lv.y(), lv.z(), av.x(), av.y(), av.z()};
	std::copy(v, v + 13, s);
}

btRigidBody &rbOrFixed(pvb_world *w, int b) {
	if (b < 0) return btTypedConstraint::getFixedBody();
	return *bodyAt(w, b).rb;
}

// effectiveMass is the mass (or moment of inertia) a joint axis moves.
double effectiveMass(pvb_world *w, joint &j, int axis, const btVector3 &dir) {
	double inv = 0;
	for (int bi : {j.b1, j.b2}) {
		if (bi < 0) continue;
		btRigidBody *rb = w->bodies[bi]->rb;
		if (axis < 3) inv += rb->getInvMass();
		else inv += dir.dot(rb->getInvInertiaTensorWorld() * dir);
	}
	return inv > 0 ? 1 / inv : INFINITY;
}

// axisState measures a joint axis: position (m or rad) and rate.
void axisState(pvb_world *w, joint &j, int axis, double *x, double *v, btVector3 *dirOut) {
	*x = 0;
	*v = 0;
	if (!j.d6 || axis < 0) return;
	j.d6->calculateTransforms();
	btRigidBody &A = rbOrFixed(w, j.b2), &B = rbOrFixed(w, j.b1);
	btVector3 dir;
	if (axis >= 3) {
		*x = -j.d6->getAngle(axis - 3); // Bullet's Euler angle turns the other way
		dir = j.d6->getAxis(axis - 3);
		*v = (B.getAngularVelocity() - A.getAngularVelocity()).dot(dir);
	} else {
		*x = j.d6->getRelativePivotPosition(axis);
		dir = j.d6->getCalculatedTransformA().getBasis().getColumn(axis);
		btVector3 pa = j.d6->getCalculatedTransformA().getOrigin(), pb = j.d6->getCalculatedTransformB().getOrigin();
		btVector3 va = A.getVelocityInLocalPoint(pa - A.getCenterOfMassPosition());
		btVector3 vb = B.getVelocityInLocalPoint(pb - B.getCenterOfMassPosition());
		*v = (vb - va).dot(dir);
	}
	if (dirOut) *dirOut = dir;
}

void applyLimit(joint &j, int g) {
	int a = j.axis[g];
	if (!j.d6 || a < 0) return;
	double lo = j.lo[g], hi = j.hi[g];
	if (!(lo <= hi) || j.stopCfm[g] > 0) {
		j.d6->setLimit(a, 1, -1); // free
		return;
	}
	if (a >= 3) {
		if (lo <= -M_PI && hi >= M_PI) {
			j.d6->setLimit(a, 1, -1);
			return;
		}
		lo = std::max(lo, -M_PI);
		hi = std::min(hi, M_PI);
		// The stops are in ODE's sense of the angle, which axisState
		// gives as minus Bullet's: Bullet's range is [-hi, -lo].
		std::swap(lo, hi);
		lo = -lo;
		hi = -hi;
	} else {
		lo = std::max(lo, -1e12);
		hi = std::min(hi, 1e12);
	}
	j.d6->setLimit(a, lo, hi);
}

// push applies F along (a < 3) or about axis a to the joint's first body
// and -F to its second, waking them.
void push(pvb_world *w, joint &j, int a, const btVector3 &F) {
	for (int k = 0; k < 2; k++) {
		int bi = k == 0 ? j.b1 : j.b2;
		if (bi < 0 || w->bodies[bi]->kinematic) continue;
		btRigidBody *rb = w->bodies[bi]->rb;
		rb->activate(true);
		btVector3 Fk = k == 0 ? F : -F;
		if (a < 3) rb->applyCentralForce(Fk);
		else rb->applyTorque(Fk);
	}
}

// extAccel is how fast the forces the step applies (gravity, as forces[3i..])
// would speed up linear axis a (its first body's acceleration along dir
// less its second's): an ODE row sees them within its step, a force
// computed before the step must add them to reach ODE's rest.
double extAccel(pvb_world *w, joint &j, int a, const btVector3 &dir, const double *forces, int n) {
	if (a >= 3 || !forces) return 0;
	double acc = 0;
	for (int k = 0; k < 2; k++) {
		int bi = k == 0 ? j.b1 : j.b2;
		if (bi < 0 || bi >= n || w->bodies[bi]->kinematic) continue;
		const double *F = forces + 3 * bi;
		double d = dir.dot(btVector3(F[0], F[1], F[2])) * w->bodies[bi]->rb->getInvMass();
		acc += k == 0 ? d : -d;
	}
	return acc;
}

// softStops plays each soft limit (ODE's stop ERP and CFM from the file's
// stiffness kp and damping kd: ERP = h kp / (h kp + kd), CFM = 1 / (h kp +
// kd)) as the force ODE's stop row applies while the axis is past its
// limit by e: the row's target velocity is -ERP e / h, and f = (target −
// v − h a) / (CFM + h / m) for the axis's effective mass m and the
// acceleration a the step's other forces give it, pushing back only. At
// rest it holds m g / kp past the limit, as ODE does.
// Bullet's own stop CFM cannot do it: its solver leaves CFM out of a row's
// effective mass, and a soft stop's CFM (above 1 in those units) makes
// the row diverge. So a soft axis has no Bullet limit.
void softStops(pvb_world *w, const double *forces, int n) {
	for (auto &jp : w->joints) {
		joint &j = *jp;
		for (int g = 0; g < 2; g++) {
			int a = j.axis[g];
			if (!j.d6 || a < 0 || j.stopCfm[g] < 0 || !(j.lo[g] <= j.hi[g])) continue;
			double x, v;
			btVector3 dir;
			axisState(w, j, a, &x, &v, &dir);
			double e = x > j.hi[g] ? x - j.hi[g] : x < j.lo[g] ? x - j.lo[g] : 0;
			if (e == 0) continue;
			double m = effectiveMass(w, j, a, dir);
			double den = j.stopCfm[g] + (std::isinf(m) ? 0 : w->dt / m);
			if (!(den > 0)) continue;
			double f = (-j.stopErp[g] * e / w->dt - v - w->dt * extAccel(w, j, a, dir, forces, n)) / den;
			f = e > 0 ? std::min(f, 0.0) : std::max(f, 0.0);
			if (!std::isfinite(f) || f == 0) continue;
			push(w, j, a, dir * f);
		}
	}
}

// driveMotors plays each drive's ODE-style motor (target velocity c,
// force bound, softness CFM = 1 / (h kp + kd)) as the force ODE's soft row
// applies, f = (c − v_new) / CFM, solved for the axis's effective mass m
// and the acceleration a of the step's other forces: f = (c − v − h a) /
// (CFM + h / m), within the bound, applied to the two bodies as equal and
// opposite forces or torques before the step. (A Bullet motor
// would hold its target against gravity as well; the spring must not.)
void driveMotors(pvb_world *w, const double *forces, int n) {
	for (auto &jp : w->joints) {
		joint &j = *jp;
		for (int g = 0; g < 2; g++) {
			axisDrive &d = j.drive[g];
			int a = j.axis[g];
			if (!d.set || !j.d6 || a < 0 || !(d.fmax > 0)) continue;
			double x, v;
			btVector3 dir;
			axisState(w, j, a, &x, &v, &dir);
			double m = effectiveMass(w, j, a, dir);
			double den = d.cfm + (std::isinf(m) ? 0 : w->dt / m);
			if (!(den > 0)) continue;
			double f = (d.vel - v - w->dt * extAccel(w, j, a, dir, forces, n)) / den;
			f = std::max(-d.fmax, std::min(d.fmax, f));
			if (!std::isfinite(f) || f == 0) continue;
			push(w, j, a, dir * f);
		}
	}
}

// ballConstraint makes a ball joint (defined in the joints section at the
// end of this file).
btTypedConstraint *ballConstraint(pvb_world *w, int b1, int b2, const btVector3 &pivot);

} // namespace

extern "C" {

pvb_world *pvb_world_new(int iterations, int no_sleep, int record_points) {
	static once init;
	(void)init;
	pvb_world *w = nullptr;
	try {
		w = new pvb_world();
		w->iterations = iterations > 0 ? iterations : 10;
		w->noSleep = no_sleep != 0;
		w->record = record_points != 0;
		w->config = new btDefaultCollisionConfiguration();
		w->dispatcher = new pairDispatcher(w->config, &w->tune);
		w->dispatcher->setNearCallback(nearCallback);
		w->broadphase = new crowdBroadphase(w);
		w->solver = new contactSolver();
		w->solver->setRandSeed(0);
		// Sphere against box by Bullet's closed-form test instead of the
		// general convex one (GJK) the default configuration picks: a third
		// faster on a pile of spheres and boxes, the same contacts.
		w->sphereBox.reset(new btSphereBoxCollisionAlgorithm::CreateFunc());
		w->boxSphere.reset(new btSphereBoxCollisionAlgorithm::CreateFunc());
		w->boxSphere->m_swapped = true;
		w->dispatcher->registerCollisionCreateFunc(SPHERE_SHAPE_PROXYTYPE, BOX_SHAPE_PROXYTYPE, w->sphereBox.get());
		w->dispatcher->registerCollisionCreateFunc(BOX_SHAPE_PROXYTYPE, SPHERE_SHAPE_PROXYTYPE, w->boxSphere.get());
		w->sphereSphere.reset(new sphereSphere::CreateFunc());
		w->dispatcher->registerCollisionCreateFunc(SPHERE_SHAPE_PROXYTYPE, SPHERE_SHAPE_PROXYTYPE, w->sphereSphere.get());
		w->world = new pairWorld(w->dispatcher, w->broadphase, w->solver, w->config, &w->tune);
		// buildIslands need not gather each island's manifolds: oneBatch does.
		w->world->getSimulationIslandManager()->setSplitIslands(false);
		w->world->setGravity(btVector3(0, 0, 0));
		w->filt = new filter(w);
		w->world->getPairCache()->setOverlapFilterCallback(w->filt);
		w->counter = new counter(w);
		w->world->getPairCache()->setInternalGhostPairCallback(w->counter);
		btContactSolverInfo &si = w->world->getSolverInfo();
		si.m_numIterations = w->iterations;
		si.m_splitImpulse = 1;
		// Every overlap is pushed out by split impulse, never as a speed:
		// a bounce keeps its height, deep overlaps fly apart at no speed,
		// and a ball a swept (CCD) step leaves a few millimetres inside a
		// wall does not drift off it. (Bullet's default, velocity
		// correction of overlaps under 4 cm, settles a stack 20 % sooner
		// but does all three.)
		si.m_splitImpulsePenetrationThreshold = 0;
	} catch (...) {
		pvb_world_free(w);
		return nullptr;
	}
	return w;
}

int pvb_bullet_steps(pvb_world *w) {
	return guard(w, [&] {
		check(!w->built, "Bullet's own steps must be chosen before the world is built (its first joint or step)");
		w->solver->plain = true;
		auto *world = static_cast<pairWorld *>(w->world);
		world->plain = true;
		static_cast<pairIslands *>(world->getSimulationIslandManager())->plain = true;
		return 0;
	});
}

int pvb_world_param(pvb_world *w, int what, double v) {
	return guard(w, [&] {
		check(std::isfinite(v) && v >= 0, "ERP and CFM must be numbers of at least 0");
		btContactSolverInfo &si = w->world->getSolverInfo();
		switch (what) {
		case PVB_W_ERP:
			// Contacts' overlap correction (split impulse's, ERP2) and
			// joints' (ERP), as ODE's world ERP is both.
			si.m_erp = si.m_erp2 = std::min(1.0, v);
			break;
		case PVB_W_CFM:
			// Bullet scales a contact's CFM by 1 / (h × effective mass), so
			// contacts soften as in ODE (an overlap of CFM m g h / ERP at
			// rest). Joint rows take it unscaled, and diverge from 1 up:
			// held under 0.5 (ODE's CFMs are 1e-10 to 1e-2).
			si.m_globalCfm = std::min(0.5, v);
			break;
		default: throw std::invalid_argument("unknown world parameter");
		}
		return 0;
	});
}

void pvb_world_free(pvb_world *w) {
	if (!w) return;
	try {
		if (w->world) {
			for (auto &j : w->joints)
				if (j->c) {
					w->world->removeConstraint(j->c);
					delete j->c;
				}
			for (auto &b : w->bodies)
				if (b->rb) {
					w->world->removeRigidBody(b->rb);
					delete b->rb;
				}
			for (auto &g : w->geoms)
				if (g->obj) {
					w->world->removeCollisionObject(g->obj);
					delete g->obj;
				}
			for (auto &g : w->geoms) delete g->shape;
		}
		delete w->world;
		delete w->counter;
		delete w->filt;
		delete w->solver;
		delete w->broadphase;
		delete w->dispatcher;
		delete w->config;
		delete w;
	} catch (...) {
	}
}

const char *pvb_error(pvb_world *w) { return w ? w->error.c_str() : "no world"; }
int pvb_nmessages(pvb_world *w) { return w ? int(w->messages.size()) : 0; }
const char *pvb_message(pvb_world *w, int i) { return w->messages[i].c_str(); }
void pvb_clear_messages(pvb_world *w) {
	if (w) w->messages.clear();
}

int pvb_body_new(pvb_world *w) {
	return guard(w, [&] {
		check(!w->built, "bodies must be made before the world steps");
		w->bodies.emplace_back(new body());
		return int(w->bodies.size() - 1);
	});
}

int pvb_body_set(pvb_world *w, int bi, int what, const double *v) {
	return guard(w, [&] {
		body &b = bodyAt(w, bi);
		switch (what) {
		case PVB_B_POSITION: b.pos = vec(v); break;
		case PVB_B_ROTATION: {
			btQuaternion q(v[0], v[1], v[2], v[3]);
			check(q.length2() > 0, "rotation of length 0");
			b.rot = q.normalized();
			break;
		}
		case PVB_B_LINEAR_VEL: b.lv = vec(v); break;
		case PVB_B_ANGULAR_VEL: b.av = vec(v); break;
		case PVB_B_KINEMATIC:
			check(!w->built, "a body is made kinematic before the world steps");
			b.kinematic = true;
			return 0;
		default: throw std::invalid_argument("unknown body setting");
		}
		if (btRigidBody *rb = b.rb) {
			if (what == PVB_B_POSITION || what == PVB_B_ROTATION) {
				btTransform t(rb->getWorldTransform().getRotation(), rb->getWorldTransform().getOrigin());
				if (what == PVB_B_POSITION) t.setOrigin(b.pos);
				else t.setRotation(b.rot * b.principal);
				rb->setWorldTransform(t);
				rb->setInterpolationWorldTransform(t);
				rb->updateInertiaTensor();
			} else if (what == PVB_B_LINEAR_VEL) {
				rb->setLinearVelocity(b.lv);
				rb->setInterpolationLinearVelocity(b.lv);
			} else {
				rb->setAngularVelocity(b.av);
				rb->setInterpolationAngularVelocity(b.av);
			}
			rb->activate(true);
		}
		return 0;
	});
}

int pvb_body_mass(pvb_world *w, int bi, double mass, const double *diag, const double *principal) {
	return guard(w, [&] {
		check(!w->built, "a body's mass is set before the world steps");
		body &b = bodyAt(w, bi);
		check(mass > 0 && std::isfinite(mass), "mass must be positive");
		for (int k = 0; k < 3; k++) check(diag[k] > 0 && std::isfinite(diag[k]), "inertia must be positive");
		btQuaternion p(principal[0], principal[1], principal[2], principal[3]);
		check(p.length2() > 0, "principal axes of length 0");
		b.mass = mass;
		b.inertia = vec(diag);
		b.principal = p.normalized();
		return 0;
	});
}

int pvb_geom_new(pvb_world *w, int kind, const double *p, const double *pts, int npts, const unsigned *idx, int nidx, pvb_surface s) {
	return guard(w, [&] {
		check(!w->built, "geoms are made before the world steps");
		std::unique_ptr<geom> g(new geom());
		g->sf = s;
		switch (kind) {
		case PVB_BOX: g->shape = new btBoxShape(btVector3(p[0] / 2, p[1] / 2, p[2] / 2)); break;
		case PVB_SPHERE: g->shape = new btSphereShape(p[0]); break;
		// Bullet's capsule height is the straight part, as ODE's length.
		case PVB_CAPSULE_Z: g->shape = new btCapsuleShapeZ(p[0], p[1]); break;
		case PVB_CYLINDER_Z: g->shape = new btCylinderShapeZ(btVector3(p[0], p[0], p[1] / 2)); break;
		case PVB_CONVEX: {
			check(npts >= 4, "a convex hull needs 4 points");
			auto *h = new btConvexHullShape();
			for (int i = 0; i < npts; i++) h->addPoint(btVector3(pts[3 * i], pts[3 * i + 1], pts[3 * i + 2]), false);
			// Bullet adds a hull's margin (0.04 m) outside its points: 1 mm,
			// ODE's contact surface layer, keeps the surface where the file says.
			h->setMargin(0.001);
			h->recalcLocalAabb();
			g->shape = h;
			break;
		}
		case PVB_TRIMESH: {
			check(nidx >= 3 && npts >= 3, "a triangle mesh needs a triangle");
			w->meshVerts.emplace_back(pts, pts + 3 * npts);
			w->meshIdx.emplace_back(idx, idx + (nidx - nidx % 3));
			for (int i : w->meshIdx.back()) check(i >= 0 && i < npts, "triangle index past the vertices");
			auto *m = new btTriangleIndexVertexArray(int(w->meshIdx.back().size() / 3), w->meshIdx.back().data(), 3 * sizeof(int),
				npts, w->meshVerts.back().data(), 3 * sizeof(btScalar));
			w->meshes.emplace_back(m);
			g->shape = new btBvhTriangleMeshShape(m, true);
			break;
		}
		default: throw std::invalid_argument("unknown shape kind");
		}
		g->shape->setUserPointer(&g->sf);
		w->geoms.push_back(std::move(g));
		return int(w->geoms.size() - 1);
	});
}

int pvb_geom_place(pvb_world *w, int gi, int bi, const double *pos, const double *quat) {
	return guard(w, [&] {
		check(!w->built, "geoms are placed before the world steps");
		check(gi >= 0 && size_t(gi) < w->geoms.size(), "no such geom");
		geom &g = *w->geoms[gi];
		btQuaternion q(quat[0], quat[1], quat[2], quat[3]);
		check(q.length2() > 0, "rotation of length 0");
		g.xf = btTransform(q.normalized(), vec(pos));
		if (bi != g.body) {
			if (g.body >= 0) {
				auto &l = w->bodies[g.body]->geoms;
				l.erase(std::remove(l.begin(), l.end(), gi), l.end());
			}
			if (bi >= 0) bodyAt(w, bi).geoms.push_back(gi);
			g.body = bi;
		}
		return 0;
	});
}

int pvb_no_collide(pvb_world *w, int b, int g) {
	return guard(w, [&] {
		w->excluded.insert({b, g});
		return 0;
	});
}

int pvb_joint_new(pvb_world *w, int kind, int b1, int b2, const double *anchor, const double *a1, const double *a2) {
	return guard(w, [&] {
		build(w);
		check(b1 >= 0 || b2 >= 0, "a joint needs a body");
		if (b1 < 0) std::swap(b1, b2);
		std::unique_ptr<joint> j(new joint());
		j->kind = kind;
		j->b1 = b1;
		j->b2 = b2;
		btVector3 x = vec(a1), y = vec(a2);
		check(x.length2() > 0, "joint axis of length 0");
		x.normalize();
		y -= x * x.dot(y);
		if (y.length2() < 1e-12) {
			btVector3 z;
			btPlaneSpace1(x, y, z);
		}
		y.normalize();
		btMatrix3x3 basis;
		basis.setValue(x.x(), y.x(), x.cross(y).x(), x.y(), y.y(), x.cross(y).y(), x.z(), y.z(), x.cross(y).z());
		btTransform frame(basis, vec(anchor));
		btRigidBody &B = *bodyAt(w, b1).rb;
		btTransform inB = B.getWorldTransform().inverse() * frame;
		if (kind == PVB_BALL) {
			j->c = ballConstraint(w, b1, b2, frame.getOrigin());
		} else {
			btGeneric6DofSpring2Constraint *d;
			if (b2 < 0) d = new btGeneric6DofSpring2Constraint(B, inB);
			else {
				btRigidBody &A = *bodyAt(w, b2).rb;
				d = new btGeneric6DofSpring2Constraint(A, B, A.getWorldTransform().inverse() * frame, inB);
			}
			j->c = d;
			j->d6 = d;
			for (int a = 0; a < 6; a++) d->setLimit(a, 0, 0);
			switch (kind) {
			case PVB_HINGE: j->axis[0] = 3; break;
			case PVB_SLIDER: j->axis[0] = 0; break;
			case PVB_UNIVERSAL: j->axis[0] = 3, j->axis[1] = 4; break;
			case PVB_PISTON: j->axis[0] = 0, j->axis[1] = 3; break;
			}
			for (int g = 0; g < 2; g++)
				if (j->axis[g] >= 0) d->setLimit(j->axis[g], 1, -1);
		}
		// Joints keep ODE's 20 iterations while contacts run the
		// world's (10 by default, for speed): a weld under load drifts
		// a millimetre in 0.06 s at 10.
		j->c->setOverrideNumSolverIterations(std::max(jointIterations, w->iterations));
		w->world->addConstraint(j->c, true);
		w->joints.push_back(std::move(j));
		return int(w->joints.size() - 1);
	});
}

int pvb_joint_param(pvb_world *w, int ji, int group, int param, double v) {
	return guard(w, [&] {
		check(ji >= 0 && size_t(ji) < w->joints.size() && group >= 0 && group < 2, "no such joint axis");
		joint &j = *w->joints[ji];
		int a = j.axis[group];
		if (!j.d6 || a < 0) return 0;
		switch (param) {
		case PVB_LO_STOP: j.lo[group] = v; applyLimit(j, group); break;
		case PVB_HI_STOP: j.hi[group] = v; applyLimit(j, group); break;
		case PVB_STOP_ERP:
			j.stopErp[group] = std::min(1.0, std::max(0.0, v));
			j.d6->setParam(BT_CONSTRAINT_STOP_ERP, j.stopErp[group], a);
			break;
		case PVB_STOP_CFM:
			// A soft limit (softStops), or rigid again at CFM 0.
			j.stopCfm[group] = v > 0 && std::isfinite(v) ? v : -1;
			applyLimit(j, group);
			break;
		case PVB_VEL: j.drive[group].vel = v, j.drive[group].set = true; break;
		case PVB_FMAX: j.drive[group].fmax = v, j.drive[group].set = true; break;
		case PVB_CFM: j.drive[group].cfm = v, j.drive[group].set = true; break;
		}
		return 0;
	});
}

int pvb_joint_state(pvb_world *w, int ji, int group, double *x, double *v) {
	return guard(w, [&] {
		build(w);
		check(ji >= 0 && size_t(ji) < w->joints.size() && group >= 0 && group < 2, "no such joint axis");
		joint &j = *w->joints[ji];
		axisState(w, j, j.axis[group], x, v, nullptr);
		return 0;
	});
}

int pvb_step(pvb_world *w, const double *f, int n, double dt, double *states) {
	return guard(w, [&] {
		build(w);
		check(dt > 0 && std::isfinite(dt), "step must be positive");
		w->dt = dt;
		const int nb = std::min(n, int(w->bodies.size()));
		for (int i = 0; i < nb; i++) {
			if (!(w->tune & tuneNoFetch)) fetchBody(w, i, nb, false);
			body &b = *w->bodies[i];
			btRigidBody *rb = b.rb;
			if (b.kinematic) {
				// Moved by its velocities, as ODE moves a kinematic body;
				// Bullet derives the velocity contacts see from the move.
				btTransform now = rb->getWorldTransform(), next;
				btTransformUtil::integrateTransform(now, rb->getLinearVelocity(), rb->getAngularVelocity(), dt, next);
				rb->setInterpolationWorldTransform(now);
				rb->setWorldTransform(next);
				continue;
			}
			if (f && rb->isActive() && (f[3 * i] != 0 || f[3 * i + 1] != 0 || f[3 * i + 2] != 0))
				rb->applyCentralForce(btVector3(f[3 * i], f[3 * i + 1], f[3 * i + 2]));
		}
		for (int gi : w->riders) {
			geom &g = *w->geoms[gi];
			body &b = *w->bodies[g.body];
			g.obj->setWorldTransform(b.rb->getWorldTransform() * btTransform(b.principal.inverse()) * g.xf);
		}
		softStops(w, f, n);
		driveMotors(w, f, n);
		w->crowded = w->droppedPairs > 0;
		w->droppedPairs = 0;
		w->met = 0;
		// A world whose every body sleeps stays as it is: Bullet would
		// still rebuild its islands and pairs each step (a third of the
		// time of a pyramid that has come to rest), so the step is skipped.
		bool anyActive = false;
		for (auto &b : w->bodies)
			if (b->rb->isActive()) {
				anyActive = true;
				break;
			}
		if (!anyActive && w->stepped) {
			if (states)
				for (int i = 0; i < n && size_t(i) < w->bodies.size(); i++) readState(*w->bodies[i], states + 13 * i);
			return 0;
		}
		w->stepped = true;
		w->world->stepSimulation(dt, 0, dt);
		// Overlaps of triggers, and contact points when they are recorded;
		// contact counts are read from the manifolds when asked for
		// (pvb_body_flags).
		w->overlaps.clear();
		w->points.clear();
		if (w->triggers || w->record) {
			int nm = w->dispatcher->getNumManifolds();
			for (int m = 0; m < nm; m++) {
				btPersistentManifold *pm = w->dispatcher->getManifoldByIndexInternal(m);
				const info *a = static_cast<const info *>(pm->getBody0()->getUserPointer());
				const info *b = static_cast<const info *>(pm->getBody1()->getUserPointer());
				if (!a || !b) continue;
				int np = pm->getNumContacts();
				if (a->sf.trigger || b->sf.trigger) {
					for (int k = 0; k < np; k++)
						if (pm->getContactPoint(k).getDistance() <= 0) {
							const info *t = a->sf.trigger ? a : b, *o = a->sf.trigger ? b : a;
							w->overlaps.push_back(t->sf.owner);
							w->overlaps.push_back(o->body);
							break;
						}
					// Fresh points every step: Bullet keeps a manifold's points
					// while they stay near, and a trigger's would outlive the overlap.
					pm->clearManifold();
					continue;
				}
				if (!w->record) continue;
				for (int k = 0; k < np; k++) {
					const btManifoldPoint &p = pm->getContactPoint(k);
					if (p.getDistance() > touching) continue;
					btVector3 q = (p.getPositionWorldOnA() + p.getPositionWorldOnB()) * 0.5;
					w->points.insert(w->points.end(), {q.x(), q.y(), q.z()});
				}
			}
		}
		if (states)
			for (int i = 0; i < nb; i++) {
				if (!(w->tune & tuneNoFetch)) fetchBody(w, i, nb, true);
				readState(*w->bodies[i], states + 13 * i);
			}
		return 0;
	});
}

int pvb_body_flags(pvb_world *w, unsigned char *asleep, int *contacts, int n) {
	int total = 0;
	guard(w, [&] {
		int nb = std::min(n, int(w->bodies.size()));
		if (contacts) std::fill(contacts, contacts + std::max(0, n), 0);
		if (asleep)
			for (int i = 0; i < n; i++) {
				const body *b = i < nb ? w->bodies[i].get() : nullptr;
				asleep[i] = b && b->rb && !b->kinematic && b->rb->getActivationState() == ISLAND_SLEEPING;
			}
		if (!w->built) return 0;
		int nm = w->dispatcher->getNumManifolds();
		for (int m = 0; m < nm; m++) {
			btPersistentManifold *pm = w->dispatcher->getManifoldByIndexInternal(m);
			const info *a = static_cast<const info *>(pm->getBody0()->getUserPointer());
			const info *b = static_cast<const info *>(pm->getBody1()->getUserPointer());
			if (!a || !b || a->sf.trigger || b->sf.trigger) continue;
			int k = 0;
			for (int i = 0, np = pm->getNumContacts(); i < np; i++)
				if (pm->getContactPoint(i).getDistance() <= touching) k++;
			total += k;
			if (contacts) {
				if (a->body >= 0 && a->body < nb) contacts[a->body] += k;
				if (b->body >= 0 && b->body < nb) contacts[b->body] += k;
			}
		}
		return 0;
	});
	return total;
}

int pvb_read_states(pvb_world *w, double *states, int n) {
	return guard(w, [&] {
		for (int i = 0; i < n && size_t(i) < w->bodies.size(); i++) readState(*w->bodies[i], states + 13 * i);
		return 0;
	});
}

int pvb_awake(pvb_world *w) {
	if (!w || w->broken) return 0;
	int n = 0;
	for (auto &b : w->bodies)
		if (!b->kinematic && (!b->rb || b->rb->isActive())) n++;
	return n;
}

void pvb_tune(pvb_world *w, unsigned bits) {
	if (w) w->tune = bits;
}
long pvb_dropped_pairs(pvb_world *w) { return w ? w->droppedPairs : 0; }
void pvb_counts(pvb_world *w, long *out) {
	out[0] = out[1] = out[2] = 0;
	if (!w || !w->built || w->broken) return;
	out[0] = w->met;
	out[1] = w->dispatcher->getNumManifolds();
	out[2] = w->broadphase->getOverlappingPairCache()->getNumOverlappingPairs();
}
int pvb_noverlaps(pvb_world *w) { return w ? int(w->overlaps.size() / 2) : 0; }
const int *pvb_overlaps(pvb_world *w) { return w->overlaps.data(); }
int pvb_npoints(pvb_world *w) { return w ? int(w->points.size() / 3) : 0; }
const double *pvb_points(pvb_world *w) { return w->points.data(); }

int pvb_raise(pvb_world *w, int kind) {
	return guard(w, [&] {
		if (kind == 3) {
			w->messages.push_back("a message for a test (3)");
			return 0;
		}
		throw std::runtime_error("raised for a test (" + std::to_string(kind) + ")");
		return 0;
	});
}

} // extern "C"

// Joints: ball joints, and the angular motor that limits a ball's swing
// and twist (sim/joints.go sets its axes and angles before each step).

namespace {

// ballConstraint makes a ball joint between body b1 and body b2 (or the
// world when b2 < 0) at pivot: a 6-DOF constraint with its linear axes
// locked and its angular axes free. Its first linear axis, fixed in b1,
// points from the pivot to b1's centre of mass. A pendulum's rows are then
// along and across its rod for the whole swing, which the solver settles
// in a few iterations; btPoint2PointConstraint's world-aligned rows mix a
// small bob's radial and tangential directions, and 20 iterations left a
// 1 m pendulum 1.7 mm too long.
btTypedConstraint *ballConstraint(pvb_world *w, int b1, int b2, const btVector3 &pivot) {
	btRigidBody &A = *bodyAt(w, b1).rb;
	btRigidBody &B = rbOrFixed(w, b2);
	btMatrix3x3 basis = btMatrix3x3::getIdentity();
	btVector3 x = A.getCenterOfMassPosition() - pivot;
	if (x.length2() > 1e-12) {
		x.normalize();
		btVector3 y, z;
		btPlaneSpace1(x, y, z);
		basis.setValue(x.x(), y.x(), z.x(), x.y(), y.y(), z.y(), x.z(), y.z(), z.z());
	}
	btTransform frame(basis, pivot);
	auto *d = new btGeneric6DofSpring2Constraint(A, B, A.getWorldTransform().inverse() * frame, B.getWorldTransform().inverse() * frame);
	for (int a = 0; a < 3; a++) d->setLimit(a, 0, 0);
	for (int a = 3; a < 6; a++) d->setLimit(a, 1, -1);
	return d;
}

// amotor is ODE's angular motor in user mode, played as a Bullet
// constraint of our own: up to 3 world axes whose angles the caller sets
// before each step, each with stops. An axis past a stop (or locked, lo =
// hi) gives one angular row that pulls the angle back at ERP × error per
// step, one-sided at a stop, with ODE's stop CFM as its softness. Body A
// is the motor's body 1: its angle grows as A turns about the axis
// relative to B.
struct amotor : btTypedConstraint {
	struct axis {
		btVector3 dir{1, 0, 0};
		double angle = 0, lo = -INFINITY, hi = INFINITY;
		double erp = -1, cfm = 0; // erp < 0: the world's
	};
	int n;
	axis ax[3];
	amotor(btRigidBody &a, btRigidBody &b, int n) : btTypedConstraint(btTypedConstraintType(MAX_CONSTRAINT_TYPE), a, b), n(n) {}

	// active says which stop axis i is at: -1 low, 1 high, 2 locked, 0 none.
	int active(int i) const {
		const axis &x = ax[i];
		if (!(x.lo <= x.hi)) return 0;
		if (x.lo == x.hi) return 2;
		if (x.angle <= x.lo) return -1;
		if (x.angle >= x.hi) return 1;
		return 0;
	}
	void getInfo1(btConstraintInfo1 *info) override {
		info->m_numConstraintRows = 0;
		info->nub = 0;
		for (int i = 0; i < n; i++)
			if (active(i)) info->m_numConstraintRows++;
	}
	void getInfo2(btConstraintInfo2 *info) override {
		int row = 0;
		for (int i = 0; i < n; i++) {
			int at = active(i);
			if (!at) continue;
			const axis &x = ax[i];
			int s = row * info->rowskip;
			for (int k = 0; k < 3; k++) {
				info->m_J1angularAxis[s + k] = x.dir[k];
				if (info->m_J2angularAxis) info->m_J2angularAxis[s + k] = -x.dir[k];
			}
			double erp = x.erp >= 0 ? x.erp : info->erp;
			double target = at == 1 ? x.hi : x.lo;
			double c = info->fps * erp * (target - x.angle);
			info->m_constraintError[s] = c;
			double lo = at == -1 ? 0 : -SIMD_INFINITY, hi = at == 1 ? 0 : SIMD_INFINITY;
			if (x.cfm > 0) {
				// A soft stop: ODE's row settles at (K + CFM / h) λ = c − J v
				// (K = J M⁻¹ Jᵀ, v the velocities with this step's torques).
				// Bullet's solver iterates a row's CFM stably only when it
				// is small against K, so the row applies that impulse as
				// it is, as the drives' forces are (driveMotors).
				double h = 1 / info->fps;
				btVector3 wa = m_rbA.getAngularVelocity() + m_rbA.getInvInertiaTensorWorld() * m_rbA.getTotalTorque() * h;
				btVector3 wb = m_rbB.getAngularVelocity() + m_rbB.getInvInertiaTensorWorld() * m_rbB.getTotalTorque() * h;
				double k = x.dir.dot(m_rbA.getInvInertiaTensorWorld() * x.dir) + x.dir.dot(m_rbB.getInvInertiaTensorWorld() * x.dir);
				double l = (c - (wa - wb).dot(x.dir)) / (k + x.cfm * info->fps);
				l = std::max(lo, std::min(hi, l));
				if (!std::isfinite(l)) l = 0;
				lo = hi = l;
			}
			info->m_lowerLimit[s] = lo;
			info->m_upperLimit[s] = hi;
			row++;
		}
	}
	void setParam(int, btScalar, int) override {}
	btScalar getParam(int, int) const override { return 0; }
};

amotor &amotorAt(pvb_world *w, int ji) {
	check(ji >= 0 && size_t(ji) < w->joints.size() && w->joints[ji]->kind == PVB_AMOTOR, "no such angular motor");
	return *static_cast<amotor *>(w->joints[ji]->c);
}

} // namespace

extern "C" {

int pvb_amotor_new(pvb_world *w, int b1, int b2, int n) {
	return guard(w, [&] {
		build(w);
		check(n >= 1 && n <= 3, "an angular motor has 1 to 3 axes");
		check(b1 >= 0, "an angular motor's body 1 must be a body");
		std::unique_ptr<joint> j(new joint());
		j->kind = PVB_AMOTOR;
		j->b1 = b1;
		j->b2 = b2;
		j->c = new amotor(*bodyAt(w, b1).rb, rbOrFixed(w, b2), n);
		j->c->setOverrideNumSolverIterations(std::max(jointIterations, w->iterations));
		w->world->addConstraint(j->c, true);
		w->joints.push_back(std::move(j));
		return int(w->joints.size() - 1);
	});
}

int pvb_amotor_axis(pvb_world *w, int ji, int i, const double *dir, double angle) {
	return guard(w, [&] {
		amotor &m = amotorAt(w, ji);
		check(i >= 0 && i < m.n, "no such angular motor axis");
		btVector3 d = vec(dir);
		check(d.length2() > 0 && std::isfinite(d.length2()) && std::isfinite(angle), "an angular motor axis must be finite and not 0");
		m.ax[i].dir = d.normalized();
		m.ax[i].angle = angle;
		return 0;
	});
}

int pvb_amotor_param(pvb_world *w, int ji, int i, int param, double v) {
	return guard(w, [&] {
		amotor &m = amotorAt(w, ji);
		check(i >= 0 && i < m.n, "no such angular motor axis");
		auto &x = m.ax[i];
		switch (param) {
		case PVB_LO_STOP: x.lo = v; break;
		case PVB_HI_STOP: x.hi = v; break;
		case PVB_STOP_ERP: x.erp = std::min(1.0, std::max(0.0, v)); break;
		case PVB_STOP_CFM: x.cfm = std::max(0.0, v); break;
		}
		return 0;
	});
}

int pvb_amotor_angle(pvb_world *w, int ji, int i, double *angle) {
	return guard(w, [&] {
		amotor &m = amotorAt(w, ji);
		check(i >= 0 && i < m.n, "no such angular motor axis");
		*angle = m.ax[i].angle;
		return 0;
	});
}

} // extern "C"
