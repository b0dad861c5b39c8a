package scene

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"

	"physview/scene/decompose"
	"physview/scene/internal/jsonobj"
)

// A compound collider for a concave mesh: the mesh of a node is split into
// convex parts (scene/decompose), each part becomes a glTF mesh of its own
// (positions and triangles, appended to the file's buffers) and a child
// node of the body with a convex collider on that mesh.

// CompoundOptions are the settings of a decomposition (see
// decompose.Options; the hull is this package's ConvexHull).
type CompoundOptions struct {
	MaxHulls, MaxVertices, Resolution int
	Concavity                         float64
}

// DecomposeHull is ConvexHull for the decomposition.
func DecomposeHull(p []mgl64.Vec3) (*decompose.Hull, error) {
	h, err := ConvexHull(p)
	if err != nil {
		return nil, err
	}
	return (*decompose.Hull)(h), nil
}

// MeshTriangles returns the positions and triangles of mesh m's triangle
// primitives (strips and fans as triangles), in the mesh's space.
func (d *Document) MeshTriangles(m int) ([]mgl64.Vec3, [][3]uint32, error) {
	if m < 0 || m >= len(d.GLTF.Meshes) {
		return nil, nil, fmt.Errorf("mesh %d does not exist", m)
	}
	var pos []mgl64.Vec3
	var tris [][3]uint32
	for p, prim := range d.GLTF.Meshes[m].Primitives {
		switch prim.Mode {
		case gltf.PrimitiveTriangles, gltf.PrimitiveTriangleStrip, gltf.PrimitiveTriangleFan:
		default:
			continue
		}
		pd, err := d.ReadPrimitive(m, p)
		if err != nil {
			return nil, nil, err
		}
		base := uint32(len(pos))
		for _, v := range pd.Positions {
			pos = append(pos, mgl64.Vec3{float64(v[0]), float64(v[1]), float64(v[2])})
		}
		if pd.Indices == nil {
			for i := 0; i+2 < len(pd.Positions); i += 3 {
				tris = append(tris, [3]uint32{base + uint32(i), base + uint32(i+1), base + uint32(i+2)})
			}
			continue
		}
		for i := 0; i+2 < len(pd.Indices); i += 3 {
			tris = append(tris, [3]uint32{base + pd.Indices[i], base + pd.Indices[i+1], base + pd.Indices[i+2]})
		}
	}
	if len(tris) == 0 {
		return nil, nil, fmt.Errorf("mesh %d has no triangles", m)
	}
	return pos, tris, nil
}

// DecomposeNode splits the mesh of node n into convex parts, in the node's
// space. It stops when ctx is cancelled.
func (d *Document) DecomposeNode(ctx context.Context, n int, o CompoundOptions) (*decompose.Result, error) {
	in, err := d.CompoundInput(n)
	if err != nil {
		return nil, err
	}
	return in.Decompose(ctx, o)
}

// CompoundMesh is the mesh of a node, read for a decomposition: it no
// longer refers to the document, so it may be decomposed on another
// goroutine while the document is edited.
type CompoundMesh struct {
	Name string
	Pos  []mgl64.Vec3
	Tris [][3]uint32
}

// CompoundInput reads the triangles of node n's mesh.
func (d *Document) CompoundInput(n int) (*CompoundMesh, error) {
	if err := d.checkNode(n); err != nil {
		return nil, fmt.Errorf("fit compound: %w", err)
	}
	name := nodeLabel(d.GLTF.Nodes[n], n)
	if d.GLTF.Nodes[n].Mesh == nil {
		return nil, fmt.Errorf("fit compound to %s: the node has no mesh", name)
	}
	pos, tris, err := d.MeshTriangles(*d.GLTF.Nodes[n].Mesh)
	if err != nil {
		return nil, fmt.Errorf("fit compound to %s: %w", name, err)
	}
	return &CompoundMesh{Name: name, Pos: pos, Tris: tris}, nil
}

// Decompose splits the mesh into convex parts.
func (m *CompoundMesh) Decompose(ctx context.Context, o CompoundOptions) (*decompose.Result, error) {
	res, err := decompose.Decompose(ctx, m.Pos, m.Tris, decompose.Options{
		MaxHulls: o.MaxHulls, MaxVertices: o.MaxVertices, Resolution: o.Resolution, Concavity: o.Concavity, Hull: DecomposeHull,
	})
	if err != nil {
		return nil, fmt.Errorf("fit compound to %s: %w", m.Name, err)
	}
	return res, nil
}

// PartHulls returns the parts' hulls as this package's Hull.
func PartHulls(parts []decompose.Part) []*Hull {
	out := make([]*Hull, len(parts))
	for i, p := range parts {
		out[i] = (*Hull)(p.Hull)
	}
	return out
}

// FitCompoundEdit gives node n a compound collider of the given convex
// parts (hulls in n's space, as DecomposeNode returns them): for each part
// a mesh appended to the file and a child node with a convex collider on
// it. It is one edit; undoing it removes everything it added.
func (d *Document) FitCompoundEdit(n int, parts []*Hull) (Edit, error) {
	if err := d.checkNode(n); err != nil {
		return nil, fmt.Errorf("fit compound: %w", err)
	}
	if len(parts) == 0 {
		return nil, fmt.Errorf("fit compound to %s: no parts", nodeLabel(d.GLTF.Nodes[n], n))
	}
	if len(d.CompoundParts(n)) > 0 {
		// A compound fitted again replaces the one there: the new parts
		// are built against the document as the removal leaves it.
		rm, err := d.RemoveCompoundEdit(n)
		if err != nil {
			return nil, err
		}
		inv, _, err := rm.apply(d)
		if err != nil {
			return nil, fmt.Errorf("fit compound: %w", err)
		}
		fit, ferr := d.FitCompoundEdit(n, parts)
		if _, _, err := inv.apply(d); err != nil {
			return nil, fmt.Errorf("fit compound: %w", err)
		}
		if ferr != nil {
			return nil, ferr
		}
		label := fmt.Sprintf("Re-fit compound of %d convex hulls", len(parts))
		return Batch{Label: label, Edits: []Edit{rm, fit}}, nil
	}
	label := fmt.Sprintf("Fit compound of %d convex hulls", len(parts))
	geo := d.hullGeometry(parts)
	geo.label = label
	edits := []Edit{geo}
	name := d.NodeName(n)
	meshes := len(d.GLTF.Meshes)
	for i := range parts {
		edits = append(edits, AddChildNode{Parent: n, NodeName: fmt.Sprintf("%s hull %d", name, i+1), Transform: Transform{Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}}})
		s := DefaultShape(ShapeConvex)
		s.Mesh = meshes + i
		edits = append(edits,
			AddShape{Shape: s, Label: label},
			SetBody{Node: len(d.GLTF.Nodes) + i, Body: &Body{Collider: &Collider{Shape: len(d.Shapes) + i, PhysicsMaterial: -1, CollisionFilter: -1}}, Label: label},
		)
	}
	return Batch{Label: label, Edits: edits}, nil
}

// CompoundParts returns the children of node n that are parts of a
// compound: nodes without a mesh of their own whose collider is a convex
// shape.
func (d *Document) CompoundParts(n int) []int {
	if n < 0 || n >= len(d.GLTF.Nodes) {
		return nil
	}
	var out []int
	for _, c := range d.GLTF.Nodes[n].Children {
		if c < 0 || c >= len(d.Nodes) || d.GLTF.Nodes[c].Mesh != nil || len(d.GLTF.Nodes[c].Children) > 0 {
			continue
		}
		b := d.Nodes[c].Body
		if b == nil || b.Collider == nil || b.Motion != nil || b.Trigger != nil {
			continue
		}
		if s := b.Collider.Shape; s >= 0 && s < len(d.Shapes) && d.Shapes[s].Type == ShapeConvex {
			out = append(out, c)
		}
	}
	return out
}

// RemoveCompoundEdit removes node n's compound collider. When its part
// nodes, meshes and bytes are still the last things added to the document
// (it was fitted in this session and nothing was added since), all of it
// goes, as undoing the fit would. Otherwise the parts' colliders and shapes
// go and the part nodes and meshes stay, empty (a file's own nodes are
// never deleted: other files and tools may refer to them by index).
func (d *Document) RemoveCompoundEdit(n int) (Edit, error) {
	parts := d.CompoundParts(n)
	if len(parts) == 0 {
		return nil, fmt.Errorf("node %d has no compound collider", n)
	}
	label := fmt.Sprintf("Remove compound of %d convex hulls", len(parts))
	var edits []Edit
	// Shapes go from the last one down, so each index is still right.
	shapes := map[int]bool{}
	for _, c := range parts {
		edits = append(edits, SetBody{Node: c, Body: nil, Label: label})
		s := d.Nodes[c].Body.Collider.Shape
		if len(d.ShapeUsers(s)) == 1 {
			shapes[s] = true
		}
	}
	order := make([]int, 0, len(shapes))
	for s := range shapes {
		order = append(order, s)
	}
	slices.Sort(order)
	slices.Reverse(order)
	for _, s := range order {
		edits = append(edits, RemoveShape{Index: s, Label: label})
	}
	// The nodes and meshes added by a fit in this session.
	last := len(d.GLTF.Nodes) - 1
	tail := true
	for i := len(parts) - 1; i >= 0; i-- {
		if parts[i] != last || last < d.source.nodes {
			tail = false
			break
		}
		last--
	}
	if tail {
		for range parts {
			edits = append(edits, removeLastNode{label: label})
		}
		if g, ok := d.addedGeometry(parts); ok {
			edits = append(edits, g)
		}
	}
	return Batch{Label: label, Edits: edits}, nil
}

// addedGeometry returns the edit that removes the meshes of the given part
// nodes' shapes when they are the last meshes and were added this session.
func (d *Document) addedGeometry(parts []int) (Edit, bool) {
	first := math.MaxInt
	for _, c := range parts {
		m := d.Shapes[d.Nodes[c].Body.Collider.Shape].Mesh
		first = min(first, m)
	}
	if first < d.source.meshes || first+len(parts) != len(d.GLTF.Meshes) {
		return nil, false
	}
	// The meshes' accessors and views are the last ones as well.
	prim := d.GLTF.Meshes[first].Primitives[0]
	acc := prim.Attributes[gltf.POSITION]
	if prim.Indices != nil {
		acc = min(acc, *prim.Indices)
	}
	bv := d.GLTF.Accessors[acc].BufferView
	if acc < d.source.accessors || bv == nil || *bv < d.source.views {
		return nil, false
	}
	buf := d.GLTF.BufferViews[*bv].Buffer
	start := d.GLTF.BufferViews[*bv].ByteOffset
	st := geometryState{meshes: first, accessors: acc, views: *bv, buffers: len(d.GLTF.Buffers), buffer: buf}
	if buf >= d.source.buffers {
		// The fit added the buffer.
		st.buffers, st.buffer = buf, -1
	} else {
		// The bytes before start are the buffer's own, up to 3 of them
		// padding: the file's own length when the fit came right after it.
		st.length = start
		if orig := d.source.bufferLens[buf]; (orig+3)&^3 == start {
			st.length = orig
		}
		st.data = d.GLTF.Buffers[buf].Data[:st.length:st.length]
	}
	return truncateGeometry{state: st, label: "Remove compound meshes"}, true
}

// hullGeometry builds the edit that appends one mesh per hull: float
// positions and unsigned short indices, into the buffer the file keeps its
// data in (a .glb's BIN chunk, a .gltf's first .bin file) or a new .bin
// beside a .gltf that has none.
func (d *Document) hullGeometry(parts []*Hull) appendGeometry {
	g := appendGeometry{}
	g.buffer, g.uri = d.dataBuffer("compound", "_colliders")
	le := binary.LittleEndian
	var pos, idx []byte
	for i, h := range parts {
		lo := []float64{math.Inf(1), math.Inf(1), math.Inf(1)}
		hi := []float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
		posOff := len(pos)
		for _, p := range h.Points {
			for k := 0; k < 3; k++ {
				f := float32(p[k])
				pos = le.AppendUint32(pos, math.Float32bits(f))
				lo[k], hi[k] = math.Min(lo[k], float64(f)), math.Max(hi[k], float64(f))
			}
		}
		idxOff := len(idx)
		for _, f := range h.Faces {
			for _, v := range f {
				idx = le.AppendUint16(idx, uint16(v))
			}
		}
		pv, iv := 0, 1
		g.accessors = append(g.accessors,
			gltf.Accessor{BufferView: &pv, ByteOffset: posOff, ComponentType: gltf.ComponentFloat, Count: len(h.Points), Type: gltf.AccessorVec3, Min: lo, Max: hi},
			gltf.Accessor{BufferView: &iv, ByteOffset: idxOff, ComponentType: gltf.ComponentUshort, Count: 3 * len(h.Faces), Type: gltf.AccessorScalar},
		)
		a := 2 * i
		ind := a + 1
		g.meshes = append(g.meshes, gltf.Mesh{Name: fmt.Sprintf("hull %d", i+1), Primitives: []*gltf.Primitive{{Attributes: gltf.PrimitiveAttributes{gltf.POSITION: a}, Indices: &ind, Mode: gltf.PrimitiveTriangles}}})
	}
	for len(pos)%4 != 0 {
		pos = append(pos, 0)
	}
	g.views = []gltf.BufferView{
		{ByteOffset: 0, ByteLength: len(pos), ByteStride: 12, Target: gltf.TargetArrayBuffer},
		{ByteOffset: len(pos), ByteLength: len(idx), Target: gltf.TargetElementArrayBuffer},
	}
	g.data = append(pos, idx...)
	return g
}

// dataBuffer chooses where an edit appends new data: the buffer the file
// keeps its data in (a .glb's BIN chunk, a .gltf's first .bin file), or
// -1 and the uri of a new .bin beside a .gltf that has none (named after
// the file, or stem, plus suffix).
func (d *Document) dataBuffer(stem, suffix string) (buffer int, uri string) {
	switch {
	case d.source.glb && len(d.GLTF.Buffers) > 0 && d.GLTF.Buffers[0].URI == "" && d.GLTF.Buffers[0].ByteLength >= 0 && len(d.GLTF.Buffers[0].Data) >= d.GLTF.Buffers[0].ByteLength:
		return 0, ""
	case d.source.glb && len(d.GLTF.Buffers) == 0:
		// A .glb with no BIN chunk gets one: a buffer without uri.
		return -1, ""
	}
	for i, b := range d.GLTF.Buffers {
		// Only a file that was read: one left without bytes (missing,
		// or its byteLength invalid) would be overwritten by the new
		// data alone.
		if isFileURI(b.URI) && b.ByteLength > 0 && len(b.Data) >= b.ByteLength {
			return i, ""
		}
	}
	if d.Path != "" {
		stem = strings.TrimSuffix(filepath.Base(d.Path), filepath.Ext(d.Path))
	}
	return -1, d.freeResourceName(stem + suffix)
}

// appendGeometry appends bytes to a buffer (buffer -1: a new one with
// uri), and buffer views, accessors and meshes that refer to them: view
// offsets are from the start of data, accessor views and mesh accessors
// count from the first one appended.
type appendGeometry struct {
	buffer    int
	uri       string
	data      []byte
	views     []gltf.BufferView
	accessors []gltf.Accessor
	meshes    []gltf.Mesh
	label     string
}

func (e appendGeometry) Name() string { return labelOr(e.label, "Add %d meshes", len(e.meshes)) }

func (e appendGeometry) apply(d *Document) (Edit, Change, error) {
	doc := d.GLTF
	st := geometryState{meshes: len(doc.Meshes), accessors: len(doc.Accessors), views: len(doc.BufferViews), buffers: len(doc.Buffers), buffer: e.buffer}
	buf := e.buffer
	if buf < 0 || buf >= len(doc.Buffers) {
		buf = len(doc.Buffers)
		doc.Buffers = append(doc.Buffers, &gltf.Buffer{URI: e.uri})
	} else {
		st.data, st.length = doc.Buffers[buf].Data, doc.Buffers[buf].ByteLength
	}
	b := doc.Buffers[buf]
	start := (b.ByteLength + 3) &^ 3
	// A new array: the old one may share its storage with the loaded file.
	data := make([]byte, start, start+len(e.data))
	copy(data, b.Data[:min(len(b.Data), b.ByteLength)])
	data = append(data, e.data...)
	b.Data, b.ByteLength = data, len(data)
	for _, v := range e.views {
		v.Buffer = buf
		v.ByteOffset += start
		doc.BufferViews = append(doc.BufferViews, &v)
	}
	for _, a := range e.accessors {
		if a.BufferView != nil {
			bv := *a.BufferView + st.views
			a.BufferView = &bv
		}
		a.Min, a.Max = slices.Clone(a.Min), slices.Clone(a.Max)
		doc.Accessors = append(doc.Accessors, &a)
	}
	for _, m := range e.meshes {
		mm := gltf.Mesh{Name: m.Name}
		for _, p := range m.Primitives {
			np := &gltf.Primitive{Attributes: gltf.PrimitiveAttributes{}, Mode: p.Mode}
			for k, v := range p.Attributes {
				np.Attributes[k] = v + st.accessors
			}
			if p.Indices != nil {
				i := *p.Indices + st.accessors
				np.Indices = &i
			}
			mm.Primitives = append(mm.Primitives, np)
		}
		doc.Meshes = append(doc.Meshes, &mm)
	}
	return truncateGeometry{state: st, redo: e, label: e.Name()}, Change{Structure: true}, nil
}

// geometryState is what appendGeometry found: the lengths to cut back to
// and the buffer's old bytes.
type geometryState struct {
	meshes, accessors, views, buffers int
	buffer                            int
	data                              []byte
	length                            int
}

// truncateGeometry undoes appendGeometry.
type truncateGeometry struct {
	state geometryState
	redo  appendGeometry
	label string
}

func (e truncateGeometry) Name() string { return e.label }

func (e truncateGeometry) apply(d *Document) (Edit, Change, error) {
	doc, st := d.GLTF, e.state
	if len(doc.Meshes) < st.meshes || len(doc.Accessors) < st.accessors || len(doc.BufferViews) < st.views || len(doc.Buffers) < st.buffers {
		return nil, Change{}, fmt.Errorf("the added meshes are gone already")
	}
	redo := e.redo
	if redo.data == nil {
		// Removing geometry that came from an earlier session's fit:
		// keep what it takes to put it back.
		redo = d.geometryAfter(st)
	}
	doc.Meshes = doc.Meshes[:st.meshes]
	doc.Accessors = doc.Accessors[:st.accessors]
	doc.BufferViews = doc.BufferViews[:st.views]
	if st.buffer >= 0 && st.buffer < st.buffers {
		doc.Buffers[st.buffer].Data, doc.Buffers[st.buffer].ByteLength = st.data, st.length
	}
	doc.Buffers = doc.Buffers[:st.buffers]
	return redo, Change{Structure: true}, nil
}

// geometryAfter returns the appendGeometry that adds back what lies past
// st: the meshes, accessors and views and the buffer's tail.
func (d *Document) geometryAfter(st geometryState) appendGeometry {
	doc := d.GLTF
	g := appendGeometry{buffer: st.buffer, label: "Add compound meshes"}
	buf := st.buffer
	if buf < 0 || buf >= st.buffers {
		buf = st.buffers
		g.buffer = -1
		g.uri = doc.Buffers[buf].URI
	}
	start := (st.length + 3) &^ 3
	g.data = slices.Clone(doc.Buffers[buf].Data[start:doc.Buffers[buf].ByteLength])
	for _, v := range doc.BufferViews[st.views:] {
		nv := *v
		nv.ByteOffset -= start
		g.views = append(g.views, nv)
	}
	for _, a := range doc.Accessors[st.accessors:] {
		na := *a
		if na.BufferView != nil {
			bv := *na.BufferView - st.views
			na.BufferView = &bv
		}
		g.accessors = append(g.accessors, na)
	}
	for _, m := range doc.Meshes[st.meshes:] {
		nm := gltf.Mesh{Name: m.Name}
		for _, p := range m.Primitives {
			np := &gltf.Primitive{Attributes: gltf.PrimitiveAttributes{}, Mode: p.Mode}
			for k, v := range p.Attributes {
				np.Attributes[k] = v - st.accessors
			}
			if p.Indices != nil {
				i := *p.Indices - st.accessors
				np.Indices = &i
			}
			nm.Primitives = append(nm.Primitives, np)
		}
		g.meshes = append(g.meshes, nm)
	}
	return g
}

// recordCounts stores the lengths of the arrays the file has.
func (d *Document) recordCounts() {
	doc := d.GLTF
	s := &d.source
	s.nodes, s.meshes, s.accessors, s.views, s.buffers = len(doc.Nodes), len(doc.Meshes), len(doc.Accessors), len(doc.BufferViews), len(doc.Buffers)
	s.bufferLens = make([]int, len(doc.Buffers))
	for i, b := range doc.Buffers {
		s.bufferLens[i] = b.ByteLength
	}
}

// bufferChanged reports whether buffer i was added or grown by an edit.
func (d *Document) bufferChanged(i int) bool {
	return i >= d.source.buffers || i >= len(d.source.bufferLens) || d.GLTF.Buffers[i].ByteLength != d.source.bufferLens[i]
}

// appendNewGeometry adds to the JSON the accessors, buffer views, meshes
// and buffers an edit appended after the file's own, and writes the new
// byteLength of a buffer an edit grew. Nothing else changes: a document
// with no such edit is written as it was read.
func (d *Document) appendNewGeometry(root *jsonobj.Object) error {
	doc := d.GLTF
	for _, a := range []struct {
		key   string
		count int
		item  func(i int) any
	}{
		{"buffers", len(doc.Buffers), func(i int) any { return doc.Buffers[i] }},
		{"bufferViews", len(doc.BufferViews), func(i int) any { return doc.BufferViews[i] }},
		{"accessors", len(doc.Accessors), func(i int) any { return doc.Accessors[i] }},
		{"meshes", len(doc.Meshes), func(i int) any { return doc.Meshes[i] }},
		{"animations", len(doc.Animations), func(i int) any { return doc.Animations[i] }},
	} {
		var elems []json.RawMessage
		if raw, ok := root.Get(a.key); ok {
			var err error
			if elems, err = jsonobj.ParseArray(raw); err != nil {
				return fmt.Errorf("%s: %w", a.key, err)
			}
		}
		if a.count <= len(elems) {
			continue
		}
		for i := len(elems); i < a.count; i++ {
			b, err := json.Marshal(a.item(i))
			if err != nil {
				return fmt.Errorf("%s/%d: %w", a.key, i, err)
			}
			elems = append(elems, b)
		}
		root.Set(a.key, jsonobj.JoinArray(elems))
	}
	n := min(d.source.buffers, len(doc.Buffers))
	for i := 0; i < n; i++ {
		if !d.bufferChanged(i) {
			continue
		}
		if err := patchArray(root, "buffers", i+1, func(k int, b *jsonobj.Object) error {
			if k == i {
				return b.SetValue("byteLength", doc.Buffers[i].ByteLength)
			}
			return nil
		}); err != nil {
			return err
		}
	}
	return nil
}

// editedBuffers returns the external buffer files an edit grew or added,
// to be written beside the main file, except those already in have. A
// buffer file an earlier save rewrote is written again (an undone fit
// puts its old bytes back).
func (d *Document) editedBuffers(root *jsonobj.Object, outDir string, have []OutputFile) []OutputFile {
	var uris []string
	if raw, ok := root.Get("buffers"); ok {
		var bufs []struct {
			URI string `json:"uri"`
		}
		if json.Unmarshal(raw, &bufs) == nil {
			for _, b := range bufs {
				uris = append(uris, b.URI)
			}
		}
	}
	var out []OutputFile
	for i, b := range d.GLTF.Buffers {
		if i >= len(uris) || !isFileURI(uris[i]) {
			continue
		}
		u, err := url.PathUnescape(uris[i])
		if err != nil {
			continue
		}
		p := filepath.Join(outDir, filepath.FromSlash(u))
		if !d.bufferChanged(i) && !d.source.rewritten[p] {
			continue
		}
		if slices.ContainsFunc(have, func(f OutputFile) bool { return f.Path == p }) {
			continue
		}
		out = append(out, OutputFile{p, b.Data[:b.ByteLength]})
	}
	return out
}

// freeResourceName returns stem.bin, or stem_N.bin, whichever is neither a
// resource the document refers to nor a file beside it: a new buffer never
// takes over a file that is already there.
func (d *Document) freeResourceName(stem string) string {
	used := map[string]bool{}
	for _, b := range d.GLTF.Buffers {
		used[strings.ToLower(b.URI)] = true
	}
	for _, img := range d.GLTF.Images {
		used[strings.ToLower(img.URI)] = true
	}
	dir := d.source.dir
	if d.Path != "" {
		dir = filepath.Dir(d.Path)
	}
	free := func(name string) bool {
		if used[strings.ToLower(url.PathEscape(name))] {
			return false
		}
		if dir == "" {
			return true
		}
		_, err := os.Lstat(filepath.Join(dir, name))
		return errors.Is(err, fs.ErrNotExist)
	}
	name := stem + ".bin"
	for k := 1; !free(name); k++ {
		name = fmt.Sprintf("%s_%d.bin", stem, k)
	}
	return url.PathEscape(name)
}
