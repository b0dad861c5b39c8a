package scene

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	iofs "io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/qmuntal/gltf"
)

// Document is a glTF file with its physics, gravity, joint and material
// variant extensions decoded into typed values.
//
// GLTF gives typed access to everything else (meshes, accessors, materials).
// Saving does not re-serialise GLTF: it patches the JSON that was loaded, so
// what the model does not own is written back exactly as it was read.
type Document struct {
	// Path is the file the document was loaded from, if any.
	Path string
	// GLTF is the glTF document as read by qmuntal/gltf, buffers loaded,
	// images left encoded.
	GLTF *gltf.Document

	// Shapes is OMI_physics_shape.shapes (OMI_collider colliders are appended).
	Shapes []Shape
	// PhysicsMaterials and CollisionFilters are the document-level OMI_physics_body arrays.
	PhysicsMaterials []PhysicsMaterial
	CollisionFilters []CollisionFilter
	// WorldGravity is the document-level OMI_physics_gravity, or nil.
	WorldGravity *WorldGravity
	// Joints is OMI_physics_joint.physicsJoints.
	Joints []JointSettings
	// Variants is the root KHR_materials_variants.variants list.
	Variants []Variant

	// Nodes holds each glTF node's owned extensions; same length as GLTF.Nodes.
	Nodes []NodeExtensions
	// Primitives holds the primitives' KHR_materials_variants mappings.
	Primitives map[PrimitiveRef]*PrimitiveVariants

	// rootExtra keeps unknown keys of the owned root extension objects.
	rootExtra map[string]Members

	// loadFindings are the findings made while decoding.
	loadFindings []Finding
	// findings are loadFindings plus those of the last Validate.
	findings []Finding

	source source
	// saveWarnings are the notes of the last Encode.
	saveWarnings []string
	// khr is the KHR physics dialect state (khr_physics.go); nil for OMI.
	khr *khrState
	// legacy is what the pre-2023 OMI forms leave for wiring while the
	// document is decoded (omi_body.go); nil afterwards.
	legacy *legacyDecode
	// geom holds the decoded Draco and meshopt data (geometry.go).
	geom *geometry
	// shownScene is the scene shown plus one; 0 shows the file's own
	// (scenes.go).
	shownScene int
}

// NodeExtensions is one node's owned extensions.
type NodeExtensions struct {
	Body    *Body
	Gravity *Gravity
	Joint   *NodeJoint
}

// source is what the document was loaded from, kept so saving can patch it.
type source struct {
	json   []byte
	bin    []byte // the GLB BIN chunk, if any
	glb    bool
	dir    string
	parent []int // parent node index, -1 for roots
}

// IsGLB reports whether the document was read from a binary .glb container.
func (d *Document) IsGLB() bool { return d.source.glb }

// Findings returns the load and validation findings, sorted by path.
func (d *Document) Findings() []Finding { return d.findings }

// Parent returns the parent of node n, or -1 for a root or an invalid index.
func (d *Document) Parent(n int) int {
	if n < 0 || n >= len(d.source.parent) {
		return -1
	}
	return d.source.parent[n]
}

const glbMagic = 0x46546C67 // "glTF"

// Load reads a .gltf or .glb file with its external buffers. Problems the
// user can still look at become findings; only input that cannot be read as
// glTF at all is an error, and it names the file.
func Load(path string) (*Document, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	if strings.EqualFold(filepath.Ext(path), ".glb") {
		if len(data) < 12 {
			return nil, fmt.Errorf("%s: %w", path, loadErr("GLB_UNEXPECTED_END_OF_HEADER", "truncated GLB: %d bytes, the header alone needs 12", len(data)))
		}
		if binary.LittleEndian.Uint32(data) != glbMagic && data[0] != '{' {
			return nil, fmt.Errorf("%s: %w", path, loadErr("GLB_INVALID_MAGIC", "not a GLB: the file does not start with \"glTF\""))
		}
	}
	d, err := Decode(data, os.DirFS(filepath.Dir(path)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	d.Path = path
	d.source.dir = filepath.Dir(path)
	return d, nil
}

func unwrapPathError(err error) error {
	var pe *iofs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Decode reads a glTF document from data (a .gltf JSON text or a .glb
// container). External buffers are read from dir; dir may be nil when the
// document has none. Whatever the Khronos glTF-Validator reports as a problem
// becomes a finding with its issue code; only input that cannot be read at
// all is an error (a *LoadError, with the code).
func Decode(data []byte, dir iofs.FS) (*Document, error) {
	d := &Document{}
	var fs findings
	jsonChunk, bin, glb, err := splitGLB(data, &fs)
	if err != nil {
		return nil, err
	}
	d.source.json, d.source.bin, d.source.glb = jsonChunk, bin, glb
	tree, err := parseTree(jsonChunk)
	if err == nil && bytes.HasPrefix(jsonChunk, []byte("\xef\xbb\xbf")) {
		err = errors.New("byte order mark")
	}
	if err != nil {
		// checkJSON words the error (line and column).
		if err := checkJSON(jsonChunk); err != nil {
			return nil, &LoadError{Code: "INVALID_JSON", Err: err}
		}
		return nil, loadErr("INVALID_JSON", "broken JSON: %v", err)
	}
	sc, ok := checkSchema(tree, &fs)
	if !ok {
		return nil, loadErr("TYPE_MISMATCH", "not a glTF document: the JSON is not an object")
	}
	version, _ := asMap(sc.root["asset"])["version"].(string)
	if version == "" {
		return nil, loadErr("UNDEFINED_PROPERTY", "not a glTF document: no asset.version")
	}
	if !strings.HasPrefix(version, "2.") {
		code := "UNKNOWN_ASSET_MAJOR_VERSION"
		if _, _, ok := parseVersion(version); !ok {
			code = "PATTERN_MISMATCH"
		}
		return nil, loadErr(code, "glTF version %q is not supported (only 2.x)", version)
	}

	// qmuntal/gltf's typed decoder refuses some valid files (an integer
	// written as 1.0) and files with type errors the schema pass reported;
	// those are decoded from the tree the schema pass cleaned.
	doc := new(gltf.Document)
	if err := json.Unmarshal(jsonChunk, doc); err != nil {
		clean, merr := json.Marshal(sc.root)
		doc = new(gltf.Document)
		if merr != nil {
			return nil, loadErr("INVALID_JSON", "not a valid glTF document: %v", merr)
		}
		if err := json.Unmarshal(clean, doc); err != nil {
			return nil, loadErr("TYPE_MISMATCH", "not a valid glTF document: %v", strings.TrimPrefix(err.Error(), "gltf: "))
		}
	}
	for _, im := range doc.Images {
		if u, ok := localURI(im.URI); ok {
			im.URI = u
		}
	}
	if err := loadBuffers(doc, dir, glb, bin, &fs); err != nil {
		return nil, err
	}
	d.GLTF = doc
	d.decodeGeometry(&fs) // Draco and meshopt (geometry.go)
	checkLinks(doc, sc, glb, &fs)
	checkImages(doc, sc, dir, glb, &fs)
	checkData(doc, &fs)

	d.decodeExtensions(&fs)
	d.loadFindings = fs
	d.Validate()
	return d, nil
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// checkJSON reports a syntax error with its line and column.
func checkJSON(data []byte) error {
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return errors.New("broken JSON: the text starts with a byte order mark, which JSON does not allow")
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return errors.New("broken JSON: the file is empty")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	if err == nil {
		if _, ok := v.(map[string]any); !ok {
			return errors.New("not a glTF document: the JSON is not an object")
		}
		return nil
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := lineCol(data, se.Offset)
		return fmt.Errorf("broken JSON at line %d, column %d: %v", line, col, se)
	}
	if strings.Contains(err.Error(), "unexpected EOF") || strings.Contains(err.Error(), "unexpected end") {
		return errors.New("broken JSON: the text ends too early")
	}
	return fmt.Errorf("broken JSON: %v", err)
}

func lineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line, col := 1, 1
	for _, c := range data[:off] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}

// localURI returns a relative URI as a file path (unescaped), or false for
// a data URI, an absolute URI or one that does not parse.
func localURI(uri string) (string, bool) {
	if uri == "" || strings.HasPrefix(uri, "data:") {
		return "", false
	}
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "" || u.Host != "" {
		return "", false
	}
	p, err := url.PathUnescape(strings.ReplaceAll(uri, "\\", "/"))
	if err != nil {
		return "", false
	}
	return strings.TrimPrefix(p, "./"), true
}

// loadBuffers gives every buffer its bytes: the GLB BIN chunk, a data URI
// or a file next to the document. A buffer without uri outside a GLB is a
// placeholder and has no bytes; a remote URI is never fetched (a finding).
// Only a local file that cannot be read is an error. No buffer is allocated
// from byteLength: data is sliced from what was read.
func loadBuffers(doc *gltf.Document, dir iofs.FS, glb bool, bin []byte, fs *findings) error {
	for i, b := range doc.Buffers {
		p := fmt.Sprintf("/buffers/%d", i)
		var data []byte
		switch {
		case b.URI == "" && glb && i == 0:
			if bin == nil {
				fs.addc(Error, "BUFFER_MISSING_GLB_DATA", p, "buffer 0 refers to the GLB binary chunk, which the file does not have")
				continue
			}
			data = bin
			if len(bin)-b.ByteLength >= 4 {
				fs.addc(Warning, "BUFFER_GLB_CHUNK_TOO_BIG", p, "the BIN chunk has %d extra padding bytes", len(bin)-b.ByteLength)
			}
		case b.URI == "":
			continue // a placeholder: no bytes
		case strings.HasPrefix(b.URI, "data:"):
			if glb {
				fs.addc(Warning, "DATA_URI_GLB", p+"/uri", "data URI used in a GLB container")
			}
			media, raw, err := decodeDataURI(b.URI)
			if err != nil {
				fs.addc(Error, "INVALID_URI", p+"/uri", "invalid data URI: %v", err)
				continue
			}
			if media != "application/octet-stream" && media != "application/gltf-buffer" {
				fs.addc(Error, "BUFFER_DATA_URI_MIME_TYPE_INVALID", p+"/uri", "data URI media type must be application/octet-stream or application/gltf-buffer, found %q (read anyway)", media)
			}
			data = raw
		default:
			if glb {
				fs.addc(Info, "URI_GLB", p+"/uri", "URI used in a GLB container")
			}
			u, err := url.Parse(b.URI)
			if err != nil {
				fs.addc(Error, "INVALID_URI", p+"/uri", "invalid URI %q: %v", b.URI, err)
				continue
			}
			if u.Scheme != "" || u.Host != "" {
				fs.addc(Warning, "NON_RELATIVE_URI", p+"/uri", "non-relative URI %q: remote data is never fetched, so the buffer has no bytes", b.URI)
				continue
			}
			name, ok := localURI(b.URI)
			if dir == nil || !ok || !iofs.ValidPath(name) {
				return loadErr("IO_ERROR", "buffer %d: cannot read %q: buffer.uri must be a relative path inside the file's folder", i, b.URI)
			}
			raw, err := iofs.ReadFile(dir, name)
			if err != nil {
				return &LoadError{Code: "IO_ERROR", Err: fmt.Errorf("buffer %d: %s: %w", i, b.URI, unwrapPathError(err))}
			}
			data = raw
			b.URI = name // unescaped, as qmuntal/gltf's decoder leaves it
		}
		if len(data) < b.ByteLength {
			fs.addc(Error, "BUFFER_BYTE_LENGTH_MISMATCH", p, "the data has %d bytes, less than byteLength %d", len(data), b.ByteLength)
		} else {
			data = data[:b.ByteLength:b.ByteLength]
		}
		b.Data = data
	}
	return nil
}

// decodeDataURI reads data:[media type][;params][;base64],DATA; without
// base64 the data is percent-encoded text.
func decodeDataURI(uri string) (media string, data []byte, err error) {
	head, payload, ok := strings.Cut(strings.TrimPrefix(uri, "data:"), ",")
	if !ok {
		return "", nil, errors.New("no comma before the data")
	}
	parts := strings.Split(head, ";")
	isBase64 := len(parts) > 1 && parts[len(parts)-1] == "base64"
	params := parts[1:]
	if isBase64 {
		params = parts[1 : len(parts)-1]
	}
	for _, part := range params {
		if !strings.Contains(part, "=") {
			return "", nil, fmt.Errorf("malformed parameter %q", part)
		}
	}
	if !isBase64 {
		text, err := url.PathUnescape(payload)
		if err != nil {
			return "", nil, fmt.Errorf("bad percent-encoding: %v", err)
		}
		return parts[0], []byte(text), nil
	}
	data, err = base64.StdEncoding.DecodeString(payload)
	if err != nil {
		return "", nil, fmt.Errorf("bad base64: %v", err)
	}
	return parts[0], data, nil
}

// rawExt returns the raw JSON of extension name in exts.
func rawExt(exts gltf.Extensions, name string) (json.RawMessage, bool) {
	v, ok := exts[name]
	if !ok {
		return nil, false
	}
	switch v := v.(type) {
	case json.RawMessage:
		return v, true
	default:
		// Another package registered a decoder for it; re-encode.
		b, err := json.Marshal(v)
		return b, err == nil
	}
}

func (d *Document) decodeExtensions(fs *findings) {
	doc := d.GLTF
	d.rootExtra = map[string]Members{}
	d.Nodes = make([]NodeExtensions, len(doc.Nodes))
	d.Primitives = map[PrimitiveRef]*PrimitiveVariants{}
	d.source.parent = parents(doc, fs)

	d.decodeRegistered(fs) // registered codecs (extensions.go)
}

// parents computes each node's parent and reports nodes with two parents,
// cycles and child indices out of range.
func parents(doc *gltf.Document, fs *findings) []int {
	parent := make([]int, len(doc.Nodes))
	for i := range parent {
		parent[i] = -1
	}
	for i, n := range doc.Nodes {
		for ci, c := range n.Children {
			switch {
			case c < 0 || c >= len(doc.Nodes):
				fs.errorf(fmt.Sprintf("/nodes/%d/children/%d", i, ci), "child node %d does not exist (the file has %d nodes)", c, len(doc.Nodes))
			case parent[c] >= 0:
				fs.errorf(fmt.Sprintf("/nodes/%d/children/%d", i, ci), "node %d already has parent %d; a node may have one parent", c, parent[c])
			case c == i:
				fs.errorf(fmt.Sprintf("/nodes/%d/children/%d", i, ci), "node %d lists itself as a child", i)
			default:
				parent[c] = i
			}
		}
	}
	// Break cycles so that every walk up the tree ends. A node whose walk
	// reached a root is marked done, so later walks stop there: linear in
	// the number of nodes, also for a hostile chain of a million.
	const done = -1
	mark := make([]int, len(parent)) // 0 unvisited, i+1 on the walk from i, done
	for i := range parent {
		if mark[i] == done {
			continue
		}
		mark[i] = i + 1
		for p := parent[i]; p >= 0 && mark[p] != done; p = parent[p] {
			if mark[p] == i+1 {
				fs.errorf(fmt.Sprintf("/nodes/%d", i), "node %d is part of a cycle in the node hierarchy", i)
				parent[i] = -1
				break
			}
			mark[p] = i + 1
		}
		// Everything on this walk now ends at a root.
		for q := i; q >= 0 && mark[q] == i+1; q = parent[q] {
			mark[q] = done
		}
	}
	return parent
}

// Ancestors calls f for each ancestor of node n, nearest first, until f returns false.
func (d *Document) Ancestors(n int, f func(a int) bool) {
	for p := d.Parent(n); p >= 0; p = d.Parent(p) {
		if !f(p) {
			return
		}
	}
}

// Children returns the child node indices of n that exist.
func (d *Document) Children(n int) []int {
	var out []int
	if n < 0 || n >= len(d.GLTF.Nodes) {
		return nil
	}
	for _, c := range d.GLTF.Nodes[n].Children {
		if c >= 0 && c < len(d.GLTF.Nodes) && d.Parent(c) == n {
			out = append(out, c)
		}
	}
	return out
}

func (d *Document) setRootExtra(ext string, m Members) {
	if len(m) > 0 {
		d.rootExtra[ext] = m
	}
}
