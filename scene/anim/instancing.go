package anim

import (
	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// ExtInstancing is the EXT_mesh_gpu_instancing extension name.
const ExtInstancing = "EXT_mesh_gpu_instancing"

// Instances returns node n's EXT_mesh_gpu_instancing transforms (each
// relative to the node), or nil when it has none. Attributes that cannot
// be read count as absent; all of them absent means no instancing.
func (m *Model) Instances(n int) []mgl64.Mat4 {
	if v, ok := m.instance[n]; ok {
		return v
	}
	v := ReadInstances(m.Doc, n)
	m.instance[n] = v
	return v
}

// ReadInstances reads node n's EXT_mesh_gpu_instancing transforms (each
// relative to the node); nil when it has none. Model.Instances caches it.
func ReadInstances(d *scene.Document, n int) []mgl64.Mat4 {
	doc := d.GLTF
	if n < 0 || n >= len(doc.Nodes) || doc.Nodes[n].Mesh == nil {
		return nil
	}
	var ext struct {
		Attributes map[string]int `json:"attributes"`
	}
	if !rawExt(doc.Nodes[n].Extensions, ExtInstancing, &ext) {
		return nil
	}
	read := func(name string, comps int) []float64 {
		i, ok := ext.Attributes[name]
		if !ok {
			return nil
		}
		v, c, err := readFloats(d, i)
		if err != nil || c != comps {
			return nil
		}
		return v
	}
	t, r, s := read("TRANSLATION", 3), read("ROTATION", 4), read("SCALE", 3)
	count := -1
	for _, x := range []struct {
		v []float64
		c int
	}{{t, 3}, {r, 4}, {s, 3}} {
		if x.v != nil && (count < 0 || len(x.v)/x.c < count) {
			count = len(x.v) / x.c
		}
	}
	if count < 0 {
		return nil
	}
	out := make([]mgl64.Mat4, count)
	for i := range out {
		trs := TRS{R: [4]float64{0, 0, 0, 1}, S: [3]float64{1, 1, 1}}
		if t != nil {
			copy(trs.T[:], t[3*i:])
		}
		if r != nil {
			copy(trs.R[:], r[4*i:4*i+4])
		}
		if s != nil {
			copy(trs.S[:], s[3*i:3*i+3])
		}
		out[i] = trs.Matrix()
	}
	return out
}

// InstanceCount returns how many EXT_mesh_gpu_instancing instances node n
// of d draws (the smallest count of its attributes' accessors), 0 when it
// has none. It reads no buffer data.
func InstanceCount(d *scene.Document, n int) int {
	doc := d.GLTF
	if n < 0 || n >= len(doc.Nodes) || doc.Nodes[n].Mesh == nil {
		return 0
	}
	var ext struct {
		Attributes map[string]int `json:"attributes"`
	}
	if !rawExt(doc.Nodes[n].Extensions, ExtInstancing, &ext) {
		return 0
	}
	count := -1
	for _, name := range []string{"TRANSLATION", "ROTATION", "SCALE"} {
		if i, ok := ext.Attributes[name]; ok && i >= 0 && i < len(doc.Accessors) {
			if c := doc.Accessors[i].Count; count < 0 || c < count {
				count = c
			}
		}
	}
	return max(count, 0)
}
