package scene

// The physics body model, shared by the OMI and KHR codecs (scene/omi,
// scene/khr; their common JSON form is body_form.go): a node's motion,
// collider and trigger, and the document's physics materials and collision
// filters.

// MotionType is the kind of a physics body's motion. The zero value means "not set".
type MotionType int

// Motion types of OMI_physics_body.
const (
	MotionStatic MotionType = iota + 1
	MotionKinematic
	MotionDynamic
)

// String returns the name as written in OMI_physics_body.
func (t MotionType) String() string {
	switch t {
	case MotionStatic:
		return "static"
	case MotionKinematic:
		return "kinematic"
	case MotionDynamic:
		return "dynamic"
	}
	return "unknown"
}

// ParseMotionType reads a current motion type name.
func ParseMotionType(s string) (MotionType, bool) {
	for _, t := range []MotionType{MotionStatic, MotionKinematic, MotionDynamic} {
		if t.String() == s {
			return t, true
		}
	}
	return 0, false
}

// Body is the OMI_physics_body extension of one node: any of motion, collider
// and trigger, which OMI allows on the same node.
type Body struct {
	Motion   *Motion
	Collider *Collider
	Trigger  *Trigger
	// Extra holds keys the model does not interpret.
	Extra Members
}

// Motion makes the node's subtree one physics body.
type Motion struct {
	Type MotionType
	// Mass in kilograms (default 1).
	Mass float64
	// CenterOfMass in metres, in the body's local space.
	CenterOfMass [3]float64
	// InertiaDiagonal in kg·m²; all zero means the engine computes it,
	// unless InertiaInfinite.
	InertiaDiagonal [3]float64
	// InertiaInfinite is a KHR inertiaDiagonal written as [0, 0, 0]: in
	// KHR_physics_rigid_bodies a zero moment is infinite, so the body
	// never turns. (Absent, the inertia is computed; in OMI a written
	// [0, 0, 0] is computed too.)
	InertiaInfinite bool
	// InertiaOrientation rotates the principal axes (quaternion x, y, z, w).
	InertiaOrientation [4]float64
	// LinearVelocity (m/s) and AngularVelocity (rad/s) are initial values.
	LinearVelocity, AngularVelocity [3]float64
	// GravityFactor multiplies the gravity acting on the body (default 1).
	GravityFactor float64
	Extra         Members
}

// DefaultMotion returns a motion of type t with the spec defaults.
func DefaultMotion(t MotionType) Motion {
	return Motion{Type: t, Mass: 1, InertiaOrientation: [4]float64{0, 0, 0, 1}, GravityFactor: 1}
}

// Collider is a solid shape. Shape -1 makes the node the parent of a
// compound collider made of its descendants' colliders.
type Collider struct {
	Shape           int
	PhysicsMaterial int
	CollisionFilter int
	Extra           Members
}

// Trigger is a non-solid overlap volume: one shape, or a compound of the
// listed descendant nodes, each with its own trigger.
type Trigger struct {
	Shape int
	// Nodes is non-nil for a compound trigger.
	Nodes           []int
	CollisionFilter int
	Extra           Members
	// implicit is set while loading for the pre-2024 "trigger": {} form,
	// whose nodes are filled in once the node tree is known.
	implicit bool
}

// PhysicsMaterial holds friction and restitution for colliders.
type PhysicsMaterial struct {
	StaticFriction, DynamicFriction, Restitution float64
	// FrictionCombine and RestitutionCombine: average, minimum, maximum or multiply.
	FrictionCombine, RestitutionCombine string
	Extra                               Members
}

// CollisionFilter says which collision systems an object is in and which it
// collides with.
type CollisionFilter struct {
	CollisionSystems      []string
	CollideWithSystems    []string
	NotCollideWithSystems []string
	Extra                 Members
}
