package render

import (
	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// vertexFloats is the full interleaved layout: position 3, normal 3,
// tangent 4, uv0 2, uv1 2, colour 4, uv2 2 (at location 14).
const vertexFloats = 20

// locUV2 is the shader location of the third UV attribute.
const locUV2 = 14

// vertexAttrs are the interleaved attributes after the position: shader
// location, size in floats, and the value the shader reads when the
// primitive has none (the generic attribute New sets).
var vertexAttrs = [6]struct {
	loc, size uint32
	absent    [4]float32
}{
	{1, 3, [4]float32{0, 1, 0, 1}}, // normal
	{2, 4, [4]float32{0, 0, 0, 1}}, // tangent
	{3, 2, [4]float32{0, 0, 0, 1}}, // uv0
	{4, 2, [4]float32{0, 0, 0, 1}}, // uv1
	{5, 4, [4]float32{1, 1, 1, 1}}, // colour
	{locUV2, 2, [4]float32{0, 0, 0, 1}},
}

// vertexLayout is where a primitive's vertex buffer holds each attribute:
// only those the primitive has are stored (BrainStem's normals and
// positions: 24 bytes a vertex instead of 80); the others are read from
// the generic attribute values (setAbsentAttributes), the very values
// the full layout stored, so no pixel changes.
type vertexLayout struct {
	floats int                    // floats per vertex
	offset [len(vertexAttrs)]int8 // in floats, -1 when absent
}

// compactVertices leaves absent attributes out of vertex buffers; tests
// turn it off to compare with the full layout.
var compactVertices = true

// setAbsentAttributes sets the generic value of every vertex attribute a
// primitive may lack to what it reads then (vertexAttrs). They are the
// context's state, not a vertex array's: set once per context (New).
func setAbsentAttributes() {
	for _, a := range vertexAttrs {
		gl.VertexAttrib4f(a.loc, a.absent[0], a.absent[1], a.absent[2], a.absent[3])
	}
	// A skinned primitive with one set of joints stores no second set
	// (uploadDeform): zero weights (the default would weigh joint 0 by 1).
	gl.VertexAttrib4f(locJoints0+2, 0, 0, 0, 0)
	gl.VertexAttrib4f(locJoints0+3, 0, 0, 0, 0)
}

// bind points the current vertex array at buffer vbo (bound) laid out as l.
func (l vertexLayout) bind() {
	stride := int32(l.floats * 4)
	gl.EnableVertexAttribArray(0)
	gl.VertexAttribPointerWithOffset(0, 3, gl.FLOAT, false, stride, 0)
	for i, a := range vertexAttrs {
		if l.offset[i] < 0 {
			gl.DisableVertexAttribArray(a.loc)
			continue
		}
		gl.EnableVertexAttribArray(a.loc)
		gl.VertexAttribPointerWithOffset(a.loc, int32(a.size), gl.FLOAT, false, stride, uintptr(l.offset[i])*4)
	}
}

// upload interleaves a primitive's attributes into one buffer; uv2 is the
// third UV attribute's coordinates, nil for none.
func upload(pd *scene.PrimitiveData, uv2 [][2]float32, mesh, prim int) *gpuPrimitive {
	n := len(pd.Positions)
	has := [len(vertexAttrs)]bool{pd.Normals != nil, pd.Tangents != nil, pd.UV0 != nil, pd.UV1 != nil, pd.Colors != nil, uv2 != nil}
	l := vertexLayout{floats: 3}
	for i, a := range vertexAttrs {
		l.offset[i] = -1
		if has[i] || !compactVertices {
			l.offset[i] = int8(l.floats)
			l.floats += int(a.size)
		}
	}
	data := make([]float32, 0, n*l.floats)
	for i := 0; i < n; i++ {
		p := pd.Positions[i]
		data = append(data, p[0], p[1], p[2])
		switch {
		case pd.Normals != nil:
			data = append(data, pd.Normals[i][0], pd.Normals[i][1], pd.Normals[i][2])
		case !compactVertices:
			data = append(data, vertexAttrs[0].absent[:3]...)
		}
		switch {
		case pd.Tangents != nil:
			t := pd.Tangents[i]
			data = append(data, t[0], t[1], t[2], t[3])
		case !compactVertices:
			data = append(data, vertexAttrs[1].absent[:4]...)
		}
		switch {
		case pd.UV0 != nil:
			data = append(data, pd.UV0[i][0], pd.UV0[i][1])
		case !compactVertices:
			data = append(data, vertexAttrs[2].absent[:2]...)
		}
		switch {
		case pd.UV1 != nil:
			data = append(data, pd.UV1[i][0], pd.UV1[i][1])
		case !compactVertices:
			data = append(data, vertexAttrs[3].absent[:2]...)
		}
		switch {
		case pd.Colors != nil:
			c := pd.Colors[i]
			data = append(data, c[0], c[1], c[2], c[3])
		case !compactVertices:
			data = append(data, vertexAttrs[4].absent[:4]...)
		}
		switch {
		case uv2 != nil:
			data = append(data, uv2[i][0], uv2[i][1])
		case !compactVertices:
			data = append(data, vertexAttrs[5].absent[:2]...)
		}
	}
	gp := &gpuPrimitive{material: pd.Material, mesh: mesh, prim: prim, mode: glMode(pd.Mode), layout: l}
	if pd.Tangents == nil {
		gp.lean |= featNoTangent
	}
	if pd.UV1 == nil {
		gp.lean |= featNoUV1
	}
	if uv2 == nil {
		gp.lean |= featNoUV2
	}
	if pd.Colors == nil {
		gp.lean |= featNoColor
	}
	gl.GenVertexArrays(1, &gp.vao)
	gl.BindVertexArray(gp.vao)
	gl.GenBuffers(1, &gp.vbo)
	gl.BindBuffer(gl.ARRAY_BUFFER, gp.vbo)
	if len(data) > 0 {
		gl.BufferData(gl.ARRAY_BUFFER, len(data)*4, gl.Ptr(data), gl.STATIC_DRAW)
	}
	l.bind()
	if pd.Indices != nil {
		gp.indexed = true
		gp.count = int32(len(pd.Indices))
		gl.GenBuffers(1, &gp.ebo)
		gl.BindBuffer(gl.ELEMENT_ARRAY_BUFFER, gp.ebo)
		if len(pd.Indices) > 0 {
			gl.BufferData(gl.ELEMENT_ARRAY_BUFFER, len(pd.Indices)*4, gl.Ptr(pd.Indices), gl.STATIC_DRAW)
		}
	} else {
		gp.count = int32(n)
	}
	gl.BindVertexArray(0)
	lo, hi := pd.Min, pd.Max
	gp.center = mgl64.Vec3{float64(lo[0]+hi[0]) / 2, float64(lo[1]+hi[1]) / 2, float64(lo[2]+hi[2]) / 2}
	for c := 0; c < 8; c++ {
		pick := func(axis int) float64 {
			if c&(1<<axis) != 0 {
				return float64(hi[axis])
			}
			return float64(lo[axis])
		}
		gp.corners[c] = mgl64.Vec3{pick(0), pick(1), pick(2)}
	}
	return gp
}

func glMode(m scene.DrawMode) uint32 {
	switch m {
	case scene.DrawLines:
		return gl.LINES
	case scene.DrawLineStrip:
		return gl.LINE_STRIP
	case scene.DrawLineLoop:
		return gl.LINE_LOOP
	case scene.DrawPoints:
		return gl.POINTS
	}
	return gl.TRIANGLES
}
