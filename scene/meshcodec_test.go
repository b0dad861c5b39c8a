package scene_test

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"

	"physview/scene"
)

// worldVertex is one vertex of a drawn primitive in world space.
type worldVertex struct {
	pos, nrm [3]float64
	uv       [2]float64
	col      [4]float64
}

// worldMesh is what a document draws: per node with a mesh, its vertices
// in world space and its triangles.
type worldMesh struct {
	verts []worldVertex
	tris  [][3]int
}

// drawnGeometry reads every primitive of every node of the shown scene,
// keyed by node name, in world space (so a quantized mesh, whose
// dequantization is in its node's transform, compares with its source).
func drawnGeometry(t *testing.T, d *scene.Document) map[string]*worldMesh {
	t.Helper()
	out := map[string]*worldMesh{}
	world := d.WorldMatrices()
	for _, n := range d.SceneNodes() {
		node := d.GLTF.Nodes[n]
		if node.Mesh == nil {
			continue
		}
		w := world[n]
		nm := w.Mat3().Inv().Transpose()
		wm := &worldMesh{}
		for p := range d.GLTF.Meshes[*node.Mesh].Primitives {
			pd, err := d.ReadPrimitive(*node.Mesh, p)
			if err != nil {
				t.Fatalf("%s: node %s: %v", d.Path, node.Name, err)
			}
			base := len(wm.verts)
			for i, ps := range pd.Positions {
				var v worldVertex
				pp := w.Mul4x1(mgl64.Vec4{float64(ps[0]), float64(ps[1]), float64(ps[2]), 1})
				v.pos = [3]float64{pp[0], pp[1], pp[2]}
				nn := nm.Mul3x1(mgl64.Vec3{float64(pd.Normals[i][0]), float64(pd.Normals[i][1]), float64(pd.Normals[i][2])}).Normalize()
				v.nrm = [3]float64(nn)
				if pd.UV0 != nil {
					v.uv = [2]float64{float64(pd.UV0[i][0]), float64(pd.UV0[i][1])}
				}
				if pd.Colors != nil {
					for k := range 4 {
						v.col[k] = float64(pd.Colors[i][k])
					}
				}
				wm.verts = append(wm.verts, v)
			}
			idx := pd.Indices
			for k := 0; k+2 < len(idx); k += 3 {
				wm.tris = append(wm.tris, [3]int{base + int(idx[k]), base + int(idx[k+1]), base + int(idx[k+2])})
			}
		}
		out[node.Name] = wm
	}
	return out
}

func dist(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += (a[i] - b[i]) * (a[i] - b[i])
	}
	return math.Sqrt(s)
}

func key(v worldVertex) []float64 {
	return []float64{v.pos[0], v.pos[1], v.pos[2], v.uv[0], v.uv[1], v.nrm[0] * 0.1, v.nrm[1] * 0.1, v.nrm[2] * 0.1}
}

// solid returns the triangles of m that have an area.
func solid(m *worldMesh) [][3]int {
	var out [][3]int
	for _, t := range m.tris {
		a, b, c := mgl64.Vec3(m.verts[t[0]].pos), mgl64.Vec3(m.verts[t[1]].pos), mgl64.Vec3(m.verts[t[2]].pos)
		if b.Sub(a).Cross(c.Sub(a)).Len() > 1e-9 {
			out = append(out, t)
		}
	}
	return out
}

// canonical rotates a triangle so its smallest index is first (keeping
// the winding).
func canonical(t [3]int) [3]int {
	for t[0] > t[1] || t[0] > t[2] {
		t = [3]int{t[1], t[2], t[0]}
	}
	return t
}

// TestCompressedFixturesMatchSource checks that every compressed fixture
// (made from source.glb by glTF-Transform, see testdata/meshcodec/make.sh)
// reads as its source: each vertex matches a source vertex within the
// precision the encoder states (Draco's and glTF-Transform's defaults:
// positions 14 bits over the mesh's extent, normals 10 bits or 8-bit
// octahedral, UVs 12 bits, colours 8 bits), and the triangles are the
// same, with the same winding.
func TestCompressedFixturesMatchSource(t *testing.T) {
	src, err := scene.Load("testdata/meshcodec/source.glb")
	if err != nil {
		t.Fatal(err)
	}
	want := drawnGeometry(t, src)
	tests := []struct {
		file, ext         string
		pos, nrm, uv, col float64
	}{
		{"draco.glb", "KHR_draco_mesh_compression", 2e-4, 0.01, 5e-4, 0.5 / 255},
		{"meshopt.glb", "EXT_meshopt_compression", 2e-4, 0.02, 5e-4, 0.5 / 255},
		{"meshopt_medium.glb", "EXT_meshopt_compression", 2e-4, 0.02, 5e-4, 0.5 / 255},
		{"quantized.glb", "KHR_mesh_quantization", 2e-4, 0.01, 5e-4, 0.5 / 255},
		// glTF-Transform does not write KHR_meshopt_compression; its
		// version-0 data is the same as EXT_meshopt_compression's, and the
		// two names have the same length, so the GLB is renamed in place.
		{"meshopt.glb", "KHR_meshopt_compression", 2e-4, 0.02, 5e-4, 0.5 / 255},
	}
	for _, tc := range tests {
		t.Run(tc.file+"/"+tc.ext, func(t *testing.T) {
			data, err := os.ReadFile("testdata/meshcodec/" + tc.file)
			if err != nil {
				t.Fatal(err)
			}
			if tc.ext == "KHR_meshopt_compression" {
				data = bytes.ReplaceAll(data, []byte("EXT_meshopt_compression"), []byte(tc.ext))
			}
			d, err := scene.Decode(data, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(d.GLTF.ExtensionsUsed, tc.ext) {
				t.Fatalf("fixture does not use %s (extensionsUsed %v)", tc.ext, d.GLTF.ExtensionsUsed)
			}
			for _, f := range d.Findings() {
				if f.Severity >= scene.Warning {
					t.Errorf("finding: %v", f)
				}
			}
			got := drawnGeometry(t, d)
			for name, w := range want {
				g := got[name]
				if g == nil {
					t.Fatalf("node %s is not drawn", name)
				}
				// Draco drops triangles of no area (two corners at one
				// position: the sphere's poles) and the vertices only they
				// use; nothing visible changes, so those are not compared.
				gt, wt := solid(g), solid(w)
				if len(gt) != len(wt) {
					t.Fatalf("node %s: %d triangles with an area, the source has %d", name, len(gt), len(wt))
				}
				match := make([]int, len(g.verts))
				var worst [4]float64
				for i, gv := range g.verts {
					best, bd := -1, math.Inf(1)
					for j, wv := range w.verts {
						if dd := dist(key(gv), key(wv)); dd < bd {
							best, bd = j, dd
						}
					}
					match[i] = best
					wv := w.verts[best]
					worst[0] = max(worst[0], dist(gv.pos[:], wv.pos[:]))
					worst[1] = max(worst[1], dist(gv.nrm[:], wv.nrm[:]))
					worst[2] = max(worst[2], dist(gv.uv[:], wv.uv[:]))
					worst[3] = max(worst[3], dist(gv.col[:], wv.col[:]))
				}
				t.Logf("node %s: largest error position %.2g, normal %.2g, uv %.2g, colour %.2g", name, worst[0], worst[1], worst[2], worst[3])
				for k, tol := range []float64{tc.pos, tc.nrm, tc.uv, tc.col} {
					if worst[k] > tol {
						t.Errorf("node %s: %s error %.3g is over %.3g", name, []string{"position", "normal", "uv", "colour"}[k], worst[k], tol)
					}
				}
				wantTris := map[[3]int]bool{}
				for _, tr := range wt {
					wantTris[canonical(tr)] = true
				}
				for _, tr := range gt {
					m := canonical([3]int{match[tr[0]], match[tr[1]], match[tr[2]]})
					if !wantTris[m] {
						t.Fatalf("node %s: triangle %v (source vertices %v) is not a source triangle", name, tr, m)
					}
				}
			}
		})
	}
}

// hugeZeroAccessor is a file the Khronos validator accepts: a mesh whose
// POSITION accessor has no bufferView (all zeros) and a count of
// 3,999,999,999.
const hugeZeroAccessor = `{"asset":{"version":"2.0"},
"accessors":[{"componentType":5126,"count":3999999999,"type":"VEC3","min":[0,0,0],"max":[0,0,0]}%s],
"meshes":[{"primitives":[{"attributes":{"POSITION":0}%s}]}],
"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0%s}`

// TestHugeZeroFilledAccessor reads the huge zero-filled accessor without
// reserving its memory: ReadPrimitive says why nothing is drawn, a sparse
// one is refused by the budget, and the process allocates little.
func TestHugeZeroFilledAccessor(t *testing.T) {
	sparseBuf := `,"buffers":[{"byteLength":16,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAIA/AAAAAA=="}],"bufferViews":[{"buffer":0,"byteLength":4},{"buffer":0,"byteOffset":4,"byteLength":12}]`
	tests := []struct {
		name, json, want string
	}{
		{"zero-filled", fmt.Sprintf(hugeZeroAccessor, "", "", ""), "has no bufferView: all 3999999999 positions are (0, 0, 0), nothing to draw"},
		{"sparse", `{"asset":{"version":"2.0"},
"accessors":[{"componentType":5126,"count":3999999999,"type":"VEC3","min":[0,0,0],"max":[0,1,0],"sparse":{"count":1,"indices":{"bufferView":0,"componentType":5125},"values":{"bufferView":1}}}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0` + sparseBuf + `}`, "count 3999999999 without a bufferView is over the budget of 16777216 elements"},
		{"zero-filled indices", fmt.Sprintf(hugeZeroAccessor, `,{"componentType":5125,"count":3999999999,"type":"SCALAR"},{"componentType":5126,"count":3,"type":"VEC3","bufferView":0,"min":[0,0,0],"max":[1,1,0]}`, "", `,"buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}],"bufferViews":[{"buffer":0,"byteLength":36}]`), ""},
	}
	// The third case points the primitive at the real positions and the
	// huge zero-filled indices.
	tests[2].json = strings.Replace(tests[2].json, `{"POSITION":0}`, `{"POSITION":2},"indices":1`, 1)
	tests[2].want = "indices accessor 1 has no bufferView: every index is 0, nothing to draw"
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			d, err := scene.Decode([]byte(tc.json), nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = d.ReadPrimitive(0, 0)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ReadPrimitive: %v, want an error with %q", err, tc.want)
			}
			why := d.EmptyPictureReason()
			if !strings.Contains(why, tc.want) {
				t.Errorf("EmptyPictureReason %q does not say %q", why, tc.want)
			}
			runtime.ReadMemStats(&after)
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
				t.Errorf("reading allocated %d MB", grew>>20)
			}
		})
	}
}

// TestCompressedFitAndBounds: fitting a box to each node's mesh and the
// mesh bounds give the same world-space box on every compressed fixture as
// on the source (a quantized mesh declares its min and max as stored
// integers; they are read through its normalization and the node's
// dequantization transform).
func TestCompressedFitAndBounds(t *testing.T) {
	type box struct{ center, size mgl64.Vec3 }
	fit := func(t *testing.T, file string) map[string][2]box {
		d, err := scene.Load("testdata/meshcodec/" + file)
		if err != nil {
			t.Fatal(err)
		}
		world := d.WorldMatrices()
		out := map[string][2]box{}
		for n, node := range d.GLTF.Nodes {
			if node.Mesh == nil {
				continue
			}
			w := world[n]
			scale := mgl64.Vec3{w.Col(0).Vec3().Len(), w.Col(1).Vec3().Len(), w.Col(2).Vec3().Len()}
			s, c, err := d.FitShape(n, scene.ShapeBox)
			if err != nil {
				t.Fatal(err)
			}
			lo, hi := d.MeshBounds(*node.Mesh)
			out[node.Name] = [2]box{
				{w.Mul4x1(c.Vec4(1)).Vec3(), mgl64.Vec3{s.Size[0] * scale[0], s.Size[1] * scale[1], s.Size[2] * scale[2]}},
				{w.Mul4x1(lo.Add(hi).Mul(0.5).Vec4(1)).Vec3(), mgl64.Vec3{(hi[0] - lo[0]) * scale[0], (hi[1] - lo[1]) * scale[1], (hi[2] - lo[2]) * scale[2]}},
			}
		}
		return out
	}
	want := fit(t, "source.glb")
	for _, file := range []string{"draco.glb", "meshopt.glb", "quantized.glb"} {
		got := fit(t, file)
		for name, wb := range want {
			for k, what := range []string{"fitted box", "mesh bounds"} {
				g, w := got[name][k], wb[k]
				if g.center.Sub(w.center).Len() > 1e-3 || g.size.Sub(w.size).Len() > 1e-3 {
					t.Errorf("%s: node %s: %s centre %v size %v, the source's %v %v", file, name, what, g.center, g.size, w.center, w.size)
				}
			}
		}
	}
}

// TestShownScene: the file's scene is shown; SetShownScene chooses
// another (nodes, empty-picture reason) and -1 goes back; a scene that
// does not exist is an error.
func TestShownScene(t *testing.T) {
	d, err := scene.Decode([]byte(`{"asset":{"version":"2.0"},
"buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}],
"bufferViews":[{"buffer":0,"byteLength":36}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
"nodes":[{"name":"Tri","mesh":0},{"name":"Empty","children":[2]},{"name":"Child"}],
"scenes":[{"nodes":[0]},{"name":"Other","nodes":[1]}],"scene":1}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		set      int
		shown    int
		nodes    []int
		emptyWhy string
	}{
		{-2, 1, []int{1, 2}, "nothing is drawn: the file has 1 mesh but no node of scene 1 uses one"},
		{0, 0, []int{0}, ""},
		{-1, 1, []int{1, 2}, "nothing is drawn: the file has 1 mesh but no node of scene 1 uses one"},
	}
	for _, s := range steps {
		if s.set != -2 {
			if err := d.SetShownScene(s.set); err != nil {
				t.Fatal(err)
			}
		}
		if got := d.ShownScene(); got != s.shown {
			t.Errorf("after SetShownScene(%d): shown %d, want %d", s.set, got, s.shown)
		}
		if got := d.SceneNodes(); !slices.Equal(got, s.nodes) {
			t.Errorf("scene %d: nodes %v, want %v", s.shown, got, s.nodes)
		}
		if got := d.EmptyPictureReason(); got != s.emptyWhy {
			t.Errorf("scene %d: empty picture %q, want %q", s.shown, got, s.emptyWhy)
		}
	}
	if got := d.SceneLabel(0) + "," + d.SceneLabel(1); got != "Scene 0,Other" {
		t.Errorf("labels %q", got)
	}
	if err := d.SetShownScene(2); err == nil || err.Error() != "scene 2 does not exist (the file has 2)" {
		t.Errorf("SetShownScene(2): %v", err)
	}
}

// TestExtensionSupport: a required extension the viewer cannot honour
// refuses viewing with an UnsupportedError naming it and a hint; an
// optional one is listed (the renderer shows it in its messages); honoured
// ones (decoded geometry, owned physics, rendered materials) are neither.
func TestExtensionSupport(t *testing.T) {
	tests := []struct {
		used, required string
		wantErr        string
		wantOptional   []string
	}{
		{`["KHR_draco_mesh_compression","KHR_mesh_quantization","EXT_meshopt_compression","OMI_physics_body","KHR_materials_sheen"]`, `["KHR_mesh_quantization"]`, "", nil},
		{`["EXT_made_up"]`, `["EXT_made_up"]`, "x.gltf: requires extension EXT_made_up, which this viewer cannot show: open it in a tool that supports it, or write the file without it (for example with gltf-transform, npm @gltf-transform/cli)", nil},
		{`["KHR_materials_volume_scatter","KHR_texture_basisu","EXT_other"]`, `["EXT_other","KHR_texture_basisu"]`, "x.gltf: requires extension EXT_other, which this viewer cannot show", []string{"KHR_materials_volume_scatter"}},
	}
	for _, tc := range tests {
		t.Run(tc.used, func(t *testing.T) {
			d, err := scene.Decode([]byte(`{"asset":{"version":"2.0"},"extensionsUsed":`+tc.used+`,"extensionsRequired":`+tc.required+`}`), nil)
			if err != nil {
				t.Fatal(err)
			}
			d.Path = "x.gltf"
			err = d.CheckRequired()
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("CheckRequired: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.wantErr)):
				t.Errorf("CheckRequired: %v, want %q", err, tc.wantErr)
			}
			if _, opt := d.UnsupportedExtensions(); !slices.Equal(opt, tc.wantOptional) {
				t.Errorf("optional unsupported %q, want %q", opt, tc.wantOptional)
			}
		})
	}
}

// TestMeshoptFallback: a meshopt buffer view whose compressed data does
// not decode reads its uncompressed fallback when the file has one (a
// warning), and is an error naming it when it has none.
func TestMeshoptFallback(t *testing.T) {
	// Buffer 0: a triangle's positions (36 bytes); buffer 1: 16 bytes that
	// are not meshopt data.
	const file = `{"asset":{"version":"2.0"},"extensionsUsed":["EXT_meshopt_compression"],
"buffers":[%s,{"byteLength":16,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAAAAAA=="}],
"bufferViews":[{"buffer":0,"byteLength":36,"byteStride":12,"extensions":{"EXT_meshopt_compression":{"buffer":1,"byteLength":16,"byteStride":12,"count":3,"mode":"ATTRIBUTES"}}}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0}`
	withData := `{"byteLength":36,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}`
	noData := `{"byteLength":36,"extensions":{"EXT_meshopt_compression":{"fallback":true}}}`
	tests := []struct {
		name, buffer string
		sev          scene.Severity
		readErr      string
	}{
		{"fallback", withData, scene.Warning, ""},
		{"no fallback", noData, scene.Error, "buffer view 0: meshopt: ATTRIBUTES data of 3 elements of 12 bytes does not decode"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := scene.Decode([]byte(fmt.Sprintf(file, tc.buffer)), nil)
			if err != nil {
				t.Fatal(err)
			}
			var got *scene.Finding
			for _, f := range d.Findings() {
				if f.Code == "MESHOPT_DECODE_FAILED" {
					got = &f
				}
			}
			if got == nil || got.Severity != tc.sev || got.Path != "/bufferViews/0/extensions/EXT_meshopt_compression" {
				t.Fatalf("finding %v, want a %v MESHOPT_DECODE_FAILED on the buffer view", got, tc.sev)
			}
			pd, err := d.ReadPrimitive(0, 0)
			if tc.readErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.readErr) {
					t.Fatalf("ReadPrimitive: %v, want %q", err, tc.readErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := [][3]float32{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}; !slices.Equal(pd.Positions, want) {
				t.Errorf("positions %v, want %v", pd.Positions, want)
			}
		})
	}
}

// TestDracoDecodeFailure: draco.glb with its first bitstream's magic
// overwritten opens with an error finding on the primitive, and reading
// the primitive says the Draco data does not decode; the other primitive
// still reads.
func TestDracoDecodeFailure(t *testing.T) {
	data, err := os.ReadFile("testdata/meshcodec/draco.glb")
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, []byte("DRACO"))
	if i < 0 {
		t.Fatal("no Draco bitstream in draco.glb")
	}
	copy(data[i:], "XXXXX")
	d, err := scene.Decode(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	var bad []string
	for _, f := range d.Findings() {
		if f.Code == "DRACO_DECODE_FAILED" && f.Severity == scene.Error {
			bad = append(bad, f.Path)
		}
	}
	if len(bad) != 1 || !strings.HasSuffix(bad[0], "/extensions/KHR_draco_mesh_compression") {
		t.Fatalf("DRACO_DECODE_FAILED errors at %v, want one on a primitive", bad)
	}
	read := 0
	for m := range d.GLTF.Meshes {
		_, err := d.ReadPrimitive(m, 0)
		switch {
		case err == nil:
			read++
		case !strings.Contains(err.Error(), "Draco data does not decode: draco:"):
			t.Errorf("mesh %d: %v", m, err)
		}
	}
	if read != 1 {
		t.Errorf("%d primitives read, want 1 of 2", read)
	}
}

// TestFlatNormalsBudget: a primitive without normals whose indices come
// from a sparse accessor (no bufferView) of 15,000,000 corners would need
// over 1 GB once every corner gets its own vertex: it is refused before
// that is reserved.
func TestFlatNormalsBudget(t *testing.T) {
	const file = `{"asset":{"version":"2.0"},
"buffers":[{"byteLength":44,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAEAAAA="}],
"bufferViews":[{"buffer":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":4},{"buffer":0,"byteOffset":40,"byteLength":4}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]},
{"componentType":5125,"count":15000000,"type":"SCALAR","sparse":{"count":1,"indices":{"bufferView":1,"componentType":5125},"values":{"bufferView":2}}}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":1}]}],"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0}`
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	d, err := scene.Decode([]byte(file), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.ReadPrimitive(0, 0)
	want := "mesh 0 primitive 0: 15000000 triangle corners without normals need more than the 1024 MB budget"
	if err == nil || err.Error() != want {
		t.Fatalf("ReadPrimitive: %v, want %q", err, want)
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 128<<20 {
		t.Errorf("reading allocated %d MB", grew>>20)
	}
}

// TestDracoAttributesOutsideStream reads the Draco primitives whose
// attributes live partly or wholly outside the Draco stream (made by
// glTF-Transform, see testdata/meshcodec/draco_outside.cjs): a sparse
// POSITION beside a stream of NORMAL, UV and colour; a box whose stream has
// triangles and no point; a morph target beside the stream; quantized
// attributes in the stream. Every attribute, index and morph target reads
// as glTF-Transform's own decode of the same file (its X.decoded.glb), and
// validation reports nothing above a note.
func TestDracoAttributesOutsideStream(t *testing.T) {
	for _, name := range []string{"draco_sparse", "draco_morph", "draco_quant"} {
		t.Run(name, func(t *testing.T) {
			d, err := scene.Load("testdata/meshcodec/" + name + ".glb")
			if err != nil {
				t.Fatal(err)
			}
			ref, err := scene.Load("testdata/meshcodec/" + name + ".decoded.glb")
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(d.GLTF.ExtensionsUsed, "KHR_draco_mesh_compression") || slices.Contains(ref.GLTF.ExtensionsUsed, "KHR_draco_mesh_compression") {
				t.Fatalf("extensionsUsed %v and %v: want Draco in the fixture only", d.GLTF.ExtensionsUsed, ref.GLTF.ExtensionsUsed)
			}
			for _, f := range d.Findings() {
				if f.Severity >= scene.Warning {
					t.Errorf("finding: %v", f)
				}
			}
			if len(d.GLTF.Meshes) != len(ref.GLTF.Meshes) {
				t.Fatalf("%d meshes, the decoded twin has %d", len(d.GLTF.Meshes), len(ref.GLTF.Meshes))
			}
			for m, mesh := range d.GLTF.Meshes {
				for p, prim := range mesh.Primitives {
					got, err := d.ReadPrimitive(m, p)
					if err != nil {
						t.Fatalf("mesh %d primitive %d: %v", m, p, err)
					}
					want, err := ref.ReadPrimitive(m, p)
					if err != nil {
						t.Fatalf("decoded twin: mesh %d primitive %d: %v", m, p, err)
					}
					if len(got.Positions) == 0 || len(got.Indices) == 0 {
						t.Fatalf("mesh %d primitive %d: %d vertices, %d indices", m, p, len(got.Positions), len(got.Indices))
					}
					if !slices.Equal(got.Indices, want.Indices) {
						t.Errorf("mesh %d primitive %d: indices differ from glTF-Transform's decode", m, p)
					}
					for _, c := range []struct {
						what      string
						got, want []float32
					}{
						{"POSITION", flat3(got.Positions), flat3(want.Positions)},
						{"NORMAL", flat3(got.Normals), flat3(want.Normals)},
						{"TEXCOORD_0", flat2(got.UV0), flat2(want.UV0)},
						{"COLOR_0", flat4(got.Colors), flat4(want.Colors)},
					} {
						if worst, ok := maxDiff(c.got, c.want); !ok || worst > 1e-6 {
							t.Errorf("mesh %d primitive %d: %s: %d values, largest difference %g from glTF-Transform's decode (%d values)", m, p, c.what, len(c.got), worst, len(c.want))
						}
					}
					for k, target := range prim.Targets {
						g, _, err := d.AccessorFloats(target[gltf.POSITION], false)
						if err != nil {
							t.Fatal(err)
						}
						w, _, err := ref.AccessorFloats(ref.GLTF.Meshes[m].Primitives[p].Targets[k][gltf.POSITION], false)
						if err != nil {
							t.Fatal(err)
						}
						if worst, ok := maxDiff(g, w); !ok || worst != 0 || len(g) != 3*len(got.Positions) {
							t.Errorf("mesh %d primitive %d: morph target %d differs (%d values, %d wanted, largest difference %g)", m, p, k, len(g), len(w), worst)
						}
					}
				}
			}
		})
	}
}

func flat2(v [][2]float32) []float32 {
	var out []float32
	for _, e := range v {
		out = append(out, e[:]...)
	}
	return out
}

func flat3(v [][3]float32) []float32 {
	var out []float32
	for _, e := range v {
		out = append(out, e[:]...)
	}
	return out
}

func flat4(v [][4]float32) []float32 {
	var out []float32
	for _, e := range v {
		out = append(out, e[:]...)
	}
	return out
}

// maxDiff is the largest difference between a and b; ok is false when
// their lengths differ.
func maxDiff(a, b []float32) (worst float64, ok bool) {
	if len(a) != len(b) {
		return math.Inf(1), false
	}
	for i := range a {
		worst = max(worst, math.Abs(float64(a[i])-float64(b[i])))
	}
	return worst, true
}
