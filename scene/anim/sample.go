package anim

import (
	"math"
	"sort"
)

// Interpolation is how a sampler fills the time between keyframes.
type Interpolation int

// The glTF interpolation modes.
const (
	Linear Interpolation = iota
	Step
	CubicSpline
)

// String returns the glTF name of the mode.
func (i Interpolation) String() string {
	switch i {
	case Step:
		return "STEP"
	case CubicSpline:
		return "CUBICSPLINE"
	}
	return "LINEAR"
}

// Sampler is one keyframe curve: Times ascending, Values Width floats per
// key (three times that for CUBICSPLINE: in-tangent, value, out-tangent).
// Values are the accessor's float32s as stored (half the memory of
// float64: BrainStem's keyframes are 2.4 MB), widened exactly when
// sampled.
type Sampler struct {
	Times  []float64
	Values []float32
	Width  int
	Interp Interpolation
	// Quat marks a rotation: LINEAR slerps, and results are normalised.
	Quat bool
}

// Sample writes the curve's value at time t into out (len Width). Times
// before the first key give the first value, after the last the last.
func (s *Sampler) Sample(t float64, out []float64) {
	w := s.Width
	n := len(s.Times)
	if n == 0 || w == 0 {
		return
	}
	val := func(k int) []float32 {
		if s.Interp == CubicSpline {
			return s.Values[(3*k+1)*w : (3*k+2)*w]
		}
		return s.Values[k*w : (k+1)*w]
	}
	if n == 1 || t <= s.Times[0] {
		widen(out, val(0))
		return
	}
	if t >= s.Times[n-1] {
		widen(out, val(n-1))
		return
	}
	// k is the last key at or before t.
	k := sort.Search(n, func(i int) bool { return s.Times[i] > t }) - 1
	t0, t1 := s.Times[k], s.Times[k+1]
	td := t1 - t0
	u := 0.0
	if td > 0 {
		u = (t - t0) / td
	}
	switch s.Interp {
	case Step:
		widen(out, val(k))
		return
	case CubicSpline:
		v0, v1 := val(k), val(k+1)
		b0 := s.Values[(3*k+2)*w : (3*k+3)*w] // out-tangent of k
		a1 := s.Values[(3*k+3)*w : (3*k+4)*w] // in-tangent of k+1
		u2, u3 := u*u, u*u*u
		h00 := 2*u3 - 3*u2 + 1
		h10 := u3 - 2*u2 + u
		h01 := -2*u3 + 3*u2
		h11 := u3 - u2
		for i := 0; i < w; i++ {
			out[i] = h00*float64(v0[i]) + h10*td*float64(b0[i]) + h01*float64(v1[i]) + h11*td*float64(a1[i])
		}
		if s.Quat {
			normalize(out)
		}
		return
	}
	v0, v1 := val(k), val(k+1)
	if s.Quat && w == 4 {
		var a, b [4]float64
		widen(a[:], v0)
		widen(b[:], v1)
		slerp(a[:], b[:], u, out)
		return
	}
	for i := 0; i < w; i++ {
		a, b := float64(v0[i]), float64(v1[i])
		out[i] = a + (b-a)*u
	}
}

// widen copies float32 values into out as float64 (exactly).
func widen(out []float64, v []float32) {
	for i := range min(len(out), len(v)) {
		out[i] = float64(v[i])
	}
}

// slerp interpolates unit quaternions a and b (x, y, z, w) along the
// shorter arc.
func slerp(a, b []float64, u float64, out []float64) {
	// Keys written with few digits (0.707) are not quite unit length.
	var qa, qb [4]float64
	copy(qa[:], a)
	copy(qb[:], b)
	normalize(qa[:])
	normalize(qb[:])
	a, b = qa[:], qb[:]
	d := a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3]
	sign := 1.0
	if d < 0 {
		d, sign = -d, -1
	}
	var ka, kb float64
	if d > 1-1e-10 {
		ka, kb = 1-u, u
	} else {
		th := math.Acos(d)
		sn := math.Sin(th)
		ka, kb = math.Sin((1-u)*th)/sn, math.Sin(u*th)/sn
	}
	for i := 0; i < 4; i++ {
		out[i] = ka*a[i] + sign*kb*b[i]
	}
	normalize(out)
}

func normalize(q []float64) {
	l := 0.0
	for _, v := range q {
		l += v * v
	}
	if l = math.Sqrt(l); l > 0 {
		for i := range q {
			q[i] /= l
		}
	}
}
