package render

/*
#include <meshoptimizer.h>
*/
import "C"

import (
	"math"
	"os"
	"unsafe"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// Levels of detail while the camera moves. A frame drawn while the camera
// moves is reduced (View: dynamic resolution) when the full one would not
// fit the frame; on llvmpipe such a frame's floor is its triangles, not
// its pixels: every triangle, however small, costs the fragment shader a
// block of 4x4 pixels. So every mesh of some size gets a second set of
// levels, used only by those reduced frames, with at most a pixel of the
// reduced view's error: the still frame (and every image) draws exactly
// what it drew before.
//
// Unlike the still levels (lod.go), these are simplified over the mesh
// welded by position and UV: a mesh whose vertices are split at every
// hard edge (StainedGlassLamp's beads: 26,718 vertices for 9,940
// triangles) is, to meshopt_simplify, all locked borders, and simplifies
// no further. Each corner of a simplified triangle then draws, among the
// vertices at its position and UV, the one whose normal is nearest the
// triangle's facing: the blur of the reduced view hides what the welding
// mixes.

// lodMovingMinIndices is the fewest indices a mesh needs for moving
// levels: below it a mesh costs little either way.
const lodMovingMinIndices = 1536

// lodMovingMaxIndices is the most indices a mesh may have for moving
// levels: each level is simplified from the whole mesh, and a larger one
// would keep a core busy for seconds (the still levels, lod.go, serve it
// where it is small).
const lodMovingMaxIndices = 3_000_000

// lodMovingPixelError is the largest projected geometric error of a
// moving level where it is drawn, in pixels of the reduced view (2.5
// pixels of the window at the least scale); lodMovingRefractError that of
// a transmissive primitive's (and what comes after them: the blended
// ones): the normals of a coarser level bend what shows through the
// glass, and thin strands of beads thin out.
const (
	lodMovingPixelError   = 1.0
	lodMovingRefractError = 0.5
)

// movingLODEnabled turns the moving levels on; tests and the benchmark's
// comparison turn them off (PHYSVIEW_MOVINGLOD=off).
var movingLODEnabled = os.Getenv("PHYSVIEW_MOVINGLOD") != "off"

// movingLOD is one mesh's moving levels.
type movingLOD struct {
	checked bool       // whether they were asked for
	ebo     uint32     // the levels' indices, one after the other; 0: none
	levels  []lodLevel // finest first
	// pending delivers them from the goroutine that simplifies.
	pending chan lodResult
}

// upload puts the simplified index lists on the GPU.
func (ml *movingLOD) upload(res lodResult) {
	if len(res.levels) == 0 || len(res.indices) == 0 {
		return
	}
	ml.ebo = uploadIndices(res.indices)
	ml.levels = res.levels
}

// movingPick returns the coarsest moving level (as -k for levels[k-1])
// whose error is under lodMovingPixelError (lodMovingRefractError for
// ps's transmissive primitives) at perUnit pixels per mesh
// unit, or 0 (none, or not built yet: the first call starts building).
func (r *Renderer) movingPick(ps *meshPass, gp *gpuPrimitive, m *meshLOD, perUnit float64) int {
	if !m.moving.checked {
		r.buildMovingLevels(gp, m)
	}
	bound := lodMovingPixelError
	if ps.refracting {
		bound = lodMovingRefractError
	}
	best := 0
	for k, l := range m.moving.levels {
		if l.err*perUnit <= bound {
			best = -(k + 1)
		}
	}
	return best
}

// buildMovingLevels reads back gp's vertices and indices and simplifies
// them on a goroutine; the levels arrive in a later frame (lodMesh).
func (r *Renderer) buildMovingLevels(gp *gpuPrimitive, m *meshLOD) {
	r.simplifyAside([]*gpuPrimitive{gp}, []*meshLOD{m})
}

// simplifyAside reads back the meshes of gps (their levels' state in ms)
// and simplifies them one after the other on one goroutine, on a thread
// of lower priority (the window's frames and the rasteriser come first);
// each mesh's levels arrive in a later frame (lodMesh).
func (r *Renderer) simplifyAside(gps []*gpuPrimitive, ms []*meshLOD) {
	type job struct {
		vert         []float32
		idx          []uint32
		stride, n, u int
		out          chan<- lodResult
	}
	var jobs []job
	for i, gp := range gps {
		m := ms[i]
		m.moving.checked = true
		vert, idx := readBackMesh(gp)
		if vert == nil {
			continue
		}
		out := make(chan lodResult, 1)
		m.moving.pending = out
		jobs = append(jobs, job{vert, idx, gp.layout.floats, int(gp.layout.offset[0]), int(gp.layout.offset[2]), out})
	}
	if len(jobs) == 0 {
		return
	}
	if r.lod.cancel == nil {
		r.lod.cancel = make(chan struct{})
	}
	cancel := r.lod.cancel
	go func() {
		lowerThreadPriority()
		for _, j := range jobs {
			select {
			case <-cancel:
				return // another document
			default:
			}
			func() {
				defer func() {
					if recover() != nil {
						j.out <- lodResult{} // no levels: the full list stays
					}
				}()
				indices, levels := simplifyMoving(j.vert, j.stride, j.n, j.u, j.idx)
				j.out <- lodResult{indices, levels}
			}()
		}
	}()
}

// PrepareMovingLevels starts simplifying, off the frame, the moving
// levels of every mesh that gets them, once the document is drawn in full
// (every texture in: the decoders come first), so that they are there by
// the time the camera first moves. View calls it after each full redraw;
// it does something once per document.
func (r *Renderer) PrepareMovingLevels() {
	if r.movingPrepared || !movingLODEnabled || !lodEnabled || r.doc == nil || !r.drawnTextured ||
		len(r.refine) > 0 || r.Uploading() || len(r.later) > 0 {
		return
	}
	r.movingPrepared = true
	var gps []*gpuPrimitive
	var ms []*meshLOD
	for i := range r.items {
		it := &r.items[i]
		if it.dyn != nil {
			continue
		}
		m := r.lodMesh(it.prim)
		if m.movingEligible && !m.moving.checked {
			m.moving.checked = true // once, however many items draw it
			gps, ms = append(gps, it.prim), append(ms, m)
		}
	}
	r.simplifyAside(gps, ms)
}

// readBackMesh returns gp's vertex buffer (as floats) and its triangle
// list, or nil when an index is past the vertices.
func readBackMesh(gp *gpuPrimitive) (pos []float32, idx []uint32) {
	var vsize, isize int32
	gl.BindBuffer(gl.COPY_READ_BUFFER, gp.vbo)
	gl.GetBufferParameteriv(gl.COPY_READ_BUFFER, gl.BUFFER_SIZE, &vsize)
	pos = make([]float32, int(vsize)/4)
	if len(pos) > 0 {
		gl.GetBufferSubData(gl.COPY_READ_BUFFER, 0, len(pos)*4, gl.Ptr(pos))
	}
	gl.BindBuffer(gl.COPY_READ_BUFFER, gp.ebo)
	gl.GetBufferParameteriv(gl.COPY_READ_BUFFER, gl.BUFFER_SIZE, &isize)
	idx = make([]uint32, int(isize)/4)
	if len(idx) > 0 {
		gl.GetBufferSubData(gl.COPY_READ_BUFFER, 0, len(idx)*4, gl.Ptr(idx))
	}
	gl.BindBuffer(gl.COPY_READ_BUFFER, 0)
	idx = idx[:min(len(idx), int(gp.count))/3*3]
	nv := uint32(len(pos) / gp.layout.floats)
	for _, i := range idx {
		if i >= nv {
			return nil, nil
		}
	}
	return pos, idx
}

// movingErrors are the relative errors (of the mesh's extent,
// meshopt_simplifyScale) the moving levels are simplified to, finest
// first: a level a draw can use wherever a pixel of the reduced view is
// at least its error.
var movingErrors = func() []float64 {
	var e []float64
	for k := 0; k <= 12; k++ { // 1/2048 to 1/32, in steps of the square root of 2
		e = append(e, math.Pow(2, -11+float64(k)/2))
	}
	return e
}()

// simplifyMoving returns the moving levels of the triangle list idx over
// the vertices vert (stride floats apart, the position first, the normal
// and the first UV set at float offsets normal and uv, -1 without): the
// mesh welded by position and UV, simplified to each of movingErrors (meshopt_simplify, or
// meshopt_simplifySloppy where that is stuck at locked borders), each
// kept when it has at most 7/8 of the indices of the one before, with
// the error reported in mesh units; then each corner is given back a
// vertex of its own (pickCorners).
func simplifyMoving(vert []float32, stride, normal, uv int, idx []uint32) (indices []uint32, levels []lodLevel) {
	n := len(vert) / stride
	if n == 0 || len(idx) < 3 {
		return nil, nil
	}
	// shadow maps each corner to the first vertex with its position
	// (and UV); the welded mesh gets a vertex buffer of its own, those
	// vertices' positions alone (meshopt_simplify would take the other
	// vertices at a position, unused by the welded list, for a seam and
	// lock it).
	type key struct{ p, uv [3]float32 }
	first := map[key]uint32{}
	shadow := make([]uint32, len(idx))
	welded := make([]uint32, len(idx))
	var back []uint32 // welded vertex to vertex
	var pos []float32
	for i, v := range idx {
		o := int(v) * stride
		k := key{p: [3]float32{vert[o], vert[o+1], vert[o+2]}}
		if uv >= 0 {
			k.uv = [3]float32{vert[o+uv], vert[o+uv+1], 0}
		}
		c, ok := first[k]
		if !ok {
			c = uint32(len(back))
			first[k] = c
			back = append(back, v)
			pos = append(pos, vert[o:o+3]...)
		}
		welded[i], shadow[i] = c, back[c]
	}
	vp, nc := (*C.float)(unsafe.Pointer(&pos[0])), C.size_t(len(back))
	wp := (*C.uint)(unsafe.Pointer(&welded[0]))
	scale := float64(C.meshopt_simplifyScale(vp, nc, 12))
	dst := make([]uint32, len(idx))
	dp := (*C.uint)(unsafe.Pointer(&dst[0]))
	last := len(idx)
	for _, e := range movingErrors {
		var rel C.float
		got := int(C.meshopt_simplify(dp, wp, C.size_t(len(idx)), vp, nc, 12, 0, C.float(e), 0, &rel))
		if got > last*7/8 {
			// Stuck (the mesh's open borders are locked): gather
			// vertices in a grid instead.
			got = int(C.meshopt_simplifySloppy(dp, wp, C.size_t(len(idx)), vp, nc, 12, 0, C.float(e), &rel))
		}
		if got == 0 || got > last*7/8 {
			continue
		}
		levels = append(levels, lodLevel{first: int32(len(indices)), count: int32(got), err: float64(rel) * scale})
		for _, c := range dst[:got] {
			indices = append(indices, back[c])
		}
		last = got
	}
	if len(levels) > 0 && normal >= 0 {
		pickCorners(indices, vert, stride, normal, idx, shadow)
	}
	return indices, levels
}

// pickCorners replaces each corner of the triangles in tri (each the
// first vertex at its position and UV: shadow maps the corners of the
// original list idx to those) by the vertex at that position and UV,
// among those idx uses, whose normal is nearest the triangle's facing.
func pickCorners(tri []uint32, vert []float32, stride, normal int, idx, shadow []uint32) {
	// alts lists, for each welded vertex with others at its position and
	// UV, those others (and itself).
	alts := map[uint32][]uint32{}
	seen := map[uint32]bool{}
	for i, v := range idx {
		s := shadow[i]
		if v != s && !seen[v] {
			seen[v] = true
			if alts[s] == nil {
				alts[s] = []uint32{s}
			}
			alts[s] = append(alts[s], v)
		}
	}
	if len(alts) == 0 {
		return
	}
	at := func(v uint32, off int) [3]float64 {
		b := int(v)*stride + off
		return [3]float64{float64(vert[b]), float64(vert[b+1]), float64(vert[b+2])}
	}
	for t := 0; t+2 < len(tri); t += 3 {
		a, b, c := at(tri[t], 0), at(tri[t+1], 0), at(tri[t+2], 0)
		u := [3]float64{b[0] - a[0], b[1] - a[1], b[2] - a[2]}
		w := [3]float64{c[0] - a[0], c[1] - a[1], c[2] - a[2]}
		f := [3]float64{u[1]*w[2] - u[2]*w[1], u[2]*w[0] - u[0]*w[2], u[0]*w[1] - u[1]*w[0]}
		if l := math.Sqrt(f[0]*f[0] + f[1]*f[1] + f[2]*f[2]); !(l > 0) {
			continue
		}
		for k := 0; k < 3; k++ {
			cands := alts[tri[t+k]]
			best, bestDot := tri[t+k], math.Inf(-1)
			for _, v := range cands {
				nv := at(v, normal)
				if d := nv[0]*f[0] + nv[1]*f[1] + nv[2]*f[2]; d > bestDot {
					best, bestDot = v, d
				}
			}
			tri[t+k] = best
		}
	}
}
