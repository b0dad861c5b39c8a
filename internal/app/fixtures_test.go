package app

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
)

// boxGLTF is a 1 m box (12 triangles, no indices) in colour rgba, as a
// .gltf text and its .bin.
func boxGLTF(rgba [4]float64, binName string) (gltfText, bin []byte) {
	bin = boxPositions()
	doc := map[string]any{
		"asset":       map[string]any{"version": "2.0"},
		"scene":       0,
		"scenes":      []any{map[string]any{"nodes": []int{0}}},
		"nodes":       []any{map[string]any{"name": "Box", "mesh": 0}},
		"meshes":      []any{map[string]any{"primitives": []any{map[string]any{"attributes": map[string]int{"POSITION": 0}, "material": 0}}}},
		"materials":   []any{map[string]any{"pbrMetallicRoughness": map[string]any{"baseColorFactor": rgba, "metallicFactor": 0, "roughnessFactor": 1}}},
		"accessors":   []any{map[string]any{"bufferView": 0, "componentType": 5126, "count": 36, "type": "VEC3", "min": []float64{-0.5, -0.5, -0.5}, "max": []float64{0.5, 0.5, 0.5}}},
		"bufferViews": []any{map[string]any{"buffer": 0, "byteLength": len(bin)}},
		"buffers":     []any{map[string]any{"byteLength": len(bin), "uri": binName}},
	}
	text, _ := json.MarshalIndent(doc, "", "  ")
	return text, bin
}

// boxPositions are the 36 corner positions of a unit box's triangles.
func boxPositions() []byte {
	var out []byte
	put := func(v [3]float32) {
		for _, f := range v {
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(f))
		}
	}
	for axis := 0; axis < 3; axis++ {
		for _, side := range []float32{-0.5, 0.5} {
			u, w := (axis+1)%3, (axis+2)%3
			corner := func(a, b float32) [3]float32 {
				var v [3]float32
				v[axis], v[u], v[w] = side, a, b
				return v
			}
			q := [4][3]float32{corner(-0.5, -0.5), corner(0.5, -0.5), corner(0.5, 0.5), corner(-0.5, 0.5)}
			if side < 0 {
				q[1], q[3] = q[3], q[1]
			}
			for _, i := range []int{0, 1, 2, 0, 2, 3} {
				put(q[i])
			}
		}
	}
	return out
}

// bigGLB is a box in a .glb whose binary chunk is padded to size bytes.
func bigGLB(size int) []byte {
	text, pos := boxGLTF([4]float64{0.2, 0.4, 0.9, 1}, "")
	var doc map[string]any
	json.Unmarshal(text, &doc)
	doc["buffers"] = []any{map[string]any{"byteLength": size}}
	js, _ := json.Marshal(doc)
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	bin := make([]byte, size)
	copy(bin, pos)
	var out bytes.Buffer
	w := func(v uint32) { binary.Write(&out, binary.LittleEndian, v) }
	w(0x46546C67)
	w(2)
	w(uint32(12 + 8 + len(js) + 8 + len(bin)))
	w(uint32(len(js)))
	w(0x4E4F534A)
	out.Write(js)
	w(uint32(len(bin)))
	w(0x004E4942)
	out.Write(bin)
	return out.Bytes()
}
