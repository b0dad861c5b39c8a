package app

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// TestReduceKeys: key reduction keeps what linear interpolation needs:
// 2 keys for a body at rest or moving at constant velocity, more for a
// fall, and every sample stays within the tolerance of the keys kept.
func TestReduceKeys(t *testing.T) {
	times := bakeTimes(4, 60)
	if len(times) != 241 || times[240] != 4 {
		t.Fatalf("bake times: %d, last %g", len(times), times[len(times)-1])
	}
	for _, tc := range []struct {
		name     string
		pos      func(t float64) mgl64.Vec3
		spin     float64 // rad/s about Y
		tk, rk   [2]int  // allowed key counts (min, max)
		tol, ang float64
	}{
		{"at rest", func(float64) mgl64.Vec3 { return mgl64.Vec3{1, 2, 3} }, 0, [2]int{2, 2}, [2]int{2, 2}, 0.001, DefaultBakeAngle},
		{"constant velocity", func(t float64) mgl64.Vec3 { return mgl64.Vec3{3 * t, 0, -t} }, 0, [2]int{2, 2}, [2]int{2, 2}, 0.001, DefaultBakeAngle},
		// A chord over dt of a fall under a has its middle a dt²/8 off:
		// within 1 mm for dt up to 0.0286 s under 9.81 m/s², less than
		// the 1/60 s between samples, so every sample stays; under
		// 1 m/s², up to 0.089 s: every fifth sample.
		{"fall", func(t float64) mgl64.Vec3 { return mgl64.Vec3{0, -9.81 * t * t / 2, 0} }, 0, [2]int{241, 241}, [2]int{2, 2}, 0.001, DefaultBakeAngle},
		{"slow fall", func(t float64) mgl64.Vec3 { return mgl64.Vec3{0, -t * t / 2, 0} }, 0, [2]int{45, 70}, [2]int{2, 2}, 0.001, DefaultBakeAngle},
		// A steady spin is exact in slerp while a segment turns less
		// than half a turn: 8 rad over 4 s needs a few keys.
		{"steady spin", func(float64) mgl64.Vec3 { return mgl64.Vec3{} }, 2, [2]int{2, 2}, [2]int{3, 8}, 0.001, DefaultBakeAngle},
		{"every sample", func(t float64) mgl64.Vec3 { return mgl64.Vec3{t, 0, 0} }, 1, [2]int{241, 241}, [2]int{241, 241}, -1, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := make([]mgl64.Vec3, len(times))
			q := make([]mgl64.Quat, len(times))
			for i, tm := range times {
				p[i] = tc.pos(tm)
				q[i] = mgl64.QuatRotate(tc.spin*tm, mgl64.Vec3{0, 1, 0})
				if i > 0 && q[i].Dot(q[i-1]) < 0 {
					q[i] = q[i].Scale(-1)
				}
			}
			tk := reduce(len(times), func(a, c int) bool { return translationFits(times, p, a, c, tc.tol) })
			rk := reduce(len(times), func(a, c int) bool { return rotationFits(times, q, a, c, tc.ang) })
			if len(tk) < tc.tk[0] || len(tk) > tc.tk[1] || len(rk) < tc.rk[0] || len(rk) > tc.rk[1] {
				t.Errorf("%d translation and %d rotation keys, want %v and %v", len(tk), len(rk), tc.tk, tc.rk)
			}
			if tk[0] != 0 || tk[len(tk)-1] != 240 || rk[0] != 0 || rk[len(rk)-1] != 240 {
				t.Errorf("the first and last samples are not kept: %v %v", tk, rk)
			}
			if tc.tol < 0 {
				return
			}
			// Every sample against the interpolation of the keys kept.
			for k := 1; k < len(tk); k++ {
				a, c := tk[k-1], tk[k]
				for i := a; i <= c; i++ {
					u := (times[i] - times[a]) / (times[c] - times[a])
					if d := p[a].Add(p[c].Sub(p[a]).Mul(u)).Sub(p[i]).Len(); d > tc.tol+1e-12 {
						t.Fatalf("sample %d is %.3g m off the keys", i, d)
					}
				}
			}
			for k := 1; k < len(rk); k++ {
				a, c := rk[k-1], rk[k]
				for i := a; i <= c; i++ {
					u := (times[i] - times[a]) / (times[c] - times[a])
					m := mgl64.QuatSlerp(q[a], q[c], u)
					if ang := 2 * math.Acos(math.Min(1, math.Abs(m.Dot(q[i])))); ang > tc.ang+1e-9 {
						t.Fatalf("sample %d is %.3g° off the keys", i, ang*180/math.Pi)
					}
				}
			}
		})
	}
}
