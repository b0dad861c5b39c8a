package scene

import (
	"encoding/json"
	"fmt"
	"math"
)

func init() {
	registerExtension(extensionCodec{Order: orderImplicitTriggers, Decode: resolveImplicitTriggers})
}

// resolveImplicitTriggers makes each trigger of the form before 2024 (no
// shape, no nodes) the compound of its node's descendant triggers. It runs
// once the shapes and bodies are read and wired, because the parts depend
// on the node's descendants.
func resolveImplicitTriggers(d *Document, _ *findings) {
	for i := range d.Nodes {
		b := d.Nodes[i].Body
		if b == nil || b.Trigger == nil || !b.Trigger.implicit {
			continue
		}
		b.Trigger.implicit = false
		if b.Trigger.Shape >= 0 {
			continue
		}
		b.Trigger.Nodes = d.descendantTriggers(i)
	}
}

// descendantTriggers lists the descendants of n that have a trigger shape,
// not looking inside nested bodies (nodes with their own motion).
func (d *Document) descendantTriggers(n int) []int {
	out := []int{}
	var walk func(int)
	walk = func(p int) {
		for _, c := range d.Children(p) {
			b := d.Nodes[c].Body
			if b != nil && b.Motion != nil {
				continue
			}
			if b != nil && b.Trigger != nil && b.Trigger.Shape >= 0 {
				out = append(out, c)
			}
			walk(c)
		}
	}
	walk(n)
	return out
}

// maxHullPoints is where Godot starts warning about convex hulls.
const maxHullPoints = 255

// validateBodiesIn checks the physics materials, collision filters and
// bodies under the paths and codes of dialect pp.
func (d *Document) validateBodiesIn(fs *findings, pp physicsPaths) {
	for i, m := range d.PhysicsMaterials {
		m.validate(fmt.Sprintf("%s/%d", pp.materials, i), fs, pp)
	}
	for i, c := range d.CollisionFilters {
		if c.CollideWithSystems != nil && c.NotCollideWithSystems != nil {
			fs.errorf(pp.code("MUTUALLY_EXCLUSIVE"), fmt.Sprintf("%s/%d", pp.filters, i), "collideWithSystems and notCollideWithSystems are mutually exclusive")
		}
	}
	for i, ne := range d.Nodes {
		if b := ne.Body; b != nil {
			d.validateBody(i, b, pp.body(i), fs, pp)
		}
	}
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
			fs.warnf("OMI_LEGACY_FORM", t.path, "trigger with neither shape nor nodes (the form before 2024): read as a compound of its descendant triggers and saved with explicit nodes")
		}
		if t.has("shape") && t.has("nodes") {
			fs.errorf("OMI_MUTUALLY_EXCLUSIVE", t.path, "trigger has both shape and nodes; only one may be set")
		}
		if tr.Nodes != nil && tr.CollisionFilter >= 0 {
			fs.warnf("OMI_COMPOUND_TRIGGER", t.at("collisionFilter"), "a compound trigger (nodes) must not carry a collisionFilter")
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
		fs.warnf("OMI_UNDEFINED_PROPERTY", m.at("type"), "motion has no type (required): read as dynamic and saved with the type")
	default:
		if lt, ok := legacyBodyTypes[name]; ok {
			mo.Type = lt
			fs.infof("OMI_LEGACY_FORM", m.at("type"), "legacy motion type %q read as %q", name, lt)
		} else {
			mo.Type = MotionDynamic
			fs.errorf("OMI_VALUE_NOT_IN_RANGE", m.at("type"), "unknown motion type %q: read as dynamic", name)
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
		fs.infof("OMI_LEGACY_FORM", r.path, "legacy trigger body (before September 2023) read as a compound trigger")
		b.Extra = restWithout(r, "mass", "linearVelocity", "angularVelocity", "centerOfMass", "inertiaTensor")
		return b, name
	}
	t, ok := legacyBodyTypes[name]
	if !ok {
		fs.errorf("OMI_LEGACY_FORM", r.at("type"), "unknown legacy body type %q: read as dynamic", name)
		t = MotionDynamic
	} else {
		fs.infof("OMI_LEGACY_FORM", r.path, "legacy body type %q (before September 2023) read as motion type %q", name, t)
	}
	mo := decodeMotion(r, &findings{}) // "type" is a legacy name; already reported
	mo.Type = t
	if tensor, ok := r.numbers("inertiaTensor"); ok {
		if len(tensor) != 9 {
			fs.errorf("OMI_TYPE_MISMATCH", r.at("inertiaTensor"), "must have 9 numbers, has %d", len(tensor))
		} else {
			mo.InertiaDiagonal = [3]float64{tensor[0], tensor[4], tensor[8]}
			off := math.Abs(tensor[1]) + math.Abs(tensor[2]) + math.Abs(tensor[3]) + math.Abs(tensor[5]) + math.Abs(tensor[6]) + math.Abs(tensor[7])
			if off > 1e-12 {
				fs.warnf("OMI_LEGACY_FORM", r.at("inertiaTensor"), "off-diagonal inertia terms are dropped; only the diagonal is kept")
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
		cw.ref("physicsMaterial", c.PhysicsMaterial)
		cw.ref("collisionFilter", c.CollisionFilter)
		cw.rest(c.Extra)
		w.raw("collider", cw.bytes())
	}
	if t := b.Trigger; t != nil {
		var tw writer
		switch {
		case len(t.Nodes) > 0:
			tw.set("nodes", t.Nodes)
		case t.Nodes != nil:
			// A compound of no parts (a legacy or implicit trigger with
			// no trigger below it): an empty array is an error
			// (EMPTY_ENTITY), so the implicit form {} is written, which
			// reads back as the same empty compound.
		default:
			tw.set("shape", t.Shape)
			tw.ref("collisionFilter", t.CollisionFilter)
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

func (m PhysicsMaterial) validate(path string, fs *findings, pp physicsPaths) {
	for _, f := range []struct {
		key string
		v   float64
	}{{"staticFriction", m.StaticFriction}, {"dynamicFriction", m.DynamicFriction}, {"restitution", m.Restitution}} {
		if f.v < 0 {
			fs.errorf(pp.code("VALUE_NOT_IN_RANGE"), path+"/"+f.key, "%s %g must not be negative", f.key, f.v)
		}
	}
	if !combineModes[m.FrictionCombine] {
		fs.errorf(pp.code("VALUE_NOT_IN_RANGE"), path+"/frictionCombine", "unknown combine mode %q (average, minimum, maximum or multiply)", m.FrictionCombine)
	}
	if !combineModes[m.RestitutionCombine] {
		fs.errorf(pp.code("VALUE_NOT_IN_RANGE"), path+"/restitutionCombine", "unknown combine mode %q (average, minimum, maximum or multiply)", m.RestitutionCombine)
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

func (d *Document) validateBody(n int, b *Body, path string, fs *findings, pp physicsPaths) {
	checkShape := func(p string, s int, what string) {
		if s < -1 || s >= len(d.Shapes) {
			fs.errorf(pp.code("UNRESOLVED_REFERENCE"), p, "%s shape %d does not exist (the file has %d shapes)", what, s, len(d.Shapes))
			return
		}
		if s < 0 {
			return
		}
		shape := d.Shapes[s]
		if sx, ok := d.nonUniformScale(n); ok {
			fs.warnf(pp.code("NON_UNIFORM_SCALE"), fmt.Sprintf("/nodes/%d", sx), "non-uniform scale on %s affects the %s shape on %s; physics engines may not scale it the same way (edit the shape instead)", d.nodeRef(sx), what, d.nodeRef(n))
		}
		if shape.Type == ShapeConvex && shape.Mesh >= 0 && shape.Mesh < len(d.GLTF.Meshes) {
			if pts := d.meshVertexCount(shape.Mesh); pts > maxHullPoints {
				fs.warnf(pp.code("HULL_TOO_MANY_POINTS"), p, "convex shape %d uses a mesh with %d vertices; many engines limit hulls to %d points", s, pts, maxHullPoints)
			}
		}
		if shape.Type == ShapeTrimesh && what == "collider" && d.bodyMotion(n) == MotionDynamic {
			fs.warnf(pp.code("TRIMESH_DYNAMIC"), p, "trimesh shape %d on a dynamic body: most engines only support trimeshes on static or kinematic bodies", s)
		}
	}
	d.validatePhysicsRange(n, b, path, fs, pp)
	if m := b.Motion; m != nil {
		if m.Mass < 0 {
			fs.errorf(pp.code("VALUE_NOT_IN_RANGE"), path+"/motion/mass", "mass %g must not be negative", m.Mass)
		} else if m.Mass == 0 && m.Type == MotionDynamic && pp.prefix == omiPaths.prefix {
			// KHR reads 0 as infinite (KHR_MASS_ZERO); OMI has no such
			// reading, and no engine moves a body of no mass.
			fs.warnf(pp.code("VALUE_NOT_IN_RANGE"), path+"/motion/mass", "a dynamic body of mass 0 cannot be simulated (engines need a mass above 0; Play refuses it)")
		}
		for i, v := range m.InertiaDiagonal {
			if v < 0 {
				fs.errorf(pp.code("VALUE_NOT_IN_RANGE"), path+"/motion/inertiaDiagonal", "inertiaDiagonal[%d] = %g must not be negative", i, v)
			}
		}
		q := m.InertiaOrientation
		if l := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3]); math.Abs(l-1) > 1e-3 {
			fs.errorf(pp.code("TYPE_MISMATCH"), path+"/motion/inertiaOrientation", "inertiaOrientation must be a unit quaternion (length %g)", l)
		}
	}
	if c := b.Collider; c != nil {
		checkShape(path+"/collider"+pp.geometry+"/shape", c.Shape, "collider")
		if c.PhysicsMaterial < -1 || c.PhysicsMaterial >= len(d.PhysicsMaterials) {
			fs.errorf(pp.code("UNRESOLVED_REFERENCE"), path+"/collider/physicsMaterial", "physics material %d does not exist (the file has %d)", c.PhysicsMaterial, len(d.PhysicsMaterials))
		}
		if c.CollisionFilter < -1 || c.CollisionFilter >= len(d.CollisionFilters) {
			fs.errorf(pp.code("UNRESOLVED_REFERENCE"), path+"/collider/collisionFilter", "collision filter %d does not exist (the file has %d)", c.CollisionFilter, len(d.CollisionFilters))
		}
	}
	if t := b.Trigger; t != nil {
		if t.Nodes == nil {
			checkShape(path+"/trigger"+pp.geometry+"/shape", t.Shape, "trigger")
			if t.Shape < 0 {
				fs.errorf(pp.code("UNDEFINED_PROPERTY"), path+"/trigger", "trigger has neither a shape nor nodes")
			}
		}
		if t.CollisionFilter < -1 || t.CollisionFilter >= len(d.CollisionFilters) {
			fs.errorf(pp.code("UNRESOLVED_REFERENCE"), path+"/trigger/collisionFilter", "collision filter %d does not exist (the file has %d)", t.CollisionFilter, len(d.CollisionFilters))
		}
		for k, c := range t.Nodes {
			p := fmt.Sprintf("%s/trigger/nodes/%d", path, k)
			switch {
			case c < 0 || c >= len(d.Nodes):
				fs.errorf(pp.code("UNRESOLVED_REFERENCE"), p, "node %d does not exist (the file has %d nodes)", c, len(d.Nodes))
			case !d.isDescendant(c, n):
				fs.errorf(pp.code("COMPOUND_TRIGGER"), p, "%s is not a descendant of the compound trigger %s", d.nodeRef(c), d.nodeRef(n))
			case d.Nodes[c].Body == nil || d.Nodes[c].Body.Trigger == nil:
				fs.errorf(pp.code("COMPOUND_TRIGGER"), p, "%s has no trigger of its own", d.nodeRef(c))
			}
		}
	}
}
