package scene

import (
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

func gridCube(n int, size float64) []mgl64.Vec3 {
	var pts []mgl64.Vec3
	for i := 0; i <= n; i++ {
		for j := 0; j <= n; j++ {
			for k := 0; k <= n; k++ {
				if i == 0 || i == n || j == 0 || j == n || k == 0 || k == n {
					p := mgl64.Vec3{float64(i), float64(j), float64(k)}.Mul(size / float64(n))
					// Meshes repeat each vertex per face.
					pts = append(pts, p, p)
				}
			}
		}
	}
	return pts
}

func latLongSphere(rings, segments int) []mgl64.Vec3 {
	var pts []mgl64.Vec3
	for i := 0; i <= rings; i++ {
		phi := math.Pi * float64(i) / float64(rings)
		for k := 0; k < segments; k++ {
			th := 2 * math.Pi * float64(k) / float64(segments)
			pts = append(pts, mgl64.Vec3{math.Sin(phi) * math.Cos(th), math.Cos(phi), math.Sin(phi) * math.Sin(th)})
		}
	}
	return pts
}

// TestConvexHull: degenerate but common inputs (a subdivided box: every
// face's points coplanar, repeated vertices; a latitude-longitude sphere)
// give the exact hull: a cube's 12 edges and volume, a sphere's faces on
// the sphere; flat and tiny sets are errors.
func TestConvexHull(t *testing.T) {
	t.Run("subdivided cube", func(t *testing.T) {
		h, err := ConvexHull(gridCube(8, 2))
		if err != nil {
			t.Fatal(err)
		}
		if v := h.Volume(); math.Abs(v-8) > 1e-9 {
			t.Errorf("volume %g, want 8", v)
		}
		if e := len(h.Edges()); e != 12 {
			t.Errorf("%d edges, want 12", e)
		}
		if len(h.Points) != 8 {
			t.Errorf("%d hull vertices, want the 8 corners", len(h.Points))
		}
	})
	t.Run("latitude-longitude sphere", func(t *testing.T) {
		h, err := ConvexHull(latLongSphere(16, 32))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range h.Points {
			if math.Abs(p.Len()-1) > 1e-12 {
				t.Fatalf("hull vertex %v is not a sphere point", p)
			}
		}
		if v := h.Volume(); v > 4.0/3*math.Pi || v < 0.95*4.0/3*math.Pi {
			t.Errorf("volume %g, want just under %g", v, 4.0/3*math.Pi)
		}
		for i, f := range h.Faces {
			c := h.Points[f[0]].Add(h.Points[f[1]]).Add(h.Points[f[2]])
			if c.Dot(h.Normals[i]) <= 0 {
				t.Fatalf("face %d points inwards", i)
			}
		}
	})
	t.Run("more points than MaxHullPoints", func(t *testing.T) {
		h, err := ConvexHull(latLongSphere(80, 160))
		if err != nil {
			t.Fatal(err)
		}
		if len(h.Points) > MaxHullPoints {
			t.Errorf("%d hull vertices, want at most %d", len(h.Points), MaxHullPoints)
		}
	})
	for _, tc := range []struct {
		name string
		pts  []mgl64.Vec3
		want string
	}{
		{"three points", []mgl64.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 1, 0}}, "at least 4"},
		{"a line", []mgl64.Vec3{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}}, "line"},
		{"a plane", []mgl64.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {1, 0, 1}, {0.5, 0, 0.5}}, "plane"},
		{"not finite", []mgl64.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {math.Inf(1), 0, 1}}, "not finite"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := ConvexHull(tc.pts); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}
