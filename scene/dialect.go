package scene

import (
	"encoding/json"
	"maps"

	"physview/scene/internal/jsonobj"
)

// PhysicsDialect names the extensions a document's bodies and shapes are
// written in. The model knows the dialects by these names only: the
// registered codecs (Codec) read and write them.
type PhysicsDialect int

// Physics dialects. The zero value is OMI. DialectGLTF21 is a glTF 2.1
// file: shapes in the core "shapes" array, bodies, colliders and joints in
// KHR_physics_rigid_bodies as in DialectKHR.
const (
	DialectOMI PhysicsDialect = iota
	DialectKHR
	DialectGLTF21
)

// String returns "omi", "khr" or "gltf2.1".
func (p PhysicsDialect) String() string {
	switch p {
	case DialectKHR:
		return "khr"
	case DialectGLTF21:
		return "gltf2.1"
	}
	return "omi"
}

// KHRBodies reports whether bodies are in KHR_physics_rigid_bodies (KHR
// and glTF 2.1), whose zero mass and inertia mean infinite.
func (p PhysicsDialect) KHRBodies() bool { return p == DialectKHR || p == DialectGLTF21 }

// ParsePhysicsDialect reads "omi", "khr" or "gltf2.1".
func ParsePhysicsDialect(s string) (PhysicsDialect, bool) {
	switch s {
	case "omi":
		return DialectOMI, true
	case "khr":
		return DialectKHR, true
	case "gltf2.1", "2.1":
		return DialectGLTF21, true
	}
	return 0, false
}

// PhysicsDialect returns the dialect the document's physics is saved in:
// the one it was read in, or the one SetPhysicsDialect chose.
func (d *Document) PhysicsDialect() PhysicsDialect { return d.dialect }

// ReadPhysicsAs records that the file's physics was read in dialect p, so
// a save writes p again; a codec's Decode hook calls it.
func (d *Document) ReadPhysicsAs(p PhysicsDialect) { d.dialect = p }

// SetPhysicsDialect makes the next save write the physics in dialect p and
// returns, one line each, what p cannot carry: the registered codecs'
// Convert hooks prepare their state and say it.
func (d *Document) SetPhysicsDialect(p PhysicsDialect) []string {
	from := d.dialect
	d.dialect = p
	var warns []string
	for _, c := range extensionCodecs {
		if c.Convert != nil {
			warns = append(warns, c.Convert(d, from, p)...)
		}
	}
	return warns
}

// CodecState returns what the codec called name keeps on the document
// (SetCodecState), or nil.
func (d *Document) CodecState(name string) any { return d.codecState[name] }

// SetCodecState keeps v for the codec called name. The map is copied, not
// changed, so a dialect change's undo can hold the one it replaced.
func (d *Document) SetCodecState(name string, v any) {
	m := maps.Clone(d.codecState)
	if m == nil {
		m = map[string]any{}
	}
	m[name] = v
	d.codecState = m
}

// shapeUnlisted reports whether a codec keeps model shape s out of its
// dialect's shape list (Codec.ShapeUnlisted).
func (d *Document) shapeUnlisted(s int) bool {
	for _, c := range extensionCodecs {
		if c.ShapeUnlisted != nil && c.ShapeUnlisted(d, s) {
			return true
		}
	}
	return false
}

// GLTFVersion returns the file's asset.version ("2.0", "2.1").
func (d *Document) GLTFVersion() string { return d.GLTF.Asset.Version }

// ShapeForm returns shape i as its dialect writes it: where it lives
// ("omi", "khr" or "gltf2.1"), the type name and the parameters object
// with every value explicit (the effective values, defaults filled in). A
// codec's ShapeForm hook gives the form where it differs from the model's.
func (d *Document) ShapeForm(i int) (source, typ string, params json.RawMessage) {
	s := d.Shapes[i]
	source = d.PhysicsDialect().String()
	raw := s.encode()
	typ = s.Type.String()
	for _, c := range extensionCodecs {
		if c.ShapeForm == nil {
			continue
		}
		if t, r, ok := c.ShapeForm(d, s); ok {
			typ, raw = t, r
			break
		}
	}
	obj, err := jsonobj.Parse(raw)
	if err != nil {
		return source, typ, json.RawMessage("{}")
	}
	params, ok := obj.Get(typ)
	if !ok {
		params = json.RawMessage("{}")
	}
	return source, typ, params
}
