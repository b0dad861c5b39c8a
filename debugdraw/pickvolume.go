package debugdraw

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// Picking inside a collider or trigger: a click on what looks solid (the
// inside of a box or capsule wireframe) selects the node that carries the
// shape, not only a click on its one-pixel edges.

// volumeHit is where the pick ray first enters one node's shape.
type volumeHit struct {
	node    int
	shape   int
	t       float64
	trigger bool
}

// pickVolume returns the nearest entry of the ray o + t*dir (dir of unit
// length, t in world units) into the collider or trigger shape of one of
// nodes, colliders before triggers: a trigger is often a large field around
// the solids it acts on (a planet's gravity), and a click inside it means
// the solid. Only nodes whose lines are shown (nodeLines(n) not empty)
// count. A shape the ray starts inside is skipped: the camera is in it, and
// every click would select it.
func pickVolume(d *scene.Document, nodes []int, world []mgl64.Mat4, meshes MeshSource, nodeLines func(n int) []Line, o, dir mgl64.Vec3) (volumeHit, bool) {
	best, found := volumeHit{node: -1, t: math.Inf(1)}, false
	better := func(h volumeHit) bool {
		if !found {
			return true
		}
		if h.trigger != best.trigger {
			return !h.trigger
		}
		return h.t < best.t
	}
	for _, n := range nodes {
		if n < 0 || n >= len(d.Nodes) || n >= len(world) {
			continue
		}
		b := d.Nodes[n].Body
		if b == nil || len(nodeLines(n)) == 0 {
			continue
		}
		var shapes [2]int
		shapes[0], shapes[1] = -1, -1
		if c := b.Collider; c != nil {
			shapes[0] = c.Shape
		}
		if tr := b.Trigger; tr != nil && tr.Nodes == nil {
			shapes[1] = tr.Shape
		}
		for i, si := range shapes {
			if si < 0 || si >= len(d.Shapes) {
				continue
			}
			t, ok := RayShape(d.Shapes[si], world[n], meshes, o, dir)
			if !ok {
				continue
			}
			h := volumeHit{node: n, shape: si, t: t, trigger: i == 1}
			if better(h) {
				best, found = h, true
			}
		}
	}
	return best, found
}

// RayShape returns the world distance t > 0 at which the ray o + t*dir
// (dir of unit length) enters shape s placed with matrix m, and whether it
// does. Boxes, spheres, capsules, cylinders and general shapes are marched
// along their signed distance; convex and trimesh shapes are hit against
// their mesh's triangles (the hull's for a convex shape is approximated by
// the mesh itself). Planes, rays and heightmaps have no inside to click and
// never hit. A ray that starts inside the shape does not hit it.
func RayShape(s scene.Shape, m mgl64.Mat4, meshes MeshSource, o, dir mgl64.Vec3) (float64, bool) {
	inv := m.Inv()
	if !finiteMat(inv) || inv == (mgl64.Mat4{}) {
		return 0, false
	}
	// In shape space with the direction not normalised, the ray parameter
	// is still the world distance.
	ro := inv.Mul4x1(o.Vec4(1)).Vec3()
	rd := inv.Mul4x1(dir.Vec4(0)).Vec3()
	switch s.Type {
	case scene.ShapePlane, scene.ShapeRay, scene.ShapeHeightmap:
		return 0, false
	case scene.ShapeConvex, scene.ShapeTrimesh:
		if meshes == nil || s.Mesh < 0 {
			return 0, false
		}
		tris, err := meshes.MeshTriangles(s.Mesh)
		if err != nil {
			return 0, false
		}
		best, found := math.Inf(1), false
		for _, tri := range tris {
			if t, ok := rayTriangle(ro, rd, tri); ok && t < best {
				best, found = t, true
			}
		}
		return best, found
	}
	return marchShape(s, ro, rd)
}

// marchShape sphere-traces the local ray ro + t*rd through s's signed
// distance, between where it enters and leaves the shape's bounding box.
func marchShape(s scene.Shape, ro, rd mgl64.Vec3) (float64, bool) {
	var zero mgl64.Vec3
	lo, hi := s.Bounds(zero, zero)
	if !finiteVec(lo) || !finiteVec(hi) || lo == hi {
		return 0, false
	}
	size := hi.Sub(lo).Len()
	speed := rd.Len()
	if !(speed > 0) || math.IsInf(speed, 0) {
		return 0, false
	}
	if s.Distance(ro, zero, zero) <= 0 {
		return 0, false // the ray starts inside
	}
	// Grow the box a little: the distance is zero on the surface itself.
	pad := mgl64.Vec3{size * 1e-3, size * 1e-3, size * 1e-3}
	t0, ok := rayBox(ro, rd, lo.Sub(pad), hi.Add(pad))
	if !ok {
		return 0, false
	}
	t1 := exitBox(ro, rd, lo.Sub(pad), hi.Add(pad))
	eps := size * 1e-5
	t := t0
	for i := 0; i < 256 && t <= t1; i++ {
		dist := s.Distance(ro.Add(rd.Mul(t)), zero, zero)
		if math.IsNaN(dist) {
			return 0, false
		}
		if dist <= eps {
			return t, t > 0
		}
		t += dist / speed
	}
	return 0, false
}

// exitBox returns where the ray o + t*d leaves the box [lo, hi] (the caller
// knows it meets it).
func exitBox(o, d, lo, hi mgl64.Vec3) float64 {
	t1 := math.Inf(1)
	for k := 0; k < 3; k++ {
		if d[k] == 0 {
			continue
		}
		a, b := (lo[k]-o[k])/d[k], (hi[k]-o[k])/d[k]
		t1 = math.Min(t1, math.Max(a, b))
	}
	return t1
}

// insideVolume reports whether world point p lies in shape si placed with
// matrix m (on its surface counts, within a small tolerance of its size).
func insideVolume(d *scene.Document, si int, m mgl64.Mat4, p mgl64.Vec3) bool {
	if si < 0 || si >= len(d.Shapes) {
		return false
	}
	s := d.Shapes[si]
	switch s.Type {
	case scene.ShapeBox, scene.ShapeSphere, scene.ShapeCapsule, scene.ShapeCylinder, scene.ShapeGeneral:
	default:
		return false
	}
	inv := m.Inv()
	if !finiteMat(inv) {
		return false
	}
	var zero mgl64.Vec3
	lo, hi := s.Bounds(zero, zero)
	local := inv.Mul4x1(p.Vec4(1)).Vec3()
	return s.Distance(local, zero, zero) <= hi.Sub(lo).Len()*1e-3
}
