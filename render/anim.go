package render

import (
	"fmt"
	"math"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
	"physview/scene/anim"
)

// Texture units of the vertex shader's buffer textures, far above the
// material and environment units (GL 3.3 guarantees 48 combined).
const (
	unitJoints  = 40
	unitMorph   = 41
	unitWeights = 42
)

// blockJoints is how many joint matrices the shader's Joints uniform block
// holds (16 KB, the least GL 3.3 allows); larger skins use the buffer
// texture.
const blockJoints = 256

// Vertex attribute locations past the interleaved six (upload.go).
const (
	locJoints0  = 6 // then weights 0, joints 1, weights 1
	locInstance = 10
)

// gpuDeform is a primitive's skin influences (a second vertex buffer in its
// VAO) and its morph target deltas (a buffer texture: per target, per
// vertex, three texels: position, normal and tangent deltas).
type gpuDeform struct {
	skinVBO            uint32
	skinned            bool
	morphTex, morphBuf uint32
	targets            int
	vertices           int
	cpu                *cpuDeform // set when posed on the CPU (anim_cpu.go)
}

// itemDyn is what one drawn node adds to its primitive: joint matrices,
// morph weights and EXT_mesh_gpu_instancing transforms.
type itemDyn struct {
	skin                 int // -1: not skinned
	jointTex, jointBuf   uint32
	jointUBO             uint32 // the matrices when they fit the block
	joints               int
	weightTex, weightBuf uint32
	mirrored             bool // the skin's first joint matrix mirrors
	instVBO              uint32
	instances, positive  int // positive: instances with det > 0, first in instVBO
	scratch              []float32
	cpuVBO, cpuVAO       uint32    // vertices posed on the CPU (anim_cpu.go)
	cpuData              []float32 // their floats, cpuFloats per vertex
	cpuPosed             bool      // cpuVBO holds the vertices posed by:
	cpuJoints            [][12]float32
	cpuWeights           []float32
	cpuUploads           int          // how many times cpuVBO was written (for tests)
	lodInst              []mgl64.Mat4 // instVBO read back for levels of detail (lod.go)
}

// uploadDeform puts primitive (m, p)'s skin and morph data on the GPU, in
// the vertex order of pd; nil when it has neither.
func (r *Renderer) uploadDeform(gp *gpuPrimitive, pd *scene.PrimitiveData, m, p int) *gpuDeform {
	df := r.anim.Deform(m, p)
	if df == nil {
		return nil
	}
	if df.Err != nil {
		r.Messages = append(r.Messages, fmt.Sprintf("%v (drawn without skin and morph targets)", df.Err))
		return nil
	}
	if !df.Skinned() && len(df.Targets) == 0 {
		return nil
	}
	n := len(pd.Positions)
	src := func(i int) int {
		if pd.Source != nil {
			return int(pd.Source[i])
		}
		return i
	}
	for i := 0; i < n; i++ {
		if src(i) >= len(df.Positions) {
			return nil
		}
	}
	g := &gpuDeform{vertices: n}
	if r.cpuSkinning() {
		g.cpu = newCPUDeform(pd, df, src)
	}
	if df.Skinned() {
		g.skinned = true
		// The second set of joints and weights is stored only when the
		// primitive has one (BrainStem: 1 MB less). Without, its
		// attributes read the generic value, zero weights (New), as the
		// zeros stored before did.
		sets := 1
		if df.Joints[1] != nil && df.Weights[1] != nil {
			sets = 2
		}
		data := make([]float32, 0, n*8*sets)
		for i := 0; i < n; i++ {
			s := src(i)
			for set := 0; set < sets; set++ {
				var j [4]uint16
				var w [4]float32
				if df.Joints[set] != nil && df.Weights[set] != nil {
					j, w = df.Joints[set][s], df.Weights[set][s]
				}
				data = append(data, float32(j[0]), float32(j[1]), float32(j[2]), float32(j[3]), w[0], w[1], w[2], w[3])
			}
		}
		gl.BindVertexArray(gp.vao)
		gl.GenBuffers(1, &g.skinVBO)
		gl.BindBuffer(gl.ARRAY_BUFFER, g.skinVBO)
		if len(data) > 0 {
			gl.BufferData(gl.ARRAY_BUFFER, len(data)*4, gl.Ptr(data), gl.STATIC_DRAW)
		}
		for k := 0; k < 2*sets; k++ {
			gl.EnableVertexAttribArray(uint32(locJoints0 + k))
			gl.VertexAttribPointerWithOffset(uint32(locJoints0+k), 4, gl.FLOAT, false, int32(32*sets), uintptr(16*k))
		}
		gl.BindVertexArray(0)
	}
	if t := len(df.Targets); t > 0 {
		var limit int32
		gl.GetIntegerv(gl.MAX_TEXTURE_BUFFER_SIZE, &limit)
		if texels := t * n * 3; texels > int(limit) {
			r.Messages = append(r.Messages, fmt.Sprintf("mesh %d primitive %d: %d morph targets of %d vertices do not fit the driver's buffer texture (%d texels; drawn without them)", m, p, t, n, limit))
		} else {
			data := make([]float32, 0, texels*4)
			for _, tg := range df.Targets {
				for i := 0; i < n; i++ {
					s := src(i)
					for _, a := range [][][3]float32{tg.Position, tg.Normal, tg.Tangent} {
						var v [3]float32
						if a != nil {
							v = a[s]
						}
						data = append(data, v[0], v[1], v[2], 0)
					}
				}
			}
			g.morphTex, g.morphBuf = bufferTexture(data, gl.RGBA32F)
			g.targets = t
		}
	}
	return g
}

// bufferTexture makes a buffer texture of format over data.
func bufferTexture(data []float32, format uint32) (tex, buf uint32) {
	gl.GenBuffers(1, &buf)
	gl.BindBuffer(gl.TEXTURE_BUFFER, buf)
	size := max(len(data), 4) * 4
	gl.BufferData(gl.TEXTURE_BUFFER, size, nil, gl.DYNAMIC_DRAW)
	if len(data) > 0 {
		gl.BufferSubData(gl.TEXTURE_BUFFER, 0, len(data)*4, gl.Ptr(data))
	}
	gl.GenTextures(1, &tex)
	gl.BindTexture(gl.TEXTURE_BUFFER, tex)
	gl.TexBuffer(gl.TEXTURE_BUFFER, format, buf)
	gl.BindTexture(gl.TEXTURE_BUFFER, 0)
	gl.BindBuffer(gl.TEXTURE_BUFFER, 0)
	return tex, buf
}

// rewrite replaces the contents of buffer texture tex over buf (made by
// bufferTexture with format) with data. It writes in place when the buffer
// is large enough (Mesa keeps showing the old storage of a buffer texture
// whose buffer was re-specified), else re-specifies and re-attaches it.
func rewrite(tex, buf, format uint32, data []float32) {
	if len(data) == 0 {
		return
	}
	gl.BindBuffer(gl.TEXTURE_BUFFER, buf)
	var size int32
	gl.GetBufferParameteriv(gl.TEXTURE_BUFFER, gl.BUFFER_SIZE, &size)
	if int(size) < len(data)*4 {
		gl.BufferData(gl.TEXTURE_BUFFER, len(data)*4, gl.Ptr(data), gl.DYNAMIC_DRAW)
		gl.BindTexture(gl.TEXTURE_BUFFER, tex)
		gl.TexBuffer(gl.TEXTURE_BUFFER, format, buf)
		gl.BindTexture(gl.TEXTURE_BUFFER, 0)
	} else {
		gl.BufferSubData(gl.TEXTURE_BUFFER, 0, len(data)*4, gl.Ptr(data))
	}
	gl.BindBuffer(gl.TEXTURE_BUFFER, 0)
}

func (g *gpuDeform) delete() {
	if g == nil {
		return
	}
	gl.DeleteBuffers(1, &g.skinVBO)
	gl.DeleteBuffers(1, &g.morphBuf)
	gl.DeleteTextures(1, &g.morphTex)
}

func (d *itemDyn) delete() {
	gl.DeleteBuffers(1, &d.cpuVBO)
	gl.DeleteVertexArrays(1, &d.cpuVAO)
	gl.DeleteBuffers(1, &d.jointUBO)
	gl.DeleteBuffers(1, &d.jointBuf)
	gl.DeleteTextures(1, &d.jointTex)
	gl.DeleteBuffers(1, &d.weightBuf)
	gl.DeleteTextures(1, &d.weightTex)
	gl.DeleteBuffers(1, &d.instVBO)
}

// rebuildDyn gives every item its skin, weights and instances, widens the
// scene bounds by the posed vertices of the items that have any, and
// applies the current pose. Called by rebuildItems.
func (r *Renderer) rebuildDyn() {
	for _, d := range r.dyns {
		d.delete()
	}
	r.dyns = r.dyns[:0]
	if r.anim == nil {
		return
	}
	rest := r.anim.Rest()
	for i := range r.items {
		it := &r.items[i]
		def := it.prim.def
		inst := r.anim.Instances(it.node)
		skin := -1
		if def != nil && def.skinned {
			skin = r.anim.SkinOf(it.node)
		}
		if skin < 0 && inst == nil && (def == nil || def.targets == 0) {
			continue
		}
		d := &itemDyn{skin: skin}
		if skin >= 0 {
			d.jointTex, d.jointBuf = bufferTexture(nil, gl.RGBA32F)
		}
		if def != nil && def.targets > 0 {
			d.weightTex, d.weightBuf = bufferTexture(nil, gl.R32F)
		}
		if skin < 0 && len(inst) > 0 {
			d.uploadInstances(inst)
		}
		it.dyn = d
		r.dyns = append(r.dyns, d)
		widen := func(w mgl64.Vec3) {
			for k := 0; k < 3; k++ {
				r.min[k] = math.Min(r.min[k], w[k])
				r.max[k] = math.Max(r.max[k], w[k])
			}
		}
		if !r.instanceCorners(*it, rest, widen) {
			r.anim.Vertices(rest, it.node, it.prim.prim, widen)
		}
	}
	p := r.pose
	if p == nil || len(p.World) != len(r.doc.GLTF.Nodes) {
		p = rest
	}
	r.applyPose(p)
}

// uploadInstances writes the instance matrices, those that keep the
// winding first.
func (d *itemDyn) uploadInstances(inst []mgl64.Mat4) {
	data := make([]float32, 0, len(inst)*16)
	for pass := 0; pass < 2; pass++ {
		for _, m := range inst {
			if (m.Det() >= 0) != (pass == 0) {
				continue
			}
			if pass == 0 {
				d.positive++
			}
			for _, v := range m {
				data = append(data, float32(v))
			}
		}
	}
	d.instances = len(inst)
	gl.GenBuffers(1, &d.instVBO)
	gl.BindBuffer(gl.ARRAY_BUFFER, d.instVBO)
	gl.BufferData(gl.ARRAY_BUFFER, len(data)*4, gl.Ptr(data), gl.STATIC_DRAW)
	gl.BindBuffer(gl.ARRAY_BUFFER, 0)
}

// SetPose draws the document in pose p (anim.Model.Pose of the document
// the renderer shows): node transforms, skins and morph weights. nil goes
// back to the rest pose. Bounds and the grid keep the rest pose's, so the
// camera does not jump while an animation plays.
func (r *Renderer) SetPose(p *anim.Pose) {
	if r.doc == nil || r.anim == nil {
		return
	}
	if p != nil && len(p.World) != len(r.doc.GLTF.Nodes) {
		p = nil
	}
	r.moves++
	r.pose = p
	r.posedMats = r.posedMaterials()
	if p == nil {
		p = r.anim.Rest()
	}
	r.applyPose(p)
}

// Animation returns the animation model of the document shown (nil
// before SetDocument), for callers that pose it (Model.Pose) and hand the
// pose to SetPose.
func (r *Renderer) Animation() *anim.Model { return r.anim }

func (r *Renderer) applyPose(p *anim.Pose) {
	if len(r.lights) > 0 {
		r.lights = lightsAt(r.doc, p.World, p.Props) // lights on animated nodes move too
	}
	var joints []mgl64.Mat4
	var jobs []cpuJob
	defer func() { poseOnCPU(jobs) }()
	for i := range r.items {
		it := &r.items[i]
		if it.node >= 0 && it.node < len(p.World) {
			it.model = p.World[it.node]
		}
		d := it.dyn
		if d == nil {
			continue
		}
		if d.skin >= 0 {
			joints = r.anim.JointMatrices(p, d.skin, joints)
			d.mirrored = len(joints) > 0 && joints[0].Mat3().Det() < 0
		}
		if job, ok := r.cpuJobFor(it, p, joints); ok {
			if job.d != nil {
				jobs = append(jobs, job)
			}
			continue
		}
		if d.skin >= 0 {
			d.scratch = d.scratch[:0]
			for _, m := range joints {
				for _, v := range m {
					d.scratch = append(d.scratch, float32(v))
				}
			}
			d.joints = len(joints)
			if d.joints <= blockJoints {
				if d.jointUBO == 0 {
					gl.GenBuffers(1, &d.jointUBO)
					gl.BindBuffer(gl.UNIFORM_BUFFER, d.jointUBO)
					gl.BufferData(gl.UNIFORM_BUFFER, blockJoints*64, nil, gl.DYNAMIC_DRAW)
				}
				gl.BindBuffer(gl.UNIFORM_BUFFER, d.jointUBO)
				if len(d.scratch) > 0 {
					gl.BufferSubData(gl.UNIFORM_BUFFER, 0, len(d.scratch)*4, gl.Ptr(d.scratch))
				}
				gl.BindBuffer(gl.UNIFORM_BUFFER, 0)
			} else {
				rewrite(d.jointTex, d.jointBuf, gl.RGBA32F, d.scratch)
			}
		}
		if d.weightBuf != 0 {
			w := p.Weights(r.anim, it.node)
			d.scratch = d.scratch[:0]
			for k := 0; k < it.prim.def.targets; k++ {
				v := float32(0)
				if k < len(w) {
					v = float32(w[k])
				}
				d.scratch = append(d.scratch, v)
			}
			rewrite(d.weightTex, d.weightBuf, gl.R32F, d.scratch)
		}
	}
}

// drawCall issues the draw of one item with the mesh program p current
// and its material set: skin, morph and instance uniforms, the front face
// (a mirroring transform flips the winding, for double-sided materials
// too, so their back faces are lit as back faces), the draw.
//
// Every draw is counted in ps (meshPass.drawn); while an image is drawn,
// the instances are split so that llvmpipe is waited for every
// finishEvery vertices, as batches are (batch.go).
func (r *Renderer) drawCall(ps *meshPass, p *program, it drawItem, mirrored bool) {
	d := it.dyn
	cpu := d != nil && d.cpuVBO != 0
	skinned := d != nil && d.skin >= 0
	morphs := 0
	if d != nil && d.weightTex != 0 && !cpu {
		morphs = it.prim.def.targets
	}
	if cpu {
		// Posed on the CPU: skinned vertices are already in world space.
		if skinned {
			p.mat4("uModel", mat32(mgl64.Ident4()))
			p.mat3("uNormalMatrix", mat32(mgl64.Ident4()).Mat3())
			mirrored = d.mirrored
		}
		skinned = false
	}
	p.bool("uSkinned", skinned)
	p.int("uMorphCount", int32(morphs))
	// The buffer samplers always name their own units: two samplers of
	// different types on one unit (the default 0) make draws fail.
	gl.Uniform1i(p.loc("uJointTex"), unitJoints)
	gl.Uniform1i(p.loc("uMorphTex"), unitMorph)
	gl.Uniform1i(p.loc("uWeightTex"), unitWeights)
	if !skinned {
		r.bindEmptyJoints(p)
	}
	if skinned {
		p.int("uJointCount", int32(d.joints))
		inBlock := d.joints <= blockJoints
		p.bool("uJointsInBlock", inBlock)
		if inBlock {
			r.bindJointBlock(p)
			gl.BindBufferBase(gl.UNIFORM_BUFFER, 0, d.jointUBO)
		} else {
			gl.ActiveTexture(gl.TEXTURE0 + unitJoints)
			gl.BindTexture(gl.TEXTURE_BUFFER, d.jointTex)
		}
		mirrored = d.mirrored
	}
	if morphs > 0 {
		p.int("uVertexCount", int32(it.prim.def.vertices))
		gl.ActiveTexture(gl.TEXTURE0 + unitMorph)
		gl.BindTexture(gl.TEXTURE_BUFFER, it.prim.def.morphTex)
		gl.ActiveTexture(gl.TEXTURE0 + unitWeights)
		gl.BindTexture(gl.TEXTURE_BUFFER, d.weightTex)
	}
	gl.ActiveTexture(gl.TEXTURE0)
	if cpu {
		gl.BindVertexArray(d.cpuVAO)
	} else {
		gl.BindVertexArray(it.prim.vao)
	}
	face := func(mirror bool) {
		if mirror {
			gl.FrontFace(gl.CW)
		} else {
			gl.FrontFace(gl.CCW)
		}
	}
	if d == nil || skinned || d.instances == 0 {
		p.bool("uInstanced", false)
		face(mirrored)
		count := int(it.prim.count)
		if it.prim.indexed {
			count = r.drawElements(it.prim, r.lodItem(ps, &it), 0)
		} else {
			gl.DrawArrays(it.prim.mode, 0, it.prim.count)
		}
		gl.FrontFace(gl.CCW)
		ps.drawn(count, r.waitEnv)
		return
	}
	p.bool("uInstanced", true)
	gl.BindBuffer(gl.ARRAY_BUFFER, d.instVBO)
	if cpu && d.skin >= 0 {
		p.bool("uInstanced", false) // skinned: instancing is not applied
	}
	groups := [2]struct{ first, count int }{{0, d.positive}, {d.positive, d.instances - d.positive}}
	for g, grp := range groups {
		face(mirrored != (g == 1))
		lvl := r.lodInstances(ps, it, grp.first, grp.count)
		count := max(r.lodCount(it.prim, lvl), 1)
		for done := 0; done < grp.count; {
			n := grp.count - done
			if r.waitEnv {
				n = min(n, max(1, (finishEvery-ps.queued+count-1)/count))
			}
			for k := 0; k < 4; k++ {
				loc := uint32(locInstance + k)
				gl.EnableVertexAttribArray(loc)
				gl.VertexAttribPointerWithOffset(loc, 4, gl.FLOAT, false, 64, uintptr((grp.first+done)*64+16*k))
				gl.VertexAttribDivisor(loc, 1)
			}
			drawn := int(it.prim.count)
			if it.prim.indexed {
				drawn = r.drawElements(it.prim, lvl, n)
			} else {
				gl.DrawArraysInstanced(it.prim.mode, 0, it.prim.count, int32(n))
			}
			ps.drawn(n*drawn, r.waitEnv)
			done += n
		}
	}
	for k := 0; k < 4; k++ {
		gl.DisableVertexAttribArray(uint32(locInstance + k))
	}
	gl.FrontFace(gl.CCW)
}

// bindEmptyJoints binds a zeroed Joints block for program p's draws that
// are not skinned (the block must be backed all the same).
func (r *Renderer) bindEmptyJoints(p *program) {
	if r.skinMode.emptyBlock == 0 {
		gl.GenBuffers(1, &r.skinMode.emptyBlock)
		gl.BindBuffer(gl.UNIFORM_BUFFER, r.skinMode.emptyBlock)
		gl.BufferData(gl.UNIFORM_BUFFER, blockJoints*64, gl.Ptr(make([]byte, blockJoints*64)), gl.STATIC_DRAW)
		gl.BindBuffer(gl.UNIFORM_BUFFER, 0)
	}
	r.bindJointBlock(p)
	gl.BindBufferBase(gl.UNIFORM_BUFFER, 0, r.skinMode.emptyBlock)
}

// bindJointBlock points program p's Joints block at binding 0, once.
func (r *Renderer) bindJointBlock(p *program) {
	if r.jointBlock[p.id] {
		return
	}
	if idx := gl.GetUniformBlockIndex(p.id, gl.Str("Joints\x00")); idx != gl.INVALID_INDEX {
		gl.UniformBlockBinding(p.id, idx, 0)
	}
	r.jointBlock[p.id] = true
}

// deformedBounds widens [lo, hi] by the posed vertices of a skinned or
// instanced item (in the pose shown) and reports whether it did; other
// items are bounded by their box corners.
func (r *Renderer) deformedBounds(it drawItem, lo, hi *mgl64.Vec3) bool {
	if it.dyn == nil || (it.dyn.skin < 0 && it.dyn.instances == 0) || r.anim == nil {
		return false
	}
	p := r.pose
	if p == nil {
		p = r.anim.Rest()
	}
	widen := func(w mgl64.Vec3) {
		for k := 0; k < 3; k++ {
			lo[k] = math.Min(lo[k], w[k])
			hi[k] = math.Max(hi[k], w[k])
		}
	}
	if !r.instanceCorners(it, p, widen) {
		r.anim.Vertices(p, it.node, it.prim.prim, widen)
	}
	return true
}

// instanceCorners calls fn with the corners of item it's bounding box
// under each of its EXT_mesh_gpu_instancing transforms, in pose p, when it
// is instanced and neither skinned nor morphed, and reports whether it
// did. Such an item is bounded by its box as a node of its own is, not by
// every vertex of every instance (10,000 instances of a 100,000-vertex
// mesh are 10^9 vertices: minutes).
func (r *Renderer) instanceCorners(it drawItem, p *anim.Pose, fn func(mgl64.Vec3)) bool {
	def := it.prim.def
	if def != nil && (def.skinned || def.targets > 0) {
		return false
	}
	if it.node < 0 || it.node >= len(p.World) {
		return false
	}
	inst := r.anim.Instances(it.node)
	if len(inst) == 0 {
		return false
	}
	world := p.World[it.node]
	for _, im := range inst {
		m := world.Mul4(im)
		for _, c := range it.prim.corners {
			fn(m.Mul4x1(c.Vec4(1)).Vec3())
		}
	}
	return true
}
