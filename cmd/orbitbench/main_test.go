package main

import "testing"

// TestFrameLog checks that the benchmark reads the frame lines the viewer
// prints under PHYSVIEW_LOG_FRAMES=1 (cmd/viewer/idle.go's format).
func TestFrameLog(t *testing.T) {
	for _, c := range []struct {
		line                          string
		ok                            bool
		at, work, view, redraw, input string
	}{
		{"viewer: frame 12 at 10207.00 ms, work 148.67 ms, view 320x303, redraw 87.02 ms", true, "10207.00", "148.67", "320x303", "87.02", ""},
		{"viewer: frame 13 at 10553.40 ms, work 24.48 ms, view copy, redraw 0.00 ms", true, "10553.40", "24.48", "copy", "0.00", ""},
		{"viewer: frame 14 at 10587.10 ms, work 22.10 ms, view 320x303, redraw 9.80 ms, panel drawn 3", true, "10587.10", "22.10", "320x303", "9.80", ""},
		{"viewer: frame 15 at 10620.40 ms, work 21.30 ms, view 240x227, redraw 9.10 ms, input 30.25 ms, panel drawn 3", true, "10620.40", "21.30", "240x227", "9.10", "30.25"},
		{"viewer: frame 3", false, "", "", "", "", ""},
		{"viewer: textured frame after 7056 ms", false, "", "", "", "", ""},
	} {
		m := frameLog.FindStringSubmatch(c.line)
		if (m != nil) != c.ok {
			t.Errorf("%q: matched %v, want %v", c.line, m != nil, c.ok)
			continue
		}
		if m != nil && (m[2] != c.at || m[3] != c.work || m[4] != c.view || m[5] != c.redraw || m[6] != c.input) {
			t.Errorf("%q: read at %s work %s view %s redraw %s input %s", c.line, m[2], m[3], m[4], m[5], m[6])
		}
	}
}

func TestPercentile(t *testing.T) {
	xs := []float64{50, 10, 40, 20, 30, 60, 70, 80, 90, 100}
	for _, c := range []struct{ p, want float64 }{{0, 10}, {50, 50}, {90, 90}, {100, 100}} {
		if got := percentile(xs, c.p); got != c.want {
			t.Errorf("p%v = %v, want %v", c.p, got, c.want)
		}
	}
	if got := percentile(nil, 50); got != 0 {
		t.Errorf("p50 of nothing = %v, want 0", got)
	}
	if xs[0] != 50 {
		t.Error("percentile sorted its argument in place")
	}
}
