package scene

import "fmt"

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

// isOMI reports whether the document's physics is in the OMI dialect, so
// the OMI codecs write, list and check it (the KHR codec does otherwise).
func (d *Document) isOMI() bool { return d.PhysicsDialect() == DialectOMI }
