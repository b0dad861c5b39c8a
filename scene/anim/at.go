package anim

import (
	"fmt"
	"math"
)

// PoseAt returns the pose a command line asks for: animation a (-1: every
// animation at once) at t seconds, clamped to the animation's range, or
// the rest pose when t is NaN (no time given). An index out of range or an
// infinite t is an error that starts with the value's name ("animation 3:
// the file has 1 animations", "time +Inf: ..."), so a CLI can put its flag's
// dash in front.
func (m *Model) PoseAt(a int, t float64) (*Pose, error) {
	if math.IsNaN(t) {
		return m.Rest(), nil
	}
	if a >= len(m.Animations) || a < -1 {
		return nil, fmt.Errorf("animation %d: the file has %d animations", a, len(m.Animations))
	}
	if math.IsInf(t, 0) {
		return nil, fmt.Errorf("time %v: want a finite number of seconds", t)
	}
	return m.Pose(a, t), nil
}

// PoseName names the pose PoseAt(a, t) returns: "rest pose" for a NaN t,
// else "animation A at T s".
func PoseName(a int, t float64) string {
	if math.IsNaN(t) {
		return "rest pose"
	}
	return fmt.Sprintf("animation %d at %g s", a, t)
}
