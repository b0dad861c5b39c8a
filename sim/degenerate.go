package sim

import (
	"math"

	"physview/scene"
)

// MinShapeSize is the size in metres a zero size or radius of a box,
// sphere, capsule or cylinder of a file in the Khronos drafts or glTF 2.1
// is played at. Such a shape is degenerate but valid there (the Khronos
// physics validator gives it as an info, KHR_IMPLICIT_SHAPES_DEGENERATE_SHAPE,
// and so does viewer validate): a floor made of a Blender plane and fitted
// with a box is one. It plays as a sheet, a line or a point 1 mm thick
// (ODE's contact layer) instead of refusing the scene. OMI requires sizes
// greater than 0 (an error in validate), and such a scene stays refused.
const MinShapeSize = 1e-3

// shape returns document shape i as the engines play it: the shape itself,
// or, in a KHR or glTF 2.1 document, when it is invalid only because of
// sizes that are exactly 0, a copy
// with those sizes at MinShapeSize, said once in the warnings. A shape that
// is invalid otherwise (a negative size, an unknown type) is returned as it
// is, for checkValues to refuse.
func (s *Sim) shape(i int) scene.Shape {
	sh := s.Doc.Shapes[i]
	if !s.Doc.PhysicsDialect().KHRBodies() || sh.Check(math.MaxInt32) == nil {
		return sh
	}
	var sizes []*float64
	switch sh.Type {
	case scene.ShapeBox:
		sizes = []*float64{&sh.Size[0], &sh.Size[1], &sh.Size[2]}
	case scene.ShapeSphere:
		sizes = []*float64{&sh.Radius}
	case scene.ShapeCapsule, scene.ShapeCylinder:
		sizes = []*float64{&sh.RadiusTop, &sh.RadiusBottom, &sh.Height}
	default:
		return sh
	}
	changed := false
	for _, p := range sizes {
		if *p == 0 {
			*p = MinShapeSize
			changed = true
		}
	}
	if !changed || sh.Check(math.MaxInt32) != nil {
		return s.Doc.Shapes[i]
	}
	s.warnf("shape %d (%s) is degenerate: its sizes of 0 are played as %g m", i, shapeParams(s.Doc.Shapes[i]), MinShapeSize)
	return sh
}

// skipped reports whether shape i is left out of the simulation: a shape
// type physview does not know, in a KHR or glTF 2.1 file, where it is a
// warning (VALUE_NOT_IN_LIST: an extension may define it), plays as no
// shape, said once in the warnings. In OMI it is an error, and the scene
// stays refused.
func (s *Sim) skipped(i int) bool {
	sh := s.Doc.Shapes[i]
	if !s.Doc.PhysicsDialect().KHRBodies() || sh.Type.String() != "unknown" {
		return false
	}
	s.warnf("shape %d has a type physview does not know: the colliders and triggers that use it are left out", i)
	return true
}
