package scene

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"unsafe"

	"github.com/qmuntal/gltf"
)

// DrawMode is how a primitive's vertices form shapes. Triangle strips and
// fans are turned into triangle lists when the primitive is read, so only
// these remain.
type DrawMode int

// Draw modes after reading.
const (
	DrawTriangles DrawMode = iota + 1
	DrawLines
	DrawLineStrip
	DrawLineLoop
	DrawPoints
)

// PrimitiveData is one mesh primitive's vertex data, ready to upload:
// every attribute has one entry per vertex, as float32.
type PrimitiveData struct {
	Mode      DrawMode
	Positions [][3]float32
	// Normals are the file's, or flat face normals computed when it has none
	// (then the triangles are de-indexed so each face has its own vertices).
	Normals [][3]float32
	// Tangents are the file's, or computed from UV0 when the material has a
	// normal texture and the file has none; nil otherwise.
	Tangents [][4]float32
	UV0, UV1 [][2]float32
	// Colors is COLOR_0 as linear RGBA, nil if absent.
	Colors [][4]float32
	// Indices is nil for non-indexed primitives.
	Indices []uint32
	// Material is the glTF material index, -1 for the default material.
	Material int
	// Min and Max bound the positions (in the mesh's local space).
	Min, Max [3]float32
	// Source is, for each vertex, the file's vertex it was copied from when
	// flat normals de-indexed the primitive; nil when the vertices are the
	// file's own (skin and morph data are per file vertex).
	Source []uint32
}

// ReadPrimitive reads primitive p of mesh m. A malformed accessor gives an
// error naming it, never a panic.
func (d *Document) ReadPrimitive(m, p int) (pd *PrimitiveData, err error) {
	doc := d.GLTF
	if m < 0 || m >= len(doc.Meshes) || p < 0 || p >= len(doc.Meshes[m].Primitives) {
		return nil, fmt.Errorf("mesh %d primitive %d does not exist", m, p)
	}
	defer func() {
		// A safety net: the readers check every offset, but a malformed
		// accessor must never take the process down.
		if r := recover(); r != nil {
			pd, err = nil, fmt.Errorf("mesh %d primitive %d: malformed accessor data (%v)", m, p, r)
		}
	}()
	prim := doc.Meshes[m].Primitives[p]
	pd = &PrimitiveData{Material: -1}
	if prim.Material != nil {
		pd.Material = *prim.Material
	}
	pi, ok := prim.Attributes[gltf.POSITION]
	if !ok {
		return nil, fmt.Errorf("mesh %d primitive %d has no POSITION", m, p)
	}
	if pi < 0 || pi >= len(doc.Accessors) {
		return nil, fmt.Errorf("mesh %d primitive %d: POSITION accessor %d does not exist", m, p, pi)
	}
	if r, ok := d.primitiveMissingData(prim); ok {
		// Drawn without, a primitive would look whole with parts of it
		// gone: it is not drawn, and the error names the file.
		return nil, fmt.Errorf("mesh %d primitive %d: %w", m, p, r.err())
	}
	if d.accessorZeroFilled(pi) {
		// A valid file may declare billions of zeros; they draw nothing and
		// are never materialized.
		return nil, fmt.Errorf("mesh %d primitive %d: POSITION accessor %d has no bufferView: all %d positions are (0, 0, 0), nothing to draw", m, p, pi, doc.Accessors[pi].Count)
	}
	pos, err := d.readVecs(pi, 3)
	if err != nil {
		return nil, fmt.Errorf("mesh %d primitive %d: POSITION: %w", m, p, err)
	}
	n := len(pos) / 3
	pd.Positions = vec3s(pos)
	// The other attributes are read only when their count matches (so a
	// hostile count is never materialized); the wrong count drops them.
	attr := func(name string, comps int) []float32 {
		i, ok := prim.Attributes[name]
		if !ok || i < 0 || i >= len(doc.Accessors) || doc.Accessors[i].Count != n {
			return nil
		}
		v, err := d.readVecs(i, comps)
		if err != nil {
			return nil
		}
		return v
	}
	if v := attr(gltf.NORMAL, 3); v != nil {
		pd.Normals = vec3s(v)
	}
	if v := attr(gltf.TANGENT, 4); v != nil {
		pd.Tangents = vec4s(v)
	}
	if v := attr(gltf.TEXCOORD_0, 2); v != nil {
		pd.UV0 = vec2s(v)
	}
	if v := attr(gltf.TEXCOORD_1, 2); v != nil {
		pd.UV1 = vec2s(v)
	}
	if i, ok := prim.Attributes[gltf.COLOR_0]; ok && i >= 0 && i < len(doc.Accessors) && doc.Accessors[i].Count == n {
		pd.Colors = d.readColors(i)
	}
	if prim.Indices != nil {
		if d.accessorZeroFilled(*prim.Indices) {
			return nil, fmt.Errorf("mesh %d primitive %d: indices accessor %d has no bufferView: every index is 0, nothing to draw", m, p, *prim.Indices)
		}
		if pd.Indices, err = d.AccessorIndices(*prim.Indices); err != nil {
			return nil, fmt.Errorf("mesh %d primitive %d: indices: %w", m, p, err)
		}
		for _, ix := range pd.Indices {
			if int(ix) >= n {
				return nil, fmt.Errorf("mesh %d primitive %d: index %d is past the %d vertices", m, p, ix, n)
			}
		}
	}

	switch prim.Mode {
	case gltf.PrimitiveTriangles:
		pd.Mode = DrawTriangles
	case gltf.PrimitiveTriangleStrip, gltf.PrimitiveTriangleFan:
		pd.Mode = DrawTriangles
		pd.Indices = triangulate(prim.Mode, pd.Indices, n)
	case gltf.PrimitiveLines:
		pd.Mode = DrawLines
	case gltf.PrimitiveLineStrip:
		pd.Mode = DrawLineStrip
	case gltf.PrimitiveLineLoop:
		pd.Mode = DrawLineLoop
	case gltf.PrimitivePoints:
		pd.Mode = DrawPoints
	default:
		return nil, fmt.Errorf("mesh %d primitive %d: unknown mode %d", m, p, prim.Mode)
	}
	if pd.Mode == DrawTriangles && pd.Normals == nil {
		// Flat normals give every corner its own vertex: bound what that
		// reserves (up to 72 bytes a corner) before it is reserved.
		corners := len(pd.Positions)
		if pd.Indices != nil {
			corners = len(pd.Indices)
		}
		if int64(corners)*72 > AccessorBudget {
			return nil, fmt.Errorf("mesh %d primitive %d: %d triangle corners without normals need more than the %d MB budget", m, p, corners, AccessorBudget>>20)
		}
		if err := d.chargeDerived(m, p, int64(corners)*72); err != nil {
			return nil, err
		}
		pd.flatNormals()
	}
	if pd.Mode == DrawTriangles && pd.Tangents == nil && pd.UV0 != nil && d.hasNormalTexture(pd.Material) {
		pd.computeTangents()
	}
	pd.bounds()
	return pd, nil
}

// ReadTexCoords reads TEXCOORD_set of primitive p of mesh m for the
// vertices of pd, which ReadPrimitive read from that primitive (through
// pd.Source when flat normals de-indexed it). ReadPrimitive reads sets 0 and
// 1; the renderer reads a higher set a material samples (glTF-Transform's
// palette puts its texture on the next free set, TEXCOORD_2 on a mesh with
// two). Nil when the primitive has no such set, its count differs from the
// positions' or it cannot be read.
func (d *Document) ReadTexCoords(m, p, set int, pd *PrimitiveData) [][2]float32 {
	doc := d.GLTF
	if set < 0 || pd == nil || m < 0 || m >= len(doc.Meshes) || p < 0 || p >= len(doc.Meshes[m].Primitives) {
		return nil
	}
	i, ok := doc.Meshes[m].Primitives[p].Attributes[fmt.Sprintf("TEXCOORD_%d", set)]
	pi, okp := doc.Meshes[m].Primitives[p].Attributes[gltf.POSITION]
	if !ok || !okp || i < 0 || i >= len(doc.Accessors) || pi < 0 || pi >= len(doc.Accessors) || doc.Accessors[i].Count != doc.Accessors[pi].Count {
		return nil
	}
	v, err := d.readVecs(i, 2)
	if err != nil {
		return nil
	}
	uv := vec2s(v)
	if pd.Source == nil {
		if len(uv) != len(pd.Positions) {
			return nil
		}
		return uv
	}
	out := make([][2]float32, len(pd.Source))
	for k, src := range pd.Source {
		if int(src) >= len(uv) {
			return nil
		}
		out[k] = uv[src]
	}
	return out
}

// missingRead is an accessor of a primitive that reads a buffer without
// data: what it is ("POSITION", "indices", "morph target 0 NORMAL"), the
// accessor, the buffer and why it has none.
type missingRead struct {
	what             string
	accessor, buffer int
	why              string
}

func (r missingRead) err() error {
	return fmt.Errorf("%s accessor %d: %w", r.what, r.accessor, missingBufferError(r.buffer, r.why))
}

// primitiveMissingData returns the first accessor of prim (attributes in
// name order, then indices, then morph targets) that reads a buffer without
// data (MissingBuffer); ok is false when none does.
func (d *Document) primitiveMissingData(prim *gltf.Primitive) (r missingRead, ok bool) {
	if len(d.missingBuffers) == 0 {
		return r, false
	}
	check := func(what string, attrs gltf.PrimitiveAttributes) (missingRead, bool) {
		for _, name := range slices.Sorted(maps.Keys(attrs)) {
			if b, why, ok := d.MissingBuffer(attrs[name]); ok {
				return missingRead{what + name, attrs[name], b, why}, true
			}
		}
		return missingRead{}, false
	}
	if r, ok := check("", prim.Attributes); ok {
		return r, true
	}
	if prim.Indices != nil {
		if b, why, ok := d.MissingBuffer(*prim.Indices); ok {
			return missingRead{"indices", *prim.Indices, b, why}, true
		}
	}
	for t, target := range prim.Targets {
		if r, ok := check(fmt.Sprintf("morph target %d ", t), target); ok {
			return r, true
		}
	}
	return r, false
}

// readVecs reads accessor i as vectors of want components (normalized
// integers mapped to floats, as KHR_mesh_quantization allows for positions,
// normals, tangents and texture coordinates).
func (d *Document) readVecs(i, want int) ([]float32, error) {
	vals, comps, err := d.AccessorFloats(i, true)
	if err != nil {
		return nil, err
	}
	if comps != want {
		return nil, fmt.Errorf("accessor %d has %d components, %d expected", i, comps, want)
	}
	return vals, nil
}

// vec2s, vec3s and vec4s view flat values as vectors, without a copy
// (an array of float32 arrays has the same layout as the flat slice).
func vec2s(v []float32) [][2]float32 {
	if len(v) < 2 {
		return [][2]float32{}
	}
	return unsafe.Slice((*[2]float32)(unsafe.Pointer(&v[0])), len(v)/2)
}

func vec3s(v []float32) [][3]float32 {
	if len(v) < 3 {
		return [][3]float32{}
	}
	return unsafe.Slice((*[3]float32)(unsafe.Pointer(&v[0])), len(v)/3)
}

func vec4s(v []float32) [][4]float32 {
	if len(v) < 4 {
		return [][4]float32{}
	}
	return unsafe.Slice((*[4]float32)(unsafe.Pointer(&v[0])), len(v)/4)
}

// readColors reads COLOR_0 (RGB or RGBA, float or normalized integers) as
// RGBA; nil when it cannot be read.
func (d *Document) readColors(i int) [][4]float32 {
	vals, comps, err := d.AccessorFloats(i, true)
	if err != nil || (comps != 3 && comps != 4) {
		return nil
	}
	out := make([][4]float32, len(vals)/comps)
	for e := range out {
		c := vals[e*comps:]
		out[e] = [4]float32{c[0], c[1], c[2], 1}
		if comps == 4 {
			out[e][3] = c[3]
		}
	}
	return out
}

// triangulate turns a strip or fan into a triangle list.
func triangulate(mode gltf.PrimitiveMode, idx []uint32, n int) []uint32 {
	at := func(i int) uint32 {
		if idx == nil {
			return uint32(i)
		}
		return idx[i]
	}
	count := n
	if idx != nil {
		count = len(idx)
	}
	var out []uint32
	for i := 2; i < count; i++ {
		if mode == gltf.PrimitiveTriangleFan {
			out = append(out, at(0), at(i-1), at(i))
		} else if i%2 == 0 {
			out = append(out, at(i-2), at(i-1), at(i))
		} else {
			out = append(out, at(i-1), at(i-2), at(i))
		}
	}
	if out == nil {
		out = []uint32{}
	}
	return out
}

func (d *Document) hasNormalTexture(mat int) bool {
	return mat >= 0 && mat < len(d.GLTF.Materials) && d.GLTF.Materials[mat].NormalTexture != nil
}

// flatNormals de-indexes the triangles and gives each face its own normal.
func (pd *PrimitiveData) flatNormals() {
	idx := pd.Indices
	count := len(pd.Positions)
	if idx != nil {
		count = len(idx)
	}
	count -= count % 3
	at := func(i int) int {
		if idx == nil {
			return i
		}
		return int(idx[i])
	}
	pos := make([][3]float32, count)
	nrm := make([][3]float32, count)
	srcs := make([]uint32, count)
	var uv0, uv1 [][2]float32
	var col [][4]float32
	var tan [][4]float32
	if pd.UV0 != nil {
		uv0 = make([][2]float32, count)
	}
	if pd.UV1 != nil {
		uv1 = make([][2]float32, count)
	}
	if pd.Colors != nil {
		col = make([][4]float32, count)
	}
	if pd.Tangents != nil {
		tan = make([][4]float32, count)
	}
	for t := 0; t < count; t += 3 {
		a, b, c := pd.Positions[at(t)], pd.Positions[at(t+1)], pd.Positions[at(t+2)]
		n := normalize(cross(sub(b, a), sub(c, a)))
		for k := 0; k < 3; k++ {
			src := at(t + k)
			srcs[t+k] = uint32(src)
			pos[t+k] = pd.Positions[src]
			nrm[t+k] = n
			if uv0 != nil {
				uv0[t+k] = pd.UV0[src]
			}
			if uv1 != nil {
				uv1[t+k] = pd.UV1[src]
			}
			if col != nil {
				col[t+k] = pd.Colors[src]
			}
			if tan != nil {
				tan[t+k] = pd.Tangents[src]
			}
		}
	}
	pd.Positions, pd.Normals, pd.UV0, pd.UV1, pd.Colors, pd.Tangents, pd.Indices = pos, nrm, uv0, uv1, col, tan, nil
	pd.Source = srcs
}

// computeTangents accumulates per-triangle tangents from UV0 (Lengyel's
// method) and orthogonalises them against the normals.
func (pd *PrimitiveData) computeTangents() {
	n := len(pd.Positions)
	tan := make([][3]float32, n)
	bit := make([][3]float32, n)
	count := n
	if pd.Indices != nil {
		count = len(pd.Indices)
	}
	at := func(i int) int {
		if pd.Indices == nil {
			return i
		}
		return int(pd.Indices[i])
	}
	for t := 0; t+2 < count; t += 3 {
		i0, i1, i2 := at(t), at(t+1), at(t+2)
		e1, e2 := sub(pd.Positions[i1], pd.Positions[i0]), sub(pd.Positions[i2], pd.Positions[i0])
		du1, dv1 := pd.UV0[i1][0]-pd.UV0[i0][0], pd.UV0[i1][1]-pd.UV0[i0][1]
		du2, dv2 := pd.UV0[i2][0]-pd.UV0[i0][0], pd.UV0[i2][1]-pd.UV0[i0][1]
		det := du1*dv2 - du2*dv1
		if det == 0 {
			continue
		}
		r := 1 / det
		tv := [3]float32{(e1[0]*dv2 - e2[0]*dv1) * r, (e1[1]*dv2 - e2[1]*dv1) * r, (e1[2]*dv2 - e2[2]*dv1) * r}
		bv := [3]float32{(e2[0]*du1 - e1[0]*du2) * r, (e2[1]*du1 - e1[1]*du2) * r, (e2[2]*du1 - e1[2]*du2) * r}
		for _, i := range []int{i0, i1, i2} {
			tan[i] = add(tan[i], tv)
			bit[i] = add(bit[i], bv)
		}
	}
	pd.Tangents = make([][4]float32, n)
	for i := range tan {
		nr := pd.Normals[i]
		t := normalize(sub(tan[i], scale(nr, dot(nr, tan[i]))))
		if t == ([3]float32{}) {
			t = anyPerpendicular(nr)
		}
		w := float32(1)
		if dot(cross(nr, t), bit[i]) < 0 {
			w = -1
		}
		pd.Tangents[i] = [4]float32{t[0], t[1], t[2], w}
	}
}

func (pd *PrimitiveData) bounds() {
	if len(pd.Positions) == 0 {
		return
	}
	pd.Min, pd.Max = pd.Positions[0], pd.Positions[0]
	for _, p := range pd.Positions[1:] {
		for k := 0; k < 3; k++ {
			pd.Min[k] = min(pd.Min[k], p[k])
			pd.Max[k] = max(pd.Max[k], p[k])
		}
	}
}

func sub(a, b [3]float32) [3]float32 { return [3]float32{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func add(a, b [3]float32) [3]float32 { return [3]float32{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func scale(a [3]float32, s float32) [3]float32 {
	return [3]float32{a[0] * s, a[1] * s, a[2] * s}
}
func dot(a, b [3]float32) float32 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func cross(a, b [3]float32) [3]float32 {
	return [3]float32{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}
func normalize(a [3]float32) [3]float32 {
	l := float32(math.Sqrt(float64(dot(a, a))))
	if l == 0 || math.IsNaN(float64(l)) {
		return [3]float32{}
	}
	return scale(a, 1/l)
}
func anyPerpendicular(n [3]float32) [3]float32 {
	if math.Abs(float64(n[0])) < 0.9 {
		return normalize(cross(n, [3]float32{1, 0, 0}))
	}
	return normalize(cross(n, [3]float32{0, 1, 0}))
}
