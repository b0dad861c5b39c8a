package anim

import (
	"math"
	"testing"
)

// TestPoseAt checks the pose a command line asks for on interp.gltf, whose
// node 1 moves linearly along X through 0, 1 and 3 m at 0, 1 and 2 s: the
// rest pose for a NaN time, clamping, and the errors naming the bad value.
func TestPoseAt(t *testing.T) {
	m := load(t, "interp.gltf")
	for _, tc := range []struct {
		a       int
		t       float64
		x       float64
		name    string
		wantErr string
	}{
		{0, math.NaN(), 0, "rest pose", ""},
		{5, math.NaN(), 0, "rest pose", ""},
		{0, 0.5, 0.5, "animation 0 at 0.5 s", ""},
		{-1, 1.5, 2, "animation -1 at 1.5 s", ""},
		{0, 10, 3, "animation 0 at 10 s", ""},
		{0, -3, 0, "animation 0 at -3 s", ""},
		{1, 0.5, 0, "", "animation 1: the file has 1 animations"},
		{-2, 0.5, 0, "", "animation -2: the file has 1 animations"},
		{0, math.Inf(-1), 0, "", "time -Inf: want a finite number of seconds"},
	} {
		p, err := m.PoseAt(tc.a, tc.t)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("PoseAt(%d, %v): error %v, want %q", tc.a, tc.t, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("PoseAt(%d, %v): %v", tc.a, tc.t, err)
			continue
		}
		if x := p.World[1].Col(3)[0]; !near(x, tc.x) {
			t.Errorf("PoseAt(%d, %v): node 1 at x = %g, want %g", tc.a, tc.t, x, tc.x)
		}
		if got := PoseName(tc.a, tc.t); got != tc.name {
			t.Errorf("PoseName(%d, %v) = %q, want %q", tc.a, tc.t, got, tc.name)
		}
	}
}
