package scene

import (
	"encoding/json"

	"github.com/qmuntal/gltf"

	"physview/scene/internal/jsonobj"
)

// The exported surface a dialect package (scene/omi) uses to read its
// blocks into the model and write them back: the finding sink, the lenient
// member Reader, the key-ordered Writer, and the model's JSON forms of
// shapes, bodies and joints, which the OMI and KHR blocks share.

// Errorf adds an error with its rule code at JSON pointer path.
func (fs *Findings) Errorf(code, path, format string, args ...any) {
	fs.addc(Error, code, path, format, args...)
}

// Warnf adds a warning with its rule code at JSON pointer path.
func (fs *Findings) Warnf(code, path, format string, args ...any) {
	fs.addc(Warning, code, path, format, args...)
}

// Infof adds a note with its rule code at JSON pointer path.
func (fs *Findings) Infof(code, path, format string, args ...any) {
	fs.addc(Info, code, path, format, args...)
}

// RawExtension returns the raw JSON of extension name in exts.
func RawExtension(exts gltf.Extensions, name string) (json.RawMessage, bool) {
	return rawExt(exts, name)
}

// NewReader parses raw, the object at JSON pointer path, for reading. It
// returns nil, with an error finding in fs, when raw is not an object.
func NewReader(raw json.RawMessage, path string, fs *Findings) *Reader {
	return newReader(raw, path, fs)
}

// At returns the JSON pointer of member key.
func (r *Reader) At(key string) string { return r.at(key) }

// Has reports whether the object has member key.
func (r *Reader) Has(key string) bool { return r.has(key) }

// Use marks key as read, so Rest leaves it out.
func (r *Reader) Use(key string) { r.used[key] = true }

// Number reads a finite number; absent gives def.
func (r *Reader) Number(key string, def float64) float64 { return r.number(key, def) }

// Index reads a glTF index; absent or malformed gives def.
func (r *Reader) Index(key string, def int) int { return r.index(key, def) }

// Bool reads true or false; absent gives def.
func (r *Reader) Bool(key string, def bool) bool { return r.boolean(key, def) }

// String reads a string; absent gives def.
func (r *Reader) String(key, def string) string { return r.str(key, def) }

// Numbers reads an array of finite numbers; ok is false when it is absent
// or malformed.
func (r *Reader) Numbers(key string) (v []float64, ok bool) { return r.numbers(key) }

// Vec3 reads an array of 3 numbers; absent gives def.
func (r *Reader) Vec3(key string, def [3]float64) [3]float64 { return r.vec3(key, def) }

// Object returns a reader of the nested object key, or nil when it is
// absent or not an object.
func (r *Reader) Object(key string) *Reader { return r.object(key) }

// Array returns the raw elements of array member key.
func (r *Reader) Array(key string) []json.RawMessage { return r.array(key) }

// Rest returns the members not read so far, in file order: what saving
// writes back unchanged.
func (r *Reader) Rest() Members { return r.rest() }

// Set writes key with the JSON encoding of v.
func (w *Writer) Set(key string, v any) { w.set(key, v) }

// Raw writes key with v as it is.
func (w *Writer) Raw(key string, v json.RawMessage) { w.raw(key, v) }

// Rest appends the members m that the writer did not write itself.
func (w *Writer) Rest(m Members) { w.rest(m) }

// Bytes returns the object written.
func (w *Writer) Bytes() json.RawMessage { return w.bytes() }

// WriteList writes key as the array of the model values' JSON forms
// (shapes, physics materials, collision filters, joint settings).
func WriteList[T encoder](w *Writer, key string, xs []T) { setList(w, key, xs) }

// RootExtra returns the members of the root extension block ext that the
// model does not interpret.
func (d *Document) RootExtra(ext string) Members { return d.rootExtra[ext] }

// SetRootExtra keeps m, the uninterpreted members of the root extension
// block ext, for saving.
func (d *Document) SetRootExtra(ext string, m Members) { d.setRootExtra(ext, m) }

// DecodeShape reads one shape in the model's JSON form (the OMI form, which
// KHR_implicit_shapes shares) at JSON pointer path; flat reads the
// parameters of the legacy flat forms beside "type".
func DecodeShape(raw json.RawMessage, path string, fs *Findings, flat bool) Shape {
	return decodeShape(raw, path, fs, flat)
}

// DecodeBody reads a node's body in the model's JSON form. A body of the
// form before September 2023 (a top-level "type") is reported through
// legacyType, and the caller wires its shapes.
func DecodeBody(raw json.RawMessage, path string, fs *Findings) (b *Body, legacyType string) {
	return decodeBody(raw, path, fs)
}

// EncodeBody writes a body in the model's JSON form.
func EncodeBody(b *Body) json.RawMessage { return b.encode() }

// DecodePhysicsMaterial reads a physics material at JSON pointer path.
func DecodePhysicsMaterial(raw json.RawMessage, path string, fs *Findings) PhysicsMaterial {
	return decodePhysicsMaterial(raw, path, fs)
}

// DecodeCollisionFilter reads a collision filter at JSON pointer path.
func DecodeCollisionFilter(raw json.RawMessage, path string, fs *Findings) CollisionFilter {
	return decodeCollisionFilter(raw, path, fs)
}

// DecodeJointSettings reads joint settings (limits and drives) at JSON
// pointer path.
func DecodeJointSettings(raw json.RawMessage, path string, fs *Findings) JointSettings {
	return decodeJointSettings(raw, path, fs)
}

// DecodeNodeJoint reads a joint node's block at JSON pointer path.
func DecodeNodeJoint(raw json.RawMessage, path string, fs *Findings) *NodeJoint {
	return decodeNodeJoint(raw, path, fs)
}

// EncodeNodeJoint writes a joint node's block.
func EncodeNodeJoint(j *NodeJoint) json.RawMessage { return j.encode() }

// ValidateShapes adds what is wrong with the document's shapes, under the
// paths and codes of dialect p.
func (d *Document) ValidateShapes(fs *Findings, p PhysicsDialect) {
	d.validateShapesIn(fs, pathsOf(p))
}

// ValidateBodies adds what is wrong with the physics materials, collision
// filters and bodies, under the paths and codes of dialect p.
func (d *Document) ValidateBodies(fs *Findings, p PhysicsDialect) {
	d.validateBodiesIn(fs, pathsOf(p))
}

// ValidateJoints adds what is wrong with the joint settings and joint
// nodes, under the paths and codes of dialect p.
func (d *Document) ValidateJoints(fs *Findings, p PhysicsDialect) {
	d.validateJointsIn(fs, pathsOf(p))
}

// DescendantTriggers lists the descendants of node n that have a trigger
// shape, not looking inside nested bodies (nodes with their own motion):
// the parts of an implicit compound trigger on n.
func (d *Document) DescendantTriggers(n int) []int { return d.descendantTriggers(n) }

// The surface the KHR package (scene/khr) uses beyond the above.

// Path returns the JSON pointer of the object read.
func (r *Reader) Path() string { return r.path }

// Vec4 reads an array of 4 numbers; absent gives def.
func (r *Reader) Vec4(key string, def [4]float64) [4]float64 { return r.vec4(key, def) }

// Indices reads an array of glTF indices; ok is false when it is absent or
// malformed.
func (r *Reader) Indices(key string) ([]int, bool) { return r.indices(key) }

// Raw returns member key as it is.
func (r *Reader) Raw(key string) (json.RawMessage, bool) { return r.raw(key) }

// Used reports whether key was read.
func (r *Reader) Used(key string) bool { return r.used[key] }

// Len returns how many members the writer wrote.
func (w *Writer) Len() int { return w.obj.Len() }

// EncodeShape writes a shape in the model's JSON form, every value
// explicit.
func EncodeShape(s Shape) json.RawMessage { return s.encode() }

// EncodeJointSettings writes joint settings in the model's JSON form.
func EncodeJointSettings(j JointSettings) json.RawMessage { return j.encode() }

// SplitJointSettings returns the joint settings as KHR writes them (one
// axis kind per limit).
func SplitJointSettings(js []JointSettings) []JointSettings { return khrJointSettings(js) }

// CombineMode reports whether s is a physics material's combine mode.
func CombineMode(s string) bool { return combineModes[s] }

// PointerEscape escapes k as one JSON pointer token.
func PointerEscape(k string) string { return pointerEscape(k) }

// NodeRef names node n in a message: its label, or "node n".
func (d *Document) NodeRef(n int) string { return d.nodeRef(n) }

// BodyMotion returns the motion type of the body node n belongs to.
func (d *Document) BodyMotion(n int) MotionType { return d.bodyMotion(n) }

// ColliderShape returns the shape of b's collider, or -1.
func ColliderShape(b *Body) int { return colliderShape(b) }

// TriggerShape returns the shape of b's trigger, or -1 for none or an
// implicit compound trigger.
func TriggerShape(b *Body) int { return triggerShape(b) }

// SourceMember returns member key of the loaded file's JSON root as it is.
func (d *Document) SourceMember(key string) (json.RawMessage, bool) {
	root, err := jsonobj.Parse(d.source.json)
	if err != nil {
		return nil, false
	}
	return root.Get(key)
}

// AddSaveWarnings adds notes to the save being encoded (SaveWarnings).
func (d *Document) AddSaveWarnings(w ...string) { d.saveWarnings = append(d.saveWarnings, w...) }
