package scene

import (
	"encoding/json"
	"math"
)

// ShapeType names the kind of a physics shape. The zero value means "not set".
type ShapeType int

// Shape types of OMI_physics_shape, then the G4MF kinds, which have no OMI
// form (see shape_general.go for how they are written in glTF). What the
// model knows of each kind is its entry in the kind table (shape_kinds.go),
// registered from the kind's own file; a new kind declares its constant
// there too, after these.
const (
	ShapeBox ShapeType = iota + 1
	ShapeSphere
	ShapeCapsule
	ShapeCylinder
	ShapeConvex
	ShapeTrimesh
	// ShapeGeneral is G4MF's general shape: a box Minkowski-summed with curves.
	ShapeGeneral
	// ShapePlane is an infinite plane through the node's origin, normal +Y.
	ShapePlane
	// ShapeRay is a ray from the node's origin along -Y.
	ShapeRay
	// ShapeHeightmap is a grid of heights along +Y, samples one metre apart.
	ShapeHeightmap
)

// Shape is one entry of the document-level OMI_physics_shape.shapes array.
//
// All shapes are centred on their node, in the node's local space, in metres,
// with +Y the axis of capsules and cylinders.
type Shape struct {
	// Type selects which of the parameters below apply.
	Type ShapeType
	// Size is a box's full extent along X, Y and Z (default 1, 1, 1); for a
	// general shape the extent of its box before the curves are added
	// (default 1, 1, 1); for a heightmap the number of samples along X and
	// Z (Y unused).
	Size [3]float64
	// Radius is a sphere's radius (default 0.5).
	Radius float64
	// Height is, for a capsule, the MID height: the length of the straight
	// part between the centres of the two cap spheres (default 1); the full
	// height is Height + RadiusTop + RadiusBottom. For a cylinder it is the
	// FULL height (default 2).
	Height float64
	// RadiusTop and RadiusBottom are the radii at +Y and -Y of a capsule or
	// cylinder (default 0.5 each). They may differ (a tapered shape).
	RadiusTop, RadiusBottom float64
	// Mesh is the glTF mesh index of a convex or trimesh shape, -1 for none.
	Mesh int
	// Curves are a general shape's curves, added to the box of Size.
	Curves []Curve
	// Length is a ray's length in metres (default 1).
	Length float64
	// Heights are a heightmap's heights in metres, X varying fastest, then Z.
	Heights []float64
	// DoubleSided makes a plane solid on both sides (KHR_implicit_shapes
	// plane.doubleSided); a plane is one-sided otherwise, as the glTF 2.1
	// plane always is. A plane's finite extents are Size[0] (sizeX) and
	// Size[2] (sizeZ), 0 for infinite.
	DoubleSided bool
	// Name is the optional glTF name of the shape.
	Name string
	// Extra holds the shape's keys the model does not interpret.
	Extra Members
	// SubExtra holds keys inside the type's sub-object the model does not interpret.
	SubExtra Members
}

// DefaultShape returns a shape of type t with the OMI_physics_shape defaults.
func DefaultShape(t ShapeType) Shape {
	s := Shape{Type: t, Mesh: -1}
	if k := kindOf(t); k.defaults != nil {
		k.defaults(&s)
	}
	return s
}

// decodeShape reads one shape in any form real files use: the current nested
// form, the flat form of mid-2023 and of OMI_collider (flat is true for the
// latter two, and also for the OMI_collider array), and the pre-2025 capsule
// and cylinder with a single radius.
func decodeShape(raw json.RawMessage, path string, fs *findings, collider bool) Shape {
	r := newReader(raw, path, fs)
	if r == nil {
		return Shape{Mesh: -1}
	}
	typeName := r.str("type", "")
	t, hull, ok := ParseShapeType(typeName)
	if !ok {
		if typeName == "" {
			fs.errorf("OMI_UNDEFINED_PROPERTY", path+"/type", "shape type is required")
		} else {
			fs.errorf("OMI_VALUE_NOT_IN_RANGE", path+"/type", "unknown shape type %q", typeName)
		}
		s := Shape{Mesh: -1, Name: r.str("name", ""), Extra: r.rest()}
		// Keep the unknown type string so saving does not lose it.
		if typeName != "" {
			s.Extra = append(Members{{Key: "type", Value: mustJSON(typeName)}}, s.Extra...)
		}
		return s
	}
	if hull {
		fs.infof("OMI_LEGACY_FORM", path+"/type", "legacy type \"hull\" read as \"convex\"")
	}
	s := DefaultShape(t)
	s.Name = r.str("name", "")

	// The current form nests parameters under the type's name; older forms
	// put them on the shape itself.
	p := r.object(t.String())
	if hull && p == nil {
		p = r.object("hull")
	}
	legacyFlat := false
	if p == nil && r.has(t.String()) {
		// A sub-object of the wrong type: the defaults replace it.
		r.used[t.String()] = true
	}
	if p == nil {
		p = r
		if hasAnyParam(r) {
			legacyFlat = true
			if !collider {
				fs.infof("OMI_LEGACY_FORM", path, "legacy flat parameters (before July 2023) read; saved nested under %q", t.String())
			}
		} else if !collider && !r.has(t.String()) {
			fs.warnf("OMI_UNDEFINED_PROPERTY", path, "no %q sub-object: the defaults are used (the schema requires the sub-object)", t.String())
		}
	}

	if k := kindOf(t); k.decode != nil {
		k.decode(&s, p, path, fs, collider)
	}
	if p != r {
		s.SubExtra = p.rest()
	} else if legacyFlat || collider {
		// Flat keys were consumed from r itself.
		for _, k := range []string{"size", "radius", "radiusTop", "radiusBottom", "height", "mesh"} {
			r.used[k] = true
		}
	}
	r.used["isTrigger"] = collider
	// Sub-objects of other types carry nothing we can use; keep them.
	s.Extra = r.rest()
	return s
}

func ptrOr(p *float64, def float64) *float64 {
	if p == nil {
		return &def
	}
	return p
}

func hasAnyParam(r *reader) bool {
	for _, k := range []string{"size", "radius", "radiusTop", "radiusBottom", "height", "mesh"} {
		if r.has(k) {
			return true
		}
	}
	return false
}

// encode writes the shape in the current nested form with every parameter
// explicit.
func (s Shape) encode() json.RawMessage {
	var w writer
	if s.Type == 0 {
		w.rest(s.Extra)
		return w.bytes()
	}
	w.set("type", s.Type.String())
	if s.Name != "" {
		w.set("name", s.Name)
	}
	var p writer
	if k := kindOf(s.Type); k.encode != nil {
		k.encode(s, &p)
	}
	p.rest(s.SubExtra)
	w.raw(s.Type.String(), p.bytes())
	w.rest(s.Extra)
	return w.bytes()
}

// ParamNames lists the parameters s's kind writes in its sub-object, in
// their order ("size" for a box; "height", "radiusBottom", "radiusTop"
// for a capsule). A kind with none, or an unknown type, gives none.
func (s Shape) ParamNames() []string {
	k := kindOf(s.Type)
	if k.encode == nil {
		return nil
	}
	var p writer
	k.encode(s, &p)
	return p.obj.Keys()
}

// validate checks parameter ranges.
func (s Shape) validate(path string, fs *findings, meshCount int) {
	sub := path + "/" + s.Type.String()
	if k := kindOf(s.Type); k.validate != nil {
		k.validate(s, sub, fs, meshCount)
	}
	if math.IsNaN(s.Height) {
		fs.errorf("OMI_TYPE_MISMATCH", sub, "height is not a number")
	}
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic("scene: " + err.Error())
	}
	return b
}
