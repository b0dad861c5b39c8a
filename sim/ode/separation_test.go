package ode

import (
	"math"
	"testing"
)

// sunkBall makes a world with a static 1 m thick floor (top at y = 0) and
// a 1 kg ball of radius 0.5 m whose centre is at y, and returns the ball's
// body and the floor's geom.
func sunkBall(t *testing.T, y float64) (*World, *Body, *Geom) {
	t.Helper()
	w, err := NewWorld()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Destroy)
	all := Surface{Friction: 0.6, Category: 1, Collide: ^uint64(0)}
	floor, err := w.NewBox(20, 1, 20, all)
	if err != nil {
		t.Fatal(err)
	}
	floor.SetPosition([3]float64{0, -0.5, 0})
	b := w.NewBody()
	if err := b.SetMass(1, [9]float64{0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1}); err != nil {
		t.Fatal(err)
	}
	b.SetPosition([3]float64{0, y, 0})
	ball, err := w.NewSphere(0.5, all)
	if err != nil {
		t.Fatal(err)
	}
	ball.SetBody(b)
	return w, b, floor
}

// TestContactMaxCorrectingVel: a ball half sunk into the floor (0.5 m
// deep) leaves it at ERP × depth / step = 0.2 × 0.5 × 240 = 24 m/s with
// ODE's default, at the bound once one is set.
func TestContactMaxCorrectingVel(t *testing.T) {
	for _, tc := range []struct {
		bound, want float64
	}{{math.Inf(1), 24}, {1, 1}, {0.25, 0.25}} {
		w, b, _ := sunkBall(t, 0)
		w.SetContactMaxCorrectingVel(tc.bound)
		if err := w.Step(1.0/240, nil); err != nil {
			t.Fatal(err)
		}
		// The surface layer (1 mm) is not pushed out: 0.499 m is.
		want := math.Min(tc.want, 0.2*0.499*240)
		if vy := w.States()[13*b.Index+8]; math.Abs(vy-want) > 1e-6*want {
			t.Errorf("bound %g: the ball rises at %.6g m/s after one step, want %.6g", tc.bound, vy, want)
		}
	}
}

// TestNoCollide: a body kept apart from a static geom makes no contact
// with it; the arguments are checked.
func TestNoCollide(t *testing.T) {
	for _, apart := range []bool{false, true} {
		w, b, floor := sunkBall(t, 0.4)
		if apart {
			if err := w.NoCollide(b, floor); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Step(1.0/240, nil); err != nil {
			t.Fatal(err)
		}
		if n := w.Contacts(); (n == 0) != apart {
			t.Errorf("kept apart %v: %d contacts", apart, n)
		}
	}
	w, b, _ := sunkBall(t, 0.4)
	other, _, floor := sunkBall(t, 0.4)
	if err := w.NoCollide(b, floor); err == nil {
		t.Error("NoCollide took a geom of another world")
	}
	if err := other.NoCollide(nil, floor); err == nil {
		t.Error("NoCollide took no body")
	}
}
