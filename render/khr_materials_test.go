package render

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/internal/testcorpus"
	"physview/scene"
)

// This file tests the material extensions added for issue 23
// (specular-glossiness, iridescence, anisotropy, dispersion, diffuse
// transmission) on generated fixtures under testdata/khr: a row of four
// UV spheres (UV0 and a different UV1), optionally a striped backdrop and
// punctual lights. Each fixture has a golden picture, and each extension
// is taken out of its fixture to check that it changes the spheres that
// use it and nothing else.

type obj = map[string]any

// khrFixture describes one generated fixture.
type khrFixture struct {
	name     string
	exts     []string      // extensionsUsed
	mats     [4]obj        // one material per sphere
	images   []image.Image // embedded as PNG data URIs; texture i is image i
	backdrop int           // texture index of a striped backdrop behind the row, or -1
	lights   []khrLight
}

// khrLight is a directional light travelling along dir.
type khrLight struct {
	dir       mgl64.Vec3
	intensity float64
	color     [3]float64
}

// pbr is a core material with the given extensions.
func pbr(name string, base [3]float64, metallic, rough float64, ext obj) obj {
	m := obj{"name": name, "pbrMetallicRoughness": obj{"baseColorFactor": []float64{base[0], base[1], base[2], 1}, "metallicFactor": metallic, "roughnessFactor": rough}}
	if ext != nil {
		m["extensions"] = ext
	}
	return m
}

// texInfo is a textureInfo on UV set uv with an optional KHR_texture_transform scale.
func texInfo(index, uv int, scale float64) obj {
	t := obj{"index": index}
	if uv != 0 {
		t["texCoord"] = uv
	}
	if scale != 0 {
		t["extensions"] = obj{"KHR_texture_transform": obj{"scale": []float64{scale, scale}, "rotation": 0.3}}
	}
	return t
}

// genImage fills a w x h image with f(u, v) (u, v in [0, 1)).
func genImage(w, h int, f func(u, v float64) color.NRGBA) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.SetNRGBA(x, y, f((float64(x)+0.5)/float64(w), (float64(y)+0.5)/float64(h)))
		}
	}
	return img
}

// quatFromTo is the rotation taking unit vector a to unit vector b.
func quatFromTo(a, b mgl64.Vec3) mgl64.Quat {
	return mgl64.QuatBetweenVectors(a.Normalize(), b.Normalize())
}

// build writes the fixture's glTF.
func (f khrFixture) build() []byte {
	var pos, nrm, tan, uv0, uv1 []float32
	var idx []uint16
	const rings, segs = 32, 48
	for i := 0; i <= rings; i++ {
		th := math.Pi * float64(i) / rings
		for j := 0; j <= segs; j++ {
			ph := 2 * math.Pi * float64(j) / segs
			n := [3]float64{math.Sin(th) * math.Cos(ph), math.Cos(th), -math.Sin(th) * math.Sin(ph)}
			for k := 0; k < 3; k++ {
				pos = append(pos, float32(n[k]))
				nrm = append(nrm, float32(n[k]))
			}
			// The tangent points along increasing u (around the sphere).
			tan = append(tan, float32(-math.Sin(ph)), 0, float32(-math.Cos(ph)), 1)
			u, v := float32(j)/segs, float32(i)/rings
			uv0 = append(uv0, u, v)
			uv1 = append(uv1, v, u) // UV set 1 swaps the axes
		}
	}
	for i := 0; i < rings; i++ {
		for j := 0; j < segs; j++ {
			a := uint16(i*(segs+1) + j)
			b := a + segs + 1
			idx = append(idx, a, b, a+1, a+1, b, b+1)
		}
	}
	sphereVerts := len(pos) / 3
	// The backdrop: one quad facing +Z.
	for _, c := range [4][2]float32{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
		pos = append(pos, c[0], c[1], 0)
		nrm = append(nrm, 0, 0, 1)
		tan = append(tan, 1, 0, 0, 1)
		uv0 = append(uv0, (c[0]+1)/2, (1-c[1])/2)
		uv1 = append(uv1, (c[0]+1)/2, (1-c[1])/2)
	}
	quad := []uint16{uint16(sphereVerts), uint16(sphereVerts + 1), uint16(sphereVerts + 2), uint16(sphereVerts), uint16(sphereVerts + 2), uint16(sphereVerts + 3)}
	nv := len(pos) / 3

	var buf bytes.Buffer
	var views []obj
	add := func(data any, target int) int {
		start := buf.Len()
		binary.Write(&buf, binary.LittleEndian, data)
		views = append(views, obj{"buffer": 0, "byteOffset": start, "byteLength": buf.Len() - start, "target": target})
		for buf.Len()%4 != 0 {
			buf.WriteByte(0)
		}
		return len(views) - 1
	}
	vPos, vNrm, vUV0, vUV1 := add(pos, 34962), add(nrm, 34962), add(uv0, 34962), add(uv1, 34962)
	vIdx, vQuad := add(idx, 34963), add(quad, 34963)
	vTan := add(tan, 34962)
	accessors := []obj{
		{"bufferView": vPos, "componentType": 5126, "count": nv, "type": "VEC3", "min": []float64{-1, -1, -1}, "max": []float64{1, 1, 1}},
		{"bufferView": vNrm, "componentType": 5126, "count": nv, "type": "VEC3"},
		{"bufferView": vUV0, "componentType": 5126, "count": nv, "type": "VEC2"},
		{"bufferView": vUV1, "componentType": 5126, "count": nv, "type": "VEC2"},
		{"bufferView": vIdx, "componentType": 5123, "count": len(idx), "type": "SCALAR"},
		{"bufferView": vQuad, "componentType": 5123, "count": len(quad), "type": "SCALAR"},
		{"bufferView": vTan, "componentType": 5126, "count": nv, "type": "VEC4"},
	}
	attrs := obj{"POSITION": 0, "NORMAL": 1, "TANGENT": 6, "TEXCOORD_0": 2, "TEXCOORD_1": 3}
	var meshes, nodes []obj
	var sceneNodes []int
	mats := []obj{}
	for i, m := range f.mats {
		mats = append(mats, m)
		meshes = append(meshes, obj{"name": fmt.Sprintf("sphere %d", i), "primitives": []obj{{"attributes": attrs, "indices": 4, "material": i}}})
		nodes = append(nodes, obj{"name": m["name"], "mesh": i, "translation": []float64{sphereX[i], 0, 0}})
		sceneNodes = append(sceneNodes, i)
	}
	if f.backdrop >= 0 {
		mats = append(mats, obj{"name": "backdrop", "pbrMetallicRoughness": obj{"baseColorTexture": obj{"index": f.backdrop}, "metallicFactor": 0, "roughnessFactor": 1}})
		meshes = append(meshes, obj{"name": "backdrop", "primitives": []obj{{"attributes": attrs, "indices": 5, "material": len(mats) - 1}}})
		nodes = append(nodes, obj{"name": "backdrop", "mesh": len(meshes) - 1, "translation": []float64{0, 0, -2.5}, "scale": []float64{8, 2.2, 1}})
		sceneNodes = append(sceneNodes, len(nodes)-1)
	}
	exts := slices.Clone(f.exts)
	doc := obj{
		"asset":       obj{"version": "2.0", "generator": "physview render/khr_materials_test.go"},
		"scene":       0,
		"materials":   mats,
		"meshes":      meshes,
		"accessors":   accessors,
		"bufferViews": views,
	}
	if len(f.lights) > 0 {
		var defs []obj
		for i, l := range f.lights {
			defs = append(defs, obj{"type": "directional", "intensity": l.intensity, "color": l.color[:]})
			q := quatFromTo(mgl64.Vec3{0, 0, -1}, l.dir)
			nodes = append(nodes, obj{"name": fmt.Sprintf("light %d", i), "rotation": []float64{q.V[0], q.V[1], q.V[2], q.W},
				"extensions": obj{"KHR_lights_punctual": obj{"light": i}}})
			sceneNodes = append(sceneNodes, len(nodes)-1)
		}
		doc["extensions"] = obj{"KHR_lights_punctual": obj{"lights": defs}}
		exts = append(exts, "KHR_lights_punctual")
	}
	if len(f.images) > 0 {
		var images, textures []obj
		for i, img := range f.images {
			var b bytes.Buffer
			png.Encode(&b, img)
			images = append(images, obj{"uri": "data:image/png;base64," + base64.StdEncoding.EncodeToString(b.Bytes())})
			textures = append(textures, obj{"source": i, "sampler": 0})
		}
		doc["images"], doc["textures"] = images, textures
		doc["samplers"] = []obj{{"magFilter": 9729, "minFilter": 9987}}
	}
	doc["buffers"] = []obj{{"byteLength": buf.Len(), "uri": "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())}}
	doc["nodes"] = nodes
	doc["scenes"] = []obj{{"nodes": sceneNodes}}
	if len(exts) > 0 {
		doc["extensionsUsed"] = exts
	}
	out, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		panic(err)
	}
	return append(out, '\n')
}

// withoutExtension returns the glTF src with extension name taken out of
// every material and of extensionsUsed.
func withoutExtension(t *testing.T, src []byte, name string) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(src, &doc); err != nil {
		t.Fatal(err)
	}
	for _, m := range doc["materials"].([]any) {
		if e, ok := m.(map[string]any)["extensions"].(map[string]any); ok {
			delete(e, name)
		}
	}
	var used []any
	for _, u := range doc["extensionsUsed"].([]any) {
		if u != name {
			used = append(used, u)
		}
	}
	doc["extensionsUsed"] = used
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// khrCamera looks at the row of spheres from straight ahead.
var khrCamera = Camera{Target: mgl64.Vec3{0, 0, 0}, Distance: 7, FovY: math.Pi / 4, Radius: 7}

const khrW, khrH = 480, 160

// renderFixture loads glTF bytes and renders them with the fixture camera.
func renderFixture(t *testing.T, src []byte) (*image.NRGBA, []string) {
	t.Helper()
	d, err := scene.Decode(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := showing(t, d)
	defer r.Delete()
	img, err := r.RenderImage(khrCamera, khrW, khrH, plainOptions(-1))
	if err != nil {
		t.Fatal(err)
	}
	return img, r.Messages
}

// inDisc reports whether the ray through pixel (x, y) passes within
// frac of sphere i's radius of its centre (frac above 1 takes in a margin
// around its outline).
func inDisc(x, y, i int, frac float64) bool {
	inv := khrCamera.Projection(float64(khrW) / khrH).Mul4(khrCamera.View()).Inv()
	nx := (float64(x)+0.5)/khrW*2 - 1
	ny := 1 - (float64(y)+0.5)/khrH*2
	at := func(z float64) mgl64.Vec3 {
		p := inv.Mul4x1(mgl64.Vec4{nx, ny, z, 1})
		return p.Vec3().Mul(1 / p[3])
	}
	o := at(-1)
	d := at(1).Sub(o).Normalize()
	return mgl64.Vec3{sphereX[i], 0, 0}.Sub(o).Cross(d).Len() <= frac
}

// discStats returns the mean colour and the mean chroma (max - min
// channel) of the pixels within frac of sphere i's radius.
func discStats(img *image.NRGBA, i int, frac float64) (mean [3]float64, chroma float64) {
	n := 0
	for y := 0; y < khrH; y++ {
		for x := 0; x < khrW; x++ {
			if !inDisc(x, y, i, frac) {
				continue
			}
			p := img.NRGBAAt(x, y)
			c := [3]float64{float64(p.R), float64(p.G), float64(p.B)}
			for k := range mean {
				mean[k] += c[k]
			}
			chroma += math.Max(c[0], math.Max(c[1], c[2])) - math.Min(c[0], math.Min(c[1], c[2]))
			n++
		}
	}
	for k := range mean {
		mean[k] /= float64(n)
	}
	return mean, chroma / float64(n)
}

// checkAblation renders src with and without extension name and checks
// that the spheres in changed differ (mean difference inside their discs
// above minDiff) and that no pixel elsewhere changes.
func checkAblation(t *testing.T, src []byte, with *image.NRGBA, name string, changed []int, minDiff float64) *image.NRGBA {
	t.Helper()
	without, msgs := renderFixture(t, withoutExtension(t, src, name))
	if len(msgs) != 0 {
		t.Errorf("without %s: messages %q", name, msgs)
	}
	inside := func(x, y int, frac float64) int {
		for _, i := range changed {
			if inDisc(x, y, i, frac) {
				return i
			}
		}
		return -1
	}
	sum := map[int]float64{}
	cnt := map[int]int{}
	outside := 0
	for y := 0; y < khrH; y++ {
		for x := 0; x < khrW; x++ {
			a, b := with.NRGBAAt(x, y), without.NRGBAAt(x, y)
			d := math.Abs(float64(a.R)-float64(b.R)) + math.Abs(float64(a.G)-float64(b.G)) + math.Abs(float64(a.B)-float64(b.B))
			if i := inside(x, y, 0.8); i >= 0 {
				sum[i] += d / 3
				cnt[i]++
			} else if inside(x, y, 1.1) < 0 && d > 3 {
				if outside < 5 {
					t.Logf("outside change at %d,%d: %v -> %v", x, y, a, b)
				}
				outside++
			}
		}
	}
	for _, i := range changed {
		mean := sum[i] / float64(cnt[i])
		t.Logf("without %s: sphere %d changes by %.1f on average", name, i, mean)
		if mean < minDiff {
			t.Errorf("without %s: sphere %d changes by %.1f on average, want at least %.1f (the extension has no effect)", name, i, mean, minDiff)
		}
	}
	if outside > 0 {
		t.Errorf("without %s: %d pixels away from the spheres that use it changed", name, outside)
	}
	return without
}

// khrFixtureImage writes (with -update) and renders testdata/khr/NAME.gltf,
// checks it against its golden picture and that it loads without messages.
func khrFixtureImage(t *testing.T, f khrFixture) ([]byte, *image.NRGBA) {
	t.Helper()
	headless(t)
	path := filepath.Join("testdata", "khr", f.name+".gltf")
	if *update {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, f.build(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./render -update to create it)", err)
	}
	img, msgs := renderFixture(t, src)
	if len(msgs) != 0 {
		t.Errorf("messages %q, want none (every extension is drawn)", msgs)
	}
	compareGolden(t, "khr-"+f.name, img)
	return src, img
}

// keyLight lights the row from the upper left, in front.
var keyLight = khrLight{dir: mgl64.Vec3{0.5, -0.6, -0.6}, intensity: 2, color: [3]float64{1, 1, 1}}

// TestSpecGlossFixture: KHR_materials_pbrSpecularGlossiness draws the
// specular-glossiness workflow: a red diffuse dielectric, a gold-coloured
// specular with a black diffuse (a metal in this workflow), textures on
// UV 0 and 1 with transforms; the core metallic-roughness factors (grey
// here) are only the fallback.
func TestSpecGlossFixture(t *testing.T) {
	checker := genImage(64, 64, func(u, v float64) color.NRGBA {
		if (int(u*8)+int(v*8))%2 == 0 {
			return color.NRGBA{230, 230, 230, 255}
		}
		return color.NRGBA{40, 90, 200, 255}
	})
	gloss := genImage(64, 64, func(u, v float64) color.NRGBA {
		g := uint8(40)
		if int(u*6)%2 == 0 {
			g = 250
		}
		return color.NRGBA{255, 255, 255, g}
	})
	fallback := func(name string, ext obj) obj { return pbr(name, [3]float64{0.5, 0.5, 0.5}, 0, 0.5, ext) }
	f := khrFixture{
		name:     "specgloss",
		exts:     []string{"KHR_materials_pbrSpecularGlossiness", "KHR_texture_transform"},
		backdrop: -1,
		images:   []image.Image{checker, gloss},
		lights:   []khrLight{keyLight},
		mats: [4]obj{
			fallback("red diffuse, glossy", obj{"KHR_materials_pbrSpecularGlossiness": obj{"diffuseFactor": []float64{0.8, 0.05, 0.05, 1}, "specularFactor": []float64{0.04, 0.04, 0.04}, "glossinessFactor": 0.8}}),
			fallback("gold specular", obj{"KHR_materials_pbrSpecularGlossiness": obj{"diffuseFactor": []float64{0, 0, 0, 1}, "specularFactor": []float64{1, 0.77, 0.34}, "glossinessFactor": 0.7}}),
			fallback("textured", obj{"KHR_materials_pbrSpecularGlossiness": obj{"diffuseTexture": texInfo(0, 0, 2), "specularFactor": []float64{0.3, 0.3, 0.3},
				"specularGlossinessTexture": texInfo(1, 1, 1.5)}}),
			pbr("plain", [3]float64{0.5, 0.5, 0.5}, 0, 0.5, nil),
		},
	}
	src, img := khrFixtureImage(t, f)
	red, _ := discStats(img, 0, 0.8)
	gold, _ := discStats(img, 1, 0.8)
	tex, texChroma := discStats(img, 2, 0.8)
	t.Logf("red %.0f, gold %.0f, textured %.0f (chroma %.0f)", red, gold, tex, texChroma)
	if red[0] < red[1]+60 || red[0] < red[2]+60 {
		t.Errorf("red diffuse sphere %v: want red", red)
	}
	if gold[0] < gold[2]+30 || gold[1] < gold[2]+10 {
		t.Errorf("gold specular sphere %v: want yellow (red and green above blue)", gold)
	}
	if tex[2] < tex[0]+15 {
		t.Errorf("textured sphere %v: want the blue of its diffuse checker", tex)
	}
	checkAblation(t, src, img, "KHR_materials_pbrSpecularGlossiness", []int{0, 1, 2}, 8)
}

// TestIridescenceFixture: KHR_materials_iridescence colours a dark
// dielectric and a metal with thin-film interference; the third sphere
// takes its thickness from a texture (green channel, UV 1, transformed)
// and its factor from another.
func TestIridescenceFixture(t *testing.T) {
	thick := genImage(64, 64, func(u, v float64) color.NRGBA {
		return color.NRGBA{0, uint8(255 * u), 0, 255}
	})
	factor := genImage(16, 16, func(u, v float64) color.NRGBA {
		r := uint8(255)
		if v > 0.75 {
			r = 0
		}
		return color.NRGBA{r, 0, 0, 255}
	})
	f := khrFixture{
		name:     "iridescence",
		exts:     []string{"KHR_materials_iridescence", "KHR_texture_transform"},
		backdrop: -1,
		images:   []image.Image{thick, factor},
		lights:   []khrLight{keyLight},
		mats: [4]obj{
			pbr("dark dielectric film", [3]float64{0.02, 0.02, 0.02}, 0, 0.25, obj{"KHR_materials_iridescence": obj{"iridescenceFactor": 1, "iridescenceIor": 1.8, "iridescenceThicknessMaximum": 500}}),
			pbr("metal film", [3]float64{0.9, 0.9, 0.9}, 1, 0.3, obj{"KHR_materials_iridescence": obj{"iridescenceFactor": 1, "iridescenceIor": 1.5, "iridescenceThicknessMaximum": 350}}),
			pbr("textured film", [3]float64{0.05, 0.05, 0.05}, 0, 0.3, obj{"KHR_materials_iridescence": obj{"iridescenceFactor": 1, "iridescenceTexture": texInfo(1, 0, 0),
				"iridescenceThicknessMinimum": 200, "iridescenceThicknessMaximum": 800, "iridescenceThicknessTexture": texInfo(0, 1, 1.2)}}),
			pbr("plain dark dielectric", [3]float64{0.02, 0.02, 0.02}, 0, 0.25, nil),
		},
	}
	src, img := khrFixtureImage(t, f)
	without := checkAblation(t, src, img, "KHR_materials_iridescence", []int{0, 1, 2}, 4)
	for _, i := range []int{0, 1, 2} {
		_, c := discStats(img, i, 0.9)
		_, c0 := discStats(without, i, 0.9)
		t.Logf("sphere %d: chroma %.1f with the film, %.1f without", i, c, c0)
		if c < c0+8 {
			t.Errorf("sphere %d: chroma %.1f with the film, %.1f without: want thin-film colours", i, c, c0)
		}
	}
}

// highlightShape returns the ratio of the horizontal to the vertical
// spread of the brightest pixels (the top 3 %) on sphere i.
func highlightShape(img *image.NRGBA, i int) float64 {
	type px struct{ x, y, l float64 }
	var all []px
	for y := 0; y < khrH; y++ {
		for x := 0; x < khrW; x++ {
			if !inDisc(x, y, i, 0.95) {
				continue
			}
			p := img.NRGBAAt(x, y)
			all = append(all, px{float64(x), float64(y), luminance([3]float64{float64(p.R), float64(p.G), float64(p.B)})})
		}
	}
	slices.SortFunc(all, func(a, b px) int {
		if a.l > b.l {
			return -1
		}
		if a.l < b.l {
			return 1
		}
		return 0
	})
	top := all[:len(all)*3/100]
	var mx, my float64
	for _, p := range top {
		mx += p.x
		my += p.y
	}
	mx /= float64(len(top))
	my /= float64(len(top))
	var vx, vy float64
	for _, p := range top {
		vx += (p.x - mx) * (p.x - mx)
		vy += (p.y - my) * (p.y - my)
	}
	return math.Sqrt(vx / math.Max(vy, 1e-9))
}

// TestAnisotropyFixture: KHR_materials_anisotropy stretches highlights
// along the anisotropy direction (the sphere's tangent, around it) and
// across it when rotated a quarter turn; the third sphere reads its
// direction and strength from a texture.
func TestAnisotropyFixture(t *testing.T) {
	dirs := genImage(64, 64, func(u, v float64) color.NRGBA {
		// Direction a quarter turn from the tangent (along the bitangent), full strength.
		return color.NRGBA{128, 255, 255, 255}
	})
	metal := func(name string, ext obj) obj { return pbr(name, [3]float64{0.95, 0.93, 0.88}, 1, 0.3, ext) }
	f := khrFixture{
		name:     "anisotropy",
		exts:     []string{"KHR_materials_anisotropy"},
		backdrop: -1,
		images:   []image.Image{dirs},
		lights:   []khrLight{keyLight},
		mats: [4]obj{
			metal("anisotropic along the tangent", obj{"KHR_materials_anisotropy": obj{"anisotropyStrength": 0.8}}),
			metal("anisotropic, rotated", obj{"KHR_materials_anisotropy": obj{"anisotropyStrength": 0.8, "anisotropyRotation": math.Pi / 2}}),
			metal("anisotropy texture", obj{"KHR_materials_anisotropy": obj{"anisotropyStrength": 0.8, "anisotropyTexture": texInfo(0, 0, 0)}}),
			metal("isotropic", nil),
		},
	}
	src, img := khrFixtureImage(t, f)
	without := checkAblation(t, src, img, "KHR_materials_anisotropy", []int{0, 1, 2}, 3)
	shapes := [4]float64{}
	for i := range shapes {
		shapes[i] = highlightShape(img, i)
	}
	t.Logf("highlight width / height: along %.2f, rotated %.2f, texture %.2f, isotropic %.2f (without: %.2f)", shapes[0], shapes[1], shapes[2], shapes[3], highlightShape(without, 0))
	if shapes[0] < 1.4*shapes[3] {
		t.Errorf("anisotropic along the tangent: highlight width/height %.2f, isotropic %.2f: want it stretched sideways", shapes[0], shapes[3])
	}
	if shapes[1] > shapes[3]/1.4 || shapes[2] > shapes[3]/1.4 {
		t.Errorf("rotated %.2f, texture %.2f, isotropic %.2f: want them stretched up and down", shapes[1], shapes[2], shapes[3])
	}
}

// TestDispersionDiffuseTransmissionFixture: KHR_materials_dispersion
// splits the colours of a striped backdrop seen through glass;
// KHR_materials_diffuse_transmission lets a light behind the row through
// a thin green leaf-like material (factor and colour, then from textures).
func TestDispersionDiffuseTransmissionFixture(t *testing.T) {
	stripes := genImage(256, 16, func(u, v float64) color.NRGBA {
		if int(u*48)%2 == 0 {
			return color.NRGBA{250, 250, 250, 255}
		}
		return color.NRGBA{10, 10, 10, 255}
	})
	dtColor := genImage(32, 32, func(u, v float64) color.NRGBA {
		return color.NRGBA{uint8(255 * (1 - v)), 255, uint8(255 * v), 255}
	})
	dtFactor := genImage(32, 32, func(u, v float64) color.NRGBA {
		return color.NRGBA{255, 255, 255, 255}
	})
	glass := func(name string, ext obj) obj {
		e := obj{"KHR_materials_transmission": obj{"transmissionFactor": 1}, "KHR_materials_volume": obj{"thicknessFactor": 2}, "KHR_materials_ior": obj{"ior": 1.5}}
		for k, v := range ext {
			e[k] = v
		}
		return pbr(name, [3]float64{1, 1, 1}, 0, 0.05, e)
	}
	f := khrFixture{
		name: "transmission",
		exts: []string{"KHR_materials_transmission", "KHR_materials_volume", "KHR_materials_ior", "KHR_materials_dispersion",
			"KHR_materials_diffuse_transmission", "KHR_texture_transform"},
		backdrop: 0,
		images:   []image.Image{stripes, dtColor, dtFactor},
		lights:   []khrLight{{dir: mgl64.Vec3{0, 0.2, 1}, intensity: 4, color: [3]float64{1, 1, 1}}},
		mats: [4]obj{
			glass("glass with dispersion", obj{"KHR_materials_dispersion": obj{"dispersion": 5}}),
			glass("glass", nil),
			pbr("thin leaf", [3]float64{0.1, 0.3, 0.05}, 0, 0.6, obj{"KHR_materials_diffuse_transmission": obj{"diffuseTransmissionFactor": 0.8, "diffuseTransmissionColorFactor": []float64{0.3, 1, 0.1}}}),
			pbr("textured leaf", [3]float64{0.1, 0.3, 0.05}, 0, 0.6, obj{"KHR_materials_diffuse_transmission": obj{"diffuseTransmissionFactor": 0.8,
				"diffuseTransmissionTexture": texInfo(2, 1, 0), "diffuseTransmissionColorTexture": texInfo(1, 0, 1.5)}}),
		},
	}
	src, img := khrFixtureImage(t, f)
	noDisp := checkAblation(t, src, img, "KHR_materials_dispersion", []int{0}, 2)
	_, c := discStats(img, 0, 0.8)
	_, c0 := discStats(noDisp, 0, 0.8)
	t.Logf("glass over stripes: chroma %.1f with dispersion, %.1f without", c, c0)
	if c < c0+6 {
		t.Errorf("glass over stripes: chroma %.1f with dispersion, %.1f without: want colour fringes", c, c0)
	}
	noDT := checkAblation(t, src, img, "KHR_materials_diffuse_transmission", []int{2, 3}, 4)
	for _, i := range []int{2, 3} {
		m, _ := discStats(img, i, 0.8)
		m0, _ := discStats(noDT, i, 0.8)
		t.Logf("leaf %d lit from behind: %.0f with diffuse transmission, %.0f without", i, m, m0)
		if m[1] < m0[1]+15 {
			t.Errorf("leaf %d lit from behind: green %.0f with diffuse transmission, %.0f without: want light through it", i, m[1], m0[1])
		}
	}
}

// iblRadiance is the test environment: red light from +X, blue from -X,
// a white sky and a dark ground, blurred toward its mean with blur in [0, 1].
func iblRadiance(d vec3, blur float64) vec3 {
	c := vec3{0.05, 0.05, 0.05}
	if d[1] > 0 {
		c = c.add(vec3{0.6, 0.6, 0.6}.mul(d[1]))
	}
	if d[0] > 0 {
		c = c.add(vec3{3, 0.2, 0.1}.mul(d[0] * d[0]))
	} else {
		c = c.add(vec3{0.1, 0.3, 3}.mul(d[0] * d[0]))
	}
	return mix3(c, vec3{0.7, 0.5, 0.7}, blur)
}

// withImageBasedLight adds an EXT_lights_image_based light to glTF src:
// three levels of RGBD PNG faces of iblRadiance (16, 8 and 4 pixels),
// irradiance coefficients projected from it, the given rotation and
// intensity, used by scene 0.
func withImageBasedLight(t *testing.T, src []byte, rotation [4]float64, intensity float64) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(src, &doc); err != nil {
		t.Fatal(err)
	}
	images, _ := doc["images"].([]any)
	var levels [][]int
	for level, n := range []int{16, 8, 4} {
		var faces []int
		for f := 0; f < 6; f++ {
			img := image.NewNRGBA(image.Rect(0, 0, n, n))
			for y := 0; y < n; y++ {
				for x := 0; x < n; x++ {
					c := iblRadiance(cubeDir(f, x, y, n), float64(level)/2)
					dd := 1 / math.Max(1, math.Max(c[0], math.Max(c[1], c[2])))
					enc := func(v float64) uint8 { return uint8(math.Round(math.Pow(v*dd, 1/2.2) * 255)) }
					img.SetNRGBA(x, y, color.NRGBA{enc(c[0]), enc(c[1]), enc(c[2]), uint8(math.Round(dd * 255))})
				}
			}
			var b bytes.Buffer
			png.Encode(&b, img)
			images = append(images, map[string]any{"uri": "data:image/png;base64," + base64.StdEncoding.EncodeToString(b.Bytes())})
			faces = append(faces, len(images)-1)
		}
		levels = append(levels, faces)
	}
	c := &cube{n: 32}
	for f := range c.faces {
		for y := 0; y < c.n; y++ {
			for x := 0; x < c.n; x++ {
				v := iblRadiance(cubeDir(f, x, y, c.n), 0)
				c.faces[f] = append(c.faces[f], float32(v[0]), float32(v[1]), float32(v[2]))
			}
		}
	}
	sh := irradianceSH(c)
	var coeffs [][3]float64
	for _, k := range sh {
		coeffs = append(coeffs, [3]float64{float64(k[0]) * math.Pi, float64(k[1]) * math.Pi, float64(k[2]) * math.Pi})
	}
	doc["images"] = images
	exts, _ := doc["extensions"].(map[string]any)
	if exts == nil {
		exts = map[string]any{}
	}
	exts["EXT_lights_image_based"] = map[string]any{"lights": []any{map[string]any{"name": "red east, blue west",
		"rotation": rotation[:], "intensity": intensity, "irradianceCoefficients": coeffs, "specularImageSize": 16, "specularImages": levels}}}
	doc["extensions"] = exts
	used, _ := doc["extensionsUsed"].([]any)
	doc["extensionsUsed"] = append(used, "EXT_lights_image_based")
	sc := doc["scenes"].([]any)[0].(map[string]any)
	sc["extensions"] = map[string]any{"EXT_lights_image_based": map[string]any{"light": 0}}
	out, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

// halves returns the mean colour of the left and right halves of sphere i's disc.
func halves(img *image.NRGBA, i int) (left, right [3]float64) {
	var nl, nr int
	cx := 0.0
	for y := 0; y < khrH; y++ {
		for x := 0; x < khrW; x++ {
			if inDisc(x, y, i, 0.05) {
				cx = float64(x)
			}
		}
	}
	for y := 0; y < khrH; y++ {
		for x := 0; x < khrW; x++ {
			if !inDisc(x, y, i, 0.85) {
				continue
			}
			p := img.NRGBAAt(x, y)
			c := [3]float64{float64(p.R), float64(p.G), float64(p.B)}
			for k := range c {
				if float64(x) < cx {
					left[k] += c[k]
				} else {
					right[k] += c[k]
				}
			}
			if float64(x) < cx {
				nl++
			} else {
				nr++
			}
		}
	}
	for k := range left {
		left[k] /= float64(nl)
		right[k] /= float64(nr)
	}
	return left, right
}

// TestImageBasedLightFixture: EXT_lights_image_based lights the spheres
// with the file's own environment when EnvFile is chosen (red from the
// right, blue from the left; turned half round, the other way; twice the
// intensity, brighter), and the built-in environments are untouched by it.
func TestImageBasedLightFixture(t *testing.T) {
	headless(t)
	f := khrFixture{
		name:     "ibl",
		backdrop: -1,
		mats: [4]obj{
			pbr("white rough", [3]float64{0.9, 0.9, 0.9}, 0, 0.9, nil),
			pbr("chrome", [3]float64{0.95, 0.95, 0.95}, 1, 0.05, nil),
			pbr("satin metal", [3]float64{0.95, 0.95, 0.95}, 1, 0.5, nil),
			pbr("white glossy", [3]float64{0.9, 0.9, 0.9}, 0, 0.2, nil),
		},
	}
	path := filepath.Join("testdata", "khr", "ibl.gltf")
	base := f.build()
	if *update {
		if err := os.WriteFile(path, withImageBasedLight(t, base, [4]float64{0, 0, 0, 1}, 1), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./render -update to create it)", err)
	}
	render := func(src []byte, env Environment, bg BackgroundMode) *image.NRGBA {
		d, err := scene.Decode(src, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := showing(t, d)
		defer r.Delete()
		opt := plainOptions(-1)
		opt.Environment, opt.BackgroundMode = env, bg
		img, err := r.RenderImage(khrCamera, khrW, khrH, opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Messages) != 0 {
			t.Errorf("messages %q", r.Messages)
		}
		return img
	}
	img := render(src, EnvFile, BackgroundEnvironment)
	compareGolden(t, "khr-ibl", img)
	lit := render(src, EnvFile, BackgroundColor)
	l, r := halves(lit, 0)
	t.Logf("white rough sphere: left %.0f, right %.0f", l, r)
	// Red minus blue: the sphere is seen from its right, so both halves
	// show some of the red, but the right one much more.
	rb := func(c [3]float64) float64 { return c[0] - c[2] }
	if rb(r) < rb(l)+60 || rb(r) < 60 {
		t.Errorf("white rough sphere: left %.0f, right %.0f: want red on the right (+X), bluer on the left", l, r)
	}
	// Turned half round about +Y: red from the left.
	var doc map[string]any
	json.Unmarshal(src, &doc)
	light := doc["extensions"].(map[string]any)["EXT_lights_image_based"].(map[string]any)["lights"].([]any)[0].(map[string]any)
	light["rotation"] = []float64{0, 1, 0, 0}
	turned, _ := json.Marshal(doc)
	tl, tr := halves(render(turned, EnvFile, BackgroundColor), 0)
	t.Logf("turned: left %.0f, right %.0f", tl, tr)
	if rb(tl) < rb(tr)+60 || rb(tr) > -60 {
		t.Errorf("turned half round: left %.0f, right %.0f: want red on the left", tl, tr)
	}
	light["rotation"] = []float64{0, 0, 0, 1}
	light["intensity"] = 2.0
	brighter, _ := json.Marshal(doc)
	bl, br := halves(render(brighter, EnvFile, BackgroundColor), 0)
	if luminance(bl)+luminance(br) < luminance(l)+luminance(r)+40 {
		t.Errorf("intensity 2: %.0f %.0f, intensity 1: %.0f %.0f: want brighter", bl, br, l, r)
	}
	// The built-in environments do not change, and without the extension
	// EnvFile is the studio.
	studio := render(src, EnvStudio, BackgroundColor)
	if !bytes.Equal(studio.Pix, render(base, EnvStudio, BackgroundColor).Pix) {
		t.Error("the studio picture changes when the file has its own environment")
	}
	if !bytes.Equal(studio.Pix, render(base, EnvFile, BackgroundColor).Pix) {
		t.Error("without EXT_lights_image_based, EnvFile is not the studio")
	}
}

// TestKhronosMaterialSamples renders the Khronos sample models of the
// extensions added for issue 23 that the corpus holds whole: each draws
// without a "not rendered" message, and taking the extension out of the
// file changes the picture.
func TestKhronosMaterialSamples(t *testing.T) {
	for _, c := range []struct{ path, ext string }{
		{"gltf-sample-assets/Models/AnisotropyStrengthTest/glTF/AnisotropyStrengthTest.gltf", "KHR_materials_anisotropy"},
		{"gltf-sample-assets/Models/IridescenceMetallicSpheres/glTF/IridescenceMetallicSpheres.gltf", "KHR_materials_iridescence"},
		{"gltf-sample-assets/Models/IridescenceDielectricSpheres/glTF/IridescenceDielectricSpheres.gltf", "KHR_materials_iridescence"},
		{"gltf-sample-assets/Models/Buggy/glTF-pbrSpecularGlossiness/Buggy.gltf", "KHR_materials_pbrSpecularGlossiness"},
		{"gltf-sample-assets/Models/SpecGlossVsMetalRough/glTF/SpecGlossVsMetalRough.gltf", "KHR_materials_pbrSpecularGlossiness"},
	} {
		t.Run(filepath.Base(c.path), func(t *testing.T) {
			headless(t)
			path := testcorpus.File(t, c.path)
			if m := testcorpus.MissingBuffer(path); m != "" {
				t.Skipf("the corpus lacks %s", m)
			}
			shoot := func(drop bool) (*image.NRGBA, []string) {
				d, err := scene.Load(path)
				if err != nil {
					t.Fatal(err)
				}
				if drop {
					for _, m := range d.GLTF.Materials {
						delete(m.Extensions, c.ext)
					}
				}
				r := showing(t, d)
				defer r.Delete()
				lo, hi := r.Bounds()
				img, err := r.RenderImage(NewCamera(lo, hi), 320, 240, plainOptions(-1))
				if err != nil {
					t.Fatal(err)
				}
				return img, r.Messages
			}
			with, msgs := shoot(false)
			for _, m := range msgs {
				if strings.Contains(m, "not rendered") || strings.Contains(m, "not supported") {
					t.Errorf("message %q", m)
				}
			}
			without, _ := shoot(true)
			changed := 0
			for i := 0; i < len(with.Pix); i += 4 {
				d := 0
				for k := 0; k < 3; k++ {
					d += max(int(with.Pix[i+k])-int(without.Pix[i+k]), int(without.Pix[i+k])-int(with.Pix[i+k]))
				}
				if d > 12 {
					changed++
				}
			}
			t.Logf("%d of %d pixels change without %s", changed, len(with.Pix)/4, c.ext)
			if changed < len(with.Pix)/4/50 {
				t.Errorf("only %d pixels change without %s: it has no visible effect", changed, c.ext)
			}
		})
	}
}
