package scene

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"physview/scene/corecheck"
	"slices"
	"strings"
	"time"

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

	// missingBuffers are the buffers without bytes because their file was
	// not found when the document was read or the GLB's BIN chunk is cut
	// off, by index, with why: nothing is drawn from them (BufferViewData,
	// ReadPrimitive).
	missingBuffers map[int]string

	// loadFindings are the findings made while decoding.
	loadFindings []Finding
	// findings are loadFindings plus those of the last Validate, without
	// repeats and within the bounds (bound.go); omitted counts the others,
	// loadOmitted those the core checks did not make.
	findings    []Finding
	omitted     []Omitted
	loadOmitted map[string]corecheck.Omitted
	// vcache lives while Validate runs (validate.go).
	vcache *validationCache
	// mapFinding, when set (SetFindingMap), rewrites or drops each
	// finding of Validate's checks.
	mapFinding func(Finding) (Finding, bool)

	source source
	// saveWarnings are the notes of the last Encode.
	saveWarnings []string
	// dialect is the physics dialect a save writes (PhysicsDialect), and
	// codecState what the registered codecs keep on the document, by
	// codec name (CodecState); a dialect change replaces both (undo).
	dialect    PhysicsDialect
	codecState map[string]any
	// geom holds the decoded Draco and meshopt data (geometry.go).
	geom *geometry
	// reads counts what accessor reads materialized, against the
	// document's read budget (readbudget.go); clones share it, as they
	// share the buffers.
	reads *readLedger
	// scanned is what the load's check of accessors' min and max read.
	scanned int64
	// shownScene is the scene shown plus one; 0 shows the file's own
	// (scenes.go).
	shownScene int
}

// NodeExtensions is one node's owned extensions.
type NodeExtensions struct {
	Body    *Body
	Gravity *Gravity
	Joint   *NodeJoint
	// BoundingVolume is the glTF 2.1 core node.boundingVolume (scene/gltf21).
	BoundingVolume *BoundingVolume
	// Visibility is the node's KHR_node_visibility block (visibility.go).
	Visibility *NodeVisibility
}

// source is what the document was loaded from, kept so saving can patch it.
type source struct {
	json   []byte
	bin    []byte // the GLB BIN chunk, if any
	glb    bool
	chunks [][]byte // the GLB's chunks of other types, kept by a GLB save
	dir    string
	path   string // the file the document was loaded from
	parent []int  // parent node index, -1 for roots
	// baseline is the encoding of every owned extension block as loaded,
	// by JSON pointer; legacy the paths of parts read from a legacy form,
	// missing those of required members the file lacks (save_faithful.go).
	baseline map[string]json.RawMessage
	legacy   []string
	missing  []string
	// The lengths of the arrays and buffers as loaded: what lies past them
	// an edit added (compound.go), and a save appends it.
	nodes, meshes, accessors, views, buffers int
	bufferLens                               []int
	// rewritten are the buffer files a save wrote.
	rewritten map[string]bool
	// loadedNodes are the nodes' names, children and transforms as
	// decoded, before any edit: what a save compares the current ones
	// with (a node written in a form qmuntal/gltf's typed decoder refuses,
	// such as a child index written 1.0, cannot be re-read from json).
	loadedNodes []loadedNode
}

// loadedNode is a node's name, children and transform as decoded, in
// less room than a gltf.Node (305 bytes): most nodes have the default
// transform, which is not stored.
type loadedNode struct {
	name     string
	children []int
	// xf is the transform; nil for the default one.
	xf *loadedTransform
}

type loadedTransform struct {
	matrix      [16]float64
	translation [3]float64
	rotation    [4]float64
	scale       [3]float64
}

// defaultTransform is what qmuntal/gltf decodes a node without a
// transform to.
var defaultTransform = loadedTransform{matrix: gltf.DefaultMatrix, rotation: gltf.DefaultRotation, scale: gltf.DefaultScale}

func newLoadedNode(n *gltf.Node) loadedNode {
	l := loadedNode{name: n.Name, children: slices.Clone(n.Children)}
	if n.Matrix != defaultTransform.matrix || n.Translation != defaultTransform.translation ||
		n.Rotation != defaultTransform.rotation || n.Scale != defaultTransform.scale {
		l.xf = &loadedTransform{n.Matrix, n.Translation, n.Rotation, n.Scale}
	}
	return l
}

// node returns the node as it was decoded: name, children, transform.
func (l loadedNode) node() gltf.Node {
	xf := &defaultTransform
	if l.xf != nil {
		xf = l.xf
	}
	return gltf.Node{Name: l.name, Children: l.children, Matrix: xf.matrix, Translation: xf.translation, Rotation: xf.rotation, Scale: xf.scale}
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

const glbMagic = corecheck.GLBMagic

// Decode reads a glTF document from data (a .gltf JSON text or a .glb
// container). External buffers are read from dir; dir may be nil when the
// document has none. Whatever the Khronos glTF-Validator reports as a problem
// becomes a finding with its issue code (corecheck); only input that cannot be
// read at all is an error (a *LoadError, with the code).
func Decode(data []byte, dir iofs.FS) (*Document, error) {
	res, err := corecheck.Decode(data, dir, corecheck.Options{Known: knownExtension})
	if err != nil {
		return nil, err
	}
	d := &Document{GLTF: res.GLTF, missingBuffers: res.MissingBuffers, loadOmitted: res.Omitted, reads: &readLedger{}}
	d.source.json, d.source.bin, d.source.glb, d.source.chunks = res.JSON, res.BIN, res.GLB, res.Chunks
	d.scanned = res.ScannedBytes
	d.source.loadedNodes = make([]loadedNode, len(res.GLTF.Nodes))
	for i, n := range res.GLTF.Nodes {
		if n != nil {
			d.source.loadedNodes[i] = newLoadedNode(n)
		}
	}
	d.recordCounts()
	fs := findings(res.Findings)
	d.decodeGeometry(&fs) // Draco and meshopt (geometry.go)
	d.checkDecodedGeometry(&fs)
	d.decodeExtensions(&fs)
	d.loadFindings = fs
	d.Validate()
	d.recordBaseline()
	return d, nil
}

// Load reads a .gltf or .glb file with its external buffers. Problems the
// user can still look at become findings; only input that cannot be read as
// glTF at all is an error, and it names the file.
//
// A save of this program renames a .gltf's new resources into place before
// the new .gltf (save_atomic.go): a read that falls between the two could
// pair the old .gltf with a new .bin. Load tells it by the save's journal
// beside the file (there from before the first rename to after the last)
// or by the file having been replaced while it was read, and then reads
// once more, after the save is done (up to LoadRetryWait).
func Load(path string) (*Document, error) {
	before, _ := os.Stat(path)
	d, err := load(path)
	if err != nil || !saveCrossed(path, before) {
		return d, err
	}
	waitSaveDone(path, LoadRetryWait)
	return load(path)
}

// LoadRetryWait is how long Load waits for a save of the file it read
// while it was read to finish before it reads it again.
const LoadRetryWait = time.Second

// saveCrossed reports whether a save of this program may have replaced
// some of path's files while they were read: its journal is there, or the
// file is no longer the one stat'ed before (before: nil when it was not).
func saveCrossed(path string, before os.FileInfo) bool {
	if _, err := os.Stat(journalPath(throughLinks(path))); err == nil {
		return true
	}
	now, err := os.Stat(path)
	return before != nil && err == nil && !os.SameFile(before, now)
}

// waitSaveDone waits up to wait for the journal of a save of path to go
// (a killed save's stays: the window's open or the next save finishes it).
func waitSaveDone(path string, wait time.Duration) {
	jp := journalPath(throughLinks(path))
	for deadline := time.Now().Add(wait); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(jp); err != nil {
			return
		}
	}
}

// load is Load without the check for a save crossing the read.
func load(path string) (*Document, error) {
	data, err := corecheck.ReadRegular(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	if strings.EqualFold(filepath.Ext(path), ".glb") {
		if len(data) < 12 {
			le := loadErr("GLB_UNEXPECTED_END_OF_HEADER", "truncated GLB: %d bytes, the header alone needs 12", len(data))
			le.Offset = int64(len(data))
			return nil, fmt.Errorf("%s: %w", path, le)
		}
		if binary.LittleEndian.Uint32(data) != glbMagic && data[0] != '{' {
			return nil, fmt.Errorf("%s: %w", path, loadErr("GLB_INVALID_MAGIC", "not a GLB: the file does not start with \"glTF\""))
		}
	}
	d, err := Decode(data, FolderFS(filepath.Dir(path)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	d.Path = path
	d.source.dir = filepath.Dir(path)
	d.source.path = path
	return d, nil
}

func unwrapPathError(err error) error {
	var pe *iofs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
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
				fs.errorf("UNRESOLVED_REFERENCE", fmt.Sprintf("/nodes/%d/children/%d", i, ci), "child node %d does not exist (the file has %d nodes)", c, len(doc.Nodes))
			case parent[c] >= 0:
				fs.errorf("NODE_PARENT_OVERRIDE", fmt.Sprintf("/nodes/%d/children/%d", i, ci), "node %d already has parent %d; a node may have one parent", c, parent[c])
			case c == i:
				fs.errorf("NODE_LOOP", fmt.Sprintf("/nodes/%d", i), "node %d lists itself as a child", i)
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
				fs.errorf("NODE_LOOP", fmt.Sprintf("/nodes/%d", i), "node %d is part of a cycle in the node hierarchy", i)
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
