package sim

import (
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
	"physview/sim/ode"
)

// joint is one OMI joint node played as an ODE joint.
type joint struct {
	node   int
	kind   ode.JointType
	j      engineJoint
	drives []*driveAxis
	stops  []*stopAxis
	// sign is -1 when ODE measures the joint the other way round (its
	// body 1 is the joint node's, the connected node being the world).
	sign float64
	// fb and cb index Bodies for the joint node's and the connected
	// node's bodies (-1: the world); fr and cr are the frames' rotations
	// in those bodies (in the world for -1), for the angle between them.
	fb, cb int
	fr, cr mgl64.Quat
	// turns are a ball joint's angular limits, played by amotor (nil
	// without them, or on an engine without angular motors).
	turns  []*turnLimit
	amotor angularMotor
}

// turnLimit is one angular limit of a ball joint, played as one axis of an
// ODE angular motor whose direction and angle the sim sets before each
// step (ODE's ball joint has no stops): a limit on one axis bounds the
// turn about it (the twist of a swing-twist split), on two axes the swing
// of the remaining axis away from the connected frame's (a cone, as the
// KHR draft reads a 2D angular limit), on three the whole angle between
// the frames.
type turnLimit struct {
	axes   []int
	lo, hi float64 // ODE's stops (rad); -Inf below a cone's 0
	// hard is set without stiffness (the stop ERP is then bounded as
	// boundStops does); else stiffness and damping make a soft stop.
	hard               bool
	stiffness, damping float64
	erp                float64
}

// stopAxis is a rigid stop range of one axis group, in ODE's sense of the
// axis, and the stop ERP last given to ODE.
type stopAxis struct {
	group  int
	lo, hi float64
	erp    float64
}

// axisLimit is what the OMI limits and drives say about one axis.
type axisLimit struct {
	locked, ranged     bool
	min, max           float64
	stiffness, damping float64
	offset             bool // locked at a value other than 0
	// drive is the drive on the axis, nil for none.
	drive *scene.JointDrive
}

// driveAxis is a drive played on one axis group of an ODE joint: a damped
// spring, force = stiffness × (positionTarget − x) + damping ×
// (velocityTarget − v), at most maxForce (KHR_physics_rigid_bodies),
// scaled by the axis's effective mass in acceleration mode.
type driveAxis struct {
	group  int     // ODE axis group: 0 or 1
	sign   float64 // -1 when ODE measures the axis the other way round
	linear bool
	accel  bool
	// kp and kd are the stiffness (0 without a position target) and the
	// damping; xt and vt the targets (vt 0 without a velocity target).
	kp, kd, xt, vt, maxForce float64
	// The stops of the axis (in the drive's sense), when ranged.
	ranged bool
	lo, hi float64
	// b1 and b2 index Bodies (-1 for the world); axis is the angular axis
	// in b1's axes.
	b1, b2 int
	axis   mgl64.Vec3
}

// makeJoints maps every OMI joint node onto the ODE joint that has the same
// free axes: fixed (none), hinge (one angular), slider (one linear), ball
// (three angular), universal (two angular), piston (one linear and one
// angular about the same axis). Other combinations are approximated, with a
// warning. The connected node's body is ODE's body 1 and the joint node's
// body is body 2, so ODE's angle is the connected frame's angle in the joint
// frame, the quantity OMI limits bound (when the connected node is on no
// moving body, the joint node's body is body 1 and the limits are negated).
func (s *Sim) makeJoints(nodes []int) error {
	d := s.Doc
	for _, n := range nodes {
		nj := d.Nodes[n].Joint
		if nj == nil || s.disabled(n) {
			continue
		}
		name := nodeName(d, n)
		if nj.Joint < 0 || nj.Joint >= len(d.Joints) || nj.ConnectedNode < 0 || nj.ConnectedNode >= len(d.Nodes) {
			s.warnf("joint %q: its settings or connected node do not exist; skipped", name)
			continue
		}
		var b1, b2 engineBody
		i1, i2 := -1, -1
		if i, ok := s.byNode[d.BodyNode(nj.ConnectedNode)]; ok {
			b1, i1 = s.Bodies[i].body, i
		}
		if i, ok := s.byNode[d.BodyNode(n)]; ok {
			b2, i2 = s.Bodies[i].body, i
		}
		if b1 == nil && b2 == nil || b1 == b2 {
			s.warnf("joint %q joins nothing that moves (or a body to itself); skipped", name)
			continue
		}
		if nj.EnableCollision && b1 != nil && b2 != nil {
			s.warnf("joint %q: enableCollision is not played; bodies joined by a joint never collide in %s here", name, s.engineLabel())
		}
		if !nj.EnableCollision && (b1 == nil || b2 == nil) {
			if err := s.noCollideStatic(n, nj.ConnectedNode, b1, b2); err != nil {
				return err
			}
		}
		lin, ang := jointAxes(d.Joints[nj.Joint])
		for k := 0; k < 3; k++ {
			if lin[k].offset || ang[k].offset {
				s.warnf("joint %q: an axis locked at a value other than 0 is locked where the frames start", name)
			}
		}
		t, r, _ := rigid(s.world[n])
		axis := func(k int) [3]float64 { c := r.Col(k); return [3]float64{c[0], c[1], c[2]} }
		var linFree, angFree []int
		for k := 0; k < 3; k++ {
			if !lin[k].locked {
				linFree = append(linFree, k)
			}
			if !ang[k].locked {
				angFree = append(angFree, k)
			}
		}
		if len(linFree) == 3 && len(angFree) == 3 && !anyDriven(lin, ang) {
			s.warnf("joint %q locks no axis: it constrains nothing and is left out", name)
			continue
		}
		kind := ode.JointFixed
		a1, a2 := axis(0), axis(1)
		var first, second *axisLimit
		switch {
		case len(linFree) == 0 && len(angFree) == 0:
		case len(linFree) == 0 && len(angFree) == 3:
			kind = ode.JointBall
		case len(linFree) == 0 && len(angFree) == 1:
			kind, a1, first = ode.JointHinge, axis(angFree[0]), &ang[angFree[0]]
		case len(linFree) == 1 && len(angFree) == 0:
			kind, a1, first = ode.JointSlider, axis(linFree[0]), &lin[linFree[0]]
		case len(linFree) == 0 && len(angFree) == 2:
			kind, a1, a2 = ode.JointUniversal, axis(angFree[0]), axis(angFree[1])
			first, second = &ang[angFree[0]], &ang[angFree[1]]
		case len(linFree) == 1 && len(angFree) == 1 && linFree[0] == angFree[0]:
			kind, a1 = ode.JointPiston, axis(linFree[0])
			first, second = &lin[linFree[0]], &ang[angFree[0]]
		case len(linFree) == 0:
			kind = ode.JointBall
			s.warnf("joint %q: %d free angular axes with the others locked has no %s joint; played as a ball joint", name, len(angFree), s.engineLabel())
		default:
			s.warnf("joint %q: %d free linear and %d free angular axes have no %s joint; played as a fixed joint", name, len(linFree), len(angFree), s.engineLabel())
		}
		// ODE applies stops to body 1's angle relative to body 2 even when it
		// swaps a joint whose body 1 is the world: keep a real body first and
		// turn the limits and drives round instead.
		sign := 1.0
		if b1 == nil {
			b1, b2, sign = b2, nil, -1
			i1, i2 = i2, -1
		}
		j, err := s.w.NewJoint(kind, b1, b2, [3]float64{t[0], t[1], t[2]}, a1, a2)
		if err != nil {
			return err
		}
		var drives []*driveAxis
		var stops []*stopAxis
		for g, l := range []*axisLimit{first, second} {
			if l == nil {
				continue
			}
			off := g * ode.ParamGroup2
			if l.ranged {
				lo, hi := l.min, l.max
				if sign < 0 {
					lo, hi = -hi, -lo
				}
				j.SetParam(ode.ParamLoStop+off, lo)
				j.SetParam(ode.ParamHiStop+off, hi)
				if math.IsInf(l.stiffness, 1) {
					stops = append(stops, &stopAxis{group: g, lo: lo, hi: hi, erp: s.erp})
				} else {
					hk := s.opt.Step * l.stiffness
					if den := hk + l.damping; den > 0 {
						j.SetParam(ode.ParamStopERP+off, hk/den)
						j.SetParam(ode.ParamStopCFM+off, 1/den)
					}
				}
			}
			if dr := l.drive; dr != nil {
				da := &driveAxis{group: g, sign: sign, linear: dr.Type == "linear", accel: dr.Mode == "acceleration",
					kd: dr.Damping, maxForce: dr.MaxForce, b1: i1, b2: i2}
				if dr.PositionTarget != nil {
					da.kp, da.xt = dr.Stiffness, *dr.PositionTarget
				}
				if dr.VelocityTarget != nil {
					da.vt = *dr.VelocityTarget
				}
				if l.ranged {
					da.ranged, da.lo, da.hi = true, l.min, l.max
				}
				ax := a1
				if g == 1 && kind == ode.JointUniversal {
					ax = a2
				}
				_, r1, _ := rigid(s.world[s.Bodies[i1].Node])
				da.axis = quatOf(r1).Inverse().Rotate(mgl64.Vec3(ax))
				drives = append(drives, da)
			}
		}
		jt := &joint{node: n, kind: kind, j: j, drives: drives, stops: stops, sign: sign, fb: -1, cb: -1}
		jt.fr, jt.fb = s.frameIn(n)
		jt.cr, jt.cb = s.frameIn(nj.ConnectedNode)
		if kind == ode.JointBall {
			if err := s.limitTurns(jt, name, d.Joints[nj.Joint], b1, b2); err != nil {
				return err
			}
		}
		s.joints = append(s.joints, jt)
	}
	return nil
}

// limitTurns gives ball joint jt the angular limits of its settings as an
// angular motor between ODE's bodies b1 and b2 (the ball's, in its order),
// or warns that the engine plays none.
func (s *Sim) limitTurns(jt *joint, name string, js scene.JointSettings, b1, b2 engineBody) error {
	turns := turnLimits(js)
	if len(turns) == 0 {
		return nil
	}
	am, ok := s.w.(angularMotorEngine)
	if !ok {
		s.warnf("joint %q: angular limits on a ball joint (a cone, a twist) are not played in %s", name, s.engineLabel())
		return nil
	}
	if len(turns) > 3 {
		s.warnf("joint %q: more than 3 angular limits; the first 3 are played", name)
		turns = turns[:3]
	}
	m, err := am.NewAMotor(b1, b2, len(turns))
	if err != nil {
		return err
	}
	for i, t := range turns {
		off := i * ode.ParamGroup2
		m.SetParam(ode.ParamLoStop+off, t.lo)
		m.SetParam(ode.ParamHiStop+off, t.hi)
		if t.hard {
			t.erp = s.erp
			continue
		}
		// A soft stop: ODE's spring-damper form, as for the other joints.
		hk := s.opt.Step * t.stiffness
		if den := hk + t.damping; den > 0 {
			m.SetParam(ode.ParamStopERP+off, hk/den)
			m.SetParam(ode.ParamStopCFM+off, 1/den)
		}
	}
	// Step sets the axes before each step (turnJoints).
	jt.turns, jt.amotor = turns, m
	return nil
}

// turnLimits reads the angular limits of js that bound something (a limit
// with min = max on some axes locks them).
func turnLimits(js scene.JointSettings) []*turnLimit {
	var out []*turnLimit
	for _, l := range js.Limits {
		var axes []int
		for _, a := range l.AngularAxes {
			if a >= 0 && a <= 2 && !slices.Contains(axes, a) {
				axes = append(axes, a)
			}
		}
		if len(axes) == 0 || math.IsInf(l.Min, -1) && math.IsInf(l.Max, 1) || l.Min > l.Max {
			continue
		}
		t := &turnLimit{axes: axes, lo: l.Min, hi: l.Max, stiffness: l.Stiffness, damping: l.Damping,
			hard: math.IsInf(l.Stiffness, 1)}
		if len(axes) > 1 && t.lo <= 0 && t.hi > 0 {
			t.lo = math.Inf(-1) // a cone's angle is never below 0
		}
		out = append(out, t)
	}
	return out
}

// turnJoints sets each angular motor's axes and angles for the coming
// step from where the two frames are now, and bounds a hard stop's pull
// back as boundStops does.
func (s *Sim) turnJoints() {
	fps := 1 / s.opt.Step
	for _, j := range s.joints {
		if j.amotor == nil {
			continue
		}
		qa, qc := s.frameRotation(j.fb, j.fr), s.frameRotation(j.cb, j.cr)
		for i, t := range j.turns {
			axis, angle := turnAngle(qa, qc, t.axes)
			// ODE's angle grows as its body 1 turns about the axis relative
			// to body 2: the connected frame's body, unless it was swapped.
			axis = axis.Mul(j.sign)
			j.amotor.SetAMotorAxis(i, [3]float64{axis[0], axis[1], axis[2]}, angle)
			if !t.hard {
				continue
			}
			erp := s.erp
			if e := math.Max(t.lo-angle, angle-t.hi); e*fps*erp > s.opt.SeparationSpeed {
				erp = s.opt.SeparationSpeed / (e * fps)
			}
			if erp != t.erp {
				j.amotor.SetParam(ode.ParamStopERP+i*ode.ParamGroup2, erp)
				t.erp = erp
			}
		}
	}
}

// turnAngle returns the world axis about which turning the connected frame
// qc relative to the joint frame qa increases the angle a limit on axes
// bounds, and that angle (rad): the twist about the one axis, the swing of
// the remaining axis for two, the whole angle for three.
func turnAngle(qa, qc mgl64.Quat, axes []int) (mgl64.Vec3, float64) {
	unit := func(k int) mgl64.Vec3 { var v mgl64.Vec3; v[k] = 1; return v }
	switch len(axes) {
	case 1:
		k := axes[0]
		q := qa.Inverse().Mul(qc).Normalize()
		a := 2 * math.Atan2(q.V[k], q.W)
		if a > math.Pi {
			a -= 2 * math.Pi
		} else if a <= -math.Pi {
			a += 2 * math.Pi
		}
		return qa.Rotate(unit(k)), a
	case 2:
		r := 3 - axes[0] - axes[1]
		ra, rc := qa.Rotate(unit(r)), qc.Rotate(unit(r))
		n := ra.Cross(rc)
		angle := math.Atan2(n.Len(), ra.Dot(rc))
		if n.Len() < 1e-9 {
			// Along the axis: any direction across it will do.
			n = qa.Rotate(unit((r + 1) % 3))
		}
		return n.Normalize(), angle
	default:
		q := qa.Inverse().Mul(qc).Normalize()
		v := q.V
		if q.W < 0 {
			v = v.Mul(-1)
		}
		angle := 2 * math.Atan2(v.Len(), math.Abs(q.W))
		if v.Len() < 1e-9 {
			return qa.Rotate(unit(0)), angle
		}
		return qa.Rotate(v.Normalize()), angle
	}
}

// frameRotation is a frame's rotation in the world now: q in body b (in
// the world for -1).
func (s *Sim) frameRotation(b int, q mgl64.Quat) mgl64.Quat {
	if b < 0 {
		return q
	}
	return s.Bodies[b].Rotation.Mul(q)
}

// noCollideStatic keeps a body jointed to static geometry from colliding
// with it, as two jointed bodies never collide. The static side is the
// static body the frame node belongs to (a node with static motion: all
// the colliders under it), or without one the collider on the frame node
// or on its nearest ancestor with one (a joint frame is often a child of
// its collider's node). Without this, OMI's slider_ball, whose rail runs
// through the ball, shook the ball at metres a second.
func (s *Sim) noCollideStatic(n, connected int, b1, b2 engineBody) error {
	d := s.Doc
	body, frame := b1, n
	if b1 == nil {
		body, frame = b2, connected
	}
	var geoms []engineGeom
	if sb := d.BodyNode(frame); sb >= 0 {
		for m, gs := range s.staticGeoms {
			if d.BodyNode(m) == sb {
				geoms = append(geoms, gs...)
			}
		}
	} else {
		for m := frame; m >= 0 && len(geoms) == 0; m = d.Parent(m) {
			geoms = s.staticGeoms[m]
		}
	}
	for _, g := range geoms {
		if err := s.w.NoCollide(body, g); err != nil {
			return err
		}
	}
	return nil
}

func anyDriven(lin, ang [3]axisLimit) bool {
	for k := 0; k < 3; k++ {
		if lin[k].drive != nil || ang[k].drive != nil || lin[k].ranged || ang[k].ranged {
			return true
		}
	}
	return false
}

// jointAxes reads the limits and drives of a joint per axis.
// A limit with min = max locks its axes (a non-zero value is taken as 0).
func jointAxes(js scene.JointSettings) (lin, ang [3]axisLimit) {
	for _, l := range js.Limits {
		for _, set := range []struct {
			axes []int
			out  *[3]axisLimit
		}{{l.LinearAxes, &lin}, {l.AngularAxes, &ang}} {
			for _, a := range set.axes {
				if a < 0 || a > 2 {
					continue
				}
				x := &set.out[a]
				if l.Min == l.Max {
					x.locked, x.offset = true, l.Min != 0
					continue
				}
				if math.IsInf(l.Min, -1) && math.IsInf(l.Max, 1) {
					continue
				}
				x.ranged, x.min, x.max, x.stiffness, x.damping = true, l.Min, l.Max, l.Stiffness, l.Damping
			}
		}
	}
	for i := range js.Drives {
		dr := &js.Drives[i]
		if dr.Axis < 0 || dr.Axis > 2 || dr.PositionTarget == nil && dr.VelocityTarget == nil {
			continue
		}
		out := &ang
		if dr.Type == "linear" {
			out = &lin
		}
		out[dr.Axis].drive = dr
	}
	return lin, ang
}

// JointAngle returns the hinge angle (rad) or slider position (m) of joint
// node n, and false when n is not a hinge or slider.
func (s *Sim) JointAngle(n int) (float64, bool) {
	for _, j := range s.joints {
		if j.node == n && (j.kind == ode.JointHinge || j.kind == ode.JointSlider) {
			return j.sign * j.j.Angle(), true
		}
	}
	return 0, false
}

// driveJoints sets each drive's ODE motor for the coming step: a motor
// row whose target velocity and softness (CFM) make the force it applies
// the drive's damped spring, integrated implicitly (the spring-damper
// form of ODE's manual: CFM = 1 / (h kp + kd)), so that stiff drives stay
// stable. Its force bound is what the spring asks for plus a margin, never
// an unbounded one: at a stop ODE applies the motor's whole bound as a
// plain force, and a bound of 1e12 N (a drive without maxForce) threw a
// 1 kg body off at 100 m/s in one step.
func (s *Sim) driveJoints() {
	h := s.opt.Step
	for _, j := range s.joints {
		for _, d := range j.drives {
			off := d.group * ode.ParamGroup2
			x, v := j.j.State(d.group)
			x, v = d.sign*x, d.sign*v
			m := s.effectiveMass(d)
			kp, kd := d.kp, d.kd
			if d.accel {
				kp, kd = kp*m, kd*m
			}
			den := h*kp + kd
			if !(den > 0) || math.IsInf(den, 1) {
				j.j.SetParam(ode.ParamFMax+off, 0)
				continue
			}
			want := kp*(d.xt-x) + kd*d.vt
			c := want / den
			var f float64
			if d.ranged && (x <= d.lo || x >= d.hi) {
				// At a stop ODE applies the bound itself, as a force: the
				// spring's force now, no more than reaches c in one step.
				f = math.Min(math.Abs(kp*(d.xt-x)+kd*(d.vt-v)), m*math.Abs(c-v)/h)
			} else {
				// The implicit force is want − den × v_new: bound it for a
				// v_new up to 1 m/s from v.
				f = math.Abs(want) + den*(math.Abs(v)+1)
			}
			f = math.Min(f, d.maxForce)
			if !(f >= 0) || math.IsInf(f, 1) {
				f = 0
			}
			j.j.SetParam(ode.ParamVel+off, d.sign*c)
			j.j.SetParam(ode.ParamCFM+off, 1/den)
			j.j.SetParam(ode.ParamFMax+off, f)
		}
	}
}

// boundStops bounds the speed at which a rigid stop pulls its joint back
// into range to MaxSeparationSpeed (m/s, or rad/s for an angle), as
// contacts are bounded: ODE corrects a stop at ERP × error / step, so a
// hinge authored 1 rad outside its limits spun into them at 48 rad/s. Stops
// within ERP-corrected reach (error under bound × step / ERP) keep the
// world's ERP and play as before.
func (s *Sim) boundStops() {
	fps := 1 / s.opt.Step
	for _, j := range s.joints {
		for _, st := range j.stops {
			x, _ := j.j.State(st.group)
			e := math.Max(st.lo-x, x-st.hi)
			erp := s.erp
			if e*fps*erp > s.opt.SeparationSpeed {
				erp = s.opt.SeparationSpeed / (e * fps)
			}
			if erp != st.erp {
				j.j.SetParam(ode.ParamStopERP+st.group*ode.ParamGroup2, erp)
				st.erp = erp
			}
		}
	}
}

// effectiveMass is the mass (kg) or moment of inertia (kg·m²) the drive
// moves along or about its axis: the bodies' inverse masses or inverse
// inertias about the axis added; +Inf when neither body is dynamic.
func (s *Sim) effectiveMass(d *driveAxis) float64 {
	inv := 0.0
	axis := s.Bodies[d.b1].Rotation.Rotate(d.axis)
	for _, i := range []int{d.b1, d.b2} {
		if i < 0 || s.Bodies[i].Type != scene.MotionDynamic {
			continue
		}
		b := s.Bodies[i]
		if d.linear {
			if !b.infiniteMass {
				inv += 1 / b.Mass
			}
			continue
		}
		r := b.Rotation.Mat4().Mat3()
		local := r.Transpose().Mul3x1(axis)
		inv += local.Dot(b.Inertia.Inv().Mul3x1(local))
	}
	if !(inv > 0) {
		return math.Inf(1)
	}
	return 1 / inv
}

// frameIn returns node n's rotation in the body that moves it and that
// body's index in Bodies (in the world and -1 when none does).
func (s *Sim) frameIn(n int) (mgl64.Quat, int) {
	_, r, _ := rigid(s.world[n])
	q := quatOf(r)
	i, ok := s.byNode[s.Doc.BodyNode(n)]
	if !ok {
		return q, -1
	}
	_, rb, _ := rigid(s.world[s.Bodies[i].Node])
	return quatOf(rb).Inverse().Mul(q), i
}

// JointState is one played joint's type and where it is: a hinge's angle,
// a slider's position, or for the other types the angle between its two
// frames (the drafts' 3D angular metric, 2 acos |Re(qa* qb)|).
type JointState struct {
	// Node is the joint node; Name its name.
	Node int
	Name string
	// Type is the ODE joint that plays it: fixed, ball, hinge, slider,
	// universal or piston.
	Type string
	// Angular is set when Value is an angle (rad), else it is a position (m).
	Angular bool
	Value   float64
	// Rate is how fast Value changes (rad/s or m/s); NaN for the joints
	// measured by their frames' angle.
	Rate float64
}

var odeJointNames = map[ode.JointType]string{
	ode.JointFixed: "fixed", ode.JointBall: "ball", ode.JointHinge: "hinge",
	ode.JointSlider: "slider", ode.JointUniversal: "universal", ode.JointPiston: "piston",
}

// JointStates returns every played joint's state, in the order of the
// joint nodes.
func (s *Sim) JointStates() []JointState {
	out := make([]JointState, 0, len(s.joints))
	for _, j := range s.joints {
		st := JointState{Node: j.node, Name: nodeName(s.Doc, j.node), Type: odeJointNames[j.kind], Angular: true}
		switch j.kind {
		case ode.JointHinge:
			_, v := j.j.State(0)
			st.Value, st.Rate = j.sign*j.j.Angle(), j.sign*v
		case ode.JointSlider, ode.JointPiston:
			x, v := j.j.State(0)
			st.Value, st.Rate, st.Angular = j.sign*x, j.sign*v, false
		default:
			st.Value, st.Rate = s.frameAngle(j), math.NaN()
		}
		out = append(out, st)
	}
	return out
}

// frameAngle is the angle (rad) between a joint's two frames as the bodies
// are now.
func (s *Sim) frameAngle(j *joint) float64 {
	qa, qb := s.frameRotation(j.fb, j.fr), s.frameRotation(j.cb, j.cr)
	w := math.Abs(qa.Inverse().Mul(qb).Normalize().W)
	return 2 * math.Acos(math.Min(1, w))
}
