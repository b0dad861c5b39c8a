package corecheck

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/qmuntal/gltf"
)

// links checks what refers to what, on the typed document: accessors
// against buffer views and buffers, mesh attributes, animations, skins,
// images, scenes and extensions. Every index is checked before use: the
// schema pass reported bad ones but the typed document may still hold them.
type links struct {
	doc  *gltf.Document
	sc   *schema
	fs   *findings
	glb  bool
	opt  Options
	used map[string]bool
	// bvUsage is what each buffer view was first used for.
	bvUsage map[int]string
	// json is the document's JSON, read again for the attributes' key
	// order (keyOrders, once, when a rule needs it: attrOrder).
	json      []byte
	keyOrders map[attrKey][]string
	// viewAccessors are the vertex accessors seen in each buffer view
	// without byteStride, over the whole document.
	viewAccessors map[int]map[int]bool
	// omitted counts the findings past MaxFindingsPerCode of rules that
	// can fire once per pair (quadratic in the input), by code.
	omitted map[string]Omitted
	// pairs counts the findings those rules made.
	pairs map[string]int
}

func checkLinks(doc *gltf.Document, sc *schema, jsonChunk []byte, glb bool, opt Options, fs *findings) map[string]Omitted {
	l := &links{doc: doc, sc: sc, fs: fs, glb: glb, opt: opt, used: map[string]bool{}, bvUsage: map[int]string{}, json: jsonChunk, omitted: map[string]Omitted{}, pairs: map[string]int{}}
	for _, e := range doc.ExtensionsUsed {
		l.used[e] = true
	}
	l.bufferViews()
	l.accessors()
	// Images in buffer views, before meshes, as Khronos links them.
	for i, im := range doc.Images {
		if im.BufferView != nil {
			l.useViewIndex(*im.BufferView, "Image", fmt.Sprintf("/images/%d/bufferView", i))
		}
	}
	l.meshes()
	l.nodes()
	l.animations()
	l.skins()
	l.extensions()
	l.semanticRules()
	return l.omitted
}

// room returns how many of n more findings of a per-pair rule (code,
// severity sev) may still be made, and counts the rest as omitted: the
// caller makes that many and skips the others without looking at them,
// so that the work stays linear however many pairs there are.
func (l *links) room(code string, sev Severity, n int) int {
	k := min(n, max(0, MaxFindingsPerCode-l.pairs[code]))
	l.pairs[code] += k
	if n > k {
		o := l.omitted[code]
		o.Severity, o.Count = sev, o.Count+n-k
		l.omitted[code] = o
	}
	return k
}

func (l *links) acc(i int) *gltf.Accessor {
	if i < 0 || i >= len(l.doc.Accessors) {
		return nil
	}
	return l.doc.Accessors[i]
}

func (l *links) accPtr(i *int) *gltf.Accessor {
	if i == nil {
		return nil
	}
	return l.acc(*i)
}

func (l *links) view(i *int) *gltf.BufferView {
	if i == nil || *i < 0 || *i >= len(l.doc.BufferViews) {
		return nil
	}
	return l.doc.BufferViews[*i]
}

func (l *links) bufferViews() {
	for i, bv := range l.doc.BufferViews {
		p := fmt.Sprintf("/bufferViews/%d", i)
		if bv.Buffer >= 0 && bv.Buffer < len(l.doc.Buffers) && l.sc.bufferLengthOK(bv.Buffer) {
			bl := l.doc.Buffers[bv.Buffer].ByteLength
			if int64(bv.ByteOffset)+int64(bv.ByteLength) > int64(bl) {
				at := p + "/byteLength"
				// An offset at or past the buffer's end is the offset's
				// fault, else the length's (glTF-Validator buffer_view.dart).
				if bv.ByteOffset >= bl {
					at = p + "/byteOffset"
				}
				l.fs.addc(Error, "BUFFER_VIEW_TOO_LONG", at, "the buffer view (offset %d, length %d) does not fit buffer %d (byteLength %d)", bv.ByteOffset, bv.ByteLength, bv.Buffer, bl)
			}
		}
		// (A byteStride outside 4..252 is VALUE_NOT_IN_RANGE, and only that.)
		if bv.ByteStride >= 4 && bv.ByteStride <= 252 && bv.ByteStride > bv.ByteLength && bv.ByteLength > 0 {
			l.fs.addc(Error, "BUFFER_VIEW_TOO_BIG_BYTE_STRIDE", p+"/byteStride", "byteStride %d is greater than byteLength %d", bv.ByteStride, bv.ByteLength)
		}
		if bv.ByteStride != 0 && bv.Target == gltf.TargetElementArrayBuffer {
			l.fs.addc(Error, "BUFFER_VIEW_INVALID_BYTE_STRIDE", p+"/byteStride", "only buffer views with vertex data can have byteStride")
		}
	}
}

// elementLength is the bytes one element covers without the padding after
// its last column: byte and short matrices (MAT2 of bytes, MAT3 of bytes or
// shorts) pad each column to 4 bytes, but nothing follows the last one. It
// is what a byteStride must reach and what the last element of a buffer
// view needs.
func elementLength(a *gltf.Accessor) int {
	cs := a.ComponentType.ByteSize()
	switch a.Type {
	case gltf.AccessorMat2:
		if cs == 1 {
			return 6
		}
	case gltf.AccessorMat3:
		if cs == 1 {
			return 11
		}
		if cs == 2 {
			return 22
		}
	}
	return cs * a.Type.Components()
}

// elementSize is the byte size of one element, with matrix columns padded
// to 4 bytes: the distance between elements without a byteStride.
func elementSize(a *gltf.Accessor) int {
	cs := a.ComponentType.ByteSize()
	switch a.Type {
	case gltf.AccessorMat2:
		if cs == 1 {
			return 8
		}
	case gltf.AccessorMat3:
		if cs == 1 {
			return 12
		}
		if cs == 2 {
			return 24
		}
	}
	return cs * a.Type.Components()
}

func (l *links) accessors() {
	for i, a := range l.doc.Accessors {
		p := fmt.Sprintf("/accessors/%d", i)
		raw := l.rawObj("accessors", i)
		cs := a.ComponentType.ByteSize()
		if a.Normalized && (a.ComponentType == gltf.ComponentFloat || a.ComponentType == gltf.ComponentUint) {
			l.fs.addc(Error, "ACCESSOR_NORMALIZED_INVALID", p+"/normalized", "only byte and short accessors can be normalized")
		}
		n := a.Type.Components()
		if _, ok := raw["type"]; ok {
			if len(a.Min) > 0 && len(a.Min) != n {
				l.fs.addc(Error, "ARRAY_LENGTH_NOT_IN_LIST", p+"/min", "min has %d values, the type %s has %d components", len(a.Min), a.Type, n)
			}
			if len(a.Max) > 0 && len(a.Max) != n {
				l.fs.addc(Error, "ARRAY_LENGTH_NOT_IN_LIST", p+"/max", "max has %d values, the type %s has %d components", len(a.Max), a.Type, n)
			}
		}
		if a.Sparse != nil && a.Sparse.Count > a.Count {
			l.fs.addc(Error, "ACCESSOR_SPARSE_COUNT_OUT_OF_RANGE", p+"/sparse/count", "the sparse accessor overrides %d elements, the accessor has %d", a.Sparse.Count, a.Count)
		}
		if a.Sparse != nil {
			sp := a.Sparse
			// Sparse indices and values are tightly packed: a byteStride on
			// their buffer views has no meaning (glTF 2.0, 3.6.2.3).
			if bv := l.view(&sp.Indices.BufferView); bv != nil && bv.ByteStride != 0 {
				l.fs.addc(Error, "BUFFER_VIEW_INVALID_BYTE_STRIDE", p+"/sparse/indices/bufferView", "only buffer views with raw vertex data can have byteStride")
			}
			if bv := l.view(&sp.Values.BufferView); bv != nil && bv.ByteStride != 0 {
				l.fs.addc(Error, "BUFFER_VIEW_INVALID_BYTE_STRIDE", p+"/sparse/values/bufferView", "only buffer views with raw vertex data can have byteStride")
			}
			// Sparse data is neither vertices nor indices (accessor.dart
			// link: values, then indices).
			l.useViewIndex(sp.Values.BufferView, "Other", p+"/sparse/values/bufferView")
			l.useViewIndex(sp.Indices.BufferView, "Other", p+"/sparse/indices/bufferView")
			if bv := l.view(&sp.Indices.BufferView); bv != nil && bv.ByteLength > 0 {
				is := sp.Indices.ComponentType.ByteSize()
				need := int64(sp.Indices.ByteOffset) + int64(sp.Count)*int64(is)
				if sp.Indices.ByteOffset >= 0 && sp.Count > 0 && !Fits(sp.Indices.ByteOffset, is, sp.Count, is, bv.ByteLength) {
					l.fs.addc(Error, "ACCESSOR_TOO_LONG", p+"/sparse/indices", "sparse indices (offset %d, length %d) do not fit buffer view %d (length %d)", sp.Indices.ByteOffset, need-int64(sp.Indices.ByteOffset), sp.Indices.BufferView, bv.ByteLength)
				}
			}
			if bv := l.view(&sp.Values.BufferView); bv != nil && bv.ByteLength > 0 {
				es := cs * a.Type.Components()
				need := int64(sp.Values.ByteOffset) + int64(sp.Count)*int64(es)
				if sp.Values.ByteOffset >= 0 && sp.Count > 0 && !Fits(sp.Values.ByteOffset, es, sp.Count, es, bv.ByteLength) {
					l.fs.addc(Error, "ACCESSOR_TOO_LONG", p+"/sparse/values", "sparse values (offset %d, length %d) do not fit buffer view %d (length %d)", sp.Values.ByteOffset, need-int64(sp.Values.ByteOffset), sp.Values.BufferView, bv.ByteLength)
				}
			}
		}
		bv := l.view(a.BufferView)
		if bv == nil || cs == 0 {
			continue
		}
		if a.ByteOffset%cs != 0 {
			l.fs.addc(Error, "ACCESSOR_OFFSET_ALIGNMENT", p+"/byteOffset", "offset %d is not a multiple of the component size %d", a.ByteOffset, cs)
		}
		if (a.Type == gltf.AccessorMat2 || a.Type == gltf.AccessorMat3 || a.Type == gltf.AccessorMat4) && a.ByteOffset%4 != 0 {
			l.fs.addc(Error, "ACCESSOR_MATRIX_ALIGNMENT", p+"/byteOffset", "matrix accessors must be aligned to 4-byte boundaries")
		}
		if (bv.ByteOffset+a.ByteOffset)%cs != 0 {
			l.fs.addc(Error, "ACCESSOR_TOTAL_OFFSET_ALIGNMENT", p, "the total byte offset %d is not a multiple of the component size %d", bv.ByteOffset+a.ByteOffset, cs)
		}
		el := elementLength(a)
		stride := elementSize(a)
		if bv.ByteStride != 0 {
			if bv.ByteStride < el {
				l.fs.addc(Error, "ACCESSOR_SMALL_BYTESTRIDE", p, "buffer view byteStride %d is less than the element length %d", bv.ByteStride, el)
			}
			stride = bv.ByteStride
		}
		// A byteStride that is not a multiple of 4 is VALUE_MULTIPLE_OF on
		// the buffer view; ACCESSOR_MATRIX_ALIGNMENT is the byteOffset's.
		// A buffer view whose byteLength is invalid (VALUE_NOT_IN_RANGE)
		// is not measured against (accessor.dart
		// _checkByteOffsetAndLength).
		if a.Count > 0 && bv.ByteLength > 0 {
			length := int64(stride)*int64(a.Count-1) + int64(el)
			if a.ByteOffset >= 0 && !Fits(a.ByteOffset, stride, a.Count, el, bv.ByteLength) {
				at := p
				if a.ByteOffset > bv.ByteLength {
					at += "/byteOffset"
				}
				l.fs.addc(Error, "ACCESSOR_TOO_LONG", at, "the accessor (offset %d, length %d) does not fit buffer view %d (length %d)", a.ByteOffset, length, *a.BufferView, bv.ByteLength)
			}
		}
	}
}

// rawObj returns element i of root collection coll of the JSON tree.
func (l *links) rawObj(coll string, i int) map[string]any {
	a, _ := l.sc.root[coll].([]any)
	if i < 0 || i >= len(a) {
		return nil
	}
	m, _ := a[i].(map[string]any)
	return m
}

// useView records what a buffer view is used for (VertexBuffer,
// IndexBuffer, Image or Other) and reports a use that conflicts with its
// target or an earlier use. A buffer view without a target first used for
// vertex or index data gets the hint BUFFER_VIEW_TARGET_MISSING there, once:
// the Khronos validator gives it when it first learns the view's usage (in
// its order: accessors' sparse data, images, then meshes by index, each
// primitive's attributes in the file's order, indices, then morph
// targets, then skins and animations), and a target set in the file is
// a usage known already (buffer_view.dart setUsage).
func (l *links) useView(a *gltf.Accessor, usage, p string) {
	if a == nil || a.BufferView == nil {
		return
	}
	l.useViewIndex(*a.BufferView, usage, p)
}

// useViewIndex is useView for buffer view bvi.
func (l *links) useViewIndex(bvi int, usage, p string) {
	bv := l.view(&bvi)
	if bv == nil {
		return
	}
	prev, ok := l.bvUsage[bvi]
	switch {
	case ok:
	case bv.Target == gltf.TargetArrayBuffer:
		prev, ok = "VertexBuffer", true
	case bv.Target == gltf.TargetElementArrayBuffer:
		prev, ok = "IndexBuffer", true
	}
	if ok && prev != usage {
		l.fs.addc(Error, "BUFFER_VIEW_TARGET_OVERRIDE", p, "buffer view %d is used as %s, and now as %s", bvi, prev, usage)
		return
	}
	if !ok && (usage == "VertexBuffer" || usage == "IndexBuffer") {
		l.fs.addc(Info, "BUFFER_VIEW_TARGET_MISSING", p, "bufferView.target should be set for vertex or index data (buffer view %d)", bvi)
	}
	if !ok {
		l.bvUsage[bvi] = usage
	}
}

var attrPattern = regexp.MustCompile(`^(POSITION|NORMAL|TANGENT|(TEXCOORD|COLOR|JOINTS|WEIGHTS)_(0|[1-9][0-9]*)|_.*)$`)

type format struct {
	typ  gltf.AccessorType
	comp gltf.ComponentType
	norm bool
}

func accFormat(a *gltf.Accessor) format { return format{a.Type, a.ComponentType, a.Normalized} }

func (f format) String() string {
	s := fmt.Sprintf("{%s, %s", f.typ, f.comp)
	if f.norm {
		s += ", normalized"
	}
	return s + "}"
}

func fmts(typs []gltf.AccessorType, comps []gltf.ComponentType, norm bool) []format {
	var out []format
	for _, t := range typs {
		for _, c := range comps {
			out = append(out, format{t, c, norm})
		}
	}
	return out
}

var (
	v2, v3, v4, v34 = []gltf.AccessorType{gltf.AccessorVec2}, []gltf.AccessorType{gltf.AccessorVec3}, []gltf.AccessorType{gltf.AccessorVec4}, []gltf.AccessorType{gltf.AccessorVec3, gltf.AccessorVec4}
	fl              = []gltf.ComponentType{gltf.ComponentFloat}
	ubus            = []gltf.ComponentType{gltf.ComponentUbyte, gltf.ComponentUshort}
	bs              = []gltf.ComponentType{gltf.ComponentByte, gltf.ComponentShort}
	allInt          = []gltf.ComponentType{gltf.ComponentByte, gltf.ComponentUbyte, gltf.ComponentShort, gltf.ComponentUshort}
)

// attrFormats returns the allowed formats of an attribute semantic.
func attrFormats(sem string, quant bool) []format {
	base, _, _ := strings.Cut(sem, "_")
	var out []format
	switch base {
	case "POSITION":
		out = fmts(v3, fl, false)
		if quant {
			out = append(append(out, fmts(v3, allInt, false)...), fmts(v3, allInt, true)...)
		}
	case "NORMAL":
		out = fmts(v3, fl, false)
		if quant {
			out = append(out, fmts(v3, bs, true)...)
		}
	case "TANGENT":
		out = fmts(v4, fl, false)
		if quant {
			out = append(out, fmts(v4, bs, true)...)
		}
	case "TEXCOORD":
		out = append(fmts(v2, fl, false), fmts(v2, ubus, true)...)
		if quant {
			out = append(append(out, fmts(v2, allInt, false)...), fmts(v2, bs, true)...)
		}
	case "COLOR":
		out = append(fmts(v34, fl, false), fmts(v34, ubus, true)...)
	case "JOINTS":
		out = fmts(v4, ubus, false)
	case "WEIGHTS":
		out = append(fmts(v4, fl, false), fmts(v4, ubus, true)...)
		if quant {
			out = append(out, fmts(v4, bs, true)...)
		}
	}
	return out
}

// targetFormats lists the accessor formats a morph target attribute may
// have (glTF 2.0 3.7.2.2; KHR_mesh_quantization adds the normalized and,
// for POSITION, plain integer ones). Tangent displacements are VEC3.
func targetFormats(sem string, quant bool) []format {
	base, _, _ := strings.Cut(sem, "_")
	switch base {
	case "POSITION", "NORMAL", "TANGENT":
		out := fmts(v3, fl, false)
		if quant {
			out = append(out, fmts(v3, bs, true)...)
			if base == "POSITION" {
				out = append(out, fmts(v3, bs, false)...)
			}
		}
		return out
	case "TEXCOORD", "COLOR":
		return attrFormats(sem, quant)
	}
	return nil
}

func containsFormat(list []format, f format) bool {
	for _, x := range list {
		if x == f {
			return true
		}
	}
	return false
}

func (l *links) meshes() {
	quant := l.used["KHR_mesh_quantization"]
	for mi, m := range l.doc.Meshes {
		mp := fmt.Sprintf("/meshes/%d", mi)
		targets := -1
		for pi, pr := range m.Primitives {
			pp := fmt.Sprintf("%s/primitives/%d", mp, pi)
			n := len(l.targets(mi, pi))
			if targets >= 0 && n != targets {
				// At the primitive's targets, or the primitive when it has
				// none (where the Khronos validator points).
				at := pp
				if n > 0 {
					at = pp + "/targets"
				}
				l.fs.addc(Error, "MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT", at, "all primitives must have the same number of morph targets (%d here, %d in the first)", n, targets)
			}
			if targets < 0 {
				targets = n
			}
			l.primitive(pr, mi, pi, pp, quant)
		}
		// Weights without morph targets are a count mismatch too (0).
		if targets >= 0 && len(m.Weights) > 0 && len(m.Weights) != targets {
			l.fs.addc(Error, "MESH_INVALID_WEIGHTS_COUNT", mp+"/weights", "%d weights for %d morph targets", len(m.Weights), targets)
		}
	}
}

func (l *links) primitive(pr *gltf.Primitive, mi, pi int, pp string, quant bool) {
	ap := pp + "/attributes"
	sets := map[string][]int{}
	count := -1
	// Attributes in the file's order, as the Khronos validator visits
	// them: it reports a mismatch on the later attribute.
	for _, sem := range l.attrOrder(attrKey{mi, pi, -1}, pr.Attributes) {
		ai := pr.Attributes[sem]
		p := ap + "/" + jsonPointerEscape(sem)
		if !attrPattern.MatchString(sem) {
			l.fs.addc(Error, "MESH_PRIMITIVE_INVALID_ATTRIBUTE", p, "invalid attribute name %q", sem)
			continue
		}
		if base, n, ok := strings.Cut(sem, "_"); ok && base != "" {
			k, _ := strconv.Atoi(n)
			sets[base] = append(sets[base], k)
		}
		a := l.acc(ai)
		if a == nil {
			continue
		}
		l.useView(a, "VertexBuffer", p)
		l.vertexAccessorRefs(ai, a, p)
		if a.ComponentType == gltf.ComponentUint {
			l.fs.addc(Error, "MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_UNSIGNED_INT", p, "mesh attributes cannot use UNSIGNED_INT")
		} else if !strings.HasPrefix(sem, "_") {
			if allowed := attrFormats(sem, quant); allowed != nil && (!l.componentTypeOK(ai) || !containsFormat(allowed, accFormat(a))) {
				l.fs.addc(Error, "MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT", p, "invalid accessor format %s for %s", l.formatName(ai, a), sem)
			}
		}
		if sem == "POSITION" && !hasBounds(a) {
			l.fs.addc(Error, "MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS", p, "accessor.min and accessor.max must be defined for POSITION")
		}
		l.vertexAlignment(a, p)
		if count >= 0 && a.Count != count {
			l.fs.addc(Error, "MESH_PRIMITIVE_UNEQUAL_ACCESSOR_COUNT", p, "all accessors of a primitive must have the same count (%d here, %d before)", a.Count, count)
		}
		if count < 0 {
			count = a.Count
		}
	}
	for base, ks := range sets {
		seen := make([]bool, len(ks))
		ok := true
		for _, k := range ks {
			if k >= len(ks) || seen[k] {
				ok = false
				break
			}
			seen[k] = true
		}
		if !ok {
			l.fs.addc(Error, "MESH_PRIMITIVE_INDEXED_SEMANTIC_CONTINUITY", ap, "indices of %s_n must start with 0 and be continuous (%d attributes)", base, len(ks))
		}
	}
	if len(sets["JOINTS"]) != len(sets["WEIGHTS"]) {
		l.fs.addc(Error, "MESH_PRIMITIVE_JOINTS_WEIGHTS_MISMATCH", ap, "%d JOINTS attributes but %d WEIGHTS", len(sets["JOINTS"]), len(sets["WEIGHTS"]))
	}
	if _, ok := pr.Attributes["POSITION"]; !ok && len(pr.Attributes) > 0 {
		l.fs.addc(Warning, "MESH_PRIMITIVE_NO_POSITION", ap, "no POSITION attribute")
	}
	_, hasNormal := pr.Attributes["NORMAL"]
	_, hasTangent := pr.Attributes["TANGENT"]
	if hasTangent && !hasNormal {
		l.fs.addc(Warning, "MESH_PRIMITIVE_TANGENT_WITHOUT_NORMAL", ap+"/TANGENT", "TANGENT without NORMAL")
	}
	if pr.Indices != nil {
		ip := pp + "/indices"
		if a := l.accPtr(pr.Indices); a != nil {
			f := accFormat(a)
			if f.typ != gltf.AccessorScalar || f.norm || (f.comp != gltf.ComponentUbyte && f.comp != gltf.ComponentUshort && f.comp != gltf.ComponentUint) {
				l.fs.addc(Error, "MESH_PRIMITIVE_INDICES_ACCESSOR_INVALID_FORMAT", ip, "invalid indices accessor format %s", f)
			}
			if bv := l.view(a.BufferView); bv != nil && bv.ByteStride != 0 {
				l.fs.addc(Error, "MESH_PRIMITIVE_INDICES_ACCESSOR_WITH_BYTESTRIDE", ip, "an indices accessor's buffer view must not have byteStride")
			}
			l.useView(a, "IndexBuffer", ip)
		}
	}
	for ti, t := range l.targets(mi, pi) {
		tp := fmt.Sprintf("%s/targets/%d", pp, ti)
		for _, sem := range l.attrOrder(attrKey{mi, pi, ti}, t) {
			p := tp + "/" + jsonPointerEscape(sem)
			if !attrPattern.MatchString(sem) {
				l.fs.addc(Error, "MESH_PRIMITIVE_INVALID_ATTRIBUTE", p, "invalid attribute name %q", sem)
			}
			if _, ok := pr.Attributes[sem]; !ok {
				l.fs.addc(Error, "MESH_PRIMITIVE_MORPH_TARGET_NO_BASE_ACCESSOR", p, "the primitive has no %s attribute for this morph target", sem)
			}
			a := l.acc(t[sem])
			if a == nil {
				continue
			}
			l.useView(a, "VertexBuffer", p)
			l.vertexAlignment(a, p)
			l.vertexAccessorRefs(t[sem], a, p)
			if allowed := targetFormats(sem, quant); allowed != nil && (!l.componentTypeOK(t[sem]) || !containsFormat(allowed, accFormat(a))) {
				l.fs.addc(Error, "MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT", p, "invalid accessor format %s for morph target %s", l.formatName(t[sem], a), sem)
			}
			if sem == "POSITION" && !hasBounds(a) {
				l.fs.addc(Error, "MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS", p, "accessor.min and accessor.max must be defined for POSITION")
			}
			if count >= 0 && a.Count != count {
				l.fs.addc(Error, "MESH_PRIMITIVE_MORPH_TARGET_INVALID_ATTRIBUTE_COUNT", p, "the morph target accessor has %d elements, the base %d", a.Count, count)
			}
		}
	}
	l.materialUse(pr, pp, sets["TEXCOORD"], hasTangent, hasNormal)
	l.variantTexCoords(mi, pi, pp, sets["TEXCOORD"])
}

// vertexAlignment reports MESH_PRIMITIVE_ACCESSOR_UNALIGNED for a vertex
// attribute or morph target accessor at p: its byteOffset is not a
// multiple of 4, or, in a buffer view without byteStride, its elements'
// length is not (3 bytes of a VEC3 of bytes put the next element off 4);
// mesh.dart link. A byteStride not a multiple of 4 is the buffer view's
// VALUE_MULTIPLE_OF.
func (l *links) vertexAlignment(a *gltf.Accessor, p string) {
	bv := l.view(a.BufferView)
	if a.ByteOffset%4 != 0 || (bv != nil && bv.ByteStride == 0 && elementLength(a)%4 != 0) {
		l.fs.addc(Error, "MESH_PRIMITIVE_ACCESSOR_UNALIGNED", p, "vertex attribute data must be aligned to 4-byte boundaries")
	}
}

// vertexAccessorRefs reports MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE at
// p when accessor ai is the second or a later accessor of the whole
// document's vertex data (attributes and morph targets) in a buffer view
// without byteStride: interleaved or packed side by side, the elements'
// distance is then unknown. One accessor used twice does not count.
func (l *links) vertexAccessorRefs(ai int, a *gltf.Accessor, p string) {
	bv := l.view(a.BufferView)
	if bv == nil || bv.ByteStride != 0 {
		return
	}
	if l.viewAccessors == nil {
		l.viewAccessors = map[int]map[int]bool{}
	}
	seen := l.viewAccessors[*a.BufferView]
	if seen == nil {
		seen = map[int]bool{}
		l.viewAccessors[*a.BufferView] = seen
	}
	if seen[ai] {
		return
	}
	seen[ai] = true
	if len(seen) > 1 {
		l.fs.addc(Error, "MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE", p, "buffer view %d holds more than one vertex accessor and has no byteStride", *a.BufferView)
	}
}

// componentTypeOK reports whether accessor ai's componentType in the JSON
// is one glTF allows: another one is VALUE_NOT_IN_LIST, and the accessor's
// format then matches no semantic's list (the validator's format has no
// component type), whatever the typed document read in its place.
func (l *links) componentTypeOK(ai int) bool {
	return !l.sc.badComponentType[fmt.Sprintf("/accessors/%d", ai)]
}

// formatName names accessor ai's format for a message, saying so when its
// componentType is not a valid one.
func (l *links) formatName(ai int, a *gltf.Accessor) string {
	if !l.componentTypeOK(ai) {
		return fmt.Sprintf("{%s, invalid componentType}", a.Type)
	}
	return accFormat(a).String()
}

// hasBounds reports whether an accessor has min and max, each with one
// value per component: one of the wrong length is ARRAY_LENGTH_NOT_IN_LIST
// and read as absent (accessor.dart fromMap).
func hasBounds(a *gltf.Accessor) bool {
	return boundOK(a, a.Min) && boundOK(a, a.Max)
}

// boundOK reports whether an accessor's min or max is one the Khronos
// validator reads: one value per component, and whole numbers for an
// integer component type (a fraction is ARRAY_TYPE_MISMATCH, and the bound
// is then absent).
func boundOK(a *gltf.Accessor, vs []float64) bool {
	n := a.Type.Components()
	if len(vs) == 0 || (n != 0 && len(vs) != n) {
		return false
	}
	if a.ComponentType != gltf.ComponentFloat {
		for _, v := range vs {
			if v != math.Trunc(v) {
				return false
			}
		}
	}
	return true
}

// writerAttrOrder lists attribute names as glTF writers order them:
// POSITION, NORMAL, TANGENT, then the indexed sets (TEXCOORD, COLOR,
// JOINTS, WEIGHTS) by set, then the rest, alphabetically.
func writerAttrOrder(m map[string]int) []string {
	rank := func(k string) int {
		for i, p := range []string{"POSITION", "NORMAL", "TANGENT", "TEXCOORD_", "COLOR_", "JOINTS_", "WEIGHTS_"} {
			if k == p || (strings.HasSuffix(p, "_") && strings.HasPrefix(k, p)) {
				return i
			}
		}
		return 99
	}
	keys := sortedAttrKeys(m)
	slices.SortStableFunc(keys, func(a, b string) int { return rank(a) - rank(b) })
	return keys
}

func sortedAttrKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sortStringsInPlace(keys)
	return keys
}

// texCoordNeeds returns the texture coordinate set each texture info of
// material mat (its JSON raw) reads, by the texture info's pointer (and
// that of a KHR_texture_transform overriding it).
func texCoordNeeds(raw map[string]any, mat int) map[string]int {
	need := map[string]int{}
	var walk func(v any, p string)
	walk = func(v any, p string) {
		switch v := v.(type) {
		case map[string]any:
			for k, c := range v {
				if strings.HasSuffix(k, "Texture") {
					if t, ok := c.(map[string]any); ok {
						tcs := textureTexCoords(t)
						need[p+"/"+k] = tcs[0]
						if len(tcs) > 1 {
							need[p+"/"+k+"/extensions/KHR_texture_transform"] = tcs[1]
						}
					}
				}
				walk(c, p+"/"+k)
			}
		}
	}
	walk(raw, fmt.Sprintf("/materials/%d", mat))
	return need
}

// variantTexCoords reports MESH_PRIMITIVE_TOO_FEW_TEXCOORDS at the material
// of each KHR_materials_variants mapping of primitive pi of mesh mi whose
// material reads a texture coordinate set the primitive lacks (the
// validator checks a mapped material as the primitive's own).
func (l *links) variantTexCoords(mi, pi int, pp string, texcoords []int) {
	if _, ok := asMap(asMap(l.sc.root["extensions"])["KHR_materials_variants"])["variants"]; !ok {
		return
	}
	prims, _ := asMap(l.rawObj("meshes", mi))["primitives"].([]any)
	if pi < 0 || pi >= len(prims) {
		return
	}
	ext := asMap(asMap(asMap(prims[pi])["extensions"])["KHR_materials_variants"])
	for i, m := range asAnySlice(ext["mappings"]) {
		f, ok, _ := numberValue(asMap(m)["material"])
		if !ok || f < 0 || f >= float64(len(l.doc.Materials)) || f != float64(int(f)) {
			continue
		}
		need := texCoordNeeds(l.rawObj("materials", int(f)), int(f))
		for _, k := range sortedIntKeys(need) {
			if tc := need[k]; tc >= len(texcoords) {
				l.fs.addc(Error, "MESH_PRIMITIVE_TOO_FEW_TEXCOORDS", fmt.Sprintf("%s/extensions/KHR_materials_variants/mappings/%d/material", pp, i), "material texture %s needs TEXCOORD_%d", k, tc)
			}
		}
	}
}

// materialUse checks that a primitive has the texture coordinates and
// tangent space its material needs.
func (l *links) materialUse(pr *gltf.Primitive, pp string, texcoords []int, hasTangent, hasNormal bool) {
	if pr.Material == nil {
		return
	}
	raw := l.rawObj("materials", *pr.Material)
	if raw == nil {
		return
	}
	need := texCoordNeeds(raw, *pr.Material)
	for _, k := range sortedIntKeys(need) {
		tc := need[k]
		if tc >= len(texcoords) {
			l.fs.addc(Error, "MESH_PRIMITIVE_TOO_FEW_TEXCOORDS", pp+"/material", "material texture %s needs TEXCOORD_%d", k, tc)
		}
	}
	// Without NORMAL and TANGENT, a tangent space is generated from the
	// normal map; with no normal map there is nothing to generate it from.
	if _, hasNormalTex := raw["normalTexture"]; !(hasTangent && hasNormal) && !hasNormalTex && needsTangent(raw) {
		l.fs.addc(Error, "MESH_PRIMITIVE_NO_TANGENT_SPACE", pp+"/material", "the material needs a tangent space; the primitive has no NORMAL and TANGENT and the material no normal map to generate it")
	}
}

func sortedIntKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sortStringsInPlace(keys)
	return keys
}

func (l *links) morphTargets(mesh *int) int {
	if mesh == nil || *mesh < 0 || *mesh >= len(l.doc.Meshes) {
		return -1
	}
	m := l.doc.Meshes[*mesh]
	if len(m.Primitives) == 0 {
		return 0
	}
	return len(l.targets(*mesh, 0))
}

// targets returns the morph targets of primitive pi of mesh mi, or none
// when one of them is empty or not an object (reported as EMPTY_ENTITY or
// ARRAY_TYPE_MISMATCH): the Khronos validator then reads the primitive as
// having no morph targets at all (utils.dart getIndicesMapsList), so its
// counts, weights and the targets' accessors follow from that.
func (l *links) targets(mi, pi int) []map[string]int {
	if mi < 0 || mi >= len(l.doc.Meshes) || pi < 0 || pi >= len(l.doc.Meshes[mi].Primitives) {
		return nil
	}
	ts := l.doc.Meshes[mi].Primitives[pi].Targets
	for _, t := range ts {
		if len(t) == 0 {
			return nil
		}
	}
	prims, _ := asMap(l.rawObj("meshes", mi))["primitives"].([]any)
	if pi < len(prims) {
		for _, t := range asAnySlice(asMap(prims[pi])["targets"]) {
			if m, ok := t.(map[string]any); !ok || len(m) == 0 {
				return nil
			}
		}
	}
	return ts
}

func (l *links) nodes() {
	parent := make([]int, len(l.doc.Nodes))
	for i := range parent {
		parent[i] = -1
	}
	for i, n := range l.doc.Nodes {
		for _, c := range n.Children {
			if c >= 0 && c < len(parent) && parent[c] < 0 && c != i {
				parent[c] = i
			}
		}
		p := fmt.Sprintf("/nodes/%d", i)
		if len(n.Weights) > 0 {
			if t := l.morphTargets(n.Mesh); t >= 0 && len(n.Weights) != t {
				l.fs.addc(Error, "NODE_WEIGHTS_INVALID", p+"/weights", "%d weights for %d morph targets", len(n.Weights), t)
			}
		}
		// Only a skin that exists is checked against the mesh (an
		// unresolved one is UNRESOLVED_REFERENCE and nothing more).
		if n.Skin != nil && *n.Skin >= 0 && *n.Skin < len(l.doc.Skins) && n.Mesh != nil && *n.Mesh >= 0 && *n.Mesh < len(l.doc.Meshes) {
			// A primitive is skinned when it has JOINTS_n and WEIGHTS_n
			// sets, as many of each (MESH_PRIMITIVE_JOINTS_WEIGHTS_MISMATCH
			// otherwise).
			skinned := false
			for _, pr := range l.doc.Meshes[*n.Mesh].Primitives {
				j, w := 0, 0
				for sem := range pr.Attributes {
					j += b2i(strings.HasPrefix(sem, "JOINTS_"))
					w += b2i(strings.HasPrefix(sem, "WEIGHTS_"))
				}
				skinned = skinned || (j > 0 && j == w)
			}
			if !skinned {
				l.fs.addc(Error, "NODE_SKIN_WITH_NON_SKINNED_MESH", p, "the node has a skin but its mesh has no JOINTS_0")
			}
		}
	}
	// A node listed as its own child has a parent too (NODE_LOOP).
	selfChild := map[int]bool{}
	for i, n := range l.doc.Nodes {
		if slices.Contains(n.Children, i) {
			selfChild[i] = true
		}
	}
	for si, s := range l.doc.Scenes {
		for k, n := range s.Nodes {
			if n >= 0 && n < len(parent) && (parent[n] >= 0 || selfChild[n]) {
				l.fs.addc(Error, "SCENE_NON_ROOT_NODE", fmt.Sprintf("/scenes/%d/nodes/%d", si, k), "node %d is not a root node", n)
			}
		}
	}
	// A skinned node must be in a scene that also holds its joints.
	for si, s := range l.doc.Scenes {
		in := map[int]bool{}
		var walk func(n, depth int)
		walk = func(n, depth int) {
			if n < 0 || n >= len(l.doc.Nodes) || in[n] || depth > len(l.doc.Nodes) {
				return
			}
			in[n] = true
			for _, c := range l.doc.Nodes[n].Children {
				walk(c, depth+1)
			}
		}
		for _, n := range s.Nodes {
			walk(n, 0)
		}
		for n := range in {
			nd := l.doc.Nodes[n]
			if nd.Skin == nil || *nd.Skin < 0 || *nd.Skin >= len(l.doc.Skins) {
				continue
			}
			for _, j := range l.doc.Skins[*nd.Skin].Joints {
				if !in[j] {
					l.fs.addc(Error, "NODE_SKIN_NO_SCENE", fmt.Sprintf("/nodes/%d", n), "the skinned node is in scene %d, which does not contain joint node %d", si, j)
					break
				}
			}
		}
	}
}

func (l *links) animations() {
	for ai, an := range l.doc.Animations {
		ap := fmt.Sprintf("/animations/%d", ai)
		targets := map[string][]int{}
		for ci, ch := range an.Channels {
			cp := fmt.Sprintf("%s/channels/%d", ap, ci)
			tp := cp + "/target"
			rawCh := l.rawChannel(ai, ci)
			rawPath, _ := rawCh["path"].(string)
			_, hasPointer := asMap(rawCh["extensions"])["KHR_animation_pointer"]
			// KHR_animation_pointer, once in extensionsUsed, adds "pointer"
			// to the valid paths, with or without the extension object.
			pointerPath := rawPath == "pointer" && l.used["KHR_animation_pointer"]
			validPath := rawPath == "" || rawPath == "translation" || rawPath == "rotation" || rawPath == "scale" || rawPath == "weights" || pointerPath
			if !validPath {
				l.fs.addc(Warning, "VALUE_NOT_IN_LIST", tp+"/path", "invalid value %q; valid values are translation, rotation, scale, weights", rawPath)
			}
			if hasPointer {
				if rawPath != "pointer" {
					l.fs.addc(Error, "KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_PATH", tp+"/extensions/KHR_animation_pointer", "with KHR_animation_pointer the path must be \"pointer\", found %q", rawPath)
				}
				if ch.Target.Node != nil {
					l.fs.addc(Error, "KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_NODE", tp+"/extensions/KHR_animation_pointer", "with KHR_animation_pointer the target node must be undefined")
				}
				continue
			}
			if !validPath {
				continue
			}
			if ch.Target.Node != nil && *ch.Target.Node >= 0 && *ch.Target.Node < len(l.doc.Nodes) {
				node := l.doc.Nodes[*ch.Target.Node]
				key := fmt.Sprintf("%d/%s", *ch.Target.Node, rawPath)
				// Each pair is reported on its earlier channel, naming the
				// later.
				prevs := targets[key]
				for _, prev := range prevs[:l.room("ANIMATION_DUPLICATE_TARGETS", Error, len(prevs))] {
					l.fs.addc(Error, "ANIMATION_DUPLICATE_TARGETS", fmt.Sprintf("%s/channels/%d/target", ap, prev), "the channel has the same target as channel %d", ci)
				}
				targets[key] = append(targets[key], ci)
				if rawPath != "weights" && !isIdentityMatrix(node.Matrix) {
					l.fs.addc(Error, "ANIMATION_CHANNEL_TARGET_NODE_MATRIX", tp, "an animation channel cannot target TRS properties of a node with a matrix")
				}
				if rawPath == "weights" && l.morphTargets(node.Mesh) <= 0 {
					l.fs.addc(Error, "ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS", tp, "an animation channel cannot target weights when the mesh has no morph targets")
				}
			}
			if ch.Sampler < 0 || ch.Sampler >= len(an.Samplers) {
				continue
			}
			sm := an.Samplers[ch.Sampler]
			out := l.acc(sm.Output)
			if out == nil {
				continue
			}
			// The output's fit to the channel is reported on the channel.
			op := cp + "/sampler"
			f := accFormat(out)
			var allowed []format
			switch rawPath {
			case "translation", "scale":
				allowed = fmts(v3, fl, false)
			case "rotation":
				allowed = append(fmts(v4, fl, false), fmts(v4, bs, true)...)
			case "weights":
				allowed = append(fmts([]gltf.AccessorType{gltf.AccessorScalar}, fl, false), fmts([]gltf.AccessorType{gltf.AccessorScalar}, allInt, true)...)
			}
			if allowed != nil && !containsFormat(allowed, f) {
				l.fs.addc(Error, "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT", op, "invalid output accessor format %s for path %s", f, rawPath)
			}
			in := l.acc(sm.Input)
			if in == nil {
				continue
			}
			k := 1
			if rawPath == "weights" {
				// One weight per morph target of the mesh's first
				// primitive; without any (no node, no mesh, no targets)
				// the count is not checked (glTF-Validator animation.dart:
				// an expected count of 0 is skipped).
				k = 0
				if ch.Target.Node != nil && *ch.Target.Node >= 0 && *ch.Target.Node < len(l.doc.Nodes) {
					k = max(l.morphTargets(l.doc.Nodes[*ch.Target.Node].Mesh), 0)
				}
				if k == 0 {
					continue
				}
			}
			want := in.Count * k
			if sm.Interpolation == gltf.InterpolationCubicSpline {
				want *= 3
			}
			if out.Count != want {
				l.fs.addc(Error, "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT", op, "the output accessor should have %d elements, it has %d", want, out.Count)
			}
		}
		for si, sm := range an.Samplers {
			sp := fmt.Sprintf("%s/samplers/%d", ap, si)
			if in := l.acc(sm.Input); in != nil {
				f := accFormat(in)
				if f != (format{gltf.AccessorScalar, gltf.ComponentFloat, false}) {
					l.fs.addc(Error, "ANIMATION_SAMPLER_INPUT_ACCESSOR_INVALID_FORMAT", sp+"/input", "invalid input accessor format %s; must be {SCALAR, FLOAT}", f)
				}
				if !hasBounds(in) {
					l.fs.addc(Error, "ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS", sp+"/input", "accessor.min and accessor.max must be defined for an animation input")
				}
				if sm.Interpolation == gltf.InterpolationCubicSpline && in.Count < 2 {
					l.fs.addc(Error, "ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS", sp+"/input", "CUBICSPLINE needs at least 2 keyframes, the input has %d", in.Count)
				}
				if bv := l.view(in.BufferView); bv != nil && bv.ByteStride != 0 {
					l.fs.addc(Error, "ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE", sp+"/input", "buffer views of animation sampler accessors must not have byteStride")
				}
				l.useView(in, "Other", sp+"/input")
			}
			if out := l.acc(sm.Output); out != nil {
				if bv := l.view(out.BufferView); bv != nil && bv.ByteStride != 0 {
					l.fs.addc(Error, "ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE", sp+"/output", "buffer views of animation sampler accessors must not have byteStride")
				}
				l.useView(out, "Other", sp+"/output")
			}
		}
	}
}

func isIdentityMatrix(m [16]float64) bool {
	return m == [16]float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1} || m == [16]float64{}
}

// rawChannelObj returns channel ci of animation ai as read from the JSON.
func (l *links) rawChannelObj(ai, ci int) map[string]any {
	chs, _ := l.rawObj("animations", ai)["channels"].([]any)
	if ci < 0 || ci >= len(chs) {
		return nil
	}
	ch, _ := chs[ci].(map[string]any)
	return ch
}

func (l *links) rawChannel(ai, ci int) map[string]any {
	an := l.rawObj("animations", ai)
	chs, _ := an["channels"].([]any)
	if ci < 0 || ci >= len(chs) {
		return nil
	}
	ch, _ := chs[ci].(map[string]any)
	t, _ := ch["target"].(map[string]any)
	return t
}

func (l *links) skins() {
	for si, s := range l.doc.Skins {
		p := fmt.Sprintf("/skins/%d", si)
		a := l.accPtr(s.InverseBindMatrices)
		if a == nil {
			continue
		}
		ip := p + "/inverseBindMatrices"
		if f := accFormat(a); f != (format{gltf.AccessorMat4, gltf.ComponentFloat, false}) {
			l.fs.addc(Error, "SKIN_IBM_INVALID_FORMAT", ip, "invalid inverse bind matrices accessor format %s; must be {MAT4, FLOAT}", f)
		}
		if a.Count < len(s.Joints) {
			l.fs.addc(Error, "INVALID_IBM_ACCESSOR_COUNT", ip, "the inverse bind matrices accessor must have at least %d elements, it has %d", len(s.Joints), a.Count)
		}
		if bv := l.view(a.BufferView); bv != nil && bv.ByteStride != 0 {
			l.fs.addc(Error, "SKIN_IBM_ACCESSOR_WITH_BYTESTRIDE", ip, "buffer views of inverse bind matrices must not have byteStride")
		}
		l.useView(a, "Other", ip)
	}
}

// parseURI reports whether uri is absolute (has a scheme), or why it does
// not parse.
func parseURI(uri string) (absolute bool, err error) {
	if strings.HasPrefix(uri, ":") {
		return false, fmt.Errorf("empty scheme")
	}
	i := strings.IndexAny(uri, ":/?#")
	if i > 0 && uri[i] == ':' {
		scheme := uri[:i]
		if !regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*$`).MatchString(scheme) {
			return false, fmt.Errorf("invalid scheme %q", scheme)
		}
		return true, nil
	}
	return false, nil
}

var extNamePattern = regexp.MustCompile(`^[A-Z0-9]+_[A-Za-z0-9_]+$`)

// extensions checks extensionsUsed and extensionsRequired against the
// extension objects found, and the schema of the extensions the validator
// knows.
func (l *links) extensions() {
	root := l.sc.root
	usedRaw, hasUsed := root["extensionsUsed"].([]any)
	reqRaw, hasReq := root["extensionsRequired"].([]any)
	l.extensionObjects()
	seen := map[string]bool{}
	for _, e := range l.sc.exts {
		seen[e.name] = true
	}
	required := map[string]bool{}
	if hasReq {
		if !hasUsed {
			l.fs.addc(Error, "UNSATISFIED_DEPENDENCY", "/extensionsRequired", "dependency failed: extensionsUsed must be defined with extensionsRequired")
		}
		for i, v := range reqRaw {
			name, _ := v.(string)
			required[name] = true
			if !l.used[name] {
				l.fs.addc(Error, "UNUSED_EXTENSION_REQUIRED", fmt.Sprintf("/extensionsRequired/%d", i), "extension %q is required but not in extensionsUsed", name)
			}
		}
	}
	for i, v := range usedRaw {
		name, _ := v.(string)
		p := fmt.Sprintf("/extensionsUsed/%d", i)
		if !extNamePattern.MatchString(name) {
			l.fs.addc(Warning, "INVALID_EXTENSION_NAME_FORMAT", p, "extension name %q has an invalid format", name)
		}
		if name == "KHR_mesh_quantization" && !required[name] {
			l.fs.addc(Error, "NON_REQUIRED_EXTENSION", p, "extension %q cannot be optional: it must be in extensionsRequired", name)
		}
		if !seen[name] && len(extensionKinds[name]) > 0 {
			l.fs.addc(Info, "UNUSED_EXTENSION", p, "extension %q is declared but no object uses it", name)
		}
		callerKnows := l.opt.Known != nil && l.opt.Known(name)
		if _, checked := extensionKinds[name]; (!checked || needsDecoder[name]) && name != "" && !callerKnows {
			l.fs.addc(Info, "UNSUPPORTED_EXTENSION", p, "extension %q is not supported: its data is not validated", name)
		}
		if required[name] && name != "" && !callerKnows && l.opt.Known != nil {
			l.fs.addc(Error, "UNSUPPORTED_REQUIRED_EXTENSION", p, "extension %q is required but not supported: the file will not display right", name)
		}
	}
}

// extensionObjects checks each extension object found: declared, in a place
// its extension allows, and its schema. The checks read texture infos inside
// extension objects, which add the extensions found there (a
// KHR_texture_transform in a KHR_materials_sheen texture) to the list this
// loop is walking, so they are checked too.
func (l *links) extensionObjects() {
	for i := 0; i < len(l.sc.exts); i++ {
		e := l.sc.exts[i]
		if !l.used[e.name] {
			// Only that: the Khronos validator reads no further into an
			// extension the file does not declare (gltf_property.dart
			// getExtensions).
			l.fs.addc(Error, "UNDECLARED_EXTENSION", e.path, "extension %q is not declared in extensionsUsed", e.name)
			continue
		}
		kinds, known := extensionKinds[e.name]
		if !known {
			continue
		}
		if !containsStr(kinds, e.kind) {
			l.fs.addc(Error, "UNEXPECTED_EXTENSION_OBJECT", e.path, "unexpected location for %s (on a %s)", e.name, e.kind)
			continue
		}
		if allowed, ok := extensionProperties[e.name]; ok {
			if o, isObj := e.value.(map[string]any); isObj {
				l.sc.unexpected(o, e.path, allowed)
			}
		}
		if check := extensionChecks[e.name]; check != nil {
			check(l, e)
		}
	}
}

func containsStr(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// needsDecoder lists the extensions whose placement is checked but whose
// data (compressed geometry, instancing, GPU textures) corecheck does not
// read: UNSUPPORTED_EXTENSION unless Options.Known says the caller reads
// them. The hook for validation inside decoded Draco and meshopt data is
// there: once the caller decodes them it validates the decoded accessors.
var needsDecoder = map[string]bool{
	"KHR_draco_mesh_compression": true,
	"EXT_meshopt_compression":    true,
	"EXT_mesh_gpu_instancing":    true,
	"KHR_texture_basisu":         true,
	"EXT_texture_avif":           true,
}

// extensionKinds lists the objects each known extension may extend.
var extensionKinds = map[string][]string{
	"KHR_materials_anisotropy":            {"material"},
	"KHR_materials_clearcoat":             {"material"},
	"KHR_materials_diffuse_transmission":  {"material"},
	"KHR_materials_dispersion":            {"material"},
	"KHR_materials_emissive_strength":     {"material"},
	"KHR_materials_ior":                   {"material"},
	"KHR_materials_iridescence":           {"material"},
	"KHR_materials_pbrSpecularGlossiness": {"material"},
	"KHR_materials_sheen":                 {"material"},
	"KHR_materials_specular":              {"material"},
	"KHR_materials_transmission":          {"material"},
	"KHR_materials_unlit":                 {"material"},
	"KHR_materials_volume":                {"material"},
	"KHR_texture_transform":               {"textureInfo"},
	"KHR_texture_basisu":                  {"texture"},
	"EXT_texture_webp":                    {"texture"},
	"EXT_texture_avif":                    {"texture"},
	"KHR_lights_punctual":                 {"root", "node"},
	"KHR_materials_variants":              {"root", "primitive"},
	"KHR_mesh_quantization":               {},
	"KHR_node_visibility":                 {"node"},
	"KHR_animation_pointer":               {"animationChannelTarget"},
	"KHR_draco_mesh_compression":          {"primitive"},
	"EXT_mesh_gpu_instancing":             {"node"},
	"EXT_meshopt_compression":             {"buffer", "bufferView"},
}

// extensionChecks checks the schema of known extensions.
var extensionChecks = map[string]func(l *links, e extUse){
	"KHR_materials_anisotropy": func(l *links, e extUse) {
		l.extObject(e, func(s *schema, o map[string]any, p string) {
			s.number(o, p, "anisotropyStrength", false, 0, 1, false)
			s.number(o, p, "anisotropyRotation", false, none, none, false)
			s.textureInfo(o, p, "anisotropyTexture")
		})
	},
	"KHR_materials_clearcoat": func(l *links, e extUse) {
		l.extObject(e, func(s *schema, o map[string]any, p string) {
			s.number(o, p, "clearcoatFactor", false, 0, 1, false)
			s.number(o, p, "clearcoatRoughnessFactor", false, 0, 1, false)
			s.textureInfo(o, p, "clearcoatTexture")
			s.textureInfo(o, p, "clearcoatRoughnessTexture")
			s.textureInfo(o, p, "clearcoatNormalTexture")
		})
	},
	"KHR_materials_dispersion": func(l *links, e extUse) {
		l.extObject(e, func(s *schema, o map[string]any, p string) { s.number(o, p, "dispersion", false, 0, none, false) })
	},
	"KHR_materials_emissive_strength": func(l *links, e extUse) {
		l.extObject(e, func(s *schema, o map[string]any, p string) {
			s.number(o, p, "emissiveStrength", false, 0, none, false)
		})
	},
	"KHR_materials_ior": func(l *links, e extUse) {
		l.extObject(e, func(s *schema, o map[string]any, p string) {
			if v, ok := s.number(o, p, "ior", false, 0, none, false); ok && v != 0 && v < 1 {
				s.fs.addc(Error, "VALUE_NOT_IN_RANGE", p+"/ior", "value %g is out of range (0, or at least 1)", v)
			}
		})
	},
	"KHR_materials_volume": func(l *links, e extUse) {
		l.extObject(e, func(s *schema, o map[string]any, p string) {
			s.number(o, p, "thicknessFactor", false, 0, none, false)
			s.number(o, p, "attenuationDistance", false, 0, none, true)
			s.numArray(o, p, "attenuationColor", false, 0, 1, 3)
			s.textureInfo(o, p, "thicknessTexture")
		})
	},
	"KHR_materials_sheen": func(l *links, e extUse) {
		l.extObject(e, func(s *schema, o map[string]any, p string) {
			s.numArray(o, p, "sheenColorFactor", false, 0, 1, 3)
			s.number(o, p, "sheenRoughnessFactor", false, 0, 1, false)
			s.textureInfo(o, p, "sheenColorTexture")
			s.textureInfo(o, p, "sheenRoughnessTexture")
		})
	},
	"KHR_materials_transmission": func(l *links, e extUse) {
		l.extObject(e, func(s *schema, o map[string]any, p string) {
			s.number(o, p, "transmissionFactor", false, 0, 1, false)
			s.textureInfo(o, p, "transmissionTexture")
		})
	},
	"KHR_materials_specular": func(l *links, e extUse) {
		l.extObject(e, func(s *schema, o map[string]any, p string) {
			s.number(o, p, "specularFactor", false, 0, 1, false)
			s.numArray(o, p, "specularColorFactor", false, 0, none, 3)
			s.textureInfo(o, p, "specularTexture")
			s.textureInfo(o, p, "specularColorTexture")
		})
	},
	"KHR_materials_iridescence": func(l *links, e extUse) {
		l.extObject(e, func(s *schema, o map[string]any, p string) {
			s.number(o, p, "iridescenceFactor", false, 0, 1, false)
			s.number(o, p, "iridescenceIor", false, 1, none, false)
			s.number(o, p, "iridescenceThicknessMinimum", false, 0, none, false)
			s.number(o, p, "iridescenceThicknessMaximum", false, 0, none, false)
			s.textureInfo(o, p, "iridescenceTexture")
			s.textureInfo(o, p, "iridescenceThicknessTexture")
		})
	},
	"KHR_texture_transform": func(l *links, e extUse) {
		l.extObject(e, func(s *schema, o map[string]any, p string) {
			s.numArray(o, p, "offset", false, none, none, 2)
			s.number(o, p, "rotation", false, none, none, false)
			s.numArray(o, p, "scale", false, none, none, 2)
			s.integer(o, p, "texCoord", false, 0)
		})
	},
	"EXT_texture_webp": func(l *links, e extUse) {
		l.extObject(e, func(s *schema, o map[string]any, p string) { s.index(o, p, "source", "images", false) })
	},
	"KHR_texture_basisu": func(l *links, e extUse) {
		l.extObject(e, func(s *schema, o map[string]any, p string) { s.index(o, p, "source", "images", false) })
	},
	"KHR_animation_pointer": func(l *links, e extUse) {
		l.extObject(e, func(s *schema, o map[string]any, p string) {
			v, ok := s.str(o, p, "pointer", true)
			if !ok {
				return
			}
			if !pointerSyntax.MatchString(v) {
				s.fs.addc(Error, "PATTERN_MISMATCH", p+"/pointer", "pointer %q is not a JSON pointer", v)
				return
			}
			if ai, ci, ok := channelOf(e.path); ok {
				l.checkAnimationPointer(ai, ci, v, e.path)
			}
		})
	},
	"KHR_lights_punctual": func(l *links, e extUse) {
		if e.kind == "root" {
			l.extObject(e, func(s *schema, o map[string]any, p string) {
				for i, lt := range s.objects(o, p, "lights", true) {
					lp := fmt.Sprintf("%s/lights/%d", p, i)
					s.common(lt, lp, "light")
					typ, _ := s.enumStr(lt, lp, "type", true, "directional", "point", "spot")
					s.numArray(lt, lp, "color", false, 0, 1, 3)
					s.number(lt, lp, "intensity", false, 0, none, false)
					s.number(lt, lp, "range", false, 0, none, true)
					if _, ok := lt["range"]; ok && typ == "directional" {
						s.fs.addc(Info, "EXTRA_PROPERTY", lp+"/range", "a directional light has no range; it is not used")
					}
					if _, ok := lt["spot"]; ok && typ != "spot" && typ != "" {
						s.fs.addc(Info, "EXTRA_PROPERTY", lp+"/spot", "spot is only used by a spot light, this one is %s", typ)
					}
					spot := s.obj(lt, lp, "spot", typ == "spot")
					if spot != nil && typ == "spot" {
						sp := lp + "/spot"
						inner, iok := s.number(spot, sp, "innerConeAngle", false, 0, math.Pi/2, false)
						outer, ook := s.number(spot, sp, "outerConeAngle", false, 0, math.Pi/2, true)
						if !iok {
							inner = 0
						}
						if !ook {
							outer = math.Pi / 4
						}
						if outer <= inner {
							s.fs.addc(Error, "KHR_LIGHTS_PUNCTUAL_LIGHT_SPOT_ANGLES", sp+"/outerConeAngle", "outerConeAngle (%g) is less than or equal to innerConeAngle (%g)", outer, inner)
						}
					}
				}
			})
			return
		}
		rootExt := asMap(asMap(l.sc.root["extensions"])["KHR_lights_punctual"])
		if rootExt == nil {
			l.fs.addc(Error, "UNSATISFIED_DEPENDENCY", e.path, "dependency failed: /extensions/KHR_lights_punctual must be defined")
			// "light" is still required, though there is nothing to
			// resolve it against.
			l.extObject(e, func(s *schema, o map[string]any, p string) {
				if _, ok := o["light"]; !ok {
					s.fs.addc(Error, "UNDEFINED_PROPERTY", p, "property %q must be defined", "light")
				}
			})
			return
		}
		lights, _ := rootExt["lights"].([]any)
		l.extObject(e, func(s *schema, o map[string]any, p string) {
			s.count["lights"] = len(lights)
			s.index(o, p, "light", "lights", true)
		})
	},
	"KHR_materials_variants": func(l *links, e extUse) {
		l.extObject(e, func(s *schema, o map[string]any, p string) {
			if e.kind == "root" {
				for i, v := range s.objects(o, p, "variants", true) {
					s.unexpected(v, fmt.Sprintf("%s/variants/%d", p, i), nil)
					if _, ok := v["name"]; !ok {
						s.undefined(fmt.Sprintf("%s/variants/%d", p, i), "name")
					}
				}
				return
			}
			_, draft := o["mapping"] // the 2020 draft form, read and upgraded
			for i, m := range s.objects(o, p, "mappings", !draft) {
				mp := fmt.Sprintf("%s/mappings/%d", p, i)
				s.unexpected(m, mp, []string{"variants", "material"})
				if v, ok := m["variants"]; !ok {
					s.undefined(mp, "variants")
				} else if a, ok := v.([]any); ok && len(a) == 0 {
					s.fs.addc(Error, "EMPTY_ENTITY", mp+"/variants", "the array must not be empty")
				}
				if _, ok := m["material"]; !ok {
					s.undefined(mp, "material")
				}
			}
		})
	},
}

// extObject runs f on an extension object. A value that is not an object
// was reported as TYPE_MISMATCH where it was found (schema.common); like
// Khronos, its rules then run on an empty object, so its required
// properties are reported missing.
func (l *links) extObject(e extUse, f func(s *schema, o map[string]any, p string)) {
	o, _ := e.value.(map[string]any)
	cp := make(map[string]any, len(o))
	for k, v := range o {
		cp[k] = v
	}
	f(l.sc, cp, e.path)
}

func sortStringsInPlace(s []string) { slices.Sort(s) }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
