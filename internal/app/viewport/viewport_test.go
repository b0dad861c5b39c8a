package viewport

import (
	"math"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"physview/debugdraw"
	"physview/internal/app"
	"physview/internal/depcheck"
	"physview/scene"
	"physview/scene/anim"
)

// TestNoGLOrGUI checks that the viewport's logic links neither GL nor the
// GUI: the window's input and drawing are tested here without a display.
func TestNoGLOrGUI(t *testing.T) {
	depcheck.Forbid(t, "internal/app/viewport", "github.com/go-gl/gl", "github.com/AllenDang/giu", "github.com/AllenDang/cimgui-go", "physview/render", "physview/ui")
}

// fakeRenderer records what the controller shows.
type fakeRenderer struct {
	lo, hi   mgl64.Vec3
	doc      *scene.Document
	overlay  []debugdraw.Line
	overlays int
	poses    []mgl64.Mat4
	groups   []debugdraw.Group
}

func (r *fakeRenderer) Bounds() (mgl64.Vec3, mgl64.Vec3) { return r.lo, r.hi }
func (r *fakeRenderer) NodeBounds(n int) (mgl64.Vec3, mgl64.Vec3, bool) {
	// Every node's meshes: a box around its origin, 1 m across; nothing
	// for a node without a mesh, as the renderer.
	if r.doc.GLTF.Nodes[n].Mesh == nil {
		return mgl64.Vec3{}, mgl64.Vec3{}, false
	}
	p := r.doc.WorldMatrix(n).Col(3).Vec3()
	h := mgl64.Vec3{0.5, 0.5, 0.5}
	return p.Sub(h), p.Add(h), true
}
func (r *fakeRenderer) SetDocument(d *scene.Document)     { r.doc = d }
func (r *fakeRenderer) TransformsChanged()                {}
func (r *fakeRenderer) SetDebug(groups []debugdraw.Group) { r.groups = groups }
func (r *fakeRenderer) ForgetDebug()                      {}
func (r *fakeRenderer) SetOverlay(lines []debugdraw.Line) {
	r.overlay, r.overlays = lines, r.overlays+1
}
func (r *fakeRenderer) SetPoses(world []mgl64.Mat4) { r.poses = world }
func (r *fakeRenderer) SetPose(*anim.Pose)          {}

// fakeCamera records what the mouse did to the camera.
type fakeCamera struct{ orbit, pan [2]float64 }

func (c *fakeCamera) Orbit(dx, dy float64)  { c.orbit[0] += dx; c.orbit[1] += dy }
func (c *fakeCamera) Pan(dx, dy, h float64) { c.pan[0] += dx; c.pan[1] += dy }
func (c *fakeCamera) Zoom(float64)          {}

// demo opens the demo scene in a session shown by a controller, looking at
// the node named name from above and in front, and returns the node.
func demo(t *testing.T, name string) (*app.Session, *Controller, *fakeRenderer, Rect, int) {
	t.Helper()
	s := app.New()
	r := &fakeRenderer{lo: mgl64.Vec3{-5, 0, -5}, hi: mgl64.Vec3{5, 3, 5}}
	c := New(s, r)
	s.OpenDemo()
	if s.Doc == nil || r.doc != s.Doc {
		t.Fatal("the demo was not shown")
	}
	node := -1
	for i, n := range s.Doc.GLTF.Nodes {
		if n.Name == name {
			node = i
		}
	}
	if node < 0 {
		t.Fatalf("the demo has no node %q", name)
	}
	target := s.Doc.WorldMatrix(node).Col(3).Vec3()
	vp := Rect{X: 0, Y: 22, W: 800, H: 600,
		View: mgl64.LookAtV(target.Add(mgl64.Vec3{0, 4, 8}), target, mgl64.Vec3{0, 1, 0}),
		Proj: mgl64.Perspective(math.Pi/4, 800.0/600, 0.1, 100)}
	c.Update(vp)
	return s, c, r, vp, node
}

// screen returns where world point p is in the window.
func screen(t *testing.T, vp Rect, p mgl64.Vec3) (float64, float64) {
	t.Helper()
	x, y, ok := debugdraw.ScreenPoint(vp.Proj.Mul4(vp.View), p, vp.W, vp.H)
	if !ok {
		t.Fatalf("%v is behind the camera", p)
	}
	return x + vp.X, y + vp.Y
}

// lineOnScreen is a point on node n's collider lines, in the window.
func lineOnScreen(t *testing.T, c *Controller, vp Rect, n int) (float64, float64) {
	t.Helper()
	ls := c.Debug().PickLines(n)
	if len(ls) == 0 {
		t.Fatalf("node %d has no lines", n)
	}
	l := ls[0]
	mid := mgl64.Vec3{float64(l.A[0]+l.B[0]) / 2, float64(l.A[1]+l.B[1]) / 2, float64(l.A[2]+l.B[2]) / 2}
	return screen(t, vp, mid)
}

// TestClickPicksDragOrbits: a press and release in place over a node's
// lines selects it; a press that moves beyond the slop orbits the camera
// by the movement and selects nothing; a click on empty space clears the
// selection.
func TestClickPicksDragOrbits(t *testing.T) {
	s, c, _, vp, crate := demo(t, "Crate (dynamic box)")
	x, y := lineOnScreen(t, c, vp, crate)
	var cam fakeCamera
	c.Input(vp, Mouse{X: x, Y: y, Over: true, Pressed: true, Left: true}, &cam)
	if s.Selected != -1 {
		t.Fatal("selected on press, before the release")
	}
	c.Input(vp, Mouse{X: x, Y: y, Over: true}, &cam)
	if s.Selected != crate || s.ViewPicks != 1 {
		t.Fatalf("click on the crate's lines selected %d (picks %d), want %d", s.Selected, s.ViewPicks, crate)
	}
	if cam.orbit != [2]float64{} {
		t.Errorf("a click orbited the camera by %v", cam.orbit)
	}

	// Press elsewhere and drag 3 px (a click still), then 20 px more.
	c.Input(vp, Mouse{X: 5, Y: 30, Over: true, Pressed: true, Left: true}, &cam)
	c.Input(vp, Mouse{X: 8, Y: 30, DX: 3, Over: true, Left: true}, &cam)
	if cam.orbit != [2]float64{} {
		t.Fatalf("3 px (within the slop) orbited by %v", cam.orbit)
	}
	c.Input(vp, Mouse{X: 28, Y: 30, DX: 20, DY: -10, Over: true, Left: true}, &cam)
	if want := [2]float64{20 * orbitSpeed, 10 * orbitSpeed}; math.Abs(cam.orbit[0]-want[0]) > 1e-12 || math.Abs(cam.orbit[1]-want[1]) > 1e-12 {
		t.Fatalf("a 20 px drag orbited by %v, want %v", cam.orbit, want)
	}
	c.Input(vp, Mouse{X: 28, Y: 30, Over: true}, &cam)
	if s.Selected != crate {
		t.Fatalf("releasing a drag changed the selection to %d", s.Selected)
	}

	// The right button pans by the movement.
	c.Input(vp, Mouse{X: 30, Y: 30, DX: 2, DY: 5, Over: true, Right: true}, &cam)
	if cam.pan != [2]float64{2, 5} {
		t.Errorf("right drag panned by %v, want [2 5]", cam.pan)
	}

	// A click in the empty sky clears the selection.
	c.Input(vp, Mouse{X: 5, Y: 30, Over: true, Pressed: true, Left: true}, &cam)
	c.Input(vp, Mouse{X: 5, Y: 30, Over: true}, &cam)
	if s.Selected != -1 {
		t.Errorf("click on empty space left %d selected", s.Selected)
	}
	// Over the panel nothing is picked.
	c.Input(vp, Mouse{X: x, Y: y, Pressed: true, Left: true}, &cam)
	c.Input(vp, Mouse{X: x, Y: y}, &cam)
	if s.Selected != -1 {
		t.Errorf("a click not over the view selected %d", s.Selected)
	}
}

// TestHoverOverlay: moving over a node's lines hovers it, which draws its
// lines white on top and names it for the tooltip; the selected node gets
// a yellow box around its meshes and its handles.
func TestHoverOverlay(t *testing.T) {
	s, c, r, vp, crate := demo(t, "Crate (dynamic box)")
	x, y := lineOnScreen(t, c, vp, crate)
	var cam fakeCamera
	if tip := c.Input(vp, Mouse{X: x, Y: y, DX: 1, Over: true}, &cam); tip != crate || s.Hovered != crate {
		t.Fatalf("hover: tooltip %d, hovered %d; want %d", tip, s.Hovered, crate)
	}
	c.Update(vp)
	white := 0
	for _, l := range r.overlay {
		if l.Color == debugdraw.ColorHover {
			white++
		}
	}
	if n := len(c.Debug().PickLines(crate)); white != n || n == 0 {
		t.Fatalf("the overlay has %d white lines, the crate has %d", white, n)
	}

	s.Do(app.Select{Node: crate})
	c.Update(vp)
	lo, hi, _ := r.NodeBounds(crate)
	var box, handles int
	for _, l := range r.overlay {
		switch l.Color {
		case debugdraw.ColorSelectionBox:
			// A corner bracket: one end at a corner of the bounds, the
			// other a fifth of the way along one edge.
			box++
			corner := true
			for k := 0; k < 3; k++ {
				if float64(l.A[k]) != float64(float32(lo[k])) && float64(l.A[k]) != float64(float32(hi[k])) {
					corner = false
				}
			}
			if !corner {
				t.Fatalf("bracket %v starts off the corners of [%v, %v]", l.A, lo, hi)
			}
		case debugdraw.ColorSelected:
			t.Errorf("a line on top in the selected colliders' yellow: %v (the selection's bounds must not look like a collider)", l)
		case debugdraw.ColorHandle:
			handles++
		case debugdraw.ColorHover:
			t.Error("the selected node is drawn hovered too")
		}
	}
	hs, _ := s.Handles()
	if box != 24 || len(hs) != 6 || handles == 0 {
		t.Errorf("selected crate: %d bracket lines (want 24), %d handle lines for %d handles", box, handles, len(hs))
	}
	// Leaving the view ends the hover.
	c.Input(vp, Mouse{X: x, Y: y}, &cam)
	if s.Hovered != -1 {
		t.Errorf("hovered %d after leaving the view", s.Hovered)
	}
}

// TestHandleDrag: a press on a handle starts a drag that follows the mouse
// and ends as one undo step on release; Escape cancels one, leaving the
// shape and the history as they were.
func TestHandleDrag(t *testing.T) {
	s, c, _, vp, crate := demo(t, "Crate (dynamic box)")
	s.Do(app.Select{Node: crate})
	c.Update(vp)
	hs, shapes := s.Handles()
	if len(hs) == 0 {
		t.Fatal("the crate shows no handles")
	}
	// The handle that points most to the side on screen.
	best, dir := -1, [2]float64{}
	for i, h := range hs {
		x0, y0 := screen(t, vp, h.Pos)
		x1, y1 := screen(t, vp, h.Pos.Add(h.Axis))
		if d := [2]float64{x1 - x0, y1 - y0}; best < 0 || math.Abs(d[0]) > math.Abs(dir[0]) {
			best, dir = i, d
		}
	}
	l := math.Hypot(dir[0], dir[1])
	dir = [2]float64{dir[0] / l, dir[1] / l}
	x, y := screen(t, vp, hs[best].Pos)
	before := s.Doc.Shapes[shapes[best]]
	var cam fakeCamera

	drag := func(end Mouse) {
		c.Input(vp, Mouse{X: x, Y: y, Over: true, DX: 1}, &cam) // hover the handle
		if got, want := c.HandleTip(), "Drag to change the "+hs[best].Param.String()+" (Esc cancels)"; got != want {
			t.Errorf("hovering a handle: tooltip %q, want %q", got, want)
		}
		c.Input(vp, Mouse{X: x, Y: y, Over: true, Pressed: true, Left: true}, &cam)
		if !s.Dragging() {
			t.Fatal("a press on a handle did not start a drag")
		}
		for step := 1; step <= 4; step++ {
			c.Input(vp, Mouse{X: x + dir[0]*10*float64(step), Y: y + dir[1]*10*float64(step), DX: dir[0] * 10, DY: dir[1] * 10, Over: true, Left: true}, &cam)
		}
		if s.Doc.Shapes[shapes[best]].Size == before.Size {
			t.Fatal("dragging the handle 40 px outwards did not change the box")
		}
		c.Input(vp, end, &cam)
		if s.Dragging() {
			t.Fatal("still dragging after the drag ended")
		}
		c.Input(vp, Mouse{X: 5, Y: 30, Over: true, DX: 1}, &cam) // away from every handle
		if got := c.HandleTip(); got != "" {
			t.Errorf("away from the handles: tooltip %q", got)
		}
	}
	drag(Mouse{X: x, Y: y, Escape: true, Left: true})
	if s.Doc.Shapes[shapes[best]].Size != before.Size || s.Hist.Len() != 0 {
		t.Fatalf("Escape left size %v (was %v) and %d undo steps", s.Doc.Shapes[shapes[best]].Size, before.Size, s.Hist.Len())
	}
	drag(Mouse{X: x, Y: y, Over: true})
	after := s.Doc.Shapes[shapes[best]].Size
	if s.Hist.Len() != 1 || after == before.Size {
		t.Fatalf("a drag made %d undo steps (size %v, was %v)", s.Hist.Len(), after, before.Size)
	}
	if cam.orbit != [2]float64{} || s.Selected != crate {
		t.Errorf("a handle drag orbited (%v) or changed the selection (%d)", cam.orbit, s.Selected)
	}
	s.Undo()
	if s.Doc.Shapes[shapes[best]].Size != before.Size {
		t.Errorf("undo: size %v, want %v", s.Doc.Shapes[shapes[best]].Size, before.Size)
	}
}

// TestPlayShowsPoses: Play shows the simulation's poses in the renderer,
// its contact points as crosses of the asked radius, and the document
// again when it stops.
func TestPlayShowsPoses(t *testing.T) {
	s, _, r, _, _ := demo(t, "Crate (dynamic box)")
	now := time.Unix(100, 0)
	s.Do(app.PlayStep{})
	s.PlayFrame(now)
	if s.Play.Sim == nil || len(r.poses) != len(s.Doc.GLTF.Nodes) {
		t.Fatalf("Play started: %d poses for %d nodes", len(r.poses), len(s.Doc.GLTF.Nodes))
	}
	var contacts [][3]float64
	for i := 0; i < 600 && len(contacts) == 0; i++ {
		s.StepPlay(1)
		for _, p := range s.Play.Sim.Contacts() {
			contacts = append(contacts, [3]float64(p))
		}
	}
	if len(contacts) == 0 {
		t.Fatal("no contacts after 600 steps of the demo")
	}
	const radius = 0.1
	lines := PlayOverlay(s.Play.Sim, s.Play.Sim.Doc.WorldMatrices(), nil, true, radius)
	crosses := 0
	for _, l := range lines {
		if l.Color != contactRed {
			continue
		}
		crosses++
		a, b := mgl64.Vec3{float64(l.A[0]), float64(l.A[1]), float64(l.A[2])}, mgl64.Vec3{float64(l.B[0]), float64(l.B[1]), float64(l.B[2])}
		if d := b.Sub(a).Len(); math.Abs(d-2*radius) > 1e-5 {
			t.Fatalf("a contact cross arm is %v long, want %v", d, 2*radius)
		}
	}
	if crosses != 3*len(contacts) {
		t.Errorf("%d contact lines for %d contacts, want 3 each", crosses, len(contacts))
	}
	if n := len(PlayOverlay(s.Play.Sim, s.Play.Sim.Doc.WorldMatrices(), nil, false, radius)); n != len(lines)-crosses {
		t.Errorf("without contacts: %d lines, want %d", n, len(lines)-crosses)
	}
	s.Do(app.PlayReset{})
	if r.poses != nil || r.overlay != nil {
		t.Errorf("after Play stopped: %d poses, %d overlay lines; want the document's", len(r.poses), len(r.overlay))
	}
}

// TestHandlesKeepScreenSize: after the camera moves three times as far
// away (F, Home or the wheel), the handles are drawn three times as large
// in the world, the same size on screen, without waiting for the mouse to
// hover something.
func TestHandlesKeepScreenSize(t *testing.T) {
	s, c, r, vp, crate := demo(t, "Crate (dynamic box)")
	s.Do(app.Select{Node: crate})
	c.Update(vp)
	extent := func() float64 {
		var lo, hi [3]float32
		first := true
		for _, l := range r.overlay {
			if l.Color != debugdraw.ColorHandle {
				continue
			}
			for _, p := range [][3]float32{l.A, l.B} {
				for k := range 3 {
					if first || p[k] < lo[k] {
						lo[k] = p[k]
					}
					if first || p[k] > hi[k] {
						hi[k] = p[k]
					}
				}
				first = false
			}
		}
		return float64(hi[0]-lo[0]) + float64(hi[1]-lo[1]) + float64(hi[2]-lo[2])
	}
	near := extent()
	if near == 0 {
		t.Fatal("no handle lines for the selected crate")
	}
	target := s.Doc.WorldMatrix(crate).Col(3).Vec3()
	far := vp
	far.View = mgl64.LookAtV(target.Add(mgl64.Vec3{0, 12, 24}), target, mgl64.Vec3{0, 1, 0})
	c.Update(far)
	// The handles spread over the box's faces; only their own size grows.
	hs, _ := s.Handles()
	lo, hi := hs[0].Pos, hs[0].Pos
	for _, h := range hs {
		for k := range 3 {
			lo[k], hi[k] = math.Min(lo[k], h.Pos[k]), math.Max(hi[k], h.Pos[k])
		}
	}
	spread := hi.Sub(lo)
	grow := func(e float64) float64 { return e - (spread[0] + spread[1] + spread[2]) }
	if ratio := grow(extent()) / grow(near); ratio < 2.5 || ratio > 3.5 {
		t.Errorf("the handles grew %.2f times for a camera 3 times as far, want about 3", ratio)
	}
}

// TestFrameNodeWithoutMesh: F on a node without a mesh (a trigger, a
// gravity field, a compound's part, a joint node) frames what its physics
// draws there, not the whole scene.
func TestFrameNodeWithoutMesh(t *testing.T) {
	for _, name := range []string{"Checkpoint (trigger)", "Planetoid (point gravity)", "Finish (compound trigger)", "Bracket (dynamic compound of convex hulls) hull 1", "Hinge (joint)"} {
		t.Run(name, func(t *testing.T) {
			s, c, r, _, n := demo(t, name)
			s.Do(app.Select{Node: n})
			lo, hi := c.SelectionBounds()
			slo, shi := r.Bounds()
			if lo == slo && hi == shi {
				t.Fatalf("framing %q frames the whole scene", name)
			}
			p := s.Doc.WorldMatrix(n).Col(3).Vec3()
			size := hi.Sub(lo).Len()
			if !(size > 0) || size > 0.8*shi.Sub(slo).Len() {
				t.Errorf("framing %q: a box %.3g m across (the scene is %.3g)", name, size, shi.Sub(slo).Len())
			}
			// What the node draws is about it: its origin lies in the box or near it.
			for k := 0; k < 3; k++ {
				if p[k] < lo[k]-size || p[k] > hi[k]+size {
					t.Errorf("framing %q: the box %v..%v is far from the node at %v", name, lo, hi, p)
				}
			}
		})
	}
}

// TestHoverAfterCameraJump: with the mouse still, a camera that jumps (F,
// Home) makes the view pick again: the crate's tooltip does not stay once
// the crate is no longer under the mouse.
func TestHoverAfterCameraJump(t *testing.T) {
	s, c, _, vp, crate := demo(t, "Crate (dynamic box)")
	x, y := lineOnScreen(t, c, vp, crate)
	var cam fakeCamera
	if tip := c.Input(vp, Mouse{X: x, Y: y, DX: 1, Over: true}, &cam); tip != crate {
		t.Fatalf("hover: tooltip %d, want %d", tip, crate)
	}
	// The camera turns away (as F framing something else would); the mouse stays.
	vp.View = mgl64.LookAtV(mgl64.Vec3{0, 50, 0.01}, mgl64.Vec3{0, 60, 0}, mgl64.Vec3{0, 1, 0})
	if tip := c.Input(vp, Mouse{X: x, Y: y, Over: true}, &cam); tip != -1 || s.Hovered != -1 {
		t.Errorf("after the camera turned away: tooltip %d, hovered %d; want none", tip, s.Hovered)
	}
}

// TestCompareWhilePaused: "Compare engines" while Play is paused draws both
// engines' tracks in the next frame, without a step or a scrub first.
func TestCompareWhilePaused(t *testing.T) {
	s, c, r, vp, _ := demo(t, "Crate (dynamic box)")
	s.Do(app.PlayStep{})
	s.PlayFrame(time.Unix(100, 0))
	if s.Play.Sim == nil {
		t.Fatal("Play did not start")
	}
	count := func() (n [2]int) {
		for _, l := range r.overlay {
			for e, col := range CompareColors {
				if l.Color == col {
					n[e]++
				}
			}
		}
		return n
	}
	c.Update(vp)
	if n := count(); n != [2]int{} {
		t.Fatalf("before the comparison: %v lines in the engines' colours", n)
	}
	s.Do(app.CompareEngines{Seconds: 0.25})
	if s.Play.Engines.Compare == nil {
		t.Fatalf("no comparison: %s", s.Play.Engines.CompareError)
	}
	want := len(CompareLines(s.Play.Engines.Compare))
	c.Update(vp)
	if n := count(); n[0] == 0 || n[1] == 0 || n[0]+n[1] < want {
		t.Errorf("after Compare engines: %v lines in ODE's and Bullet's colours, want both and at least the %d of the tracks", n, want)
	}
}
