package khr

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"physview/scene"
	"physview/scene/gltf21"
	"physview/scene/internal/jsonobj"
)

// The findings of a KHR physics document (KHR_implicit_shapes,
// KHR_physics_rigid_bodies, and glTF 2.1 core shapes) as the only other
// physics validator gives them: the KHR fork of the Khronos glTF-Validator
// (eoineoineoin/glTF-Validator, branch khr_rigid_bodies). Schema-level
// faults carry the core codes and severities (UNRESOLVED_REFERENCE,
// UNDEFINED_PROPERTY, VALUE_NOT_IN_RANGE, VALUE_NOT_IN_LIST as a warning,
// EMPTY_ENTITY, ONE_OF_MISMATCH, ARRAY_LENGTH_NOT_IN_LIST,
// DUPLICATE_ELEMENTS, UNEXPECTED_PROPERTY, UNUSED_OBJECT, ...), semantic
// ones the fork's own codes (KHR_RIGID_BODIES_*, KHR_IMPLICIT_SHAPES_*),
// each pointing where the fork points; physview's own KHR_ codes remain
// only for rules the fork does not have. khrSchema adds what the model's
// checks do not see (it reads the blocks' JSON); alignKHRFindings renames
// the model checks' findings and drops those the fork words otherwise, so
// each fault is reported once.

// Codes of the fork.
const (
	codeKHRJointInvalidRange   = "KHR_RIGID_BODIES_JOINT_INVALID_RANGE"
	codeKHRFilterInvalidSet    = "KHR_RIGID_BODIES_COLLISION_FILTER_INVALID_FILTER_SET"
	codeKHRTriggerNodesInvalid = "KHR_RIGID_BODIES_TRIGGER_NODES_INVALID"
	codeKHRDegenerateShape     = "KHR_IMPLICIT_SHAPES_DEGENERATE_SHAPE"
)

// isKHRPath reports whether a finding's pointer lies in a KHR physics
// block or a 2.1 core shape.
func isKHRPath(p string) bool {
	return strings.Contains(p, "/extensions/"+scene.ExtKHRBodies) || strings.Contains(p, "/extensions/"+scene.ExtKHRShapes) ||
		p == gltf21.ShapesBlock || strings.HasPrefix(p, gltf21.ShapesBlock+"/")
}

var (
	reArrayLen  = regexp.MustCompile(`^must have (\d+) numbers, has (\d+)`)
	reInertiaAt = regexp.MustCompile(`^inertiaDiagonal\[(\d)\] = `)
)

// alignKHRFindings rewrites the findings of a KHR document as the fork
// gives them and drops repeats (same code, path and severity).
func alignKHRFindings(d *scene.Document, all []scene.Finding) []scene.Finding {
	if !d.PhysicsDialect().KHRBodies() {
		return all
	}
	// Twice: the second pass drops what the first one's renamed findings
	// (an undefined joint, an array of the wrong length) cover.
	return alignKHRPass(d, alignKHRPass(d, all))
}

func alignKHRPass(d *scene.Document, all []scene.Finding) []scene.Finding {
	// Pointers where the schema pass found a fault that the model's
	// checks word otherwise.
	schemaAt := map[string]bool{}
	for _, f := range all {
		switch f.Code {
		case "ARRAY_LENGTH_NOT_IN_LIST", "ONE_OF_MISMATCH", "VALUE_NOT_IN_LIST", "UNDEFINED_PROPERTY", codeKHRTriggerNodesInvalid, "UNSATISFIED_DEPENDENCY", "UNRESOLVED_REFERENCE":
			schemaAt[f.Path] = true
		}
	}
	out := all[:0:0]
	seen := map[string]bool{}
	// Whether geometry.shape has a list to name, looked up once (it reads
	// the file's JSON).
	noList, known := false, false
	noShapeList := func() bool {
		if !known {
			noList, known = noShapeList(d), true
		}
		return noList
	}
	for _, f := range all {
		if isKHRPath(f.Path) {
			var keep bool
			if f, keep = alignKHRFinding(d, f, schemaAt, noShapeList); !keep {
				continue
			}
			key := f.Code + " " + f.Path + " " + f.Severity.String()
			if seen[key] {
				continue
			}
			seen[key] = true
		} else if f.Code == "UNUSED_OBJECT" && shapeUsesMesh(d, f.Path) {
			continue // a glTF 2.1 mesh shape or a KHR geometry.mesh uses it
		}
		out = append(out, f)
	}
	return out
}

// alignKHRFinding renames one finding; keep false drops it.
func alignKHRFinding(d *scene.Document, f scene.Finding, schemaAt map[string]bool, noShapeList func() bool) (scene.Finding, bool) {
	parent := f.Path
	if i := strings.LastIndex(parent, "/"); i >= 0 {
		parent = parent[:i]
	}
	switch f.Code {
	case "KHR_TYPE_MISMATCH":
		if m := reArrayLen.FindStringSubmatch(f.Message); m != nil {
			f.Code, f.Message = "ARRAY_LENGTH_NOT_IN_LIST", fmt.Sprintf("invalid array length %s; valid lengths are: (%s)", m[2], m[1])
		} else if strings.Contains(f.Message, "unit quaternion") {
			f.Code = "ROTATION_NON_UNIT"
		} else {
			f.Code = "TYPE_MISMATCH"
		}
	case "KHR_VALUE_NOT_IN_RANGE":
		switch {
		case schemaAt[f.Path]:
			return f, false // the schema pass said it (VALUE_NOT_IN_LIST)
		case strings.HasSuffix(f.Path, "/drives/"+lastPart(f.Path)) && strings.Contains(f.Message, "must not be negative"):
			return f, false // said per member by the schema pass
		case strings.HasSuffix(f.Path, "/motion/mass") && f.Severity == scene.Warning:
			return f, true // physview's own: a dynamic body of mass 0
		}
		if m := reInertiaAt.FindStringSubmatch(f.Message); m != nil {
			f.Path += "/" + m[1]
		}
		f.Code = "VALUE_NOT_IN_RANGE"
	case "KHR_UNRESOLVED_REFERENCE":
		switch {
		case strings.HasSuffix(f.Path, "/geometry/shape") && noShapeList():
			f.Code, f.Path = "UNSATISFIED_DEPENDENCY", parent
			f.Message = "dependency failed: " + shapeListName(d) + " must be defined"
		case strings.HasSuffix(f.Path, "/joint/joint") && strings.HasPrefix(f.Message, "joint settings -1 "):
			f.Code, f.Path, f.Message = "UNDEFINED_PROPERTY", parent, `property "joint" must be defined`
		case strings.HasSuffix(f.Path, "/joint/connectedNode") && strings.HasPrefix(f.Message, "connected node -1 "):
			return f, false // connectedNode is optional in the fork's schema
		default:
			f.Code = "UNRESOLVED_REFERENCE"
		}
	case "KHR_UNDEFINED_PROPERTY", "UNDEFINED_PROPERTY":
		if strings.HasSuffix(f.Path, "/type") && strings.HasPrefix(f.Message, "shape type is required") {
			// The fork points at the shape that lacks it.
			f.Path, f.Message = parent, `property "type" must be defined`
		}
		f.Code = "UNDEFINED_PROPERTY"
	case "OMI_UNDEFINED_PROPERTY":
		if strings.Contains(f.Message, "sub-object") {
			return f, false // the parameters object is optional in KHR and 2.1
		}
		if strings.HasSuffix(f.Path, "/type") {
			f.Path, f.Message = parent, `property "type" must be defined`
		}
		f.Code = "UNDEFINED_PROPERTY"
	case "OMI_VALUE_NOT_IN_RANGE":
		if strings.HasSuffix(f.Path, "/type") {
			f.Code, f.Severity = "VALUE_NOT_IN_LIST", scene.Warning
		} else {
			f.Code = "VALUE_NOT_IN_RANGE"
		}
	case "KHR_MUTUALLY_EXCLUSIVE":
		if strings.Contains(f.Path, "/collisionFilters/") {
			f.Code = codeKHRFilterInvalidSet
		}
	case "KHR_JOINT_LIMIT_NO_AXES":
		return f, false // ONE_OF_MISMATCH, from the schema pass
	case "KHR_JOINT_LIMIT_MIN_MAX":
		f.Code = codeKHRJointInvalidRange
	case "KHR_COMPOUND_TRIGGER":
		if schemaAt[f.Path] {
			return f, false // the member is a compound: the fork's rule
		}
		if strings.Contains(f.Message, "has no trigger of its own") {
			f.Code = codeKHRTriggerNodesInvalid
		}
	case "KHR_JOINT_NO_DYNAMIC_BODY", "KHR_JOINT_CONNECTED_NOT_BODY":
		joint := f.Path
		if f.Code == "KHR_JOINT_CONNECTED_NOT_BODY" {
			joint = parent
		}
		if schemaAt[joint] || schemaAt[joint+"/joint"] {
			return f, false // the joint's settings are undefined or missing
		}
	case "KHR_INERTIA_ZERO":
		if schemaAt[f.Path] {
			return f, false // an array of the wrong length, read as none
		}
	case "KHR_UNKNOWN_PROPERTY":
		if strings.HasSuffix(f.Path, "/geometry") && strings.HasPrefix(f.Message, "geometry keys") {
			return f, false // UNEXPECTED_PROPERTY per key, from the schema pass
		}
	case "KHR_DEGENERATE_SHAPE":
		if !strings.Contains(f.Message, "sum to almost nothing") {
			return f, false // a zero size: the fork's rule (khrShapeSchema)
		}
		// physview's own addition to the fork's rule: sizes that are
		// not 0 but add up to less than a float's resolution step.
		f.Code, f.Severity = codeKHRDegenerateShape, scene.Info
	case "KHR_COLLISION_SYSTEM_DUPLICATE", "KHR_TAPERED_SHAPE":
		return f, false // DUPLICATE_ELEMENTS and the fork's shape rules (khrShapeRules)
	}
	if f.Code == "TYPE_MISMATCH" && schemaAt[f.Path] {
		return f, false
	}
	return f, true
}

func lastPart(p string) string {
	if i := strings.LastIndex(p, "/"); i >= 0 {
		return p[i+1:]
	}
	return p
}

// noShapeList reports whether the document has no list for geometry.shape
// to name: no KHR_implicit_shapes (KHR) or no core shapes (2.1).
func noShapeList(d *scene.Document) bool {
	if d.PhysicsDialect() == scene.DialectGLTF21 {
		_, ok := gltf21.ShapesRaw(d)
		return !ok
	}
	_, ok := scene.RawExtension(d.GLTF.Extensions, scene.ExtKHRShapes)
	return !ok
}

func shapeListName(d *scene.Document) string {
	if d.PhysicsDialect() == scene.DialectGLTF21 {
		return "'/shapes'"
	}
	return "'/extensions/" + scene.ExtKHRShapes + "'"
}

// khrObject is a JSON object of a KHR block with its pointer.
type khrObject struct {
	obj  *jsonobj.Object
	path string
}

func parseKHR(raw json.RawMessage, path string) *khrObject {
	o, err := jsonobj.Parse(raw)
	if err != nil {
		return nil
	}
	return &khrObject{o, path}
}

func (o *khrObject) child(key string) *khrObject {
	if o == nil {
		return nil
	}
	v, ok := o.obj.Get(key)
	if !ok {
		return nil
	}
	return parseKHR(v, o.path+"/"+key)
}

func (o *khrObject) list(key string) []json.RawMessage {
	if o == nil {
		return nil
	}
	v, ok := o.obj.Get(key)
	if !ok {
		return nil
	}
	var l []json.RawMessage
	_ = json.Unmarshal(v, &l)
	return l
}

// khrProperties are the properties of each KHR object kind, besides
// name, extensions and extras.
var khrProperties = map[string][]string{
	"bodiesRoot": {"physicsMaterials", "collisionFilters", "physicsJoints"},
	"shapesRoot": {"shapes"},
	"node":       {"motion", "collider", "trigger", "joint"},
	"motion":     {"isKinematic", "mass", "centerOfMass", "inertiaDiagonal", "inertiaOrientation", "linearVelocity", "angularVelocity", "gravityFactor"},
	"collider":   {"geometry", "physicsMaterial", "collisionFilter"},
	"trigger":    {"geometry", "nodes", "collisionFilter"},
	"joint":      {"connectedNode", "joint", "enableCollision"},
	"geometry":   {"shape", "mesh", "node", "convexHull"},
	"material":   {"staticFriction", "dynamicFriction", "restitution", "frictionCombine", "restitutionCombine"},
	"filter":     {"collisionSystems", "collideWithSystems", "notCollideWithSystems"},
	"jointDef":   {"limits", "drives"},
	"limit":      {"linearAxes", "angularAxes", "min", "max", "stiffness", "damping"},
	"drive":      {"type", "mode", "axis", "maxForce", "positionTarget", "velocityTarget", "stiffness", "damping"},
	"box":        {"size"},
	"sphere":     {"radius"},
	"capsule":    {"height", "radiusTop", "radiusBottom"},
	"cylinder":   {"height", "radiusTop", "radiusBottom"},
	"plane":      {"sizeX", "sizeZ", "doubleSided"},
	"mesh":       {"mesh"},
	"convexMesh": {"mesh"},
}

func (o *khrObject) unexpected(kind string, fs *scene.Findings, more ...string) {
	if o == nil {
		return
	}
	allowed := append(slices.Clone(khrProperties[kind]), more...)
	for _, k := range o.obj.Keys() {
		if k != "name" && k != "extensions" && k != "extras" && !slices.Contains(allowed, k) {
			fs.Warnf("UNEXPECTED_PROPERTY", o.path+"/"+scene.PointerEscape(k), "unexpected property %q", k)
		}
	}
}

func (o *khrObject) emptyArray(key string, fs *scene.Findings) {
	if o == nil {
		return
	}
	var l []json.RawMessage
	if v, ok := o.obj.Get(key); ok && json.Unmarshal(v, &l) == nil && len(l) == 0 {
		fs.Errorf("EMPTY_ENTITY", o.path+"/"+key, "%s is an empty array; leave it out", key)
	}
}

func (o *khrObject) number(key string) (float64, bool) {
	if o == nil {
		return 0, false
	}
	v, ok := o.obj.Get(key)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(string(v)), 64)
	return f, err == nil
}

func (o *khrObject) str(key string) (string, bool) {
	if o == nil {
		return "", false
	}
	v, ok := o.obj.Get(key)
	if !ok {
		return "", false
	}
	var s string
	return s, json.Unmarshal(v, &s) == nil
}

// khrSchema adds the schema-level findings of the KHR blocks as loaded
// that the model's checks do not make (see alignKHRFindings); decoding
// calls it once, as it reads the file's JSON.
func khrSchema(d *scene.Document, fs *scene.Findings) {
	if !d.PhysicsDialect().KHRBodies() || d.GLTF == nil {
		return
	}
	if raw, ok := scene.RawExtension(d.GLTF.Extensions, scene.ExtKHRShapes); ok && d.PhysicsDialect() == scene.DialectKHR {
		root := parseKHR(raw, "/extensions/"+scene.ExtKHRShapes)
		root.unexpected("shapesRoot", fs)
		root.emptyArray("shapes", fs)
		for i, s := range root.list("shapes") {
			khrShapeSchema(parseKHR(s, fmt.Sprintf("%s/shapes/%d", root.path, i)), false, fs)
		}
	}
	if d.PhysicsDialect() == scene.DialectGLTF21 {
		if raw, ok := gltf21.ShapesRaw(d); ok {
			var l []json.RawMessage
			_ = json.Unmarshal(raw, &l)
			for i, s := range l {
				khrShapeSchema(parseKHR(s, fmt.Sprintf("%s/%d", gltf21.ShapesBlock, i)), true, fs)
			}
		}
	}
	if raw, ok := scene.RawExtension(d.GLTF.Extensions, scene.ExtKHRBodies); ok {
		root := parseKHR(raw, "/extensions/"+scene.ExtKHRBodies)
		root.unexpected("bodiesRoot", fs)
		for _, k := range []string{"physicsMaterials", "collisionFilters", "physicsJoints"} {
			root.emptyArray(k, fs)
		}
		for i, m := range root.list("physicsMaterials") {
			o := parseKHR(m, fmt.Sprintf("%s/physicsMaterials/%d", root.path, i))
			o.unexpected("material", fs)
			for _, k := range []string{"frictionCombine", "restitutionCombine"} {
				if s, ok := o.str(k); ok && !scene.CombineMode(s) {
					fs.Warnf("VALUE_NOT_IN_LIST", o.path+"/"+k, "invalid value %q; valid values are (average, minimum, maximum, multiply)", s)
				}
			}
		}
		for i, c := range root.list("collisionFilters") {
			o := parseKHR(c, fmt.Sprintf("%s/collisionFilters/%d", root.path, i))
			o.unexpected("filter", fs)
			for _, k := range []string{"collisionSystems", "collideWithSystems", "notCollideWithSystems"} {
				duplicates(o, k, fs)
			}
		}
		for i, j := range root.list("physicsJoints") {
			o := parseKHR(j, fmt.Sprintf("%s/physicsJoints/%d", root.path, i))
			o.unexpected("jointDef", fs)
			o.emptyArray("limits", fs)
			o.emptyArray("drives", fs)
			for k, l := range o.list("limits") {
				lo := parseKHR(l, fmt.Sprintf("%s/limits/%d", o.path, k))
				if lo == nil {
					continue
				}
				lo.unexpected("limit", fs)
				if lo.obj.Has("linearAxes") == lo.obj.Has("angularAxes") {
					fs.Errorf("ONE_OF_MISMATCH", lo.path, "exactly one of linearAxes and angularAxes must be defined")
				}
				duplicates(lo, "linearAxes", fs)
				duplicates(lo, "angularAxes", fs)
			}
			for k, dr := range o.list("drives") {
				do := parseKHR(dr, fmt.Sprintf("%s/drives/%d", o.path, k))
				do.unexpected("drive", fs)
				for key, valid := range map[string][]string{"type": {"linear", "angular"}, "mode": {"force", "acceleration"}} {
					if s, ok := do.str(key); ok && !slices.Contains(valid, s) {
						fs.Warnf("VALUE_NOT_IN_LIST", do.path+"/"+key, "invalid value %q; valid values are (%s)", s, strings.Join(valid, ", "))
					}
				}
				for _, key := range []string{"maxForce", "stiffness", "damping"} {
					if v, ok := do.number(key); ok && v < 0 {
						fs.Errorf("VALUE_NOT_IN_RANGE", do.path+"/"+key, "value %g is out of range (not below 0)", v)
					}
				}
			}
		}
	}
	for i, n := range d.GLTF.Nodes {
		raw, ok := scene.RawExtension(n.Extensions, scene.ExtKHRBodies)
		if !ok {
			continue
		}
		o := parseKHR(raw, fmt.Sprintf("/nodes/%d/extensions/%s", i, scene.ExtKHRBodies))
		o.unexpected("node", fs)
		o.child("motion").unexpected("motion", fs)
		for _, part := range []string{"collider", "trigger"} {
			p := o.child(part)
			p.unexpected(part, fs)
			p.child("geometry").unexpected("geometry", fs)
		}
		if t := o.child("trigger"); t != nil {
			t.emptyArray("nodes", fs)
			duplicates(t, "nodes", fs)
		}
		if j := o.child("joint"); j != nil {
			j.unexpected("joint", fs)
		}
	}
}

// khrModelRules adds the fork's rules on the model, run by every
// validation: compound triggers of compound triggers, and what nothing
// uses.
func khrModelRules(d *scene.Document, fs *scene.Findings) {
	if !d.PhysicsDialect().KHRBodies() {
		return
	}
	for i, ne := range d.Nodes {
		b := ne.Body
		if b == nil || b.Trigger == nil {
			continue
		}
		for k, m := range b.Trigger.Nodes {
			if m >= 0 && m < len(d.Nodes) && d.Nodes[m].Body != nil && d.Nodes[m].Body.Trigger != nil && d.Nodes[m].Body.Trigger.Nodes != nil {
				fs.Errorf(codeKHRTriggerNodesInvalid, fmt.Sprintf("/nodes/%d/extensions/%s/trigger/nodes/%d", i, scene.ExtKHRBodies, k), "trigger nodes must be simple triggers: node %d is a compound trigger itself", m)
			}
		}
	}
	khrUnused(d, fs)
}

// khrShapeSchema checks one KHR or 2.1 shape by the fork's rules: a
// negative size is out of range, a zero one degenerate (a note), a capsule
// or cylinder with both radii 0 or height 0 degenerate.
func khrShapeSchema(o *khrObject, core bool, fs *scene.Findings) {
	if o == nil {
		return
	}
	typ, _ := o.str("type")
	known := []string{"box", "sphere", "capsule", "cylinder", "plane"}
	if core {
		known = append(known, "mesh", "convexMesh")
	}
	more := known
	if typ != "" && !slices.Contains(known, typ) {
		more = append(slices.Clone(known), typ) // an unknown type's own object
	}
	o.unexpected("", fs, append([]string{"type"}, more...)...)
	p := o.child(typ)
	if p == nil || !slices.Contains(known, typ) {
		return
	}
	planeProps := []string(nil)
	if core && typ == "plane" {
		planeProps = []string{"sizeX", "sizeZ"}
	}
	if planeProps != nil {
		p.unexpected("", fs, planeProps...)
	} else {
		p.unexpected(typ, fs)
	}
	degenerate := func(at string) {
		fs.Infof(codeKHRDegenerateShape, at, "shape geometry is degenerate")
	}
	negative := func(key string, v float64) {
		fs.Errorf("VALUE_NOT_IN_RANGE", p.path+"/"+key, "value %g is out of range", v)
	}
	switch typ {
	case "box":
		var size []float64
		if v, ok := p.obj.Get("size"); ok && json.Unmarshal(v, &size) == nil {
			for k, s := range size {
				switch {
				case s < 0:
					negative("size/"+strconv.Itoa(k), s)
				case s == 0:
					degenerate(fmt.Sprintf("%s/size/%d", p.path, k))
				}
			}
		}
	case "sphere":
		if r, ok := p.number("radius"); ok && r < 0 {
			negative("radius", r)
		} else if ok && r == 0 {
			degenerate(p.path + "/radius")
		}
	case "capsule", "cylinder":
		h, hasH := p.number("height")
		top, hasTop := p.number("radiusTop")
		bottom, hasBottom := p.number("radiusBottom")
		bad := false
		for _, v := range []struct {
			key string
			v   float64
			has bool
		}{{"height", h, hasH}, {"radiusTop", top, hasTop}, {"radiusBottom", bottom, hasBottom}} {
			if v.has && v.v < 0 {
				negative(v.key, v.v)
				bad = true
			}
		}
		if bad {
			return
		}
		if hasTop && hasBottom && top == 0 && bottom == 0 {
			degenerate(p.path)
		}
		if hasH && h == 0 {
			degenerate(p.path + "/height")
		}
	}
}

// duplicates reports each repeated element of the array o[key].
func duplicates(o *khrObject, key string, fs *scene.Findings) {
	l := o.list(key)
	seen := map[string]bool{}
	for i, e := range l {
		k := strings.TrimSpace(string(e))
		if seen[k] {
			fs.Errorf("DUPLICATE_ELEMENTS", fmt.Sprintf("%s/%s/%d", o.path, key, i), "duplicate element %s", k)
		}
		seen[k] = true
	}
}

// khrUnused notes the shapes, physics materials, collision filters and
// joint settings nothing refers to (UNUSED_OBJECT, as the fork does).
func khrUnused(d *scene.Document, fs *scene.Findings) {
	usedShape := map[int]bool{}
	usedMat, usedFilter, usedJoint := map[int]bool{}, map[int]bool{}, map[int]bool{}
	for _, ne := range d.Nodes {
		if b := ne.Body; b != nil {
			if c := b.Collider; c != nil {
				usedShape[c.Shape], usedMat[c.PhysicsMaterial], usedFilter[c.CollisionFilter] = true, true, true
			}
			if t := b.Trigger; t != nil {
				usedShape[t.Shape], usedFilter[t.CollisionFilter] = true, true
			}
		}
		if j := ne.Joint; j != nil {
			usedJoint[j.Joint] = true
		}
		if bv := ne.BoundingVolume; bv != nil {
			usedShape[bv.Shape] = true
		}
	}
	shapes := "/extensions/" + scene.ExtKHRShapes + "/shapes"
	if d.PhysicsDialect() == scene.DialectGLTF21 {
		shapes = gltf21.ShapesBlock
	}
	for i := range d.Shapes {
		if khrOf(d) != nil && khrOf(d).khrIndexOf(i) < 0 {
			continue
		}
		if !usedShape[i] {
			fs.Infof("UNUSED_OBJECT", fmt.Sprintf("%s/%d", shapes, i), "this object may be unused")
		}
	}
	for _, l := range []struct {
		name string
		n    int
		used map[int]bool
	}{{"physicsMaterials", len(d.PhysicsMaterials), usedMat}, {"collisionFilters", len(d.CollisionFilters), usedFilter}, {"physicsJoints", len(d.Joints), usedJoint}} {
		for i := 0; i < l.n; i++ {
			if !l.used[i] {
				fs.Infof("UNUSED_OBJECT", fmt.Sprintf("/extensions/%s/%s/%d", scene.ExtKHRBodies, l.name, i), "this object may be unused")
			}
		}
	}
}

// khrJoint is joint settings as KHR_physics_rigid_bodies writes them: an
// empty limits or drives array is left out (the fork's EMPTY_ENTITY).
type khrJoint scene.JointSettings

// encodeJoints writes joint settings as KHR does.
func encodeJoints(js []scene.JointSettings) []json.RawMessage {
	out := make([]json.RawMessage, len(js))
	for i, j := range js {
		out[i] = khrJoint(j).encode()
	}
	return out
}

func (j khrJoint) encode() json.RawMessage {
	raw := scene.EncodeJointSettings(scene.JointSettings(j))
	obj, err := jsonobj.Parse(raw)
	if err != nil {
		return raw
	}
	for _, k := range []string{"limits", "drives"} {
		var l []json.RawMessage
		if v, ok := obj.Get(k); ok && json.Unmarshal(v, &l) == nil && len(l) == 0 {
			obj.Delete(k)
		}
	}
	b, err := obj.MarshalJSON()
	if err != nil {
		return raw
	}
	return b
}

// shapeUsesMesh reports whether p is "/meshes/N" and a shape uses mesh N.
func shapeUsesMesh(d *scene.Document, p string) bool {
	rest, ok := strings.CutPrefix(p, "/meshes/")
	if !ok {
		return false
	}
	m, err := strconv.Atoi(rest)
	if err != nil {
		return false
	}
	for _, s := range d.Shapes {
		if s.Type.UsesMesh() && s.Mesh == m {
			return true
		}
	}
	return false
}
