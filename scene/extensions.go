package scene

import (
	"encoding/json"
	"slices"
)

// Codec is what a physics dialect or another owned glTF extension
// registers with the model (RegisterCodec), as qmuntal/gltf's ext/ packages
// register with gltf.RegisterExtension: the names it owns, how it reads
// them into the model, how it writes them when saving, how it checks them,
// and which of its names the saved file uses. The document code calls the
// registered codecs through the hooks below and names no extension itself.
// The OMI dialect is the package scene/omi; KHR physics on glTF 2.0, glTF
// 2.1 core shapes, KHR_node_visibility and KHR_materials_variants register
// from this package (docs/dialects.md says why).
type Codec struct {
	// Names are the extension names the codec owns. They join
	// ownedExtensions, so saving rewrites or removes them.
	Names []string
	// Order places the codec among the others: every hook runs the codecs
	// in ascending Order, and a saved extensions object gets new keys in
	// that order. Decoding depends on it (see the order* constants).
	Order int
	// Decode reads the codec's root and node extensions into the model.
	Decode func(d *Document, fs *findings)
	// Patch sets or deletes the blocks of the root (node -1) or of node n
	// before they are written. Root blocks are patched before any node.
	Patch func(d *Document, node int, blocks map[string]json.RawMessage)
	// PatchPrimitive sets or deletes the blocks of a mesh primitive.
	PatchPrimitive func(d *Document, ref PrimitiveRef, blocks map[string]json.RawMessage)
	// Used adds the codec's names the saved file uses to used, or rewrites
	// the list (a dialect that replaces others).
	Used func(d *Document, used []string) []string
	// Required rewrites the file's extensionsRequired (its JSON, raw) before
	// the names no longer used are dropped; ok false leaves it as it is.
	Required func(raw json.RawMessage, used []string) (req []string, ok bool)
	// Validate adds what is wrong with the codec's part of the model.
	Validate func(d *Document, fs *findings)
	// Align rewrites all the document's findings (load and validation)
	// once they are made: the codes, severities and pointers of faults in
	// the codec's blocks, and repeats dropped.
	Align func(d *Document, all []Finding) []Finding
	// Convert prepares the codec's state when SetPhysicsDialect changes
	// the dialect from one to another, and says, one line each, what the
	// new dialect cannot hold.
	Convert func(d *Document, from, to PhysicsDialect) []string
	// ShapeUnlisted reports whether model shape s is not an entry of the
	// dialect's shape list (a mesh a KHR collider names), which the list's
	// checks skip.
	ShapeUnlisted func(d *Document, s int) bool
	// ShapeForm gives shape s as the document's dialect writes it, its
	// type name and JSON, when that differs from the model's form.
	ShapeForm func(d *Document, s Shape) (typ string, raw json.RawMessage, ok bool)
	// CodePrefix gives the prefix of the generic codes (TYPE_MISMATCH, ...)
	// of a value at JSON pointer path in the codec's blocks; ok false for a
	// path that is not the codec's.
	CodePrefix func(path string) (prefix string, ok bool)
}

// extensionCodec is the package's own name for Codec.
type extensionCodec = Codec

// Decoding order of the codecs: the OMI codecs (scene/omi) use 10 to 60,
// shapes, bodies and the archived OMI_collider first, then the resolution
// of implicit compound triggers (orderImplicitTriggers), then OMI gravity
// and joints; KHR physics comes after them, as it keeps its blocks unread
// when OMI physics is there.
const (
	orderImplicitTriggers = 40
	orderVariants         = 70
	orderKHRPhysics       = 80
)

var (
	extensionCodecs []extensionCodec
	// ownedExtensions are the names of the registered codecs, in Order.
	ownedExtensions []string
)

// RegisterCodec adds a codec to the model; call it from the init of the
// codec's package. Order places it among the others (see Codec.Order).
func RegisterCodec(c Codec) { registerExtension(c) }

// registerExtension adds a codec; call it from init.
func registerExtension(c extensionCodec) {
	i := len(extensionCodecs)
	for i > 0 && extensionCodecs[i-1].Order > c.Order {
		i--
	}
	extensionCodecs = slices.Insert(extensionCodecs, i, c)
	ownedExtensions = ownedExtensions[:0]
	for _, c := range extensionCodecs {
		for _, n := range c.Names {
			if !slices.Contains(ownedExtensions, n) {
				ownedExtensions = append(ownedExtensions, n)
			}
		}
	}
}

// decodeRegistered reads every owned extension.
func (d *Document) decodeRegistered(fs *findings) {
	for _, c := range extensionCodecs {
		if c.Decode != nil {
			c.Decode(d, fs)
		}
	}
}

// patchRegistered is the hook in patchJSON for the root (node -1) and for
// each node's extension blocks.
func (d *Document) patchRegistered(node int, blocks map[string]json.RawMessage) {
	for _, c := range extensionCodecs {
		if c.Patch != nil {
			c.Patch(d, node, blocks)
		}
	}
}

// patchPrimitiveRegistered is the hook in patchJSON for each mesh
// primitive's extension blocks.
func (d *Document) patchPrimitiveRegistered(ref PrimitiveRef, blocks map[string]json.RawMessage) {
	for _, c := range extensionCodecs {
		if c.PatchPrimitive != nil {
			c.PatchPrimitive(d, ref, blocks)
		}
	}
}

// usedRegistered is the hook that adjusts extensionsUsed when saving.
func (d *Document) usedRegistered(used []string) []string {
	for _, c := range extensionCodecs {
		if c.Used != nil {
			used = c.Used(d, used)
		}
	}
	slices.Sort(used)
	return slices.Compact(used)
}

// requiredRegistered lets the codecs rewrite extensionsRequired (raw, its
// JSON); ok reports whether one did.
func requiredRegistered(raw json.RawMessage, used []string) (req []string, ok bool) {
	for _, c := range extensionCodecs {
		if c.Required == nil {
			continue
		}
		if r, changed := c.Required(raw, used); changed {
			req, ok = r, true
			if b, err := json.Marshal(r); err == nil {
				raw = b
			}
		}
	}
	return req, ok
}

// validateRegistered is the hook in Validate.
func (d *Document) validateRegistered(fs *findings) {
	for _, c := range extensionCodecs {
		if c.Validate != nil {
			c.Validate(d, fs)
		}
	}
}

// alignRegistered is the hook at the end of Validate.
func (d *Document) alignRegistered(all []Finding) []Finding {
	for _, c := range extensionCodecs {
		if c.Align != nil {
			all = c.Align(d, all)
		}
	}
	return all
}

// knownExtension reports whether a registered codec reads extension name or
// the program otherwise honours it (ExtensionShown, support.go): the one
// list that both validation (UNSUPPORTED_EXTENSION) and opening a file for
// viewing (a required extension refused) consult.
func knownExtension(name string) bool { return ExtensionShown(name) }
