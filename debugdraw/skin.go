package debugdraw

import (
	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// ColorBone is the colour of a skin's bones.
var ColorBone = [4]float32{1, 0.85, 0.35, 1}

// SkinLines draws a skin's skeleton as Blender and Babylon show it: a line
// from each joint to its nearest ancestor that is also one of the skin's
// joints, and a small cross of size marker at every joint. world gives the
// nodes' world matrices (a pose's, anim.Pose.World, to follow an
// animation). Joints that are not nodes of d are skipped.
func SkinLines(d *scene.Document, joints []int, world []mgl64.Mat4, marker float64) []Line {
	in := make(map[int]bool, len(joints))
	for _, j := range joints {
		in[j] = true
	}
	pt := func(n int) [3]float32 {
		p := world[n].Col(3)
		return [3]float32{float32(p[0]), float32(p[1]), float32(p[2])}
	}
	var out []Line
	h := float32(marker / 2)
	for _, j := range joints {
		if j < 0 || j >= len(world) {
			continue
		}
		p := pt(j)
		for k := 0; k < 3; k++ {
			a, b := p, p
			a[k] -= h
			b[k] += h
			out = append(out, Line{A: a, B: b, Color: ColorBone})
		}
		parent := -1
		d.Ancestors(j, func(a int) bool {
			if in[a] {
				parent = a
				return false
			}
			return true
		})
		if parent >= 0 && parent < len(world) {
			out = append(out, Line{A: pt(parent), B: p, Color: ColorBone})
		}
	}
	return out
}
