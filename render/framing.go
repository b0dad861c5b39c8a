package render

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// Framing is what the default view of a document shows.
type Framing struct {
	// Min and Max are the bounds to frame: the scene's, without the meshes
	// that enclose it seen from inside (a sky drum, a room's shell).
	Min, Max mgl64.Vec3
	// Camera is the index of the file's camera to view from (the first a
	// node of the shown scene uses) when an enclosing mesh dominates the
	// bounds, -1 otherwise.
	Camera int
	// Note says which, for the status bar; "" for the plain bounds.
	Note string
}

// inwardShare is the share of a primitive's vertices whose normals must
// point toward its bounding box's centre for it to count as seen from
// inside (an inverted sphere or drum: all of them; a closed solid: none).
const inwardShare = 0.9

// sheetMeanNormal is the length of the mean vertex normal from which an
// inward-facing primitive is an open sheet (a curved ramp, a half-pipe:
// its normals all lean one way) rather than a shell around the scene
// (a sky sphere or a room: about 0; a lat-long hemisphere dome: about 0.64).
const sheetMeanNormal = 0.75

// facesInward reports whether most of pd's vertices have normals pointing
// toward the centre of its bounds, and those normals do not all lean one
// way (a concave sheet's do; the scene is above it, not inside it).
func facesInward(pd *scene.PrimitiveData) bool {
	if len(pd.Positions) < 8 || len(pd.Normals) != len(pd.Positions) {
		return false
	}
	c := [3]float32{(pd.Min[0] + pd.Max[0]) / 2, (pd.Min[1] + pd.Max[1]) / 2, (pd.Min[2] + pd.Max[2]) / 2}
	in := 0
	var sum [3]float64
	for i, p := range pd.Positions {
		n := pd.Normals[i]
		if n[0]*(c[0]-p[0])+n[1]*(c[1]-p[1])+n[2]*(c[2]-p[2]) > 0 {
			in++
		}
		sum[0], sum[1], sum[2] = sum[0]+float64(n[0]), sum[1]+float64(n[1]), sum[2]+float64(n[2])
	}
	if float64(in) < inwardShare*float64(len(pd.Positions)) {
		return false
	}
	return math.Sqrt(sum[0]*sum[0]+sum[1]*sum[1]+sum[2]*sum[2]) < sheetMeanNormal*float64(len(pd.Positions))
}

// Framing decides the default view: the scene's bounds, unless meshes
// whose normals point inward enclose the rest (their boxes hold at least
// half the scene's volume and the centre of the rest). Then the first
// camera of the shown scene views it when the file has one; otherwise the
// bounds without those meshes are framed. The physics shapes count as the
// rest.
func (r *Renderer) Framing() Framing {
	f := Framing{Min: r.min, Max: r.max, Camera: -1}
	if r.doc == nil {
		return f
	}
	inf := math.Inf(1)
	rest := [2]mgl64.Vec3{{inf, inf, inf}, {-inf, -inf, -inf}}
	var shells []drawItem
	for _, it := range r.items {
		if it.prim.inward && (it.prim.def == nil || !it.prim.def.skinned) {
			shells = append(shells, it)
			continue
		}
		lo, hi := itemBounds(it)
		rest = [2]mgl64.Vec3{minVec(rest[0], lo), maxVec(rest[1], hi)}
	}
	if lo, hi, ok := r.doc.PhysicsBounds(); ok {
		rest = [2]mgl64.Vec3{minVec(rest[0], lo), maxVec(rest[1], hi)}
	}
	if len(shells) == 0 || rest[0][0] > rest[1][0] {
		return f
	}
	centre := rest[0].Add(rest[1]).Mul(0.5)
	enclosed := false
	for _, it := range shells {
		lo, hi := itemBounds(it)
		if volume(lo, hi) >= 0.5*volume(f.Min, f.Max) && inside(centre, lo, hi) {
			enclosed = true
		}
	}
	if !enclosed {
		return f
	}
	for _, n := range r.doc.SceneNodes() {
		if node := r.doc.GLTF.Nodes[n]; node.Camera != nil && *node.Camera >= 0 && *node.Camera < len(r.doc.GLTF.Cameras) {
			f.Camera = *node.Camera
			f.Note = fmt.Sprintf("viewed from the file's camera %d: the scene is inside a mesh seen from within", f.Camera)
			return f
		}
	}
	f.Min, f.Max = rest[0], rest[1]
	f.Note = "framed without the mesh that encloses the scene (its normals point inward)"
	return f
}

// itemBounds is an item's world bounding box (its box's corners moved by
// its node's matrix).
func itemBounds(it drawItem) (lo, hi mgl64.Vec3) {
	inf := math.Inf(1)
	lo, hi = mgl64.Vec3{inf, inf, inf}, mgl64.Vec3{-inf, -inf, -inf}
	for _, c := range it.prim.corners {
		w := it.model.Mul4x1(c.Vec4(1)).Vec3()
		lo, hi = minVec(lo, w), maxVec(hi, w)
	}
	return lo, hi
}

func minVec(a, b mgl64.Vec3) mgl64.Vec3 {
	return mgl64.Vec3{math.Min(a[0], b[0]), math.Min(a[1], b[1]), math.Min(a[2], b[2])}
}

func maxVec(a, b mgl64.Vec3) mgl64.Vec3 {
	return mgl64.Vec3{math.Max(a[0], b[0]), math.Max(a[1], b[1]), math.Max(a[2], b[2])}
}

func volume(lo, hi mgl64.Vec3) float64 {
	d := hi.Sub(lo)
	return math.Max(d[0], 0) * math.Max(d[1], 0) * math.Max(d[2], 0)
}

func inside(p, lo, hi mgl64.Vec3) bool {
	return p[0] >= lo[0] && p[0] <= hi[0] && p[1] >= lo[1] && p[1] <= hi[1] && p[2] >= lo[2] && p[2] <= hi[2]
}
