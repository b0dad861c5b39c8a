package scene

// PhysicsRule is one rule of the physics and variants checks: its code and
// the rule in a sentence. Each finding is made with its code where the check
// is; this list is what docs/validation.md's table and the code test read.
type PhysicsRule struct {
	Code string
	Rule string
}

// PhysicsRules lists the codes of the findings the OMI physics, Khronos
// physics drafts and KHR_materials_variants checks make (docs/validation.md
// "Validation codes"). The body, shape and joint rules are written once:
// in a document in the Khronos drafts (KHR_implicit_shapes,
// KHR_physics_rigid_bodies) each OMI_ code below is given as KHR_ with the
// same rest (KHR_JOINT_LIMIT_MIN_MAX), except OMI_TAPERED_SHAPE, as the drafts
// define tapered shapes. Where a rule is the same as one of
// the Khronos validator, the Khronos code is used.
var PhysicsRules = []PhysicsRule{
	{"NODE_PARENT_OVERRIDE", "a node is the child of two nodes"},
	{"NODE_LOOP", "the node hierarchy has a cycle"},
	{"KHR_MATERIALS_VARIANTS_NON_UNIQUE_VARIANT", "a variant is mapped twice in one primitive"},
	{"OMI_LEGACY_FORM", "an older form of an OMI extension was read and upgraded (info)"},
	{"OMI_UNRESOLVED_REFERENCE", "an index (shape, mesh, physics material, collision filter, joint, node, variant, material) points past its list (given as UNRESOLVED_REFERENCE in OMI blocks, scene/omi)"},
	{"OMI_GRAVITY_NOT_ON_BASE_TRIGGER", "a gravity field is not on a base trigger node (a trigger without motion or collider, not part of a compound)"},
	{"OMI_COMPOUND_TRIGGER", "a compound trigger lists a node that is not its descendant or has no trigger, or carries a collision filter"},
	{"OMI_MUTUALLY_EXCLUSIVE", "two properties that exclude each other are both set"},
	{"OMI_NON_UNIFORM_SCALE", "non-uniform scale on or above a shape node"},
	{"OMI_TRIMESH_DYNAMIC", "a trimesh shape is the collider of a dynamic body"},
	{"OMI_HULL_TOO_MANY_POINTS", "a convex shape's mesh has more than 255 vertices"},
	{"OMI_G4MF_SHAPE", "a G4MF shape kind (general, plane, ray, heightmap) that other OMI readers do not know, or a general shape that is exactly an OMI shape (info)"},
	{"OMI_TAPERED_SHAPE", "a capsule or cylinder has different top and bottom radii"},
	{"OMI_JOINT_LIMIT_NO_AXES", "a joint limit names no linear or angular axes"},
	{"OMI_JOINT_LIMIT_MIN_MAX", "a joint limit's min is greater than its max"},
	{"OMI_JOINT_NO_DYNAMIC_BODY", "neither side of a joint is a dynamic body"},
	{"OMI_JOINT_NODE_HAS_BODY", "a joint node carries a body, collider or trigger of its own"},
	{"OMI_JOINT_CONNECTED_NOT_BODY", "a joint's connected node is not part of a body"},
	{"OMI_JOINT_SAME_BODY", "a joint's connected node is part of the joint node's own body (the joint does nothing; simulate skips it)"},
	{"KHR_RIGID_BODIES_JOINT_INVALID_RANGE", "a KHR joint limit's min is greater than its max (the Khronos physics validator's code; OMI_JOINT_LIMIT_MIN_MAX in OMI)"},
	{"OMI_JOINT_SETTINGS_EMPTY", "joint settings have neither limits nor drives"},
	{"OMI_JOINT_LIMIT_UNBOUNDED", "a joint limit has neither min nor max"},
	{"OMI_JOINT_AXIS_TWICE", "an OMI joint limit lists an axis twice (DUPLICATE_ELEMENTS in KHR)"},
	{"OMI_JOINT_AXIS_LIMITED_TWICE", "an axis is limited by two limits of one joint"},
	{"OMI_JOINT_DRIVE_TWICE", "two drives of one joint drive the same axis"},
	{"OMI_JOINT_DRIVE_LOCKED_AXIS", "a drive drives an axis a limit locks"},
	{"OMI_JOINT_DRIVE_NO_TARGET", "a drive has neither a position nor a velocity target"},
	{"OMI_JOINT_DRIVE_NO_GAIN", "a drive cannot apply force: a position target without stiffness, a velocity target without damping, or maxForce 0"},
	{"OMI_VARIANTS_NAME", "a variant has no name or the name of another variant"},
	{"UNSATISFIED_DEPENDENCY", "primitives map variants but the root variants list is missing"},
	{"OMI_TYPE_MISMATCH", "a value has the wrong JSON type or the wrong number of elements (in OMI blocks TYPE_MISMATCH or ARRAY_LENGTH_NOT_IN_LIST, but for OMI's own rules: a non-integer gravity priority, line points not in threes, heightmap sizes, curve parameters)"},
	{"OMI_UNDEFINED_PROPERTY", "a required property or sub-object is missing (given as UNDEFINED_PROPERTY in OMI blocks)"},
	{"OMI_GENERAL_CURVE", "a G4MF general shape's curve is unusual (one non-zero radius, a one-section taper, an exponent below 1: read, drawn as its hull)"},
	{"OMI_DEGENERATE_SHAPE", "a shape has no volume (a general shape with no curves and a zero size)"},
	{"KHR_GEOMETRY_NO_SHAPE", "a KHR collider or trigger geometry names neither a shape nor a mesh (or node)"},
	{"KHR_GEOMETRY_SHAPE_AND_MESH", "a KHR geometry names more than one of shape, mesh and node"},
	{"KHR_DEGENERATE_SHAPE", "a KHR capsule or cylinder whose height and radii sum to under 0.0039216, or a capsule of height 0"},
	{"KHR_COLLISION_SYSTEM_UNKNOWN", "a KHR collision filter collides (or not) with a system no filter declares in collisionSystems"},
	{"KHR_COLLISION_SYSTEM_DUPLICATE", "a KHR collision filter lists a collision system twice"},
	{"KHR_PHYSICS_BOTH_DIALECTS", "the file has both OMI and KHR physics; OMI is shown and edited, KHR kept unchanged"},
	{"KHR_UNKNOWN_PROPERTY", "a KHR geometry has keys physview does not keep"},
	{"KHR_GEOMETRY_NODE_CHILDREN", "a KHR geometry.node has children whose meshes are not used"},
	{"KHR_MASS_ZERO", "a KHR motion has mass 0, which means infinite mass (info)"},
	{"KHR_INERTIA_ZERO", "a KHR inertiaDiagonal has a zero moment, which means an infinite one (info)"},
	{"XODE_IMPORT", "what an XODE file has that the model keeps differently"},
	{"G4MF_IMPORT", "what a G4MF file has that the glTF model does not read"},
	{"OMI_VALUE_OUT_OF_ENGINE_RANGE", "a physics value beyond what an engine plays in double precision: a body node more than 1e6 m from the origin, a shape node's world scale over 1e6 or under 1e-6, a shape over 2e6 m across, a speed over 1e4 m/s or rad/s, a mass over 1e12 kg"},
	{"OMI_VALUE_NOT_IN_RANGE", "a value is outside its range (in OMI blocks VALUE_NOT_IN_RANGE, VALUE_NOT_IN_LIST for an unknown name; OMI_VALUE_NOT_IN_RANGE stays for a zero direction and a dynamic body of mass 0)"},
	// The KHR fork of the Khronos validator's own codes (scene/khr/fork.go); in a
	// KHR or glTF 2.1 document its schema-level faults carry the core codes
	// (UNRESOLVED_REFERENCE, VALUE_NOT_IN_RANGE, ...).
	{"KHR_RIGID_BODIES_JOINT_INVALID_RANGE", "a KHR joint limit's min is greater than its max"},
	{"KHR_RIGID_BODIES_COLLISION_FILTER_INVALID_FILTER_SET", "a KHR collision filter has both collideWithSystems and notCollideWithSystems"},
	{"KHR_RIGID_BODIES_TRIGGER_NODES_INVALID", "a KHR compound trigger lists a node that is not a simple trigger (it has none, or is a compound itself)"},
	{"KHR_IMPLICIT_SHAPES_DEGENERATE_SHAPE", "a KHR or glTF 2.1 shape has a zero size or radius, both radii 0, height 0, or sizes that add up to under 0.0039216 (info)"},
	{"KHR_SHAPES_IN_GLTF21", "a glTF 2.1 file also has KHR_implicit_shapes; colliders name the core shapes and the extension is kept unread"},
	{"BOUNDING_VOLUME_SHAPE_TYPE", "a glTF 2.1 node boundingVolume names a shape that is not a box or a sphere"},
	{"BOUNDING_VOLUME_TOO_SMALL", "a glTF 2.1 node's mesh reaches outside its boundingVolume"},
}
