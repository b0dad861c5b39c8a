package anim

import (
	"fmt"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// TestCompressedPosesAsSource: the anim fixtures compressed with
// glTF-Transform (`gltf-transform draco|meshopt IN OUT`: Draco geometry;
// meshopt geometry, animation data and instance transforms, quantized)
// pose like their sources: skins, morph targets, instancing and every
// animation read the decoded data, not the accessors' empty or compressed
// bytes (a Draco accessor has no bufferView; a meshopt view's bytes are
// compressed). Posed bounds agree within the quantization's precision.
// (interp.gltf is left out: glTF-Transform drops its KHR_animation_pointer
// channels when it rewrites the file.)
func TestCompressedPosesAsSource(t *testing.T) {
	for _, name := range []string{"morph", "skin", "instancing"} {
		src := load(t, name+".gltf")
		for _, codec := range []string{"draco", "meshopt"} {
			t.Run(name+"_"+codec, func(t *testing.T) {
				m := load(t, name+"_"+codec+".glb")
				if len(m.Animations) != len(src.Animations) {
					t.Fatalf("%d animations, the source has %d", len(m.Animations), len(src.Animations))
				}
				poses := []struct {
					what      string
					got, want *Pose
				}{{"rest pose", m.Rest(), src.Rest()}}
				for a := range src.Animations {
					d := src.Duration(a)
					for _, f := range []float64{0, 0.3, 0.71, 1} {
						poses = append(poses, struct {
							what      string
							got, want *Pose
						}{fmt.Sprintf("animation %d at %.3g s", a, f*d), m.Pose(a, f*d), src.Pose(a, f*d)})
					}
				}
				for _, p := range poses {
					glo, ghi, gok := m.Bounds(p.got)
					wlo, whi, wok := src.Bounds(p.want)
					if !gok || !wok {
						t.Fatalf("%s: bounds ok %v, source %v", p.what, gok, wok)
					}
					tol := 2e-3 * whi.Sub(wlo).Len()
					if !closeVec(glo, wlo, tol) || !closeVec(ghi, whi, tol) {
						t.Errorf("%s: bounds %v %v, source %v %v (tolerance %.3g)", p.what, glo, ghi, wlo, whi, tol)
					}
				}
			})
		}
	}
}

func closeVec(a, b mgl64.Vec3, tol float64) bool { return a.Sub(b).Len() <= tol }
