package viewport

import (
	"github.com/go-gl/mathgl/mgl64"

	"physview/debugdraw"
	"physview/internal/app"
	"physview/sim"
)

// playState is what the view keeps while Play shows the simulation's copy
// of the document (the session steps it).
type playState struct {
	cache  *debugdraw.Cache // debug lines of the simulation's copy
	meshes *debugdraw.DocumentMeshes
	moving []int // nodes whose lines move with the bodies
	// shownSel is the selection the lines were last uploaded with.
	shownSel int
	// joints are the joint values last logged (joints.go).
	joints map[int]float64
	// shownTraj is the Trajectories option the overlay was built with.
	shownTraj bool
	// shownCompare is the engine comparison the overlay was built with:
	// "Compare engines" while Play is paused draws its tracks at once.
	shownCompare *app.Comparison
}

// Colours of Play's lines on top.
var (
	litTrigger = [4]float32{1, 0.3, 1, 1}
	contactRed = [4]float32{1, 0.2, 0.15, 1}
)

// PlayStarted shows the simulation's copy of the document (app.PlayView).
func (c *Controller) PlayStarted(s *sim.Sim) {
	lo, hi := c.r.Bounds()
	c.play = playState{
		meshes:   &debugdraw.DocumentMeshes{Doc: s.Doc},
		cache:    debugdraw.SceneCache(s.Doc, lo, hi),
		moving:   app.MovingNodes(s),
		shownSel: -2,
	}
	c.r.ForgetDebug()
	c.showPoses(s)
}

// PlayStepped shows the simulation's new poses (app.PlayView).
func (c *Controller) PlayStepped(s *sim.Sim) {
	if c.play.cache != nil {
		c.showPoses(s)
	}
}

// PlayStopped shows the document again (app.PlayView).
func (c *Controller) PlayStopped() {
	c.play.cache = nil
	if c.debug == nil {
		return
	}
	c.r.SetPoses(nil)
	c.r.ForgetDebug()
	c.r.SetDebug(c.debug.Groups())
	c.r.SetOverlay(nil)
	c.probeOn = !c.s.View.Probe // the probe redraws its overlay
	c.overlayDirty = true
	c.redraw()
}

// showPoses puts the simulation's poses on screen: meshes, wireframes,
// lit triggers and contact points.
func (c *Controller) showPoses(s *sim.Sim) {
	p := &c.play
	c.s.ApplyPlayPoses(s) // the live state, or the scrubbed recorded frame
	world := s.Doc.WorldMatrices()
	c.r.SetPoses(world)
	p.cache.MarkDirty(p.moving)
	if sel := c.s.Selected; sel != p.shownSel {
		p.cache.Select(sel)
		// The document's lines were uploaded for the new selection.
		c.r.ForgetDebug()
		p.shownSel = sel
	}
	p.cache.Update()
	c.r.SetDebug(p.cache.Groups())
	p.shownTraj, p.shownCompare = c.s.View.Trajectories, c.s.Play.Engines.Compare
	over := append(PlayOverlay(s, world, p.meshes, c.s.Play.Contacts, c.sceneSize()*0.006), c.s.TrajectoryLines(c.sceneSize()*0.004)...)
	// After "Compare engines": both engines' tracks, and their bodies at
	// the time shown (compare.go, app.CompareGhostLines).
	over = append(over, CompareLines(c.s.Play.Engines.Compare)...)
	c.r.SetOverlay(append(over, c.s.CompareGhostLines()...))
	c.logJoints(s)
	c.redraw()
}

// PlayOverlay is what Play draws on top: the triggers with bodies inside
// lit, and, with contacts on, a cross of radius r at each contact point.
func PlayOverlay(s *sim.Sim, world []mgl64.Mat4, meshes debugdraw.MeshSource, contacts bool, r float64) []debugdraw.Line {
	var out []debugdraw.Line
	for _, t := range s.Triggers {
		if len(s.Inside(t)) == 0 {
			continue
		}
		for _, vs := range s.Doc.VolumeShapes(t) {
			out = append(out, debugdraw.Shape(s.Doc.Shapes[vs[1]], world[vs[0]], litTrigger, meshes)...)
		}
	}
	if !contacts {
		return out
	}
	for _, cp := range s.Contacts() {
		pt := mgl64.Vec3(cp)
		for k := 0; k < 3; k++ {
			var ax mgl64.Vec3
			ax[k] = r
			out = append(out, debugdraw.Line{A: f32(pt.Sub(ax)), B: f32(pt.Add(ax)), Color: contactRed})
		}
	}
	return out
}
