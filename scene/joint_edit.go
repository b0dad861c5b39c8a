package scene

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"
)

// Joint authoring: a joint between two bodies (or a body and the world) is
// made of two attachment frames, as both drafts describe them: a child
// node of body A at the pivot, which carries the joint, and a child node
// of body B (the connected node) at the same place and orientation. The
// templates below fill the limits and drives; the frame's Y axis is the
// template's main axis (a hinge turns about it, a slider slides along it,
// a cone's twist is about it), turned against the axis the author gives
// (so that limits and drives read as A's motion relative to B about it).

// JointType is a joint template: which axes the new joint locks, limits
// and leaves free.
type JointType int

// The joint templates.
const (
	JointFixed  JointType = iota // every axis locked
	JointHinge                   // turns about Y
	JointSlider                  // slides along Y
	JointBall                    // turns freely about a point
	JointCone                    // turns about a point, the swing of Y limited to a cone
	JointFree                    // nothing locked (6 degrees of freedom)
)

var jointTypeNames = [...]string{"fixed", "hinge", "slider", "ball", "cone", "free"}

// JointTypeNames lists the templates' names in order.
func JointTypeNames() []string { return jointTypeNames[:] }

// String is the template's name ("hinge").
func (t JointType) String() string {
	if t >= 0 && int(t) < len(jointTypeNames) {
		return jointTypeNames[t]
	}
	return fmt.Sprintf("joint type %d", int(t))
}

// ParseJointType reads a template name; "cone-twist", "6dof" and "weld"
// are accepted as other names of cone, free and fixed.
func ParseJointType(s string) (JointType, bool) {
	switch strings.ToLower(s) {
	case "cone-twist", "conetwist":
		return JointCone, true
	case "6dof", "6-dof", "generic":
		return JointFree, true
	case "weld":
		return JointFixed, true
	case "pin", "socket":
		return JointBall, true
	case "prismatic":
		return JointSlider, true
	}
	for i, n := range jointTypeNames {
		if strings.EqualFold(n, s) {
			return JointType(i), true
		}
	}
	return 0, false
}

// LimitAngular reports whether the template's limit is an angle (hinge,
// cone) rather than a distance (slider; free: a distance range from the
// pivot, a rope).
func (t JointType) LimitAngular() bool { return t == JointHinge || t == JointCone || t == JointBall }

// JointSettingsFor returns the settings of template t. limit, when not nil,
// is the range of the template's main degree of freedom in the file's
// units (radians, or metres): the hinge's angle about Y, the slider's
// position along Y, the cone's swing of Y (0 to its half angle), the free
// joint's distance from the pivot. A ball takes no limit.
func JointSettingsFor(t JointType, limit *[2]float64) (JointSettings, error) {
	lock := func(lin, ang []int) []JointLimit {
		var out []JointLimit
		if len(lin) > 0 {
			out = append(out, JointLimit{LinearAxes: lin, Min: 0, Max: 0, Stiffness: math.Inf(1)})
		}
		if len(ang) > 0 {
			out = append(out, JointLimit{AngularAxes: ang, Min: 0, Max: 0, Stiffness: math.Inf(1)})
		}
		return out
	}
	ranged := func(lin, ang []int) JointLimit {
		return JointLimit{LinearAxes: lin, AngularAxes: ang, Min: limit[0], Max: limit[1], Stiffness: math.Inf(1)}
	}
	if limit != nil {
		if err := checkRange(limit[0], limit[1]); err != nil {
			return JointSettings{}, err
		}
	}
	var s JointSettings
	switch t {
	case JointFixed:
		if limit != nil {
			return s, fmt.Errorf("a fixed joint has no free axis to limit")
		}
		s.Limits = lock([]int{0, 1, 2}, []int{0, 1, 2})
	case JointHinge:
		s.Limits = lock([]int{0, 1, 2}, []int{0, 2})
		if limit != nil {
			s.Limits = append(s.Limits, ranged(nil, []int{1}))
		}
	case JointSlider:
		s.Limits = lock([]int{0, 2}, []int{0, 1, 2})
		if limit != nil {
			s.Limits = append(s.Limits, ranged([]int{1}, nil))
		}
	case JointBall:
		if limit != nil {
			return s, fmt.Errorf("a ball joint turns freely: use cone for a limited swing")
		}
		s.Limits = lock([]int{0, 1, 2}, nil)
	case JointCone:
		l := [2]float64{0, math.Pi / 4}
		if limit != nil {
			l = *limit
		}
		if l[0] < 0 {
			return s, fmt.Errorf("a cone's swing is an angle from its axis, 0 or more (got min %g)", l[0])
		}
		s.Limits = lock([]int{0, 1, 2}, nil)
		s.Limits = append(s.Limits, JointLimit{AngularAxes: []int{0, 2}, Min: l[0], Max: l[1], Stiffness: math.Inf(1)})
	case JointFree:
		if limit != nil {
			if limit[0] < 0 {
				return s, fmt.Errorf("a free joint's limit is a distance from the pivot, 0 or more (got min %g)", limit[0])
			}
			s.Limits = append(s.Limits, ranged([]int{0, 1, 2}, nil))
		}
	default:
		return s, fmt.Errorf("unknown joint type %d", int(t))
	}
	return s, nil
}

func checkRange(lo, hi float64) error {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return fmt.Errorf("a limit needs numbers")
	}
	if lo > hi {
		return fmt.Errorf("a limit needs min <= max (got %g > %g)", lo, hi)
	}
	return nil
}

// NewJoint says what joint to add (NewJointEdit).
type NewJoint struct {
	// A is the node the joint frame goes under; B the connected body's
	// node, -1 for the world.
	A, B int
	Type JointType
	// Pivot is the frame's origin in world space; nil puts it midway
	// between A and B (at A when B is the world).
	Pivot *[3]float64
	// Axis is the template's main axis in world space; zero means Y.
	Axis [3]float64
	// Limit is the main degree of freedom's range in the file's units
	// (radians or metres); nil for the template's default.
	Limit *[2]float64
	// Collide is enableCollision: the two bodies may collide.
	Collide bool
}

// jointBodyOK reports whether node n may carry or be connected by a
// joint: it is in a body (any motion) or has a collider (static geometry).
func (d *Document) jointBodyOK(n int) bool {
	if d.bodyNode(n) >= 0 {
		return true
	}
	b := d.Nodes[n].Body
	return b != nil && b.Collider != nil
}

// NewJointEdit returns the edit that adds joint j: the joint frame (a child
// of A at the pivot, turned so its Y axis is -j.Axis), the connected frame
// (a child of B at the same pose; for the world, a new root node there,
// a static body in OMI and a node without motion in KHR), the template's
// joint settings and the node joint. It is one undo step.
func (d *Document) NewJointEdit(j NewJoint) (Edit, error) {
	if err := d.checkNode(j.A); err != nil {
		return nil, fmt.Errorf("joint: %w", err)
	}
	if j.B >= 0 {
		if err := d.checkNode(j.B); err != nil {
			return nil, fmt.Errorf("joint: connected node: %w", err)
		}
		if j.B == j.A {
			return nil, fmt.Errorf("joint: a joint connects two different nodes")
		}
	}
	aName := d.NodeName(j.A)
	if !d.jointBodyOK(j.A) {
		return nil, fmt.Errorf("joint: %s is not part of a body (give it a motion or a collider first)", aName)
	}
	if j.B >= 0 && !d.jointBodyOK(j.B) {
		return nil, fmt.Errorf("joint: %s is not part of a body (give it a motion or a collider first, or connect to world)", d.NodeName(j.B))
	}
	if j.B >= 0 && d.bodyNode(j.A) >= 0 && d.bodyNode(j.A) == d.bodyNode(j.B) {
		return nil, fmt.Errorf("joint: %s and %s are parts of the same body", aName, d.NodeName(j.B))
	}
	dyn := d.bodyMotion(j.A) == MotionDynamic || j.B >= 0 && d.bodyMotion(j.B) == MotionDynamic
	if !dyn {
		return nil, fmt.Errorf("joint: neither %s nor %s is a dynamic body, so the joint would move nothing", aName, d.otherName(j.B))
	}
	settings, err := JointSettingsFor(j.Type, j.Limit)
	if err != nil {
		return nil, fmt.Errorf("joint: %w", err)
	}
	wa := d.WorldMatrix(j.A)
	var pivot mgl64.Vec3
	switch {
	case j.Pivot != nil:
		pivot = mgl64.Vec3(*j.Pivot)
	case j.B >= 0:
		pivot = wa.Col(3).Vec3().Add(d.WorldMatrix(j.B).Col(3).Vec3()).Mul(0.5)
	default:
		pivot = wa.Col(3).Vec3()
	}
	for _, v := range pivot {
		if !finite(v) {
			return nil, fmt.Errorf("joint: the pivot must be finite numbers")
		}
	}
	axis := mgl64.Vec3(j.Axis)
	if axis == (mgl64.Vec3{}) {
		axis = mgl64.Vec3{0, 1, 0}
	}
	if l := axis.Len(); !finite(l) || l < 1e-12 {
		return nil, fmt.Errorf("joint: the axis must be a finite vector, not zero")
	}
	// The frame's Y axis points against the author's axis: the drafts
	// measure the connected frame (B) in the joint frame (A), so B turning
	// about -axis is A turning about +axis relative to B, which is what
	// limits and drives typed for A say.
	frame := mgl64.Translate3D(pivot[0], pivot[1], pivot[2]).Mul4(yOnto(axis.Normalize().Mul(-1)).Mat4())
	local := func(parent int) Transform {
		t := DecomposeTRS(d.WorldMatrix(parent).Inv().Mul4(frame))
		return roundTransform(t)
	}
	label := fmt.Sprintf("Add %s joint to %s", j.Type, aName)
	jn := len(d.GLTF.Nodes)
	cn := jn + 1
	edits := []Edit{AddChildNode{Parent: j.A, NodeName: aName + " " + j.Type.String() + " joint", Transform: local(j.A)}}
	if j.B >= 0 {
		edits = append(edits, AddChildNode{Parent: j.B, NodeName: d.NodeName(j.B) + " " + j.Type.String() + " joint frame", Transform: local(j.B)})
	} else {
		edits = append(edits, addRootNode{NodeName: aName + " joint anchor", Transform: roundTransform(DecomposeTRS(frame))})
		if d.PhysicsDialect() == DialectOMI {
			// OMI connects a joint to a node of a body: the world is a
			// static body at the pivot.
			m := DefaultMotion(MotionStatic)
			edits = append(edits, SetBody{Node: cn, Body: &Body{Motion: &m}, Label: label})
		}
	}
	edits = append(edits,
		AddJointSettings{Settings: settings},
		SetNodeJoint{Node: jn, Joint: &NodeJoint{Joint: len(d.Joints), ConnectedNode: cn, EnableCollision: j.Collide}, Label: label},
	)
	return Batch{Label: label, Edits: edits}, nil
}

func (d *Document) otherName(b int) string {
	if b < 0 {
		return "the world"
	}
	return d.NodeName(b)
}

// yOnto is the shortest turn that takes +Y onto unit vector a.
func yOnto(a mgl64.Vec3) mgl64.Quat {
	y := mgl64.Vec3{0, 1, 0}
	c := y.Dot(a)
	if c < -1+1e-12 {
		return mgl64.QuatRotate(math.Pi, mgl64.Vec3{1, 0, 0})
	}
	return mgl64.QuatBetweenVectors(y, a)
}

// roundTransform keeps 12 significant digits of a computed transform, so
// a frame at 0.5 is written 0.5, not 0.49999999999999994.
func roundTransform(t Transform) Transform {
	r := func(v float64) float64 {
		if math.Abs(v) < 1e-12 {
			return 0
		}
		return RoundSig(v, 12)
	}
	for i := range t.Translation {
		t.Translation[i] = r(t.Translation[i])
		t.Scale[i] = r(t.Scale[i])
	}
	for i := range t.Rotation {
		t.Rotation[i] = r(t.Rotation[i])
	}
	return t
}

// JointNodeOf returns the node that carries the joint of node a: a itself,
// or its one child with a joint (a body node's joint frame, as the
// Inspector shows it).
func (d *Document) JointNodeOf(a int) (int, error) {
	if err := d.checkNode(a); err != nil {
		return -1, err
	}
	if d.Nodes[a].Joint != nil {
		return a, nil
	}
	var found []int
	for _, c := range d.Children(a) {
		if d.Nodes[c].Joint != nil {
			found = append(found, c)
		}
	}
	switch len(found) {
	case 0:
		return -1, fmt.Errorf("%s has no joint, nor has any of its children", d.NodeName(a))
	case 1:
		return found[0], nil
	}
	names := make([]string, len(found))
	for i, c := range found {
		names[i] = fmt.Sprintf("%q", d.NodeName(c))
	}
	return -1, fmt.Errorf("%s has %d joints: name one of %s", d.NodeName(a), len(found), strings.Join(names, ", "))
}

// JointAxis is one degree of freedom of a joint frame: a linear or angular
// axis 0, 1 or 2 (X, Y, Z). Swing is the cone of an angular limit on X and
// Z together (Axis is then 1, the cone's axis).
type JointAxis struct {
	Angular bool
	Axis    int
	Swing   bool
}

// String names the axis as edit commands take it: "angular-y",
// "linear-x", "swing".
func (a JointAxis) String() string {
	if a.Swing {
		return "swing"
	}
	k := "linear-"
	if a.Angular {
		k = "angular-"
	}
	return k + string("xyz"[a.Axis])
}

// ParseJointAxis reads an axis: angular-x|y|z (also ax, rx), linear-x|y|z
// (also lx, tx), or swing.
func ParseJointAxis(s string) (JointAxis, bool) {
	s = strings.ToLower(s)
	if s == "swing" || s == "cone" {
		return JointAxis{Angular: true, Axis: 1, Swing: true}, true
	}
	if len(s) < 2 {
		return JointAxis{}, false
	}
	k := strings.IndexByte("xyz", s[len(s)-1])
	if k < 0 {
		return JointAxis{}, false
	}
	switch s[:len(s)-1] {
	case "angular-", "angular", "a", "r", "rot-", "rot":
		return JointAxis{Angular: true, Axis: k}, true
	case "linear-", "linear", "l", "t", "pos-", "pos":
		return JointAxis{Axis: k}, true
	}
	return JointAxis{}, false
}

// axes returns the limit's axes of the given kind.
func (l JointLimit) axes(angular bool) []int {
	if angular {
		return l.AngularAxes
	}
	return l.LinearAxes
}

// locks reports whether limit l locks its axes (min = max).
func (l JointLimit) locks() bool { return l.Min == l.Max }

// LocksAll reports whether limit l locks the axes it names (min = max).
func (l JointLimit) LocksAll() bool { return l.locks() }

// FreeAxes returns the degrees of freedom of joint settings s that no
// limit locks, linear first; a cone (an angular limit on X and Z
// together, the rest free) is given as the swing axis.
func (s JointSettings) FreeAxes() []JointAxis {
	var out []JointAxis
	for _, ang := range []bool{false, true} {
		for k := 0; k < 3; k++ {
			locked := false
			for _, l := range s.Limits {
				if l.locks() && slices.Contains(l.axes(ang), k) {
					locked = true
				}
			}
			if !locked {
				out = append(out, JointAxis{Angular: ang, Axis: k})
			}
		}
	}
	return out
}

// MainAxis is the axis a limit or drive goes on when none is named: the
// one free axis (a hinge's, a slider's), else the swing of a cone, else
// the first free axis that a limit already ranges.
func (s JointSettings) MainAxis() (JointAxis, error) {
	free := s.FreeAxes()
	if len(free) == 1 {
		return free[0], nil
	}
	for _, l := range s.Limits {
		if !l.locks() && len(l.LinearAxes) == 0 && slices.Equal(sortedCopy(l.AngularAxes), []int{0, 2}) {
			return JointAxis{Angular: true, Axis: 1, Swing: true}, nil
		}
	}
	for _, l := range s.Limits {
		if l.locks() {
			continue
		}
		for _, ang := range []bool{false, true} {
			if ax := l.axes(ang); len(ax) == 1 {
				return JointAxis{Angular: ang, Axis: ax[0]}, nil
			}
		}
	}
	if len(free) == 0 {
		return JointAxis{}, fmt.Errorf("the joint locks every axis (a fixed joint): name the axis to free")
	}
	names := make([]string, len(free))
	for i, a := range free {
		names[i] = a.String()
	}
	return JointAxis{}, fmt.Errorf("the joint has %d free axes: name one (%s)", len(free), strings.Join(names, ", "))
}

func sortedCopy(a []int) []int {
	c := slices.Clone(a)
	slices.Sort(c)
	return c
}

// WithLimit returns s with the limit of axis ax set to [lo, hi] with the
// given stiffness (+Inf: hard) and damping: the axis is taken out of the
// limits that name it (a limit on it alone is replaced in place, keeping
// its extras), so each axis is limited once.
func (s JointSettings) WithLimit(ax JointAxis, lo, hi, stiffness, damping float64) (JointSettings, error) {
	if err := checkRange(lo, hi); err != nil {
		return s, err
	}
	if math.IsNaN(stiffness) || stiffness < 0 {
		return s, fmt.Errorf("a limit's stiffness must not be negative (got %g)", stiffness)
	}
	if !finite(damping) || damping < 0 {
		return s, fmt.Errorf("a limit's damping must be a number, 0 or more (got %g)", damping)
	}
	if ax.Axis < 0 || ax.Axis > 2 {
		return s, fmt.Errorf("joint axes are x, y or z")
	}
	want := []int{ax.Axis}
	if ax.Swing {
		want = []int{0, 2}
		if lo < 0 {
			return s, fmt.Errorf("a cone's swing is an angle from its axis, 0 or more (got min %g)", lo)
		}
	}
	out := s.clone()
	nl := JointLimit{Min: lo, Max: hi, Stiffness: stiffness, Damping: damping}
	if ax.Angular {
		nl.AngularAxes = want
	} else {
		nl.LinearAxes = want
	}
	placed := false
	var limits []JointLimit
	for _, l := range out.Limits {
		axes := l.axes(ax.Angular)
		rest := slices.DeleteFunc(slices.Clone(axes), func(a int) bool { return slices.Contains(want, a) })
		if len(rest) == len(axes) {
			limits = append(limits, l)
			continue
		}
		other := l.axes(!ax.Angular)
		if len(rest) == 0 && len(other) == 0 && !placed {
			// A limit on exactly these axes: replaced where it is.
			nl.Extra = l.Extra
			limits = append(limits, nl)
			placed = true
			continue
		}
		if ax.Angular {
			l.AngularAxes = orNilInts(rest)
		} else {
			l.LinearAxes = orNilInts(rest)
		}
		if len(l.LinearAxes) > 0 || len(l.AngularAxes) > 0 {
			limits = append(limits, l)
		}
	}
	if !placed {
		limits = append(limits, nl)
	}
	out.Limits = limits
	return out, nil
}

// WithoutLimit returns s with axis ax limited by nothing.
func (s JointSettings) WithoutLimit(ax JointAxis) JointSettings {
	want := []int{ax.Axis}
	if ax.Swing {
		want = []int{0, 2}
	}
	out := s.clone()
	var limits []JointLimit
	for _, l := range out.Limits {
		rest := slices.DeleteFunc(slices.Clone(l.axes(ax.Angular)), func(a int) bool { return slices.Contains(want, a) })
		if ax.Angular {
			l.AngularAxes = orNilInts(rest)
		} else {
			l.LinearAxes = orNilInts(rest)
		}
		if len(l.LinearAxes) > 0 || len(l.AngularAxes) > 0 {
			limits = append(limits, l)
		}
	}
	out.Limits = limits
	return out
}

func orNilInts(a []int) []int {
	if len(a) == 0 {
		return nil
	}
	return a
}

// WithDrive returns s with drive dr on its axis, replacing a drive of the
// same type and axis (keeping its extras).
func (s JointSettings) WithDrive(dr JointDrive) (JointSettings, error) {
	if err := dr.Check(); err != nil {
		return s, err
	}
	out := s.clone()
	for i, o := range out.Drives {
		if o.Type == dr.Type && o.Axis == dr.Axis {
			dr.Extra = o.Extra
			out.Drives[i] = dr
			return out, nil
		}
	}
	out.Drives = append(out.Drives, dr)
	return out, nil
}

// Check reports a drive value the drafts forbid: an unknown type or mode,
// an axis other than 0, 1, 2, a negative max force, stiffness or damping,
// targets that are not numbers, or no target at all.
func (dr JointDrive) Check() error {
	if dr.Type != "linear" && dr.Type != "angular" {
		return fmt.Errorf("a drive's type is linear or angular (got %q)", dr.Type)
	}
	if dr.Mode != "force" && dr.Mode != "acceleration" {
		return fmt.Errorf("a drive's mode is force or acceleration (got %q)", dr.Mode)
	}
	if dr.Axis < 0 || dr.Axis > 2 {
		return fmt.Errorf("a drive's axis is 0, 1 or 2 (got %d)", dr.Axis)
	}
	if math.IsNaN(dr.MaxForce) || dr.MaxForce < 0 {
		return fmt.Errorf("a drive's maxForce must not be negative (got %g)", dr.MaxForce)
	}
	if !finite(dr.Stiffness) || dr.Stiffness < 0 {
		return fmt.Errorf("a drive's stiffness must be a number, 0 or more (got %g)", dr.Stiffness)
	}
	if !finite(dr.Damping) || dr.Damping < 0 {
		return fmt.Errorf("a drive's damping must be a number, 0 or more (got %g)", dr.Damping)
	}
	if dr.PositionTarget == nil && dr.VelocityTarget == nil {
		return fmt.Errorf("a drive needs a position or a velocity target")
	}
	for _, p := range []*float64{dr.PositionTarget, dr.VelocityTarget} {
		if p != nil && !finite(*p) {
			return fmt.Errorf("a drive's targets must be finite numbers")
		}
	}
	return nil
}

// SetJointEdit returns the edit that gives joint node jn the settings s:
// when other joints share its settings, the node gets a copy of its own
// (editing one door's hinge does not change every door's).
func (d *Document) SetJointEdit(jn int, s JointSettings, label string) (Edit, error) {
	if err := d.checkNode(jn); err != nil {
		return nil, err
	}
	nj := d.Nodes[jn].Joint
	if nj == nil {
		return nil, fmt.Errorf("%s has no joint", d.NodeName(jn))
	}
	if nj.Joint < 0 || nj.Joint >= len(d.Joints) {
		return nil, fmt.Errorf("the joint of %s names settings %d, which do not exist", d.NodeName(jn), nj.Joint)
	}
	if len(d.JointSettingsUsers(nj.Joint)) <= 1 {
		return Batch{Label: label, Edits: []Edit{SetJointSettings{Index: nj.Joint, Settings: s, Label: label}}}, nil
	}
	c := *nj
	c.Joint = len(d.Joints)
	return Batch{Label: label, Edits: []Edit{AddJointSettings{Settings: s}, SetNodeJoint{Node: jn, Joint: &c, Label: label}}}, nil
}

// RemoveJointNodeEdit removes the joint of joint node jn and its settings
// when nothing else uses them. The frames NewJointEdit made go too when
// they are still the last nodes added (the joint was added in this session
// and nothing since); a file's own nodes are never deleted.
func (d *Document) RemoveJointNodeEdit(jn int) (Edit, error) {
	if err := d.checkNode(jn); err != nil {
		return nil, err
	}
	nj := d.Nodes[jn].Joint
	if nj == nil {
		return nil, fmt.Errorf("%s has no joint", d.NodeName(jn))
	}
	label := "Remove joint of " + d.NodeName(jn)
	b := d.RemoveJointEdit(jn).(Batch)
	b.Label = label
	last := len(d.GLTF.Nodes) - 1
	cn := nj.ConnectedNode
	if cn == last && jn == last-1 && jn >= d.source.nodes && len(d.Children(cn)) == 0 && len(d.Children(jn)) == 0 &&
		d.GLTF.Nodes[jn].Mesh == nil && d.GLTF.Nodes[cn].Mesh == nil && d.Nodes[jn].Body == nil && d.Nodes[cn].Joint == nil {
		cb := d.Nodes[cn].Body
		worldAnchor := cb != nil && cb.Collider == nil && cb.Trigger == nil && cb.Motion != nil && cb.Motion.Type == MotionStatic
		if cb == nil || worldAnchor {
			if cb != nil {
				b.Edits = append(b.Edits, SetBody{Node: cn, Body: nil, Label: label})
			}
			b.Edits = append(b.Edits, removeAddedNode{label: label}, removeAddedNode{label: label})
		}
	}
	return b, nil
}

// RetargetJointEdit connects joint node jn to body node b instead (-1 for
// the world): a new connected frame is made under b at the joint frame's
// place and orientation (for the world, a new root node there, a static
// body in OMI), as NewJointEdit makes one. One undo step; the old frame
// stays (a file's nodes are not deleted).
func (d *Document) RetargetJointEdit(jn, b int) (Edit, error) {
	if err := d.checkNode(jn); err != nil {
		return nil, err
	}
	nj := d.Nodes[jn].Joint
	if nj == nil {
		return nil, fmt.Errorf("%s has no joint", d.NodeName(jn))
	}
	name := d.NodeName(jn)
	if b >= 0 {
		if err := d.checkNode(b); err != nil {
			return nil, fmt.Errorf("retarget: %w", err)
		}
		if !d.jointBodyOK(b) {
			return nil, fmt.Errorf("retarget: %s is not part of a body", d.NodeName(b))
		}
		if own := d.bodyNode(jn); own >= 0 && own == d.bodyNode(b) || b == jn || d.Parent(jn) == b && d.bodyNode(b) < 0 {
			return nil, fmt.Errorf("retarget: %s is the joint's own body", d.NodeName(b))
		}
	}
	if b < 0 && d.bodyMotion(jn) != MotionDynamic {
		return nil, fmt.Errorf("retarget: %s is not on a dynamic body, so a joint to the world would move nothing", name)
	}
	frame := d.WorldMatrix(jn)
	label := fmt.Sprintf("Connect %s to %s", name, d.otherName(b))
	cn := len(d.GLTF.Nodes)
	var edits []Edit
	if b >= 0 {
		t := roundTransform(DecomposeTRS(d.WorldMatrix(b).Inv().Mul4(frame)))
		edits = append(edits, AddChildNode{Parent: b, NodeName: d.NodeName(b) + " joint frame", Transform: t})
	} else {
		edits = append(edits, addRootNode{NodeName: name + " anchor", Transform: roundTransform(DecomposeTRS(frame))})
		if d.PhysicsDialect() == DialectOMI {
			m := DefaultMotion(MotionStatic)
			edits = append(edits, SetBody{Node: cn, Body: &Body{Motion: &m}, Label: label})
		}
	}
	c := *nj
	c.ConnectedNode = cn
	edits = append(edits, SetNodeJoint{Node: jn, Joint: &c, Label: label})
	return Batch{Label: label, Edits: edits}, nil
}

// MoveJointPivotEdit moves the joint frame of jn and its connected frame
// (when that is a frame of its own, not a body node) to world position p,
// keeping their orientations: one undo step.
func (d *Document) MoveJointPivotEdit(jn int, p [3]float64) (Edit, error) {
	if err := d.checkNode(jn); err != nil {
		return nil, err
	}
	nj := d.Nodes[jn].Joint
	if nj == nil {
		return nil, fmt.Errorf("%s has no joint", d.NodeName(jn))
	}
	label := "Move pivot of " + d.NodeName(jn)
	move := func(n int) Edit {
		w := d.WorldMatrix(n)
		w[12], w[13], w[14] = p[0], p[1], p[2]
		parent := mgl64.Ident4()
		if pa := d.Parent(n); pa >= 0 {
			parent = d.WorldMatrix(pa)
		}
		t := roundTransform(DecomposeTRS(parent.Inv().Mul4(w)))
		return SetNodeTransform{Node: n, Transform: t, Label: label}
	}
	edits := []Edit{move(jn)}
	if c := nj.ConnectedNode; c >= 0 && c < len(d.Nodes) && c != d.bodyNode(c) {
		edits = append(edits, move(c))
	} else if c >= 0 && c < len(d.Nodes) && d.Parent(c) < 0 && d.Nodes[c].Body != nil && d.Nodes[c].Body.Collider == nil {
		// A world anchor (a static body of its own at the pivot) moves too.
		edits = append(edits, move(c))
	}
	return jointMove{Batch{Label: label, Edits: edits}, jn}, nil
}

// jointMove is a pivot drag: repeats fold into one undo step.
type jointMove struct {
	Batch
	node int
}

func (e jointMove) mergeKey() string { return fmt.Sprintf("joint pivot %d", e.node) }

// addRootNode appends a node at the root of the shown scene (a document
// without scenes shows every root node).
type addRootNode struct {
	NodeName  string
	Transform Transform
}

func (e addRootNode) Name() string { return "Add node " + e.NodeName }

func (e addRootNode) apply(d *Document) (Edit, Change, error) {
	if d == nil || d.GLTF == nil {
		return nil, Change{}, errNoDocument
	}
	i := len(d.GLTF.Nodes)
	t := e.Transform
	d.GLTF.Nodes = append(d.GLTF.Nodes, &gltf.Node{Name: e.NodeName, Matrix: gltf.DefaultMatrix, Translation: t.Translation, Rotation: t.Rotation, Scale: t.Scale})
	if s := d.ShownScene(); s >= 0 {
		sc := d.GLTF.Scenes[s]
		sc.Nodes = append(slices.Clone(sc.Nodes), i)
	}
	d.Nodes = append(d.Nodes, NodeExtensions{})
	d.source.parent = append(d.source.parent, -1)
	return removeAddedNode{label: e.Name()}, Change{Structure: true}, nil
}

// removeAddedNode removes the last node, which an edit added: from its
// parent's children, or from the scenes' root lists.
type removeAddedNode struct{ label string }

func (e removeAddedNode) Name() string { return e.label }

func (e removeAddedNode) apply(d *Document) (Edit, Change, error) {
	i := len(d.GLTF.Nodes) - 1
	if i < 0 || i >= len(d.Nodes) || i < d.source.nodes {
		return nil, Change{}, fmt.Errorf("no added node to remove")
	}
	parent := d.Parent(i)
	if parent >= 0 {
		inv, ch, err := removeLastNode{label: e.label}.apply(d)
		return inv, ch, err
	}
	removed := d.GLTF.Nodes[i]
	undo := addRootNode{NodeName: removed.Name, Transform: d.NodeTransform(i)}
	for _, sc := range d.GLTF.Scenes {
		if slices.Contains(sc.Nodes, i) {
			sc.Nodes = slices.DeleteFunc(slices.Clone(sc.Nodes), func(c int) bool { return c == i })
		}
	}
	d.GLTF.Nodes = d.GLTF.Nodes[:i]
	d.Nodes = d.Nodes[:i]
	d.source.parent = d.source.parent[:i]
	return undo, Change{Structure: true}, nil
}
