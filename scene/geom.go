package scene

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Geometry of shapes in their canonical local space (centred on the node,
// +Y the axis of capsules and cylinders). Convex and trimesh shapes are
// approximated by the bounding box of their mesh, which the caller passes.

// Contains reports whether local point p is inside (or on) the shape.
// meshMin and meshMax bound a convex or trimesh shape's mesh.
func (s Shape) Contains(p mgl64.Vec3, meshMin, meshMax mgl64.Vec3) bool {
	return s.Distance(p, meshMin, meshMax) <= 1e-9
}

// Distance returns the signed distance from local point p to the shape's
// surface: negative inside.
func (s Shape) Distance(p mgl64.Vec3, meshMin, meshMax mgl64.Vec3) float64 {
	if k := kindOf(s.Type); k.distance != nil {
		return k.distance(s, p, meshMin, meshMax)
	}
	return math.Inf(1)
}

// Nearest returns the point of the solid shape nearest to local point p
// (p itself when it is inside).
func (s Shape) Nearest(p mgl64.Vec3, meshMin, meshMax mgl64.Vec3) mgl64.Vec3 {
	if k := kindOf(s.Type); k.nearest != nil {
		return k.nearest(s, p, meshMin, meshMax)
	}
	// Capsules, cylinders and the others: walk down the distance gradient.
	q := p
	for i := 0; i < 64; i++ {
		d := s.Distance(q, meshMin, meshMax)
		if d <= 1e-9 {
			break
		}
		q = q.Sub(gradient(func(x mgl64.Vec3) float64 { return s.Distance(x, meshMin, meshMax) }, q).Mul(d))
	}
	return q
}

func clampBox(p, lo, hi mgl64.Vec3) mgl64.Vec3 {
	for k := 0; k < 3; k++ {
		p[k] = math.Max(lo[k], math.Min(hi[k], p[k]))
	}
	return p
}

func gradient(f func(mgl64.Vec3) float64, p mgl64.Vec3) mgl64.Vec3 {
	const h = 1e-6
	g := mgl64.Vec3{}
	for k := 0; k < 3; k++ {
		a, b := p, p
		a[k] += h
		b[k] -= h
		g[k] = (f(a) - f(b)) / (2 * h)
	}
	if l := g.Len(); l > 0 {
		return g.Mul(1 / l)
	}
	return g
}

func boxDistance(p, h mgl64.Vec3) float64 {
	q := mgl64.Vec3{math.Abs(p[0]) - h[0], math.Abs(p[1]) - h[1], math.Abs(p[2]) - h[2]}
	outside := mgl64.Vec3{math.Max(q[0], 0), math.Max(q[1], 0), math.Max(q[2], 0)}.Len()
	inside := math.Min(math.Max(q[0], math.Max(q[1], q[2])), 0)
	return outside + inside
}

// roundConeDistance is the exact distance to a tapered capsule: caps of
// radius rb at y = -h/2 and ra at y = +h/2 (Inigo Quilez's sdRoundCone).
func roundConeDistance(p mgl64.Vec3, h, rb, ra float64) float64 {
	if h <= 0 || math.Abs(rb-ra) >= h {
		// One cap holds the other: a sphere.
		if ra >= rb+h {
			return p.Sub(mgl64.Vec3{0, h / 2, 0}).Len() - ra
		}
		return p.Sub(mgl64.Vec3{0, -h / 2, 0}).Len() - rb
	}
	y := p[1] + h/2
	q := mgl64.Vec2{math.Hypot(p[0], p[2]), y}
	b := (rb - ra) / h
	a := math.Sqrt(1 - b*b)
	k := q.Dot(mgl64.Vec2{-b, a})
	if k < 0 {
		return q.Len() - rb
	}
	if k > a*h {
		return q.Sub(mgl64.Vec2{0, h}).Len() - ra
	}
	return q.Dot(mgl64.Vec2{a, b}) - rb
}

// coneDistance is the distance to a capped cone (cylinder with radius rb at
// y = -h/2 and ra at y = +h/2), exact outside and inside (iq's sdCappedCone).
func coneDistance(p mgl64.Vec3, h, rb, ra float64) float64 {
	hh := h / 2
	q := mgl64.Vec2{math.Hypot(p[0], p[2]), p[1]}
	k1 := mgl64.Vec2{ra, hh}
	k2 := mgl64.Vec2{ra - rb, 2 * hh}
	r := rb
	if q[1] > 0 {
		r = ra
	}
	ca := mgl64.Vec2{q[0] - math.Min(q[0], r), math.Abs(q[1]) - hh}
	t := mgl64.Clamp(k1.Sub(q).Dot(k2)/k2.Dot(k2), 0, 1)
	cb := q.Sub(k1).Add(k2.Mul(t))
	s := 1.0
	if cb[0] < 0 && ca[1] < 0 {
		s = -1
	}
	return s * math.Sqrt(math.Min(ca.Dot(ca), cb.Dot(cb)))
}
