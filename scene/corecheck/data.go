package corecheck

import (
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"slices"

	"github.com/qmuntal/gltf"

	"physview/internal/guard"
)

// accessorView reads the components of one accessor straight from its
// buffer's bytes. It is only made when every byte the accessor covers is
// there, so reading never goes out of range and nothing is allocated from
// the accessor's count.
type accessorView struct {
	a      *gltf.Accessor
	data   []byte
	stride int
	comps  int
	cs     int
	// sparse maps element index to the element's bytes in the values view.
	sparse map[int][]byte
}

// view returns a reader for accessor i, or nil when its bytes are not all
// present (no buffer view, a placeholder or remote buffer, out of range).
func dataView(doc *gltf.Document, i int) *accessorView {
	if i < 0 || i >= len(doc.Accessors) {
		return nil
	}
	a := doc.Accessors[i]
	cs := a.ComponentType.ByteSize()
	if a.BufferView == nil || cs == 0 || a.Count <= 0 || a.Type == gltf.AccessorMat2 || a.Type == gltf.AccessorMat3 {
		return nil
	}
	es := elementSize(a)
	data, stride := viewBytes(doc, *a.BufferView)
	if data == nil {
		return nil
	}
	if stride == 0 {
		stride = es
	}
	if stride < es || a.ByteOffset < 0 || (a.ByteOffset+(stride*0))%cs != 0 {
		return nil
	}
	if !Fits(a.ByteOffset, stride, a.Count, es, len(data)) {
		return nil
	}
	v := &accessorView{a: a, data: data[a.ByteOffset:], stride: stride, comps: a.Type.Components(), cs: cs}
	if sp := a.Sparse; sp != nil {
		ic := sp.Indices.ComponentType.ByteSize()
		idx, _ := viewBytes(doc, sp.Indices.BufferView)
		vals, _ := viewBytes(doc, sp.Values.BufferView)
		if idx == nil || vals == nil || ic == 0 || sp.Count <= 0 || sp.Count > a.Count ||
			!Fits(sp.Indices.ByteOffset, ic, sp.Count, ic, len(idx)) ||
			!Fits(sp.Values.ByteOffset, es, sp.Count, es, len(vals)) {
			return nil
		}
		v.sparse = make(map[int][]byte, sp.Count)
		for k := 0; k < sp.Count; k++ {
			e := int(readUint(idx[sp.Indices.ByteOffset+k*ic:], ic))
			v.sparse[e] = vals[sp.Values.ByteOffset+k*es:]
		}
	}
	return v
}

// Fits reports whether count elements of elem bytes, stride bytes apart
// from offset, lie within length bytes. Every value may come from a file
// (4 billion elements, a stride of 2^53): nothing is multiplied that could
// overflow.
func Fits(offset, stride, count, elem, length int) bool {
	if offset < 0 || stride < 0 || count < 1 || elem < 0 || length < 0 || offset > length {
		return false
	}
	room := length - offset - elem
	if room < 0 {
		return false
	}
	return count == 1 || stride == 0 || count-1 <= room/stride
}

func viewBytes(doc *gltf.Document, bvi int) ([]byte, int) {
	if bvi < 0 || bvi >= len(doc.BufferViews) {
		return nil, 0
	}
	bv := doc.BufferViews[bvi]
	if bv.Buffer < 0 || bv.Buffer >= len(doc.Buffers) {
		return nil, 0
	}
	buf := doc.Buffers[bv.Buffer].Data
	if bv.ByteOffset < 0 || bv.ByteLength <= 0 || int64(bv.ByteOffset)+int64(bv.ByteLength) > int64(len(buf)) {
		return nil, 0
	}
	return buf[bv.ByteOffset : bv.ByteOffset+bv.ByteLength], bv.ByteStride
}

func readUint(b []byte, size int) uint32 {
	switch size {
	case 1:
		return uint32(b[0])
	case 2:
		return uint32(binary.LittleEndian.Uint16(b))
	}
	return binary.LittleEndian.Uint32(b)
}

// raw returns component c of element e as stored (not normalized).
func (v *accessorView) raw(e, c int) float64 {
	base := v.data[e*v.stride:]
	if v.sparse != nil {
		if s, ok := v.sparse[e]; ok {
			base = s
		}
	}
	b := base[c*v.cs:] // MAT2 and MAT3 (padded columns) are never read
	switch v.a.ComponentType {
	case gltf.ComponentByte:
		return float64(int8(b[0]))
	case gltf.ComponentUbyte:
		return float64(b[0])
	case gltf.ComponentShort:
		return float64(int16(binary.LittleEndian.Uint16(b)))
	case gltf.ComponentUshort:
		return float64(binary.LittleEndian.Uint16(b))
	case gltf.ComponentUint:
		return float64(binary.LittleEndian.Uint32(b))
	}
	return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
}

// value returns the component as the shader sees it (normalized ints mapped
// to 0..1 or -1..1).
func (v *accessorView) value(e, c int) float64 {
	r := v.raw(e, c)
	if !v.a.Normalized {
		return r
	}
	switch v.a.ComponentType {
	case gltf.ComponentByte:
		return math.Max(r/127, -1)
	case gltf.ComponentUbyte:
		return r / 255
	case gltf.ComponentShort:
		return math.Max(r/32767, -1)
	case gltf.ComponentUshort:
		return r / 65535
	}
	return r
}

// ScanBudgetFloor and ScanBudgetFactor bound the bytes the bounds check
// reads from accessors, together: at most max(ScanBudgetFloor,
// ScanBudgetFactor x the bytes of the buffers). Accessors that do not
// overlap read each byte once; aliases of one view alike (same offset,
// stride, count and type) are read once for all; aliases that differ read
// what they overlap again, and past the budget are not checked (one
// ACCESSOR_DATA_NOT_CHECKED warning says how many).
const (
	ScanBudgetFloor  = 256 << 20
	ScanBudgetFactor = 4
)

// scanKey is what makes two accessors' bounds scans the same.
type scanKey struct {
	view, offset, stride, count int
	typ                         gltf.AccessorType
	ct                          gltf.ComponentType
}

// checkBounds checks every accessor's data against its declared min and
// max, the bulk of the work: each distinct scan once, on all cores, within
// the scan budget. It returns the bytes it read.
func checkBounds(doc *gltf.Document, fs *findings) int64 {
	var data int64
	for _, b := range doc.Buffers {
		data += int64(len(b.Data))
	}
	budget := max(ScanBudgetFloor, ScanBudgetFactor*data)
	views := make([]*accessorView, len(doc.Accessors))
	scanOf := make([]int, len(doc.Accessors)) // the scan an accessor reports
	var scans []int                           // accessors scanned, in order
	first := map[scanKey]int{}
	var read int64
	skipped, firstSkipped := 0, -1
	for i := range doc.Accessors {
		scanOf[i] = -1
		v := dataView(doc, i)
		if v == nil {
			continue
		}
		views[i] = v
		a := v.a
		key := scanKey{*a.BufferView, a.ByteOffset, v.stride, a.Count, a.Type, a.ComponentType}
		if v.sparse == nil {
			if j, ok := first[key]; ok {
				scanOf[i] = scanOf[j]
				continue
			}
		}
		size := int64(a.Count) * int64(elementSize(a))
		if read+size > budget {
			skipped++
			if firstSkipped < 0 {
				firstSkipped = i
			}
			continue
		}
		read += size
		if v.sparse == nil {
			first[key] = i
		}
		scanOf[i] = len(scans)
		scans = append(scans, i)
	}
	results := make([]*minMaxScan, len(scans))
	guard.Each(len(scans), runtime.GOMAXPROCS(0), func(k int) {
		results[k] = scanMinMax(views[scans[k]])
	})
	for i, k := range scanOf {
		if k >= 0 {
			reportMinMax(doc.Accessors[i], results[k], fmt.Sprintf("/accessors/%d", i), fs)
		}
	}
	if skipped > 0 {
		fs.addc(Warning, "ACCESSOR_DATA_NOT_CHECKED", fmt.Sprintf("/accessors/%d", firstSkipped),
			"the data of %d accessors (this one first) is not checked against min and max: the accessors read %.1f MB from %.1f MB of buffers, the budget is %.1f MB (they overlap)",
			skipped, float64(read)/(1<<20), float64(data)/(1<<20), float64(budget)/(1<<20))
	}
	return read
}

// maxDataFindings limits how many findings of one code one accessor gives.
const maxDataFindings = 1

// checkData checks accessor contents: bounds against min and max, finite
// floats, sparse indices, index ranges, colours, joints and weights, and
// animation inputs. It returns the bytes the bounds check read.
func checkData(doc *gltf.Document, fs *findings) (scanned int64) {
	scanned = checkBounds(doc, fs)
	for i, a := range doc.Accessors {
		if sp := a.Sparse; sp != nil {
			checkSparseIndices(doc, a, fmt.Sprintf("/accessors/%d/sparse", i), fs)
		}
	}
	// Data findings are reported where the accessor is used (its first
	// use, attributes in writers' order), as Khronos does.
	usedAs := map[int]string{}
	usedAt := map[int]string{}
	for mi, m := range doc.Meshes {
		for pi, pr := range m.Primitives {
			pp := fmt.Sprintf("/meshes/%d/primitives/%d", mi, pi)
			vertices := -1
			for _, sem := range writerAttrOrder(pr.Attributes) {
				ai := pr.Attributes[sem]
				if ai >= 0 && ai < len(doc.Accessors) {
					if vertices < 0 || doc.Accessors[ai].Count < vertices {
						vertices = doc.Accessors[ai].Count
					}
				}
				if _, seen := usedAt[ai]; !seen {
					usedAs[ai] = semanticBase(sem)
					usedAt[ai] = pp + "/attributes/" + jsonPointerEscape(sem)
				}
			}
			if pr.Indices != nil && vertices >= 0 {
				if v := dataView(doc, *pr.Indices); v != nil {
					checkIndices(v, pp+"/indices", vertices, fs)
				}
			}
		}
	}
	jointsOf := skinJointCounts(doc)
	for _, ai := range sortedAccessorKeys(usedAs) {
		v := dataView(doc, ai)
		if v == nil {
			continue
		}
		p := usedAt[ai]
		switch usedAs[ai] {
		case "COLOR":
			if v.a.ComponentType == gltf.ComponentFloat {
				forEach(v, func(e, c int, x float64) bool {
					if x < 0 || x > 1 {
						fs.addc(Error, "ACCESSOR_NON_CLAMPED", p, "element %d is not clamped to 0..1: %g", e*v.comps+c, x)
						return false
					}
					return true
				})
			}
		case "WEIGHTS":
			checkWeights(v, p, fs)
		case "JOINTS":
			checkJoints(v, p, jointsOf[ai], fs)
		}
	}
	for ai, an := range doc.Animations {
		for si, sm := range an.Samplers {
			if v := dataView(doc, sm.Input); v != nil && v.comps == 1 && v.a.ComponentType == gltf.ComponentFloat {
				checkAnimationInput(v, fmt.Sprintf("/animations/%d/samplers/%d/input", ai, si), fs)
			}
		}
		for ci, ch := range an.Channels {
			if ch.Target.Path != gltf.TRSRotation || ch.Sampler < 0 || ch.Sampler >= len(an.Samplers) {
				continue
			}
			sm := an.Samplers[ch.Sampler]
			if v := dataView(doc, sm.Output); v != nil && v.comps == 4 {
				checkQuaternions(v, fmt.Sprintf("/animations/%d/channels/%d/sampler", ai, ci), sm.Interpolation == gltf.InterpolationCubicSpline, fs)
			}
		}
	}
	return scanned
}

func semanticBase(sem string) string {
	for i := 0; i < len(sem); i++ {
		if sem[i] == '_' && i > 0 {
			return sem[:i]
		}
	}
	return sem
}

func sortedAccessorKeys(m map[int]string) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func forEach(v *accessorView, f func(e, c int, x float64) bool) {
	for e := 0; e < v.a.Count; e++ {
		for c := 0; c < v.comps; c++ {
			if !f(e, c, v.value(e, c)) {
				return
			}
		}
	}
}

// checkMinMax compares an accessor's declared min and max with its data,
// as the npm Khronos validator (2.0.0-dev.3.10) folds it: each
// component's actual bound starts at the first element's value and moves to
// a lesser (greater) one, so a NaN in the first element stays the bound (a
// mismatch with any declared one) and a later NaN changes nothing;
// infinities are values. Each element beyond a declared bound is out of
// bound (a NaN never is).
func checkMinMax(v *accessorView, p string, fs *findings) {
	if v.a.Count <= 0 {
		return
	}
	reportMinMax(v.a, scanMinMax(v), p, fs)
}

// minMaxScan is what checking an accessor's bounds reads from its data:
// lo and hi fold as the validator does; tlo and thi are the bounds of the
// values that are not NaN, against which out of bound is judged; bad is
// the first element (as a flat component index) that is not a finite
// float, when badAt >= 0. Accessors that read the same bytes alike scan
// the same, whatever min and max they declare.
type minMaxScan struct {
	lo, hi, tlo, thi []float64
	badAt            int
	bad              float64
}

// scanMinMax reads every component of v (Count > 0) once.
func scanMinMax(v *accessorView) *minMaxScan {
	n := v.comps
	isFloat := v.a.ComponentType == gltf.ComponentFloat
	r := &minMaxScan{lo: make([]float64, n), hi: make([]float64, n), tlo: make([]float64, n), thi: make([]float64, n), badAt: -1}
	lo, hi, tlo, thi := r.lo, r.hi, r.tlo, r.thi
	for c := 0; c < n; c++ {
		tlo[c], thi[c] = math.Inf(1), math.Inf(-1)
	}
	note := func(e, c int, x float64) {
		if r.badAt < 0 {
			r.badAt, r.bad = e*n+c, x
		}
	}
	for c := 0; c < n; c++ {
		var x float64
		if isFloat && v.sparse == nil {
			x = float64(math.Float32frombits(binary.LittleEndian.Uint32(v.data[4*c:])))
		} else {
			x = v.raw(0, c)
		}
		lo[c], hi[c] = x, x
	}
	if isFloat && v.sparse == nil {
		// The common case, read straight from the bytes.
		for e := 0; e < v.a.Count; e++ {
			b := v.data[e*v.stride:]
			for c := 0; c < n; c++ {
				x := float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*c:])))
				if x != x || x > math.MaxFloat64 || x < -math.MaxFloat64 {
					note(e, c, x)
				}
				// A NaN fails every comparison: it moves no bound.
				if x < lo[c] {
					lo[c] = x
				}
				if x > hi[c] {
					hi[c] = x
				}
				if x < tlo[c] {
					tlo[c] = x
				}
				if x > thi[c] {
					thi[c] = x
				}
			}
		}
		return r
	}
	for e := 0; e < v.a.Count; e++ {
		for c := 0; c < n; c++ {
			x := v.raw(e, c)
			if isFloat && (math.IsNaN(x) || math.IsInf(x, 0)) {
				note(e, c, x)
			}
			if x < lo[c] {
				lo[c] = x
			}
			if x > hi[c] {
				hi[c] = x
			}
			if x < tlo[c] {
				tlo[c] = x
			}
			if x > thi[c] {
				thi[c] = x
			}
		}
	}
	return r
}

// reportMinMax compares accessor a's declared min and max with what its
// data scanned to, at p.
func reportMinMax(a *gltf.Accessor, r *minMaxScan, p string, fs *findings) {
	n := len(r.lo)
	if r.badAt >= 0 {
		fs.addc(Error, "ACCESSOR_INVALID_FLOAT", p, "element %d is %g", r.badAt, r.bad)
	}
	isFloat := a.ComponentType == gltf.ComponentFloat
	round := func(x float64) float64 {
		if isFloat {
			return float64(float32(x))
		}
		return x
	}
	hasMin := len(a.Min) == n && boundOK(a, a.Min)
	hasMax := len(a.Max) == n && boundOK(a, a.Max)
	// Per component: a declared bound the data passes is both out of
	// bound and a mismatch; one the data does not reach, a mismatch.
	if hasMin {
		for c := 0; c < n; c++ {
			cp := fmt.Sprintf("%s/min/%d", p, c)
			dmin := round(a.Min[c])
			if r.lo[c] != dmin {
				fs.addc(Error, "ACCESSOR_MIN_MISMATCH", cp, "declared minimum %g does not match the actual minimum %g", a.Min[c], r.lo[c])
			}
			if r.tlo[c] < dmin {
				fs.addc(Error, "ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND", cp, "the accessor has elements less than the declared minimum %g (actual %g)", a.Min[c], r.lo[c])
			}
		}
	}
	if hasMax {
		for c := 0; c < n; c++ {
			cp := fmt.Sprintf("%s/max/%d", p, c)
			dmax := round(a.Max[c])
			if r.hi[c] != dmax {
				fs.addc(Error, "ACCESSOR_MAX_MISMATCH", cp, "declared maximum %g does not match the actual maximum %g", a.Max[c], r.hi[c])
			}
			if r.thi[c] > dmax {
				fs.addc(Error, "ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND", cp, "the accessor has elements greater than the declared maximum %g (actual %g)", a.Max[c], r.hi[c])
			}
		}
	}
}

func checkSparseIndices(doc *gltf.Document, a *gltf.Accessor, p string, fs *findings) {
	sp := a.Sparse
	// Sparse indices are unsigned bytes, shorts or ints; with another
	// component type (VALUE_NOT_IN_LIST) they are not read.
	switch sp.Indices.ComponentType {
	case gltf.ComponentUbyte, gltf.ComponentUshort, gltf.ComponentUint:
	default:
		return
	}
	ic := sp.Indices.ComponentType.ByteSize()
	idx, _ := viewBytes(doc, sp.Indices.BufferView)
	if idx == nil || ic == 0 || sp.Count <= 0 || !Fits(sp.Indices.ByteOffset, ic, sp.Count, ic, len(idx)) {
		return
	}
	// Each problem is reported once per accessor, both may be.
	prev := int64(-1)
	oob, order := false, false
	for k := 0; k < sp.Count && !(oob && order); k++ {
		e := int64(readUint(idx[sp.Indices.ByteOffset+k*ic:], ic))
		if e >= int64(a.Count) && !oob {
			fs.addc(Error, "ACCESSOR_SPARSE_INDEX_OOB", p, "sparse index %d at %d is not less than the accessor count %d", e, k, a.Count)
			oob = true
		}
		if e <= prev && !order {
			fs.addc(Error, "ACCESSOR_SPARSE_INDICES_NON_INCREASING", p, "sparse index at %d is not greater than the previous: %d <= %d", k, e, prev)
			order = true
		}
		prev = e
	}
}

func checkIndices(v *accessorView, p string, vertices int, fs *findings) {
	if v.comps != 1 || v.a.ComponentType == gltf.ComponentFloat || v.sparse != nil {
		return
	}
	restart := uint32(1)<<(8*v.cs) - 1
	if v.cs == 4 {
		restart = 0xFFFFFFFF
	}
	oob, rst := false, false
	for e := 0; e < v.a.Count && !(oob && rst); e++ {
		b := v.data[e*v.stride:]
		var x uint32
		switch v.cs {
		case 1:
			x = uint32(b[0])
		case 2:
			x = uint32(binary.LittleEndian.Uint16(b))
		default:
			x = binary.LittleEndian.Uint32(b)
		}
		if x == restart && !rst {
			fs.addc(Error, "ACCESSOR_INDEX_PRIMITIVE_RESTART", p, "index %d holds the primitive restart value %d", e, x)
			rst = true
		}
		// The restart value is out of range too, unless the primitive has
		// that many vertices.
		if int64(x) >= int64(vertices) && !oob {
			fs.addc(Error, "ACCESSOR_INDEX_OOB", p, "index %d is %d, the primitive has %d vertices", e, x, vertices)
			oob = true
		}
	}
}

// checkWeights reports a negative weight; the sum of each vertex's weights
// is checked with its joints (checkInfluences).
func checkWeights(v *accessorView, p string, fs *findings) {
	for e := 0; e < v.a.Count; e++ {
		for c := 0; c < v.comps; c++ {
			if x := v.value(e, c); x < 0 {
				fs.addc(Error, "ACCESSOR_WEIGHTS_NEGATIVE", p, "weight %d (component %d) is negative: %g", e*v.comps+c, c, x)
				return
			}
		}
	}
}

// checkJoints reports a joint index past the skin's joints; repeated joints
// are checked with their weights (checkInfluences).
func checkJoints(v *accessorView, p string, joints int, fs *findings) {
	for e := 0; e < v.a.Count; e++ {
		for c := 0; c < v.comps && c < 4; c++ {
			if x := v.raw(e, c); joints > 0 && x >= float64(joints) {
				fs.addc(Error, "ACCESSOR_JOINTS_INDEX_OOB", p, "joint %d (component %d) is %d, the skin has %d joints", e*v.comps+c, c, int64(x), joints)
				return
			}
		}
	}
}

// skinJointCounts maps JOINTS accessors to the joint count of the skin of a
// node that uses them.
func skinJointCounts(doc *gltf.Document) map[int]int {
	out := map[int]int{}
	for _, n := range doc.Nodes {
		if n.Skin == nil || n.Mesh == nil || *n.Skin < 0 || *n.Skin >= len(doc.Skins) || *n.Mesh < 0 || *n.Mesh >= len(doc.Meshes) {
			continue
		}
		for _, pr := range doc.Meshes[*n.Mesh].Primitives {
			for sem, ai := range pr.Attributes {
				if semanticBase(sem) == "JOINTS" {
					out[ai] = len(doc.Skins[*n.Skin].Joints)
				}
			}
		}
	}
	return out
}

// checkAnimationInput reports keyframe times as glTF-Validator's
// AnimationInputChecker does: a negative time is only negative (and is not
// the previous time of the next one); every other time after the first must
// be greater than the previous non-negative one, which starts at 0.
func checkAnimationInput(v *accessorView, p string, fs *findings) {
	prev := 0.0
	neg, order := false, false
	for e := 0; e < v.a.Count && !(neg && order); e++ {
		x := v.raw(e, 0)
		if x < 0 {
			if !neg {
				fs.addc(Error, "ACCESSOR_ANIMATION_INPUT_NEGATIVE", p, "animation input %d is negative: %g", e, x)
				neg = true
			}
			continue
		}
		if e != 0 && x <= prev && !order {
			fs.addc(Error, "ACCESSOR_ANIMATION_INPUT_NON_INCREASING", p, "animation input %d is not greater than the previous: %g <= %g", e, x, prev)
			order = true
		}
		prev = x
	}
}

func checkQuaternions(v *accessorView, p string, cubic bool, fs *findings) {
	for e := 0; e < v.a.Count; e++ {
		if cubic && e%3 != 1 {
			continue // tangents need not be unit
		}
		s := 0.0
		for c := 0; c < 4; c++ {
			x := v.value(e, c)
			s += x * x
		}
		if math.Abs(math.Sqrt(s)-1) > UnitLengthThresholdVec4 {
			fs.addc(Error, "ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION", p, "the quaternion at element %d is not of unit length: %g", e, math.Sqrt(s))
			return
		}
	}
}
