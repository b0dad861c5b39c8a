package decompose_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/internal/concave"
	"physview/scene"
	"physview/scene/decompose"
)

func hull(p []mgl64.Vec3) (*decompose.Hull, error) {
	h, err := scene.ConvexHull(p)
	if err != nil {
		return nil, err
	}
	return (*decompose.Hull)(h), nil
}

// quality samples n points in the box lo..hi: coverage is the share of the
// solid's points inside some part, excess the volume of points in some part
// but outside the solid, as a share of the solid's volume.
// A point of the solid within tol of a hull counts as covered (excess
// counts only points inside a hull).
func quality(parts []decompose.Part, inside func(mgl64.Vec3) bool, lo, hi mgl64.Vec3, n int, tol float64) (coverage, excess float64) {
	r := rand.New(rand.NewPCG(1, 2))
	solid, covered, outside := 0, 0, 0
	in := func(p mgl64.Vec3, eps float64) bool {
		for _, pt := range parts {
			if inHull(pt.Hull, p, eps) {
				return true
			}
		}
		return false
	}
	for i := 0; i < n; i++ {
		p := mgl64.Vec3{lo[0] + r.Float64()*(hi[0]-lo[0]), lo[1] + r.Float64()*(hi[1]-lo[1]), lo[2] + r.Float64()*(hi[2]-lo[2])}
		if inside(p) {
			solid++
			if in(p, tol) {
				covered++
			}
		} else if in(p, 0) {
			outside++
		}
	}
	return float64(covered) / float64(solid), float64(outside) / float64(solid)
}

func inHull(h *decompose.Hull, p mgl64.Vec3, eps float64) bool {
	for f := range h.Faces {
		if h.Normals[f].Dot(p)-h.Distance[f] > eps {
			return false
		}
	}
	return true
}

// box returns the mesh's bounds grown by 5% on every side.
func box(m concave.Mesh) (lo, hi mgl64.Vec3) {
	lo, hi = m.Bounds()
	g := hi.Sub(lo).Mul(0.05)
	return lo.Sub(g), hi.Add(g)
}

func TestDecomposeFixtures(t *testing.T) {
	for _, tc := range []struct {
		name string
		mesh concave.Mesh
		// empty are points of the shape's concavities no part may hold.
		empty    []mgl64.Vec3
		minParts int
	}{
		{"L", concave.L(), []mgl64.Vec3{{0.25, 1.0, 0}, {0.65, 1.4, 0}}, 2},
		{"U", concave.U(), []mgl64.Vec3{{0, 1.0, 0}, {0, 0.7, 0}, {0, 1.4, 0}, {-0.15, 1.2, -0.15}}, 3},
		{"torus", concave.Torus(), []mgl64.Vec3{{0, 0, 0}, {0.3, 0, 0}, {-0.2, 0.1, 0.3}, {0, -0.25, -0.35}}, 4},
		{"cup", concave.Cup(), []mgl64.Vec3{{0, 0.05, 0}, {0.03, 0.09, 0}, {-0.02, 0.02, 0.02}, {0, 0.099, -0.035}}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := decompose.Decompose(context.Background(), tc.mesh.Pos, tc.mesh.Tris, decompose.Options{Hull: hull})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Closed {
				t.Errorf("the closed %s counts as open", tc.name)
			}
			if len(res.Parts) < tc.minParts || len(res.Parts) > 16 {
				t.Errorf("%d parts, want %d to 16", len(res.Parts), tc.minParts)
			}
			for i, p := range res.Parts {
				if len(p.Points) > 64 {
					t.Errorf("part %d has %d vertices, over the 64 allowed", i, len(p.Points))
				}
				size := hullSize(p.Hull)
				for f := range p.Hull.Faces {
					for _, v := range p.Points {
						if d := p.Hull.Normals[f].Dot(v) - p.Hull.Distance[f]; d > 1e-9*size {
							t.Errorf("part %d is not convex: a vertex is %g outside face %d", i, d, f)
						}
					}
				}
			}
			for _, e := range tc.empty {
				if !tc.mesh.Inside(e) {
					for i, p := range res.Parts {
						if inHull(p.Hull, e, 0) {
							t.Errorf("part %d covers %v, in the %s's concavity", i, e, tc.name)
						}
					}
				} else {
					t.Fatalf("fixture: %v is inside the %s", e, tc.name)
				}
			}
			lo, hi := box(tc.mesh)
			cov, exc := quality(res.Parts, tc.mesh.Inside, lo, hi, 40000, 0)
			t.Logf("%s: %d parts, coverage %.1f%%, excess %.1f%%", tc.name, len(res.Parts), 100*cov, 100*exc)
			if cov < 0.93 {
				t.Errorf("the parts cover %.1f%% of the solid, want at least 93%%", 100*cov)
			}
			if exc > 0.20 {
				t.Errorf("the parts add %.1f%% of the solid's volume outside it, want at most 20%%", 100*exc)
			}
		})
	}
}

func hullSize(h *decompose.Hull) float64 {
	s := 0.0
	for _, p := range h.Points {
		s = math.Max(s, p.Len())
	}
	return math.Max(s, 1)
}

func TestDecomposeOptions(t *testing.T) {
	m := concave.U()
	for _, tc := range []struct {
		o       decompose.Options
		wantErr bool
	}{
		{decompose.Options{MaxHulls: 300}, true},
		{decompose.Options{MaxVertices: 3}, true},
		{decompose.Options{MaxVertices: 256}, true},
		{decompose.Options{Resolution: 10}, true},
		{decompose.Options{Concavity: -1}, true},
		{decompose.Options{Concavity: math.NaN()}, true},
		{decompose.Options{MaxHulls: 1}, false},
		{decompose.Options{MaxHulls: 2, MaxVertices: 8}, false},
	} {
		tc.o.Hull = hull
		res, err := decompose.Decompose(context.Background(), m.Pos, m.Tris, tc.o)
		if (err != nil) != tc.wantErr {
			t.Errorf("%+v: err %v, want error %v", tc.o, err, tc.wantErr)
			continue
		}
		if err != nil {
			continue
		}
		o, _ := tc.o.Defaults()
		if len(res.Parts) > o.MaxHulls {
			t.Errorf("%+v: %d parts", tc.o, len(res.Parts))
		}
		for _, p := range res.Parts {
			if len(p.Points) > o.MaxVertices {
				t.Errorf("%+v: a part with %d vertices", tc.o, len(p.Points))
			}
		}
	}
	if _, err := decompose.Decompose(context.Background(), m.Pos, [][3]uint32{{0, 1, 99}}, decompose.Options{Hull: hull}); err == nil {
		t.Error("an index past the vertices decomposed")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := decompose.Decompose(ctx, m.Pos, m.Tris, decompose.Options{Hull: hull}); err == nil {
		t.Error("a cancelled decomposition finished")
	}
}

// TestDecomposeOpenAndApart: a mesh with no inside (a square sheet) still
// gets a hull around it; two boxes apart get one hull each, never one
// across the space between them.
func TestDecomposeOpenAndApart(t *testing.T) {
	sheet := concave.Mesh{
		Pos:  []mgl64.Vec3{{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}},
		Tris: [][3]uint32{{0, 2, 1}, {0, 3, 2}},
	}
	res, err := decompose.Decompose(context.Background(), sheet.Pos, sheet.Tris, decompose.Options{Hull: hull})
	if err != nil {
		t.Fatal(err)
	}
	if res.Closed || len(res.Parts) != 1 || !inHull(res.Parts[0].Hull, mgl64.Vec3{0.5, 0, 0.5}, 1e-9) {
		t.Errorf("sheet: closed %v, %d parts", res.Closed, len(res.Parts))
	}
	apart := concave.Polycube([][3]int{{0, 0, 0}, {3, 0, 0}}, 1)
	res, err = decompose.Decompose(context.Background(), apart.Pos, apart.Tris, decompose.Options{Hull: hull})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Parts) != 2 {
		t.Errorf("two boxes apart: %d parts", len(res.Parts))
	}
	for i, p := range res.Parts {
		if inHull(p.Hull, mgl64.Vec3{2, 0.5, 0.5}, 0) {
			t.Errorf("part %d spans the gap between the boxes", i)
		}
	}
}
