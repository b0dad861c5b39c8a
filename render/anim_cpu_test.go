package render

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/internal/testcorpus"
	"physview/scene"
	"physview/scene/anim"
)

// TestCPUPoseBounds poses every skinned or morphed primitive of sample
// models on the CPU (cpuDeform, no GL) at a series of times of each
// animation and checks the box of the posed positions against the box
// scene/anim's own posing gives (anim.Model.Vertices, in float64): the
// two are written independently, so a slip in either shows.
func TestCPUPoseBounds(t *testing.T) {
	files := []string{
		"Fox/glTF/Fox.gltf",                             // 4 influences, 24 joints, no tangents
		"BrainStem/glTF-Binary/BrainStem.glb",           // many skinned primitives
		"RiggedSimple/glTF/RiggedSimple.gltf",           // two joints
		"SimpleSkin/glTF/SimpleSkin.gltf",               // hand-made skin
		"MorphStressTest/glTF/MorphStressTest.gltf",     // eight targets
		"AnimatedMorphCube/glTF/AnimatedMorphCube.gltf", // morphed normals and tangents
	}
	for _, f := range files {
		d, err := scene.Load(testcorpus.File(t, "gltf-sample-assets/Models/"+f))
		if err != nil {
			t.Fatal(err)
		}
		m := anim.NewModel(d)
		checked := 0
		for n, node := range d.GLTF.Nodes {
			if node.Mesh == nil {
				continue
			}
			mesh := int(*node.Mesh)
			for p := range d.GLTF.Meshes[mesh].Primitives {
				pd, err := d.ReadPrimitive(mesh, p)
				if err != nil {
					t.Fatal(err)
				}
				df := m.Deform(mesh, p)
				if df == nil || df.Err != nil || (!df.Skinned() && len(df.Targets) == 0) {
					continue
				}
				c := newCPUDeform(pd, df, func(i int) int {
					if pd.Source != nil {
						return int(pd.Source[i])
					}
					return i
				})
				skin := -1
				if df.Skinned() {
					skin = m.SkinOf(n)
				}
				out := make([]float32, len(pd.Positions)*cpuFloats)
				for a := 0; a < max(len(m.Animations), 1); a++ {
					for k := 0; k < 12; k++ {
						pose := m.Pose(a, float64(k)*0.27)
						var joints [][12]float32
						if skin >= 0 {
							joints = cpuJoints(m.JointMatrices(pose, skin, nil))
						}
						c.pose(out, joints, cpuWeights(pose.Weights(m, n), len(df.Targets)))
						inf := math.Inf(1)
						lo, hi := mgl64.Vec3{inf, inf, inf}, mgl64.Vec3{-inf, -inf, -inf}
						for i := range pd.Positions {
							v := mgl64.Vec3{float64(out[i*cpuFloats]), float64(out[i*cpuFloats+1]), float64(out[i*cpuFloats+2])}
							if skin < 0 {
								v = pose.World[n].Mul4x1(v.Vec4(1)).Vec3() // morphed only: still in the node's space
							}
							for q := 0; q < 3; q++ {
								lo[q], hi[q] = math.Min(lo[q], v[q]), math.Max(hi[q], v[q])
							}
						}
						wlo, whi := mgl64.Vec3{inf, inf, inf}, mgl64.Vec3{-inf, -inf, -inf}
						m.Vertices(pose, n, p, func(v mgl64.Vec3) {
							for q := 0; q < 3; q++ {
								wlo[q], whi[q] = math.Min(wlo[q], v[q]), math.Max(whi[q], v[q])
							}
						})
						tol := 1e-4 * math.Max(whi.Sub(wlo).Len(), 1)
						for q := 0; q < 3; q++ {
							if math.Abs(lo[q]-wlo[q]) > tol || math.Abs(hi[q]-whi[q]) > tol {
								t.Fatalf("%s node %d primitive %d animation %d t=%.2f: posed on the CPU %v..%v, want %v..%v", f, n, p, a, float64(k)*0.27, lo, hi, wlo, whi)
							}
						}
						checked++
					}
				}
			}
		}
		if checked == 0 {
			t.Errorf("%s: no skinned or morphed primitive posed", f)
		}
	}
}
