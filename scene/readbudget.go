package scene

import (
	"fmt"
	"math"
	"sync"

	"github.com/qmuntal/gltf"
)

// ReadBudgetFloor and ReadBudgetFactor make the document's read budget:
// the accessors of one document may materialize, together, at most
// max(ReadBudgetFloor, ReadBudgetFactor x the bytes of its buffers and
// decoded views) bytes of values. Accessors that do not overlap stay far
// under it (a float32 read of a byte is 4 bytes); accessors that alias
// one buffer view (1,000 of them on one 1.2 MB view asked for 1.2 GB,
// each under its own AccessorBudget) hit it.
const (
	ReadBudgetFloor  = 256 << 20
	ReadBudgetFactor = 8
)

// DerivedBudgetFloor and DerivedBudgetFactor bound, apart, what drawing
// makes from the accessors (flat normals: 72 bytes a triangle corner):
// max(DerivedBudgetFloor, DerivedBudgetFactor x the bytes of the
// buffers). A mesh without normals whose corners share vertices through
// 4-byte indices makes at most 18 times its bytes: far under it.
const (
	DerivedBudgetFloor  = 512 << 20
	DerivedBudgetFactor = 24
)

// AccessorKey says which values reading an accessor gives. Two accessors
// with equal keys read the same bytes in the same layout (same buffer
// view, offset, stride, count, type and normalization), so a reader may
// read one of them once for both. An accessor with sparse values, decoded
// (Draco) data or no buffer view has a key of its own.
type AccessorKey struct {
	view, offset, stride, count int
	typ                         gltf.AccessorType
	ct                          gltf.ComponentType
	norm                        bool
	// own is the accessor's index plus one when its key is its own.
	own int
}

// NoAccessor is the key of no accessor at all (an attribute a primitive
// does not have): no accessor's key equals it.
var NoAccessor = AccessorKey{own: math.MinInt}

// AccessorKey returns accessor i's key (see AccessorKey).
func (d *Document) AccessorKey(i int) AccessorKey {
	doc := d.GLTF
	if i < 0 || i >= len(doc.Accessors) || doc.Accessors[i] == nil {
		return AccessorKey{own: i + 1}
	}
	a := doc.Accessors[i]
	if _, decoded := d.DecodedAccessor(i); decoded || a.BufferView == nil || a.Sparse != nil {
		return AccessorKey{own: i + 1}
	}
	v := *a.BufferView
	stride := 0
	if v >= 0 && v < len(doc.BufferViews) && doc.BufferViews[v] != nil {
		stride = doc.BufferViews[v].ByteStride
	}
	return AccessorKey{view: v, offset: a.ByteOffset, stride: stride, count: a.Count, typ: a.Type, ct: a.ComponentType, norm: a.Normalized}
}

// readKind tells the reads of one accessor apart: as floats, normalized
// or not, or as indices.
type readKind uint8

const (
	readFloats readKind = iota
	readNormalized
	readIndices
	// readDerived is what drawing a primitive makes from its accessors
	// (flat normals: a vertex per corner), counted per primitive.
	readDerived
)

// readLedger counts the bytes the accessors of a document materialized,
// each accessor and kind once: reading the same accessor again (the
// renderer, the animation, a diff) costs nothing more. Aliases of one view
// count each, read alike or not: a reader that reads one for all of them
// (anim shares deformation data by AccessorKey) reads, and counts, one.
type readLedger struct {
	mu    sync.Mutex
	seen  map[readKey]bool
	bytes int64
	// derived is what readDerived charges counted, apart.
	derived int64
	// data is the bytes of the buffers and decoded views when last
	// counted; a charge that would pass the budget counts them again (an
	// edit may have added some).
	data int64
}

type readKey struct {
	accessor int
	kind     readKind
	// mesh and prim name the primitive of a readDerived.
	mesh, prim int
}

// AccessorBytesRead returns the bytes of values the document's accessor
// reads materialized so far, each distinct read counted once.
func (d *Document) AccessorBytesRead() int64 {
	l := d.reads
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.bytes
}

// ScannedBytes returns the bytes the load's check of accessors' min and
// max read (corecheck.ScanBudgetFloor bounds it).
func (d *Document) ScannedBytes() int64 { return d.scanned }

// dataBytes returns the bytes of d's buffers and decoded views and
// accessors.
func (d *Document) dataBytes() int64 {
	var n int64
	for _, b := range d.GLTF.Buffers {
		if b != nil {
			n += int64(len(b.Data))
		}
	}
	if g := d.geom; g != nil {
		for _, v := range g.views {
			n += int64(len(v))
		}
		for _, a := range g.accessors {
			n += int64(len(a))
		}
	}
	return n
}

// readBudget returns the document's read budget for data bytes of
// buffers.
func readBudget(data int64) int64 {
	return max(ReadBudgetFloor, ReadBudgetFactor*data)
}

// chargeRead counts size bytes for reading accessor i as kind, unless the
// same read was counted before. It is an error when the document's read
// budget would be passed: the accessor is not read.
func (d *Document) chargeRead(i int, kind readKind, size int64) error {
	return d.charge(readKey{accessor: i, kind: kind}, size, fmt.Sprintf("accessor %d", i))
}

// chargeDerived counts size bytes that drawing primitive p of mesh m makes
// from its accessors, once per primitive, against the same budget.
func (d *Document) chargeDerived(m, p int, size int64) error {
	return d.charge(readKey{accessor: -1, kind: readDerived, mesh: m, prim: p}, size, fmt.Sprintf("mesh %d primitive %d", m, p))
}

// charge counts size bytes for key unless counted before; what names the
// reader in the error.
func (d *Document) charge(key readKey, size int64, what string) error {
	l := d.reads
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen[key] {
		return nil
	}
	total, budget := &l.bytes, readBudget
	floor, factor, kind := int64(ReadBudgetFloor), ReadBudgetFactor, "the file's accessors read"
	if key.kind == readDerived {
		total, budget = &l.derived, derivedBudget
		floor, factor, kind = DerivedBudgetFloor, DerivedBudgetFactor, "drawing makes from the file's accessors"
	}
	if *total+size > budget(l.data) {
		l.data = d.dataBytes()
		if b := budget(l.data); *total+size > b {
			return fmt.Errorf("%s: its %s would take what %s past the budget of %s (%d times its %s of buffers, at least %s): its accessors read the same bytes many times",
				what, megabytes(size), kind, megabytes(b), factor, megabytes(l.data), megabytes(floor))
		}
	}
	if l.seen == nil {
		l.seen = map[readKey]bool{}
	}
	l.seen[key] = true
	*total += size
	return nil
}

// derivedBudget returns the budget of what drawing makes, for data bytes
// of buffers.
func derivedBudget(data int64) int64 {
	return max(DerivedBudgetFloor, DerivedBudgetFactor*data)
}

// megabytes writes n bytes in MB, with one decimal.
func megabytes(n int64) string {
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}
