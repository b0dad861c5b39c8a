package anim

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the fixtures under testdata/")

// builder makes a small glTF document with one embedded buffer.
type builder struct {
	buf       bytes.Buffer
	views     []map[string]any
	accessors []map[string]any
}

var accTypes = map[int]string{1: "SCALAR", 2: "VEC2", 3: "VEC3", 4: "VEC4", 16: "MAT4"}

// floats adds a float accessor of comps components per element.
func (b *builder) floats(comps int, v ...float64) int {
	off := b.buf.Len()
	for _, x := range v {
		binary.Write(&b.buf, binary.LittleEndian, float32(x))
	}
	b.views = append(b.views, map[string]any{"buffer": 0, "byteOffset": off, "byteLength": 4 * len(v)})
	a := map[string]any{"bufferView": len(b.views) - 1, "componentType": 5126, "count": len(v) / comps, "type": accTypes[comps]}
	if comps == 3 && len(v) > 0 {
		lo, hi := []float64{v[0], v[1], v[2]}, []float64{v[0], v[1], v[2]}
		for i := 0; i < len(v); i += 3 {
			for k := 0; k < 3; k++ {
				lo[k], hi[k] = math.Min(lo[k], float64(float32(v[i+k]))), math.Max(hi[k], float64(float32(v[i+k])))
			}
		}
		a["min"], a["max"] = lo, hi
	}
	if comps == 1 {
		a["min"], a["max"] = []float64{v[0]}, []float64{v[len(v)-1]}
	}
	b.accessors = append(b.accessors, a)
	return len(b.accessors) - 1
}

// ushorts adds an unsigned short accessor (indices, joints).
func (b *builder) ushorts(comps int, v ...int) int {
	off := b.buf.Len()
	for _, x := range v {
		binary.Write(&b.buf, binary.LittleEndian, uint16(x))
	}
	for b.buf.Len()%4 != 0 {
		b.buf.WriteByte(0)
	}
	b.views = append(b.views, map[string]any{"buffer": 0, "byteOffset": off, "byteLength": 2 * len(v)})
	b.accessors = append(b.accessors, map[string]any{"bufferView": len(b.views) - 1, "componentType": 5123, "count": len(v) / comps, "type": accTypes[comps]})
	return len(b.accessors) - 1
}

// doc finishes the document: root holds everything but asset, buffers,
// bufferViews and accessors.
func (b *builder) doc(root map[string]any) []byte {
	root["asset"] = map[string]any{"version": "2.0", "generator": "physview scene/anim fixtures_test.go"}
	root["buffers"] = []any{map[string]any{"byteLength": b.buf.Len(), "uri": "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(b.buf.Bytes())}}
	root["bufferViews"] = b.views
	root["accessors"] = b.accessors
	out, err := json.MarshalIndent(root, "", " ")
	if err != nil {
		panic(err)
	}
	return append(out, '\n')
}

// fixtureSkin: a strip of six vertices at y = 0, 1, 2 (x = -0.5, 0.5) on
// two joints (joint 1 one metre above joint 0): y = 0 on joint 0, y = 2 on
// joint 1, y = 1 half and half. Animation 0 turns joint 1 from 0 to 90
// degrees about Z between t = 0 and 1 (LINEAR). eight puts joint 1's
// influence in JOINTS_1/WEIGHTS_1.
func fixtureSkin(eight bool) []byte {
	var b builder
	pos := b.floats(3, -0.5, 0, 0, 0.5, 0, 0, -0.5, 1, 0, 0.5, 1, 0, -0.5, 2, 0, 0.5, 2, 0)
	idx := b.ushorts(1, 0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4)
	attrs := map[string]any{"POSITION": pos}
	w0 := []float64{1, 1, 0.5, 0.5, 0, 0}
	if eight {
		var j0, j1 []int
		var ww0, ww1 []float64
		for _, w := range w0 {
			j0 = append(j0, 0, 0, 0, 0)
			ww0 = append(ww0, w, 0, 0, 0)
			j1 = append(j1, 1, 0, 0, 0)
			ww1 = append(ww1, 1-w, 0, 0, 0)
		}
		attrs["JOINTS_0"], attrs["WEIGHTS_0"] = b.ushorts(4, j0...), b.floats(4, ww0...)
		attrs["JOINTS_1"], attrs["WEIGHTS_1"] = b.ushorts(4, j1...), b.floats(4, ww1...)
	} else {
		var j, ww []int
		var wf []float64
		for _, w := range w0 {
			j = append(j, 0, 1, 0, 0)
			wf = append(wf, w, 1-w, 0, 0)
		}
		_ = ww
		attrs["JOINTS_0"], attrs["WEIGHTS_0"] = b.ushorts(4, j...), b.floats(4, wf...)
	}
	ibm := b.floats(16,
		1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
		1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1)
	s := math.Sqrt(0.5)
	times := b.floats(1, 0, 1)
	rot := b.floats(4, 0, 0, 0, 1, 0, 0, s, s)
	return b.doc(map[string]any{
		"scene":  0,
		"scenes": []any{map[string]any{"nodes": []int{0, 1}}},
		"nodes": []any{
			map[string]any{"name": "skinned", "mesh": 0, "skin": 0, "translation": []float64{100, 0, 0}},
			map[string]any{"name": "joint0", "children": []int{2}},
			map[string]any{"name": "joint1", "translation": []float64{0, 1, 0}},
		},
		"meshes": []any{map[string]any{"primitives": []any{map[string]any{"attributes": attrs, "indices": idx}}}},
		"skins":  []any{map[string]any{"joints": []int{1, 2}, "inverseBindMatrices": ibm, "skeleton": 1}},
		"animations": []any{map[string]any{
			"channels": []any{map[string]any{"sampler": 0, "target": map[string]any{"node": 2, "path": "rotation"}}},
			"samplers": []any{map[string]any{"input": times, "output": rot}},
		}},
	})
}

// fixtureMorph: a triangle (0,0,0) (1,0,0) (0.5,1,0) with two targets
// (target 0 lifts the top vertex by 1, target 1 moves vertex 1 by +1 in X)
// and mesh.weights [0.5, 0]; node 0 uses the defaults, node 1 (at x = 5)
// overrides them with node.weights [0, 1]. Animation 0 steps node 0's
// weights from [0, 0] to [1, 1] at t = 1 (STEP).
func fixtureMorph() []byte {
	var b builder
	pos := b.floats(3, 0, 0, 0, 1, 0, 0, 0.5, 1, 0)
	t0 := b.floats(3, 0, 0, 0, 0, 0, 0, 0, 1, 0)
	t1 := b.floats(3, 0, 0, 0, 1, 0, 0, 0, 0, 0)
	times := b.floats(1, 0, 1)
	w := b.floats(1, 0, 0, 1, 1)
	return b.doc(map[string]any{
		"scene":  0,
		"scenes": []any{map[string]any{"nodes": []int{0, 1}}},
		"nodes": []any{
			map[string]any{"name": "defaults", "mesh": 0},
			map[string]any{"name": "override", "mesh": 0, "translation": []float64{5, 0, 0}, "weights": []float64{0, 1}},
		},
		"meshes": []any{map[string]any{"weights": []float64{0.5, 0}, "primitives": []any{map[string]any{
			"attributes": map[string]any{"POSITION": pos},
			"targets":    []any{map[string]any{"POSITION": t0}, map[string]any{"POSITION": t1}},
		}}}},
		"animations": []any{map[string]any{
			"channels": []any{map[string]any{"sampler": 0, "target": map[string]any{"node": 0, "path": "weights"}}},
			"samplers": []any{map[string]any{"input": times, "output": w, "interpolation": "STEP"}},
		}},
	})
}

// fixtureInterp: node 0 STEP, node 1 LINEAR (and a triangle), node 2
// CUBICSPLINE translation; node 3 CUBICSPLINE rotation, node 4 LINEAR
// rotation (slerp); node 5 translation and material 0's base colour through
// KHR_animation_pointer. All in animation 0.
func fixtureInterp() []byte {
	var b builder
	pos := b.floats(3, 0, 0, 0, 1, 0, 0, 0, 1, 0)
	t3 := b.floats(1, 0, 1, 2)
	xs := b.floats(3, 0, 0, 0, 1, 0, 0, 3, 0, 0)
	t2 := b.floats(1, 0, 2)
	// in-tangent, value, out-tangent per key.
	cubic := b.floats(3, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0)
	t1 := b.floats(1, 0, 1)
	s := math.Sqrt(0.5)
	qcubic := b.floats(4, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, s, s, 0, 0, 0, 0)
	qlin := b.floats(4, 0, 0, 0, 1, 0, 0, s, s)
	ptrT := b.floats(3, 0, 0, 0, 0, 4, 0)
	col := b.floats(4, 1, 0, 0, 1, 0, 0, 1, 1)
	ch := func(sampler int, node int, path string) map[string]any {
		return map[string]any{"sampler": sampler, "target": map[string]any{"node": node, "path": path}}
	}
	ptr := func(sampler int, p string) map[string]any {
		return map[string]any{"sampler": sampler, "target": map[string]any{"path": "pointer", "extensions": map[string]any{"KHR_animation_pointer": map[string]any{"pointer": p}}}}
	}
	return b.doc(map[string]any{
		"extensionsUsed": []string{"KHR_animation_pointer"},
		"scene":          0,
		"scenes":         []any{map[string]any{"nodes": []int{0, 1, 2, 3, 4, 5}}},
		"nodes": []any{
			map[string]any{"name": "step"}, map[string]any{"name": "linear", "mesh": 0}, map[string]any{"name": "cubic"},
			map[string]any{"name": "cubic rotation"}, map[string]any{"name": "slerp"}, map[string]any{"name": "pointer"},
		},
		"materials": []any{map[string]any{"pbrMetallicRoughness": map[string]any{"baseColorFactor": []float64{1, 0, 0, 1}}}},
		"meshes":    []any{map[string]any{"primitives": []any{map[string]any{"attributes": map[string]any{"POSITION": pos}, "material": 0}}}},
		"animations": []any{map[string]any{
			"channels": []any{ch(0, 0, "translation"), ch(1, 1, "translation"), ch(2, 2, "translation"), ch(3, 3, "rotation"), ch(4, 4, "rotation"),
				ptr(5, "/nodes/5/translation"), ptr(6, "/materials/0/pbrMetallicRoughness/baseColorFactor")},
			"samplers": []any{
				map[string]any{"input": t3, "output": xs, "interpolation": "STEP"},
				map[string]any{"input": t3, "output": xs},
				map[string]any{"input": t2, "output": cubic, "interpolation": "CUBICSPLINE"},
				map[string]any{"input": t1, "output": qcubic, "interpolation": "CUBICSPLINE"},
				map[string]any{"input": t1, "output": qlin},
				map[string]any{"input": t1, "output": ptrT},
				map[string]any{"input": t1, "output": col},
			},
		}},
	})
}

// fixtureInstancing: a triangle (0,0,0) (1,0,0) (0,1,0) on a node at
// (0,1,0) with three EXT_mesh_gpu_instancing instances: at the origin; at
// (10,0,0) scaled 2; at (0,0,-5) mirrored in X (scale -1,1,1).
func fixtureInstancing() []byte {
	var b builder
	pos := b.floats(3, 0, 0, 0, 1, 0, 0, 0, 1, 0)
	tr := b.floats(3, 0, 0, 0, 10, 0, 0, 0, 0, -5)
	sc := b.floats(3, 1, 1, 1, 2, 2, 2, -1, 1, 1)
	return b.doc(map[string]any{
		"extensionsUsed": []string{"EXT_mesh_gpu_instancing"},
		"scene":          0,
		"scenes":         []any{map[string]any{"nodes": []int{0}}},
		"nodes": []any{map[string]any{"name": "triangles", "mesh": 0, "translation": []float64{0, 1, 0},
			"extensions": map[string]any{"EXT_mesh_gpu_instancing": map[string]any{"attributes": map[string]any{"TRANSLATION": tr, "SCALE": sc}}}}},
		"meshes": []any{map[string]any{"primitives": []any{map[string]any{"attributes": map[string]any{"POSITION": pos}}}}},
	})
}

// fixturePlatform: a kinematic 4 x 0.2 x 4 platform animated 1 m along X
// over 2 s (CUBICSPLINE with zero tangents: easing in and out), a 0.2 m
// dynamic box resting on it, earth gravity. For simulate and Play.
func fixturePlatform() []byte {
	var b builder
	times := b.floats(1, 0, 2)
	xs := b.floats(3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0)
	return b.doc(map[string]any{
		"extensionsUsed": []string{"OMI_physics_shape", "OMI_physics_body", "OMI_physics_gravity"},
		"extensions": map[string]any{
			"OMI_physics_shape":   map[string]any{"shapes": []any{map[string]any{"type": "box", "box": map[string]any{"size": []float64{4, 0.2, 4}}}, map[string]any{"type": "box", "box": map[string]any{"size": []float64{0.2, 0.2, 0.2}}}}},
			"OMI_physics_gravity": map[string]any{"gravity": 9.81, "direction": []float64{0, -1, 0}},
		},
		"scene":  0,
		"scenes": []any{map[string]any{"nodes": []int{0, 1}}},
		"nodes": []any{
			map[string]any{"name": "platform", "extensions": map[string]any{"OMI_physics_body": map[string]any{"motion": map[string]any{"type": "kinematic"}, "collider": map[string]any{"shape": 0}}}},
			map[string]any{"name": "box", "translation": []float64{0, 0.2, 0}, "extensions": map[string]any{"OMI_physics_body": map[string]any{"motion": map[string]any{"type": "dynamic", "mass": 1}, "collider": map[string]any{"shape": 1}}}},
		},
		"animations": []any{map[string]any{
			"channels": []any{map[string]any{"sampler": 0, "target": map[string]any{"node": 0, "path": "translation"}}},
			"samplers": []any{map[string]any{"input": times, "output": xs, "interpolation": "CUBICSPLINE"}},
		}},
	})
}

var fixtures = map[string]func() []byte{
	"platform.gltf":   fixturePlatform,
	"skin.gltf":       func() []byte { return fixtureSkin(false) },
	"skin8.gltf":      func() []byte { return fixtureSkin(true) },
	"morph.gltf":      fixtureMorph,
	"interp.gltf":     fixtureInterp,
	"instancing.gltf": fixtureInstancing,
}

// TestFixturesUpToDate keeps testdata/ equal to what the generators make
// (go test -run Fixtures -update rewrites them).
func TestFixturesUpToDate(t *testing.T) {
	for name, gen := range fixtures {
		p := filepath.Join("testdata", name)
		want := gen()
		if *update {
			if err := os.WriteFile(p, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(p)
		if err != nil {
			t.Fatalf("%v (run go test -run Fixtures -update)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from its generator (run go test -run Fixtures -update)", p)
		}
	}
}
