package bullet

import (
	"math"
	"math/rand"
	"testing"
)

// TestSpeedUpsExact: physview's own speed-ups of the collision side (the
// walks over pairs and bodies fetching ahead, bodies sharing shapes) change
// nothing a world computes: a jittered pile of 300 boxes and spheres, two
// frictions, stepped 1 s, ends in the same states to the last bit with
// each turned off.
func TestSpeedUpsExact(t *testing.T) {
	pile := func(tune uint) (states []float64, contacts int) {
		w, err := NewWorld(5, false, false)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Destroy()
		w.Tune(tune)
		ground, err := w.NewBox(30, 1, 30, Surface{Friction: 0.5, Category: 1, Collide: ^uint64(0)})
		if err != nil {
			t.Fatal(err)
		}
		ground.SetPosition([3]float64{0, -0.5, 0})
		r := rand.New(rand.NewSource(3))
		const n = 300
		for i := 0; i < n; i++ {
			s := Surface{Friction: 0.5, Category: 1, Collide: ^uint64(0)}
			if i%5 == 0 {
				s.Friction = 0.9 // not shared with the others
			}
			var g *Geom
			if i%2 == 0 {
				g, err = w.NewBox(0.5, 0.5, 0.5, s)
			} else {
				g, err = w.NewSphere(0.25, s)
			}
			if err != nil {
				t.Fatal(err)
			}
			b := w.NewBody()
			g.SetBody(b)
			b.SetPosition([3]float64{0.9*float64(i%10) - 4 + 0.4*r.Float64(), 1 + 0.9*float64(i/100), 0.9*float64(i/10%10) - 4 + 0.4*r.Float64()})
			if err := b.SetMass(1, [9]float64{0.04, 0, 0, 0, 0.04, 0, 0, 0, 0.04}); err != nil {
				t.Fatal(err)
			}
		}
		forces := make([]float64, 3*n)
		for i := 0; i < n; i++ {
			forces[3*i+1] = -9.81
		}
		for k := 0; k < 240; k++ {
			if err := w.Step(1.0/240, forces); err != nil {
				t.Fatal(err)
			}
		}
		return append([]float64(nil), w.States()...), w.Contacts()
	}
	want, wantContacts := pile(0)
	if wantContacts < 300 {
		t.Fatalf("the pile has %d contact points after 1 s, want a pile that touches (at least 300)", wantContacts)
	}
	for _, tc := range []struct {
		name string
		tune uint
	}{
		{"no fetching ahead", TuneNoFetch},
		{"no shared shapes", TuneNoShare},
		{"neither", TuneNoFetch | TuneNoShare},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, contacts := pile(tc.tune)
			if contacts != wantContacts {
				t.Errorf("%d contact points, want %d", contacts, wantContacts)
			}
			for i := range want {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("state %d of body %d is %v, want %v", i%13, i/13, got[i], want[i])
				}
			}
		})
	}
}
