package sim

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
	"physview/sim/ode"
)

// rotXMinus90 turns ODE's capsule and cylinder axis (+Z) onto OMI's (+Y).
var rotXMinus90 = mgl64.QuatRotate(-math.Pi/2, mgl64.Vec3{1, 0, 0})

// collider is one shape placed in the world, before it becomes a geom.
type collider struct {
	node, shape int
	trigger     bool
	filter      int
	material    int
}

func (s *Sim) makeGeoms(nodes []int) error {
	d := s.Doc
	base := map[int]int{} // trigger shape node -> base trigger node
	for _, n := range nodes {
		if b := d.Nodes[n].Body; b != nil && b.Trigger != nil && b.Trigger.Nodes != nil {
			for _, c := range b.Trigger.Nodes {
				base[c] = n
			}
		}
	}
	seen := map[int]bool{}
	bits := s.filterBits()
	for _, n := range nodes {
		b := d.Nodes[n].Body
		if b == nil || (b.Collider != nil || b.Trigger != nil) && s.disabled(n) {
			continue
		}
		if c := b.Collider; c != nil && c.Shape >= 0 && c.Shape < len(d.Shapes) && !s.skipped(c.Shape) {
			if err := s.makeGeom(collider{n, c.Shape, false, c.CollisionFilter, c.PhysicsMaterial}, bits, -1); err != nil {
				return err
			}
		}
		if t := b.Trigger; t != nil && t.Nodes == nil && t.Shape >= 0 && t.Shape < len(d.Shapes) && !s.skipped(t.Shape) {
			bn, ok := base[n]
			if !ok {
				bn = n
			}
			if !seen[bn] {
				seen[bn] = true
				s.Triggers = append(s.Triggers, bn)
			}
			if err := s.makeGeom(collider{n, t.Shape, true, t.CollisionFilter, -1}, bits, bn); err != nil {
				return err
			}
		}
	}
	return nil
}

// filterBits numbers every collision system named in the document: bit 0
// is for geoms without a filter, each system name gets the next bit.
func (s *Sim) filterBits() map[string]uint64 {
	bits := map[string]uint64{}
	next := 1
	for _, f := range s.Doc.CollisionFilters {
		for _, l := range [][]string{f.CollisionSystems, f.CollideWithSystems, f.NotCollideWithSystems} {
			for _, name := range l {
				if _, ok := bits[name]; ok {
					continue
				}
				if next >= 64 {
					s.warnf("more than 63 collision systems: %q and later ones share the last bit", name)
					bits[name] = 1 << 63
					continue
				}
				bits[name] = 1 << next
				next++
			}
		}
	}
	return bits
}

func (s *Sim) surface(c collider, bits map[string]uint64, owner int) ode.Surface {
	d := s.Doc
	sf := ode.Surface{Friction: 0.6, Trigger: c.trigger, Owner: owner, Category: 1, Collide: ^uint64(0)}
	if c.material >= 0 && c.material < len(d.PhysicsMaterials) {
		m := d.PhysicsMaterials[c.material]
		sf.Friction, sf.Restitution = m.DynamicFriction, m.Restitution
		sf.FrictionCombine, sf.RestitutionCombine = combineMode(m.FrictionCombine), combineMode(m.RestitutionCombine)
		if m.StaticFriction != m.DynamicFriction {
			s.warnf("%s has one friction coefficient: dynamic friction is used, static friction ignored (material %d)", s.engineLabel(), c.material)
		}
	}
	if c.filter >= 0 && c.filter < len(d.CollisionFilters) {
		f := d.CollisionFilters[c.filter]
		sf.Category = 0
		for _, n := range f.CollisionSystems {
			sf.Category |= bits[n]
		}
		if len(f.CollisionSystems) == 0 {
			sf.Category = 1
		}
		switch {
		case f.CollideWithSystems != nil:
			sf.Collide = 0
			for _, n := range f.CollideWithSystems {
				sf.Collide |= bits[n]
			}
		case f.NotCollideWithSystems != nil:
			for _, n := range f.NotCollideWithSystems {
				sf.Collide &^= bits[n]
			}
		}
	}
	return sf
}

func combineMode(s string) int {
	switch s {
	case "minimum":
		return ode.CombineMinimum
	case "multiply":
		return ode.CombineMultiply
	case "maximum":
		return ode.CombineMaximum
	}
	return ode.CombineAverage
}

// makeGeom turns one collider or trigger shape into an ODE geom, attached
// to the body that moves its node or static. triggerBase is the base
// trigger node for a trigger shape.
func (s *Sim) makeGeom(c collider, bits map[string]uint64, triggerBase int) error {
	d := s.Doc
	shape := s.shape(c.shape) // sizes of 0 thickened (degenerate.go)
	owner := s.byNode[d.BodyNode(c.node)]
	bi, moving := s.byNode[d.BodyNode(c.node)]
	if !moving {
		owner = -1
	}
	if c.trigger {
		owner = triggerBase
	}
	dynamic := moving && !c.trigger && s.Bodies[bi].Type == scene.MotionDynamic
	if shape.Type == scene.ShapeHeightmap && dynamic {
		return fmt.Errorf("node %q (node %d): a heightmap collider on dynamic body %q: %s cannot collide a moving triangle mesh reliably; make the body static or kinematic",
			nodeName(d, c.node), c.node, s.Bodies[bi].Name, s.engineLabel())
	}
	if shape.Type == scene.ShapeTrimesh && dynamic {
		// ODE collides a moving triangle mesh unreliably (it tunnels and
		// sticks), so the body plays with the hull of its surface, and
		// Play says so: better a scene that falls than one that refuses
		// (decision 21 asks for a warning, not a refusal).
		s.warnf("node %q: the %s collider on dynamic body %q is played as its convex hull (%s cannot collide a moving triangle mesh reliably); fit a convex compound to keep its hollows",
			nodeName(d, c.node), shape.Type, s.Bodies[bi].Name, s.engineLabel())
		shape.Type = scene.ShapeConvex
	}
	sf := s.surface(c, bits, owner)
	if moving {
		sf.Pass = s.pass[bi]
	}
	var g engineGeom
	var extra mgl64.Quat
	var err error
	var centre mgl64.Vec3 // of a convex hull, in the node's axes
	if shape.Type == scene.ShapeConvex {
		g, centre, err = s.centredConvexGeom(shape, s.world[c.node], sf)
		extra = mgl64.QuatIdent()
	} else {
		g, extra, err = s.shapeGeom(shape, s.world[c.node], sf)
	}
	if err != nil {
		return fmt.Errorf("node %q (node %d), shape %d: %w", nodeName(d, c.node), c.node, c.shape, err)
	}
	t, r, _ := rigid(s.world[c.node])
	t = t.Add(r.Mul3x1(centre))
	q := quatOf(r).Mul(extra)
	if !moving {
		g.SetPosition(t)
		g.SetRotation(xyzw(q))
		if !c.trigger {
			s.staticGeoms[c.node] = append(s.staticGeoms[c.node], g)
		}
		return nil
	}
	b := s.Bodies[bi]
	bt, br, _ := rigid(s.world[b.Node])
	bpos := bt.Add(br.Mul3x1(b.com))
	bq := quatOf(br)
	g.SetBody(b.body)
	g.SetOffset(bq.Inverse().Rotate(t.Sub(bpos)), xyzw(bq.Inverse().Mul(q)))
	return nil
}

// shapeGeom makes the geom for shape under world matrix m (whose scale is
// applied to the shape's parameters) and returns the rotation to add after
// the node's for ODE's Z-axis capsules and cylinders.
func (s *Sim) shapeGeom(sh scene.Shape, m mgl64.Mat4, sf ode.Surface) (engineGeom, mgl64.Quat, error) {
	_, _, sc := rigid(m)
	ident := mgl64.QuatIdent()
	maxXZ := math.Max(sc[0], sc[2])
	switch sh.Type {
	case scene.ShapeBox:
		g, err := s.w.NewBox(sh.Size[0]*sc[0], sh.Size[1]*sc[1], sh.Size[2]*sc[2], sf)
		return g, ident, err
	case scene.ShapeSphere:
		g, err := s.w.NewSphere(sh.Radius*math.Max(maxXZ, sc[1]), sf)
		return g, ident, err
	case scene.ShapeCapsule, scene.ShapeCylinder:
		if sh.RadiusTop == sh.RadiusBottom {
			r, h := sh.RadiusTop*maxXZ, sh.Height*sc[1]
			var g engineGeom
			var err error
			if sh.Type == scene.ShapeCapsule {
				g, err = s.w.NewCapsule(r, h, sf)
			} else {
				g, err = s.w.NewCylinder(r, h, sf)
			}
			return g, rotXMinus90, err
		}
		s.warnf("tapered %s (radii %.4g and %.4g): %s has no tapered shapes, played as the convex hull of its surface", sh.Type, sh.RadiusTop, sh.RadiusBottom, s.engineLabel())
		g, err := s.convexGeom(scaled(taperedPoints(sh), sc), sf)
		return g, ident, err
	case scene.ShapeConvex:
		pts, _, err := s.meshPoints(sh.Mesh)
		if err != nil {
			return nil, ident, err
		}
		g, err := s.convexGeom(scaled(pts, sc), sf)
		return g, ident, err
	case scene.ShapeTrimesh:
		pts, idx, err := s.meshPoints(sh.Mesh)
		if err != nil {
			return nil, ident, err
		}
		var v []float64
		for _, p := range scaled(pts, sc) {
			v = append(v, p[0], p[1], p[2])
		}
		g, err := s.w.NewTriMesh(v, idx, sf)
		return g, ident, err
	case scene.ShapeGeneral, scene.ShapePlane, scene.ShapeRay:
		// ODE has none of G4MF's kinds: a general shape is played as the
		// convex hull of its surface (exact for exponents of 2 and above up
		// to the sampling), a plane as a 2 km slab below it, a ray as a thin
		// bar along it.
		if sh.Type != scene.ShapeGeneral {
			s.warnf("%s shape played as a thin convex slab", sh.Type)
		}
		g, err := s.convexGeom(scaled(g4Points(sh), sc), sf)
		return g, ident, err
	case scene.ShapeHeightmap:
		pts := g4Points(sh)
		nx, nz := int(sh.Size[0]), int(sh.Size[2])
		var v []float64
		for _, p := range scaled(pts, sc) {
			v = append(v, p[0], p[1], p[2])
		}
		var idx []uint32
		for k := 0; k+1 < nz; k++ {
			for i := 0; i+1 < nx; i++ {
				a := uint32(k*nx + i)
				idx = append(idx, a, a+uint32(nx), a+1, a+1, a+uint32(nx), a+uint32(nx)+1)
			}
		}
		if len(idx) == 0 {
			return nil, ident, fmt.Errorf("heightmap of %d x %d samples has no triangles", nx, nz)
		}
		g, err := s.w.NewTriMesh(v, idx, sf)
		return g, ident, err
	}
	return nil, ident, fmt.Errorf("unknown shape type %v", sh.Type)
}

// g4Points returns points whose convex hull is a G4MF shape (for a
// heightmap: its grid samples, row by row along X), nil for other kinds.
func g4Points(sh scene.Shape) []mgl64.Vec3 {
	switch sh.Type {
	case scene.ShapeGeneral:
		g, ok := sh.General()
		if !ok {
			return nil
		}
		// Support points in directions spread evenly over the sphere
		// (a Fibonacci lattice).
		const n = 400
		pts := make([]mgl64.Vec3, 0, n)
		golden := math.Pi * (3 - math.Sqrt(5))
		for i := 0; i < n; i++ {
			y := 1 - 2*(float64(i)+0.5)/n
			r := math.Sqrt(1 - y*y)
			a := golden * float64(i)
			p, _ := g.Support(mgl64.Vec3{r * math.Cos(a), y, r * math.Sin(a)})
			pts = append(pts, p)
		}
		return pts
	case scene.ShapePlane:
		// A finite plane (sizeX, sizeZ) is a slab of its size.
		hx, hz := 1000.0, 1000.0
		if sh.Size[0] > 0 {
			hx = sh.Size[0] / 2
		}
		if sh.Size[2] > 0 {
			hz = sh.Size[2] / 2
		}
		return boxPoints(mgl64.Vec3{-hx, -1, -hz}, mgl64.Vec3{hx, 0, hz})
	case scene.ShapeRay:
		l := sh.Length
		if !(l > 0) {
			l = 1
		}
		w := l * 0.005
		return boxPoints(mgl64.Vec3{-w, -l, -w}, mgl64.Vec3{w, 0, w})
	case scene.ShapeHeightmap:
		nx, nz := int(sh.Size[0]), int(sh.Size[2])
		var pts []mgl64.Vec3
		for k := 0; k < nz; k++ {
			for i := 0; i < nx; i++ {
				pts = append(pts, sh.HeightmapPoint(i, k))
			}
		}
		return pts
	}
	return nil
}

func boxPoints(lo, hi mgl64.Vec3) []mgl64.Vec3 {
	var out []mgl64.Vec3
	for i := 0; i < 8; i++ {
		p := lo
		for k := 0; k < 3; k++ {
			if i&(1<<k) != 0 {
				p[k] = hi[k]
			}
		}
		out = append(out, p)
	}
	return out
}

func scaled(pts []mgl64.Vec3, sc mgl64.Vec3) []mgl64.Vec3 {
	out := make([]mgl64.Vec3, len(pts))
	for i, p := range pts {
		out[i] = mgl64.Vec3{p[0] * sc[0], p[1] * sc[1], p[2] * sc[2]}
	}
	return out
}

func (s *Sim) convexGeom(pts []mgl64.Vec3, sf ode.Surface) (engineGeom, error) {
	h, err := convexHull(pts)
	if err != nil {
		return nil, err
	}
	planes, points, polys := odeArrays(h)
	return s.w.NewConvex(planes, points, polys, sf)
}

// taperedPoints samples the surface of a tapered capsule (two cap spheres)
// or cylinder (two rings) along +Y.
func taperedPoints(sh scene.Shape) []mgl64.Vec3 {
	var pts []mgl64.Vec3
	h := sh.Height / 2
	ring := func(y, r float64) {
		for i := 0; i < 24; i++ {
			a := 2 * math.Pi * float64(i) / 24
			pts = append(pts, mgl64.Vec3{r * math.Cos(a), y, r * math.Sin(a)})
		}
	}
	if sh.Type == scene.ShapeCylinder {
		ring(h, sh.RadiusTop)
		ring(-h, sh.RadiusBottom)
		return pts
	}
	for _, c := range []struct{ y, r float64 }{{h, sh.RadiusTop}, {-h, sh.RadiusBottom}} {
		for j := -3; j <= 3; j++ {
			lat := float64(j) * math.Pi / 8
			ring(c.y+c.r*math.Sin(lat), c.r*math.Cos(lat))
		}
		pts = append(pts, mgl64.Vec3{0, c.y + c.r, 0}, mgl64.Vec3{0, c.y - c.r, 0})
	}
	return pts
}

// meshPoints reads the triangles of mesh m: positions and indices.
func (s *Sim) meshPoints(m int) ([]mgl64.Vec3, []uint32, error) {
	d := s.Doc
	if m < 0 || m >= len(d.GLTF.Meshes) {
		return nil, nil, fmt.Errorf("mesh %d does not exist", m)
	}
	var pts []mgl64.Vec3
	var idx []uint32
	for p := range d.GLTF.Meshes[m].Primitives {
		pd, err := d.ReadPrimitive(m, p)
		if err != nil {
			return nil, nil, err
		}
		if pd.Mode != scene.DrawTriangles {
			continue
		}
		off := uint32(len(pts))
		for _, v := range pd.Positions {
			pts = append(pts, mgl64.Vec3{float64(v[0]), float64(v[1]), float64(v[2])})
		}
		if pd.Indices != nil {
			for _, i := range pd.Indices {
				idx = append(idx, off+i)
			}
		} else {
			for i := range pd.Positions {
				idx = append(idx, off+uint32(i))
			}
		}
	}
	if len(idx) < 3 {
		return nil, nil, fmt.Errorf("mesh %d has no triangles", m)
	}
	return pts, idx, nil
}

// colliderNodes returns the nodes with a collider of a valid shape that
// belong to body node b, in node order. Every node is grouped once a
// build: each body scanning every node made building 20,000 bodies take
// 10 s.
func (s *Sim) colliderNodes(b int) []int {
	if s.parts == nil {
		d := s.Doc
		s.parts = map[int][]int{}
		for n := range d.Nodes {
			body := d.Nodes[n].Body
			if body == nil || body.Collider == nil || body.Collider.Shape < 0 || body.Collider.Shape >= len(d.Shapes) {
				continue
			}
			bn := d.BodyNode(n)
			s.parts[bn] = append(s.parts[bn], n)
		}
	}
	return s.parts[b]
}

// shapeInertia computes a body's inertia about its centre of mass from its
// colliders, as if its mass were spread evenly through them. A body with no
// collider gets that of a solid sphere of 0.5 m.
func (s *Sim) shapeInertia(b *Body) mgl64.Mat3 {
	d := s.Doc
	type part struct {
		vol float64
		I   mgl64.Mat3 // per unit mass, about the shape centre, in body axes
		p   mgl64.Vec3 // shape centre relative to the centre of mass, body axes
	}
	var parts []part
	total := 0.0
	bt, br, _ := rigid(s.world[b.Node])
	com := bt.Add(br.Mul3x1(b.com))
	for _, n := range s.colliderNodes(b.Node) {
		body := d.Nodes[n].Body
		if s.skipped(body.Collider.Shape) || s.disabled(n) {
			continue
		}
		sh := s.shape(body.Collider.Shape)
		t, r, sc := rigid(s.world[n])
		if sh.Type == scene.ShapeConvex || sh.Type == scene.ShapeTrimesh {
			// A convex part: its hull's own volume, centre and inertia; a
			// trimesh of a dynamic body plays as its hull (makeGeom).
			if pts, _, err := s.meshPoints(sh.Mesh); err == nil {
				if h, err := convexHull(scaled(pts, sc)); err == nil {
					if vol, c, I := hullMass(h); vol > 0 {
						rel := br.Transpose().Mul3(r)
						parts = append(parts, part{vol, rel.Mul3(I).Mul3(rel.Transpose()), br.Transpose().Mul3x1(t.Add(r.Mul3x1(c)).Sub(com))})
						total += vol
						continue
					}
				}
			}
		}
		vol, I := unitInertia(sh, sc, func() []mgl64.Vec3 {
			if pts := g4Points(sh); pts != nil {
				return scaled(pts, sc)
			}
			pts, _, err := s.meshPoints(sh.Mesh)
			if err != nil {
				return nil
			}
			return scaled(pts, sc)
		})
		if vol <= 0 {
			continue
		}
		rel := br.Transpose().Mul3(r)
		parts = append(parts, part{vol, rel.Mul3(I).Mul3(rel.Transpose()), br.Transpose().Mul3x1(t.Sub(com))})
		total += vol
	}
	if total == 0 {
		s.warnf("body %q has no collider: its inertia is that of a solid sphere of 0.5 m", b.Name)
		return mgl64.Diag3(mgl64.Vec3{1, 1, 1}).Mul(0.4 * b.Mass * 0.25)
	}
	var sum mgl64.Mat3
	for _, p := range parts {
		m := b.Mass * p.vol / total
		shift := mgl64.Diag3(mgl64.Vec3{1, 1, 1}).Mul(p.p.Dot(p.p)).Sub(outer(p.p, p.p))
		sum = sum.Add(p.I.Mul(m)).Add(shift.Mul(m))
	}
	return sum
}

func outer(a, b mgl64.Vec3) mgl64.Mat3 {
	var m mgl64.Mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			m.Set(i, j, a[i]*b[j])
		}
	}
	return m
}

// unitInertia returns a shape's volume and its inertia per unit mass about
// its centre in shape axes (+Y the axis of capsules and cylinders). Convex
// and trimesh shapes use their bounding box.
func unitInertia(sh scene.Shape, sc mgl64.Vec3, points func() []mgl64.Vec3) (float64, mgl64.Mat3) {
	box := func(x, y, z float64) (float64, mgl64.Mat3) {
		return x * y * z, mgl64.Diag3(mgl64.Vec3{y*y + z*z, x*x + z*z, x*x + y*y}).Mul(1.0 / 12)
	}
	maxXZ := math.Max(sc[0], sc[2])
	switch sh.Type {
	case scene.ShapeBox:
		return box(sh.Size[0]*sc[0], sh.Size[1]*sc[1], sh.Size[2]*sc[2])
	case scene.ShapeSphere:
		r := sh.Radius * math.Max(maxXZ, sc[1])
		return 4.0 / 3 * math.Pi * r * r * r, mgl64.Diag3(mgl64.Vec3{1, 1, 1}).Mul(0.4 * r * r)
	case scene.ShapeCylinder:
		r, h := (sh.RadiusTop+sh.RadiusBottom)/2*maxXZ, sh.Height*sc[1]
		a := (3*r*r + h*h) / 12
		return math.Pi * r * r * h, mgl64.Diag3(mgl64.Vec3{a, r * r / 2, a})
	case scene.ShapeCapsule:
		r, h := (sh.RadiusTop+sh.RadiusBottom)/2*maxXZ, sh.Height*sc[1]
		vc, vs := math.Pi*r*r*h, 4.0/3*math.Pi*r*r*r
		iy := vc*r*r/2 + vs*0.4*r*r
		ix := vc*(h*h/12+r*r/4) + vs*(0.4*r*r+h*h/4+3*h*r/8)
		v := vc + vs
		return v, mgl64.Diag3(mgl64.Vec3{ix / v, iy / v, ix / v})
	case scene.ShapeConvex, scene.ShapeTrimesh, scene.ShapeGeneral, scene.ShapePlane, scene.ShapeRay, scene.ShapeHeightmap:
		pts := points()
		if len(pts) == 0 {
			return 0, mgl64.Mat3{}
		}
		lo, hi := pts[0], pts[0]
		for _, p := range pts {
			for k := 0; k < 3; k++ {
				lo[k], hi[k] = math.Min(lo[k], p[k]), math.Max(hi[k], p[k])
			}
		}
		e := hi.Sub(lo)
		return box(e[0], e[1], e[2])
	}
	return 0, mgl64.Mat3{}
}

// setupGravity decides how gravity is found each step: one constant vector
// when the scene has no gravity fields, otherwise scene.NetGravity at each
// body's centre of mass.
func (s *Sim) setupGravity() {
	d := s.Doc
	s.chooseGravity()
	fields := d.GravityNodes()
	if len(fields) == 0 {
		g := d.NetGravityWith(s.world, mgl64.Vec3{}, s.worldG)
		s.constG = &g
		return
	}
	for _, n := range fields {
		if _, ok := s.byNode[d.BodyNode(n)]; ok {
			s.moveGrav = true
		}
	}
}

// gravityForces fills s.forces with mass * gravity * gravityFactor for
// each dynamic body.
func (s *Sim) gravityForces() {
	if s.moveGrav {
		s.Apply()
		s.world = s.Doc.WorldMatrices()
	}
	for i, b := range s.Bodies {
		f := mgl64.Vec3{}
		if b.Type == scene.MotionDynamic && b.GravityFactor != 0 {
			var g mgl64.Vec3
			if s.constG != nil {
				g = *s.constG
			} else {
				g = s.Doc.NetGravityWith(s.world, b.CenterOfMass, s.worldG)
			}
			f = g.Mul(b.Mass * b.GravityFactor)
		}
		s.forces[3*i], s.forces[3*i+1], s.forces[3*i+2] = f[0], f[1], f[2]
	}
}
