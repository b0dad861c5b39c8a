package decompose_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"physview/internal/concave"
	"physview/internal/testcorpus"
	"physview/scene"
	"physview/scene/decompose"
)

// sheenChair returns the sample chair's triangles in world space, or skips.
func sheenChair(b *testing.B) concave.Mesh {
	path := testcorpus.File(b, "gltf-sample-assets/Models/SheenChair/glTF/SheenChair.gltf")
	d, err := scene.Load(path)
	if err != nil {
		b.Fatal(err)
	}
	world := d.WorldMatrices()
	var m concave.Mesh
	for n, node := range d.GLTF.Nodes {
		if node.Mesh == nil {
			continue
		}
		pos, tris, err := d.MeshTriangles(*node.Mesh)
		if err != nil {
			b.Fatal(err)
		}
		base := uint32(len(m.Pos))
		for _, p := range pos {
			m.Pos = append(m.Pos, world[n].Mul4x1(p.Vec4(1)).Vec3())
		}
		for _, t := range tris {
			m.Tris = append(m.Tris, [3]uint32{base + t[0], base + t[1], base + t[2]})
		}
	}
	return m
}

// torusInside is the exact solid of concave.Big's torus (major radius 1,
// tube 0.3), up to its facets.
func torusInside(p mgl64.Vec3) bool {
	r := math.Hypot(p[0], p[2]) - 1
	return r*r+p[1]*p[1] < 0.09
}

// BenchmarkDecompose times the decomposition (default options: at most 16
// hulls of 64 vertices, 100,000 voxels) of the sample chair (40k
// triangles in 4 meshes: measured against its voxel solid, a point
// within a voxel of a hull counting as in it) and of a
// 100,000-triangle torus (measured against the exact torus), and reports
// its quality next to one convex hull of the same mesh timed in the same
// run: hulls, coverage (share of the solid inside some hull), excess
// (hull volume outside the solid, as a share of the solid's volume) and
// the time as a multiple of the single hull's.
func BenchmarkDecompose(b *testing.B) {
	for _, tc := range []struct {
		name   string
		mesh   func(b *testing.B) concave.Mesh
		inside func(r *decompose.Result) func(mgl64.Vec3) bool
		// voxels is the tolerance of the hull test in voxels: the voxel
		// solid reaches up to a voxel past the surface the hulls follow.
		voxels float64
	}{
		{"SheenChair", sheenChair, func(r *decompose.Result) func(mgl64.Vec3) bool { return r.Solid }, 1},
		{"torus100k", func(*testing.B) concave.Mesh { return concave.Big(100_000) }, func(*decompose.Result) func(mgl64.Vec3) bool { return torusInside }, 0},
	} {
		b.Run(tc.name, func(b *testing.B) {
			m := tc.mesh(b)
			// The baseline: one hull of every vertex.
			start := time.Now()
			single, err := hull(m.Pos)
			if err != nil {
				b.Fatal(err)
			}
			singleTime := time.Since(start)
			var res *decompose.Result
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res, err = decompose.Decompose(context.Background(), m.Pos, m.Tris, decompose.Options{Hull: hull})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			lo, hi := box(m)
			in := tc.inside(res)
			tol := tc.voxels * res.VoxelSize
			cov, exc := quality(res.Parts, in, lo, hi, 20000, tol)
			_, sexc := quality([]decompose.Part{{Hull: single}}, in, lo, hi, 20000, tol)
			b.ReportMetric(float64(len(m.Tris)), "triangles")
			b.ReportMetric(float64(len(res.Parts)), "hulls")
			b.ReportMetric(100*cov, "coverage-%")
			b.ReportMetric(100*exc, "excess-%")
			b.ReportMetric(100*sexc, "single-hull-excess-%")
			b.ReportMetric(float64(b.Elapsed())/float64(b.N)/float64(singleTime), "x-single-hull-time")
			b.Logf("%s: %d triangles, closed %v, %d hulls, coverage %.1f%%, excess %.1f%% (one hull: %.1f%% excess, %v)", tc.name, len(m.Tris), res.Closed, len(res.Parts), 100*cov, 100*exc, 100*sexc, singleTime)
		})
	}
}
