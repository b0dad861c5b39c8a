package scene

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/qmuntal/gltf"

	"physview/scene/corecheck"
)

// AccessorBudget is the most memory one accessor may take once read (as
// float32 values or uint32 indices). A count, stride or length from a file
// that would need more is refused before anything is reserved, so a valid
// but absurd file (a zero-filled accessor of 4 billion elements) gives an
// error, not an out-of-memory crash.
const AccessorBudget = 1 << 30

// MaxUnbackedElements is the largest count of an accessor whose elements
// are not in the file (no bufferView: zeros plus sparse values). Its count
// is the only thing that says how much memory it takes, so it is bounded on
// its own (16,777,216 elements: a morph target of a very large mesh).
const MaxUnbackedElements = 1 << 24

// errZeroFilled says an accessor has no bufferView and no sparse values:
// every element is zero, and it is not materialized.
var errZeroFilled = errors.New("has no bufferView: every element is zero")

// componentCode returns the glTF code of a component type (5120 BYTE ..
// 5126 FLOAT).
func componentCode(c gltf.ComponentType) int {
	switch c {
	case gltf.ComponentByte:
		return 5120
	case gltf.ComponentUbyte:
		return 5121
	case gltf.ComponentShort:
		return 5122
	case gltf.ComponentUshort:
		return 5123
	case gltf.ComponentUint:
		return 5125
	}
	return 5126
}

// elementLayout returns the byte size of one element of a, with the column
// padding glTF gives matrices of 1- and 2-byte components, and the byte
// offset of each component within it.
func elementLayout(a *gltf.Accessor) (size int, offs []int) {
	cs := a.ComponentType.ByteSize()
	comps := a.Type.Components()
	cols, rows := 1, comps
	switch a.Type {
	case gltf.AccessorMat2:
		cols, rows = 2, 2
	case gltf.AccessorMat3:
		cols, rows = 3, 3
	case gltf.AccessorMat4:
		cols, rows = 4, 4
	}
	colBytes := rows * cs
	if cols > 1 && colBytes%4 != 0 {
		colBytes += 4 - colBytes%4
	}
	offs = make([]int, 0, comps)
	for c := 0; c < cols; c++ {
		for r := 0; r < rows; r++ {
			offs = append(offs, c*colBytes+r*cs)
		}
	}
	return cols * colBytes, offs
}

// BufferViewData returns the bytes of buffer view v: its slice of its
// buffer, or for an EXT_meshopt_compression / KHR_meshopt_compression view
// the decoded data (what the validator and every reader of accessors should
// see). It is an error when the view lies outside its buffer or its
// compressed data did not decode.
func (d *Document) BufferViewData(v int) ([]byte, error) {
	doc := d.GLTF
	if v < 0 || v >= len(doc.BufferViews) {
		return nil, fmt.Errorf("buffer view %d does not exist", v)
	}
	if g := d.geom; g != nil {
		if b, ok := g.views[v]; ok {
			return b, nil
		}
		if why, ok := g.failedViews[v]; ok {
			return nil, fmt.Errorf("buffer view %d: %s", v, why)
		}
	}
	bv := doc.BufferViews[v]
	if bv.Buffer < 0 || bv.Buffer >= len(doc.Buffers) {
		return nil, fmt.Errorf("buffer view %d: buffer %d does not exist", v, bv.Buffer)
	}
	if why, ok := d.missingBuffers[bv.Buffer]; ok {
		return nil, fmt.Errorf("buffer view %d: %w", v, missingBufferError(bv.Buffer, why))
	}
	data := doc.Buffers[bv.Buffer].Data
	if bv.ByteOffset < 0 || bv.ByteLength < 0 || int64(bv.ByteOffset)+int64(bv.ByteLength) > int64(len(data)) {
		return nil, fmt.Errorf("buffer view %d reaches past the end of buffer %d (%d bytes)", v, bv.Buffer, len(data))
	}
	return data[bv.ByteOffset : bv.ByteOffset+bv.ByteLength], nil
}

// DecodedAccessor returns the bytes of accessor i when they come from
// decoded KHR_draco_mesh_compression data: count elements tightly packed in
// the accessor's component type (no stride). ok is false for accessors read
// from their buffer view.
func (d *Document) DecodedAccessor(i int) (data []byte, ok bool) {
	if d.geom == nil {
		return nil, false
	}
	data, ok = d.geom.accessors[i]
	return data, ok
}

// accessorBytes returns where accessor i's elements are: data from byte 0
// in steps of stride, each elem bytes. errZeroFilled when it has neither
// data nor sparse values.
func (d *Document) accessorBytes(i int) (a *gltf.Accessor, data []byte, stride int, err error) {
	doc := d.GLTF
	if i < 0 || i >= len(doc.Accessors) || doc.Accessors[i] == nil {
		return nil, nil, 0, fmt.Errorf("accessor %d does not exist", i)
	}
	a = doc.Accessors[i]
	if a.Count < 0 {
		return a, nil, 0, fmt.Errorf("accessor %d: count %d is negative", i, a.Count)
	}
	elem, _ := elementLayout(a)
	if b, ok := d.DecodedAccessor(i); ok {
		if elem > 0 && a.Count > len(b)/elem {
			return a, nil, 0, fmt.Errorf("accessor %d: the decoded data has %d bytes, too few for %d elements of %d bytes", i, len(b), a.Count, elem)
		}
		return a, b, elem, nil
	}
	if g := d.geom; g != nil {
		if why, ok := g.failedAccessors[i]; ok {
			return a, nil, 0, fmt.Errorf("accessor %d: %s", i, why)
		}
	}
	if a.BufferView == nil {
		if a.Sparse == nil {
			return a, nil, elem, errZeroFilled
		}
		if a.Count > MaxUnbackedElements {
			return a, nil, 0, fmt.Errorf("accessor %d: count %d without a bufferView is over the budget of %d elements", i, a.Count, MaxUnbackedElements)
		}
		return a, nil, elem, nil
	}
	view, err := d.BufferViewData(*a.BufferView)
	if err != nil {
		return a, nil, 0, fmt.Errorf("accessor %d: %w", i, err)
	}
	stride = doc.BufferViews[*a.BufferView].ByteStride
	if stride == 0 {
		stride = elem
	}
	if stride < elem {
		return a, nil, 0, fmt.Errorf("accessor %d: byteStride %d is less than its %d-byte elements", i, stride, elem)
	}
	if a.ByteOffset < 0 || a.ByteOffset > len(view) || (a.Count > 0 && !corecheck.Fits(a.ByteOffset, stride, a.Count, elem, len(view))) {
		return a, nil, 0, fmt.Errorf("accessor %d: %d elements from byte %d do not fit in buffer view %d (%d bytes)", i, a.Count, a.ByteOffset, *a.BufferView, len(view))
	}
	return a, view[a.ByteOffset:], stride, nil
}

// component reads one component of type ct at b, as float64; normalized
// integers map to [0, 1] or [-1, 1] as glTF defines.
func component(ct gltf.ComponentType, b []byte, normalized bool) float64 {
	switch ct {
	case gltf.ComponentByte:
		v := float64(int8(b[0]))
		if normalized {
			return math.Max(v/127, -1)
		}
		return v
	case gltf.ComponentUbyte:
		v := float64(b[0])
		if normalized {
			return v / 255
		}
		return v
	case gltf.ComponentShort:
		v := float64(int16(binary.LittleEndian.Uint16(b)))
		if normalized {
			return math.Max(v/32767, -1)
		}
		return v
	case gltf.ComponentUshort:
		v := float64(binary.LittleEndian.Uint16(b))
		if normalized {
			return v / 65535
		}
		return v
	case gltf.ComponentUint:
		v := float64(binary.LittleEndian.Uint32(b))
		if normalized {
			return v / 4294967295
		}
		return v
	}
	return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
}

// AccessorFloats reads accessor i (plain, sparse, zero-filled, or decoded
// from Draco or meshopt data) as count*components float32 values.
// normalize applies the accessor's normalized flag; without it integers are
// returned as they are stored (what min and max are compared with). The
// memory it needs is checked against AccessorBudget first.
func (d *Document) AccessorFloats(i int, normalize bool) (vals []float32, comps int, err error) {
	a, data, stride, err := d.accessorBytes(i)
	zero := errors.Is(err, errZeroFilled)
	if err != nil && !zero {
		return nil, 0, err
	}
	comps = a.Type.Components()
	if zero && a.Count > MaxUnbackedElements {
		// Nothing in the file backs these zeros: only the count says how
		// much memory they would take, so it is bounded on its own.
		return nil, comps, fmt.Errorf("accessor %d: count %d without a bufferView is over the budget of %d elements", i, a.Count, MaxUnbackedElements)
	}
	if a.Count > AccessorBudget/(4*max(comps, 1)) {
		// Divided, not multiplied: a count from the file can overflow.
		return nil, comps, fmt.Errorf("accessor %d: %d elements of %d components need over the %d MB budget", i, a.Count, comps, AccessorBudget>>20)
	}
	kind := readFloats
	if normalize && a.Normalized {
		kind = readNormalized
	}
	if err := d.chargeRead(i, kind, int64(a.Count)*int64(comps)*4); err != nil {
		return nil, comps, err
	}
	vals = make([]float32, a.Count*comps)
	_, offs := elementLayout(a)
	norm := normalize && a.Normalized
	ct := a.ComponentType
	switch {
	case data == nil:
	case ct == gltf.ComponentFloat && len(offs) == comps && offs[comps-1] == 4*(comps-1):
		// The common case, without a switch per component.
		for e := 0; e < a.Count; e++ {
			b := data[e*stride : e*stride+4*comps]
			for c := range comps {
				vals[e*comps+c] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*c:]))
			}
		}
	default:
		for e := 0; e < a.Count; e++ {
			base := e * stride
			for c, o := range offs {
				vals[e*comps+c] = float32(component(ct, data[base+o:], norm))
			}
		}
	}
	if a.Sparse != nil {
		err := d.applySparse(i, a, func(at int, elem []byte) {
			for c, o := range offs {
				vals[at*comps+c] = float32(component(ct, elem[o:], norm))
			}
		})
		if err != nil {
			return nil, comps, err
		}
	}
	return vals, comps, nil
}

// applySparse calls set with each sparse element index of accessor a and
// the bytes of its value.
func (d *Document) applySparse(i int, a *gltf.Accessor, set func(at int, elem []byte)) error {
	s := a.Sparse
	if s.Count < 0 || s.Count > a.Count {
		return fmt.Errorf("accessor %d: sparse count %d is out of range", i, s.Count)
	}
	idxView, err := d.BufferViewData(s.Indices.BufferView)
	if err != nil {
		return fmt.Errorf("accessor %d: sparse indices: %w", i, err)
	}
	valView, err := d.BufferViewData(s.Values.BufferView)
	if err != nil {
		return fmt.Errorf("accessor %d: sparse values: %w", i, err)
	}
	is := s.Indices.ComponentType.ByteSize()
	switch s.Indices.ComponentType {
	case gltf.ComponentUbyte, gltf.ComponentUshort, gltf.ComponentUint:
	default:
		return fmt.Errorf("accessor %d: sparse indices must be unsigned integers", i)
	}
	elem, _ := elementLayout(a)
	if s.Indices.ByteOffset < 0 || (s.Count > 0 && !corecheck.Fits(s.Indices.ByteOffset, is, s.Count, is, len(idxView))) {
		return fmt.Errorf("accessor %d: %d sparse indices do not fit in buffer view %d", i, s.Count, s.Indices.BufferView)
	}
	if s.Values.ByteOffset < 0 || (s.Count > 0 && !corecheck.Fits(s.Values.ByteOffset, elem, s.Count, elem, len(valView))) {
		return fmt.Errorf("accessor %d: %d sparse values do not fit in buffer view %d", i, s.Count, s.Values.BufferView)
	}
	for k := 0; k < s.Count; k++ {
		at := int(component(s.Indices.ComponentType, idxView[s.Indices.ByteOffset+k*is:], false))
		if at < 0 || at >= a.Count {
			return fmt.Errorf("accessor %d: sparse index %d is past its %d elements", i, at, a.Count)
		}
		set(at, valView[s.Values.ByteOffset+k*elem:])
	}
	return nil
}

// accessorZeroFilled reports whether accessor i has no data at all (no
// bufferView, no sparse values, nothing decoded): every element is zero.
func (d *Document) accessorZeroFilled(i int) bool {
	_, _, _, err := d.accessorBytes(i)
	return errors.Is(err, errZeroFilled)
}

// AccessorIndices reads accessor i as vertex indices (an unsigned scalar
// accessor, plain, sparse or decoded).
func (d *Document) AccessorIndices(i int) ([]uint32, error) {
	a, data, stride, err := d.accessorBytes(i)
	zero := errors.Is(err, errZeroFilled)
	if err != nil && !zero {
		return nil, err
	}
	if a.Type != gltf.AccessorScalar {
		return nil, fmt.Errorf("accessor %d: indices must be SCALAR", i)
	}
	switch a.ComponentType {
	case gltf.ComponentUbyte, gltf.ComponentUshort, gltf.ComponentUint:
	default:
		return nil, fmt.Errorf("accessor %d: indices must be UNSIGNED_BYTE, UNSIGNED_SHORT or UNSIGNED_INT", i)
	}
	if a.Count > AccessorBudget/4 {
		return nil, fmt.Errorf("accessor %d: %d indices need over the %d MB budget", i, a.Count, AccessorBudget>>20)
	}
	if err := d.chargeRead(i, readIndices, int64(a.Count)*4); err != nil {
		return nil, err
	}
	out := make([]uint32, a.Count)
	switch {
	case data == nil:
	case a.ComponentType == gltf.ComponentUshort:
		for e := range out {
			out[e] = uint32(binary.LittleEndian.Uint16(data[e*stride:]))
		}
	case a.ComponentType == gltf.ComponentUint:
		for e := range out {
			out[e] = binary.LittleEndian.Uint32(data[e*stride:])
		}
	default:
		for e := range out {
			out[e] = uint32(data[e*stride])
		}
	}
	if a.Sparse != nil {
		err := d.applySparse(i, a, func(at int, elem []byte) {
			out[at] = uint32(component(a.ComponentType, elem, false))
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// PositionBounds returns the min and max a POSITION accessor declares, as
// the positions read: for a normalized accessor (KHR_mesh_quantization)
// the stored integers are mapped as its values are. ok is false when the
// accessor does not declare three of each, or they are not finite.
func PositionBounds(a *gltf.Accessor) (lo, hi [3]float64, ok bool) {
	if a == nil || len(a.Min) != 3 || len(a.Max) != 3 {
		return lo, hi, false
	}
	for k := 0; k < 3; k++ {
		lo[k], hi[k] = normalizeBound(a, a.Min[k]), normalizeBound(a, a.Max[k])
		if math.IsNaN(lo[k]) || math.IsInf(lo[k], 0) || math.IsNaN(hi[k]) || math.IsInf(hi[k], 0) {
			return lo, hi, false
		}
	}
	return lo, hi, true
}

// normalizeBound maps a declared min or max of a normalized accessor as
// its stored values are mapped.
func normalizeBound(a *gltf.Accessor, v float64) float64 {
	if !a.Normalized {
		return v
	}
	switch a.ComponentType {
	case gltf.ComponentByte:
		return math.Max(v/127, -1)
	case gltf.ComponentUbyte:
		return v / 255
	case gltf.ComponentShort:
		return math.Max(v/32767, -1)
	case gltf.ComponentUshort:
		return v / 65535
	}
	return v
}

// missingBufferError says that buffer b has no data, and why.
func missingBufferError(b int, why string) error {
	return fmt.Errorf("buffer %d has no data: %s", b, why)
}

// MissingBuffer returns the first buffer accessor i reads (through its
// buffer view or its sparse indices and values) that has no data because
// its file was not found when the document was read, its data URI does
// not decode, or the GLB's BIN chunk is cut off, with why ("its file a.bin was not found"); ok is false
// when the accessor reads none.
func (d *Document) MissingBuffer(i int) (buffer int, why string, ok bool) {
	doc := d.GLTF
	if len(d.missingBuffers) == 0 || i < 0 || i >= len(doc.Accessors) || doc.Accessors[i] == nil {
		return 0, "", false
	}
	a := doc.Accessors[i]
	views := []int{}
	if a.BufferView != nil {
		views = append(views, *a.BufferView)
	}
	if a.Sparse != nil {
		views = append(views, a.Sparse.Indices.BufferView, a.Sparse.Values.BufferView)
	}
	for _, v := range views {
		if v < 0 || v >= len(doc.BufferViews) || doc.BufferViews[v] == nil {
			continue
		}
		b := doc.BufferViews[v].Buffer
		if why, ok := d.missingBuffers[b]; ok {
			return b, why, true
		}
	}
	return 0, "", false
}

// MissingDataError says which buffer has no data because its file was not
// found or the GLB's BIN chunk is cut off (the first, by index), nil when
// every buffer that should have bytes has them: a conversion that writes
// them all cannot be made.
func (d *Document) MissingDataError() error {
	if len(d.missingBuffers) == 0 {
		return nil
	}
	i := slices.Min(slices.Collect(maps.Keys(d.missingBuffers)))
	return missingBufferError(i, d.missingBuffers[i])
}
