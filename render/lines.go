package render

import (
	"math"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/go-gl/mathgl/mgl64"

	"physview/debugdraw"
)

// Line is one coloured segment (the debugdraw package makes them).
type Line = debugdraw.Line

// lineBuffer is an uploaded line list: one VAO, one draw call.
type lineBuffer struct {
	vao, vbo uint32
	count    int32
}

func newLineBuffer(lines []Line) *lineBuffer {
	data := make([]float32, 0, len(lines)*14)
	for _, l := range lines {
		data = append(data, l.A[0], l.A[1], l.A[2], l.Color[0], l.Color[1], l.Color[2], l.Color[3])
		data = append(data, l.B[0], l.B[1], l.B[2], l.Color[0], l.Color[1], l.Color[2], l.Color[3])
	}
	b := &lineBuffer{count: int32(len(lines) * 2)}
	gl.GenVertexArrays(1, &b.vao)
	gl.BindVertexArray(b.vao)
	gl.GenBuffers(1, &b.vbo)
	gl.BindBuffer(gl.ARRAY_BUFFER, b.vbo)
	if len(data) > 0 {
		gl.BufferData(gl.ARRAY_BUFFER, len(data)*4, gl.Ptr(data), gl.STATIC_DRAW)
	}
	gl.EnableVertexAttribArray(0)
	gl.VertexAttribPointerWithOffset(0, 3, gl.FLOAT, false, 28, 0)
	gl.EnableVertexAttribArray(1)
	gl.VertexAttribPointerWithOffset(1, 4, gl.FLOAT, false, 28, 12)
	gl.BindVertexArray(0)
	return b
}

func (b *lineBuffer) delete() {
	if b == nil {
		return
	}
	gl.DeleteVertexArrays(1, &b.vao)
	gl.DeleteBuffers(1, &b.vbo)
}

func (r *Renderer) replaceLines(old *lineBuffer, lines []Line) *lineBuffer {
	old.delete()
	return newLineBuffer(lines)
}

func (r *Renderer) drawLines(b *lineBuffer, vp mgl32.Mat4, alpha float32) {
	if b == nil || b.count == 0 {
		return
	}
	gl.UseProgram(r.lines.id)
	r.lines.mat4("uViewProj", vp)
	r.lines.float("uAlphaScale", alpha)
	gl.Enable(gl.BLEND)
	gl.BlendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA)
	gl.BindVertexArray(b.vao)
	gl.DrawArrays(gl.LINES, 0, b.count)
	gl.Disable(gl.BLEND)
}

// gridLines is a ground grid with a spacing of a power of ten fitted to the
// scene's size: on y = 0 when the scene stands on or above the ground, else
// under its lowest point, so it never cuts through a model.
func gridLines(min, max mgl64.Vec3) []Line {
	size := math.Max(max[0]-min[0], max[2]-min[2])
	if size <= 0 || math.IsNaN(size) || math.IsInf(size, 0) {
		size = 1
	}
	// 0.01 of a decade (2.3%) of slack: a quantized or Draco copy of a
	// 2 m model (1.999 m) keeps the original's 1 m spacing, not 0.1 m.
	step := math.Pow(10, math.Floor(math.Log10(size/2)+0.01))
	half := math.Ceil(size*0.75/step) * step
	cx := math.Round((min[0]+max[0])/2/step) * step
	cz := math.Round((min[2]+max[2])/2/step) * step
	y := math.Min(0, min[1])
	var lines []Line
	n := int(math.Round(half / step))
	for i := -n; i <= n; i++ {
		c := [4]float32{0.5, 0.5, 0.5, 0.35}
		if i%10 == 0 {
			c[3] = 0.6
		}
		o := float64(i) * step
		lines = append(lines,
			Line{A: [3]float32{float32(cx + o), float32(y), float32(cz - half)}, B: [3]float32{float32(cx + o), float32(y), float32(cz + half)}, Color: c},
			Line{A: [3]float32{float32(cx - half), float32(y), float32(cz + o)}, B: [3]float32{float32(cx + half), float32(y), float32(cz + o)}, Color: c})
	}
	return lines
}

// axesLines is a unit axis gizmo: X red, Y green, Z blue.
func axesLines() []Line {
	return []Line{
		{A: [3]float32{0, 0, 0}, B: [3]float32{1, 0, 0}, Color: [4]float32{0.9, 0.2, 0.2, 1}},
		{A: [3]float32{0, 0, 0}, B: [3]float32{0, 1, 0}, Color: [4]float32{0.2, 0.8, 0.2, 1}},
		{A: [3]float32{0, 0, 0}, B: [3]float32{0, 0, 1}, Color: [4]float32{0.25, 0.4, 1, 1}},
	}
}
