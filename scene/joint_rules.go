package scene

import (
	"fmt"
	"math"
	"slices"
)

// The joint rules both drafts share, beyond the field checks of
// JointSettings.validate: each axis limited at most once, limits that
// bound something, drives that can act (a target and the gain that
// follows it, on an axis no limit locks, one drive per axis), and settings
// that hold something. KHR's own schema rules come on top: a limit names
// linear or angular axes, not both (ONE_OF_MISMATCH, as the Khronos
// validator's fork reports it), and no axis twice in one list
// (DUPLICATE_ELEMENTS).

// invalidRangeCode is the code of a limit whose min is above its max:
// the KHR validator fork's KHR_RIGID_BODIES_JOINT_INVALID_RANGE, OMI's own.
func (p physicsPaths) invalidRangeCode() string {
	if p.prefix == "KHR_" {
		return "KHR_RIGID_BODIES_JOINT_INVALID_RANGE"
	}
	return p.code("JOINT_LIMIT_MIN_MAX")
}

// validateJointRules checks every joint settings object under dialect pp.
func (d *Document) validateJointRules(fs *findings, pp physicsPaths) {
	for i, j := range d.Joints {
		path := fmt.Sprintf("%s/%d", pp.joints, i)
		j.checkRules(path, fs, pp)
	}
}

func (j JointSettings) checkRules(path string, fs *findings, pp physicsPaths) {
	khr := pp.prefix == "KHR_"
	// In KHR an empty limits or drives array written out is already the
	// fork's EMPTY_ENTITY: one fault, one finding.
	explicitEmpty := j.Limits != nil || j.Drives != nil
	if len(j.Limits) == 0 && len(j.Drives) == 0 && !(khr && explicitEmpty) {
		fs.warnf(pp.code("JOINT_SETTINGS_EMPTY"), path, "joint settings have no limits and no drives: a joint using them constrains nothing")
	}
	// limitedBy[angular][axis] is the first limit naming the axis.
	limitedBy := [2][3]int{{-1, -1, -1}, {-1, -1, -1}}
	kinds := [2]string{"linear", "angular"}
	for i, l := range j.Limits {
		lp := path + "/limits/" + itoa(i)
		if khr && len(l.LinearAxes) > 0 && len(l.AngularAxes) > 0 {
			fs.errorf("ONE_OF_MISMATCH", lp, "exactly one of linearAxes and angularAxes may be set: give the linear and the angular axes a limit each")
		}
		if math.IsInf(l.Min, -1) && math.IsInf(l.Max, 1) && (len(l.LinearAxes) > 0 || len(l.AngularAxes) > 0) {
			fs.warnf(pp.code("JOINT_LIMIT_UNBOUNDED"), lp, "limit has neither min nor max: it limits nothing")
		}
		for k, axes := range [][]int{l.LinearAxes, l.AngularAxes} {
			key := kinds[k] + "Axes"
			for ai, a := range axes {
				if a < 0 || a > 2 {
					continue // validate reports it
				}
				if slices.Index(axes, a) != ai {
					code := pp.code("JOINT_AXIS_TWICE")
					if khr {
						code = "DUPLICATE_ELEMENTS"
					}
					fs.errorf(code, fmt.Sprintf("%s/%s/%d", lp, key, ai), "%s axis %d is listed twice", kinds[k], a)
					continue
				}
				if first := limitedBy[k][a]; first >= 0 && first != i {
					fs.warnf(pp.code("JOINT_AXIS_LIMITED_TWICE"), fmt.Sprintf("%s/%s/%d", lp, key, ai),
						"%s axis %s is already limited by limit %d: engines keep one of the two", kinds[k], axisName(a), first)
					continue
				}
				limitedBy[k][a] = i
			}
		}
	}
	type driveKey struct {
		typ  string
		axis int
	}
	seen := map[driveKey]int{}
	for i, dr := range j.Drives {
		dp := path + "/drives/" + itoa(i)
		if dr.Axis < 0 || dr.Axis > 2 || dr.Type != "linear" && dr.Type != "angular" {
			continue // validate reports it
		}
		k := driveKey{dr.Type, dr.Axis}
		if first, ok := seen[k]; ok {
			fs.warnf(pp.code("JOINT_DRIVE_TWICE"), dp, "drive %d already drives the %s axis %s: engines keep one of the two", first, dr.Type, axisName(dr.Axis))
		} else {
			seen[k] = i
		}
		kind := 0
		if dr.Type == "angular" {
			kind = 1
		}
		if l := limitedBy[kind][dr.Axis]; l >= 0 && j.Limits[l].Min == j.Limits[l].Max {
			fs.warnf(pp.code("JOINT_DRIVE_LOCKED_AXIS"), dp, "drive on the %s axis %s, which limit %d locks: it cannot move it", dr.Type, axisName(dr.Axis), l)
		}
		switch {
		case dr.PositionTarget == nil && dr.VelocityTarget == nil:
			fs.warnf(pp.code("JOINT_DRIVE_NO_TARGET"), dp, "drive has neither positionTarget nor velocityTarget: it drives toward nothing")
		case dr.PositionTarget != nil && dr.Stiffness == 0 && dr.VelocityTarget == nil:
			fs.warnf(pp.code("JOINT_DRIVE_NO_GAIN"), dp+"/stiffness", "drive has a positionTarget but no stiffness: it applies no force")
		case dr.PositionTarget == nil && dr.VelocityTarget != nil && dr.Damping == 0:
			fs.warnf(pp.code("JOINT_DRIVE_NO_GAIN"), dp+"/damping", "drive has a velocityTarget but no damping: it applies no force")
		}
		if dr.MaxForce == 0 {
			fs.warnf(pp.code("JOINT_DRIVE_NO_GAIN"), dp+"/maxForce", "drive's maxForce is 0: it applies no force")
		}
	}
}

func axisName(a int) string {
	if a >= 0 && a <= 2 {
		return string("XYZ"[a])
	}
	return itoa(a)
}

// SplitLimits returns j with every limit that names both linear and
// angular axes (OMI allows it, as its weld example does; KHR's schema does
// not) written as two, the linear one first, each with the same range,
// stiffness and damping. The two forms constrain the same: comparisons
// (viewer diff) read both through it.
func (j JointSettings) SplitLimits() JointSettings {
	split := false
	for _, l := range j.Limits {
		split = split || len(l.LinearAxes) > 0 && len(l.AngularAxes) > 0
	}
	if !split {
		return j
	}
	c := j.clone()
	c.Limits = nil
	for _, l := range j.Limits {
		if len(l.LinearAxes) == 0 || len(l.AngularAxes) == 0 {
			c.Limits = append(c.Limits, l)
			continue
		}
		lin, ang := l, l
		lin.AngularAxes, ang.LinearAxes = nil, nil
		ang.Extra = nil // the extras stay with the first
		c.Limits = append(c.Limits, lin, ang)
	}
	return c
}

// khrJointSettings returns the joint settings as KHR writes them (see
// SplitLimits).
func khrJointSettings(js []JointSettings) []JointSettings {
	out := make([]JointSettings, len(js))
	for i, j := range js {
		out[i] = j.SplitLimits()
	}
	return out
}
