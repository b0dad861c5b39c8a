package debugdraw

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// ColorDrive draws a joint's drives: an arrow toward the position target,
// or along the velocity target.
var ColorDrive = [4]float32{1, 0.6, 0.1, 1}

// unitFrame is m without scale: its axes normalised, its origin kept, so
// limits are drawn in metres and radians.
func unitFrame(m mgl64.Mat4) mgl64.Mat4 {
	var r mgl64.Mat4
	for k := 0; k < 3; k++ {
		ax := m.Col(k).Vec3()
		if ax.Len() > 0 {
			ax = ax.Normalize()
		}
		r.SetCol(k, ax.Vec4(0))
	}
	r.SetCol(3, m.Col(3))
	return r
}

// JointState is where joint node n's connected frame is in its joint frame
// (world as the view shows it, e.g. while playing): the angle (rad) about
// each axis, from the connected frame's next axis measured in the plane
// of the next two, and the position (m) along each axis.
func JointState(j *scene.NodeJoint, n int, world []mgl64.Mat4) (angle, pos [3]float64, ok bool) {
	c := j.ConnectedNode
	if c < 0 || c >= len(world) || n < 0 || n >= len(world) {
		return angle, pos, false
	}
	a, b := unitFrame(world[n]), unitFrame(world[c])
	rel := a.Inv().Mul4(b)
	axes := []mgl64.Vec3{xAxis, yAxis, zAxis}
	for k := 0; k < 3; k++ {
		u, v := axes[(k+1)%3], axes[(k+2)%3]
		cu := rel.Mul4x1(u.Vec4(0)).Vec3()
		angle[k] = math.Atan2(cu.Dot(v), cu.Dot(u))
		pos[k] = rel.Col(3)[k]
	}
	return angle, pos, true
}

// jointNow marks where a joint is now and where its drives pull: a white
// spoke at the current angle on each limit arc, a white tick at the
// current position on each limit bar, and an orange arrow for each drive
// (to its position target, or along its velocity target's sense).
func jointNow(d *scene.Document, j *scene.NodeJoint, n int, world []mgl64.Mat4, size float64) []Line {
	angle, pos, ok := JointState(j, n, world)
	if !ok || j.Joint < 0 || j.Joint >= len(d.Joints) {
		return nil
	}
	l := &lines{m: unitFrame(world[n])}
	axes := []mgl64.Vec3{xAxis, yAxis, zAxis}
	spoke := func(a int, t, r float64) mgl64.Vec3 {
		u, v := axes[(a+1)%3], axes[(a+2)%3]
		return u.Mul(r * math.Cos(t)).Add(v.Mul(r * math.Sin(t)))
	}
	js := d.Joints[j.Joint]
	for _, lim := range js.Limits {
		if lim.Min == lim.Max {
			continue
		}
		l.color = ColorJoint
		for _, a := range lim.AngularAxes {
			if a >= 0 && a <= 2 && len(lim.AngularAxes) == 1 {
				l.seg(mgl64.Vec3{}, spoke(a, angle[a], size*2.4))
			}
		}
		for _, a := range lim.LinearAxes {
			if a >= 0 && a <= 2 && len(lim.LinearAxes) == 1 {
				p := axes[a].Mul(pos[a])
				q := axes[(a+2)%3].Mul(size * 0.5)
				l.seg(p.Sub(q), p.Add(q))
			}
		}
	}
	// A limit on two angular axes keeps the third axis in a cone (KHR):
	// drawn as the cone, with the connected frame's axis in it now.
	for _, lim := range js.Limits {
		if len(lim.AngularAxes) != 2 || lim.Max <= 0 || math.IsInf(lim.Max, 1) && lim.Min <= 0 {
			continue
		}
		k := 3 - lim.AngularAxes[0] - lim.AngularAxes[1]
		if k < 0 || k > 2 || lim.AngularAxes[0] == lim.AngularAxes[1] {
			continue
		}
		th := math.Min(lim.Max, math.Pi)
		ax, u, v := axes[k], axes[(k+1)%3], axes[(k+2)%3]
		r := size * JointLimitRadius
		at := func(phi float64) mgl64.Vec3 {
			return ax.Mul(r * math.Cos(th)).Add(u.Mul(r * math.Sin(th) * math.Cos(phi))).Add(v.Mul(r * math.Sin(th) * math.Sin(phi)))
		}
		l.color = axisColors[k]
		const segs = 32
		for i := 0; i < segs; i++ {
			l.seg(at(2*math.Pi*float64(i)/segs), at(2*math.Pi*float64(i+1)/segs))
		}
		for i := 0; i < 4; i++ {
			l.seg(mgl64.Vec3{}, at(math.Pi/2*float64(i)))
		}
		// The connected frame's axis k, in the joint frame.
		a, b := unitFrame(world[n]), unitFrame(world[j.ConnectedNode])
		now := a.Inv().Mul4(b).Mul4x1(ax.Vec4(0)).Vec3()
		if now.Len() > 0 {
			l.color = ColorJoint
			l.seg(mgl64.Vec3{}, now.Normalize().Mul(r*1.2))
		}
	}
	l.color = ColorDrive
	for _, dr := range js.Drives {
		a := dr.Axis
		if a < 0 || a > 2 {
			continue
		}
		if dr.Type == "angular" {
			from, to := angle[a], angle[a]
			switch {
			case dr.PositionTarget != nil:
				to = *dr.PositionTarget
			case dr.VelocityTarget != nil:
				to = from + math.Copysign(0.8, *dr.VelocityTarget)
			}
			if math.Abs(to-from) < 1e-6 {
				continue
			}
			r := size * 1.2 // inside the limit arcs, near the axle
			l.arc(mgl64.Vec3{}, axes[(a+1)%3], axes[(a+2)%3], r, math.Min(from, to), math.Max(from, to), 16)
			tip := spoke(a, to, r)
			back := spoke(a, to-math.Copysign(0.15, to-from), r)
			perp := tip.Sub(back).Cross(axes[a]).Normalize().Mul(size * 0.3)
			l.seg(tip, back.Add(perp))
			l.seg(tip, back.Sub(perp))
			continue
		}
		from, to := pos[a], pos[a]
		switch {
		case dr.PositionTarget != nil:
			to = *dr.PositionTarget
		case dr.VelocityTarget != nil:
			to = from + math.Copysign(size*4, *dr.VelocityTarget)
		}
		if math.Abs(to-from) < 1e-9 {
			continue
		}
		side := axes[(a+1)%3].Mul(size * 0.4)
		p, q := axes[a].Mul(from).Add(side), axes[a].Mul(to).Add(side)
		l.seg(p, q)
		dir := q.Sub(p).Normalize().Mul(size * 0.3)
		w := axes[(a+1)%3].Mul(size * 0.2)
		l.seg(q, q.Sub(dir).Add(w))
		l.seg(q, q.Sub(dir).Sub(w))
	}
	return l.out
}

// Joint handles: the two ends of the main axis's limit (on the arc, or at
// the bar's end stops) and the pivot.
const (
	JointLimitMin HandleParam = 100 + iota
	JointLimitMax
	JointPivot
)

func init() {
	handleParamNames[JointLimitMin] = "joint limit min"
	handleParamNames[JointLimitMax] = "joint limit max"
	handleParamNames[JointPivot] = "joint pivot"
}

// JointLimitRadius is the radius of a joint's limit arcs, in marker sizes
// (jointLines draws them there; the handles sit on them).
const JointLimitRadius = 2

// mainLimit returns the main axis of joint node n's settings and the index
// of the limit on it alone (-1 when it is free).
func mainLimit(d *scene.Document, n int) (scene.JointAxis, int, bool) {
	j := d.Nodes[n].Joint
	if j == nil || j.Joint < 0 || j.Joint >= len(d.Joints) {
		return scene.JointAxis{}, -1, false
	}
	js := d.Joints[j.Joint]
	ax, err := js.MainAxis()
	if err != nil || ax.Swing {
		return ax, -1, false
	}
	for i, l := range js.Limits {
		axes := l.LinearAxes
		other := l.AngularAxes
		if ax.Angular {
			axes, other = l.AngularAxes, l.LinearAxes
		}
		if len(axes) == 1 && axes[0] == ax.Axis && len(other) == 0 && l.Min != l.Max {
			return ax, i, true
		}
	}
	return ax, -1, true
}

// JointHandles returns joint node n's handles, world being n's world
// matrix and size the view's marker size: the ends of its main axis's
// limit when that is a finite range (angles within a turn), and the pivot.
func JointHandles(d *scene.Document, n int, world mgl64.Mat4, size float64) []Handle {
	if n < 0 || n >= len(d.Nodes) || d.Nodes[n].Joint == nil || !finiteMat(world) {
		return nil
	}
	f := unitFrame(world)
	at := func(p mgl64.Vec3) mgl64.Vec3 { return f.Mul4x1(p.Vec4(1)).Vec3() }
	dir := func(v mgl64.Vec3) mgl64.Vec3 { return f.Mul4x1(v.Vec4(0)).Vec3().Normalize() }
	axes := []mgl64.Vec3{xAxis, yAxis, zAxis}
	var hs []Handle
	if ax, li, ok := mainLimit(d, n); ok && li >= 0 {
		l := d.Joints[d.Nodes[n].Joint.Joint].Limits[li]
		a := ax.Axis
		for k, v := range []float64{l.Min, l.Max} {
			p := JointLimitMin + HandleParam(k)
			if ax.Angular {
				if v < -math.Pi || v > math.Pi {
					continue
				}
				u, w := axes[(a+1)%3], axes[(a+2)%3]
				r := size * JointLimitRadius
				pos := u.Mul(r * math.Cos(v)).Add(w.Mul(r * math.Sin(v)))
				tangent := u.Mul(-math.Sin(v)).Add(w.Mul(math.Cos(v)))
				if k == 0 {
					tangent = tangent.Mul(-1)
				}
				hs = append(hs, Handle{Param: p, Pos: at(pos), Axis: dir(tangent)})
				continue
			}
			if math.IsInf(v, 0) {
				continue
			}
			out := axes[a]
			if k == 0 {
				out = out.Mul(-1)
			}
			hs = append(hs, Handle{Param: p, Pos: at(axes[a].Mul(v)), Axis: dir(out)})
		}
	}
	return append(hs, Handle{Param: JointPivot, Pos: world.Col(3).Vec3(), Axis: dir(yAxis)})
}

// DragJointLimit returns the limit value (rad or m) the ray (origin, dir)
// points at for a limit handle of joint node n whose frame is world: the
// angle where the ray meets the arc's plane, or the point of the axis
// nearest the ray.
func DragJointLimit(d *scene.Document, n int, world mgl64.Mat4, origin, dir mgl64.Vec3) (float64, bool) {
	ax, _, ok := mainLimit(d, n)
	if !ok || !finiteMat(world) {
		return 0, false
	}
	f := unitFrame(world)
	inv := f.Inv()
	o := inv.Mul4x1(origin.Vec4(1)).Vec3()
	v := inv.Mul4x1(dir.Vec4(0)).Vec3()
	axes := []mgl64.Vec3{xAxis, yAxis, zAxis}
	a := ax.Axis
	if !ax.Angular {
		t, ok := closestOnLine(mgl64.Vec3{}, axes[a], o, v)
		return t, ok
	}
	den := v.Dot(axes[a])
	if math.Abs(den) < 1e-9 {
		return 0, false
	}
	p := o.Sub(v.Mul(o.Dot(axes[a]) / den))
	u, w := axes[(a+1)%3], axes[(a+2)%3]
	if p.Len() < 1e-12 {
		return 0, false
	}
	return math.Atan2(p.Dot(w), p.Dot(u)), true
}

// DragPivot returns where the ray (origin, dir) meets the plane through
// pivot facing normal (the view direction when the drag began).
func DragPivot(pivot, normal, origin, dir mgl64.Vec3) (mgl64.Vec3, bool) {
	den := dir.Dot(normal)
	if math.Abs(den) < 1e-9 {
		return mgl64.Vec3{}, false
	}
	t := pivot.Sub(origin).Dot(normal) / den
	p := origin.Add(dir.Mul(t))
	for _, x := range p {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return mgl64.Vec3{}, false
		}
	}
	return p, true
}

// MarkerSize is the size of the cache's markers (metres).
func (c *Cache) MarkerSize() float64 { return c.opt.MarkerSize }

// jointBodies returns, when node n carries a joint, the nodes whose
// colliders make up the two bodies it joins (drawn as selected with it):
// every node moved by the joint node's body or the connected node's body,
// or for a side in no body, the nearest node at or above its frame with a
// collider. It is nil for other nodes.
func jointBodies(d *scene.Document, n int) map[int]bool {
	if d == nil || n < 0 || n >= len(d.Nodes) || d.Nodes[n].Joint == nil {
		return nil
	}
	out := map[int]bool{}
	for _, f := range []int{n, d.Nodes[n].Joint.ConnectedNode} {
		if f < 0 || f >= len(d.Nodes) {
			continue
		}
		if b := d.BodyNode(f); b >= 0 {
			for m := range d.Nodes {
				if d.BodyNode(m) == b {
					out[m] = true
				}
			}
			continue
		}
		for m := f; m >= 0; m = d.Parent(m) {
			if bd := d.Nodes[m].Body; bd != nil && bd.Collider != nil {
				out[m] = true
				break
			}
		}
	}
	delete(out, n)
	return out
}
