package render

import (
	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/go-gl/mathgl/mgl32"

	"physview/scene"
)

// Instanced drawing of repeated primitives. A file that draws one
// primitive at many nodes (10,000 nodes on one mesh), or one mesh with the
// same primitive many times, costs one draw call per batch instead of one
// per node: the items of a pass that draw the same GL buffers with the
// same material, neither skinned, morphed nor EXT_mesh_gpu_instancing'd,
// are drawn by one glDrawElementsInstanced whose instances read their
// model and normal matrices from a buffer texture (mesh.vert, VERTEX_BATCH).
// The matrices are the very floats a draw of its own would set as
// uniforms, so the pixels are the same.

// batchTexels is how many RGBA32F texels one instance takes in uBatchTex:
// the model matrix (four) and the normal matrix's three columns.
const batchTexels = 7

// unitBatch is the texture unit of uBatchTex, beside the vertex shader's
// other buffer textures (anim.go).
const unitBatch = 43

// batching turns instanced drawing of repeated primitives on; tests
// turn it off to draw the same scene one item at a time.
var batching = true

// batchKey is what the items drawn by one instanced call share: the
// buffers and how they are read, the material, and the winding (a
// mirroring model matrix flips it).
type batchKey struct {
	vao      uint32
	count    int32
	mode     uint32
	indexed  bool
	uvSets   [2]int
	material int
	mirrored bool
	lod      int // the level of detail (lod.go), 0 for the full mesh
}

// batchBuffer is the buffer texture of one pass's instance matrices
// (opaque, transmissive), kept from frame to frame.
type batchBuffer struct {
	tex, buf uint32
	data     []float32
}

func (b *batchBuffer) delete() {
	if b.tex != 0 {
		gl.DeleteTextures(1, &b.tex)
		gl.DeleteBuffers(1, &b.buf)
	}
	*b = batchBuffer{}
}

// batch is the instances of one batchKey in a pass: where they start in
// the batchBuffer and how many there are.
type batch struct {
	members     []int // indices of the items, in drawing order
	first, n    int
	drawn, used bool
}

// materialIndex returns the index of the material primitive gp uses with
// variant v active (-1 or out of range: the default material).
func (r *Renderer) materialIndex(gp *gpuPrimitive, v int) int {
	idx := gp.material
	if pv := r.doc.Primitives[scene.PrimitiveRef{Mesh: gp.mesh, Primitive: gp.prim}]; pv != nil {
		idx = pv.MaterialFor(v, idx)
	}
	return idx
}

// maxBatchInstances is how many instances one pass's buffer texture holds
// (GL_MAX_TEXTURE_BUFFER_SIZE texels: at least 65,536, 128M on Mesa).
func (r *Renderer) maxBatchInstances() int {
	if r.batchLimit == 0 {
		var n int32
		gl.GetIntegerv(gl.MAX_TEXTURE_BUFFER_SIZE, &n)
		r.batchLimit = max(int(n)/batchTexels, 1)
	}
	return r.batchLimit
}

// drawList draws a pass's opaque or transmissive items (pass 0 or 1) in
// their order, except that the items of a batchKey that has two or more
// are drawn by one instanced call where the first of them is. An item
// whose model matrix repeats one already in its batch is left out: it
// would draw the same fragments at the same depth (LEQUAL) with the same
// colour again (a primitive copied 100,000 times on one node shaded every
// pixel of it 100,000 times).
func (r *Renderer) drawList(ps *meshPass, items []*drawItem, v, pass int) {
	if len(items) == 0 {
		return
	}
	keys := make([]batchKey, len(items))
	batchable := make([]bool, len(items))
	count := map[batchKey]int{}
	for i, it := range items {
		gp := it.prim
		if it.dyn != nil || !batching {
			continue // skinned, morphed or instanced by the file: drawCall
		}
		k := batchKey{vao: gp.vao, count: gp.count, mode: gp.mode, indexed: gp.indexed, uvSets: gp.uvSets,
			material: r.materialIndex(gp, v), mirrored: mat32(it.model).Mat3().Det() < 0, lod: r.lodItem(ps, it)}
		keys[i], batchable[i] = k, true
		count[k]++
	}
	batches := map[batchKey]*batch{}
	var order []*batch
	for i := range items {
		if !batchable[i] || count[keys[i]] < 2 {
			continue
		}
		b := batches[keys[i]]
		if b == nil {
			b = &batch{}
			batches[keys[i]] = b
			order = append(order, b)
		}
		b.members = append(b.members, i)
	}
	buf := &r.batch[pass]
	buf.data = buf.data[:0]
	limit := r.maxBatchInstances()
	for _, b := range order {
		seen := make(map[mgl32.Mat4]bool, len(b.members))
		b.first = len(buf.data) / (4 * batchTexels)
		start := len(buf.data)
		for _, i := range b.members {
			model := mat32(items[i].model)
			if seen[model] {
				continue
			}
			seen[model] = true
			nm := model.Mat3().Inv().Transpose()
			buf.data = append(buf.data, model[:]...)
			buf.data = append(buf.data, nm[0], nm[1], nm[2], 0, nm[3], nm[4], nm[5], 0, nm[6], nm[7], nm[8], 0)
		}
		b.n = (len(buf.data) - start) / (4 * batchTexels)
		if b.first+b.n > limit {
			buf.data = buf.data[:start] // past the buffer texture: drawn one by one
			continue
		}
		b.used = true
	}
	if len(buf.data) > 0 {
		if buf.tex == 0 {
			buf.tex, buf.buf = bufferTexture(buf.data, gl.RGBA32F)
		} else {
			rewrite(buf.tex, buf.buf, gl.RGBA32F, buf.data)
		}
	}
	for i, it := range items {
		if batchable[i] {
			if b := batches[keys[i]]; b != nil && b.used {
				if !b.drawn {
					b.drawn = true
					r.drawBatch(ps, it.prim, r.materialOf(it.prim, v), keys[i].mirrored, keys[i].lod, buf.tex, b.first, b.n)
				}
				continue
			}
		}
		r.drawItem(ps, *it, r.materialOf(it.prim, v))
	}
}

// drawBatch draws n instances of primitive gp at level of detail lvl
// (lod.go) with material m, the matrices of instance k at texel
// (first+k)*batchTexels of buffer texture tex. While an image is drawn,
// the instances are split so that llvmpipe is waited for every
// finishEvery vertices, as one by one.
func (r *Renderer) drawBatch(ps *meshPass, gp *gpuPrimitive, m material, mirrored bool, lvl int, tex uint32, first, n int) {
	if gp.count <= 0 || n <= 0 {
		return
	}
	p := r.use(ps, m.features()|m.absentTextures()|gp.lean|featVertexBatch)
	r.setMaterial(p, gp, m)
	gl.ActiveTexture(gl.TEXTURE0 + unitBatch)
	gl.BindTexture(gl.TEXTURE_BUFFER, tex)
	gl.ActiveTexture(gl.TEXTURE0)
	gl.BindVertexArray(gp.vao)
	if mirrored {
		gl.FrontFace(gl.CW)
	}
	count := r.lodCount(gp, lvl)
	for done := 0; done < n; {
		k := n - done
		if r.waitEnv {
			k = min(k, max(1, (finishEvery-ps.queued+count-1)/count))
		}
		p.int("uBatchFirst", int32(first+done))
		drawn := count
		if gp.indexed {
			drawn = r.drawElements(gp, lvl, k)
		} else {
			gl.DrawArraysInstanced(gp.mode, 0, gp.count, int32(k))
		}
		ps.drawn(k*drawn, r.waitEnv)
		done += k
	}
	gl.FrontFace(gl.CCW)
	r.drawCalls++ // a batch counts once, however it was split
}
