package scene

import "strings"

// PhysicsRule is one rule of the physics and variants checks: its code, the
// rule in a sentence, and the message fragments of the findings it makes.
type PhysicsRule struct {
	Code  string
	Rule  string
	match []string
}

// PhysicsRules lists the codes of the findings the OMI physics and
// KHR_materials_variants checks make (README "Validation codes"), in the
// order a finding is matched against them. Where a rule is the same as one of
// the Khronos validator, the Khronos code is used.
var PhysicsRules = []PhysicsRule{
	{"NODE_PARENT_OVERRIDE", "a node is the child of two nodes", []string{"already has parent"}},
	{"NODE_LOOP", "the node hierarchy has a cycle", []string{"part of a cycle", "lists itself as a child"}},
	{"KHR_MATERIALS_VARIANTS_NON_UNIQUE_VARIANT", "a variant is mapped twice in one primitive", []string{"is already mapped by mapping"}},
	{"OMI_LEGACY_FORM", "an older form of an OMI extension was read and upgraded (info)", []string{"legacy", "archived", "pre-2025", "before September", "before July", "the form before", "off-diagonal", "draft"}},
	{"OMI_UNRESOLVED_REFERENCE", "an index (shape, mesh, physics material, collision filter, joint, node, variant, material) points past its list", []string{"does not exist", "do not exist"}},
	{"OMI_GRAVITY_NOT_ON_BASE_TRIGGER", "a gravity field is not on a base trigger node (a trigger without motion or collider, not part of a compound)", []string{"gravity must be on"}},
	{"OMI_COMPOUND_TRIGGER", "a compound trigger lists a node that is not its descendant or has no trigger, or carries a collision filter", []string{"is not a descendant", "has no trigger of its own", "compound trigger (nodes) must not"}},
	{"OMI_MUTUALLY_EXCLUSIVE", "two properties that exclude each other are both set", []string{"mutually exclusive", "only one may be set"}},
	{"OMI_NON_UNIFORM_SCALE", "non-uniform scale on or above a shape node", []string{"non-uniform scale"}},
	{"OMI_TRIMESH_DYNAMIC", "a trimesh shape is the collider of a dynamic body", []string{"trimesh shape"}},
	{"OMI_HULL_TOO_MANY_POINTS", "a convex shape's mesh has more than 255 vertices", []string{"limit hulls"}},
	{"OMI_G4MF_SHAPE", "a G4MF shape kind (general, plane, ray, heightmap) that other OMI readers do not know, or a general shape that is exactly an OMI shape (info)", []string{"OMI readers other than physview", "other OMI readers only know"}},
	{"OMI_TAPERED_SHAPE", "a capsule or cylinder has different top and bottom radii", []string{"tapered"}},
	{"OMI_JOINT_LIMIT_NO_AXES", "a joint limit names no linear or angular axes", []string{"names no axes"}},
	{"OMI_JOINT_LIMIT_MIN_MAX", "a joint limit's min is greater than its max", []string{"is greater than max"}},
	{"OMI_JOINT_NO_DYNAMIC_BODY", "neither side of a joint is a dynamic body", []string{"nothing to move"}},
	{"OMI_JOINT_NODE_HAS_BODY", "a joint node carries a body, collider or trigger of its own", []string{"joint node should not carry"}},
	{"OMI_JOINT_CONNECTED_NOT_BODY", "a joint's connected node is not part of a body", []string{"not part of any body"}},
	{"OMI_VARIANTS_NAME", "a variant has no name or the name of another variant", []string{"has no name", "is also used by variant"}},
	{"UNSATISFIED_DEPENDENCY", "primitives map variants but the root variants list is missing", []string{"root variants list is missing"}},
	{"OMI_TYPE_MISMATCH", "a value has the wrong JSON type or the wrong number of elements", []string{"must be a", "must be an", "must be true or false", "must hold", "must have", "is not a number", "not a multiple of 3"}},
	{"OMI_UNDEFINED_PROPERTY", "a required property or sub-object is missing", []string{"required", "needs", "sub-object", "has no shape", "neither a shape nor nodes", "has no type"}},
	{"OMI_VALUE_NOT_IN_RANGE", "a value is outside its range (negative size, unknown type name, non-unit quaternion, zero vector, axis not 0-2, non-integer priority)", []string{"must not be negative", "greater than 0", "must be 0, 1 or 2", "unknown", "unit quaternion", "zero vector", "must be an integer", "must be force", "must be linear", "not both 0", "less than twice"}},
}

// khronosTwin marks the OMI_ codes whose rule is the Khronos rule of the
// same name without the prefix; KHR_materials_variants findings use the
// Khronos name.
var khronosTwin = map[string]bool{"OMI_TYPE_MISMATCH": true, "OMI_UNDEFINED_PROPERTY": true, "OMI_VALUE_NOT_IN_RANGE": true}

// codeFor gives a finding made without a code (the physics and variants
// checks) the code of the first rule whose fragment its message contains;
// OMI_INVALID when none does. Notes of the XODE importer (what XODE has that
// the model keeps differently) are XODE_IMPORT.
func codeFor(f Finding) string {
	if strings.HasPrefix(f.Path, "xode line") {
		return "XODE_IMPORT"
	}
	for _, r := range PhysicsRules {
		for _, m := range r.match {
			if strings.Contains(f.Message, m) {
				if r.Code == "OMI_UNRESOLVED_REFERENCE" && strings.Contains(f.Path, "/children/") {
					return "UNRESOLVED_REFERENCE"
				}
				if r.Code == "OMI_UNRESOLVED_REFERENCE" && strings.Contains(f.Path, ExtVariants) {
					return "UNRESOLVED_REFERENCE"
				}
				if strings.Contains(f.Path, ExtVariants) && khronosTwin[r.Code] {
					return strings.TrimPrefix(r.Code, "OMI_")
				}
				return r.Code
			}
		}
	}
	return "OMI_INVALID"
}
