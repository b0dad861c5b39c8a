package render

import (
	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// vertexFloats is the interleaved layout: position 3, normal 3, tangent 4,
// uv0 2, uv1 2, colour 4, uv2 2 (at location 14).
const vertexFloats = 20

// locUV2 is the shader location of the third UV attribute.
const locUV2 = 14

// upload interleaves a primitive's attributes into one buffer; uv2 is the
// third UV attribute's coordinates, nil for none.
func upload(pd *scene.PrimitiveData, uv2 [][2]float32, mesh, prim int) *gpuPrimitive {
	n := len(pd.Positions)
	data := make([]float32, 0, n*vertexFloats)
	for i := 0; i < n; i++ {
		p := pd.Positions[i]
		data = append(data, p[0], p[1], p[2])
		if pd.Normals != nil {
			data = append(data, pd.Normals[i][0], pd.Normals[i][1], pd.Normals[i][2])
		} else {
			data = append(data, 0, 1, 0)
		}
		if pd.Tangents != nil {
			t := pd.Tangents[i]
			data = append(data, t[0], t[1], t[2], t[3])
		} else {
			data = append(data, 0, 0, 0, 1)
		}
		if pd.UV0 != nil {
			data = append(data, pd.UV0[i][0], pd.UV0[i][1])
		} else {
			data = append(data, 0, 0)
		}
		if pd.UV1 != nil {
			data = append(data, pd.UV1[i][0], pd.UV1[i][1])
		} else {
			data = append(data, 0, 0)
		}
		if pd.Colors != nil {
			c := pd.Colors[i]
			data = append(data, c[0], c[1], c[2], c[3])
		} else {
			data = append(data, 1, 1, 1, 1)
		}
		if uv2 != nil {
			data = append(data, uv2[i][0], uv2[i][1])
		} else {
			data = append(data, 0, 0)
		}
	}
	gp := &gpuPrimitive{material: pd.Material, mesh: mesh, prim: prim, mode: glMode(pd.Mode)}
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
	stride := int32(vertexFloats * 4)
	offset := 0
	for loc, size := range []int32{3, 3, 4, 2, 2, 4} {
		gl.EnableVertexAttribArray(uint32(loc))
		gl.VertexAttribPointerWithOffset(uint32(loc), size, gl.FLOAT, false, stride, uintptr(offset*4))
		offset += int(size)
	}
	gl.EnableVertexAttribArray(locUV2)
	gl.VertexAttribPointerWithOffset(locUV2, 2, gl.FLOAT, false, stride, uintptr(offset*4))
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
