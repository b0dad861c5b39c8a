package scene

import (
	"fmt"
	"math"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"
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
		// qmuntal/gltf's accessor reader can still index out of range on
		// some malformed sparse accessors; report that as an error.
		if r := recover(); r != nil {
			pd, err = nil, fmt.Errorf("mesh %d primitive %d: malformed accessor data (%v)", m, p, r)
		}
	}()
	prim := doc.Meshes[m].Primitives[p]
	pd = &PrimitiveData{Material: -1}
	if prim.Material != nil {
		pd.Material = *prim.Material
	}
	acc := func(name string, i int) (*gltf.Accessor, error) {
		if i < 0 || i >= len(doc.Accessors) {
			return nil, fmt.Errorf("mesh %d primitive %d: %s accessor %d does not exist", m, p, name, i)
		}
		a := doc.Accessors[i]
		if err := checkAccessor(doc, a); err != nil {
			return nil, fmt.Errorf("mesh %d primitive %d: %s accessor %d: %w", m, p, name, i, err)
		}
		return a, nil
	}
	pi, ok := prim.Attributes[gltf.POSITION]
	if !ok {
		return nil, fmt.Errorf("mesh %d primitive %d has no POSITION", m, p)
	}
	a, err := acc("POSITION", pi)
	if err != nil {
		return nil, err
	}
	if pd.Positions, err = modeler.ReadPosition(doc, a, nil); err != nil {
		return nil, fmt.Errorf("mesh %d primitive %d: POSITION: %w", m, p, err)
	}
	n := len(pd.Positions)
	if i, ok := prim.Attributes[gltf.NORMAL]; ok {
		if a, err := acc("NORMAL", i); err == nil {
			pd.Normals, _ = modeler.ReadNormal(doc, a, nil)
		}
	}
	if i, ok := prim.Attributes[gltf.TANGENT]; ok {
		if a, err := acc("TANGENT", i); err == nil {
			pd.Tangents, _ = modeler.ReadTangent(doc, a, nil)
		}
	}
	if i, ok := prim.Attributes[gltf.TEXCOORD_0]; ok {
		if a, err := acc("TEXCOORD_0", i); err == nil {
			pd.UV0, _ = modeler.ReadTextureCoord(doc, a, nil)
		}
	}
	if i, ok := prim.Attributes[gltf.TEXCOORD_1]; ok {
		if a, err := acc("TEXCOORD_1", i); err == nil {
			pd.UV1, _ = modeler.ReadTextureCoord(doc, a, nil)
		}
	}
	if i, ok := prim.Attributes[gltf.COLOR_0]; ok {
		if a, err := acc("COLOR_0", i); err == nil {
			pd.Colors = readColors(doc, a)
		}
	}
	// Attributes of the wrong length are dropped rather than read past.
	if len(pd.Normals) != n {
		pd.Normals = nil
	}
	if len(pd.Tangents) != n {
		pd.Tangents = nil
	}
	if len(pd.UV0) != n {
		pd.UV0 = nil
	}
	if len(pd.UV1) != n {
		pd.UV1 = nil
	}
	if len(pd.Colors) != n {
		pd.Colors = nil
	}
	if prim.Indices != nil {
		a, err := acc("indices", *prim.Indices)
		if err != nil {
			return nil, err
		}
		if pd.Indices, err = modeler.ReadIndices(doc, a, nil); err != nil {
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
		pd.flatNormals()
	}
	if pd.Mode == DrawTriangles && pd.Tangents == nil && pd.UV0 != nil && d.hasNormalTexture(pd.Material) {
		pd.computeTangents()
	}
	pd.bounds()
	return pd, nil
}

// checkAccessor rejects accessors whose data would lie outside their buffer view.
func checkAccessor(doc *gltf.Document, a *gltf.Accessor) error {
	if a.BufferView == nil {
		return nil
	}
	v := *a.BufferView
	if v < 0 || v >= len(doc.BufferViews) {
		return fmt.Errorf("buffer view %d does not exist", v)
	}
	bv := doc.BufferViews[v]
	if bv.Buffer < 0 || bv.Buffer >= len(doc.Buffers) {
		return fmt.Errorf("buffer %d does not exist", bv.Buffer)
	}
	if bv.ByteOffset < 0 || bv.ByteLength < 0 || bv.ByteOffset+bv.ByteLength > len(doc.Buffers[bv.Buffer].Data) {
		return fmt.Errorf("buffer view %d reaches past the end of buffer %d", v, bv.Buffer)
	}
	elem := a.ComponentType.ByteSize() * a.Type.Components()
	stride := bv.ByteStride
	if stride == 0 {
		stride = elem
	}
	if a.Count > 0 && (a.ByteOffset < 0 || a.ByteOffset+stride*(a.Count-1)+elem > bv.ByteLength) {
		return fmt.Errorf("%d elements from byte %d do not fit in buffer view %d (%d bytes)", a.Count, a.ByteOffset, v, bv.ByteLength)
	}
	if s := a.Sparse; s != nil && (s.Count < 0 || s.Count > a.Count) {
		return fmt.Errorf("sparse count %d is out of range", s.Count)
	}
	return nil
}

func readColors(doc *gltf.Document, a *gltf.Accessor) [][4]float32 {
	raw, err := modeler.ReadAccessor(doc, a, nil)
	if err != nil {
		return nil
	}
	norm := func(v float32, max float32) float32 { return v / max }
	switch v := raw.(type) {
	case [][4]float32:
		return v
	case [][3]float32:
		out := make([][4]float32, len(v))
		for i, c := range v {
			out[i] = [4]float32{c[0], c[1], c[2], 1}
		}
		return out
	case [][4]uint8:
		out := make([][4]float32, len(v))
		for i, c := range v {
			out[i] = [4]float32{norm(float32(c[0]), 255), norm(float32(c[1]), 255), norm(float32(c[2]), 255), norm(float32(c[3]), 255)}
		}
		return out
	case [][3]uint8:
		out := make([][4]float32, len(v))
		for i, c := range v {
			out[i] = [4]float32{norm(float32(c[0]), 255), norm(float32(c[1]), 255), norm(float32(c[2]), 255), 1}
		}
		return out
	case [][4]uint16:
		out := make([][4]float32, len(v))
		for i, c := range v {
			out[i] = [4]float32{norm(float32(c[0]), 65535), norm(float32(c[1]), 65535), norm(float32(c[2]), 65535), norm(float32(c[3]), 65535)}
		}
		return out
	case [][3]uint16:
		out := make([][4]float32, len(v))
		for i, c := range v {
			out[i] = [4]float32{norm(float32(c[0]), 65535), norm(float32(c[1]), 65535), norm(float32(c[2]), 65535), 1}
		}
		return out
	}
	return nil
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
