package anim

import (
	"fmt"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// TestBoxBounds: a node whose matrices are axis-aligned is bounded by its
// primitive's box of drawn vertices (no vertex visited), to the same
// bits as visiting every vertex; a turned, skinned or morphed one visits
// its vertices.
func TestBoxBounds(t *testing.T) {
	for _, c := range []struct {
		node string
		box  bool // bounded by the box
		lo   mgl64.Vec3
		hi   mgl64.Vec3
	}{
		{`{"mesh":0,"translation":[1,2,3]}`, true, mgl64.Vec3{1, 2, 3}, mgl64.Vec3{2, 3, 3}},
		{`{"mesh":0,"scale":[-2,1,0.5]}`, true, mgl64.Vec3{-2, 0, 0}, mgl64.Vec3{0, 1, 0}},
		{`{"mesh":0,"matrix":[0,1,0,0, -1,0,0,0, 0,0,1,0, 0,0,0,1]}`, true, mgl64.Vec3{-1, 0, 0}, mgl64.Vec3{0, 1, 0}},
		{`{"mesh":0,"rotation":[0,0,0.258819,0.9659258]}`, false, mgl64.Vec3{-0.5, 0, 0}, mgl64.Vec3{0.866, 0.866, 0}},
		{`{"mesh":0,"extensions":{"EXT_mesh_gpu_instancing":{"attributes":{"TRANSLATION":1}}}}`, true, mgl64.Vec3{0, 0, -1}, mgl64.Vec3{3, 4, 0}},
	} {
		doc := fmt.Sprintf(`{"asset":{"version":"2.0"},"extensionsUsed":["EXT_mesh_gpu_instancing"],
"buffers":[{"byteLength":60,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAQAAAAAAAAAAAAAAAAAAAQEAAAIC/"}],
"bufferViews":[{"buffer":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":24}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]},
{"bufferView":1,"componentType":5126,"count":2,"type":"VEC3"}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
"nodes":[%s],"scenes":[{"nodes":[0]}],"scene":0}`, c.node)
		d, err := scene.Decode([]byte(doc), nil)
		if err != nil {
			t.Fatal(err)
		}
		m := NewModel(d)
		p := m.Rest()
		lo, hi, ok := m.Bounds(p)
		if !ok {
			t.Fatalf("%s: nothing bounded", c.node)
		}
		inf := math.Inf(1)
		vlo, vhi := mgl64.Vec3{inf, inf, inf}, mgl64.Vec3{-inf, -inf, -inf}
		m.Vertices(p, 0, 0, func(w mgl64.Vec3) {
			for k := 0; k < 3; k++ {
				vlo[k], vhi[k] = math.Min(vlo[k], w[k]), math.Max(vhi[k], w[k])
			}
		})
		if lo != vlo || hi != vhi {
			t.Errorf("%s: bounds %v %v, every vertex gives %v %v", c.node, lo, hi, vlo, vhi)
		}
		if !lo.ApproxEqualThreshold(c.lo, 1e-3) || !hi.ApproxEqualThreshold(c.hi, 1e-3) {
			t.Errorf("%s: bounds %v %v, want %v %v", c.node, lo, hi, c.lo, c.hi)
		}
		if got := m.boxBounds(p, 0, 0, func(mgl64.Vec3) {}); got != c.box {
			t.Errorf("%s: bounded by the box: %v, want %v", c.node, got, c.box)
		}
	}
}
