package scene

import (
	"bytes"
	"fmt"

	"github.com/qmuntal/gltf"
)

// New builds a document from a glTF document made in code (importers of
// other formats, the demo generator). Its buffers must hold their data; the
// first buffer becomes the binary chunk, so the document saves as .glb or
// .gltf like a loaded one. The physics model starts empty: set Shapes,
// Nodes[i].Body and the rest, then call Validate (or AddFindings with the
// importer's own findings, which validates too).
func New(doc *gltf.Document) (*Document, error) {
	if doc == nil {
		return nil, fmt.Errorf("scene: New: no glTF document")
	}
	if doc.Asset.Version == "" {
		doc.Asset.Version = "2.0"
	}
	for i, b := range doc.Buffers {
		if len(b.Data) < b.ByteLength {
			return nil, fmt.Errorf("scene: New: buffer %d has %d bytes, its byteLength says %d", i, len(b.Data), b.ByteLength)
		}
	}
	var buf bytes.Buffer
	enc := gltf.NewEncoder(&buf)
	enc.AsBinary = true
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("scene: New: encoding the glTF: %w", err)
	}
	d, err := Decode(buf.Bytes(), nil)
	if err != nil {
		return nil, fmt.Errorf("scene: New: %w", err)
	}
	// The glTF checks of a document made here judge the importer's own
	// output, not the user's file (a G4MF body node would read as an
	// empty glTF node, at a path the file does not have): the importer
	// reports the file's problems itself.
	d.loadFindings = nil
	return d, nil
}
