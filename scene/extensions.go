package scene

import (
	"encoding/json"
	"slices"
)

// extensionCodec is what an owned glTF extension registers: the names it
// owns, how it reads them into the model, how it writes them when saving,
// and which of its names the saved file uses. Each dialect lives in one file
// that registers its codec from init (khr_physics.go); the document code
// calls the registered codecs through the hooks below instead of naming the
// extension. (The OMI extensions predate this and are still wired by hand in
// document.go, save.go and validate.go.)
type extensionCodec struct {
	// Names are the extension names the codec owns. They join
	// ownedExtensions, so saving rewrites or removes them.
	Names []string
	// Decode reads the codec's extensions after the OMI ones are read.
	Decode func(d *Document, fs *findings)
	// Patch sets or deletes the blocks of the root (node -1) or of node n
	// before they are written. Root blocks are patched before any node.
	Patch func(d *Document, node int, blocks map[string]json.RawMessage)
	// Used rewrites the list of extension names the saved file uses.
	Used func(d *Document, used []string) []string
}

var extensionCodecs []extensionCodec

// registerExtension adds a codec; call it from init.
func registerExtension(c extensionCodec) {
	extensionCodecs = append(extensionCodecs, c)
	for _, n := range c.Names {
		if !slices.Contains(ownedExtensions, n) {
			ownedExtensions = append(ownedExtensions, n)
		}
	}
}

// decodeRegistered is the hook at the end of decodeExtensions.
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
