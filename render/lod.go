package render

/*
#cgo LDFLAGS: -lmeshoptimizer
#include <meshoptimizer.h>
*/
import "C"

import (
	"math"
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/go-gl/mathgl/mgl64"
)

// Screen-space level of detail. A mesh of many vertices drawn small (10,000
// instances of a 100,000-vertex sphere, each a few dozen pixels) spends
// almost all its time shading vertices no pixel can show. Such a mesh gets,
// lazily, simplified index lists (meshopt_simplify of Debian's
// libmeshoptimizer, through this thin cgo layer) over the same vertex
// buffer, each with its geometric error in the mesh's units; a draw uses
// the coarsest level whose error, projected to the screen at the draw's
// nearest point, is under half a pixel. Only indexed triangle lists of at
// least lodMinVertices vertices, neither skinned nor morphed, get levels:
// everything smaller draws exactly as before.

// lodMinVertices is the fewest vertices a mesh needs for levels.
const lodMinVertices = 20000

// lodMaxPixelError is the largest projected geometric error a level may
// have where it is drawn, in pixels.
const lodMaxPixelError = 0.5

// lodSmallFraction: levels are built the first time the mesh is drawn with
// a bounding sphere of a radius under this fraction of the view's height.
const lodSmallFraction = 0.25

// lodAsideMax is the most indices (instances times the index count) a
// window frame draws while the levels are simplified on a goroutine: a
// draw of more waits for them (10,000 instances of a 100,000-vertex
// sphere are 6 x 10^9 indices, minutes on llvmpipe; simplifying it takes
// about a second).
const lodAsideMax = 2_000_000

// lodLevel is one simplified index list: count indices from index first of
// the meshLOD's element buffer, its geometric error in mesh units.
type lodLevel struct {
	first, count int32
	err          float64
}

// meshLOD is the state of one vertex array's levels.
type meshLOD struct {
	// eligible: an indexed triangle list of lodMinVertices or more,
	// neither skinned nor morphed.
	eligible bool
	checked  bool       // whether levels were asked for
	ebo      uint32     // the levels' indices, one after the other; 0: none
	levels   []lodLevel // finest first; level 0 of a draw is the full list
	// pending delivers the levels simplified on a goroutine (the window,
	// where the full mesh is cheap enough to draw meanwhile: about a
	// second for 100,000 vertices, a stall no frame should wait for);
	// until then the full list is drawn.
	pending chan lodResult
	// moving holds the levels drawn while the camera moves (lodmoving.go);
	// movingEligible says whether the mesh gets them.
	moving         movingLOD
	movingEligible bool
}

// lodResult is what simplifyLevels returns.
type lodResult struct {
	indices []uint32
	levels  []lodLevel
}

// lodCache holds the levels by vertex array (shared primitives share
// them; vertex arrays are made only by SetDocument, which empties it).
type lodCache struct {
	meshes      map[uint32]*meshLOD
	built       int // meshes simplified (for tests)
	movingBuilt int // meshes given moving levels (for tests)
	coarsest    int // the coarsest still level drawn (for tests)
	movingDrawn int // draws at a moving level (for tests)
	// cancel is closed when the document goes: the goroutine simplifying
	// its moving levels stops (lodmoving.go).
	cancel chan struct{}
}

func (c *lodCache) release() {
	if c.cancel != nil {
		close(c.cancel) // the moving levels still being simplified are not wanted
	}
	for _, m := range c.meshes {
		if m.ebo != 0 {
			gl.DeleteBuffers(1, &m.ebo)
		}
		if m.moving.ebo != 0 {
			gl.DeleteBuffers(1, &m.moving.ebo)
		}
	}
	*c = lodCache{}
}

// lodEnabled turns levels of detail on; tests turn it off to compare.
var lodEnabled = true

// simplifyLevels returns the levels of the triangle list idx over the
// positions pos (stride floats apart): index lists of a quarter of the
// indices of the one before, while that still shrinks them, each with its
// error in mesh units (the sum of the relative errors meshopt_simplify
// reports along the chain, times meshopt_simplifyScale).
func simplifyLevels(pos []float32, stride int, idx []uint32) (indices []uint32, levels []lodLevel) {
	n := len(pos) / stride
	if n == 0 || len(idx) < 3 {
		return nil, nil
	}
	scale := float64(C.meshopt_simplifyScale((*C.float)(unsafe.Pointer(&pos[0])), C.size_t(n), C.size_t(stride*4)))
	src := idx
	total := 0.0
	for len(src) > 96 {
		dst := make([]uint32, len(src))
		var rel C.float
		target := (len(src) / 4) / 3 * 3
		got := int(C.meshopt_simplify((*C.uint)(unsafe.Pointer(&dst[0])), (*C.uint)(unsafe.Pointer(&src[0])), C.size_t(len(src)),
			(*C.float)(unsafe.Pointer(&pos[0])), C.size_t(n), C.size_t(stride*4), C.size_t(target), 1, 0, &rel))
		if got == 0 || got > len(src)*9/10 {
			break // stuck (locked borders): no coarser level
		}
		total += float64(rel)
		levels = append(levels, lodLevel{first: int32(len(indices)), count: int32(got), err: total * scale})
		indices = append(indices, dst[:got]...)
		src = dst[:got]
	}
	return indices, levels
}

// lodMesh returns the level state of primitive gp's vertex array, made
// on the first call (which looks whether it is eligible), and takes the
// levels a goroutine has finished.
func (r *Renderer) lodMesh(gp *gpuPrimitive) *meshLOD {
	if r.lod.meshes == nil {
		r.lod.meshes = map[uint32]*meshLOD{}
	}
	m := r.lod.meshes[gp.vao]
	if m == nil {
		m = &meshLOD{}
		r.lod.meshes[gp.vao] = m
		if gp.indexed && gp.mode == gl.TRIANGLES && gp.def == nil && gp.count >= 3 && gp.vbo != 0 && gp.ebo != 0 {
			var vsize int32
			gl.BindBuffer(gl.COPY_READ_BUFFER, gp.vbo)
			gl.GetBufferParameteriv(gl.COPY_READ_BUFFER, gl.BUFFER_SIZE, &vsize)
			gl.BindBuffer(gl.COPY_READ_BUFFER, 0)
			m.eligible = int(vsize)/(gp.layout.floats*4) >= lodMinVertices
			m.movingEligible = gp.count >= lodMovingMinIndices && gp.count <= lodMovingMaxIndices
		}
	}
	if m.pending != nil {
		select {
		case res := <-m.pending:
			m.pending = nil
			r.uploadLevels(m, res)
		default:
		}
	}
	if m.moving.pending != nil {
		select {
		case res := <-m.moving.pending:
			m.moving.pending = nil
			m.moving.upload(res)
			r.lod.movingBuilt++
		default:
		}
	}
	return m
}

// buildLevels reads back eligible primitive gp's vertices and indices and
// simplifies them into m's levels: at once while an image is drawn or
// when now is set, on a goroutine otherwise.
func (r *Renderer) buildLevels(gp *gpuPrimitive, m *meshLOD, now bool) {
	m.checked = true
	var vsize, isize int32
	gl.BindBuffer(gl.COPY_READ_BUFFER, gp.vbo)
	gl.GetBufferParameteriv(gl.COPY_READ_BUFFER, gl.BUFFER_SIZE, &vsize)
	pos := make([]float32, int(vsize)/4)
	gl.GetBufferSubData(gl.COPY_READ_BUFFER, 0, int(vsize), gl.Ptr(pos))
	gl.BindBuffer(gl.COPY_READ_BUFFER, gp.ebo)
	gl.GetBufferParameteriv(gl.COPY_READ_BUFFER, gl.BUFFER_SIZE, &isize)
	idx := make([]uint32, int(isize)/4)
	if len(idx) > 0 {
		gl.GetBufferSubData(gl.COPY_READ_BUFFER, 0, len(idx)*4, gl.Ptr(idx))
	}
	gl.BindBuffer(gl.COPY_READ_BUFFER, 0)
	idx = idx[:min(len(idx), int(gp.count))/3*3]
	stride := gp.layout.floats // the positions are the first 3 floats
	nv := uint32(len(pos) / stride)
	for _, i := range idx {
		if i >= nv {
			return // an index past the vertices: drawn as it is
		}
	}
	if r.waitEnv || now {
		// An image being drawn (RenderImage) waits for its levels, and
		// so does a frame that would draw too much without them.
		indices, levels := simplifyLevels(pos, stride, idx)
		r.uploadLevels(m, lodResult{indices, levels})
		return
	}
	m.pending = make(chan lodResult, 1)
	go func(out chan<- lodResult) {
		defer func() {
			if recover() != nil {
				out <- lodResult{} // no levels: the full list stays
			}
		}()
		indices, levels := simplifyLevels(pos, stride, idx)
		out <- lodResult{indices, levels}
	}(m.pending)
}

// uploadLevels puts simplified index lists on the GPU for m.
func (r *Renderer) uploadLevels(m *meshLOD, res lodResult) {
	if len(res.levels) == 0 || len(res.indices) == 0 {
		return
	}
	m.ebo = uploadIndices(res.indices)
	m.levels = res.levels
	r.lod.built++
}

// uploadIndices puts the index lists of simplified levels, one after the
// other, into a new buffer and returns it.
func uploadIndices(indices []uint32) uint32 {
	var ebo uint32
	gl.GenBuffers(1, &ebo)
	gl.BindBuffer(gl.COPY_WRITE_BUFFER, ebo)
	gl.BufferData(gl.COPY_WRITE_BUFFER, len(indices)*4, gl.Ptr(indices), gl.STATIC_DRAW)
	gl.BindBuffer(gl.COPY_WRITE_BUFFER, 0)
	return ebo
}

// lodPick returns the level (0: the full list, k: levels[k-1]) to draw
// primitive gp with world matrices models (one draw of them all), the
// coarsest whose error projected at the nearest of them is under
// lodMaxPixelError.
func (r *Renderer) lodPick(ps *meshPass, gp *gpuPrimitive, models func(yield func(mgl64.Mat4) bool)) int {
	if !lodEnabled || ps.height <= 0 {
		return 0
	}
	m := r.lodMesh(gp)
	moving := r.movingLOD && m.movingEligible && movingLODEnabled
	if !m.eligible && !moving {
		return 0
	}
	eye := ps.cam.Eye()
	tanHalf := math.Tan(ps.cam.FovY / 2)
	if !(tanHalf > 0) {
		return 0
	}
	lo, hi := gp.corners[0], gp.corners[7]
	center := lo.Add(hi).Mul(0.5)
	radius := hi.Sub(lo).Len() / 2
	// ratio is the smallest distance over scale: the error of a level in
	// pixels is err / ratio / tanHalf * height / 2.
	ratio := math.Inf(1)
	instances := 0
	for model := range models {
		instances++
		s := 0.0
		for k := 0; k < 3; k++ {
			s = math.Max(s, model.Col(k).Vec3().Len())
		}
		if s == 0 {
			continue
		}
		c := model.Mul4x1(center.Vec4(1)).Vec3()
		d := c.Sub(eye).Len() - radius*s
		if !(d > 0) {
			return 0 // the camera is at or inside it
		}
		ratio = math.Min(ratio, d/s)
	}
	if math.IsInf(ratio, 1) || math.IsNaN(ratio) {
		return 0
	}
	perUnit := float64(ps.height) / 2 / tanHalf / ratio // pixels per mesh unit at the nearest
	if moving {
		if lvl := r.movingPick(ps, gp, m, perUnit); lvl != 0 {
			return lvl
		}
	}
	if !m.eligible {
		return 0
	}
	if !m.checked && radius*perUnit < lodSmallFraction*float64(ps.height) {
		r.buildLevels(gp, m, instances*int(gp.count) > lodAsideMax)
	}
	best := 0
	for k, l := range m.levels {
		if l.err*perUnit < lodMaxPixelError {
			best = k + 1
		}
	}
	return best
}

// lodItem picks the level of a drawn item that is neither skinned nor
// morphed nor instanced.
func (r *Renderer) lodItem(ps *meshPass, it *drawItem) int {
	if it.dyn != nil {
		return 0
	}
	return r.lodPick(ps, it.prim, func(yield func(mgl64.Mat4) bool) { yield(it.model) })
}

// lodInstances picks the level of instances [first, first+n) of an
// EXT_mesh_gpu_instancing item (their matrices are read back from the
// instance buffer once, kept with the item's itemDyn).
func (r *Renderer) lodInstances(ps *meshPass, it drawItem, first, n int) int {
	d := it.dyn
	if d == nil || d.skin >= 0 || d.weightTex != 0 || d.cpuVBO != 0 || d.instVBO == 0 || n <= 0 {
		return 0
	}
	inst := d.lodInst
	if inst == nil {
		raw := make([]mgl32.Mat4, d.instances)
		gl.BindBuffer(gl.COPY_READ_BUFFER, d.instVBO)
		gl.GetBufferSubData(gl.COPY_READ_BUFFER, 0, len(raw)*64, gl.Ptr(raw))
		gl.BindBuffer(gl.COPY_READ_BUFFER, 0)
		inst = make([]mgl64.Mat4, len(raw))
		for i, m := range raw {
			inst[i] = mat64(m)
		}
		d.lodInst = inst
	}
	if first+n > len(inst) {
		return 0
	}
	return r.lodPick(ps, it.prim, func(yield func(mgl64.Mat4) bool) {
		for _, m := range inst[first : first+n] {
			if !yield(it.model.Mul4(m)) {
				return
			}
		}
	})
}

// mat64 widens a float32 matrix.
func mat64(m mgl32.Mat4) mgl64.Mat4 {
	var o mgl64.Mat4
	for i, v := range m {
		o[i] = float64(v)
	}
	return o
}

// lodLevelOf returns the level lvl of gp (positive: a still level,
// negative: a moving one) and the element buffer holding it; ok is false
// for the full list.
func (r *Renderer) lodLevelOf(gp *gpuPrimitive, lvl int) (l lodLevel, ebo uint32, ok bool) {
	m := r.lod.meshes[gp.vao]
	switch {
	case m == nil || lvl == 0:
	case lvl > 0 && lvl <= len(m.levels):
		return m.levels[lvl-1], m.ebo, true
	case lvl < 0 && -lvl <= len(m.moving.levels):
		return m.moving.levels[-lvl-1], m.moving.ebo, true
	}
	return lodLevel{}, 0, false
}

// lodCount returns the index count of primitive gp at level lvl.
func (r *Renderer) lodCount(gp *gpuPrimitive, lvl int) int {
	if l, _, ok := r.lodLevelOf(gp, lvl); ok {
		return int(l.count)
	}
	return int(gp.count)
}

// drawElements draws n instances (0: one, not instanced) of indexed
// primitive gp, whose vertex array is bound, at level lvl, and returns the
// index count drawn per instance.
func (r *Renderer) drawElements(gp *gpuPrimitive, lvl, n int) int {
	l, ebo, ok := r.lodLevelOf(gp, lvl)
	if !ok {
		if n == 0 {
			gl.DrawElements(gp.mode, gp.count, gl.UNSIGNED_INT, nil)
		} else {
			gl.DrawElementsInstanced(gp.mode, gp.count, gl.UNSIGNED_INT, nil, int32(n))
		}
		return int(gp.count)
	}
	r.lod.coarsest = max(r.lod.coarsest, lvl)
	if lvl < 0 {
		r.lod.movingDrawn++
	}
	// The vertex array's element buffer is switched to the levels' for
	// this draw, then back: the vertices are the same buffer.
	gl.BindBuffer(gl.ELEMENT_ARRAY_BUFFER, ebo)
	if n == 0 {
		gl.DrawElements(gp.mode, l.count, gl.UNSIGNED_INT, gl.PtrOffset(int(l.first)*4))
	} else {
		gl.DrawElementsInstanced(gp.mode, l.count, gl.UNSIGNED_INT, gl.PtrOffset(int(l.first)*4), int32(n))
	}
	gl.BindBuffer(gl.ELEMENT_ARRAY_BUFFER, gp.ebo)
	return int(l.count)
}
