package scene

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/qmuntal/gltf"
)

// Extension names the model owns: it reads them into typed values and writes
// them back in their current form. Everything else in the file is kept as is.
const (
	ExtShape    = "OMI_physics_shape"
	ExtBody     = "OMI_physics_body"
	ExtGravity  = "OMI_physics_gravity"
	ExtJoint    = "OMI_physics_joint"
	ExtCollider = "OMI_collider" // archived; read, never written
	ExtVariants = "KHR_materials_variants"
)

var ownedExtensions = []string{ExtShape, ExtBody, ExtGravity, ExtJoint, ExtCollider, ExtVariants}

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
	d, err := Decode(data, os.DirFS(filepath.Dir(path)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	d.Path = path
	d.source.dir = filepath.Dir(path)
	return d, nil
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Decode reads a glTF document from data (a .gltf JSON text or a .glb
// container). External buffers are read from dir; dir may be nil when the
// document has none.
func Decode(data []byte, dir fs.FS) (*Document, error) {
	d := &Document{}
	jsonChunk, bin, glb, err := splitGLB(data)
	if err != nil {
		return nil, err
	}
	d.source.json, d.source.bin, d.source.glb = jsonChunk, bin, glb
	if err := checkJSON(jsonChunk); err != nil {
		return nil, err
	}

	doc := new(gltf.Document)
	if err := gltf.NewDecoder(bytes.NewReader(data)).Decode(doc); err != nil {
		return nil, fmt.Errorf("not a valid glTF document: %v", strings.TrimPrefix(err.Error(), "gltf: "))
	}
	if doc.Asset.Version == "" {
		return nil, errors.New("not a glTF document: no asset.version")
	}
	if !strings.HasPrefix(doc.Asset.Version, "2.") {
		return nil, fmt.Errorf("glTF version %q is not supported (only 2.x)", doc.Asset.Version)
	}
	if err := loadBuffers(doc, dir); err != nil {
		return nil, err
	}
	d.GLTF = doc

	var fs findings
	d.decodeExtensions(&fs)
	d.loadFindings = fs
	d.Validate()
	return d, nil
}

// splitGLB returns the JSON and BIN chunks of a GLB, or data itself as JSON.
func splitGLB(data []byte) (jsonChunk, bin []byte, glb bool, err error) {
	if len(data) < 4 || binary.LittleEndian.Uint32(data) != glbMagic {
		return data, nil, false, nil
	}
	if len(data) < 20 {
		return nil, nil, true, fmt.Errorf("truncated GLB: %d bytes, the header alone needs 20", len(data))
	}
	version := binary.LittleEndian.Uint32(data[4:])
	total := binary.LittleEndian.Uint32(data[8:])
	if version != 2 {
		return nil, nil, true, fmt.Errorf("GLB version %d is not supported (only 2)", version)
	}
	if int64(total) > int64(len(data)) {
		return nil, nil, true, fmt.Errorf("truncated GLB: the header says %d bytes, the file has %d", total, len(data))
	}
	data = data[:total]
	off := 12
	for chunk := 0; off < len(data); chunk++ {
		if len(data)-off < 8 {
			return nil, nil, true, fmt.Errorf("truncated GLB: chunk %d header cut off at byte %d", chunk, off)
		}
		n := int64(binary.LittleEndian.Uint32(data[off:]))
		typ := binary.LittleEndian.Uint32(data[off+4:])
		off += 8
		if n > int64(len(data)-off) {
			return nil, nil, true, fmt.Errorf("truncated GLB: chunk %d says %d bytes, %d remain", chunk, n, len(data)-off)
		}
		body := data[off : off+int(n)]
		off += int(n)
		switch {
		case chunk == 0 && typ != 0x4E4F534A: // "JSON"
			return nil, nil, true, errors.New("invalid GLB: the first chunk is not JSON")
		case chunk == 0:
			jsonChunk = body
		case chunk == 1 && typ == 0x004E4942: // "BIN\x00"
			bin = body
		}
	}
	if jsonChunk == nil {
		return nil, nil, true, errors.New("invalid GLB: no JSON chunk")
	}
	return jsonChunk, bin, true, nil
}

// checkJSON reports a syntax error with its line and column.
func checkJSON(data []byte) error {
	var v any
	err := json.Unmarshal(data, &v)
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
	if strings.Contains(err.Error(), "unexpected end") {
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

// loadBuffers reads external buffers, naming the buffer and file on failure.
func loadBuffers(doc *gltf.Document, dir fs.FS) error {
	for i, b := range doc.Buffers {
		if b.Data != nil || b.IsEmbeddedResource() {
			if len(b.Data) < b.ByteLength {
				return fmt.Errorf("buffer %d has %d bytes, its byteLength says %d", i, len(b.Data), b.ByteLength)
			}
			continue
		}
		if b.URI == "" {
			return fmt.Errorf("buffer %d has no uri and is not the GLB binary chunk", i)
		}
		if u, err := url.Parse(b.URI); err == nil && u.Scheme != "" {
			return fmt.Errorf("buffer %d: uri %q is not a relative file path; only local files are read", i, b.URI)
		}
		if dir == nil || !fs.ValidPath(b.URI) {
			return fmt.Errorf("buffer %d: cannot read %q next to the file", i, b.URI)
		}
		data, err := fs.ReadFile(dir, b.URI)
		if err != nil {
			return fmt.Errorf("buffer %d: %s: %w", i, b.URI, unwrapPathError(err))
		}
		if len(data) < b.ByteLength {
			return fmt.Errorf("buffer %d: %s has %d bytes, its byteLength says %d", i, b.URI, len(data), b.ByteLength)
		}
		b.Data = data[:b.ByteLength:b.ByteLength]
	}
	return nil
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

	if raw, ok := rawExt(doc.Extensions, ExtShape); ok {
		if r := newReader(raw, "/extensions/"+ExtShape, fs); r != nil {
			for i, s := range r.array("shapes") {
				d.Shapes = append(d.Shapes, decodeShape(s, r.at("shapes")+"/"+itoa(i), fs, false))
			}
			d.setRootExtra(ExtShape, r.rest())
		}
	}
	colliderBase := len(d.Shapes)
	var colliderTrigger []bool
	if raw, ok := rawExt(doc.Extensions, ExtCollider); ok {
		fs.infof("/extensions/"+ExtCollider, "archived OMI_collider read as OMI_physics_shape and OMI_physics_body; saved in the current form")
		if r := newReader(raw, "/extensions/"+ExtCollider, fs); r != nil {
			for i, c := range r.array("colliders") {
				p := r.at("colliders") + "/" + itoa(i)
				d.Shapes = append(d.Shapes, decodeShape(c, p, fs, true))
				var flags struct {
					IsTrigger bool `json:"isTrigger"`
				}
				_ = json.Unmarshal(c, &flags)
				colliderTrigger = append(colliderTrigger, flags.IsTrigger)
			}
		}
	}
	if raw, ok := rawExt(doc.Extensions, ExtBody); ok {
		if r := newReader(raw, "/extensions/"+ExtBody, fs); r != nil {
			for i, m := range r.array("physicsMaterials") {
				d.PhysicsMaterials = append(d.PhysicsMaterials, decodePhysicsMaterial(m, r.at("physicsMaterials")+"/"+itoa(i), fs))
			}
			for i, c := range r.array("collisionFilters") {
				d.CollisionFilters = append(d.CollisionFilters, decodeCollisionFilter(c, r.at("collisionFilters")+"/"+itoa(i), fs))
			}
			d.setRootExtra(ExtBody, r.rest())
		}
	}
	if raw, ok := rawExt(doc.Extensions, ExtGravity); ok {
		d.WorldGravity = decodeWorldGravity(raw, "/extensions/"+ExtGravity, fs)
	}
	if raw, ok := rawExt(doc.Extensions, ExtJoint); ok {
		if r := newReader(raw, "/extensions/"+ExtJoint, fs); r != nil {
			for i, j := range r.array("physicsJoints") {
				d.Joints = append(d.Joints, decodeJointSettings(j, r.at("physicsJoints")+"/"+itoa(i), fs))
			}
			d.setRootExtra(ExtJoint, r.rest())
		}
	}
	if raw, ok := rawExt(doc.Extensions, ExtVariants); ok {
		if r := newReader(raw, "/extensions/"+ExtVariants, fs); r != nil {
			for i, v := range r.array("variants") {
				vr := newReader(v, r.at("variants")+"/"+itoa(i), fs)
				if vr == nil {
					d.Variants = append(d.Variants, Variant{})
					continue
				}
				d.Variants = append(d.Variants, Variant{Name: vr.str("name", "")})
				d.Variants[i].Extra = vr.rest()
			}
			d.setRootExtra(ExtVariants, r.rest())
		}
	}

	// Node extensions. Legacy bodies and node-level shapes are wired after
	// every node is read, because a shape's meaning depends on its ancestors.
	legacyBody := make([]string, len(doc.Nodes))
	legacyShape := make([]int, len(doc.Nodes))
	for i, n := range doc.Nodes {
		legacyShape[i] = -1
		base := fmt.Sprintf("/nodes/%d/extensions/", i)
		ne := &d.Nodes[i]
		if raw, ok := rawExt(n.Extensions, ExtBody); ok {
			ne.Body, legacyBody[i] = decodeBody(raw, base+ExtBody, fs)
		}
		if raw, ok := rawExt(n.Extensions, ExtShape); ok {
			if r := newReader(raw, base+ExtShape, fs); r != nil {
				fs.infof(base+ExtShape, "node-level OMI_physics_shape (before September 2023) read as a collider or trigger of the node")
				legacyShape[i] = r.index("shape", -1)
			}
		}
		if raw, ok := rawExt(n.Extensions, ExtCollider); ok {
			if r := newReader(raw, base+ExtCollider, fs); r != nil {
				c := r.index("collider", -1)
				if c < 0 || c >= len(colliderTrigger) {
					fs.errorf(base+ExtCollider+"/collider", "collider %d does not exist (the file has %d)", c, len(colliderTrigger))
				} else {
					if ne.Body == nil {
						ne.Body = &Body{}
					}
					if colliderTrigger[c] {
						ne.Body.Trigger = &Trigger{Shape: colliderBase + c, CollisionFilter: -1}
					} else {
						ne.Body.Collider = &Collider{Shape: colliderBase + c, PhysicsMaterial: -1, CollisionFilter: -1}
					}
				}
			}
		}
		if raw, ok := rawExt(n.Extensions, ExtGravity); ok {
			ne.Gravity = decodeGravity(raw, base+ExtGravity, fs)
		}
		if raw, ok := rawExt(n.Extensions, ExtJoint); ok {
			ne.Joint = decodeNodeJoint(raw, base+ExtJoint, fs)
		}
	}
	d.wireLegacy(legacyBody, legacyShape)
	d.decodeRegistered(fs) // registered codecs (extensions.go)

	var draftNames []string
	for mi, m := range doc.Meshes {
		for pi, p := range m.Primitives {
			if raw, ok := rawExt(p.Extensions, ExtVariants); ok {
				path := fmt.Sprintf("/meshes/%d/primitives/%d/extensions/%s", mi, pi, ExtVariants)
				if pv := decodePrimitiveVariants(raw, path, fs, &draftNames); pv != nil {
					d.Primitives[PrimitiveRef{mi, pi}] = pv
				}
			}
		}
	}
	if len(draftNames) > 0 {
		if len(d.Variants) > 0 {
			fs.errorf("/extensions/"+ExtVariants, "both draft name mappings and a root variants list: draft names are matched to the list by name")
		}
		// Name-based mappings index draftNames; map them onto the root list,
		// adding names it lacks.
		remap := make([]int, len(draftNames))
		for i, name := range draftNames {
			remap[i] = -1
			for vi, v := range d.Variants {
				if v.Name == name {
					remap[i] = vi
					break
				}
			}
			if remap[i] < 0 {
				d.Variants = append(d.Variants, Variant{Name: name})
				remap[i] = len(d.Variants) - 1
			}
		}
		for _, pv := range d.Primitives {
			for mi := range pv.Mappings {
				for vi, v := range pv.Mappings[mi].Variants {
					if v >= 0 && v < len(remap) {
						pv.Mappings[mi].Variants[vi] = remap[v]
					}
				}
			}
		}
		// Draft mappings all came through the "mapping" key; make sure a
		// leftover key does not stay in Extra.
		for _, pv := range d.Primitives {
			pv.Extra = withoutKey(pv.Extra, "mapping")
		}
	}
}

func withoutKey(m Members, key string) Members {
	out := m[:0:0]
	for _, mem := range m {
		if mem.Key != key {
			out = append(out, mem)
		}
	}
	return out
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
	// Break cycles so that every walk up the tree ends.
	for i := range parent {
		seen := map[int]bool{i: true}
		for p := parent[i]; p >= 0; p = parent[p] {
			if seen[p] {
				fs.errorf(fmt.Sprintf("/nodes/%d", i), "node %d is part of a cycle in the node hierarchy", i)
				parent[i] = -1
				break
			}
			seen[p] = true
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

// wireLegacy turns pre-2023 node shapes and bodies into the current form and
// resolves implicit compound triggers.
func (d *Document) wireLegacy(legacyBody []string, legacyShape []int) {
	for i, shape := range legacyShape {
		if shape < 0 && legacyBody[i] == "" {
			continue
		}
		ne := &d.Nodes[i]
		if shape >= 0 {
			// The body on this node or the nearest ancestor says what kind of shape this is.
			kind := legacyBody[i]
			if kind == "" {
				d.Ancestors(i, func(a int) bool {
					kind = legacyBody[a]
					return kind == ""
				})
			}
			if ne.Body == nil {
				ne.Body = &Body{}
			}
			if kind == "trigger" {
				ne.Body.Trigger = &Trigger{Shape: shape, CollisionFilter: -1}
			} else if ne.Body.Collider == nil {
				ne.Body.Collider = &Collider{Shape: shape, PhysicsMaterial: -1, CollisionFilter: -1}
			}
		}
		if legacyBody[i] == "trigger" && ne.Body != nil && ne.Body.Trigger == nil {
			ne.Body.Trigger = &Trigger{Shape: -1, CollisionFilter: -1, implicit: true}
		}
	}
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

func (d *Document) setRootExtra(ext string, m Members) {
	if len(m) > 0 {
		d.rootExtra[ext] = m
	}
}
