package render

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/internal/testcorpus"
	"physview/scene"
)

// plainOptions draws meshes only, over a mid-grey background, in the
// studio environment.
func plainOptions(variant int) Options {
	o := DefaultOptions()
	o.Grid, o.Axes = false, false
	for i := range o.Debug {
		o.Debug[i] = false
	}
	o.Variant = variant
	o.Background = [3]float32{0.5, 0.5, 0.5}
	return o
}

// meanWhere averages the pixels of img that differ from the background
// colour bg, returning the mean and how many pixels there were.
func meanWhere(img *image.NRGBA, bg [3]float32) (mean [3]float64, n int) {
	b := [3]float64{float64(bg[0]) * 255, float64(bg[1]) * 255, float64(bg[2]) * 255}
	for i := 0; i < len(img.Pix); i += 4 {
		p := [3]float64{float64(img.Pix[i]), float64(img.Pix[i+1]), float64(img.Pix[i+2])}
		if math.Abs(p[0]-b[0])+math.Abs(p[1]-b[1])+math.Abs(p[2]-b[2]) < 4 {
			continue
		}
		for k := range mean {
			mean[k] += p[k]
		}
		n++
	}
	if n > 0 {
		for k := range mean {
			mean[k] /= float64(n)
		}
	}
	return mean, n
}

func luminance(c [3]float64) float64 { return 0.2126*c[0] + 0.7152*c[1] + 0.0722*c[2] }

// TestSofaVariantColours renders only the fabric of the Khronos
// GlamVelvetSofa in each variant and checks the mean colour of the
// fabric. The fabrics' colour lives almost entirely in
// KHR_materials_sheen and KHR_materials_specular (Navy's base colour is
// 0.01 grey), so without them every variant is near black.
func TestSofaVariantColours(t *testing.T) {
	headless(t)
	path := testcorpus.File(t, "gltf-sample-assets/Models/GlamVelvetSofa/glTF-Binary/GlamVelvetSofa.glb")
	d, err := scene.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	// Show only the fabric node (mesh 1).
	fabric := -1
	for i, n := range d.GLTF.Nodes {
		if n.Mesh != nil && *n.Mesh == 1 {
			fabric = i
		}
	}
	if fabric < 0 || len(d.GLTF.Scenes) == 0 {
		t.Fatal("no fabric node")
	}
	s := 0
	if d.GLTF.Scene != nil {
		s = *d.GLTF.Scene
	}
	d.GLTF.Scenes[s].Nodes = []int{fabric}
	r := showing(t, d)
	defer r.Delete()
	lo, hi := r.Bounds()
	cam := NewCamera(lo, hi)
	colours := map[string][3]float64{}
	for v := range d.Variants {
		opt := plainOptions(v)
		img, err := r.RenderImage(cam, 200, 120, opt)
		if err != nil {
			t.Fatal(err)
		}
		m, n := meanWhere(img, opt.Background)
		if n < 2000 {
			t.Fatalf("%s: only %d fabric pixels", d.VariantLabel(v), n)
		}
		colours[d.VariantLabel(v)] = m
		t.Logf("%-10s mean fabric colour R %.0f G %.0f B %.0f", d.VariantLabel(v), m[0], m[1], m[2])
	}
	navy, champ, black, gray, pink := colours["Navy"], colours["Champagne"], colours["Black"], colours["Gray"], colours["Pale Pink"]
	checks := []struct {
		what string
		ok   bool
	}{
		{"Navy is blue: its blue well above its red", navy[2] > 1.6*navy[0] && navy[2] > navy[1]+10},
		{"Navy is lighter than Black", luminance(navy) > luminance(black)+5},
		{"Champagne is lighter than Black", luminance(champ) > luminance(black)+40},
		{"Champagne is warm: red above blue", champ[0] > champ[2]+15},
		{"Black is dark", luminance(black) < 70},
		{"Black is neutral", math.Abs(black[0]-black[2]) < 12},
		{"Gray is lighter than Black and near neutral", luminance(gray) > luminance(black)+30 && math.Abs(gray[0]-gray[2]) < 25},
		{"Pale Pink is pink: red above green and blue", pink[0] > pink[1]+15 && pink[0] > pink[2]+10},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: Navy %v Champagne %v Black %v Gray %v Pale Pink %v", c.what, navy, champ, black, gray, pink)
		}
	}
}

// TestMaterialFixture renders render/testdata/materials.gltf, a generated
// row of spheres, from straight ahead: black with blue sheen, red with a
// clearcoat, the same red without, and clear glass (transmission) in
// front of an orange box. It needs no corpus.
func TestMaterialFixture(t *testing.T) {
	headless(t)
	path := filepath.Join("testdata", "materials.gltf")
	if *update {
		if err := os.WriteFile(path, materialFixture(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d, err := scene.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	r := showing(t, d)
	defer r.Delete()
	if want := "material extension KHR_materials_volume_scatter: not rendered"; len(r.Messages) != 1 || r.Messages[0] != want {
		t.Errorf("messages %q, want [%q]", r.Messages, want)
	}
	cam := Camera{Target: mgl64.Vec3{0, 0, 0}, Distance: 7, FovY: math.Pi / 4, Radius: 7}
	const w, h = 480, 160
	opt := plainOptions(-1)
	img, err := r.RenderImage(cam, w, h, opt)
	if err != nil {
		t.Fatal(err)
	}
	compareGolden(t, "materials", img)
	vp := cam.Projection(float64(w) / h).Mul4(cam.View())
	// region averages the pixels within rad pixels of where world point p lands.
	region := func(p mgl64.Vec3, rad int) (mean [3]float64, peak float64) {
		c := vp.Mul4x1(p.Vec4(1))
		x := int((c[0]/c[3]*0.5 + 0.5) * w)
		y := int((1 - (c[1]/c[3]*0.5 + 0.5)) * h)
		n := 0
		for yy := y - rad; yy <= y+rad; yy++ {
			for xx := x - rad; xx <= x+rad; xx++ {
				px := img.NRGBAAt(xx, yy)
				col := [3]float64{float64(px.R), float64(px.G), float64(px.B)}
				for k := range mean {
					mean[k] += col[k]
				}
				peak = math.Max(peak, luminance(col))
				n++
			}
		}
		for k := range mean {
			mean[k] /= float64(n)
		}
		return mean, peak
	}
	sheen, _ := region(mgl64.Vec3{sphereX[0], 0, 0}, 12)
	_, ccPeak := region(mgl64.Vec3{sphereX[1], 0, 0}, 18)
	_, plainPeak := region(mgl64.Vec3{sphereX[2], 0, 0}, 18)
	glass, _ := region(mgl64.Vec3{sphereX[3], 0, 0}, 4)
	t.Logf("sheen %v, clearcoat peak %.0f vs plain %.0f, glass centre %v", sheen, ccPeak, plainPeak, glass)
	if sheen[2] < 1.5*sheen[0] || sheen[2] < 40 {
		t.Errorf("black sphere with blue sheen: mean %v, want blue", sheen)
	}
	if ccPeak < plainPeak+20 {
		t.Errorf("clearcoat highlight %.0f not brighter than without clearcoat %.0f", ccPeak, plainPeak)
	}
	if glass[0] < glass[2]+60 || glass[0] < 120 {
		t.Errorf("glass centre %v: want the orange box behind it to show through", glass)
	}
}

// sphereX are the centres of the fixture's spheres along X.
var sphereX = [4]float64{-4.5, -1.5, 1.5, 4.5}

// materialFixture generates the fixture glTF: one unit UV sphere mesh per
// material, one box, the buffer embedded as a data URI.
func materialFixture() []byte {
	var pos, nrm []float32
	var idx []uint16
	const rings, segs = 24, 32
	for i := 0; i <= rings; i++ {
		th := math.Pi * float64(i) / rings
		for j := 0; j <= segs; j++ {
			ph := 2 * math.Pi * float64(j) / segs
			n := [3]float64{math.Sin(th) * math.Cos(ph), math.Cos(th), math.Sin(th) * math.Sin(ph)}
			for k := 0; k < 3; k++ {
				pos = append(pos, float32(n[k]))
				nrm = append(nrm, float32(n[k]))
			}
		}
	}
	for i := 0; i < rings; i++ {
		for j := 0; j < segs; j++ {
			a := uint16(i*(segs+1) + j)
			b := a + segs + 1
			idx = append(idx, a, a+1, b, a+1, b+1, b)
		}
	}
	sphereVerts := len(pos) / 3
	// The box: 6 faces of 4 vertices.
	boxStart := len(pos) / 3
	var boxIdx []uint16
	for f := 0; f < 6; f++ {
		ax, s := f/2, float64(1-2*(f%2))
		u, v := (ax+1)%3, (ax+2)%3
		base := uint16(len(pos) / 3)
		for _, c := range [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			var p, n [3]float64
			p[ax], p[u], p[v] = s, c[0], c[1]
			n[ax] = s
			for k := 0; k < 3; k++ {
				pos = append(pos, float32(p[k]))
				nrm = append(nrm, float32(n[k]))
			}
		}
		if s > 0 {
			boxIdx = append(boxIdx, base, base+1, base+2, base, base+2, base+3)
		} else {
			boxIdx = append(boxIdx, base, base+2, base+1, base, base+3, base+2)
		}
	}
	var buf bytes.Buffer
	binary.Write(&buf, binary.LittleEndian, pos)
	posLen := buf.Len()
	binary.Write(&buf, binary.LittleEndian, nrm)
	nrmLen := buf.Len() - posLen
	binary.Write(&buf, binary.LittleEndian, idx)
	idxLen := buf.Len() - posLen - nrmLen
	binary.Write(&buf, binary.LittleEndian, boxIdx)
	boxIdxLen := buf.Len() - posLen - nrmLen - idxLen
	nv := len(pos) / 3

	type obj = map[string]any
	mat := func(name string, base [3]float64, rough float64, ext obj) obj {
		m := obj{"name": name, "pbrMetallicRoughness": obj{"baseColorFactor": []float64{base[0], base[1], base[2], 1}, "metallicFactor": 0, "roughnessFactor": rough}}
		if ext != nil {
			m["extensions"] = ext
		}
		return m
	}
	doc := obj{
		"asset":          obj{"version": "2.0", "generator": "physview render/materials_test.go"},
		"extensionsUsed": []string{"KHR_materials_sheen", "KHR_materials_clearcoat", "KHR_materials_transmission", "KHR_materials_ior", "KHR_materials_volume", "KHR_materials_volume_scatter"},
		"scene":          0,
		"scenes":         []obj{{"nodes": []int{0, 1, 2, 3, 4}}},
		"materials": []obj{
			mat("black with blue sheen", [3]float64{0.01, 0.01, 0.01}, 0.8, obj{"KHR_materials_sheen": obj{"sheenColorFactor": []float64{0.1, 0.3, 1}, "sheenRoughnessFactor": 0.5}}),
			mat("red with clearcoat", [3]float64{0.6, 0.02, 0.02}, 0.9, obj{"KHR_materials_clearcoat": obj{"clearcoatFactor": 1, "clearcoatRoughnessFactor": 0.05}}),
			mat("red", [3]float64{0.6, 0.02, 0.02}, 0.9, obj{"KHR_materials_volume_scatter": obj{"multiscatterColor": []float64{0.5, 0.5, 0.5}}}),
			mat("clear glass", [3]float64{1, 1, 1}, 0.0, obj{"KHR_materials_transmission": obj{"transmissionFactor": 1}, "KHR_materials_ior": obj{"ior": 1.5}, "KHR_materials_volume": obj{"thicknessFactor": 0}}),
			mat("orange", [3]float64{0.9, 0.3, 0.02}, 0.6, nil),
		},
		"buffers": []obj{{"byteLength": buf.Len(), "uri": "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(buf.Bytes())}},
		"bufferViews": []obj{
			{"buffer": 0, "byteOffset": 0, "byteLength": posLen, "target": 34962},
			{"buffer": 0, "byteOffset": posLen, "byteLength": nrmLen, "target": 34962},
			{"buffer": 0, "byteOffset": posLen + nrmLen, "byteLength": idxLen, "target": 34963},
			{"buffer": 0, "byteOffset": posLen + nrmLen + idxLen, "byteLength": boxIdxLen, "target": 34963},
		},
		"accessors": []obj{
			{"bufferView": 0, "componentType": 5126, "count": nv, "type": "VEC3", "min": []float64{-1, -1, -1}, "max": []float64{1, 1, 1}},
			{"bufferView": 1, "componentType": 5126, "count": nv, "type": "VEC3"},
			{"bufferView": 2, "componentType": 5123, "count": len(idx), "type": "SCALAR", "max": []int{sphereVerts - 1}, "min": []int{0}},
			{"bufferView": 3, "componentType": 5123, "count": len(boxIdx), "type": "SCALAR", "max": []int{nv - 1}, "min": []int{boxStart}},
		},
	}
	var meshes, nodes []obj
	for i := 0; i < 4; i++ {
		meshes = append(meshes, obj{"name": fmt.Sprintf("sphere %d", i), "primitives": []obj{{"attributes": obj{"POSITION": 0, "NORMAL": 1}, "indices": 2, "material": i}}})
		nodes = append(nodes, obj{"name": doc["materials"].([]obj)[i]["name"], "mesh": i, "translation": []float64{sphereX[i], 0, 0}})
	}
	meshes = append(meshes, obj{"name": "box", "primitives": []obj{{"attributes": obj{"POSITION": 0, "NORMAL": 1}, "indices": 3, "material": 4}}})
	nodes = append(nodes, obj{"name": "orange box behind the glass", "mesh": 4, "translation": []float64{sphereX[3], 0, -3}, "scale": []float64{2.5, 0.8, 0.3}})
	doc["meshes"], doc["nodes"] = meshes, nodes
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic(err)
	}
	// Keep the data URI on one line but the rest readable.
	return []byte(strings.TrimSpace(string(out)) + "\n")
}
