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

// TestOneBatch: the awake islands are solved in one batch, and that batch
// leaves out what Bullet's island solver leaves out: a sleeping box stays
// exactly where it fell asleep while another box falls, and a trigger on a
// kinematic body reports the box inside it without pushing it. A ball
// leaving a wall has no contact point with it while their broadphase pair
// lives on (the narrowphase is skipped for it) and flies on undisturbed.
func TestOneBatch(t *testing.T) {
	w, err := NewWorld(10, false, false)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Destroy()
	solid := Surface{Friction: 0.6, Category: 1, Collide: ^uint64(0), Owner: -1}
	ground, err := w.NewBox(40, 1, 40, solid)
	if err != nil {
		t.Fatal(err)
	}
	ground.SetPosition([3]float64{0, -0.5, 0})
	wall, err := w.NewBox(1, 1, 1, solid) // x from 9.5 to 10.5, in the air
	if err != nil {
		t.Fatal(err)
	}
	wall.SetPosition([3]float64{10, 10, 0})
	geom := func(g *Geom, err error) *Geom {
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	body := func(g *Geom, at [3]float64) *Body {
		b := w.NewBody()
		g.SetBody(b)
		b.SetPosition(at)
		if err := b.SetMass(1, [9]float64{0.2, 0, 0, 0, 0.2, 0, 0, 0, 0.2}); err != nil {
			t.Fatal(err)
		}
		return b
	}
	// Bodies in order: 0 lands on the ground and sleeps, 1 falls from 20 m, 2 rests
	// inside 3's trigger (3 is kinematic), 4 flies off the wall at 1 m/s.
	body(geom(w.NewBox(1, 1, 1, solid)), [3]float64{-5, 0.55, 0})
	body(geom(w.NewBox(1, 1, 1, solid)), [3]float64{5, 20, 0})
	body(geom(w.NewBox(1, 1, 1, solid)), [3]float64{0, 0.5, 5})
	trigger := geom(w.NewBox(2, 2, 2, Surface{Trigger: true, Owner: 7, Category: 1, Collide: ^uint64(0)}))
	body(trigger, [3]float64{0, 0.5, 5}).SetKinematic()
	ball := body(geom(w.NewSphere(0.5, solid)), [3]float64{10 - 0.5 - 0.5, 10, 0})
	ball.SetLinearVel([3]float64{-1, 0, 0})
	gravity := []float64{0, -9.81, 0, 0, -9.81, 0, 0, -9.81, 0, 0, 0, 0, 0, 0, 0}
	step := func(n int) {
		for i := 0; i < n; i++ {
			if err := w.Step(1.0/240, gravity); err != nil {
				t.Fatal(err)
			}
		}
	}
	asleep, contacts := make([]byte, 5), make([]int32, 5)
	step(24) // 0.1 s: the ball is 0.1 m off the wall, their pair still in the broadphase
	w.BodyFlags(asleep, contacts)
	if contacts[4] != 0 {
		t.Errorf("the ball 0.1 m off the wall has %d contact points, want 0", contacts[4])
	}
	step(216) // 1.0 s: box 0 sleeps, box 1 falls
	w.BodyFlags(asleep, contacts)
	if asleep[0] != 1 || asleep[1] != 0 {
		t.Fatalf("at 1 s asleep = %v, want box 0 asleep and box 1 awake", asleep)
	}
	slept := append([]float64(nil), w.States()[:13]...)
	step(96) // 1.4 s
	st := w.States()
	for k := 0; k < 13; k++ {
		if st[k] != slept[k] {
			t.Errorf("the sleeping box's state %d changed from %g to %g", k, slept[k], st[k])
		}
	}
	if y := st[13+1]; y > 11 || y < 10 {
		t.Errorf("box 1 is at y = %g after 1.4 s, want it falling (10.4)", y)
	}
	in := st[2*13 : 2*13+3]
	if math.Abs(in[0]) > 1e-4 || math.Abs(in[1]-0.5) > 0.005 || math.Abs(in[2]-5) > 1e-4 {
		t.Errorf("the box inside the trigger moved to %v, want (0, 0.5, 5)", in)
	}
	ov := w.Overlaps()
	if len(ov) != 1 || ov[0] != [2]int{7, 2} {
		t.Errorf("overlaps %v, want [[7 2]]", ov)
	}
	if x := st[4*13]; math.Abs(x-(9-1.4)) > 0.01 {
		t.Errorf("the ball is at x = %g after 1.4 s at -1 m/s from 9, want 7.6", x)
	}
}

// TestCrowdSearch: n spheres started at one point above a ground box
// overlap n(n-1)/2 times. Bullet's broadphase search met every one of
// those pairs each step (twice) and the pair budget refused them; the
// crowd search meets under a quarter of them once bodies are at their budget,
// makes no more pairs than the budget, and still finds the ground for
// bodies at theirs: the crowd lands on it.
func TestCrowdSearch(t *testing.T) {
	const n, r = 500, 0.5
	w, err := NewWorld(10, false, false)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Destroy()
	solid := Surface{Friction: 0.6, Category: 1, Collide: ^uint64(0), Owner: -1}
	ground, err := w.NewBox(100, 1, 100, solid)
	if err != nil {
		t.Fatal(err)
	}
	ground.SetPosition([3]float64{0, -0.5, 0})
	for i := 0; i < n; i++ {
		g, err := w.NewSphere(r, solid)
		if err != nil {
			t.Fatal(err)
		}
		b := w.NewBody()
		g.SetBody(b)
		b.SetPosition([3]float64{0, 2, 0})
		if err := b.SetMass(1, [9]float64{0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1}); err != nil {
			t.Fatal(err)
		}
	}
	gravity := make([]float64, 3*n)
	for i := range n {
		gravity[3*i+1] = -9.81
	}
	maxMet, maxPairs, dropped := 0, 0, 0
	for step := 1; step <= 240; step++ {
		if err := w.Step(1.0/240, gravity); err != nil {
			t.Fatal(err)
		}
		met, _, pairs := w.counts()
		if step <= 3 { // the crowd still overlaps as a whole (it moved a few mm)
			maxMet = max(maxMet, met)
		}
		maxPairs = max(maxPairs, pairs)
		dropped += w.Dropped()
		if step <= 3 || step%60 == 0 {
			t.Logf("step %d: met %d pairs, %d in the broadphase, %d refused", step, met, pairs, w.Dropped())
		}
	}
	low := math.Inf(1)
	st := w.States()
	for i := 0; i < n; i++ {
		low = math.Min(low, st[13*i+1])
	}
	t.Logf("in the first 3 steps at most %d pairs met in a step; at most %d broadphase pairs; %d refused; lowest centre after 1 s %.4g m", maxMet, maxPairs, dropped, low)
	if all := n * (n - 1) / 2; maxMet > all/4 {
		t.Errorf("one of the first 3 steps met %d pairs, want under a quarter of the %d overlapping ones", maxMet, all)
	}
	// 32 a body, plus the ground.
	if budget := n*32/2 + n; maxPairs > budget {
		t.Errorf("%d broadphase pairs, want at most %d", maxPairs, budget)
	}
	if dropped == 0 {
		t.Errorf("no pair refused: the budget did not apply")
	}
	if low < r-0.01 {
		t.Errorf("after 1 s the lowest centre is at %.4g m, want every sphere on the ground (%g m) or above", low, r)
	}
}

// TestSpheresApart: two spheres whose boxes (grown by the contact
// threshold) overlap but which are farther apart than that run no
// narrowphase (no manifold), while two within it do.
func TestSpheresApart(t *testing.T) {
	for _, tc := range []struct {
		name      string
		d         float64 // m between the centres, along a diagonal
		manifolds int
	}{
		{"1.3 m apart on a diagonal", 1.3, 0},
		{"1.03 m apart on a diagonal", 1.03, 1},
		{"touching", 1.0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := NewWorld(10, true, false)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Destroy()
			solid := Surface{Friction: 0.6, Category: 1, Collide: ^uint64(0), Owner: -1}
			k := tc.d / math.Sqrt(3)
			for _, at := range [][3]float64{{0, 0, 0}, {k, k, k}} {
				g, err := w.NewSphere(0.5, solid)
				if err != nil {
					t.Fatal(err)
				}
				b := w.NewBody()
				g.SetBody(b)
				b.SetPosition(at)
				if err := b.SetMass(1, [9]float64{0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1}); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Step(1.0/240, nil); err != nil {
				t.Fatal(err)
			}
			_, m, pairs := w.counts()
			if pairs != 1 || m != tc.manifolds {
				t.Errorf("%d broadphase pairs and %d manifolds, want 1 and %d", pairs, m, tc.manifolds)
			}
		})
	}
}
