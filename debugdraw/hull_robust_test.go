package debugdraw

import (
	"math"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"physview/internal/testcorpus"
	"physview/scene"
)

// TestRobustHullSphereMesh: a latitude-longitude sphere (points four at a
// time coplanar, every ring coplanar) gives hull edges between its exact
// points, all on the sphere, quickly.
func TestRobustHullSphereMesh(t *testing.T) {
	var pts []mgl64.Vec3
	for i := 0; i <= 16; i++ {
		phi := math.Pi * float64(i) / 16
		for k := 0; k < 32; k++ {
			th := 2 * math.Pi * float64(k) / 32
			pts = append(pts, mgl64.Vec3{math.Sin(phi) * math.Cos(th), math.Cos(phi), math.Sin(phi) * math.Sin(th)})
		}
	}
	start := time.Now()
	edges := robustHullEdges(pts)
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("took %v", el)
	}
	if len(edges) < 3*15*32/2 {
		t.Errorf("only %d edges", len(edges))
	}
	for _, e := range edges {
		for _, p := range e {
			if math.Abs(p.Len()-1) > 1e-12 {
				t.Fatalf("edge point %v is not one of the sphere's points", p)
			}
		}
	}
}

// TestKHRMeshHullsDraw: the convex hulls of the KHR MotionProperties sample,
// which made the plain HullEdges grow without end, draw in a bounded time.
func TestKHRMeshHullsDraw(t *testing.T) {
	d, err := scene.Load(testcorpus.File(t, "eoineoineoin-gltf-physics/samples/MotionProperties/MotionProperties.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	hulls := 0
	for _, s := range d.Shapes {
		if s.Type != scene.ShapeConvex {
			continue
		}
		if ls := Shape(s, mgl64.Ident4(), [4]float32{1, 1, 1, 1}, &DocumentMeshes{Doc: d}); len(ls) == 0 {
			t.Errorf("convex shape of mesh %d draws nothing", s.Mesh)
		}
		hulls++
	}
	if hulls < 4 || time.Since(start) > 10*time.Second {
		t.Errorf("%d hulls in %v", hulls, time.Since(start))
	}
}
