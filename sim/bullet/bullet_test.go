package bullet

import (
	"math"
	"strings"
	"testing"
)

// TestPrincipal: a tensor with products of inertia is diagonalised into
// its principal moments and axes; R diag Rᵀ gives the tensor back.
func TestPrincipal(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    [9]float64
		want [3]float64 // the moments, in any order
	}{
		{"diagonal", [9]float64{1, 0, 0, 0, 2, 0, 0, 0, 3}, [3]float64{1, 2, 3}},
		{"turned about Z", [9]float64{1.5, 0.5, 0, 0.5, 1.5, 0, 0, 0, 3}, [3]float64{1, 2, 3}},
		{"full", [9]float64{2, -1, 0, -1, 2, -1, 0, -1, 2}, [3]float64{2 - math.Sqrt2, 2, 2 + math.Sqrt2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, q := principal(tc.m)
			got := d
			for i := 0; i < 3; i++ { // sort
				for j := i + 1; j < 3; j++ {
					if got[j] < got[i] {
						got[i], got[j] = got[j], got[i]
					}
				}
			}
			for k := range got {
				if math.Abs(got[k]-tc.want[k]) > 1e-9 {
					t.Fatalf("moments %v, want %v", d, tc.want)
				}
			}
			// R from q (x, y, z, w), then R diag Rᵀ.
			x, y, z, w := q[0], q[1], q[2], q[3]
			r := [3][3]float64{
				{1 - 2*(y*y+z*z), 2 * (x*y - z*w), 2 * (x*z + y*w)},
				{2 * (x*y + z*w), 1 - 2*(x*x+z*z), 2 * (y*z - x*w)},
				{2 * (x*z - y*w), 2 * (y*z + x*w), 1 - 2*(x*x+y*y)},
			}
			for i := 0; i < 3; i++ {
				for j := 0; j < 3; j++ {
					v := 0.0
					for k := 0; k < 3; k++ {
						v += r[i][k] * d[k] * r[j][k]
					}
					if math.Abs(v-tc.m[3*i+j]) > 1e-9 {
						t.Fatalf("R diag Rᵀ [%d][%d] = %g, want %g", i, j, v, tc.m[3*i+j])
					}
				}
			}
		})
	}
}

// TestWorld: a sphere dropped on a static box comes to rest on it; bad
// sizes are refused before Bullet; an exception in the shim breaks the
// world with an error instead of aborting, and later calls do nothing.
func TestWorld(t *testing.T) {
	w, err := NewWorld(20, false, true)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Destroy()
	s := Surface{Friction: 0.6, Category: 1, Collide: ^uint64(0), Owner: -1}
	ground, err := w.NewBox(10, 1, 10, s)
	if err != nil {
		t.Fatal(err)
	}
	ground.SetPosition([3]float64{0, -0.5, 0})
	if _, err := w.NewBox(1, -1, 1, s); err == nil || !strings.Contains(err.Error(), "box size y -1 must be greater than 0") {
		t.Errorf("box of size -1: %v", err)
	}
	b := w.NewBody()
	ball, err := w.NewSphere(0.5, Surface{Friction: 0.6, Category: 1, Collide: ^uint64(0)})
	if err != nil {
		t.Fatal(err)
	}
	ball.SetBody(b)
	b.SetPosition([3]float64{0, 2, 0})
	if err := b.SetMass(1, [9]float64{0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 480; i++ {
		if err := w.Step(1.0/240, []float64{0, -9.81, 0}); err != nil {
			t.Fatal(err)
		}
	}
	st := w.States()
	if y := st[1]; math.Abs(y-0.5) > 0.005 {
		t.Errorf("the ball rests at y = %g, want 0.5", y)
	}
	if w.Contacts() == 0 || len(w.ContactPoints()) == 0 {
		t.Errorf("no contact points recorded under the resting ball")
	}
	if err := w.RaiseForTest(2); err == nil || err.Error() != "Bullet: raised for a test (2)" {
		t.Fatalf("raise: %v", err)
	}
	if err := w.Step(1.0/240, nil); err == nil || err.Error() != "Bullet: raised for a test (2)" {
		t.Errorf("a broken world stepped: %v", err)
	}
}
