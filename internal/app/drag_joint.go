package app

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"physview/debugdraw"
	"physview/scene"
)

// Dragging a joint's handles: a limit end sets that end of the main
// axis's limit (kept on its side of the other end), the pivot moves both
// frames in the plane facing the view. Each drag is one undo step;
// Escape cancels it (CancelDrag).

// jointHandles are the selected joint node's handles.
func (s *Session) jointHandles() []debugdraw.Handle {
	d, n := s.Doc, s.Selected
	if d == nil || n < 0 || n >= len(d.Nodes) || d.Nodes[n].Joint == nil {
		return nil
	}
	size := s.MarkerSize
	if !(size > 0) {
		size = 0.1
	}
	return debugdraw.JointHandles(d, n, d.WorldMatrix(n), size)
}

// dragJoint moves the dragged joint handle to the ray (origin, dir).
func (s *Session) dragJoint(origin, dir mgl64.Vec3) {
	g, d := s.drag, s.Doc
	n := g.joint
	if d == nil || n >= len(d.Nodes) || d.Nodes[n].Joint == nil {
		return
	}
	if g.handle.Param == debugdraw.JointPivot {
		// In the plane facing the view as the drag began.
		p, ok := debugdraw.DragPivot(g.handle.Pos, s.dragNormal(dir), origin, dir)
		if !ok {
			return
		}
		for i := range p {
			p[i] = scene.RoundSig(p[i], 6)
		}
		if e, err := d.MoveJointPivotEdit(n, [3]float64(p)); err == nil {
			s.Edit(e)
		}
		return
	}
	k := d.Nodes[n].Joint.Joint
	if k < 0 || k >= len(d.Joints) {
		return
	}
	js := d.Joints[k]
	ax, err := js.MainAxis()
	if err != nil {
		return
	}
	v, ok := debugdraw.DragJointLimit(d, n, d.WorldMatrix(n), origin, dir)
	if !ok {
		return
	}
	var lim *scene.JointLimit
	for i, l := range js.Limits {
		axes := l.LinearAxes
		if ax.Angular {
			axes = l.AngularAxes
		}
		if len(axes) == 1 && axes[0] == ax.Axis && l.Min != l.Max {
			lim = &js.Limits[i]
		}
	}
	if lim == nil {
		return
	}
	lo, hi := lim.Min, lim.Max
	if ax.Angular {
		v = math.Round(v*180/math.Pi) * math.Pi / 180 // whole degrees
	} else {
		v = scene.RoundSig(v, 4)
	}
	if g.handle.Param == debugdraw.JointLimitMin {
		lo = math.Min(v, hi)
	} else {
		hi = math.Max(v, lo)
	}
	if lo == lim.Min && hi == lim.Max {
		return
	}
	ns, err := js.WithLimit(ax, lo, hi, lim.Stiffness, lim.Damping)
	if err != nil {
		return
	}
	s.Edit(scene.SetJointSettings{Index: k, Settings: ns, Label: g.label})
}

// dragNormal is the plane normal of a pivot drag: the first ray's
// direction, kept for the drag.
func (s *Session) dragNormal(dir mgl64.Vec3) mgl64.Vec3 {
	if s.drag.normal == (mgl64.Vec3{}) {
		s.drag.normal = dir.Normalize()
	}
	return s.drag.normal
}
