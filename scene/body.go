package scene

import (
	"encoding/json"
	"math"
)

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
	// InertiaDiagonal in kg·m²; all zero means the engine computes it.
	InertiaDiagonal [3]float64
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

var combineModes = map[string]bool{"average": true, "minimum": true, "maximum": true, "multiply": true}

// legacyBodyTypes maps the pre-September-2023 body types to the current form.
var legacyBodyTypes = map[string]MotionType{
	"static": MotionStatic, "kinematic": MotionKinematic, "rigid": MotionDynamic,
	"dynamic": MotionDynamic, "character": MotionKinematic, "vehicle": MotionDynamic,
}

// decodeBody reads a node's OMI_physics_body in the current form. A legacy
// body (with a top-level "type") is reported through legacyType.
func decodeBody(raw json.RawMessage, path string, fs *findings) (b *Body, legacyType string) {
	r := newReader(raw, path, fs)
	if r == nil {
		return nil, ""
	}
	b = &Body{}
	if r.has("type") && !r.has("motion") && !r.has("collider") && !r.has("trigger") {
		return decodeLegacyBody(r, fs)
	}
	if m := r.object("motion"); m != nil {
		b.Motion = decodeMotion(m, fs)
	}
	if c := r.object("collider"); c != nil {
		b.Collider = &Collider{
			Shape:           c.index("shape", -1),
			PhysicsMaterial: c.index("physicsMaterial", -1),
			CollisionFilter: c.index("collisionFilter", -1),
		}
		b.Collider.Extra = c.rest()
	}
	if t := r.object("trigger"); t != nil {
		tr := &Trigger{Shape: t.index("shape", -1), CollisionFilter: t.index("collisionFilter", -1)}
		if nodes, ok := t.indices("nodes"); ok {
			tr.Nodes = nodes
		} else if t.has("nodes") {
			tr.Nodes = []int{}
		}
		if !t.has("shape") && !t.has("nodes") {
			tr.implicit = true
			fs.warnf(t.path, "trigger with neither shape nor nodes (the form before 2024): read as a compound of its descendant triggers and saved with explicit nodes")
		}
		if t.has("shape") && t.has("nodes") {
			fs.errorf(t.path, "trigger has both shape and nodes; only one may be set")
		}
		if tr.Nodes != nil && tr.CollisionFilter >= 0 {
			fs.warnf(t.at("collisionFilter"), "a compound trigger (nodes) must not carry a collisionFilter")
		}
		tr.Extra = t.rest()
		b.Trigger = tr
	}
	b.Extra = r.rest()
	return b, ""
}

func decodeMotion(m *reader, fs *findings) *Motion {
	mo := DefaultMotion(0)
	name := m.str("type", "")
	switch t, ok := ParseMotionType(name); {
	case ok:
		mo.Type = t
	case name == "":
		mo.Type = MotionDynamic
		fs.warnf(m.at("type"), "motion has no type (required): read as dynamic and saved with the type")
	default:
		if lt, ok := legacyBodyTypes[name]; ok {
			mo.Type = lt
			fs.infof(m.at("type"), "legacy motion type %q read as %q", name, lt)
		} else {
			mo.Type = MotionDynamic
			fs.errorf(m.at("type"), "unknown motion type %q: read as dynamic", name)
		}
	}
	mo.Mass = m.number("mass", mo.Mass)
	mo.CenterOfMass = m.vec3("centerOfMass", mo.CenterOfMass)
	mo.InertiaDiagonal = m.vec3("inertiaDiagonal", mo.InertiaDiagonal)
	mo.InertiaOrientation = m.vec4("inertiaOrientation", mo.InertiaOrientation)
	mo.LinearVelocity = m.vec3("linearVelocity", mo.LinearVelocity)
	mo.AngularVelocity = m.vec3("angularVelocity", mo.AngularVelocity)
	mo.GravityFactor = m.number("gravityFactor", mo.GravityFactor)
	mo.Extra = m.rest()
	return &mo
}

// decodeLegacyBody reads the node-level body of before September 2023:
// {"type": "static"|"kinematic"|"rigid"|"character"|"vehicle"|"trigger", ...}.
// Shapes were attached by node-level OMI_physics_shape; the caller wires them.
func decodeLegacyBody(r *reader, fs *findings) (*Body, string) {
	name := r.str("type", "")
	b := &Body{}
	if name == "trigger" {
		fs.infof(r.path, "legacy trigger body (before September 2023) read as a compound trigger")
		b.Extra = restWithout(r, "mass", "linearVelocity", "angularVelocity", "centerOfMass", "inertiaTensor")
		return b, name
	}
	t, ok := legacyBodyTypes[name]
	if !ok {
		fs.errorf(r.at("type"), "unknown legacy body type %q: read as dynamic", name)
		t = MotionDynamic
	} else {
		fs.infof(r.path, "legacy body type %q (before September 2023) read as motion type %q", name, t)
	}
	mo := decodeMotion(r, &findings{}) // "type" is a legacy name; already reported
	mo.Type = t
	if tensor, ok := r.numbers("inertiaTensor"); ok {
		if len(tensor) != 9 {
			fs.errorf(r.at("inertiaTensor"), "must have 9 numbers, has %d", len(tensor))
		} else {
			mo.InertiaDiagonal = [3]float64{tensor[0], tensor[4], tensor[8]}
			off := math.Abs(tensor[1]) + math.Abs(tensor[2]) + math.Abs(tensor[3]) + math.Abs(tensor[5]) + math.Abs(tensor[6]) + math.Abs(tensor[7])
			if off > 1e-12 {
				fs.warnf(r.at("inertiaTensor"), "off-diagonal inertia terms are dropped; only the diagonal is kept")
			}
		}
	}
	mo.Extra = nil
	b.Motion = mo
	b.Extra = restWithout(r, "inertiaTensor")
	return b, name
}

func restWithout(r *reader, keys ...string) Members {
	for _, k := range keys {
		r.used[k] = true
	}
	r.used["type"] = true
	return r.rest()
}

func (b *Body) encode() json.RawMessage {
	var w writer
	if m := b.Motion; m != nil {
		var mw writer
		mw.set("type", m.Type.String())
		mw.set("mass", m.Mass)
		mw.set("centerOfMass", m.CenterOfMass)
		mw.set("inertiaDiagonal", m.InertiaDiagonal)
		mw.set("inertiaOrientation", m.InertiaOrientation)
		mw.set("linearVelocity", m.LinearVelocity)
		mw.set("angularVelocity", m.AngularVelocity)
		mw.set("gravityFactor", m.GravityFactor)
		mw.rest(m.Extra)
		w.raw("motion", mw.bytes())
	}
	if c := b.Collider; c != nil {
		var cw writer
		cw.set("shape", c.Shape)
		cw.set("physicsMaterial", c.PhysicsMaterial)
		cw.set("collisionFilter", c.CollisionFilter)
		cw.rest(c.Extra)
		w.raw("collider", cw.bytes())
	}
	if t := b.Trigger; t != nil {
		var tw writer
		if t.Nodes != nil {
			tw.set("nodes", t.Nodes)
		} else {
			tw.set("shape", t.Shape)
			tw.set("collisionFilter", t.CollisionFilter)
		}
		tw.rest(t.Extra)
		w.raw("trigger", tw.bytes())
	}
	w.rest(b.Extra)
	return w.bytes()
}

func decodePhysicsMaterial(raw json.RawMessage, path string, fs *findings) PhysicsMaterial {
	m := PhysicsMaterial{StaticFriction: 0.6, DynamicFriction: 0.6, FrictionCombine: "average", RestitutionCombine: "average"}
	r := newReader(raw, path, fs)
	if r == nil {
		return m
	}
	m.StaticFriction = r.number("staticFriction", m.StaticFriction)
	m.DynamicFriction = r.number("dynamicFriction", m.DynamicFriction)
	m.Restitution = r.number("restitution", m.Restitution)
	m.FrictionCombine = r.str("frictionCombine", m.FrictionCombine)
	m.RestitutionCombine = r.str("restitutionCombine", m.RestitutionCombine)
	m.Extra = r.rest()
	return m
}

func (m PhysicsMaterial) encode() json.RawMessage {
	var w writer
	w.set("staticFriction", m.StaticFriction)
	w.set("dynamicFriction", m.DynamicFriction)
	w.set("restitution", m.Restitution)
	w.set("frictionCombine", m.FrictionCombine)
	w.set("restitutionCombine", m.RestitutionCombine)
	w.rest(m.Extra)
	return w.bytes()
}

func (m PhysicsMaterial) validate(path string, fs *findings) {
	for _, f := range []struct {
		key string
		v   float64
	}{{"staticFriction", m.StaticFriction}, {"dynamicFriction", m.DynamicFriction}, {"restitution", m.Restitution}} {
		if f.v < 0 {
			fs.errorf(path+"/"+f.key, "%s %g must not be negative", f.key, f.v)
		}
	}
	if !combineModes[m.FrictionCombine] {
		fs.errorf(path+"/frictionCombine", "unknown combine mode %q (average, minimum, maximum or multiply)", m.FrictionCombine)
	}
	if !combineModes[m.RestitutionCombine] {
		fs.errorf(path+"/restitutionCombine", "unknown combine mode %q (average, minimum, maximum or multiply)", m.RestitutionCombine)
	}
}

func decodeCollisionFilter(raw json.RawMessage, path string, fs *findings) CollisionFilter {
	var c CollisionFilter
	r := newReader(raw, path, fs)
	if r == nil {
		return c
	}
	c.CollisionSystems = r.strings("collisionSystems")
	c.CollideWithSystems = r.strings("collideWithSystems")
	c.NotCollideWithSystems = r.strings("notCollideWithSystems")
	c.Extra = r.rest()
	return c
}

func (c CollisionFilter) encode() json.RawMessage {
	var w writer
	w.set("collisionSystems", nonNil(c.CollisionSystems))
	// The two "with" lists are mutually exclusive: write only what is set.
	if c.CollideWithSystems != nil {
		w.set("collideWithSystems", c.CollideWithSystems)
	}
	if c.NotCollideWithSystems != nil {
		w.set("notCollideWithSystems", c.NotCollideWithSystems)
	}
	w.rest(c.Extra)
	return w.bytes()
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
