package scene

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"

	"physview/scene/decompose"
)

// MinFitSize is the smallest extent, radius or cylinder height FitShape
// gives: a flat mesh (a quad) still gets a valid box.
const MinFitSize = 0.001

// FitShape returns a shape of type t that fits the mesh of node n, in the
// node's local space (the space the mesh's positions are in), as Godot's
// "create collision shape" actions do:
//
//   - box: the size of the mesh's bounding box;
//   - sphere: radius half the longest extent (a ball mesh gets its own
//     radius);
//   - capsule and cylinder, along Y: radius half the larger of the X and Z
//     extents (both radii equal); a cylinder's full height is the Y extent,
//     a capsule's mid height the Y extent minus twice the radius (at least 0);
//   - convex and trimesh: the node's mesh itself (Mesh = its index).
//
// Extents, radii and the cylinder height are at least MinFitSize.
//
// Primitive shapes are centred on their node, the bounds need not be: offset
// is the centre of the bounds in the node's space. A non-zero offset means
// the shape must sit on a child node at that translation; the caller decides.
// Convex and trimesh shapes use the mesh's own coordinates, so their offset
// is zero.
//
// Only triangle primitives count (strips and fans included). The bounds come
// from the POSITION accessors' min and max when present, otherwise from the
// positions. It is an error when n does not exist, has no mesh, or its mesh
// has no triangles.
func (d *Document) FitShape(n int, t ShapeType) (Shape, mgl64.Vec3, error) {
	s, off, _, err := d.fitShape(n, t, 1)
	return s, off, err
}

// fitShape is FitShape with the capsule or cylinder along axis (0 X, 1 Y,
// 2 Z) of the node's space: the extents along Y and along axis trade
// places, so the shape fits a node rotated to put its Y on that axis (see
// axisRotation). An axis below 0 picks the mesh's longest extent (Y unless
// another is longer by more than 5%, so a near-cube stays upright); the
// axis used is returned.
func (d *Document) fitShape(n int, t ShapeType, axis int) (Shape, mgl64.Vec3, int, error) {
	if n < 0 || n >= len(d.GLTF.Nodes) {
		return Shape{}, mgl64.Vec3{}, 1, fmt.Errorf("fit %s: node %d does not exist", t, n)
	}
	name := nodeLabel(d.GLTF.Nodes[n], n)
	if t.String() == "unknown" {
		return Shape{}, mgl64.Vec3{}, 1, fmt.Errorf("fit to %s: shape type %d is unknown", name, int(t))
	}
	if d.GLTF.Nodes[n].Mesh == nil {
		return Shape{}, mgl64.Vec3{}, 1, fmt.Errorf("fit %s to %s: the node has no mesh", t, name)
	}
	m := *d.GLTF.Nodes[n].Mesh
	if m < 0 || m >= len(d.GLTF.Meshes) {
		return Shape{}, mgl64.Vec3{}, 1, fmt.Errorf("fit %s to %s: mesh %d does not exist", t, name, m)
	}
	lo, hi, err := d.triangleBounds(m)
	if err != nil {
		return Shape{}, mgl64.Vec3{}, 1, fmt.Errorf("fit %s to %s: %w", t, name, err)
	}
	s := DefaultShape(t)
	k := kindOf(t)
	if k.usesMesh {
		s.Mesh = m
		return s, mgl64.Vec3{}, 1, nil
	}
	size := hi.Sub(lo)
	if t != ShapeCapsule && t != ShapeCylinder {
		axis = 1
	} else if axis < 0 {
		axis = 1
		for _, a := range []int{0, 2} {
			if size[a] > 1.05*size[1] && size[a] >= size[2-a] {
				axis = a
			}
		}
	}
	size[1], size[axis] = size[axis], size[1]
	if k.fitSize != nil {
		k.fitSize(&s, size)
	}
	// The bounds are float32 values widened to float64: their sums and
	// halves carry binary noise (-0.01975160999999992) that a saved file
	// should not, so keep 12 significant digits.
	for i := range s.Size {
		s.Size[i] = RoundSig(s.Size[i], 12)
	}
	s.Radius, s.Height = RoundSig(s.Radius, 12), RoundSig(s.Height, 12)
	s.RadiusTop, s.RadiusBottom = RoundSig(s.RadiusTop, 12), RoundSig(s.RadiusBottom, 12)
	off := lo.Add(hi).Mul(0.5)
	for i := range off {
		off[i] = RoundSig(off[i], 12)
	}
	return s, off, axis, nil
}

// axisRotation is the rotation (x, y, z, w) that turns a node's Y axis onto
// axis (0 X, 1 Y, 2 Z): -90° about Z for X, +90° about X for Z. The other
// two axes land where fitShape's swapped extents expect them.
func axisRotation(axis int) [4]float64 {
	h := math.Sqrt2 / 2
	switch axis {
	case 0:
		return [4]float64{0, 0, -h, h}
	case 2:
		return [4]float64{h, 0, 0, h}
	}
	return [4]float64{0, 0, 0, 1}
}

// fitMin keeps a fitted size or radius at least MinFitSize.
func fitMin(v float64) float64 { return math.Max(v, MinFitSize) }

// nodeLabel names a node in messages: its index and, if it has one, its name.
func nodeLabel(node *gltf.Node, n int) string {
	if node != nil && node.Name != "" {
		return fmt.Sprintf("node %d %q", n, node.Name)
	}
	return fmt.Sprintf("node %d", n)
}

// triangleBounds returns the bounds of the triangle primitives of mesh m,
// from the POSITION accessors' min and max where present.
func (d *Document) triangleBounds(m int) (lo, hi mgl64.Vec3, err error) {
	doc := d.GLTF
	lo = mgl64.Vec3{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi = lo.Mul(-1)
	found := false
	for p, prim := range doc.Meshes[m].Primitives {
		switch prim.Mode {
		case gltf.PrimitiveTriangles, gltf.PrimitiveTriangleStrip, gltf.PrimitiveTriangleFan:
		default:
			continue
		}
		pi, ok := prim.Attributes[gltf.POSITION]
		if !ok || pi < 0 || pi >= len(doc.Accessors) {
			continue
		}
		pos := doc.Accessors[pi]
		count := pos.Count
		if prim.Indices != nil {
			if i := *prim.Indices; i >= 0 && i < len(doc.Accessors) {
				count = doc.Accessors[i].Count
			}
		}
		if count < 3 {
			continue
		}
		pl, ph := mgl64.Vec3{}, mgl64.Vec3{}
		if bl, bh, ok := PositionBounds(pos); ok {
			pl, ph = bl, bh
		} else {
			pd, err := d.ReadPrimitive(m, p)
			if err != nil {
				return lo, hi, err
			}
			if len(pd.Positions) == 0 {
				continue
			}
			for k := 0; k < 3; k++ {
				pl[k], ph[k] = float64(pd.Min[k]), float64(pd.Max[k])
			}
		}
		for k := 0; k < 3; k++ {
			lo[k], hi[k] = math.Min(lo[k], pl[k]), math.Max(hi[k], ph[k])
		}
		found = true
	}
	if !found {
		return lo, hi, fmt.Errorf("mesh %d has no triangles", m)
	}
	for k := 0; k < 3; k++ {
		if math.IsNaN(lo[k]) || math.IsInf(lo[k], 0) || math.IsNaN(hi[k]) || math.IsInf(hi[k], 0) || lo[k] > hi[k] {
			return lo, hi, fmt.Errorf("mesh %d has bounds that are not finite numbers (%v to %v)", m, lo, hi)
		}
	}
	return lo, hi, nil
}

// DefaultFitConvexVertices is how many vertices a convex collider fitted
// to a mesh keeps at most unless asked otherwise: as the compound fit's
// hulls, well under OMI's 255 (OMI_HULL_TOO_MANY_POINTS).
const DefaultFitConvexVertices = 64

// FitConvexEdit gives node n a convex collider (or trigger) fitted to its
// mesh: the convex hull of the mesh's triangle vertices reduced to at most
// maxVertices (4 to 255; 0 means DefaultFitConvexVertices), written as a
// new mesh of its own (the render mesh stays as it is, and engines get a
// hull they accept). A mesh whose hull already has no more vertices than
// that still gets its own hull mesh, so the shape never carries the render
// mesh's thousands of vertices. One edit; undo removes the mesh too.
func (d *Document) FitConvexEdit(n int, maxVertices int, trigger bool) (Edit, error) {
	if maxVertices == 0 {
		maxVertices = DefaultFitConvexVertices
	}
	if maxVertices < 4 || maxVertices > decompose.MaxVertexCap {
		return nil, fmt.Errorf("fit convex: at most %d vertices is out of range (4 to %d)", maxVertices, decompose.MaxVertexCap)
	}
	s, _, _, err := d.fitShape(n, ShapeConvex, 1)
	if err != nil {
		return nil, err
	}
	name := nodeLabel(d.GLTF.Nodes[n], n)
	pts, _, err := d.MeshTriangles(s.Mesh)
	if err != nil {
		return nil, fmt.Errorf("fit convex to %s: %w", name, err)
	}
	full, err := ConvexHull(pts)
	if err != nil {
		return nil, fmt.Errorf("fit convex to %s: %w", name, err)
	}
	h := full
	if len(full.Points) > maxVertices {
		r, err := decompose.ReduceHull(full.Points, maxVertices, DecomposeHull)
		if err != nil {
			return nil, fmt.Errorf("fit convex to %s: %w", name, err)
		}
		h = (*Hull)(r)
	}
	kind := "collider"
	if trigger {
		kind = "trigger"
	}
	label := fmt.Sprintf("Fit convex %s to mesh (%d vertices)", kind, len(h.Points))
	geo := d.hullGeometry([]*Hull{h})
	geo.label = label
	s.Mesh = len(d.GLTF.Meshes)
	add := d.AddColliderEdit(n, s)
	if trigger {
		add = d.AddTriggerEdit(n, s)
	}
	return Batch{Label: label, Edits: []Edit{geo, add}}, nil
}
