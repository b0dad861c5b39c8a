//go:build ignore

// gen writes the KTX2 rendering fixtures: two textured quads, on the left
// a UASTC image (Zstandard, mipmapped), on the right an ETC1S one (BasisLZ
// with alpha), both through KHR_texture_basisu (quads_ktx2.gltf); the same
// quads with the PNG they were encoded from (quads_png.gltf); and a file
// whose KTX2 image is cut short (broken_ktx2.gltf), also with the PNG as
// its core fallback source (fallback_ktx2.gltf). The images are copies
// of ../../imgdec/ktx2/testdata's. Run it from this folder: go run gen.go
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"os"
)

func main() {
	copyFile("../../imgdec/ktx2/testdata/uastc_zstd_mips.ktx2", "uastc.ktx2", 0)
	copyFile("../../imgdec/ktx2/testdata/etc1s_rgba.ktx2", "etc1s.ktx2", 0)
	copyFile("../../imgdec/ktx2/testdata/rgba.png", "rgba.png", 0)
	copyFile("../../imgdec/ktx2/testdata/uastc_zstd_mips.ktx2", "broken.ktx2", 300)

	// Two unit quads facing +Z, side by side, UVs (0,0) top left.
	var buf bytes.Buffer
	pos := []float32{}
	uv := []float32{}
	for _, x0 := range []float32{-1.25, 0.25} {
		pos = append(pos, x0, 0, 0, x0+1, 0, 0, x0+1, 1, 0, x0, 1, 0)
		uv = append(uv, 0, 1, 1, 1, 1, 0, 0, 0)
	}
	binary.Write(&buf, binary.LittleEndian, pos)
	binary.Write(&buf, binary.LittleEndian, uv)
	binary.Write(&buf, binary.LittleEndian, []uint16{0, 1, 2, 0, 2, 3})
	data := "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())

	doc := func(images []map[string]any, textures []map[string]any) map[string]any {
		mat := func(tex int) map[string]any {
			return map[string]any{"pbrMetallicRoughness": map[string]any{"baseColorTexture": map[string]any{"index": tex}, "metallicFactor": 0}, "doubleSided": true}
		}
		prim := func(off, mat int) map[string]any {
			return map[string]any{"attributes": map[string]any{"POSITION": off, "TEXCOORD_0": off + 1}, "indices": 4, "material": mat}
		}
		return map[string]any{
			"asset":     map[string]any{"version": "2.0"},
			"scene":     0,
			"scenes":    []any{map[string]any{"nodes": []int{0}}},
			"nodes":     []any{map[string]any{"mesh": 0}},
			"meshes":    []any{map[string]any{"primitives": []any{prim(0, 0), prim(2, 1)}}},
			"materials": []any{mat(0), mat(1)},
			"textures":  textures,
			"images":    images,
			"samplers":  []any{map[string]any{"magFilter": 9728, "minFilter": 9987}},
			"buffers":   []any{map[string]any{"byteLength": buf.Len(), "uri": data}},
			"bufferViews": []any{
				map[string]any{"buffer": 0, "byteOffset": 0, "byteLength": 48},
				map[string]any{"buffer": 0, "byteOffset": 48, "byteLength": 48},
				map[string]any{"buffer": 0, "byteOffset": 96, "byteLength": 32},
				map[string]any{"buffer": 0, "byteOffset": 128, "byteLength": 32},
				map[string]any{"buffer": 0, "byteOffset": 160, "byteLength": 12},
			},
			"accessors": []any{
				map[string]any{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": []float32{-1.25, 0, 0}, "max": []float32{-0.25, 1, 0}},
				map[string]any{"bufferView": 2, "componentType": 5126, "count": 4, "type": "VEC2"},
				map[string]any{"bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC3", "min": []float32{0.25, 0, 0}, "max": []float32{1.25, 1, 0}},
				map[string]any{"bufferView": 3, "componentType": 5126, "count": 4, "type": "VEC2"},
				map[string]any{"bufferView": 4, "componentType": 5123, "count": 6, "type": "SCALAR"},
			},
		}
	}
	basisu := func(src int) map[string]any {
		return map[string]any{"sampler": 0, "extensions": map[string]any{"KHR_texture_basisu": map[string]any{"source": src}}}
	}
	ktx := doc([]map[string]any{{"uri": "uastc.ktx2", "mimeType": "image/ktx2"}, {"uri": "etc1s.ktx2", "mimeType": "image/ktx2"}},
		[]map[string]any{basisu(0), basisu(1)})
	ktx["extensionsUsed"] = []string{"KHR_texture_basisu"}
	ktx["extensionsRequired"] = []string{"KHR_texture_basisu"}
	write("quads_ktx2.gltf", ktx)
	write("quads_png.gltf", doc([]map[string]any{{"uri": "rgba.png"}}, []map[string]any{{"sampler": 0, "source": 0}, {"sampler": 0, "source": 0}}))
	broken := doc([]map[string]any{{"uri": "broken.ktx2", "mimeType": "image/ktx2"}, {"uri": "etc1s.ktx2", "mimeType": "image/ktx2"}},
		[]map[string]any{basisu(0), basisu(1)})
	broken["extensionsUsed"] = []string{"KHR_texture_basisu"}
	broken["extensionsRequired"] = []string{"KHR_texture_basisu"}
	write("broken_ktx2.gltf", broken)
	// The broken image again, with the PNG as the core source: the
	// fallback for viewers without the (optional) extension.
	fallback := doc([]map[string]any{{"uri": "broken.ktx2", "mimeType": "image/ktx2"}, {"uri": "etc1s.ktx2", "mimeType": "image/ktx2"}, {"uri": "rgba.png"}},
		[]map[string]any{withFallback(basisu(0), 2), withFallback(basisu(1), 2)})
	fallback["extensionsUsed"] = []string{"KHR_texture_basisu"}
	write("fallback_ktx2.gltf", fallback)
}

func withFallback(tex map[string]any, src int) map[string]any {
	tex["source"] = src
	return tex
}

func copyFile(from, to string, cut int) {
	b, err := os.ReadFile(from)
	if err != nil {
		panic(err)
	}
	if cut > 0 {
		b = b[:cut]
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		panic(err)
	}
}

func write(name string, v any) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err)
	}
	if err := os.WriteFile(name, append(b, '\n'), 0o644); err != nil {
		panic(err)
	}
}
