package scene

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"

	"github.com/qmuntal/gltf"

	"physview/scene/corecheck"
	"physview/scene/meshdec"

	"physview/internal/guard"
)

// Names of the compressed-geometry extensions the loader decodes.
const (
	extDraco        = "KHR_draco_mesh_compression"
	extMeshopt      = "EXT_meshopt_compression"
	extMeshoptKHR   = "KHR_meshopt_compression"
	extMeshQuantize = "KHR_mesh_quantization"
)

// geometry is what decoding compressed geometry left: the decoded buffer
// views (meshopt) and accessors (Draco), and why some did not decode. It
// is filled once while loading and only read afterwards (clones share it).
type geometry struct {
	views           map[int][]byte
	failedViews     map[int]string
	accessors       map[int][]byte
	failedAccessors map[int]string
}

// meshoptBlock is the EXT_meshopt_compression / KHR_meshopt_compression
// object of a buffer view.
type meshoptBlock struct {
	Buffer     int    `json:"buffer"`
	ByteOffset int    `json:"byteOffset"`
	ByteLength int    `json:"byteLength"`
	ByteStride int    `json:"byteStride"`
	Count      int    `json:"count"`
	Mode       string `json:"mode"`
	Filter     string `json:"filter"`
}

// dracoBlock is a primitive's KHR_draco_mesh_compression object.
type dracoBlock struct {
	BufferView *int           `json:"bufferView"`
	Attributes map[string]int `json:"attributes"`
}

// decodeGeometry decodes every meshopt buffer view and every Draco
// primitive of the document, so that accessors read the same whether their
// data was compressed or not. What does not decode is a finding; the
// uncompressed fallback is used where the file has one.
func (d *Document) decodeGeometry(fs *findings) {
	g := &geometry{views: map[int][]byte{}, failedViews: map[int]string{}, accessors: map[int][]byte{}, failedAccessors: map[int]string{}}
	d.geom = g
	doc := d.GLTF
	for v, bv := range doc.BufferViews {
		if bv == nil {
			continue
		}
		for _, name := range []string{extMeshoptKHR, extMeshopt} {
			raw, ok := rawExt(bv.Extensions, name)
			if !ok {
				continue
			}
			d.decodeMeshoptView(v, name, raw, fs)
			break
		}
	}
	d.decodeDraco(fs)
}

func (d *Document) decodeMeshoptView(v int, name string, raw json.RawMessage, fs *findings) {
	g := d.geom
	doc := d.GLTF
	p := fmt.Sprintf("/bufferViews/%d/extensions/%s", v, name)
	fail := func(format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		if fallbackUsable(doc, v) {
			fs.addc(Warning, "MESHOPT_DECODE_FAILED", p, "%s; the uncompressed fallback data is used", msg)
			return
		}
		g.failedViews[v] = msg
		fs.addc(Error, "MESHOPT_DECODE_FAILED", p, "%s; the geometry that uses it is not drawn", msg)
	}
	var b meshoptBlock
	if err := json.Unmarshal(raw, &b); err != nil {
		fail("%s does not read: %v", name, err)
		return
	}
	if b.Buffer < 0 || b.Buffer >= len(doc.Buffers) {
		fail("%s: buffer %d does not exist", name, b.Buffer)
		return
	}
	data := doc.Buffers[b.Buffer].Data
	if b.ByteOffset < 0 || b.ByteLength < 0 || int64(b.ByteOffset)+int64(b.ByteLength) > int64(len(data)) {
		fail("%s: bytes %d to %d are past the end of buffer %d (%d bytes)", name, b.ByteOffset, int64(b.ByteOffset)+int64(b.ByteLength), b.Buffer, len(data))
		return
	}
	out, err := meshdec.DecodeMeshopt(data[b.ByteOffset:b.ByteOffset+b.ByteLength], b.Count, b.ByteStride, b.Mode, b.Filter)
	if err != nil {
		fail("%v", err)
		return
	}
	if bl := doc.BufferViews[v].ByteLength; bl > len(out) {
		fail("%s decodes to %d bytes, less than the buffer view's byteLength %d", name, len(out), bl)
		return
	}
	g.views[v] = out
}

// fallbackUsable reports whether buffer view v has real bytes of its own.
func fallbackUsable(doc *gltf.Document, v int) bool {
	bv := doc.BufferViews[v]
	if bv.Buffer < 0 || bv.Buffer >= len(doc.Buffers) {
		return false
	}
	b := doc.Buffers[bv.Buffer]
	if isMeshoptFallback(b) {
		return false
	}
	return bv.ByteOffset >= 0 && bv.ByteLength > 0 && int64(bv.ByteOffset)+int64(bv.ByteLength) <= int64(len(b.Data))
}

// dracoJob is one Draco bitstream and the primitives that use it.
type dracoJob struct {
	view  int
	prims []PrimitiveRef
	mesh  *meshdec.DracoMesh
	err   error
}

func (d *Document) decodeDraco(fs *findings) {
	doc := d.GLTF
	jobs := map[int]*dracoJob{}
	var order []*dracoJob
	blocks := map[PrimitiveRef]dracoBlock{}
	for m, mesh := range doc.Meshes {
		if mesh == nil {
			continue
		}
		for p, prim := range mesh.Primitives {
			if prim == nil {
				continue
			}
			raw, ok := rawExt(prim.Extensions, extDraco)
			if !ok {
				continue
			}
			path := fmt.Sprintf("/meshes/%d/primitives/%d/extensions/%s", m, p, extDraco)
			var b dracoBlock
			if err := json.Unmarshal(raw, &b); err != nil || b.BufferView == nil {
				fs.addc(Error, "DRACO_DECODE_FAILED", path, "the block does not read (it needs bufferView and attributes)")
				continue
			}
			v := *b.BufferView
			if v < 0 || v >= len(doc.BufferViews) {
				fs.addc(Error, "DRACO_DECODE_FAILED", path+"/bufferView", "buffer view %d does not exist", v)
				continue
			}
			ref := PrimitiveRef{Mesh: m, Primitive: p}
			blocks[ref] = b
			j := jobs[v]
			if j == nil {
				j = &dracoJob{view: v}
				jobs[v] = j
				order = append(order, j)
			}
			j.prims = append(j.prims, ref)
		}
	}
	if len(order) == 0 {
		return
	}
	// Decode the bitstreams on all cores; the C decoder instances share
	// nothing.
	guard.Each(len(order), runtime.NumCPU(), func(i int) {
		j := order[i]
		data, err := d.BufferViewData(j.view)
		if err != nil {
			j.err = err
			return
		}
		j.mesh, j.err = meshdec.DecodeDraco(data)
	})
	for _, j := range order {
		for _, ref := range j.prims {
			d.useDraco(ref, blocks[ref], j, fs)
		}
		if j.mesh != nil {
			j.mesh.Close()
		}
	}
}

// useDraco stores the decoded attributes and indices of one primitive as
// the data of its accessors.
func (d *Document) useDraco(ref PrimitiveRef, b dracoBlock, j *dracoJob, fs *findings) {
	g := d.geom
	doc := d.GLTF
	prim := doc.Meshes[ref.Mesh].Primitives[ref.Primitive]
	path := fmt.Sprintf("/meshes/%d/primitives/%d/extensions/%s", ref.Mesh, ref.Primitive, extDraco)
	failAcc := func(acc int, msg string) {
		if acc < 0 || acc >= len(doc.Accessors) {
			return
		}
		if a := doc.Accessors[acc]; a.BufferView != nil {
			return // the uncompressed fallback is read instead
		}
		if _, ok := g.accessors[acc]; !ok {
			g.failedAccessors[acc] = msg
		}
	}
	if j.err != nil {
		msg := fmt.Sprintf("Draco data does not decode: %v", j.err)
		fallback := true
		for _, acc := range prim.Attributes {
			fallback = fallback && acc >= 0 && acc < len(doc.Accessors) && doc.Accessors[acc].BufferView != nil
		}
		if fallback {
			fs.addc(Warning, "DRACO_DECODE_FAILED", path, "%s; the uncompressed fallback data is used", msg)
			return
		}
		fs.addc(Error, "DRACO_DECODE_FAILED", path, "%s; the primitive is not drawn", msg)
		for _, acc := range prim.Attributes {
			failAcc(acc, msg)
		}
		if prim.Indices != nil {
			failAcc(*prim.Indices, msg)
		}
		return
	}
	m := j.mesh
	for name, uid := range b.Attributes {
		acc, ok := prim.Attributes[name]
		if !ok || acc < 0 || acc >= len(doc.Accessors) {
			fs.addc(Warning, "DRACO_DECODE_FAILED", path+"/attributes/"+name, "the primitive has no %s accessor for Draco attribute %d", name, uid)
			continue
		}
		a := doc.Accessors[acc]
		if a.Count != m.Points {
			msg := fmt.Sprintf("Draco decoded %d vertices, accessor %d (%s) has count %d", m.Points, acc, name, a.Count)
			fs.addc(Error, "DRACO_DECODE_FAILED", path+"/attributes/"+name, "%s", msg)
			failAcc(acc, msg)
			continue
		}
		data, err := m.Attribute(uid, componentCode(a.ComponentType), a.Type.Components())
		if err != nil {
			fs.addc(Error, "DRACO_DECODE_FAILED", path+"/attributes/"+name, "%v", err)
			failAcc(acc, err.Error())
			continue
		}
		g.accessors[acc] = data
	}
	if prim.Indices != nil && *prim.Indices >= 0 && *prim.Indices < len(doc.Accessors) {
		acc := *prim.Indices
		a := doc.Accessors[acc]
		idx, ierr := m.Indices(dracoVertices(doc, prim, b, m))
		switch {
		case ierr != nil:
			fs.addc(Error, "DRACO_DECODE_FAILED", path, "%v", ierr)
			failAcc(acc, ierr.Error())
		case m.Faces < 0:
			fs.addc(Error, "DRACO_DECODE_FAILED", path, "the Draco data is a point cloud but the primitive has indices")
			failAcc(acc, "the Draco data has no faces")
		case a.Count != len(idx):
			msg := fmt.Sprintf("Draco decoded %d indices, accessor %d has count %d", len(idx), acc, a.Count)
			fs.addc(Error, "DRACO_DECODE_FAILED", path, "%s", msg)
			failAcc(acc, msg)
		default:
			data, err := packIndices(idx, a.ComponentType)
			if err != nil {
				fs.addc(Error, "DRACO_DECODE_FAILED", path, "accessor %d: %v", acc, err)
				failAcc(acc, err.Error())
				break
			}
			g.accessors[acc] = data
		}
	}
}

// dracoVertices is the number of vertices a Draco primitive's indices
// address: Draco's point count when POSITION is in the stream, else the
// POSITION accessor's count (the attributes outside the stream are "processed
// as usual", and glTF-Transform keeps the vertex order when it leaves one
// out), -1 (Draco's count) when the primitive has no usable POSITION.
func dracoVertices(doc *gltf.Document, prim *gltf.Primitive, b dracoBlock, m *meshdec.DracoMesh) int {
	if _, in := b.Attributes[gltf.POSITION]; in {
		return m.Points
	}
	pi, ok := prim.Attributes[gltf.POSITION]
	if !ok || pi < 0 || pi >= len(doc.Accessors) || doc.Accessors[pi] == nil {
		return -1
	}
	return doc.Accessors[pi].Count
}

// packIndices writes indices in an index accessor's component type.
func packIndices(idx []uint32, ct gltf.ComponentType) ([]byte, error) {
	size := ct.ByteSize()
	limit := uint32(1<<(8*size) - 1)
	if size == 4 {
		limit = ^uint32(0)
	}
	out := make([]byte, len(idx)*size)
	for i, v := range idx {
		if v > limit {
			return nil, fmt.Errorf("index %d does not fit the accessor's component type", v)
		}
		switch ct {
		case gltf.ComponentUbyte:
			out[i] = byte(v)
		case gltf.ComponentUshort:
			binary.LittleEndian.PutUint16(out[2*i:], uint16(v))
		case gltf.ComponentUint:
			binary.LittleEndian.PutUint32(out[4*i:], v)
		default:
			return nil, fmt.Errorf("indices must be UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT")
		}
	}
	return out, nil
}

// checkDecodedGeometry validates what the Draco and meshopt decoders
// produced as plain accessors are validated (bounds against min and max,
// index ranges, unit normals and tangents): corecheck reads buffers, so it
// is given a shallow copy of the document in which each decoded accessor
// or buffer view reads from a buffer of its own holding the decoded bytes.
// The Khronos validator does not look inside compressed data.
func (d *Document) checkDecodedGeometry(fs *findings) {
	g := d.geom
	if g == nil || (len(g.accessors) == 0 && len(g.views) == 0) {
		return
	}
	doc := *d.GLTF
	doc.Buffers = slices.Clone(doc.Buffers)
	doc.BufferViews = slices.Clone(doc.BufferViews)
	doc.Accessors = slices.Clone(doc.Accessors)
	addBuffer := func(data []byte) int {
		doc.Buffers = append(doc.Buffers, &gltf.Buffer{ByteLength: len(data), Data: data})
		return len(doc.Buffers) - 1
	}
	for v, data := range g.views {
		if v < 0 || v >= len(doc.BufferViews) || doc.BufferViews[v] == nil {
			continue
		}
		bv := *doc.BufferViews[v]
		bv.Buffer, bv.ByteOffset, bv.ByteLength = addBuffer(data), 0, len(data)
		doc.BufferViews[v] = &bv
	}
	var checked []int
	for i, a := range doc.Accessors {
		if a == nil {
			continue
		}
		if data, ok := g.accessors[i]; ok {
			doc.BufferViews = append(doc.BufferViews, &gltf.BufferView{Buffer: addBuffer(data), ByteLength: len(data)})
			ac := *a
			ac.BufferView, ac.ByteOffset = gltf.Index(len(doc.BufferViews)-1), 0
			// Draco quantizes: the declared min and max are the source
			// data's, which decoded values miss by the quantization step.
			ac.Min, ac.Max = nil, nil
			doc.Accessors[i] = &ac
			checked = append(checked, i)
			continue
		}
		if a.BufferView != nil {
			if _, ok := g.views[*a.BufferView]; ok {
				checked = append(checked, i)
			}
		}
	}
	if len(checked) > 0 {
		*fs = append(*fs, corecheck.CheckDecodedData(&doc, checked)...)
	}
}
