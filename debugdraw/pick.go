package debugdraw

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"

	"physview/scene"
)

// Picking: viewport pixels are (x, y) with y down, in a w x h viewport; view
// and proj are the camera's matrices as the renderer uses them (OpenGL clip
// space, z from -1 at the near plane to 1 at the far plane).

// PickRay returns the world-space ray through pixel (x, y) of a w x h
// viewport (y down) for the view and projection matrices: origin on the near
// plane, dir of unit length. Perspective and orthographic projections both
// work, and so does an infinite far plane. A degenerate viewport or matrix
// gives a zero dir.
func PickRay(view, proj mgl64.Mat4, x, y, w, h float64) (origin, dir mgl64.Vec3) {
	if !(w > 0 && h > 0) {
		return mgl64.Vec3{}, mgl64.Vec3{}
	}
	inv := proj.Mul4(view).Inv()
	nx, ny := 2*x/w-1, 1-2*y/h
	// The near plane and the middle of the depth range: the far plane may be
	// at infinity.
	p0 := inv.Mul4x1(mgl64.Vec4{nx, ny, -1, 1})
	p1 := inv.Mul4x1(mgl64.Vec4{nx, ny, 0, 1})
	if p0[3] == 0 || p1[3] == 0 {
		return mgl64.Vec3{}, mgl64.Vec3{}
	}
	a, b := p0.Vec3().Mul(1/p0[3]), p1.Vec3().Mul(1/p1[3])
	d := b.Sub(a)
	l := d.Len()
	if !(l > 0) || math.IsInf(l, 0) || !finiteVec(a) {
		return mgl64.Vec3{}, mgl64.Vec3{}
	}
	return a, d.Mul(1 / l)
}

// ScreenPoint projects world point p into a w x h viewport (y down); ok is
// false when p is behind the camera (or on its plane).
func ScreenPoint(viewProj mgl64.Mat4, p mgl64.Vec3, w, h float64) (x, y float64, ok bool) {
	c := viewProj.Mul4x1(p.Vec4(1))
	if !(c[3] > 0) {
		return 0, 0, false
	}
	return (c[0]/c[3] + 1) / 2 * w, (1 - c[1]/c[3]) / 2 * h, true
}

// PixelSize returns the world size of one pixel at world point p in a
// viewport h pixels tall: multiply by a size in pixels to draw handles that
// keep their size on screen, or to turn a pixel tolerance into metres.
// It returns 0 for a point behind the camera.
func PixelSize(view, proj mgl64.Mat4, p mgl64.Vec3, h float64) float64 {
	c := proj.Mul4(view).Mul4x1(p.Vec4(1))
	if !(c[3] > 0) || proj[5] == 0 || !(h > 0) {
		return 0
	}
	return 2 * c[3] / (math.Abs(proj[5]) * h)
}

// PickHandle returns the index of the handle within tolPx pixels of (x, y),
// the one nearest on screen first (the one nearer the camera when two are
// equally near), or -1.
func PickHandle(hs []Handle, viewProj mgl64.Mat4, x, y, w, h, tolPx float64) int {
	best, bestD, bestW := -1, math.Inf(1), math.Inf(1)
	for i, hd := range hs {
		c := viewProj.Mul4x1(hd.Pos.Vec4(1))
		if !(c[3] > 0) {
			continue
		}
		sx, sy := (c[0]/c[3]+1)/2*w, (1-c[1]/c[3])/2*h
		d := math.Hypot(sx-x, sy-y)
		if d > tolPx {
			continue
		}
		if d < bestD || (d == bestD && c[3] < bestW) {
			best, bestD, bestW = i, d, c[3]
		}
	}
	return best
}

// PickNode returns the node under pixel (x, y): the node whose mesh
// triangles or collider volume the ray hits first, or whose debug lines
// (nodeLines(n), world space; nil for none) pass within tolPx pixels of the
// pixel. Meshes and the volumes of the colliders and triggers whose lines
// are shown count by ray distance (a mesh inside the collider or trigger
// that wraps it wins over it: a click on the visible mesh means the mesh); a
// line wins over them when it is no farther than that hit (give or take
// tolPx pixels at that depth, so a wireframe drawn on a mesh's surface wins), and of several such lines the one nearest on
// screen wins. Only the nodes of the shown scene (d.SceneNodes) count. -1
// for none.
//
// world is d.WorldMatrices(); meshes gives mesh triangles (nil skips meshes).
// Each mesh is first tested against its bounds (the POSITION accessors'
// min and max) and each node's lines against their screen rectangle, so a
// click on a large file reads the triangles of the meshes under the cursor
// only.
func PickNode(d *scene.Document, world []mgl64.Mat4, meshes MeshSource, nodeLines func(n int) []Line, view, proj mgl64.Mat4, x, y, w, h, tolPx float64) int {
	return (*Picker)(nil).PickNode(d, world, meshes, nodeLines, view, proj, x, y, w, h, tolPx)
}

// Picker is PickNode with a memory: it keeps the bounds of each node's lines
// and of each mesh's runs of triangles between calls, so picking under a
// moving mouse (hover) reads only the lines and triangles near the cursor,
// not every line and triangle of the scene. Use one Picker per view; the
// zero value is ready, and a nil *Picker remembers nothing.
//
// Lines and triangles are known again by their slice: the same backing
// array and length (the Picker holds on to the array, so its address is not
// reused while remembered). The debug Cache builds a new slice whenever a
// node's lines change and DocumentMeshes reads each mesh once, so both are
// safe to use; a caller that rewrites a slice in place must Reset the
// Picker. Reset also lets go of what it holds (do it when another document
// is loaded).
type Picker struct {
	bounds []lineBounds
	meshes map[int]*meshChunks
}

// lineBounds is the remembered box of one node's lines.
type lineBounds struct {
	data   *Line
	n      int
	lo, hi [3]float32
}

// Reset forgets every remembered bound.
func (p *Picker) Reset() {
	if p != nil {
		p.bounds, p.meshes = nil, nil
	}
}

// PickNode is the package's PickNode, remembering bounds between calls.
func (p *Picker) PickNode(d *scene.Document, world []mgl64.Mat4, meshes MeshSource, nodeLines func(n int) []Line, view, proj mgl64.Mat4, x, y, w, h, tolPx float64) int {
	o, dir := PickRay(view, proj, x, y, w, h)
	if dir == (mgl64.Vec3{}) || d == nil || d.GLTF == nil {
		return -1
	}
	nodes := d.SceneNodes()

	meshNode, tMesh := -1, math.Inf(1)
	if meshes != nil {
		for _, n := range nodes {
			gn := d.GLTF.Nodes[n]
			if gn.Mesh == nil || n >= len(world) {
				continue
			}
			for _, m := range meshPlacements(meshes, n, world[n]) { // instances.go
				if t, ok := p.pickMesh(d, *gn.Mesh, m, meshes, o, dir, tMesh); ok && t < tMesh {
					meshNode, tMesh = n, t
				}
			}
		}
	}
	if nodeLines == nil {
		return meshNode
	}

	// The inside of a shown collider or trigger counts as solid: the
	// nearer of it and the mesh hit is the candidate, except that a mesh
	// inside the collider that wraps it wins (a click on the visible mesh
	// means the mesh).
	solid, tSolid := meshNode, tMesh
	if v, ok := pickVolume(d, nodes, world, meshes, nodeLines, o, dir); ok {
		switch {
		case meshNode < 0:
			solid, tSolid = v.node, v.t
		case v.t < tMesh && !insideVolume(d, v.shape, world[v.node], o.Add(dir.Mul(tMesh))):
			solid, tSolid = v.node, v.t
		}
	}

	vp := proj.Mul4(view)
	// A line as far as this still wins over the solid hit.
	limit := math.Inf(1)
	if solid >= 0 {
		limit = tSolid + tolPx*PixelSize(view, proj, o.Add(dir.Mul(tSolid)), h)
	}
	lineNode, lineD, lineT := -1, math.Inf(1), math.Inf(1)
	for _, n := range nodes {
		ls := nodeLines(n)
		if len(ls) == 0 {
			continue
		}
		if lo, hi := p.lineBox(n, ls); !boxMayBeNear(lo, hi, vp, x, y, w, h, tolPx) {
			continue
		}
		for _, l := range ls {
			a, b := vec3(l.A), vec3(l.B)
			sd, ok := segmentScreenDistance(vp, a, b, x, y, w, h)
			if !ok || sd > tolPx || sd > lineD {
				continue
			}
			t := raySegmentDepth(o, dir, a, b)
			if t > limit || (sd == lineD && t >= lineT) {
				continue
			}
			lineNode, lineD, lineT = n, sd, t
		}
	}
	if lineNode >= 0 {
		return lineNode
	}
	return solid
}

// PickLines returns the collider and trigger lines of node n as the cache's
// last Update built them: what a click should test, as PickNode's nodeLines
// (func(n int) []Line { return c.PickLines(n) }). Nil when n is out of range.
func (c *Cache) PickLines(n int) []Line {
	if n < 0 || n >= len(c.nodes) {
		return nil
	}
	col, trig := c.nodes[n][Colliders], c.nodes[n][Triggers]
	switch {
	case len(trig) == 0:
		return col
	case len(col) == 0:
		return trig
	}
	return append(col[:len(col):len(col)], trig...)
}

// pickMesh returns the ray distance to the nearest triangle of mesh m placed
// with matrix world, if it is nearer than limit.
func (p *Picker) pickMesh(d *scene.Document, m int, world mgl64.Mat4, meshes MeshSource, o, dir mgl64.Vec3, limit float64) (float64, bool) {
	if m < 0 || m >= len(d.GLTF.Meshes) {
		return 0, false
	}
	inv := world.Inv()
	if !finiteMat(inv) || inv == (mgl64.Mat4{}) {
		return 0, false
	}
	// In mesh space with the direction not normalised, the ray parameter is
	// still the world distance.
	ro := inv.Mul4x1(o.Vec4(1)).Vec3()
	rd := inv.Mul4x1(dir.Vec4(0)).Vec3()
	if lo, hi, ok := meshBounds(d.GLTF, m); ok {
		if t, hit := rayBox(ro, rd, lo, hi); !hit || t > limit {
			return 0, false
		}
	}
	tris, err := meshes.MeshTriangles(m)
	if err != nil {
		return 0, false
	}
	best, found := limit, false
	test := func(tris [][3]mgl64.Vec3) {
		for _, tri := range tris {
			if t, ok := rayTriangle(ro, rd, tri); ok && t < best {
				best, found = t, true
			}
		}
	}
	if p == nil || len(tris) < 4*chunkSize {
		test(tris)
		return best, found
	}
	// Runs of consecutive triangles lie close together in real meshes: test
	// each run's box before its triangles.
	for i, b := range p.chunks(m, tris) {
		if t, hit := rayBox(ro, rd, b[0], b[1]); hit && t <= best {
			test(tris[i*chunkSize : min((i+1)*chunkSize, len(tris))])
		}
	}
	return best, found
}

// chunkSize is how many consecutive triangles share one box in a Picker.
const chunkSize = 32

// meshChunks is the remembered boxes of a mesh's runs of triangles.
type meshChunks struct {
	data  *[3]mgl64.Vec3
	n     int
	boxes [][2]mgl64.Vec3
}

// chunks returns the boxes of each run of chunkSize triangles of mesh m,
// remembered for as long as tris is the same slice.
func (p *Picker) chunks(m int, tris [][3]mgl64.Vec3) [][2]mgl64.Vec3 {
	if c, ok := p.meshes[m]; ok && c.data == &tris[0] && c.n == len(tris) {
		return c.boxes
	}
	boxes := make([][2]mgl64.Vec3, 0, (len(tris)+chunkSize-1)/chunkSize)
	for i := 0; i < len(tris); i += chunkSize {
		lo, hi := tris[i][0], tris[i][0]
		for _, tri := range tris[i:min(i+chunkSize, len(tris))] {
			for _, v := range tri {
				for k := 0; k < 3; k++ {
					lo[k], hi[k] = math.Min(lo[k], v[k]), math.Max(hi[k], v[k])
				}
			}
		}
		boxes = append(boxes, [2]mgl64.Vec3{lo, hi})
	}
	if p.meshes == nil {
		p.meshes = map[int]*meshChunks{}
	}
	p.meshes[m] = &meshChunks{data: &tris[0], n: len(tris), boxes: boxes}
	return boxes
}

// meshBounds returns the bounds of mesh m from its POSITION accessors' min
// and max (which glTF requires); ok is false when any primitive lacks them.
func meshBounds(doc *gltf.Document, m int) (lo, hi mgl64.Vec3, ok bool) {
	lo = mgl64.Vec3{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi = lo.Mul(-1)
	for _, p := range doc.Meshes[m].Primitives {
		i, has := p.Attributes[gltf.POSITION]
		if !has || i < 0 || i >= len(doc.Accessors) {
			return lo, hi, false
		}
		// Normalized (quantized) positions declare min and max as stored.
		bl, bh, ok := scene.PositionBounds(doc.Accessors[i])
		if !ok {
			return lo, hi, false
		}
		for k := 0; k < 3; k++ {
			lo[k] = math.Min(lo[k], bl[k])
			hi[k] = math.Max(hi[k], bh[k])
		}
	}
	return lo, hi, finiteVec(lo) && finiteVec(hi)
}

// rayBox returns where the ray o + t*d (t >= 0) enters the box
// [lo, hi] (0 when o is inside), and whether it meets the box at all.
func rayBox(o, d, lo, hi mgl64.Vec3) (float64, bool) {
	t0, t1 := 0.0, math.Inf(1)
	for k := 0; k < 3; k++ {
		if d[k] == 0 {
			if o[k] < lo[k] || o[k] > hi[k] {
				return 0, false
			}
			continue
		}
		a, b := (lo[k]-o[k])/d[k], (hi[k]-o[k])/d[k]
		if a > b {
			a, b = b, a
		}
		t0, t1 = math.Max(t0, a), math.Min(t1, b)
		if t0 > t1 {
			return 0, false
		}
	}
	return t0, true
}

// rayTriangle intersects the ray o + t*d with a triangle, either side facing
// (Moller-Trumbore); it returns t > 0 of the hit.
func rayTriangle(o, d mgl64.Vec3, tri [3]mgl64.Vec3) (float64, bool) {
	e1, e2 := tri[1].Sub(tri[0]), tri[2].Sub(tri[0])
	p := d.Cross(e2)
	det := e1.Dot(p)
	if det == 0 || math.IsNaN(det) {
		return 0, false
	}
	inv := 1 / det
	s := o.Sub(tri[0])
	u := s.Dot(p) * inv
	if u < 0 || u > 1 {
		return 0, false
	}
	q := s.Cross(e1)
	v := d.Dot(q) * inv
	if v < 0 || u+v > 1 {
		return 0, false
	}
	t := e2.Dot(q) * inv
	return t, t > 0
}

// lineBox returns the bounding box of node n's lines ls, remembered by p
// (when not nil) for as long as ls is the same slice.
func (p *Picker) lineBox(n int, ls []Line) (lo, hi [3]float32) {
	var b *lineBounds
	if p != nil {
		if n >= len(p.bounds) {
			p.bounds = append(p.bounds, make([]lineBounds, n+1-len(p.bounds))...)
		}
		b = &p.bounds[n]
		if b.data == &ls[0] && b.n == len(ls) {
			return b.lo, b.hi
		}
	}
	lo0, lo1, lo2 := ls[0].A[0], ls[0].A[1], ls[0].A[2]
	hi0, hi1, hi2 := lo0, lo1, lo2
	for i := range ls {
		l := &ls[i]
		for _, q := range [2]*[3]float32{&l.A, &l.B} {
			if q[0] < lo0 {
				lo0 = q[0]
			} else if q[0] > hi0 {
				hi0 = q[0]
			}
			if q[1] < lo1 {
				lo1 = q[1]
			} else if q[1] > hi1 {
				hi1 = q[1]
			}
			if q[2] < lo2 {
				lo2 = q[2]
			} else if q[2] > hi2 {
				hi2 = q[2]
			}
		}
	}
	lo, hi = [3]float32{lo0, lo1, lo2}, [3]float32{hi0, hi1, hi2}
	if b != nil {
		*b = lineBounds{data: &ls[0], n: len(ls), lo: lo, hi: hi}
	}
	return lo, hi
}

// boxMayBeNear reports whether the screen rectangle of the box [lo, hi],
// grown by tol pixels, holds the pixel: when not, no line inside the box
// can be near it. A box reaching behind the camera may always be near.
func boxMayBeNear(lo, hi [3]float32, vp mgl64.Mat4, x, y, w, h, tol float64) bool {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i := 0; i < 8; i++ {
		c := mgl64.Vec3{float64(lo[0]), float64(lo[1]), float64(lo[2])}
		for k := 0; k < 3; k++ {
			if i&(1<<k) != 0 {
				c[k] = float64(hi[k])
			}
		}
		sx, sy, ok := ScreenPoint(vp, c, w, h)
		if !ok {
			return true
		}
		x0, y0, x1, y1 = math.Min(x0, sx), math.Min(y0, sy), math.Max(x1, sx), math.Max(y1, sy)
	}
	return x >= x0-tol && x <= x1+tol && y >= y0-tol && y <= y1+tol
}

// segmentScreenDistance returns the distance in pixels from (x, y) to the
// screen image of segment ab, clipped to the near plane; ok is false when
// the segment lies wholly behind it.
func segmentScreenDistance(vp mgl64.Mat4, a, b mgl64.Vec3, x, y, w, h float64) (float64, bool) {
	ca, cb := vp.Mul4x1(a.Vec4(1)), vp.Mul4x1(b.Vec4(1))
	// Distance in front of the near plane (z > -w in GL clip space).
	da, db := ca[2]+ca[3], cb[2]+cb[3]
	if da < 0 && db < 0 {
		return 0, false
	}
	if da < 0 {
		ca = ca.Add(cb.Sub(ca).Mul(da / (da - db)))
	} else if db < 0 {
		cb = cb.Add(ca.Sub(cb).Mul(db / (db - da)))
	}
	if !(ca[3] > 0) || !(cb[3] > 0) {
		return 0, false
	}
	ax, ay := (ca[0]/ca[3]+1)/2*w, (1-ca[1]/ca[3])/2*h
	bx, by := (cb[0]/cb[3]+1)/2*w, (1-cb[1]/cb[3])/2*h
	ex, ey := bx-ax, by-ay
	u := 0.0
	if l2 := ex*ex + ey*ey; l2 > 0 {
		u = mgl64.Clamp(((x-ax)*ex+(y-ay)*ey)/l2, 0, 1)
	}
	dist := math.Hypot(ax+u*ex-x, ay+u*ey-y)
	return dist, !math.IsNaN(dist)
}

// raySegmentDepth returns the ray parameter (distance from o along unit
// dir) of the ray's point nearest to segment ab.
func raySegmentDepth(o, dir, a, b mgl64.Vec3) float64 {
	e := b.Sub(a)
	ee := e.Dot(e)
	if ee == 0 {
		return a.Sub(o).Dot(dir)
	}
	// Closest points of the two lines, the segment's clamped to [0, 1]; then
	// the ray's point nearest to that segment point.
	w := a.Sub(o)
	bd := dir.Dot(e)
	den := ee - bd*bd
	s := 0.0
	if den > 1e-12*ee {
		s = mgl64.Clamp((bd*w.Dot(dir)-w.Dot(e))/den, 0, 1)
	}
	return a.Add(e.Mul(s)).Sub(o).Dot(dir)
}

func vec3(p [3]float32) mgl64.Vec3 {
	return mgl64.Vec3{float64(p[0]), float64(p[1]), float64(p[2])}
}

func finiteVec(v mgl64.Vec3) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// NodeBounds is the box around the debug lines of node n and its
// descendants (colliders, triggers, joints, gravity arrows): what framing
// a node without a mesh shows (a trigger, a gravity field, a compound's
// parts, the child node a fit makes). ok is false when they draw nothing.
func (c *Cache) NodeBounds(n int) (lo, hi mgl64.Vec3, ok bool) {
	if n < 0 || n >= len(c.nodes) {
		return lo, hi, false
	}
	inf := math.Inf(1)
	lo, hi = mgl64.Vec3{inf, inf, inf}, mgl64.Vec3{-inf, -inf, -inf}
	add := func(m int) {
		if m < 0 || m >= len(c.nodes) {
			return
		}
		for _, ls := range c.nodes[m] {
			for _, l := range ls {
				for _, p := range [2][3]float32{l.A, l.B} {
					for k := 0; k < 3; k++ {
						v := float64(p[k])
						if math.IsNaN(v) || math.IsInf(v, 0) {
							continue
						}
						lo[k], hi[k] = math.Min(lo[k], v), math.Max(hi[k], v)
						ok = true
					}
				}
			}
		}
	}
	seen := map[int]bool{}
	var walk func(m int)
	walk = func(m int) {
		if seen[m] { // a cycle in a broken file
			return
		}
		seen[m] = true
		add(m)
		for _, ch := range c.doc.Children(m) {
			walk(ch)
		}
	}
	walk(n)
	return lo, hi, ok
}
