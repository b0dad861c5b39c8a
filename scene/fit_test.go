package scene

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/internal/testcorpus"
)

// testdata/fit/meshes.gltf (embedded buffer):
//
//	node 0 "Crate"     mesh 0: a 2 x 4 x 6 box centred at (1, 0, 0), indexed,
//	                   POSITION min/max; the node is moved, turned and scaled
//	node 1 "Pillar"    mesh 1: a 1 x 3 x 0.5 box centred at (0, 1.5, -1), not
//	                   indexed, no min/max (the bounds are computed)
//	node 2 "Dots"      mesh 2: three POINTS, no triangles
//	node 3 "Empty"     no mesh
//	node 4 "Quad"      mesh 3: a flat 2 x 2 quad in the XZ plane
//	node 5 "Two parts" mesh 4: boxes [-1,0]x[-1,1]x[-1,1] and [0,3]x[-1,2]x[-1,1]
//	                   plus a POINTS primitive at (50..60) that does not count
const fitFixture = "testdata/fit/meshes.gltf"

func TestFitShape(t *testing.T) {
	d := mustLoad(t, fitFixture)
	box := func(x, y, z float64) Shape { s := DefaultShape(ShapeBox); s.Size = [3]float64{x, y, z}; return s }
	sphere := func(r float64) Shape { s := DefaultShape(ShapeSphere); s.Radius = r; return s }
	capsule := func(h, r float64) Shape {
		s := DefaultShape(ShapeCapsule)
		s.Height, s.RadiusTop, s.RadiusBottom = h, r, r
		return s
	}
	cylinder := func(h, r float64) Shape {
		s := DefaultShape(ShapeCylinder)
		s.Height, s.RadiusTop, s.RadiusBottom = h, r, r
		return s
	}
	mesh := func(t ShapeType, m int) Shape { s := DefaultShape(t); s.Mesh = m; return s }
	zero := mgl64.Vec3{}
	cases := []struct {
		node   int
		t      ShapeType
		want   Shape
		offset mgl64.Vec3
	}{
		{0, ShapeBox, box(2, 4, 6), mgl64.Vec3{1, 0, 0}},
		{0, ShapeSphere, sphere(3), mgl64.Vec3{1, 0, 0}},
		// Radius 3 from the Z extent: 4 - 2*3 < 0, so the capsule is a sphere.
		{0, ShapeCapsule, capsule(0, 3), mgl64.Vec3{1, 0, 0}},
		{0, ShapeCylinder, cylinder(4, 3), mgl64.Vec3{1, 0, 0}},
		{0, ShapeConvex, mesh(ShapeConvex, 0), zero},
		{0, ShapeTrimesh, mesh(ShapeTrimesh, 0), zero},
		{1, ShapeBox, box(1, 3, 0.5), mgl64.Vec3{0, 1.5, -1}},
		{1, ShapeSphere, sphere(1.5), mgl64.Vec3{0, 1.5, -1}},
		{1, ShapeCapsule, capsule(2, 0.5), mgl64.Vec3{0, 1.5, -1}},
		{1, ShapeCylinder, cylinder(3, 0.5), mgl64.Vec3{0, 1.5, -1}},
		{1, ShapeConvex, mesh(ShapeConvex, 1), zero},
		{4, ShapeBox, box(2, MinFitSize, 2), zero},
		{4, ShapeSphere, sphere(1), zero},
		{4, ShapeCapsule, capsule(0, 1), zero},
		{4, ShapeCylinder, cylinder(MinFitSize, 1), zero},
		{4, ShapeTrimesh, mesh(ShapeTrimesh, 3), zero},
		{5, ShapeBox, box(4, 3, 2), mgl64.Vec3{1, 0.5, 0}},
		{5, ShapeSphere, sphere(2), mgl64.Vec3{1, 0.5, 0}},
		{5, ShapeCapsule, capsule(0, 2), mgl64.Vec3{1, 0.5, 0}},
		{5, ShapeCylinder, cylinder(3, 2), mgl64.Vec3{1, 0.5, 0}},
	}
	for _, c := range cases {
		t.Run(d.GLTF.Nodes[c.node].Name+"/"+c.t.String(), func(t *testing.T) {
			got, off, err := d.FitShape(c.node, c.t)
			if err != nil {
				t.Fatal(err)
			}
			if got.Type != c.want.Type || got.Size != c.want.Size || got.Radius != c.want.Radius || got.Height != c.want.Height ||
				got.RadiusTop != c.want.RadiusTop || got.RadiusBottom != c.want.RadiusBottom || got.Mesh != c.want.Mesh {
				t.Errorf("shape %+v, want %+v", got, c.want)
			}
			if off != c.offset {
				t.Errorf("offset %v, want %v", off, c.offset)
			}
			// The shape is valid as it is.
			var fs findings
			got.validate("/shape", &fs, len(d.GLTF.Meshes))
			for _, f := range fs {
				if f.Severity == Error {
					t.Errorf("fitted shape is invalid: %v", f)
				}
			}
		})
	}
}

// TestFitShapeHoldsTheMesh: a fitted box, moved by the offset, holds every
// vertex of the mesh and touches it; a fitted cylinder spans the same Y
// range, and its radius reaches the farthest vertex along X or Z.
func TestFitShapeHoldsTheMesh(t *testing.T) {
	d := mustLoad(t, fitFixture)
	for _, n := range []int{0, 1, 5} {
		m := *d.GLTF.Nodes[n].Mesh
		var pts []mgl64.Vec3
		for p := range d.GLTF.Meshes[m].Primitives {
			pd, err := d.ReadPrimitive(m, p)
			if err != nil {
				t.Fatal(err)
			}
			if pd.Mode != DrawTriangles {
				continue
			}
			for _, v := range pd.Positions {
				pts = append(pts, mgl64.Vec3{float64(v[0]), float64(v[1]), float64(v[2])})
			}
		}
		box, off, err := d.FitShape(n, ShapeBox)
		if err != nil {
			t.Fatal(err)
		}
		cyl, coff, err := d.FitShape(n, ShapeCylinder)
		if err != nil {
			t.Fatal(err)
		}
		if coff != off {
			t.Errorf("node %d: cylinder offset %v, box offset %v", n, coff, off)
		}
		onSurface, maxY, maxXZ := 0, 0.0, 0.0
		for _, p := range pts {
			q := p.Sub(off)
			dist := box.Distance(q, mgl64.Vec3{}, mgl64.Vec3{})
			if dist > 1e-9 {
				t.Errorf("node %d: vertex %v is %g outside the box", n, p, dist)
			}
			if dist > -1e-9 {
				onSurface++
			}
			maxY = math.Max(maxY, math.Abs(q[1]))
			maxXZ = math.Max(maxXZ, math.Max(math.Abs(q[0]), math.Abs(q[2])))
		}
		if onSurface == 0 {
			t.Errorf("node %d: no vertex on the box's surface, the box is loose", n)
		}
		if cyl.Height != 2*maxY || cyl.RadiusTop != maxXZ || cyl.RadiusBottom != maxXZ {
			t.Errorf("node %d: cylinder height %g radii %g %g, want height %g radius %g", n, cyl.Height, cyl.RadiusTop, cyl.RadiusBottom, 2*maxY, maxXZ)
		}
	}
}

func TestFitShapeErrors(t *testing.T) {
	d := mustLoad(t, fitFixture)
	cases := []struct {
		node int
		t    ShapeType
		want []string
	}{
		{3, ShapeBox, []string{`node 3 "Empty"`, "no mesh"}},
		{3, ShapeTrimesh, []string{`node 3 "Empty"`, "no mesh"}},
		{2, ShapeSphere, []string{`node 2 "Dots"`, "mesh 2 has no triangles"}},
		{2, ShapeConvex, []string{`node 2 "Dots"`, "mesh 2 has no triangles"}},
		{99, ShapeBox, []string{"node 99 does not exist"}},
		{-1, ShapeBox, []string{"node -1 does not exist"}},
		{0, 0, []string{`node 0 "Crate"`, "unknown"}},
	}
	for _, c := range cases {
		_, _, err := d.FitShape(c.node, c.t)
		if err == nil {
			t.Errorf("node %d %v: no error", c.node, c.t)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("node %d %v: error %q does not say %q", c.node, c.t, err, w)
			}
		}
	}
}

// TestFitShapeCorpus fits a box to every mesh node of the corpus models:
// a node whose mesh has triangles gets a box with finite, positive sizes
// that holds the mesh's first primitive; the others get an error, never a
// panic.
func TestFitShapeCorpus(t *testing.T) {
	fitted, refused := 0, 0
	for _, rel := range testcorpus.Models(t, ".gltf", ".glb") {
		path := filepath.Join(testcorpus.Dir(t), filepath.FromSlash(rel))
		if fi, err := os.Stat(path); err != nil || fi.Size() > 20<<20 {
			continue
		}
		d, err := Load(path)
		if err != nil {
			continue
		}
		for n, node := range d.GLTF.Nodes {
			if node.Mesh == nil {
				continue
			}
			s, off, err := d.FitShape(n, ShapeBox)
			if err != nil {
				refused++
				t.Logf("%s: %v", rel, err)
				continue
			}
			fitted++
			for k, v := range s.Size {
				if !(v >= MinFitSize) || math.IsInf(v, 0) || math.IsNaN(off[k]) || math.IsInf(off[k], 0) {
					t.Errorf("%s node %d: box %v offset %v", rel, n, s.Size, off)
				}
			}
			pd, err := d.ReadPrimitive(*node.Mesh, 0)
			if err != nil || pd.Mode != DrawTriangles {
				continue
			}
			for _, v := range pd.Positions {
				p := mgl64.Vec3{float64(v[0]), float64(v[1]), float64(v[2])}.Sub(off)
				// The file's min and max may be rounded: allow a little.
				if dist := s.Distance(p, mgl64.Vec3{}, mgl64.Vec3{}); dist > 1e-4*(1+s.Size[0]+s.Size[1]+s.Size[2]) {
					t.Errorf("%s node %d: vertex %v is %g outside the fitted box %v", rel, n, v, dist, s.Size)
					break
				}
			}
		}
	}
	t.Logf("fitted %d mesh nodes, %d refused", fitted, refused)
}

// TestFitShapeShortNumbers: bounds whose sums carry binary noise in float64
// (0.3 + 0.6 = 0.8999999999999999) give the numbers a person would write,
// so a saved file says 0.45, not 0.44999999999999996.
func TestFitShapeShortNumbers(t *testing.T) {
	d, err := Decode([]byte(`{"asset":{"version":"2.0"},"nodes":[{"mesh":0}],
		"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
		"accessors":[{"componentType":5126,"count":3,"type":"VEC3","min":[-0.1,0.1,0.3],"max":[0.06049678,0.7,0.6]}]}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	s, off, err := d.FitShape(0, ShapeBox)
	if err != nil {
		t.Fatal(err)
	}
	if want := (mgl64.Vec3{-0.01975161, 0.4, 0.45}); off != want {
		t.Errorf("offset %v, want %v", off, want)
	}
	if want := [3]float64{0.16049678, 0.6, 0.3}; s.Size != want {
		t.Errorf("size %v, want %v", s.Size, want)
	}
	c, _, err := d.FitShape(0, ShapeCylinder)
	if err != nil {
		t.Fatal(err)
	}
	if c.Height != 0.6 || c.RadiusTop != 0.15 {
		t.Errorf("cylinder height %v radius %v, want 0.6 and 0.15", c.Height, c.RadiusTop)
	}
}

// TestFitAlongLongestAxis: a capsule or cylinder fitted by FitColliderEdit
// lies along the mesh's longest extent. On a mesh long along Z or X (a
// fox, a log) it goes on a child node turned to put the shape's Y there,
// and spans the mesh's length; its radius is half the larger of the other
// two extents. A mesh tallest along Y keeps an upright shape.
func TestFitAlongLongestAxis(t *testing.T) {
	for _, c := range []struct {
		node int
		axis int        // the mesh's longest extent
		size mgl64.Vec3 // the mesh's extents
	}{
		{0, 2, mgl64.Vec3{2, 4, 6}},
		{5, 0, mgl64.Vec3{4, 3, 2}},
		{1, 1, mgl64.Vec3{1, 3, 0.5}},
	} {
		for _, typ := range []ShapeType{ShapeCapsule, ShapeCylinder} {
			d := mustLoad(t, fitFixture)
			name := fmt.Sprintf("%s/%s", d.GLTF.Nodes[c.node].Name, typ)
			e, err := d.FitColliderEdit(c.node, typ, false)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Apply(d, e); err != nil {
				t.Fatal(err)
			}
			child := len(d.GLTF.Nodes) - 1
			if d.Parent(child) != c.node || d.Nodes[child].Body == nil || d.Nodes[child].Body.Collider == nil {
				t.Fatalf("%s: no child node with a collider", name)
			}
			s := d.Shapes[d.Nodes[child].Body.Collider.Shape]
			tr := d.NodeTransform(child)
			q := mgl64.Quat{W: tr.Rotation[3], V: mgl64.Vec3{tr.Rotation[0], tr.Rotation[1], tr.Rotation[2]}}
			along := q.Rotate(mgl64.Vec3{0, 1, 0})
			var want mgl64.Vec3
			want[c.axis] = 1
			if along.Sub(want).Len() > 1e-12 {
				t.Errorf("%s: the shape's axis points along %v, want %v", name, along, want)
			}
			length := s.Height
			if typ == ShapeCapsule {
				length += s.RadiusTop + s.RadiusBottom
			}
			across := math.Max(c.size[(c.axis+1)%3], c.size[(c.axis+2)%3])
			if math.Abs(length-c.size[c.axis]) > 1e-9 || math.Abs(2*s.RadiusTop-across) > 1e-9 || s.RadiusTop != s.RadiusBottom {
				t.Errorf("%s: length %g and radius %g, want %g and %g", name, length, s.RadiusTop, c.size[c.axis], across/2)
			}
			if got := e.Name(); (c.axis != 1) != strings.Contains(got, "(along ") {
				t.Errorf("%s: the edit is named %q", name, got)
			}
		}
	}
}

// TestFitConvexSimplifies: "Fit convex to the mesh" over a mesh whose hull
// has far more than 64 vertices writes a hull mesh of at most 64 (or the
// number asked for) that keeps nearly all of the hull's volume; the saved
// file has no OMI_HULL_TOO_MANY_POINTS finding, the render mesh is kept,
// and undo takes the hull mesh away again.
func TestFitConvexSimplifies(t *testing.T) {
	for _, tc := range []struct{ file string }{{"torus.gltf"}} {
		t.Run(tc.file, func(t *testing.T) {
			path := copyFixture(t, tc.file)
			d, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			pts, _, err := d.MeshTriangles(*d.GLTF.Nodes[1].Mesh)
			if err != nil {
				t.Fatal(err)
			}
			full, err := ConvexHull(pts)
			if err != nil {
				t.Fatal(err)
			}
			if len(full.Points) <= DefaultFitConvexVertices {
				t.Fatalf("the fixture's hull has %d vertices: it proves nothing", len(full.Points))
			}
			for _, tc := range []struct {
				max       int
				minVolume float64
			}{{0, 0.9}, {16, 0.5}} {
				max := tc.max
				d, err := Load(path)
				if err != nil {
					t.Fatal(err)
				}
				meshes := len(d.GLTF.Meshes)
				e, err := d.FitConvexEdit(1, max, false)
				if err != nil {
					t.Fatal(err)
				}
				var h History
				if _, err := h.Do(d, e); err != nil {
					t.Fatal(err)
				}
				want := max
				if want == 0 {
					want = DefaultFitConvexVertices
				}
				s := d.Shapes[d.Nodes[1].Body.Collider.Shape]
				if s.Type != ShapeConvex || s.Mesh != meshes {
					t.Fatalf("max %d: collider %v on mesh %d, want convex on the new mesh %d", max, s.Type, s.Mesh, meshes)
				}
				hp, _, err := d.MeshTriangles(s.Mesh)
				if err != nil {
					t.Fatal(err)
				}
				hull, err := ConvexHull(hp)
				if err != nil {
					t.Fatal(err)
				}
				if len(hull.Points) > want || len(hull.Points) < 8 {
					t.Errorf("max %d: the hull mesh has %d vertices, want at most %d", max, len(hull.Points), want)
				}
				if r := hull.Volume() / full.Volume(); r < tc.minVolume || r > 1+1e-9 {
					t.Errorf("max %d: the reduced hull holds %.3f of the full hull's volume", max, r)
				}
				out := filepath.Join(t.TempDir(), "out"+filepath.Ext(path))
				if err := d.Save(out); err != nil {
					t.Fatal(err)
				}
				again, err := Load(out)
				if err != nil {
					t.Fatal(err)
				}
				for _, f := range again.Findings() {
					if f.Code == "OMI_HULL_TOO_MANY_POINTS" || f.Severity == Error {
						t.Errorf("max %d: the saved file has %v", max, f)
					}
				}
				if _, ok := h.Undo(d); !ok || len(d.GLTF.Meshes) != meshes {
					t.Errorf("max %d: after undo %d meshes, want %d", max, len(d.GLTF.Meshes), meshes)
				}
			}
		})
	}
}
