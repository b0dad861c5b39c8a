package anim

import (
	"fmt"
	"hash/maphash"
	"slices"
	"unsafe"

	"github.com/qmuntal/gltf"

	"physview/scene"
)

// Deform is what moves one primitive's vertices besides its node: skin
// influences and morph target deltas, one entry per vertex in the file's
// vertex order.
type Deform struct {
	// Positions are the bind-shape positions.
	Positions [][3]float32
	// Indices are the drawn vertices of an indexed primitive (nil: all).
	Indices []uint32
	// Joints and Weights are JOINTS_0/WEIGHTS_0 and JOINTS_1/WEIGHTS_1
	// (eight influences); nil when absent.
	Joints  [2][][4]uint16
	Weights [2][][4]float32
	// Targets are the morph targets.
	Targets []Target
	// Err says why the deformation data could not be read (then only
	// Positions and Indices are set).
	Err error

	// shared is the entry whose data this is: primitives whose accessors
	// read the same values (scene.AccessorKey) share one.
	shared *deformEntry
}

// deformEntry is deformation data read once for every primitive whose
// accessors have keys: 1,000 primitives of accessors aliasing one view
// read it once, and hold it once.
type deformEntry struct {
	keys []scene.AccessorKey
	df   *Deform
	// cause is why the data could not be read, without the primitive's
	// name (each primitive's Err names it).
	cause error
	// unread is why there is no data at all (df nil): the positions or
	// indices could not be read.
	unread error
}

// Unread returns why primitive p of mesh me has no deformation data and
// so places no vertex (its positions or indices cannot be read: over a
// budget, out of range), nil when it has, or has no POSITION. Ask after
// Deform or Bounds.
func (m *Model) Unread(me, p int) error { return m.unread[[2]int{me, p}] }

// Target is one morph target's deltas; nil when the target has none of
// that attribute.
type Target struct {
	Position, Normal, Tangent [][3]float32
}

// Skinned reports whether the primitive has at least four influences.
func (df *Deform) Skinned() bool { return df.Joints[0] != nil && df.Weights[0] != nil }

// Deform returns primitive p of mesh me's deformation data, read once.
// nil when the mesh or primitive does not exist or its POSITION cannot be
// read.
func (m *Model) Deform(me, p int) *Deform {
	key := [2]int{me, p}
	if df, ok := m.deforms[key]; ok {
		return df
	}
	df := m.sharedDeform(me, p)
	m.deforms[key] = df
	return df
}

// deformKeys returns the keys of the accessors primitive p of mesh me
// reads for its deformation data, in a fixed order.
func deformKeys(d *scene.Document, prim *gltf.Primitive) []scene.AccessorKey {
	key := func(i int, ok bool) scene.AccessorKey {
		if !ok {
			return scene.NoAccessor
		}
		return d.AccessorKey(i)
	}
	pos, ok := prim.Attributes[gltf.POSITION]
	keys := []scene.AccessorKey{key(pos, ok)}
	if prim.Indices != nil {
		keys = append(keys, key(*prim.Indices, true))
	} else {
		keys = append(keys, scene.NoAccessor)
	}
	for _, name := range []string{"JOINTS_0", "WEIGHTS_0", "JOINTS_1", "WEIGHTS_1"} {
		i, ok := prim.Attributes[name]
		keys = append(keys, key(i, ok))
	}
	for _, t := range prim.Targets {
		for _, name := range []string{"POSITION", "NORMAL", "TANGENT"} {
			i, ok := t[name]
			keys = append(keys, key(i, ok))
		}
	}
	return keys
}

// sharedDeform returns primitive p of mesh me's deformation data, read
// once for all primitives whose accessors read the same values.
func (m *Model) sharedDeform(me, p int) *Deform {
	d := m.Doc
	doc := d.GLTF
	if me < 0 || me >= len(doc.Meshes) || p < 0 || p >= len(doc.Meshes[me].Primitives) {
		return nil
	}
	keys := deformKeys(d, doc.Meshes[me].Primitives[p])
	var h maphash.Hash
	h.SetSeed(m.seed)
	for _, k := range keys {
		maphash.WriteComparable(&h, k)
	}
	sum := h.Sum64()
	var e *deformEntry
	for _, c := range m.shared[sum] {
		if slices.Equal(c.keys, keys) {
			e = c
			break
		}
	}
	if e == nil {
		df, why := readDeform(d, me, p)
		e = &deformEntry{keys: keys, df: df, unread: why}
		if e.df != nil {
			e.df.shared = e
			if e.df.Err != nil {
				e.cause = e.df.Err
				e.df.Err = fmt.Errorf("mesh %d primitive %d: %w", me, p, e.cause)
			}
		}
		m.shared[sum] = append(m.shared[sum], e)
		if e.df == nil && e.unread != nil {
			m.unread[[2]int{me, p}] = fmt.Errorf("mesh %d primitive %d: %w", me, p, e.unread)
		}
		return e.df
	}
	if e.df == nil {
		if e.unread != nil {
			m.unread[[2]int{me, p}] = fmt.Errorf("mesh %d primitive %d: %w", me, p, e.unread)
		}
		return nil
	}
	// The same data under this primitive's name.
	df := *e.df
	if e.cause != nil {
		df.Err = fmt.Errorf("mesh %d primitive %d: %w", me, p, e.cause)
	}
	return &df
}

// readDeform reads primitive p of mesh me's deformation data; Err, when
// set, does not name the primitive (sharedDeform does). It is nil without
// a POSITION, and nil with why when the positions or indices cannot be
// read.
func readDeform(d *scene.Document, me, p int) (df *Deform, why error) {
	doc := d.GLTF
	if me < 0 || me >= len(doc.Meshes) || p < 0 || p >= len(doc.Meshes[me].Primitives) {
		return nil, nil
	}
	prim := doc.Meshes[me].Primitives[p]
	pi, ok := prim.Attributes[gltf.POSITION]
	if !ok {
		return nil, nil
	}
	pos, err := readVec3(d, pi)
	if err != nil {
		return nil, fmt.Errorf("POSITION: %w", err)
	}
	df = &Deform{Positions: pos}
	n := len(pos)
	if prim.Indices != nil {
		idx, err := d.AccessorIndices(*prim.Indices)
		if err != nil {
			return nil, fmt.Errorf("indices: %w", err)
		}
		for _, v := range idx {
			if int64(v) >= int64(n) {
				return nil, fmt.Errorf("index %d is past the %d vertices", v, n)
			}
		}
		df.Indices = idx
	}
	fail := func(err error) (*Deform, error) {
		df.Err = err
		df.Joints, df.Weights, df.Targets = [2][][4]uint16{}, [2][][4]float32{}, nil
		return df, nil
	}
	for set := 0; set < 2; set++ {
		ji, jok := prim.Attributes[fmt.Sprintf("JOINTS_%d", set)]
		wi, wok := prim.Attributes[fmt.Sprintf("WEIGHTS_%d", set)]
		if !jok || !wok {
			continue
		}
		// Read as float32, the decoded form, not through readFloats'
		// float64 copy: twice the bytes for values that end as uint16
		// and float32.
		jv, comps, err := d.AccessorFloats(ji, true)
		if err != nil || comps != 4 || len(jv) != 4*n {
			return fail(fmt.Errorf("JOINTS_%d: cannot be read (%v)", set, err))
		}
		wv, comps, err := d.AccessorFloats(wi, true)
		if err != nil || comps != 4 || len(wv) != 4*n {
			return fail(fmt.Errorf("WEIGHTS_%d: cannot be read (%v)", set, err))
		}
		df.Joints[set] = make([][4]uint16, n)
		df.Weights[set] = make([][4]float32, n)
		for i := 0; i < n; i++ {
			for k := 0; k < 4; k++ {
				df.Joints[set][i][k] = uint16(jv[4*i+k])
				df.Weights[set][i][k] = wv[4*i+k]
			}
		}
	}
	for ti, t := range prim.Targets {
		var tg Target
		for name, dst := range map[string]*[][3]float32{"POSITION": &tg.Position, "NORMAL": &tg.Normal, "TANGENT": &tg.Tangent} {
			ai, ok := t[name]
			if !ok || zeroAccessor(d, ai, n) {
				// All zeros: the target moves nothing, and is never
				// read into memory (a 17 KB file of 1,000 such
				// targets of 100,000 vertices made inspect take 2 GB).
				continue
			}
			v, err := readVec3(d, ai)
			if err != nil || len(v) != n {
				return fail(fmt.Errorf("target %d %s: cannot be read (%v)", ti, name, err))
			}
			*dst = v
		}
		df.Targets = append(df.Targets, tg)
	}
	return df, nil
}

// zeroAccessor reports whether accessor i holds n zeros: it has no
// bufferView and no sparse values (glTF's rule for such an accessor), and
// n elements, as a morph target of n vertices needs (any other count is
// read, and refused with its reason).
func zeroAccessor(d *scene.Document, i, n int) bool {
	if i < 0 || i >= len(d.GLTF.Accessors) {
		return false
	}
	a := d.GLTF.Accessors[i]
	return a.BufferView == nil && (a.Sparse == nil || a.Sparse.Count == 0) && a.Count == n
}

// readVec3 reads accessor i as 3-vectors, through the document's reader
// (and its budgets), without a copy.
func readVec3(d *scene.Document, i int) ([][3]float32, error) {
	v, comps, err := d.AccessorFloats(i, true)
	if err != nil {
		return nil, err
	}
	if comps != 3 {
		return nil, fmt.Errorf("accessor %d: %d components, want 3", i, comps)
	}
	if len(v) < 3 {
		return [][3]float32{}, nil
	}
	// The same memory seen as vectors: no copy.
	return unsafe.Slice((*[3]float32)(unsafe.Pointer(&v[0])), len(v)/3), nil
}
