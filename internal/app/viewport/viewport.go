// Package viewport is the 3D view's logic without GL or imgui: what the
// view shows of the session (the physics lines, the lines on top, Play's
// moving wireframes, the animation's pose) and what the mouse does over it
// (pick, hover, handle drags, orbit, pan, zoom). The window reads imgui's
// mouse into a Mouse each frame and hands its renderer in as a Renderer;
// tests drive a Controller with neither.
package viewport

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"physview/debugdraw"
	"physview/internal/app"
	"physview/scene"
	"physview/scene/anim"
)

// Renderer is what the view asks of the GL renderer (render.Renderer).
type Renderer interface {
	// Bounds is the box around everything drawn; NodeBounds the box
	// around node n's meshes and those below it (ok false: none).
	Bounds() (lo, hi mgl64.Vec3)
	NodeBounds(n int) (lo, hi mgl64.Vec3, ok bool)
	// SetDocument shows d; TransformsChanged says its nodes moved.
	SetDocument(d *scene.Document)
	TransformsChanged()
	// SetDebug shows the physics lines; ForgetDebug drops the uploaded
	// ones so that the next SetDebug uploads every group; SetOverlay
	// shows the lines drawn on top.
	SetDebug(groups []debugdraw.Group)
	ForgetDebug()
	SetOverlay(lines []debugdraw.Line)
	// SetPoses draws the nodes at Play's world matrices (nil: the
	// document's); SetPose at the timeline's pose (nil: the rest pose).
	SetPoses(world []mgl64.Mat4)
	SetPose(p *anim.Pose)
}

// Camera is what the mouse moves (render.Camera).
type Camera interface {
	Orbit(dx, dy float64)
	Pan(dx, dy, height float64)
	Zoom(steps float64)
}

// Rect is the 3D view's rectangle in logical pixels with the camera's
// view and projection matrices.
type Rect struct {
	X, Y, W, H float64
	View, Proj mgl64.Mat4
}

// ray returns the world ray under the point (x, y).
func (r Rect) ray(x, y float64) (mgl64.Vec3, mgl64.Vec3) {
	return debugdraw.PickRay(r.View, r.Proj, x-r.X, y-r.Y, r.W, r.H)
}

// Mouse is one frame's mouse as the window reads it.
type Mouse struct {
	// X, Y is where it is, DX, DY how far it moved since the last frame,
	// Wheel the wheel's steps.
	X, Y, DX, DY, Wheel float64
	// Over: it is over the 3D view and the panel does not want it.
	Over bool
	// Pressed: the left button went down this frame; Left, Right and
	// Middle: the buttons held.
	Pressed, Left, Right, Middle bool
	// Escape was pressed this frame.
	Escape bool
	// GizmoBusy: the transform gizmo has the mouse (dragged, or under it).
	GizmoBusy bool
}

const (
	// clickSlop is how far (pixels) the mouse may move between press and
	// release for the press to count as a click (select), not a drag
	// (orbit).
	clickSlop = 4
	// handlePick and nodePick are how near (pixels) a handle or a line
	// must be to the mouse to be picked.
	handlePick, nodePick = 8, 6
	// orbitSpeed is radians per pixel of an orbiting drag.
	orbitSpeed = 0.008
)

// Controller shows a session in a Renderer and takes the mouse over the
// 3D view. It is the session's View, PlayView and PoseView.
type Controller struct {
	s *app.Session
	r Renderer
	// Redraw, when set, is called when the 3D view must be drawn again.
	Redraw func()
	// ProbeText says the net gravity at the probe, for the panel.
	ProbeText string
	// Screen, when set, is told where things are on screen (screen.go).
	Screen func(line string)

	debug  *debugdraw.Cache
	meshes *debugdraw.DocumentMeshes
	picker debugdraw.Picker
	// pressAt is where the left button went down over the view; orbiting
	// is set once it moved far enough to be a drag, not a click.
	pressAt           [2]float64
	pressed, orbiting bool
	hoverHandle       int
	// overlayDirty asks for the lines on top to be rebuilt.
	overlayDirty bool
	// shownCompare is the engine comparison whose tracks are drawn.
	shownCompare *app.Comparison
	// The probe as last drawn, and its lines.
	probeOn    bool
	probeAt    [3]float32
	probeLines []debugdraw.Line
	// What the lines were last built with: the Joints option, the
	// selection and the compound preview.
	shownJoints bool
	shownSel    int
	compoundGen int
	// hoverView is the camera the hovered node was picked under.
	hoverView  mgl64.Mat4
	compareGen int
	// shownCam is the camera the handles were sized for.
	shownCam    [2]mgl64.Mat4
	loggedNodes bool
	play        playState
}

// New returns a controller showing s in r; it adds itself to s's views.
func New(s *app.Session, r Renderer) *Controller {
	c := &Controller{s: s, r: r, shownSel: -1, hoverHandle: -1}
	s.Views = append(s.Views, c)
	return c
}

func (c *Controller) redraw() {
	if c.Redraw != nil {
		c.Redraw()
	}
}

// Debug is the document's physics lines (nil before a document is shown).
func (c *Controller) Debug() *debugdraw.Cache { return c.debug }

// DocumentReplaced shows a new document (app.View).
func (c *Controller) DocumentReplaced(d *scene.Document) {
	c.pressed = false
	c.meshes = &debugdraw.DocumentMeshes{Doc: d}
	c.picker.Reset()
	c.overlayDirty = true
	c.probeOn = false
	c.loggedNodes = false
	c.shownSel = -1
	c.r.SetDocument(d)
	lo, hi := c.r.Bounds()
	c.debug = debugdraw.SceneCache(d, lo, hi)
	c.s.MarkerSize = c.debug.MarkerSize()
	c.redraw()
}

// DocumentChanged redraws after an edit, an undo or a redo, as the Change
// says (app.View).
func (c *Controller) DocumentChanged(ch scene.Change) {
	if c.debug != nil {
		c.debug.Apply(ch)
	}
	if len(ch.Moved) > 0 || ch.Structure {
		c.r.TransformsChanged()
	}
	c.probeOn = !c.s.View.Probe // gravity may have changed: redraw the probe
	c.overlayDirty = true
	c.redraw()
}

// SelectionChanged redraws the selection's lines and handles (app.View).
func (c *Controller) SelectionChanged(int) { c.overlayDirty = true }

// PoseChanged shows the timeline's pose (app.PoseView): meshes, skins and
// morph weights in the renderer, the physics lines and picking in the
// debug cache (nil: the rest pose).
func (c *Controller) PoseChanged(p *anim.Pose) {
	c.r.SetPose(p)
	if c.debug != nil {
		if p != nil {
			// Only the nodes the animations move are drawn again.
			c.debug.SetPose(p.World, movedNodes(c.s.Timeline.Model))
			c.debug.SetVisibility(p.Props) // animated visible flags grey colliders
		} else {
			c.debug.SetPose(nil, nil)
			c.debug.SetVisibility(nil)
		}
	}
	c.overlayDirty = true
	c.redraw()
}

// movedNodes lists the nodes any of m's animations moves.
func movedNodes(m *anim.Model) []int {
	out := []int{}
	if m == nil {
		return out
	}
	for n, moved := range m.Moves(-1) {
		if moved {
			out = append(out, n)
		}
	}
	return out
}

// Update brings the view up to date with the session once per frame, after
// the session's Play and timeline advanced: the selection's lines, the
// probe and, while Play is off, the lines on top.
func (c *Controller) Update(vp Rect) {
	s := c.s
	if c.debug == nil || s.Doc == nil {
		return
	}
	if c.debug.Select(s.Selected); s.Selected != c.shownSel {
		c.shownSel = s.Selected
		c.overlayDirty = true
	}
	if c.debug.Update() && s.Play.Sim == nil {
		c.r.SetDebug(c.debug.Groups())
		c.redraw()
		c.overlayDirty = true
	}
	c.updateProbe()
	if s.View.Joints != c.shownJoints {
		c.shownJoints, c.overlayDirty = s.View.Joints, true
	}
	if g := s.Compound.Gen; g != c.compoundGen {
		c.compoundGen, c.overlayDirty = g, true
	}
	if cmp := s.Play.Engines.Compare; cmp != c.shownCompare { // compare.go
		c.shownCompare, c.overlayDirty = cmp, true
	}
	if s.CompareReport(); s.Compare.Gen != c.compareGen {
		c.compareGen, c.overlayDirty = s.Compare.Gen, true
	}
	// The handles keep their size on screen: a camera move (F, Home, the
	// wheel, an orbit) sizes them again.
	if cam := [2]mgl64.Mat4{vp.View, vp.Proj}; cam != c.shownCam {
		c.shownCam = cam
		if hs, _ := s.Handles(); len(hs) > 0 {
			c.overlayDirty = true
		}
	}
	if s.Play.Sim == nil {
		c.updateOverlay(vp)
	} else if (s.View.Trajectories != c.play.shownTraj || s.Play.Engines.Compare != c.play.shownCompare) && c.play.cache != nil {
		c.showPoses(s.Play.Sim) // View > Trajectories toggled, or the engines compared
	}
}

// SelectionBounds is the box the view frames for "frame selection": the
// selected node's meshes, or everything.
func (c *Controller) SelectionBounds() (lo, hi mgl64.Vec3) {
	lo, hi = c.r.Bounds()
	if n := c.s.Selected; c.s.Doc != nil && n >= 0 {
		if blo, bhi, ok := c.r.NodeBounds(n); ok {
			lo, hi = blo, bhi
		} else if c.debug != nil {
			// No mesh: what its physics draws (a trigger, a field, the
			// parts of a compound, a fit's child node, a joint).
			if blo, bhi, ok := c.debug.NodeBounds(n); ok {
				lo, hi = blo, bhi
			}
		}
	}
	return lo, hi
}

// Input takes one frame's mouse over the view: a click picks, a drag on a
// handle changes the shape (one undo step; Escape cancels it), a drag
// elsewhere orbits cam, the right or middle button pans it and the wheel
// zooms. It returns the node the window names in a tooltip (-1: none).
func (c *Controller) Input(vp Rect, m Mouse, cam Camera) (tooltip int) {
	s := c.s
	if s.Doc == nil {
		return -1
	}
	if m.Escape && (s.Dragging() || s.GizmoActive()) {
		s.CancelDrag()
		return -1
	}
	// A handle drag follows the mouse until the button is released. A
	// frame can take in the last moves and the release together (imgui
	// hands a release after moves to the same frame; a slow frame on a
	// busy machine gathers both): the moves count before the drag ends.
	if s.Dragging() {
		if m.DX != 0 || m.DY != 0 {
			s.DragTo(vp.ray(m.X, m.Y))
		}
		if !m.Left {
			s.EndDrag()
		}
		return -1
	}
	hs, _ := s.Handles()
	hover := -1
	if m.Over && !m.GizmoBusy {
		hover = debugdraw.PickHandle(hs, vp.Proj.Mul4(vp.View), m.X-vp.X, m.Y-vp.Y, vp.W, vp.H, handlePick)
	}
	if hover != c.hoverHandle {
		c.hoverHandle, c.overlayDirty = hover, true
	}
	if m.Over && !m.GizmoBusy && m.Pressed {
		c.pressAt, c.pressed, c.orbiting = [2]float64{m.X, m.Y}, true, false
		if hover >= 0 && s.BeginDrag(hover) {
			c.pressed = false
			return -1
		}
	}
	if c.pressed {
		// A release in the same frame as the moves before it (as with a
		// handle drag above) still orbits by them and picks nothing.
		if c.orbiting || math.Hypot(m.X-c.pressAt[0], m.Y-c.pressAt[1]) > clickSlop {
			c.orbiting = true
			cam.Orbit(m.DX*orbitSpeed, -m.DY*orbitSpeed)
		}
		if !m.Left {
			c.pressed = false
			if !c.orbiting {
				if n := c.pickAt(vp, c.pressAt[0], c.pressAt[1]); n != s.Selected {
					s.Do(app.Select{Node: n, FromView: n >= 0})
				}
			}
		}
	}
	if !m.Over {
		if s.Hovered >= 0 && !c.pressed {
			s.Hovered, c.overlayDirty = -1, true
		}
		return -1
	}
	if m.Right || m.Middle {
		cam.Pan(m.DX, m.DY, vp.H)
	}
	if m.Wheel != 0 {
		cam.Zoom(m.Wheel)
	}
	// The mouse moved, or the camera did under a still mouse (F, Home, a
	// file camera): what is under it is picked again, so a tooltip never
	// names what was there before.
	if (m.DX != 0 || m.DY != 0 || vp.View != c.hoverView) && !m.Left {
		c.hoverView = vp.View
		if n := c.pickAt(vp, m.X, m.Y); n != s.Hovered {
			s.Hovered, c.overlayDirty = n, true
		}
	}
	if n := s.Hovered; n >= 0 && n < len(s.Doc.GLTF.Nodes) && !s.Dragging() && !c.orbiting {
		return n
	}
	return -1
}

// HandleTip is the tooltip for the handle under the mouse ("" when none
// is): what dragging it changes, so that a new user finds the handles.
func (c *Controller) HandleTip() string {
	hs, _ := c.s.Handles()
	if c.hoverHandle < 0 || c.hoverHandle >= len(hs) || c.s.Dragging() {
		return ""
	}
	return "Drag to change the " + hs[c.hoverHandle].Param.String() + " (Esc cancels)"
}

// pickAt returns the node under (x, y), -1 for none.
func (c *Controller) pickAt(vp Rect, x, y float64) int {
	d, cache, meshes := c.s.Doc, c.debug, c.meshes
	if p := &c.play; c.s.Play.Sim != nil && p.cache != nil {
		// While a simulation is shown, pick what is on screen: the
		// bodies where the simulation has them (same node indices).
		// (The picker's remembered bounds are keyed by the slices they
		// came from, so switching documents needs no reset.)
		d, cache, meshes = c.s.Play.Sim.Doc, p.cache, p.meshes
	}
	if d == nil || cache == nil {
		return -1
	}
	return c.picker.PickNode(d, cache.World(), meshes, cache.PickLines, vp.View, vp.Proj,
		x-vp.X, y-vp.Y, vp.W, vp.H, nodePick)
}
