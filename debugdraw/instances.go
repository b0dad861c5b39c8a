package debugdraw

import (
	"github.com/go-gl/mathgl/mgl64"

	"physview/scene/anim"
)

// Instances returns node n's EXT_mesh_gpu_instancing transforms (relative
// to the node), read once; nil when it has none.
func (dm *DocumentMeshes) Instances(n int) []mgl64.Mat4 {
	if v, ok := dm.instances[n]; ok {
		return v
	}
	v := anim.ReadInstances(dm.Doc, n)
	if dm.instances == nil {
		dm.instances = map[int][]mgl64.Mat4{}
	}
	dm.instances[n] = v
	return v
}

// instanceSource is a MeshSource that also knows nodes' instances.
type instanceSource interface {
	Instances(n int) []mgl64.Mat4
}

// meshPlacements returns where node n's mesh is drawn: at world, or at
// world times each of its instances when meshes knows them.
func meshPlacements(meshes MeshSource, n int, world mgl64.Mat4) []mgl64.Mat4 {
	is, ok := meshes.(instanceSource)
	if !ok {
		return []mgl64.Mat4{world}
	}
	inst := is.Instances(n)
	if inst == nil {
		return []mgl64.Mat4{world}
	}
	out := make([]mgl64.Mat4, len(inst))
	for i, m := range inst {
		out[i] = world.Mul4(m)
	}
	return out
}
