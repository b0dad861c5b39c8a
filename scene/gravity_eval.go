package scene

import (
	"math"
	"sort"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"
)

// MeshBounds returns the mesh-space bounding box of mesh m's positions,
// from the accessors' min and max when the file gives them.
func (d *Document) MeshBounds(m int) (lo, hi mgl64.Vec3) {
	inf := math.Inf(1)
	lo, hi = mgl64.Vec3{inf, inf, inf}, mgl64.Vec3{-inf, -inf, -inf}
	if m < 0 || m >= len(d.GLTF.Meshes) {
		return mgl64.Vec3{}, mgl64.Vec3{}
	}
	for p, prim := range d.GLTF.Meshes[m].Primitives {
		a, ok := prim.Attributes[gltf.POSITION]
		if !ok || a < 0 || a >= len(d.GLTF.Accessors) {
			continue
		}
		if bl, bh, ok := PositionBounds(d.GLTF.Accessors[a]); ok {
			for k := 0; k < 3; k++ {
				lo[k], hi[k] = math.Min(lo[k], bl[k]), math.Max(hi[k], bh[k])
			}
			continue
		}
		if pd, err := d.ReadPrimitive(m, p); err == nil {
			for k := 0; k < 3; k++ {
				lo[k], hi[k] = math.Min(lo[k], float64(pd.Min[k])), math.Max(hi[k], float64(pd.Max[k]))
			}
		}
	}
	if lo[0] > hi[0] {
		return mgl64.Vec3{}, mgl64.Vec3{}
	}
	return lo, hi
}

// Bounds returns the shape's local bounding box (mesh bounds for convex and
// trimesh shapes).
func (s Shape) Bounds(meshMin, meshMax mgl64.Vec3) (lo, hi mgl64.Vec3) {
	if k := kindOf(s.Type); k.bounds != nil {
		return k.bounds(s, meshMin, meshMax)
	}
	return mgl64.Vec3{}, mgl64.Vec3{}
}

// VolumeShapes returns the (node, shape) pairs that make up the trigger
// volume of node n: its own trigger shape, or those of its compound nodes.
func (d *Document) VolumeShapes(n int) [][2]int {
	if n < 0 || n >= len(d.Nodes) || d.Nodes[n].Body == nil || d.Nodes[n].Body.Trigger == nil {
		return nil
	}
	t := d.Nodes[n].Body.Trigger
	valid := func(s int) bool { return s >= 0 && s < len(d.Shapes) }
	if t.Nodes == nil {
		if valid(t.Shape) {
			return [][2]int{{n, t.Shape}}
		}
		return nil
	}
	var out [][2]int
	for _, c := range t.Nodes {
		if c >= 0 && c < len(d.Nodes) && d.Nodes[c].Body != nil && d.Nodes[c].Body.Trigger != nil && valid(d.Nodes[c].Body.Trigger.Shape) {
			out = append(out, [2]int{c, d.Nodes[c].Body.Trigger.Shape})
		}
	}
	return out
}

func (d *Document) shapeMeshBounds(s Shape) (mgl64.Vec3, mgl64.Vec3) {
	if s.Type.UsesMesh() {
		return d.MeshBounds(s.Mesh)
	}
	return mgl64.Vec3{}, mgl64.Vec3{}
}

// InVolume reports whether world point p lies in node n's trigger volume.
func (d *Document) InVolume(n int, world []mgl64.Mat4, p mgl64.Vec3) bool {
	for _, ns := range d.VolumeShapes(n) {
		s := d.Shapes[ns[1]]
		local := world[ns[0]].Inv().Mul4x1(p.Vec4(1)).Vec3()
		lo, hi := d.shapeMeshBounds(s)
		if s.Contains(local, lo, hi) {
			return true
		}
	}
	return false
}

// Field returns the acceleration (m/s²) of node n's gravity field at world
// point p, whether or not p is inside the field's volume.
func (d *Document) Field(n int, world []mgl64.Mat4, p mgl64.Vec3) mgl64.Vec3 {
	g := d.Nodes[n].Gravity
	if g == nil {
		return mgl64.Vec3{}
	}
	m := world[n]
	local := m.Inv().Mul4x1(p.Vec4(1)).Vec3()
	toWorld := func(v mgl64.Vec3) mgl64.Vec3 { return m.Mul4x1(v.Vec4(0)).Vec3() }
	if g.Type == GravityDirectional {
		dir := toWorld(mgl64.Vec3(g.Direction))
		if dir.Len() == 0 {
			return mgl64.Vec3{}
		}
		return dir.Normalize().Mul(g.Gravity)
	}
	var target mgl64.Vec3
	switch g.Type {
	case GravityPoint:
		target = mgl64.Vec3{}
	case GravityDisc:
		target = mgl64.Vec3{local[0], 0, local[2]}
		if l := target.Len(); l > g.Radius {
			target = target.Mul(g.Radius / l)
		}
	case GravityTorus:
		r := mgl64.Vec3{local[0], 0, local[2]}
		if l := r.Len(); l > 0 {
			target = r.Mul(g.Radius / l)
		} else {
			target = mgl64.Vec3{g.Radius, 0, 0}
		}
	case GravityLine:
		target = nearestOnPolyline(local, g.Points)
	case GravityShaped:
		if g.Shape < 0 || g.Shape >= len(d.Shapes) {
			return mgl64.Vec3{}
		}
		s := d.Shapes[g.Shape]
		lo, hi := d.shapeMeshBounds(s)
		target = s.Nearest(local, lo, hi)
	}
	v := toWorld(target.Sub(local))
	dist := v.Len()
	if dist < 1e-9 {
		return mgl64.Vec3{}
	}
	return v.Mul(g.Gravity * falloff(dist, g.UnitDistance) / dist)
}

// CoreFraction is the radius of a gravity field's solid core as a fraction
// of its unitDistance (see falloff).
const CoreFraction = 0.25

// falloff scales a field's strength at distance dist from what it pulls
// towards. A unitDistance of 0 is a constant field. Otherwise the field
// follows the inverse square law, as OMI_physics_gravity says (four times
// the strength at half the unit distance), down to a core of radius
// CoreFraction × unitDistance (16 times the strength); inside the core it
// is the field of a solid ball, falling linearly to 0 at the centre. The
// OMI text says nothing of the centre, and a bare 1/r² grows without
// bound there: a body passing through gained energy each step and left
// at many times the speed it came in with. The core field is continuous
// and conservative, so a body that falls through comes out no faster than
// it went in.
func falloff(dist, unitDistance float64) float64 {
	if unitDistance <= 0 {
		return 1
	}
	core := CoreFraction * unitDistance
	if dist >= core {
		return (unitDistance / dist) * (unitDistance / dist)
	}
	// f(r) = K (2.5 r - 1.5 r³/core²) with K = u²/core³ matches the
	// inverse square's value and slope at the core's edge (a kink there
	// costs the integrator energy at every crossing).
	k := unitDistance * unitDistance / (core * core * core)
	return k * (2.5*dist - 1.5*dist*dist*dist/(core*core))
}

func nearestOnPolyline(p mgl64.Vec3, pts [][3]float64) mgl64.Vec3 {
	if len(pts) == 0 {
		return mgl64.Vec3{}
	}
	best := mgl64.Vec3(pts[0])
	bestD := p.Sub(best).Len()
	for i := 0; i+1 < len(pts); i++ {
		a, b := mgl64.Vec3(pts[i]), mgl64.Vec3(pts[i+1])
		ab := b.Sub(a)
		t := 0.0
		if l2 := ab.Dot(ab); l2 > 0 {
			t = mgl64.Clamp(p.Sub(a).Dot(ab)/l2, 0, 1)
		}
		q := a.Add(ab.Mul(t))
		if dq := p.Sub(q).Len(); dq < bestD {
			best, bestD = q, dq
		}
	}
	return best
}

// GravityNodes returns the nodes with a gravity field, highest priority
// first (ties in node order): the order fields are combined in.
func (d *Document) GravityNodes() []int {
	var ns []int
	for i, ne := range d.Nodes {
		if ne.Gravity != nil {
			ns = append(ns, i)
		}
	}
	sort.SliceStable(ns, func(a, b int) bool { return d.Nodes[ns[a]].Gravity.Priority > d.Nodes[ns[b]].Gravity.Priority })
	return ns
}

// NetGravity returns the gravity acting at world point p: every field whose
// volume contains p, in priority order (a field with replace discards what
// came before it; one with stop ends the list, world gravity included), then
// the world gravity. world must be d.WorldMatrices(). Multiply by a body's
// gravityFactor for the acceleration of that body.
func (d *Document) NetGravity(world []mgl64.Mat4, p mgl64.Vec3) mgl64.Vec3 {
	return d.NetGravityWith(world, p, d.WorldGravity)
}

// NetGravityWith is NetGravity with wg standing for the document's world
// gravity (nil: none). Play passes a default when the file has none, so
// the default acts exactly where a world gravity would (a field with
// replace or stop overrides it) without being written into the document.
func (d *Document) NetGravityWith(world []mgl64.Mat4, p mgl64.Vec3, wg *WorldGravity) mgl64.Vec3 {
	var acc mgl64.Vec3
	for _, n := range d.GravityNodes() {
		if !d.InVolume(n, world, p) {
			continue
		}
		g := d.Nodes[n].Gravity
		f := d.Field(n, world, p)
		if g.Replace {
			acc = f
		} else {
			acc = acc.Add(f)
		}
		if g.Stop {
			return acc
		}
	}
	return acc.Add(wg.Vector())
}

// Vector returns the world gravity as an acceleration (m/s²); zero for a
// nil world gravity or one without a direction.
func (w *WorldGravity) Vector() mgl64.Vec3 {
	if w == nil || mgl64.Vec3(w.Direction).Len() == 0 {
		return mgl64.Vec3{}
	}
	return mgl64.Vec3(w.Direction).Normalize().Mul(w.Gravity)
}

// Trajectory integrates a test particle through the gravity of the scene
// (semi-implicit Euler, fixed step dt) for at most steps steps, and returns
// the positions, starting with p.
func (d *Document) Trajectory(p, v mgl64.Vec3, dt float64, steps int) []mgl64.Vec3 {
	world := d.WorldMatrices()
	out := []mgl64.Vec3{p}
	for i := 0; i < steps; i++ {
		v = v.Add(d.NetGravity(world, p).Mul(dt))
		p = p.Add(v.Mul(dt))
		if math.IsNaN(p[0]) || p.Len() > 1e9 {
			break
		}
		out = append(out, p)
	}
	return out
}

// PhysicsBounds returns the world bounding box of every collider and trigger
// shape, leaving out the boxes that stand in for infinite planes (nodes whose
// extras carry a planeSource), which would swamp it. ok is false when there
// are none.
func (d *Document) PhysicsBounds() (lo, hi mgl64.Vec3, ok bool) {
	world := d.WorldMatrices()
	inf := math.Inf(1)
	lo, hi = mgl64.Vec3{inf, inf, inf}, mgl64.Vec3{-inf, -inf, -inf}
	for n, ne := range d.Nodes {
		if ne.Body == nil || isPlaneStandIn(d.GLTF.Nodes[n].Extras) {
			continue
		}
		for _, s := range []int{colliderShape(ne.Body), triggerShape(ne.Body)} {
			if s < 0 || s >= len(d.Shapes) {
				continue
			}
			shape := d.Shapes[s]
			mlo, mhi := d.shapeMeshBounds(shape)
			blo, bhi := shape.Bounds(mlo, mhi)
			for c := 0; c < 8; c++ {
				p := mgl64.Vec3{pick(c, 0, blo, bhi), pick(c, 1, blo, bhi), pick(c, 2, blo, bhi)}
				w := world[n].Mul4x1(p.Vec4(1)).Vec3()
				for k := 0; k < 3; k++ {
					lo[k], hi[k] = math.Min(lo[k], w[k]), math.Max(hi[k], w[k])
				}
				ok = true
			}
		}
	}
	return lo, hi, ok
}

func pick(corner, axis int, lo, hi mgl64.Vec3) float64 {
	if corner&(1<<axis) != 0 {
		return hi[axis]
	}
	return lo[axis]
}

func colliderShape(b *Body) int {
	if b.Collider != nil {
		return b.Collider.Shape
	}
	return -1
}

func triggerShape(b *Body) int {
	if b.Trigger != nil && b.Trigger.Nodes == nil {
		return b.Trigger.Shape
	}
	return -1
}

func isPlaneStandIn(extras any) bool {
	m, ok := extras.(map[string]any)
	if !ok {
		return false
	}
	x, ok := m["xode"].(map[string]any)
	if !ok {
		return false
	}
	_, ok = x["planeSource"]
	return ok
}
