package scene

import (
	"fmt"
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl64"
)

// shapeKind is everything the model knows about one shape type: its name,
// defaults, how its parameters are read, written, validated and checked,
// and its geometry. Each kind registers its entry from init in its own file
// (shape_box.go, shape_sphere.go, shape_capsule.go with the cylinder,
// shape_mesh.go with convex and trimesh, shape_general.go, shape_plane.go,
// shape_ray.go, shape_heightmap.go); the Shape methods dispatch through the
// table instead of switching on the type, so a new kind is one entry.
//
// Every func may be nil; the comment says what nil means.
type shapeKind struct {
	// name is the type name in OMI_physics_shape, also the name of the
	// sub-object holding the parameters.
	name string
	// defaults sets the kind's default parameters (Type is set and Mesh is
	// -1 already). nil: none.
	defaults func(s *Shape)
	// decode reads the parameters from p (the sub-object, or the shape
	// itself in the flat legacy forms; collider is true for OMI_collider).
	// nil: none.
	decode func(s *Shape, p *reader, path string, fs *findings, collider bool)
	// encode writes the parameters into the sub-object, every value
	// explicit. nil: an empty sub-object.
	encode func(s Shape, p *writer)
	// validate reports parameters out of range under sub, the path of the
	// sub-object. nil: nothing to report.
	validate func(s Shape, sub string, fs *findings, meshCount int)
	// check returns the first parameter an edit may not set. nil: the
	// errors validate reports.
	check func(s Shape, meshCount int) error
	// params describes the parameters in one line. nil: "".
	params func(s Shape) string
	// distance is the signed distance from local point p (negative
	// inside); meshMin and meshMax bound a mesh shape's mesh. nil: +Inf.
	distance func(s Shape, p, meshMin, meshMax mgl64.Vec3) float64
	// nearest is the point of the solid nearest to p. nil: a walk down the
	// distance gradient.
	nearest func(s Shape, p, meshMin, meshMax mgl64.Vec3) mgl64.Vec3
	// bounds is the local bounding box. nil: the origin.
	bounds func(s Shape, meshMin, meshMax mgl64.Vec3) (lo, hi mgl64.Vec3)
	// halfExtents is the half size of the bounding box when it does not
	// depend on a mesh. nil: zero (the mesh or nothing decides).
	halfExtents func(s Shape) [3]float64
	// fromExtents sets the parameters of out (a default shape of the kind)
	// so that it fills half extents h, for WithType. nil: the defaults.
	fromExtents func(out *Shape, h [3]float64)
	// fitSize sets the parameters so the shape fills a box of full extents
	// size (a mesh's bounds), no value below MinFitSize (fitMin), for
	// FitShape. nil: the defaults.
	fitSize func(s *Shape, size mgl64.Vec3)
	// usesMesh is true for kinds whose geometry is a glTF mesh.
	usesMesh bool
	// general is the exact G4MF general-shape form. nil: none.
	general func(s Shape) (General, bool)
}

var shapeKinds = map[ShapeType]*shapeKind{}

// registerShapeKind adds a kind; call it from init.
func registerShapeKind(t ShapeType, k shapeKind) {
	shapeKinds[t] = &k
}

// kindOf returns the table entry of t, or an empty entry for an unknown type.
func kindOf(t ShapeType) *shapeKind {
	if k, ok := shapeKinds[t]; ok {
		return k
	}
	return &shapeKind{}
}

// ShapeTypes lists every shape type the model knows, in a fixed order.
func ShapeTypes() []ShapeType {
	out := make([]ShapeType, 0, len(shapeKinds))
	for t := range shapeKinds {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

// String returns the type's name as written in OMI_physics_shape.
func (t ShapeType) String() string {
	if k, ok := shapeKinds[t]; ok {
		return k.name
	}
	return "unknown"
}

// ParseShapeType reads a type name. "hull" (OMI_collider and the first
// OMI_physics_shape draft) is read as convex; legacy reports that.
func ParseShapeType(s string) (t ShapeType, legacy bool, ok bool) {
	if s == "hull" {
		return ShapeConvex, true, true
	}
	for t, k := range shapeKinds {
		if k.name == s {
			return t, false, true
		}
	}
	return 0, false, false
}

// UsesMesh reports whether shapes of type t take their geometry from a glTF
// mesh (Shape.Mesh): convex and trimesh.
func (t ShapeType) UsesMesh() bool { return kindOf(t).usesMesh }

// checkPositive is the check of one size or radius: finite, and positive
// (or 0 where zeroOK).
func checkPositive(s Shape, what string, v float64, zeroOK bool) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("%s %s must be a finite number", s.Type, what)
	}
	if v < 0 || (v == 0 && !zeroOK) {
		if zeroOK {
			return fmt.Errorf("%s %s must not be negative (got %g)", s.Type, what, v)
		}
		return fmt.Errorf("%s %s must be greater than 0 (got %g)", s.Type, what, v)
	}
	return nil
}

// checkByValidate is the check of a kind that checks itself as validation
// does: the first error validate reports.
func checkByValidate(s Shape, meshCount int) error {
	k := kindOf(s.Type)
	if k.validate == nil {
		return nil
	}
	var fs findings
	k.validate(s, "", &fs, meshCount)
	for _, f := range fs {
		if f.Severity == Error {
			return fmt.Errorf("%s shape: %s", s.Type, f.Message)
		}
	}
	return nil
}
