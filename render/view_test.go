package render

import (
	"testing"
	"time"
)

// TestViewScale checks the resolution a redraw is reduced to while the
// camera moves: full when the last full redraw fits the budget, else the
// scale whose estimated cost fits it (per pixel alone, or fitted to a
// full and a reduced redraw), never below minViewScale.
func TestViewScale(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		name      string
		full, low time.Duration
		lowShare  float64
		budget    time.Duration
		want      float64
	}{
		{"nothing measured yet", 0, 0, 0, 18 * ms, 1},
		{"full fits", 17 * ms, 0, 0, 18 * ms, 1},
		{"per pixel: a quarter of the pixels", 72 * ms, 0, 0, 18 * ms, 0.5},
		{"per pixel: steps of 1/20 down", 40 * ms, 0, 0, 18 * ms, 0.65}, // sqrt(0.45) = 0.67
		{"far too slow: the least scale", 2000 * ms, 0, 0, 18 * ms, minViewScale},
		// 10 ms a frame plus 90 ms per full view: 30 ms of pixels fit
		// in 40, a third of the view, sqrt(1/3) = 0.577.
		{"fitted: part per frame", 100 * ms, 32500 * time.Microsecond, 0.25, 40 * ms, 0.55},
		{"fitted: 50 ms per frame, budget below it", 100 * ms, 62500 * time.Microsecond, 0.25, 18 * ms, minViewScale},
		{"fitted: noise (reduced slower than full) falls back to per pixel", 72 * ms, 80 * ms, 0.25, 18 * ms, 0.5},
		{"larger budget", 72 * ms, 0, 0, 36 * ms, 0.7}, // sqrt(0.5) = 0.707
	} {
		v := View{Budget: c.budget, fullCost: c.full, lowCost: c.low, lowShare: c.lowShare}
		if got := v.scaleFor(); got != c.want {
			t.Errorf("%s: scale %v, want %v", c.name, got, c.want)
		}
	}
}

// TestViewMeasured checks that redraws are averaged by kind, that a full
// redraw faster than the average is taken at once, and that a reduced
// redraw of another size starts its average over.
func TestViewMeasured(t *testing.T) {
	ms := time.Millisecond
	var v View
	v.measured(90*ms, 1)
	v.measured(120*ms, 1)
	if v.fullCost != 100*ms {
		t.Errorf("full cost %v, want 100ms (two thirds of the old, one of the new)", v.fullCost)
	}
	v.measured(40*ms, 1)
	if v.fullCost != 40*ms {
		t.Errorf("full cost %v after a faster redraw, want 40ms (taken at once)", v.fullCost)
	}
	v.measured(100*ms, 1)
	if v.fullCost != 60*ms {
		t.Errorf("full cost %v after a slower redraw, want 60ms (averaged)", v.fullCost)
	}
	v.measured(30*ms, 0.25)
	v.measured(60*ms, 0.25)
	if v.lowCost != 40*ms || v.lowShare != 0.25 {
		t.Errorf("reduced cost %v at %v, want 40ms at 0.25", v.lowCost, v.lowShare)
	}
	v.measured(50*ms, 0.36)
	if v.lowCost != 50*ms || v.lowShare != 0.36 || v.fullCost != 60*ms {
		t.Errorf("after another size: reduced %v at %v, full %v; want 50ms at 0.36, full 60ms", v.lowCost, v.lowShare, v.fullCost)
	}
}

// TestDynresEnv checks PHYSVIEW_DYNRES's values.
func TestDynresEnv(t *testing.T) {
	for _, c := range []struct {
		in     string
		off    bool
		budget time.Duration
	}{
		{"", false, 0},
		{"off", true, 0},
		{"5ms", false, 5 * time.Millisecond},
		{"-1ms", false, 0},
		{"fast", false, 0},
	} {
		off, b := dynresEnv(c.in)
		if off != c.off || b != c.budget {
			t.Errorf("%q: off %v budget %v, want %v %v", c.in, off, b, c.off, c.budget)
		}
	}
}

// TestViewSlowRedraws checks that the scale follows the slow reduced
// redraws (the slowest but one of the last lowKept of that size) rather
// than their average, and that the budget the
// window steers counts only below the default and under an explicit one.
func TestViewSlowRedraws(t *testing.T) {
	ms := time.Millisecond
	measure := func(v *View, ds ...time.Duration) {
		v.measured(100*ms, 1)
		for _, d := range ds {
			v.measured(d, 0.25)
		}
	}
	for _, c := range []struct {
		name   string
		low    []time.Duration
		steer  time.Duration
		budget time.Duration
		slow   time.Duration
		want   float64
	}{
		// 100 ms full and 25 at a quarter: all per pixel, 18 ms fit
		// 0.18 of the pixels, sqrt = 0.42.
		{"steady", []time.Duration{25 * ms, 25 * ms, 25 * ms, 25 * ms}, 0, 0, 25 * ms, 0.4},
		// Two slow redraws in five: 40 ms at a quarter is 20 ms per
		// frame and 80 per full view: (18-20)/80 < 0, the least scale.
		{"slow ones count", []time.Duration{25 * ms, 40 * ms, 25 * ms, 40 * ms, 25 * ms}, 0, 0, 40 * ms, minViewScale},
		// The slowest alone is left out: the next slowest, 30 ms: 6.67
		// ms a frame, 93.3 per view: (18-6.67)/93.3 = 0.12, 0.35.
		{"the slowest but one", []time.Duration{25 * ms, 60 * ms, 30 * ms, 25 * ms}, 0, 0, 30 * ms, 0.3},
		{"older than lowKept forgotten", append([]time.Duration{80 * ms, 80 * ms}, repeatDur(25*ms, lowKept)...), 0, 0, 25 * ms, 0.4},
		// Steered to 9 ms: 9/100 of the pixels, sqrt = 0.3.
		{"steered below the default", []time.Duration{25 * ms}, 9 * ms, 0, 25 * ms, 0.3},
		{"steered above the default: the default", []time.Duration{25 * ms}, 30 * ms, 0, 25 * ms, 0.4},
		{"an explicit budget wins", []time.Duration{25 * ms}, 9 * ms, 36 * ms, 25 * ms, 0.6},
	} {
		v := View{Budget: c.budget}
		measure(&v, c.low...)
		v.Steer(c.steer)
		if got := v.slowRedraw(); got != c.slow {
			t.Errorf("%s: slow redraw %v, want %v", c.name, got, c.slow)
		}
		if got := v.scaleFor(); got != c.want {
			t.Errorf("%s: scale %v, want %v", c.name, got, c.want)
		}
	}
}

func repeatDur(d time.Duration, n int) []time.Duration {
	s := make([]time.Duration, n)
	for i := range s {
		s[i] = d
	}
	return s
}
