package app

import (
	"math"
	"strings"
	"testing"

	"physview/debugdraw"
	"physview/scene"
)

// TestDragJointHandles: dragging the door hinge's max handle along its arc
// to 60 degrees is one undo step that sets the limit to [0, 60]; a second
// drag cancelled with Escape changes nothing; dragging the pivot moves both
// frames together.
func TestDragJointHandles(t *testing.T) {
	s := New()
	if err := s.LoadNow(jointFixture(t, scene.DialectOMI)); err != nil {
		t.Fatal(err)
	}
	if err := s.RunCommand(strings.Fields("joint door post hinge axis=0,0,-1 pivot=0.05,2.05,0 limit=0,90")); err != nil {
		t.Fatal(err)
	}
	d := s.Doc
	jn := s.Selected
	if d.Nodes[jn].Joint == nil {
		t.Fatalf("selected node %d (%s) after adding the joint has no joint", jn, d.NodeName(jn))
	}
	s.MarkerSize = 0.1
	hs, shapes := s.Handles()
	find := func(p debugdraw.HandleParam) int {
		for i, h := range hs {
			if h.Param == p && shapes[i] < 0 {
				return i
			}
		}
		t.Fatalf("no %s handle in %v", p, hs)
		return -1
	}
	f := d.WorldMatrix(jn)
	pivot := f.Col(3).Vec3()
	u, w, axis := f.Col(2).Vec3().Normalize(), f.Col(0).Vec3().Normalize(), f.Col(1).Vec3().Normalize()
	rayTo := func(deg float64) (o, dir [3]float64) {
		th := deg * math.Pi / 180
		p := pivot.Add(u.Mul(0.2 * math.Cos(th))).Add(w.Mul(0.2 * math.Sin(th)))
		return p.Add(axis.Mul(3)), axis.Mul(-1)
	}
	if got := hs[find(debugdraw.JointLimitMax)].Pos; got.Sub(pivot).Len()-0.2 > 1e-9 {
		t.Errorf("max handle at %v, want on the arc of radius 0.2", got)
	}
	steps := s.Hist.Len()
	if !s.BeginDrag(find(debugdraw.JointLimitMax)) {
		t.Fatal("BeginDrag refused the max handle")
	}
	for _, deg := range []float64{80, 70, 60.2} {
		o, dir := rayTo(deg)
		s.DragTo(o, dir)
	}
	s.EndDrag()
	js := d.Joints[d.Nodes[jn].Joint.Joint]
	l := js.Limits[len(js.Limits)-1]
	if l.Min != 0 || math.Abs(l.Max-math.Pi/3) > 1e-12 || s.Hist.Len() != steps+1 {
		t.Errorf("after the drag: limit [%g, %g] rad, %d steps; want [0, %g], %d", l.Min, l.Max, s.Hist.Len(), math.Pi/3, steps+1)
	}
	// Escape: nothing changes.
	s.BeginDrag(find(debugdraw.JointLimitMin))
	o, dir := rayTo(-30)
	s.DragTo(o, dir)
	s.CancelDrag()
	js = d.Joints[d.Nodes[jn].Joint.Joint]
	if l := js.Limits[len(js.Limits)-1]; l.Min != 0 || s.Hist.Len() != steps+1 {
		t.Errorf("after a cancelled drag: min %g, %d steps", l.Min, s.Hist.Len())
	}
	// The pivot, dragged 0.3 m along X in the plane facing the ray.
	hs, shapes = s.Handles()
	cn := d.Nodes[jn].Joint.ConnectedNode
	s.BeginDrag(find(debugdraw.JointPivot))
	for _, dx := range []float64{0.1, 0.3} {
		p := pivot.Add(w.Mul(dx))
		s.DragTo(p.Add(axis.Mul(3)), axis.Mul(-1))
	}
	s.EndDrag()
	if a, c := d.WorldMatrix(jn).Col(3).Vec3(), d.WorldMatrix(cn).Col(3).Vec3(); a.Sub(pivot.Add(w.Mul(0.3))).Len() > 1e-6 || a.Sub(c).Len() > 1e-6 {
		t.Errorf("pivot at %v, connected frame at %v; want both at %v", a, c, pivot.Add(w.Mul(0.3)))
	}
	if s.Hist.Len() != steps+2 {
		t.Errorf("%d steps after the pivot drag, want %d", s.Hist.Len(), steps+2)
	}
}
