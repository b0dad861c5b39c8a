package scene

import (
	"encoding/json"
	"fmt"
	"math"
)

// ExtGravity is the extension name. Like every owned
// extension it is read into typed values and written back in its current
// form; everything else in the file is kept as is.
const ExtGravity = "OMI_physics_gravity"

// OMI_physics_gravity: the document's world gravity and each node's
// gravity field.
func init() {
	registerExtension(extensionCodec{
		Names:    []string{ExtGravity},
		Order:    orderGravity,
		Decode:   decodeGravities,
		Patch:    patchGravities,
		Used:     usedGravities,
		Validate: validateGravities,
	})
}

func decodeGravities(d *Document, fs *findings) {
	if raw, ok := rawExt(d.GLTF.Extensions, ExtGravity); ok {
		d.WorldGravity = decodeWorldGravity(raw, "/extensions/"+ExtGravity, fs)
	}
	for i, n := range d.GLTF.Nodes {
		if raw, ok := rawExt(n.Extensions, ExtGravity); ok {
			d.Nodes[i].Gravity = decodeGravity(raw, fmt.Sprintf("/nodes/%d/extensions/%s", i, ExtGravity), fs)
		}
	}
}

func patchGravities(d *Document, node int, blocks map[string]json.RawMessage) {
	if node >= 0 {
		if g := d.Nodes[node].Gravity; g != nil {
			blocks[ExtGravity] = g.encode()
		}
		return
	}
	if d.WorldGravity != nil {
		blocks[ExtGravity] = d.WorldGravity.encode()
	}
}

func usedGravities(d *Document, used []string) []string {
	has := d.WorldGravity != nil
	for _, ne := range d.Nodes {
		has = has || ne.Gravity != nil
	}
	if has {
		used = append(used, ExtGravity)
	}
	return used
}

func validateGravities(d *Document, fs *findings) {
	if g := d.WorldGravity; g != nil && g.Direction == [3]float64{} {
		fs.errorf("OMI_VALUE_NOT_IN_RANGE", "/extensions/"+ExtGravity+"/direction", "world gravity direction must not be the zero vector")
	}
	compoundChild := map[int]bool{}
	for i, ne := range d.Nodes {
		if ne.Body != nil && ne.Body.Trigger != nil {
			for _, c := range ne.Body.Trigger.Nodes {
				if c != i {
					compoundChild[c] = true
				}
			}
		}
	}
	for i, ne := range d.Nodes {
		g := ne.Gravity
		if g == nil {
			continue
		}
		path := fmt.Sprintf("/nodes/%d/extensions/%s", i, ExtGravity)
		g.validate(path, fs, len(d.Shapes))
		b := ne.Body
		switch {
		case b == nil || b.Trigger == nil:
			fs.errorf("OMI_GRAVITY_NOT_ON_BASE_TRIGGER", path, "gravity must be on a node with a trigger (a base trigger); this node has none, so the field covers no volume")
		case b.Motion != nil || b.Collider != nil:
			fs.errorf("OMI_GRAVITY_NOT_ON_BASE_TRIGGER", path, "gravity must be on a base trigger node without motion or collider")
		case compoundChild[i]:
			fs.errorf("OMI_GRAVITY_NOT_ON_BASE_TRIGGER", path, "gravity must be on a base trigger, not on a part of a compound trigger")
		}
	}
}

// GravityType is the kind of a gravity field. The zero value means "not set".
type GravityType int

// Gravity types of OMI_physics_gravity.
const (
	GravityDirectional GravityType = iota + 1
	GravityPoint
	GravityDisc
	GravityTorus
	GravityLine
	GravityShaped
)

var gravityTypeNames = map[GravityType]string{
	GravityDirectional: "directional", GravityPoint: "point", GravityDisc: "disc",
	GravityTorus: "torus", GravityLine: "line", GravityShaped: "shaped",
}

// GravityTypes lists every gravity type, in a fixed order.
func GravityTypes() []GravityType {
	return []GravityType{GravityDirectional, GravityPoint, GravityDisc, GravityTorus, GravityLine, GravityShaped}
}

// String returns the name as written in OMI_physics_gravity.
func (t GravityType) String() string {
	if s, ok := gravityTypeNames[t]; ok {
		return s
	}
	return "unknown"
}

// ParseGravityType reads a gravity type name.
func ParseGravityType(s string) (GravityType, bool) {
	for k, v := range gravityTypeNames {
		if v == s {
			return k, true
		}
	}
	return 0, false
}

// WorldGravity is the document-level gravity: always directional.
type WorldGravity struct {
	// Gravity is the acceleration in m/s²; 0 and negative values are allowed.
	Gravity float64
	// Direction is the unit direction gravity pulls towards (default 0, -1, 0).
	Direction [3]float64
	Extra     Members
}

// Gravity is a node's gravity field. It acts inside the node's trigger
// shapes; the node must be a base trigger.
type Gravity struct {
	Type GravityType
	// Gravity is the acceleration in m/s² (at UnitDistance, for fields that
	// fall off). Negative values push away.
	Gravity float64
	// Priority orders overlapping fields, higher first; world gravity is last.
	Priority int
	// Replace discards what higher-priority fields added; Stop skips every
	// lower-priority field and the world gravity.
	Replace, Stop bool
	// Direction is the directional field's direction in node space (default 0, -1, 0).
	Direction [3]float64
	// UnitDistance is where a point/disc/torus/line/shaped field has its
	// full strength; 0 means constant, > 0 means inverse-square falloff.
	UnitDistance float64
	// Radius is the disc or torus circle radius in the node's XZ plane (default 1).
	Radius float64
	// Points are the line field's polyline vertices in node space.
	Points [][3]float64
	// Shape is the OMI_physics_shape index a shaped field pulls towards, -1 for none.
	Shape    int
	Extra    Members
	SubExtra Members
}

// DefaultGravity returns a field of type t with the spec defaults and 9.8 m/s².
func DefaultGravity(t GravityType) Gravity {
	return Gravity{Type: t, Gravity: 9.8, Direction: [3]float64{0, -1, 0}, Radius: 1, Shape: -1}
}

func decodeWorldGravity(raw json.RawMessage, path string, fs *findings) *WorldGravity {
	r := newReader(raw, path, fs)
	if r == nil {
		return nil
	}
	if !r.has("gravity") {
		fs.errorf("OMI_UNDEFINED_PROPERTY", path+"/gravity", "world gravity needs a gravity value")
	}
	g := &WorldGravity{Gravity: r.number("gravity", 9.8), Direction: r.vec3("direction", [3]float64{0, -1, 0})}
	g.Extra = r.rest()
	return g
}

func (g *WorldGravity) encode() json.RawMessage {
	var w writer
	w.set("gravity", g.Gravity)
	w.set("direction", g.Direction)
	w.rest(g.Extra)
	return w.bytes()
}

func decodeGravity(raw json.RawMessage, path string, fs *findings) *Gravity {
	r := newReader(raw, path, fs)
	if r == nil {
		return nil
	}
	name := r.str("type", "")
	t, ok := ParseGravityType(name)
	if !ok {
		if name == "" {
			fs.errorf("OMI_UNDEFINED_PROPERTY", path+"/type", "gravity type is required")
		} else {
			fs.errorf("OMI_VALUE_NOT_IN_RANGE", path+"/type", "unknown gravity type %q", name)
		}
		return nil
	}
	g := DefaultGravity(t)
	if !r.has("gravity") {
		fs.errorf("OMI_UNDEFINED_PROPERTY", path+"/gravity", "gravity value is required")
	}
	g.Gravity = r.number("gravity", g.Gravity)
	prio := r.number("priority", 0)
	if prio != math.Round(prio) {
		fs.warnf("OMI_TYPE_MISMATCH", path+"/priority", "priority %g must be an integer: rounded to %g", prio, math.Round(prio))
	}
	g.Priority = int(math.Round(prio))
	g.Replace = r.boolean("replace", false)
	g.Stop = r.boolean("stop", false)

	p := r.object(name)
	if p == nil && r.has(name) {
		r.used[name] = true // a sub-object of the wrong type: defaults replace it
	}
	if p == nil {
		if t == GravityLine || t == GravityShaped {
			fs.errorf("OMI_UNDEFINED_PROPERTY", path+"/"+name, "%s gravity needs a %q sub-object", name, name)
		} else {
			fs.warnf("OMI_UNDEFINED_PROPERTY", path, "no %q sub-object: the defaults are used (the schema requires the sub-object)", name)
		}
		g.Extra = r.rest()
		return &g
	}
	switch t {
	case GravityDirectional:
		g.Direction = p.vec3("direction", g.Direction)
	case GravityPoint:
		g.UnitDistance = p.number("unitDistance", 0)
	case GravityDisc, GravityTorus:
		g.Radius = p.number("radius", g.Radius)
		g.UnitDistance = p.number("unitDistance", 0)
	case GravityLine:
		g.UnitDistance = p.number("unitDistance", 0)
		pts, ok := p.numbers("points")
		if !ok && !p.has("points") {
			fs.errorf("OMI_UNDEFINED_PROPERTY", p.at("points"), "line gravity needs points")
		}
		if len(pts)%3 != 0 {
			fs.errorf("OMI_TYPE_MISMATCH", p.at("points"), "points has %d numbers, not a multiple of 3", len(pts))
		}
		for i := 0; i+2 < len(pts); i += 3 {
			g.Points = append(g.Points, [3]float64{pts[i], pts[i+1], pts[i+2]})
		}
		if ok && len(g.Points) < 2 {
			fs.errorf("OMI_UNDEFINED_PROPERTY", p.at("points"), "line gravity needs at least 2 points, has %d", len(g.Points))
		}
	case GravityShaped:
		g.UnitDistance = p.number("unitDistance", 0)
		if !p.has("shape") {
			fs.errorf("OMI_UNDEFINED_PROPERTY", p.at("shape"), "shaped gravity needs a shape")
		}
		g.Shape = p.index("shape", -1)
	}
	g.SubExtra = p.rest()
	g.Extra = r.rest()
	return &g
}

func (g *Gravity) encode() json.RawMessage {
	var w writer
	w.set("type", g.Type.String())
	w.set("gravity", g.Gravity)
	w.set("priority", g.Priority)
	w.set("replace", g.Replace)
	w.set("stop", g.Stop)
	var p writer
	switch g.Type {
	case GravityDirectional:
		p.set("direction", g.Direction)
	case GravityPoint:
		p.set("unitDistance", g.UnitDistance)
	case GravityDisc, GravityTorus:
		p.set("radius", g.Radius)
		p.set("unitDistance", g.UnitDistance)
	case GravityLine:
		flat := make([]float64, 0, 3*len(g.Points))
		for _, pt := range g.Points {
			flat = append(flat, pt[0], pt[1], pt[2])
		}
		p.set("points", flat)
		p.set("unitDistance", g.UnitDistance)
	case GravityShaped:
		p.set("shape", g.Shape)
		p.set("unitDistance", g.UnitDistance)
	}
	p.rest(g.SubExtra)
	w.raw(g.Type.String(), p.bytes())
	w.rest(g.Extra)
	return w.bytes()
}

func (g *Gravity) validate(path string, fs *findings, shapeCount int) {
	sub := path + "/" + g.Type.String()
	if g.UnitDistance < 0 {
		fs.errorf("OMI_VALUE_NOT_IN_RANGE", sub+"/unitDistance", "unitDistance %g must not be negative", g.UnitDistance)
	}
	switch g.Type {
	case GravityDirectional:
		if g.Direction == [3]float64{} {
			fs.errorf("OMI_VALUE_NOT_IN_RANGE", sub+"/direction", "direction must not be the zero vector")
		}
	case GravityDisc, GravityTorus:
		if g.Radius < 0 {
			fs.errorf("OMI_VALUE_NOT_IN_RANGE", sub+"/radius", "radius %g must not be negative", g.Radius)
		}
	case GravityShaped:
		if g.Shape >= shapeCount || g.Shape < -1 {
			fs.errorf("OMI_UNRESOLVED_REFERENCE", sub+"/shape", "shape %d does not exist (the file has %d shapes)", g.Shape, shapeCount)
		} else if g.Shape == -1 {
			fs.errorf("OMI_UNDEFINED_PROPERTY", sub+"/shape", "shaped gravity has no shape")
		}
	}
}
