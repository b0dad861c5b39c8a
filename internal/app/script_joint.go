package app

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"physview/internal/report"
	"physview/scene"
	"physview/sim"
)

// The joint commands of `viewer edit` (and of the Inspector, which builds
// the same edits): angles are typed in degrees and written in radians,
// distances in metres; pivot and axis are in world space.
func init() {
	for _, c := range []EditCommand{
		{Name: "joint", Args: 3, Edit: jointCommand,
			Usage: "joint A B|world fixed|hinge|slider|ball|cone|free [axis=X,Y,Z] [pivot=X,Y,Z] [limit=MIN,MAX (degrees or m)] [collide=true|false]"},
		{Name: "joint-limit", Args: 2, OptArgs: 1, Edit: jointLimitCommand,
			Usage: "joint-limit A [angular-x|y|z|linear-x|y|z|swing] MIN,MAX|free [stiffness=K] [damping=D]"},
		{Name: "joint-drive", Args: 1, Edit: jointDriveCommand,
			Usage: "joint-drive A velocity=V|position=P [axis=AXIS] [maxForce=F] [stiffness=K] [damping=D] [mode=acceleration|force] (rad/s and degrees, or m/s and m)"},
		{Name: "remove-joint", Args: 1, Edit: removeJointCommand, Usage: "remove-joint A"},
		{Name: "retarget-joint", Args: 2, Edit: retargetJointCommand, Usage: "retarget-joint A B|world"},
	} {
		RegisterEditCommand(c)
	}
}

// JointUnits converts a value typed for axis ax to the file's units:
// degrees to radians for an angular axis, metres as they are.
func JointUnits(ax scene.JointAxis, v float64) float64 {
	if ax.Angular {
		return v * math.Pi / 180
	}
	return v
}

// ShownUnits converts a value of the file for axis ax to what the window
// and the commands show: radians to degrees, metres as they are.
func ShownUnits(ax scene.JointAxis, v float64) float64 {
	if ax.Angular {
		return v * 180 / math.Pi
	}
	return v
}

// rangeWords reads "MIN,MAX" (either may be -inf or inf).
func rangeWords(key, v string) ([2]float64, error) {
	lo, hi, ok := strings.Cut(v, ",")
	if !ok {
		return [2]float64{}, fmt.Errorf("%s %s: want MIN,MAX", key, v)
	}
	var out [2]float64
	for i, w := range []string{lo, hi} {
		f, err := strconv.ParseFloat(strings.TrimSpace(w), 64)
		if err != nil || math.IsNaN(f) {
			return out, fmt.Errorf("%s %s: %q is not a number", key, v, w)
		}
		out[i] = f
	}
	if out[0] > out[1] {
		return out, fmt.Errorf("%s %s: min %g is greater than max %g", key, v, out[0], out[1])
	}
	return out, nil
}

func boolWord(key, v string) (bool, error) {
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s=%s: want true or false", key, v)
	}
	return b, nil
}

func jointCommand(s *Session, args []string) (scene.Edit, error) {
	d := s.Doc
	a, err := FindNode(d, args[0])
	if err != nil {
		return nil, err
	}
	b := -1
	if !strings.EqualFold(args[1], "world") {
		if b, err = FindNode(d, args[1]); err != nil {
			return nil, err
		}
	}
	t, ok := scene.ParseJointType(args[2])
	if !ok {
		return nil, fmt.Errorf("unknown joint type %q (%s)", args[2], strings.Join(scene.JointTypeNames(), ", "))
	}
	opts, err := options(args[3:], "axis", "pivot", "limit", "collide")
	if err != nil {
		return nil, err
	}
	j := scene.NewJoint{A: a, B: b, Type: t}
	if v, ok := opts["axis"]; ok {
		if j.Axis, err = vector3("axis", v); err != nil {
			return nil, err
		}
		if j.Axis == [3]float64{} {
			return nil, fmt.Errorf("axis=%s: the axis must not be the zero vector", v)
		}
	}
	if v, ok := opts["pivot"]; ok {
		p, err := vector3("pivot", v)
		if err != nil {
			return nil, err
		}
		j.Pivot = &p
	}
	if v, ok := opts["limit"]; ok {
		l, err := rangeWords("limit", v)
		if err != nil {
			return nil, err
		}
		if t.LimitAngular() {
			l = [2]float64{l[0] * math.Pi / 180, l[1] * math.Pi / 180}
		}
		j.Limit = &l
	}
	if v, ok := opts["collide"]; ok {
		if j.Collide, err = boolWord("collide", v); err != nil {
			return nil, err
		}
	}
	return d.NewJointEdit(j)
}

// jointNode resolves A (the node that owns the joint, or whose joint
// child does) to its joint node.
func jointNode(d *scene.Document, ref string) (int, error) {
	a, err := FindNode(d, ref)
	if err != nil {
		return -1, err
	}
	return d.JointNodeOf(a)
}

// jointOf resolves A to its joint node and current settings.
func jointOf(d *scene.Document, ref string) (int, scene.JointSettings, error) {
	jn, err := jointNode(d, ref)
	if err != nil {
		return -1, scene.JointSettings{}, err
	}
	k := d.Nodes[jn].Joint.Joint
	if k < 0 || k >= len(d.Joints) {
		return -1, scene.JointSettings{}, fmt.Errorf("the joint of %s names settings %d, which do not exist", d.NodeName(jn), k)
	}
	return jn, d.Joints[k], nil
}

func axisWord(js scene.JointSettings, w string) (scene.JointAxis, error) {
	if w == "" {
		ax, err := js.MainAxis()
		if err != nil {
			return ax, fmt.Errorf("which axis? %w", err)
		}
		return ax, nil
	}
	ax, ok := scene.ParseJointAxis(w)
	if !ok {
		return ax, fmt.Errorf("unknown axis %q (angular-x, angular-y, angular-z, linear-x, linear-y, linear-z or swing)", w)
	}
	return ax, nil
}

func jointLimitCommand(s *Session, args []string) (scene.Edit, error) {
	d := s.Doc
	jn, js, err := jointOf(d, args[0])
	if err != nil {
		return nil, err
	}
	axisW, rangeW, rest := "", args[1], args[2:]
	if len(args) > 2 && !strings.Contains(args[2], "=") {
		axisW, rangeW, rest = args[1], args[2], args[3:]
	}
	opts, err := options(rest, "stiffness", "damping")
	if err != nil {
		return nil, err
	}
	ax, err := axisWord(js, axisW)
	if err != nil {
		return nil, err
	}
	label := fmt.Sprintf("Limit %s of %s", ax, d.NodeName(jn))
	if strings.EqualFold(rangeW, "free") {
		if len(opts) > 0 {
			return nil, fmt.Errorf("a free axis takes no stiffness or damping")
		}
		return d.SetJointEdit(jn, js.WithoutLimit(ax), "Free "+ax.String()+" of "+d.NodeName(jn))
	}
	r, err := rangeWords("limit", rangeW)
	if err != nil {
		return nil, err
	}
	stiff, damp := math.Inf(1), 0.0
	if v, ok := opts["stiffness"]; ok {
		if stiff, err = number("stiffness", v); err != nil {
			return nil, err
		}
		if stiff < 0 {
			return nil, fmt.Errorf("stiffness=%s: a limit's stiffness must not be negative", v)
		}
	}
	if v, ok := opts["damping"]; ok {
		if damp, err = number("damping", v); err != nil {
			return nil, err
		}
		if damp < 0 {
			return nil, fmt.Errorf("damping=%s: a limit's damping must not be negative", v)
		}
	}
	ns, err := js.WithLimit(ax, JointUnits(ax, r[0]), JointUnits(ax, r[1]), stiff, damp)
	if err != nil {
		return nil, err
	}
	return d.SetJointEdit(jn, ns, label)
}

// Defaults of a drive made by joint-drive: acceleration mode, so they do
// not depend on the bodies' masses. A velocity drive closes its gap at
// 10/s (within 5% of its target in 0.3 s); a position drive is a
// critically damped spring of 10 rad/s (settled in about a second).
const (
	driveVelocityDamping = 10
	drivePositionStiff   = 100
	drivePositionDamping = 20
)

func jointDriveCommand(s *Session, args []string) (scene.Edit, error) {
	d := s.Doc
	jn, js, err := jointOf(d, args[0])
	if err != nil {
		return nil, err
	}
	opts, err := options(args[1:], "velocity", "position", "axis", "maxForce", "stiffness", "damping", "mode")
	if err != nil {
		return nil, err
	}
	ax, err := axisWord(js, opts["axis"])
	if err != nil {
		return nil, err
	}
	if ax.Swing {
		return nil, fmt.Errorf("a drive moves one axis: name angular-x, angular-y or angular-z")
	}
	dr := scene.JointDrive{Type: "linear", Mode: "acceleration", Axis: ax.Axis, MaxForce: math.Inf(1)}
	if ax.Angular {
		dr.Type = "angular"
	}
	vs, hasV := opts["velocity"]
	ps, hasP := opts["position"]
	if !hasV && !hasP {
		return nil, fmt.Errorf("say velocity=V (rad/s or m/s) or position=P (degrees or m)")
	}
	if hasV {
		v, err := number("velocity", vs)
		if err != nil {
			return nil, err
		}
		dr.VelocityTarget = &v
		dr.Damping = driveVelocityDamping
	}
	if hasP {
		p, err := number("position", ps)
		if err != nil {
			return nil, err
		}
		p = JointUnits(ax, p)
		dr.PositionTarget = &p
		dr.Stiffness, dr.Damping = drivePositionStiff, drivePositionDamping
	}
	if v, ok := opts["mode"]; ok {
		if v != "force" && v != "acceleration" {
			return nil, fmt.Errorf("mode=%s: force or acceleration", v)
		}
		dr.Mode = v
	}
	for key, dst := range map[string]*float64{"maxForce": &dr.MaxForce, "stiffness": &dr.Stiffness, "damping": &dr.Damping} {
		v, ok := opts[key]
		if !ok {
			continue
		}
		f, err := number(key, v)
		if err != nil {
			return nil, err
		}
		if f < 0 {
			return nil, fmt.Errorf("%s=%s: must not be negative", key, v)
		}
		*dst = f
	}
	ns, err := js.WithDrive(dr)
	if err != nil {
		return nil, err
	}
	return d.SetJointEdit(jn, ns, fmt.Sprintf("Drive %s of %s", ax, d.NodeName(jn)))
}

func removeJointCommand(s *Session, args []string) (scene.Edit, error) {
	d := s.Doc
	jn, err := jointNode(d, args[0])
	if err != nil {
		return nil, err
	}
	if _, err := options(args[1:]); err != nil {
		return nil, err
	}
	return d.RemoveJointNodeEdit(jn)
}

// jointReport lists s's joints for `simulate`, by node: angles in
// degrees, positions in metres.
func jointReport(s *sim.Sim) []report.JointState {
	var out []report.JointState
	for _, j := range s.JointStates() {
		r := report.JointState{Node: j.Node, Name: j.Name, Type: j.Type}
		v := j.Value
		if j.Angular {
			v *= 180 / math.Pi
			r.Angle = &v
		} else {
			r.Position = &v
		}
		out = append(out, r)
	}
	slices.SortStableFunc(out, func(a, b report.JointState) int { return a.Node - b.Node })
	return out
}

func retargetJointCommand(s *Session, args []string) (scene.Edit, error) {
	d := s.Doc
	jn, err := jointNode(d, args[0])
	if err != nil {
		return nil, err
	}
	if _, err := options(args[2:]); err != nil {
		return nil, err
	}
	b := -1
	if !strings.EqualFold(args[1], "world") {
		if b, err = FindNode(d, args[1]); err != nil {
			return nil, err
		}
	}
	return d.RetargetJointEdit(jn, b)
}
