package render

import (
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
	"physview/scene/anim"

	"physview/internal/guard"
)

// cpuFloats is the layout of a vertex posed on the CPU: position 3,
// normal 3, tangent 4 (the first three attributes of upload.go's layout).
const cpuFloats = 10

// cpuSkinning reports whether skins and morph targets are posed on the
// CPU: on softpipe and SwiftShader, whose vertex stage is interpreted or
// slow at indexed reads (softpipe: 100 skinned foxes cost 1.8x the
// unskinned frame in the shader, 1.03x posed in Go, BenchmarkSkinnedFoxes),
// posing in Go on every core is cheaper; elsewhere, llvmpipe included
// (whose JIT vertex shader skins the foxes for about 1.0x where Go posing
// costs 1.2x of the frame's CPU time), the vertex shader does it.
// PHYSVIEW_SKINNING=cpu or gpu overrides. Decided once per renderer, on
// the GL thread.
func (r *Renderer) cpuSkinning() bool {
	if !r.skinMode.decided {
		r.skinMode.decided = true
		switch os.Getenv("PHYSVIEW_SKINNING") {
		case "cpu":
			r.skinMode.cpu = true
		case "gpu":
		default:
			name := strings.ToLower(gl.GoStr(gl.GetString(gl.RENDERER)))
			r.skinMode.cpu = strings.Contains(name, "softpipe") || strings.Contains(name, "swiftshader")
		}
	}
	return r.skinMode.cpu
}

// skinMode is where skins and morph targets are posed (cpuSkinning), and
// the zeroed uniform buffer that backs the shader's Joints block for draws
// that are not skinned (a block without a buffer is undefined behaviour
// in GL, even when the shader does not read it).
type skinMode struct {
	decided, cpu bool
	emptyBlock   uint32
}

// cpuDeform is a primitive's bind shape and deformation data in its
// uploaded vertex order, for posing on the CPU.
type cpuDeform struct {
	pos, nrm         [][3]float32
	tan              [][4]float32
	joints           [][8]uint16 // nil when not skinned
	weights          [][8]float32
	influences       int            // how many of the eight any vertex weights
	tangents         bool           // the primitive has tangents (else the stand-in (0, 0, 0, 1) stays)
	dpos, dnrm, dtan [][][3]float32 // per target; nil entries when absent
}

func newCPUDeform(pd *scene.PrimitiveData, df *anim.Deform, src func(int) int) *cpuDeform {
	n := len(pd.Positions)
	c := &cpuDeform{pos: pd.Positions, nrm: pd.Normals, tan: pd.Tangents, tangents: pd.Tangents != nil}
	if c.nrm == nil {
		c.nrm = make([][3]float32, n)
		for i := range c.nrm {
			c.nrm[i] = [3]float32{0, 1, 0}
		}
	}
	if c.tan == nil {
		c.tan = make([][4]float32, n)
		for i := range c.tan {
			c.tan[i] = [4]float32{0, 0, 0, 1}
		}
	}
	if df.Skinned() {
		c.joints = make([][8]uint16, n)
		c.weights = make([][8]float32, n)
		for i := 0; i < n; i++ {
			s := src(i)
			for set := 0; set < 2; set++ {
				if df.Joints[set] != nil && df.Weights[set] != nil {
					copy(c.joints[i][4*set:], df.Joints[set][s][:])
					copy(c.weights[i][4*set:], df.Weights[set][s][:])
				}
			}
			for k, w := range c.weights[i] {
				if w != 0 {
					c.influences = max(c.influences, k+1)
				}
			}
		}
	}
	remap := func(a [][3]float32) [][3]float32 {
		if a == nil {
			return nil
		}
		out := make([][3]float32, n)
		for i := range out {
			out[i] = a[src(i)]
		}
		return out
	}
	for _, tg := range df.Targets {
		c.dpos = append(c.dpos, remap(tg.Position))
		c.dnrm = append(c.dnrm, remap(tg.Normal))
		c.dtan = append(c.dtan, remap(tg.Tangent))
		if tg.Tangent != nil {
			c.tangents = true
		}
	}
	return c
}

// pose writes every vertex morphed by weights and, when joints (each
// joint matrix's three top rows) is not nil, skinned to world space.
// Normals are transformed by the blended matrix's cofactor matrix (signed
// by its determinant), tangents by the matrix itself.
func (c *cpuDeform) pose(out []float32, joints [][12]float32, weights []float32) {
	// The targets that move anything, found once rather than per vertex.
	var active []int
	for k, w := range weights {
		if w != 0 && k < len(c.dpos) {
			active = append(active, k)
		}
	}
	out = out[:len(c.pos)*cpuFloats]
	nrm, tan := c.nrm[:len(c.pos)], c.tan[:len(c.pos)]
	var jw [][8]float32
	var jj [][8]uint16
	if joints != nil {
		jw, jj = c.weights[:len(c.pos)], c.joints[:len(c.pos)]
	}
	influences := min(c.influences, 8)
	for i := range c.pos {
		p, nr, t := c.pos[i], nrm[i], tan[i]
		for _, k := range active {
			w := weights[k]
			if d := c.dpos[k]; d != nil {
				p[0], p[1], p[2] = p[0]+w*d[i][0], p[1]+w*d[i][1], p[2]+w*d[i][2]
			}
			if d := c.dnrm[k]; d != nil {
				nr[0], nr[1], nr[2] = nr[0]+w*d[i][0], nr[1]+w*d[i][1], nr[2]+w*d[i][2]
			}
			if d := c.dtan[k]; d != nil {
				t[0], t[1], t[2] = t[0]+w*d[i][0], t[1]+w*d[i][1], t[2]+w*d[i][2]
			}
		}
		if joints != nil {
			var m [12]float32
			ws, js := &jw[i], &jj[i]
			for k := 0; k < influences; k++ {
				w := ws[k]
				j := int(js[k])
				if w == 0 || j >= len(joints) {
					continue
				}
				jm := &joints[j]
				m[0] += w * jm[0]
				m[1] += w * jm[1]
				m[2] += w * jm[2]
				m[3] += w * jm[3]
				m[4] += w * jm[4]
				m[5] += w * jm[5]
				m[6] += w * jm[6]
				m[7] += w * jm[7]
				m[8] += w * jm[8]
				m[9] += w * jm[9]
				m[10] += w * jm[10]
				m[11] += w * jm[11]
			}
			p = [3]float32{
				m[0]*p[0] + m[1]*p[1] + m[2]*p[2] + m[3],
				m[4]*p[0] + m[5]*p[1] + m[6]*p[2] + m[7],
				m[8]*p[0] + m[9]*p[1] + m[10]*p[2] + m[11],
			}
			// The cofactor matrix's columns: the cross products of the
			// matrix's columns c0 = (m0 m4 m8), c1 = (m1 m5 m9), c2 = (m2
			// m6 m10).
			x00, x01, x02 := m[5]*m[10]-m[9]*m[6], m[9]*m[2]-m[1]*m[10], m[1]*m[6]-m[5]*m[2]
			x10, x11, x12 := m[6]*m[8]-m[10]*m[4], m[10]*m[0]-m[2]*m[8], m[2]*m[4]-m[6]*m[0]
			x20, x21, x22 := m[4]*m[9]-m[8]*m[5], m[8]*m[1]-m[0]*m[9], m[0]*m[5]-m[4]*m[1]
			if m[0]*x00+m[4]*x01+m[8]*x02 < 0 {
				x00, x01, x02 = -x00, -x01, -x02
				x10, x11, x12 = -x10, -x11, -x12
				x20, x21, x22 = -x20, -x21, -x22
			}
			nr = [3]float32{
				x00*nr[0] + x10*nr[1] + x20*nr[2],
				x01*nr[0] + x11*nr[1] + x21*nr[2],
				x02*nr[0] + x12*nr[1] + x22*nr[2],
			}
			if c.tangents {
				t[0], t[1], t[2] = m[0]*t[0]+m[1]*t[1]+m[2]*t[2],
					m[4]*t[0]+m[5]*t[1]+m[6]*t[2],
					m[8]*t[0]+m[9]*t[1]+m[10]*t[2]
			}
		}
		o := (*[cpuFloats]float32)(out[i*cpuFloats:])
		o[0], o[1], o[2] = p[0], p[1], p[2]
		o[3], o[4], o[5] = nr[0], nr[1], nr[2]
		o[6], o[7], o[8], o[9] = t[0], t[1], t[2], t[3]
	}
}

// cpuJob is one item to pose on the CPU.
type cpuJob struct {
	d       *itemDyn
	c       *cpuDeform
	joints  [][12]float32
	weights []float32
}

// poseOnCPU poses the items in jobs on every core, then uploads each
// item's vertices (on the GL thread).
func poseOnCPU(jobs []cpuJob) {
	if len(jobs) == 0 {
		return
	}
	guard.Each(len(jobs), runtime.GOMAXPROCS(0), func(i int) {
		j := &jobs[i]
		j.c.pose(j.d.cpuData, j.joints, j.weights)
	})
	for _, j := range jobs {
		gl.BindBuffer(gl.ARRAY_BUFFER, j.d.cpuVBO)
		// A new store each time: the GPU may still read the old one.
		gl.BufferData(gl.ARRAY_BUFFER, len(j.d.cpuData)*4, gl.Ptr(j.d.cpuData), gl.STREAM_DRAW)
		j.d.cpuUploads++
	}
	gl.BindBuffer(gl.ARRAY_BUFFER, 0)
}

// cpuJobFor prepares item it's posing on the CPU in pose p, making its
// vertex buffer the first time; ok is false when the item is posed by the
// shader. The job's d is nil when the item's joints and weights are those
// its buffer already holds (an animation that moves other nodes).
func (r *Renderer) cpuJobFor(it *drawItem, p *anim.Pose, joints []mgl64.Mat4) (cpuJob, bool) {
	d, def := it.dyn, it.prim.def
	if d == nil || def == nil || def.cpu == nil {
		return cpuJob{}, false
	}
	if d.cpuVBO == 0 {
		d.cpuData = make([]float32, def.vertices*cpuFloats)
		gl.GenBuffers(1, &d.cpuVBO)
		gl.BindBuffer(gl.ARRAY_BUFFER, d.cpuVBO)
		gl.BufferData(gl.ARRAY_BUFFER, len(d.cpuData)*4, nil, gl.STREAM_DRAW)
		d.cpuVAO = cpuVAO(it.prim, d.cpuVBO)
	}
	job := cpuJob{d: d, c: def.cpu}
	if d.skin >= 0 {
		job.joints = cpuJoints(joints)
	}
	if def.targets > 0 {
		job.weights = cpuWeights(p.Weights(r.anim, it.node), def.targets)
	}
	if d.cpuPosed && slices.Equal(job.joints, d.cpuJoints) && slices.Equal(job.weights, d.cpuWeights) {
		return cpuJob{}, true
	}
	d.cpuPosed, d.cpuJoints, d.cpuWeights = true, job.joints, job.weights
	return job, true
}

// cpuJoints returns the three top rows of each joint matrix, the form
// cpuDeform.pose takes.
func cpuJoints(joints []mgl64.Mat4) [][12]float32 {
	out := make([][12]float32, len(joints))
	for k, m := range joints {
		for row := 0; row < 3; row++ {
			for col := 0; col < 4; col++ {
				out[k][4*row+col] = float32(m[4*col+row])
			}
		}
	}
	return out
}

// cpuWeights returns the first n morph weights of w (zero past its end).
func cpuWeights(w []float64, n int) []float32 {
	out := make([]float32, n)
	for k := range out {
		if k < len(w) {
			out[k] = float32(w[k])
		}
	}
	return out
}

// cpuVAO makes the vertex array of an item posed on the CPU: position,
// normal and tangent from vbo (cpuFloats per vertex), the other attributes
// and the indices from the primitive's buffers.
func cpuVAO(gp *gpuPrimitive, vbo uint32) uint32 {
	var vao uint32
	gl.GenVertexArrays(1, &vao)
	gl.BindVertexArray(vao)
	gl.BindBuffer(gl.ARRAY_BUFFER, vbo)
	stride := int32(cpuFloats * 4)
	for loc, a := range [][2]int{{3, 0}, {3, 3}, {4, 6}} {
		gl.EnableVertexAttribArray(uint32(loc))
		gl.VertexAttribPointerWithOffset(uint32(loc), int32(a[0]), gl.FLOAT, false, stride, uintptr(a[1]*4))
	}
	gl.BindBuffer(gl.ARRAY_BUFFER, gp.vbo)
	stride = int32(gp.layout.floats * 4)
	for i := 2; i < len(vertexAttrs); i++ { // uv0, uv1, colour, uv2
		a, off := vertexAttrs[i], gp.layout.offset[i]
		if off < 0 {
			continue // absent: the generic value (setAbsentAttributes)
		}
		gl.EnableVertexAttribArray(a.loc)
		gl.VertexAttribPointerWithOffset(a.loc, int32(a.size), gl.FLOAT, false, stride, uintptr(off)*4)
	}
	if gp.ebo != 0 {
		gl.BindBuffer(gl.ELEMENT_ARRAY_BUFFER, gp.ebo)
	}
	gl.BindVertexArray(0)
	gl.BindBuffer(gl.ARRAY_BUFFER, 0)
	return vao
}
