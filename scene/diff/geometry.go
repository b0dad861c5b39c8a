package diff

import (
	"crypto/sha256"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"

	"physview/scene"
)

// Geometry is compared per primitive of matched meshes, on the decoded
// positions (after Draco, meshopt and dequantization): counts, bounds and
// the largest distance a triangle corner moved.

// primGeom is what is compared of one primitive.
type primGeom struct {
	vertices, indices int
	// corners are the positions of the triangle (or point/line) corners in
	// draw order: what is drawn, whatever the vertex sharing.
	corners  [][3]float32
	min, max [3]float64
	encoding string
	// raw is a hash of the stored bytes of the positions (the Draco data
	// for a Draco primitive) and their size: what tells a re-encode with
	// the same method apart.
	raw  string
	size int
	err  error
}

// encodingOf names how a primitive's positions are stored.
func encodingOf(d *scene.Document, p *gltf.Primitive) string {
	var parts []string
	if _, ok := p.Extensions["KHR_draco_mesh_compression"]; ok {
		parts = append(parts, "Draco")
	}
	if a, ok := p.Attributes[gltf.POSITION]; ok && a >= 0 && a < len(d.GLTF.Accessors) {
		acc := d.GLTF.Accessors[a]
		if acc.BufferView != nil && *acc.BufferView >= 0 && *acc.BufferView < len(d.GLTF.BufferViews) {
			ext := d.GLTF.BufferViews[*acc.BufferView].Extensions
			if _, ok := ext["EXT_meshopt_compression"]; ok {
				parts = append(parts, "meshopt")
			} else if _, ok := ext["KHR_meshopt_compression"]; ok {
				parts = append(parts, "meshopt")
			}
		}
		if acc.ComponentType != gltf.ComponentFloat && len(parts) == 0 {
			parts = append(parts, "quantized "+acc.ComponentType.String())
		} else if acc.ComponentType != gltf.ComponentFloat {
			parts = append(parts, "quantized")
		}
		if acc.Sparse != nil {
			parts = append(parts, "sparse")
		}
	}
	if len(parts) == 0 {
		return "plain"
	}
	return strings.Join(parts, "+")
}

// readGeom reads primitive p of mesh m.
func readGeom(d *scene.Document, m, p int) primGeom {
	prim := d.GLTF.Meshes[m].Primitives[p]
	g := primGeom{encoding: encodingOf(d, prim)}
	g.raw, g.size = rawPositions(d, prim)
	a, ok := prim.Attributes[gltf.POSITION]
	if !ok {
		g.err = fmt.Errorf("no POSITION")
		return g
	}
	vals, comps, err := d.AccessorFloats(a, true)
	if err != nil || comps != 3 {
		if err == nil {
			err = fmt.Errorf("POSITION has %d components", comps)
		}
		g.err = err
		return g
	}
	pos := make([][3]float32, len(vals)/3)
	for i := range pos {
		pos[i] = [3]float32{vals[3*i], vals[3*i+1], vals[3*i+2]}
	}
	g.vertices = len(pos)
	g.min = [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}
	g.max = [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for _, v := range pos {
		for k := range 3 {
			g.min[k] = math.Min(g.min[k], float64(v[k]))
			g.max[k] = math.Max(g.max[k], float64(v[k]))
		}
	}
	if len(pos) == 0 {
		g.min, g.max = [3]float64{}, [3]float64{}
	}
	if prim.Indices == nil {
		g.corners = pos
		return g
	}
	idx, err := d.AccessorIndices(*prim.Indices)
	if err != nil {
		g.err = err
		return g
	}
	g.indices = len(idx)
	g.corners = make([][3]float32, 0, len(idx))
	triangles := prim.Mode == gltf.PrimitiveTriangles
	for i := 0; i < len(idx); i++ {
		if triangles && i+2 < len(idx) {
			// A degenerate triangle draws nothing (encoders drop them).
			t := [3]uint32{idx[i], idx[i+1], idx[i+2]}
			if int(t[0]) < len(pos) && int(t[1]) < len(pos) && int(t[2]) < len(pos) {
				p0, p1, p2 := pos[t[0]], pos[t[1]], pos[t[2]]
				if near(p0, p1) || near(p1, p2) || near(p0, p2) {
					i += 2
					continue
				}
				g.corners = append(g.corners, p0, p1, p2)
			}
			i += 2
			continue
		}
		if int(idx[i]) < len(pos) {
			g.corners = append(g.corners, pos[idx[i]])
		}
	}
	return g
}

// near reports whether two corners are within Tolerance: a triangle with
// two such corners draws nothing (a pole of a UV sphere).
func near(a, b [3]float32) bool {
	dx, dy, dz := float64(a[0]-b[0]), float64(a[1]-b[1]), float64(a[2]-b[2])
	return dx*dx+dy*dy+dz*dz < Tolerance*Tolerance
}

// rawPositions hashes the stored bytes behind a primitive's positions.
func rawPositions(d *scene.Document, p *gltf.Primitive) (string, int) {
	view := -1
	if raw, ok := p.Extensions["KHR_draco_mesh_compression"]; ok {
		if m, ok := plain(raw).(map[string]any); ok {
			if f, ok := m["bufferView"].(float64); ok {
				view = int(f)
			}
		}
	} else if a, ok := p.Attributes[gltf.POSITION]; ok && a >= 0 && a < len(d.GLTF.Accessors) && d.GLTF.Accessors[a].BufferView != nil {
		view = *d.GLTF.Accessors[a].BufferView
	}
	if view < 0 || view >= len(d.GLTF.BufferViews) {
		return "", 0
	}
	bv := d.GLTF.BufferViews[view]
	if bv.Buffer < 0 || bv.Buffer >= len(d.GLTF.Buffers) || bv.ByteOffset+bv.ByteLength > len(d.GLTF.Buffers[bv.Buffer].Data) {
		return "", 0
	}
	data := d.GLTF.Buffers[bv.Buffer].Data[bv.ByteOffset : bv.ByteOffset+bv.ByteLength]
	h := sha256.Sum256(data)
	return string(h[:8]), len(data)
}

// displacement is the largest distance between corresponding corners. The
// corners are compared in draw order and, when that finds a difference,
// triangle by triangle with each one's nearest (an encoder may reorder
// triangles and vertices, as Draco's edgebreaker does); the smaller answer
// wins.
func displacement(a, b [][3]float32, triangles bool) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	direct := maxDist(a, b)
	if direct <= Tolerance || !triangles || len(a)%3 != 0 {
		return direct
	}
	return math.Min(direct, nearestDisplacement(a, b))
}

func maxDist(a, b [][3]float32) float64 {
	m := 0.0
	for i := range a {
		m = math.Max(m, dist(a[i], b[i]))
	}
	return m
}

func dist(a, b [3]float32) float64 {
	dx, dy, dz := float64(a[0]-b[0]), float64(a[1]-b[1]), float64(a[2]-b[2])
	return math.Sqrt(dx*dx + dy*dy + dz*dz)
}

type tri [3][3]float32

// triDist is the largest corner distance of two triangles, at the best of
// the three rotations that keep the winding.
func triDist(t, u tri) float64 {
	best := math.Inf(1)
	for r := range 3 {
		d := math.Max(dist(t[0], u[r]), math.Max(dist(t[1], u[(r+1)%3]), dist(t[2], u[(r+2)%3])))
		best = math.Min(best, d)
	}
	return best
}

func toTris(c [][3]float32) []tri {
	out := make([]tri, len(c)/3)
	for i := range out {
		out[i] = tri{c[3*i], c[3*i+1], c[3*i+2]}
	}
	return out
}

// nearestDisplacement is the largest distance from a triangle of either
// list to its nearest in the other (a symmetric Hausdorff distance over
// triangles), found through a grid of cells the size of the median
// triangle.
func nearestDisplacement(a, b [][3]float32) float64 {
	ta, tb := toTris(a), toTris(b)
	if len(tb) == 0 {
		return 0
	}
	sizes := make([]float64, len(tb))
	for i, t := range tb {
		sizes[i] = math.Max(dist(t[0], t[1]), math.Max(dist(t[1], t[2]), dist(t[0], t[2])))
	}
	// The median triangle's size: a few large ones must not make cells
	// that hold thousands.
	sort.Float64s(sizes)
	cell := math.Max(sizes[len(sizes)/2], Tolerance)
	key := func(t tri) [3]int64 {
		var k [3]int64
		for i := range 3 {
			k[i] = int64(math.Floor(float64(t[0][i]+t[1][i]+t[2][i]) / 3 / cell))
		}
		return k
	}
	grid := func(ts []tri) map[[3]int64][]int {
		g := map[[3]int64][]int{}
		for i, t := range ts {
			k := key(t)
			g[k] = append(g[k], i)
		}
		return g
	}
	centroid := func(t tri) [3]float32 {
		return [3]float32{(t[0][0] + t[1][0] + t[2][0]) / 3, (t[0][1] + t[1][1] + t[2][1]) / 3, (t[0][2] + t[1][2] + t[2][2]) / 3}
	}
	far := func(from, to []tri, g map[[3]int64][]int) float64 {
		worst := 0.0
		for _, t := range from {
			k, c := key(t), centroid(t)
			near := math.Inf(1)
		search:
			for dx := int64(-1); dx <= 1; dx++ {
				for dy := int64(-1); dy <= 1; dy++ {
					for dz := int64(-1); dz <= 1; dz++ {
						for _, j := range g[[3]int64{k[0] + dx, k[1] + dy, k[2] + dz}] {
							// The centroids are no farther apart than the
							// farthest corners: a cheap bound first.
							if dist(c, centroid(to[j])) >= near {
								continue
							}
							near = math.Min(near, triDist(t, to[j]))
							if near == 0 {
								break search
							}
						}
					}
				}
			}
			worst = math.Max(worst, near)
		}
		return worst
	}
	return math.Max(far(ta, tb, grid(tb)), far(tb, ta, grid(ta)))
}

// canonicalTriangles rotates each triangle to start at its smallest
// corner (keeping the winding) and sorts the triangles: an order that does
// not depend on the file's (for the summary's hash).
func canonicalTriangles(c [][3]float32) [][3]float32 {
	less := func(x, y [3]float32) bool {
		for k := range 3 {
			if x[k] != y[k] {
				return x[k] < y[k]
			}
		}
		return false
	}
	tris := make([][3][3]float32, len(c)/3)
	for i := range tris {
		t := [3][3]float32{c[3*i], c[3*i+1], c[3*i+2]}
		s := 0
		for k := 1; k < 3; k++ {
			if less(t[k], t[s]) {
				s = k
			}
		}
		tris[i] = [3][3]float32{t[s], t[(s+1)%3], t[(s+2)%3]}
	}
	sort.Slice(tris, func(i, j int) bool {
		for k := range 3 {
			if tris[i][k] != tris[j][k] {
				return less(tris[i][k], tris[j][k])
			}
		}
		return false
	})
	out := make([][3]float32, 0, len(c))
	for _, t := range tris {
		out = append(out, t[0], t[1], t[2])
	}
	return out
}

func (c *comparer) compareMeshes() {
	a, b := c.a.d, c.b.d
	for i := range a.GLTF.Meshes {
		j, ok := c.meshAB[i]
		if !ok {
			continue
		}
		ma, mb := a.GLTF.Meshes[i], b.GLTF.Meshes[j]
		name := "mesh " + meshName(b, j)
		if ma.Name != mb.Name {
			c.addDoc(Value, Changed, ptr("meshes", i, "name"), ptr("meshes", j, "name"), "mesh renamed %s → %s", meshName(a, i), meshName(b, j))
		}
		if !equalPlain(plain(ma.Weights), plain(mb.Weights)) {
			c.addDoc(Geometry, Changed, ptr("meshes", i, "weights"), ptr("meshes", j, "weights"), "%s: morph weights %s → %s", name, nums(ma.Weights), nums(mb.Weights))
		}
		if len(ma.Primitives) != len(mb.Primitives) {
			c.addDoc(Geometry, Changed, ptr("meshes", i, "primitives"), ptr("meshes", j, "primitives"), "%s: %d primitives → %d", name, len(ma.Primitives), len(mb.Primitives))
		}
		for p := range min(len(ma.Primitives), len(mb.Primitives)) {
			c.comparePrimitive(i, j, p, name)
		}
	}
}

func (c *comparer) comparePrimitive(i, j, p int, name string) {
	a, b := c.a.d, c.b.d
	pa, pb := a.GLTF.Meshes[i].Primitives[p], b.GLTF.Meshes[j].Primitives[p]
	where := fmt.Sprintf("%s primitive %d", name, p)
	ptrA, ptrB := ptr("meshes", i, "primitives", p), ptr("meshes", j, "primitives", p)
	if c.matID(c.a, optInt(pa.Material)) != c.matID(c.b, optInt(pb.Material)) {
		c.addDoc(Value, Changed, ptrA+"/material", ptrB+"/material", "%s: material %s → %s", where, matName(a, optInt(pa.Material)), matName(b, optInt(pb.Material)))
	}
	if pa.Mode != pb.Mode {
		c.addDoc(Geometry, Changed, ptrA+"/mode", ptrB+"/mode", "%s: mode %s → %s", where, pa.Mode, pb.Mode)
	}
	attrs := func(pr *gltf.Primitive) []string {
		var r []string
		for k := range pr.Attributes {
			r = append(r, k)
		}
		sort.Strings(r)
		return r
	}
	if aa, ab := attrs(pa), attrs(pb); !slices.Equal(aa, ab) {
		c.addDoc(Geometry, Changed, ptrA+"/attributes", ptrB+"/attributes", "%s: attributes %s → %s", where, strings.Join(aa, " "), strings.Join(ab, " "))
	}
	ga, gb := c.geom(c.a, i, p), c.geom(c.b, j, p)
	switch {
	case ga.err != nil || gb.err != nil:
		if (ga.err == nil) != (gb.err == nil) || ga.err.Error() != gb.err.Error() {
			c.addDoc(Geometry, Changed, ptrA, ptrB, "%s: positions cannot be compared (A: %v, B: %v)", where, errText(ga.err), errText(gb.err))
		}
		return
	}
	triangles := pa.Mode == gltf.PrimitiveTriangles
	absorbed := ""
	if nt, ok := c.nodeSpace[i]; ok {
		// The nodes' transforms took the dequantization: compare where the
		// corners are drawn, in the nodes' parent space.
		ga.corners, gb.corners = transformed(ga.corners, nt.ma), transformed(gb.corners, nt.mb)
		absorbed = fmt.Sprintf(" (node %q's transform takes the dequantization)", c.b.d.NodeName(nt.nb))
	}
	disp := displacement(ga.corners, gb.corners, triangles)
	encoding := ga.encoding != gb.encoding
	reencoded := !encoding && ga.encoding == "Draco" && ga.raw != gb.raw
	switch {
	case len(ga.corners) != len(gb.corners) && (encoding || reencoded):
		c.addDoc(Geometry, Encoding, ptrA, ptrB, "%s: encoding changed %s → %s; %d → %d corners drawn (%s → %s), bounds %s → %s", where, ga.encoding, gb.encoding, len(ga.corners), len(gb.corners), counts(ga), counts(gb), bounds(ga), bounds(gb))
	case len(ga.corners) != len(gb.corners) || (ga.vertices != gb.vertices && !encoding && !reencoded):
		c.addDoc(Geometry, Changed, ptrA, ptrB, "%s: %s → %s, bounds %s → %s", where, counts(ga), counts(gb), bounds(ga), bounds(gb))
	case disp > Tolerance:
		what := "vertices moved"
		if encoding {
			c.addDoc(Geometry, Encoding, ptrA, ptrB, "%s: encoding changed %s → %s%s; vertices moved by up to %s, bounds %s → %s", where, ga.encoding, gb.encoding, absorbed, num(disp), bounds(ga), bounds(gb))
			break
		}
		c.addDoc(Geometry, Changed, ptrA+"/attributes/POSITION", ptrB+"/attributes/POSITION", "%s: %s by up to %s, bounds %s → %s", where, what, num(disp), bounds(ga), bounds(gb))
	case encoding:
		c.addDoc(Geometry, Encoding, ptrA, ptrB, "%s: encoding changed %s → %s%s, geometry equal within %s (%s → %s)", where, ga.encoding, gb.encoding, absorbed, num(Tolerance), counts(ga), counts(gb))
	case reencoded:
		c.addDoc(Geometry, Encoding, ptrA+"/extensions/KHR_draco_mesh_compression", ptrB+"/extensions/KHR_draco_mesh_compression",
			"%s: encoding changed (Draco data re-encoded, %d → %d bytes), geometry equal within %s (%s → %s)", where, ga.size, gb.size, num(Tolerance), counts(ga), counts(gb))
	}
	c.compareMorphTargets(a, b, pa, pb, where, ptrA, ptrB)
}

// geomKey names one primitive of one side.
type geomKey struct {
	s    *side
	m, p int
}

// geom reads a primitive once per comparison.
func (c *comparer) geom(s *side, m, p int) primGeom {
	k := geomKey{s, m, p}
	if g, ok := c.geoms[k]; ok {
		return g
	}
	if c.geoms == nil {
		c.geoms = map[geomKey]primGeom{}
	}
	g := readGeom(s.d, m, p)
	c.geoms[k] = g
	return g
}

// nodeTransforms are the local matrices of a matched node pair whose mesh
// is compared in their parent space.
type nodeTransforms struct {
	na, nb int
	ma, mb mgl64.Mat4
}

func transformed(c [][3]float32, m mgl64.Mat4) [][3]float32 {
	out := make([][3]float32, len(c))
	for i, v := range c {
		p := m.Mul4x1(mgl64.Vec4{float64(v[0]), float64(v[1]), float64(v[2]), 1})
		out[i] = [3]float32{float32(p[0]), float32(p[1]), float32(p[2])}
	}
	return out
}

// findAbsorbed finds the matched node pairs whose transform changed only
// to carry a change of their mesh's encoding (glTF-Transform's quantize
// and meshopt scale and offset the node to dequantize): the corners drawn,
// in the parent's space, stay within 1/1000 of the mesh's size. Their
// transform change is not reported; the mesh's encoding change says it.
// When the node holds more than its mesh (a physics body, collider or
// trigger, children, a camera), the new transform moves and scales that
// too (glTF-Transform moves children out, but knows nothing of physics):
// the node is carried, and its transform change is reported.
func (c *comparer) findAbsorbed() {
	c.absorbed, c.carried, c.nodeSpace = map[int]bool{}, map[int]bool{}, map[int]nodeTransforms{}
	a, b := c.a.d, c.b.d
	for na := range a.GLTF.Nodes {
		nb, ok := c.nodeAB[na]
		if !ok || a.GLTF.Nodes[na].Mesh == nil || b.GLTF.Nodes[nb].Mesh == nil {
			continue
		}
		ma, mb := *a.GLTF.Nodes[na].Mesh, *b.GLTF.Nodes[nb].Mesh
		if j, ok := c.meshAB[ma]; !ok || j != mb || len(a.GLTF.Meshes[ma].Primitives) != len(b.GLTF.Meshes[mb].Primitives) {
			continue
		}
		la, lb := a.LocalMatrix(na), b.LocalMatrix(nb)
		if matApprox(la, lb) {
			continue
		}
		recoded := false
		for p := range a.GLTF.Meshes[ma].Primitives {
			recoded = recoded || encodingOf(a, a.GLTF.Meshes[ma].Primitives[p]) != encodingOf(b, b.GLTF.Meshes[mb].Primitives[p])
		}
		if !recoded {
			continue
		}
		fits := true
		for p := range a.GLTF.Meshes[ma].Primitives {
			ga, gb := c.geom(c.a, ma, p), c.geom(c.b, mb, p)
			if ga.err != nil || gb.err != nil || len(ga.corners) != len(gb.corners) {
				fits = false
				break
			}
			ta, tb := transformed(ga.corners, la), transformed(gb.corners, lb)
			size := 0.0
			if len(ta) > 0 {
				lo, hi := ta[0], ta[0]
				for _, v := range ta {
					for k := range 3 {
						lo[k], hi[k] = min(lo[k], v[k]), max(hi[k], v[k])
					}
				}
				size = math.Sqrt(float64((hi[0]-lo[0])*(hi[0]-lo[0]) + (hi[1]-lo[1])*(hi[1]-lo[1]) + (hi[2]-lo[2])*(hi[2]-lo[2])))
			}
			if displacement(ta, tb, a.GLTF.Meshes[ma].Primitives[p].Mode == gltf.PrimitiveTriangles) > 1e-3*max(size, Tolerance) {
				fits = false
				break
			}
		}
		if fits {
			if holdsMore(a, na) || holdsMore(b, nb) {
				c.carried[na] = true
			} else {
				c.absorbed[na] = true
			}
			if _, ok := c.nodeSpace[ma]; !ok {
				c.nodeSpace[ma] = nodeTransforms{na: na, nb: nb, ma: la, mb: lb}
			}
		}
	}
}

// holdsMore reports whether node n holds more than its mesh that its
// transform places: a physics body, collider, trigger or joint, children
// or a camera.
func holdsMore(d *scene.Document, n int) bool {
	node := d.GLTF.Nodes[n]
	return d.Nodes[n].Body != nil || d.Nodes[n].Joint != nil || len(node.Children) > 0 || node.Camera != nil
}

func errText(err error) string {
	if err == nil {
		return "ok"
	}
	return err.Error()
}

func optInt(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}

func counts(g primGeom) string {
	if g.indices > 0 {
		return fmt.Sprintf("%d vertices, %d indices", g.vertices, g.indices)
	}
	return fmt.Sprintf("%d vertices", g.vertices)
}

func bounds(g primGeom) string {
	return nums(g.min[:]) + "–" + nums(g.max[:])
}

// compareMorphTargets compares the primitives' morph targets: their count
// and each target's largest position offset difference.
func (c *comparer) compareMorphTargets(a, b *scene.Document, pa, pb *gltf.Primitive, where, ptrA, ptrB string) {
	if len(pa.Targets) != len(pb.Targets) {
		c.addDoc(Geometry, Changed, ptrA+"/targets", ptrB+"/targets", "%s: %d morph targets → %d", where, len(pa.Targets), len(pb.Targets))
		return
	}
	for t := range pa.Targets {
		ia, okA := pa.Targets[t][gltf.POSITION]
		ib, okB := pb.Targets[t][gltf.POSITION]
		if okA != okB {
			c.addDoc(Geometry, Changed, ptrA+fmt.Sprintf("/targets/%d", t), ptrB+fmt.Sprintf("/targets/%d", t), "%s: morph target %d POSITION added or removed", where, t)
			continue
		}
		if !okA {
			continue
		}
		va, _, errA := a.AccessorFloats(ia, true)
		vb, _, errB := b.AccessorFloats(ib, true)
		if errA != nil || errB != nil {
			continue
		}
		if len(va) != len(vb) {
			c.addDoc(Geometry, Changed, ptrA+fmt.Sprintf("/targets/%d", t), ptrB+fmt.Sprintf("/targets/%d", t), "%s: morph target %d has %d → %d offsets", where, t, len(va)/3, len(vb)/3)
			continue
		}
		m := 0.0
		for k := range va {
			m = math.Max(m, math.Abs(float64(va[k]-vb[k])))
		}
		if m > Tolerance {
			c.addDoc(Geometry, Changed, ptrA+fmt.Sprintf("/targets/%d", t), ptrB+fmt.Sprintf("/targets/%d", t), "%s: morph target %d offsets changed by up to %s", where, t, num(m))
		}
	}
}
