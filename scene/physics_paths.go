package scene

import "fmt"

// The OMI extension names. Their codecs are the package scene/omi; the
// names stay here because the dialect paths below, the KHR codec (which
// keeps an OMI body inside a KHR node) and the diff, g4mf, xode and ui
// packages name them.
const (
	// ExtShape is OMI_physics_shape: the document's shapes.
	ExtShape = "OMI_physics_shape"
	// ExtBody is OMI_physics_body: physics materials, collision filters
	// and each node's motion, collider and trigger.
	ExtBody = "OMI_physics_body"
	// ExtCollider is the archived OMI_collider: read into the model, never
	// written (a save writes what replaced it).
	ExtCollider = "OMI_collider"
	// ExtGravity is OMI_physics_gravity: world gravity and gravity fields.
	ExtGravity = "OMI_physics_gravity"
	// ExtJoint is OMI_physics_joint: joint settings and joint nodes.
	ExtJoint = "OMI_physics_joint"
)

// physicsPaths says where one physics dialect keeps what the model holds,
// and how its finding codes begin. The body, joint and shape checks are
// written once against the model and told the dialect's paths, so OMI and
// KHR documents get the same rules under their own names and codes.
type physicsPaths struct {
	// prefix begins the dialect's codes: "OMI_" or "KHR_".
	prefix string
	// shapes, materials, filters and joints are the JSON pointers of the
	// document-level lists.
	shapes, materials, filters, joints string
	// body and joint return the JSON pointer of node n's body and joint
	// blocks.
	body, joint func(n int) string
	// geometry is what comes between "collider" or "trigger" and "shape":
	// "" in OMI, "/geometry" in KHR.
	geometry string
}

// code returns the dialect's code for a rule.
func (p physicsPaths) code(base string) string { return p.prefix + base }

var omiPaths = physicsPaths{
	prefix:    "OMI_",
	shapes:    "/extensions/" + ExtShape + "/shapes",
	materials: "/extensions/" + ExtBody + "/physicsMaterials",
	filters:   "/extensions/" + ExtBody + "/collisionFilters",
	joints:    "/extensions/" + ExtJoint + "/physicsJoints",
	body:      func(n int) string { return fmt.Sprintf("/nodes/%d/extensions/%s", n, ExtBody) },
	joint:     func(n int) string { return fmt.Sprintf("/nodes/%d/extensions/%s", n, ExtJoint) },
}

// Extension names of the Khronos physics drafts.
const (
	ExtKHRShapes = "KHR_implicit_shapes"
	ExtKHRBodies = "KHR_physics_rigid_bodies"
)

var khrPaths = physicsPaths{
	prefix:    "KHR_",
	shapes:    "/extensions/" + ExtKHRShapes + "/shapes",
	materials: "/extensions/" + ExtKHRBodies + "/physicsMaterials",
	filters:   "/extensions/" + ExtKHRBodies + "/collisionFilters",
	joints:    "/extensions/" + ExtKHRBodies + "/physicsJoints",
	body:      func(n int) string { return fmt.Sprintf("/nodes/%d/extensions/%s", n, ExtKHRBodies) },
	joint:     func(n int) string { return fmt.Sprintf("/nodes/%d/extensions/%s/joint", n, ExtKHRBodies) },
	geometry:  "/geometry",
}

// gltf21Paths are the 2.1 paths: core shapes (the validator's core codes,
// no prefix), bodies in KHR_physics_rigid_bodies.
var gltf21ShapePaths = func() physicsPaths {
	p := khrPaths
	p.prefix = ""
	p.shapes = coreShapesBlock
	return p
}()

// pathsOf returns the paths and codes of dialect p.
func pathsOf(p PhysicsDialect) physicsPaths {
	switch p {
	case DialectOMI:
		return omiPaths
	case DialectGLTF21:
		return gltf21ShapePaths
	}
	return khrPaths
}

// isOMI reports whether the document's physics is in the OMI dialect, so
// the OMI codecs write, list and check it (the KHR codec does otherwise).
func (d *Document) isOMI() bool { return d.PhysicsDialect() == DialectOMI }
