package ode

import (
	"math"
	"testing"
)

// TestConvexOnTriMesh: a convex tetrahedron dropped on a triangle-mesh
// floor lands and rests on it. ODE's convex-trimesh collider needs the
// mesh's face angles; without them the first contact aborted the process
// (ODE INTERNAL ERROR 2), which took the viewer down in the demo's Play when
// the convex tetra reached the trimesh ramp.
func TestConvexOnTriMesh(t *testing.T) {
	w, err := NewWorld()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Destroy()
	w.SetGravity(0, -9.81, 0)
	sf := Surface{Friction: 0.5, Collide: 1, Category: 1}
	floor := []float64{-5, 0, -5, 5, 0, -5, 5, 0, 5, -5, 0, 5}
	if _, err := w.NewTriMesh(floor, []uint32{0, 3, 2, 0, 2, 1}, sf); err != nil {
		t.Fatal(err)
	}
	// The tetrahedron (0,0,0), (1,0,0), (0,1,0), (0,0,1) around its
	// centroid; faces counter-clockwise seen from outside.
	corners := [][3]float64{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	var points []float64
	for _, c := range corners {
		points = append(points, c[0]-0.25, c[1]-0.25, c[2]-0.25)
	}
	faces := [][3]uint32{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}}
	var planes []float64
	var polys []uint32
	for _, f := range faces {
		a, b, c := points[3*f[0]:3*f[0]+3], points[3*f[1]:3*f[1]+3], points[3*f[2]:3*f[2]+3]
		u := [3]float64{b[0] - a[0], b[1] - a[1], b[2] - a[2]}
		v := [3]float64{c[0] - a[0], c[1] - a[1], c[2] - a[2]}
		n := [3]float64{u[1]*v[2] - u[2]*v[1], u[2]*v[0] - u[0]*v[2], u[0]*v[1] - u[1]*v[0]}
		l := math.Sqrt(n[0]*n[0] + n[1]*n[1] + n[2]*n[2])
		n = [3]float64{n[0] / l, n[1] / l, n[2] / l}
		planes = append(planes, n[0], n[1], n[2], n[0]*a[0]+n[1]*a[1]+n[2]*a[2])
		polys = append(polys, 3, f[0], f[1], f[2])
	}
	g, err := w.NewConvex(planes, points, polys, sf)
	if err != nil {
		t.Fatal(err)
	}
	b := w.NewBody()
	if err := b.SetMass(1, [9]float64{0.02, 0, 0, 0, 0.02, 0, 0, 0, 0.02}); err != nil {
		t.Fatal(err)
	}
	b.SetPosition([3]float64{0.3, 1, -0.2})
	g.SetBody(b)
	for i := 0; i < 480; i++ {
		w.Step(1.0/240, nil)
	}
	s := w.States()
	// Resting on its face y = 0 (local), 0.25 below the centroid.
	if y, speed := s[1], math.Sqrt(s[7]*s[7]+s[8]*s[8]+s[9]*s[9]); math.Abs(y-0.25) > 0.02 || speed > 0.05 {
		t.Errorf("after 2 s the tetrahedron is at y = %.4f moving %.3f m/s, want resting at 0.25", y, speed)
	}
}
