package render

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"testing"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// screenQuad is a document of one quad that fills the view of
// screenQuadCamera, in material mat, lit by one directional light too.
func screenQuad(tb testing.TB, mat map[string]any) *scene.Document {
	var buf bytes.Buffer
	binary.Write(&buf, binary.LittleEndian, []float32{-2, -1.2, 0, 2, -1.2, 0, 2, 1.2, 0, -2, 1.2, 0})
	binary.Write(&buf, binary.LittleEndian, []float32{0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1})
	binary.Write(&buf, binary.LittleEndian, []float32{0, 1, 1, 1, 1, 0, 0, 0})
	binary.Write(&buf, binary.LittleEndian, []uint16{0, 1, 2, 0, 2, 3})
	doc := map[string]any{
		"asset":          map[string]any{"version": "2.0"},
		"extensionsUsed": []string{"KHR_materials_anisotropy", "KHR_materials_iridescence", "KHR_lights_punctual"},
		"extensions":     map[string]any{"KHR_lights_punctual": map[string]any{"lights": []any{map[string]any{"type": "directional", "intensity": 2}}}},
		"scene":          0,
		"scenes":         []any{map[string]any{"nodes": []int{0, 1}}},
		"nodes": []any{map[string]any{"mesh": 0},
			map[string]any{"rotation": []float64{-0.2, 0.2, 0, 0.96}, "extensions": map[string]any{"KHR_lights_punctual": map[string]any{"light": 0}}}},
		"meshes":    []any{map[string]any{"primitives": []any{map[string]any{"attributes": map[string]any{"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2}, "indices": 3, "material": 0}}}},
		"materials": []any{mat},
		"buffers":   []any{map[string]any{"byteLength": buf.Len(), "uri": "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())}},
		"bufferViews": []any{
			map[string]any{"buffer": 0, "byteOffset": 0, "byteLength": 48},
			map[string]any{"buffer": 0, "byteOffset": 48, "byteLength": 48},
			map[string]any{"buffer": 0, "byteOffset": 96, "byteLength": 32},
			map[string]any{"buffer": 0, "byteOffset": 128, "byteLength": 12},
		},
		"accessors": []any{
			map[string]any{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": []float64{-2, -1.2, 0}, "max": []float64{2, 1.2, 0}},
			map[string]any{"bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC3"},
			map[string]any{"bufferView": 2, "componentType": 5126, "count": 4, "type": "VEC2"},
			map[string]any{"bufferView": 3, "componentType": 5123, "count": 6, "type": "SCALAR"},
		},
	}
	src, err := json.Marshal(doc)
	if err != nil {
		tb.Fatal(err)
	}
	d, err := scene.Decode(src, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

var screenQuadCamera = Camera{Target: mgl64.Vec3{0, 0, 0}, Distance: 2, FovY: 0.9, Radius: 2}

// BenchmarkAnisotropicIridescent draws a view filled with an anisotropic,
// iridescent metal and the same view in plain metallic-roughness PBR,
// frames alternating in one run, and reports both frame times and their
// ratio (issue 23's goal: under 1.5 on llvmpipe).
func BenchmarkAnisotropicIridescent(b *testing.B) {
	h, err := NewHeadless()
	if err != nil {
		b.Skip(err)
	}
	defer h.Close()
	const w, hgt = 1280, 720
	defer bindBenchTarget(w, hgt)()
	plain := map[string]any{"pbrMetallicRoughness": map[string]any{"baseColorFactor": []float64{0.9, 0.8, 0.7, 1}, "metallicFactor": 1, "roughnessFactor": 0.4}}
	fancy := map[string]any{"pbrMetallicRoughness": plain["pbrMetallicRoughness"], "extensions": map[string]any{
		"KHR_materials_anisotropy":  map[string]any{"anisotropyStrength": 0.6, "anisotropyRotation": 0.5},
		"KHR_materials_iridescence": map[string]any{"iridescenceFactor": 1, "iridescenceThicknessMaximum": 450}}}
	opt := DefaultOptions()
	opt.Grid, opt.Axes = false, false
	type variant struct {
		r     *Renderer
		spent time.Duration
	}
	var vs [2]*variant
	for i, m := range []map[string]any{fancy, plain} {
		r := showing(b, screenQuad(b, m))
		defer r.Delete()
		vs[i] = &variant{r: r}
	}
	if f := vs[0].r.materials[0].features(); f != featAnisotropy|featIridescence {
		b.Fatalf("features %s", f)
	}
	frame := func(v *variant) {
		start := time.Now()
		v.r.Draw(screenQuadCamera, w, hgt, opt)
		gl.Finish()
		v.spent += time.Since(start)
	}
	frame(vs[0]) // compile, upload
	frame(vs[1])
	vs[0].spent, vs[1].spent = 0, 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		frame(vs[0])
		frame(vs[1])
	}
	b.StopTimer()
	fa := vs[0].spent.Seconds() * 1000 / float64(b.N)
	pl := vs[1].spent.Seconds() * 1000 / float64(b.N)
	b.ReportMetric(fa, "aniso-irid-ms/frame")
	b.ReportMetric(pl, "plain-ms/frame")
	b.ReportMetric(fa/pl, "ratio")
}
