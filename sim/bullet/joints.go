package bullet

/*
#include "shim.h"
*/
import "C"

import (
	"fmt"
	"math"
)

// AMotor is an angular motor in ODE's user mode: 1 to 3 axes between two
// bodies whose world directions and angles the caller sets before each
// step (SetAxis), each with stops (SetParam). Beside a ball joint it
// limits the swing and twist the ball has no stops for.
type AMotor struct {
	w     *World
	index int
	n     int
}

// NewAMotor makes an angular motor with n axes (1 to 3) between b1 and b2
// (nil for the world); b1 must be a body.
func (w *World) NewAMotor(b1, b2 *Body, n int) (*AMotor, error) {
	if n < 1 || n > 3 {
		return nil, fmt.Errorf("bullet: an angular motor has 1 to 3 axes, not %d", n)
	}
	if b1 == nil || b1.w != w || b2 != nil && b2.w != w {
		return nil, fmt.Errorf("bullet: an angular motor needs a body of this world first")
	}
	if !w.usable() {
		return nil, w.brokenErr()
	}
	i2 := -1
	if b2 != nil {
		i2 = b2.Index
	}
	i := C.pvb_amotor_new(w.w, C.int(b1.Index), C.int(i2), C.int(n))
	if err := w.check(i); err != nil {
		return nil, err
	}
	return &AMotor{w: w, index: int(i), n: n}, nil
}

// SetAxis sets axis i's direction in world space (turning b1 about it
// relative to b2 increases the angle) and its angle (rad), which the
// axis's stops bound. Non-finite or zero axes, and axes the motor does not
// have, are ignored.
func (m *AMotor) SetAxis(i int, axis [3]float64, angle float64) {
	if i < 0 || i >= m.n || !m.w.usable() || math.IsNaN(angle) || math.IsInf(angle, 0) {
		return
	}
	n := 0.0
	for _, x := range axis {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return
		}
		n += x * x
	}
	if !(n > 0) {
		return
	}
	a := [3]C.double{C.double(axis[0]), C.double(axis[1]), C.double(axis[2])}
	m.w.check(C.pvb_amotor_axis(m.w.w, C.int(m.index), C.int(i), &a[0], C.double(angle)))
}

// SetParam sets parameter p (ParamLoStop, ParamHiStop, ParamStopERP or
// ParamStopCFM, with ODE's meanings) of axis i; others are ignored.
func (m *AMotor) SetParam(i, p int, v float64) {
	if i < 0 || i >= m.n || !m.w.usable() || math.IsNaN(v) {
		return
	}
	m.w.check(C.pvb_amotor_param(m.w.w, C.int(m.index), C.int(i), C.int(p), C.double(v)))
}

// Angle returns the angle last set on axis i (0 for an axis it lacks).
func (m *AMotor) Angle(i int) float64 {
	if i < 0 || i >= m.n || !m.w.usable() {
		return 0
	}
	var a C.double
	if m.w.check(C.pvb_amotor_angle(m.w.w, C.int(m.index), C.int(i), &a)) != nil {
		return 0
	}
	return float64(a)
}
