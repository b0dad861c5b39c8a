package render

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"image"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"physview/render/internal/meshgen"
	"physview/scene"
)

// largeFile writes a glTF (buffer as a data URI) of one of the large
// scenes of issue 31 (render/testdata/large/gen.go writes the same as
// files): kind "prims" is a cube mesh whose one primitive is copied n
// times on one node; "nodes" is a UV sphere of about verts vertices on n
// nodes in a grid; "gpuinst" is that sphere on one node with n
// EXT_mesh_gpu_instancing instances on the same grid; "meshes" is n
// meshes each with the cube's primitive, each on its own node; "mixed" is
// the sphere on n nodes of two meshes that differ by material only (every
// fourth node the second), every third node mirrored (scale -1 on x),
// every fifth turned about y, and one more node where node 0 is.
func largeFile(kind string, n, verts int) []byte {
	var pos, nrm [][3]float32
	var idx []uint32
	if kind == "prims" || kind == "meshes" {
		pos, nrm, idx = meshgen.Cube()
	} else {
		pos, nrm, idx = meshgen.Sphere(verts)
	}
	side := int(math.Ceil(math.Sqrt(float64(n))))
	grid := func(i int) [3]float32 {
		return [3]float32{float32(i%side) - float32(side-1)/2, 0, float32(i/side) - float32(side-1)/2}
	}
	var buf bytes.Buffer
	binary.Write(&buf, binary.LittleEndian, pos)
	binary.Write(&buf, binary.LittleEndian, nrm)
	binary.Write(&buf, binary.LittleEndian, idx)
	var inst int
	if kind == "gpuinst" {
		inst = buf.Len()
		for i := 0; i < n; i++ {
			binary.Write(&buf, binary.LittleEndian, grid(i))
		}
	}
	lo, hi := [3]float32{1e9, 1e9, 1e9}, [3]float32{-1e9, -1e9, -1e9}
	for _, p := range pos {
		for k := range p {
			lo[k], hi[k] = min(lo[k], p[k]), max(hi[k], p[k])
		}
	}
	nv, ni := len(pos), len(idx)
	views := fmt.Sprintf(`{"buffer":0,"byteLength":%d,"target":34962},{"buffer":0,"byteOffset":%d,"byteLength":%d,"target":34962},{"buffer":0,"byteOffset":%d,"byteLength":%d,"target":34963}`,
		nv*12, nv*12, nv*12, nv*24, ni*4)
	accs := fmt.Sprintf(`{"bufferView":0,"componentType":5126,"count":%d,"type":"VEC3","min":[%g,%g,%g],"max":[%g,%g,%g]},{"bufferView":1,"componentType":5126,"count":%d,"type":"VEC3"},{"bufferView":2,"componentType":5125,"count":%d,"type":"SCALAR"}`,
		nv, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2], nv, ni)
	const prim = `{"attributes":{"POSITION":0,"NORMAL":1},"indices":2,"material":0}`
	var meshes, nodes, roots []string
	ext := ""
	switch kind {
	case "prims":
		meshes = []string{`{"primitives":[` + strings.Repeat(prim+",", n-1) + prim + `]}`}
		nodes, roots = []string{`{"mesh":0}`}, []string{"0"}
	case "meshes":
		for i := 0; i < n; i++ {
			g := grid(i)
			meshes = append(meshes, `{"primitives":[`+prim+`]}`)
			nodes = append(nodes, fmt.Sprintf(`{"mesh":%d,"translation":[%g,%g,%g]}`, i, g[0], g[1], g[2]))
			roots = append(roots, fmt.Sprint(i))
		}
	case "mixed":
		meshes = []string{`{"primitives":[` + prim + `]}`, `{"primitives":[` + strings.Replace(prim, `"material":0`, `"material":1`, 1) + `]}`}
		for i := 0; i <= n; i++ {
			g := grid(i % n)
			node := fmt.Sprintf(`{"mesh":%d,"translation":[%g,%g,%g]`, min(i%4/3, 1), g[0], g[1], g[2])
			if i%3 == 2 {
				node += `,"scale":[-1,1,1]`
			}
			if i%5 == 1 {
				node += `,"rotation":[0,0.29552,0,0.95534]`
			}
			nodes = append(nodes, node+"}")
			roots = append(roots, fmt.Sprint(i))
		}
	case "nodes":
		meshes = []string{`{"primitives":[` + prim + `]}`}
		for i := 0; i < n; i++ {
			g := grid(i)
			nodes = append(nodes, fmt.Sprintf(`{"mesh":0,"translation":[%g,%g,%g]}`, g[0], g[1], g[2]))
			roots = append(roots, fmt.Sprint(i))
		}
	case "gpuinst":
		meshes = []string{`{"primitives":[` + prim + `]}`}
		views += fmt.Sprintf(`,{"buffer":0,"byteOffset":%d,"byteLength":%d}`, inst, n*12)
		accs += fmt.Sprintf(`,{"bufferView":3,"componentType":5126,"count":%d,"type":"VEC3"}`, n)
		nodes = []string{`{"mesh":0,"extensions":{"EXT_mesh_gpu_instancing":{"attributes":{"TRANSLATION":3}}}}`}
		roots = []string{"0"}
		ext = `"extensionsUsed":["EXT_mesh_gpu_instancing"],"extensionsRequired":["EXT_mesh_gpu_instancing"],`
	}
	return []byte(fmt.Sprintf(`{"asset":{"version":"2.0"},%s
"buffers":[{"byteLength":%d,"uri":"data:application/octet-stream;base64,%s"}],
"bufferViews":[%s],"accessors":[%s],
"materials":[{"pbrMetallicRoughness":{"baseColorFactor":[0.8,0.6,0.3,1],"metallicFactor":0.1,"roughnessFactor":0.5}},
{"pbrMetallicRoughness":{"baseColorFactor":[0.2,0.5,0.9,1],"metallicFactor":0.8,"roughnessFactor":0.3}}],
"meshes":[%s],"nodes":[%s],"scenes":[{"nodes":[%s]}],"scene":0}`,
		ext, buf.Len(), base64.StdEncoding.EncodeToString(buf.Bytes()), views, accs,
		strings.Join(meshes, ","), strings.Join(nodes, ","), strings.Join(roots, ",")))
}

// renderLarge draws d at w x h framed on its bounds, with repeated
// primitives drawn instanced or not, and returns the image and the draw
// calls it took.
func renderLarge(t *testing.T, d *scene.Document, instanced bool, w, h int) (*image.NRGBA, int) {
	t.Helper()
	defer func(b bool) { batching = b }(batching)
	batching = instanced
	r := showing(t, d)
	defer r.Delete()
	lo, hi := r.Bounds()
	img, err := r.RenderImage(NewCamera(lo, hi), w, h, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return img, r.drawCalls
}

// TestInstancedPixelsEqual: a scene that repeats one sphere on 61 nodes
// (two materials, mirrored and turned nodes, a node twice) draws the same
// pixels instanced as one draw call per node, in 4 draw calls instead of
// 61 (one batch per material and winding); the picture is a golden.
func TestInstancedPixelsEqual(t *testing.T) {
	headless(t)
	d, err := scene.Decode(largeFile("mixed", 60, 2000), nil)
	if err != nil {
		t.Fatal(err)
	}
	one, calls1 := renderLarge(t, d, false, 320, 240)
	inst, callsN := renderLarge(t, d, true, 320, 240)
	if calls1 != 61 || callsN != 4 {
		t.Errorf("draw calls: %d one by one (want 61), %d instanced (want 4)", calls1, callsN)
	}
	if diff := differing(one, inst); diff != 0 {
		t.Errorf("%d pixels differ between instanced and one-by-one drawing", diff)
	}
	compareGolden(t, "instanced", inst)
}

// differing counts the pixels of a and b that are not the same bytes.
func differing(a, b *image.NRGBA) int {
	n := 0
	for i := 0; i+3 < len(a.Pix) && i+3 < len(b.Pix); i += 4 {
		if [4]uint8(a.Pix[i:i+4]) != [4]uint8(b.Pix[i:i+4]) {
			n++
		}
	}
	return n
}

// TestGPUInstancingMatchesNodes: EXT_mesh_gpu_instancing's 400 instances
// of a sphere draw in one call the picture of 400 nodes (drawn instanced
// too), bounded alike, with one vertex buffer.
func TestGPUInstancingMatchesNodes(t *testing.T) {
	headless(t)
	var imgs [2]*image.NRGBA
	for i, kind := range []string{"nodes", "gpuinst"} {
		d, err := scene.Decode(largeFile(kind, 400, 2000), nil)
		if err != nil {
			t.Fatal(err)
		}
		var calls int
		imgs[i], calls = renderLarge(t, d, true, 320, 240)
		if calls != 1 {
			t.Errorf("%s: %d draw calls, want 1", kind, calls)
		}
	}
	if diff := differing(imgs[0], imgs[1]); diff > len(imgs[0].Pix)/4/100 {
		t.Errorf("%d pixels differ between 400 nodes and 400 EXT_mesh_gpu_instancing instances", diff)
	}
}

// TestLargeScenes: a cube's primitive copied 100,000 times on one node
// uploads one vertex buffer and draws one instance (the copies draw the
// same fragments); 10,000 nodes on one mesh draw in one call; 1,000
// EXT_mesh_gpu_instancing instances are bounded by their boxes.
func TestLargeScenes(t *testing.T) {
	headless(t)
	for _, c := range []struct {
		kind     string
		n, verts int
		calls    int
		lo, hi   mgl64.Vec3
	}{
		{"prims", 100000, 0, 1, mgl64.Vec3{-0.5, -0.5, -0.5}, mgl64.Vec3{0.5, 0.5, 0.5}},
		{"nodes", 10000, 200, 1, mgl64.Vec3{-49.9, -0.4, -49.9}, mgl64.Vec3{49.9, 0.4, 49.9}},
		{"gpuinst", 1000, 2000, 1, mgl64.Vec3{-15.9, -0.4, -15.9}, mgl64.Vec3{15.9, 0.4, 15.9}},
	} {
		func() { // on the test's goroutine: the GL context is current there
			d, err := scene.Decode(largeFile(c.kind, c.n, c.verts), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer func(b bool) { batching = b }(batching)
			batching = true
			r := showing(t, d)
			defer r.Delete()
			vbos := map[uint32]bool{}
			for _, ps := range r.prims {
				for _, gp := range ps {
					vbos[gp.vbo] = true
				}
			}
			if len(vbos) != 1 {
				t.Errorf("%s: %d vertex buffers, want 1", c.kind, len(vbos))
			}
			lo, hi := r.Bounds()
			for k := 0; k < 3; k++ {
				if math.Abs(lo[k]-c.lo[k]) > 0.01 || math.Abs(hi[k]-c.hi[k]) > 0.01 {
					t.Errorf("%s: bounds %v %v, want %v %v", c.kind, lo, hi, c.lo, c.hi)
					break
				}
			}
			t0 := time.Now()
			if _, err := r.RenderImage(NewCamera(lo, hi), 160, 120, DefaultOptions()); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %v to draw", c.kind, time.Since(t0))
			if r.drawCalls != c.calls {
				t.Errorf("%s: %d draw calls, want %d", c.kind, r.drawCalls, c.calls)
			}
		}()
	}
}

// BenchmarkLargeScenes draws, in one run, one cube, the cube's primitive
// copied 100,000 times on one node, and 10,000 nodes in a grid, each with
// a mesh of its own reading the cube's accessors, instanced and one by one (SetDocument and RenderImage at 800x600, the
// file decoded before, one renderer), and reports each time and the
// ratios:
//
//	go test ./render -run '^$' -bench LargeScenes -benchtime 1x
func BenchmarkLargeScenes(b *testing.B) {
	h, err := NewHeadless()
	if err != nil {
		b.Skip(err)
	}
	defer h.Close()
	cases := []struct {
		name      string
		kind      string
		n         int
		instanced bool
	}{{"cube", "prims", 1, true}, {"prims100k", "prims", 100000, true}, {"nodes10k", "meshes", 10000, true}, {"nodes10k-one-by-one", "meshes", 10000, false}}
	docs := make([]*scene.Document, len(cases))
	for i, c := range cases {
		if docs[i], err = scene.Decode(largeFile(c.kind, c.n, 0), nil); err != nil {
			b.Fatal(err)
		}
	}
	// One renderer, warmed up on the cube: its shaders compiled and its
	// environment prefiltered before any time counts.
	r, err := New()
	if err != nil {
		b.Fatal(err)
	}
	defer r.Delete()
	draw := func(d *scene.Document) {
		r.SetDocument(d)
		r.WaitTextures()
		lo, hi := r.Bounds()
		if _, err := r.RenderImage(NewCamera(lo, hi), 800, 600, DefaultOptions()); err != nil {
			b.Fatal(err)
		}
	}
	draw(docs[0])
	took := make([]time.Duration, len(cases))
	b.ResetTimer()
	for range b.N {
		for i, c := range cases {
			batching = c.instanced
			t0 := time.Now()
			draw(docs[i])
			took[i] += time.Since(t0)
		}
	}
	batching = true
	for i, c := range cases {
		b.ReportMetric(float64(took[i].Milliseconds())/float64(b.N), c.name+"-ms")
	}
	b.ReportMetric(float64(took[1])/float64(took[0]), "prims100k/cube")
	b.ReportMetric(float64(took[3])/float64(took[2]), "one-by-one/instanced")
}
