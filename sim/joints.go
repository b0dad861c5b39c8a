package sim

import (
	"math"

	"physview/scene"
	"physview/sim/ode"
)

// joint is one OMI joint node played as an ODE joint.
type joint struct {
	node int
	kind ode.JointType
	j    *ode.Joint
}

// axisLimit is what the OMI limits say about one axis.
type axisLimit struct {
	locked, ranged     bool
	min, max           float64
	stiffness, damping float64
	velocity, maxForce float64
	driven             bool
	offset             bool // locked at a value other than 0
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
		if nj == nil {
			continue
		}
		name := nodeName(d, n)
		if nj.Joint < 0 || nj.Joint >= len(d.Joints) || nj.ConnectedNode < 0 || nj.ConnectedNode >= len(d.Nodes) {
			s.warnf("joint %q: its settings or connected node do not exist; skipped", name)
			continue
		}
		var b1, b2 *ode.Body
		if i, ok := s.byNode[d.BodyNode(nj.ConnectedNode)]; ok {
			b1 = s.Bodies[i].body
		}
		if i, ok := s.byNode[d.BodyNode(n)]; ok {
			b2 = s.Bodies[i].body
		}
		if b1 == nil && b2 == nil || b1 == b2 {
			s.warnf("joint %q joins nothing that moves (or a body to itself); skipped", name)
			continue
		}
		if nj.EnableCollision {
			s.warnf("joint %q: enableCollision is not played; bodies joined by a joint never collide in ODE here", name)
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
			s.warnf("joint %q locks no axis (an ODE amotor without stops): it constrains nothing and is left out", name)
			continue
		}
		kind := ode.JointFixed
		a1, a2 := axis(0), axis(1)
		var first, second *axisLimit
		switch {
		case len(linFree) == 0 && len(angFree) == 0:
		case len(linFree) == 0 && len(angFree) == 3:
			kind = ode.JointBall
			if ang[0].ranged || ang[1].ranged || ang[2].ranged {
				s.warnf("joint %q: angular limits on a ball joint are not played (ODE's ball has none)", name)
			}
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
			s.warnf("joint %q: %d free angular axes with the others locked has no ODE joint; played as a ball joint", name, len(angFree))
		default:
			s.warnf("joint %q: %d free linear and %d free angular axes have no ODE joint; played as a fixed joint", name, len(linFree), len(angFree))
		}
		// ODE applies stops to body 1's angle relative to body 2 even when it
		// swaps a joint whose body 1 is the world: keep a real body first and
		// turn the limits and drives round instead.
		sign := 1.0
		if b1 == nil {
			b1, b2, sign = b2, nil, -1
		}
		j, err := s.w.NewJoint(kind, b1, b2, [3]float64{t[0], t[1], t[2]}, a1, a2)
		if err != nil {
			return err
		}
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
				if !math.IsInf(l.stiffness, 1) {
					hk := s.opt.Step * l.stiffness
					if den := hk + l.damping; den > 0 {
						j.SetParam(ode.ParamStopERP+off, hk/den)
						j.SetParam(ode.ParamStopCFM+off, 1/den)
					}
				}
			}
			if l.driven {
				f := l.maxForce
				if math.IsInf(f, 1) {
					f = 1e12
				}
				j.SetParam(ode.ParamVel+off, sign*l.velocity)
				j.SetParam(ode.ParamFMax+off, f)
			}
		}
		for _, dr := range d.Joints[nj.Joint].Drives {
			if dr.PositionTarget != nil {
				s.warnf("joint %q: position targets of drives are not played (only velocity targets)", name)
			}
		}
		s.joints = append(s.joints, &joint{node: n, kind: kind, j: j})
	}
	return nil
}

func anyDriven(lin, ang [3]axisLimit) bool {
	for k := 0; k < 3; k++ {
		if lin[k].driven || ang[k].driven || lin[k].ranged || ang[k].ranged {
			return true
		}
	}
	return false
}

// jointAxes reads the limits and velocity drives of a joint per axis.
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
	for _, dr := range js.Drives {
		if dr.VelocityTarget == nil || dr.Axis < 0 || dr.Axis > 2 {
			continue
		}
		out := &ang
		if dr.Type == "linear" {
			out = &lin
		}
		x := &out[dr.Axis]
		x.driven, x.velocity, x.maxForce = true, *dr.VelocityTarget, dr.MaxForce
	}
	return lin, ang
}

// JointAngle returns the hinge angle (rad) or slider position (m) of joint
// node n, and false when n is not a hinge or slider.
func (s *Sim) JointAngle(n int) (float64, bool) {
	for _, j := range s.joints {
		if j.node == n && (j.kind == ode.JointHinge || j.kind == ode.JointSlider) {
			return j.j.Angle(), true
		}
	}
	return 0, false
}
