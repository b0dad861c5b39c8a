package main

import (
	"github.com/go-gl/mathgl/mgl64"

	"physview/debugdraw"
	"physview/internal/app"
	"physview/render/shot"
	"physview/sim"
)

// playView shows Play in the window (the session steps it, see
// internal/app): the poses, the moving wireframes, the triggers with
// bodies inside and the contact points.
type playView struct {
	cache  *debugdraw.Cache // debug lines of the simulation's copy
	meshes *debugdraw.DocumentMeshes
	moving []int // nodes whose lines move with the bodies
	// shownSel is the selection the lines were last uploaded with.
	shownSel int
}

// PlayStarted shows the simulation's copy of the document (app.PlayView).
func (a *windowApp) PlayStarted(s *sim.Sim) {
	if a.renderer == nil {
		return
	}
	p := &a.play
	p.meshes = &debugdraw.DocumentMeshes{Doc: s.Doc}
	p.cache = shot.DebugCache(s.Doc, a.renderer)
	p.moving = app.MovingNodes(s)
	p.shownSel = -2
	a.renderer.ForgetDebug()
	a.showPoses(s)
}

// PlayStepped shows the simulation's new poses (app.PlayView).
func (a *windowApp) PlayStepped(s *sim.Sim) {
	if a.renderer != nil && a.play.cache != nil {
		a.showPoses(s)
	}
}

// PlayStopped shows the document again (app.PlayView).
func (a *windowApp) PlayStopped() {
	a.play.cache = nil
	if a.renderer != nil && a.debug != nil {
		a.renderer.SetPoses(nil)
		a.renderer.ForgetDebug()
		a.renderer.SetDebug(a.debug.Groups())
		a.renderer.SetOverlay(nil)
		a.probeOn = !a.s.View.Probe // the probe redraws its overlay
		a.overlayDirty = true
		a.view.Invalidate()
	}
}

// showPoses puts the simulation's poses on screen: meshes, wireframes,
// lit triggers and contact points.
func (a *windowApp) showPoses(s *sim.Sim) {
	p := &a.play
	s.Apply()
	world := s.Doc.WorldMatrices()
	a.renderer.SetPoses(world)
	p.cache.MarkDirty(p.moving)
	if sel := a.s.Selected; sel != p.shownSel {
		p.cache.Select(sel)
		// The window re-uploaded the document's lines for the new selection.
		a.renderer.ForgetDebug()
		p.shownSel = sel
	}
	p.cache.Update()
	a.renderer.SetDebug(p.cache.Groups())

	var overlay []debugdraw.Line
	lit := [4]float32{1, 0.3, 1, 1}
	for _, t := range s.Triggers {
		if len(s.Inside(t)) == 0 {
			continue
		}
		for _, vs := range s.Doc.VolumeShapes(t) {
			overlay = append(overlay, debugdraw.Shape(s.Doc.Shapes[vs[1]], world[vs[0]], lit, p.meshes)...)
		}
	}
	if a.s.Play.Contacts {
		lo, hi := a.renderer.Bounds()
		r := hi.Sub(lo).Len() * 0.006
		red := [4]float32{1, 0.2, 0.15, 1}
		for _, c := range s.Contacts() {
			pt := mgl64.Vec3(c)
			for k := 0; k < 3; k++ {
				var ax mgl64.Vec3
				ax[k] = r
				overlay = append(overlay, debugdraw.Line{A: f32v(pt.Sub(ax)), B: f32v(pt.Add(ax)), Color: red})
			}
		}
	}
	a.renderer.SetOverlay(overlay)
	a.view.Invalidate()
}

func f32v(v mgl64.Vec3) [3]float32 { return [3]float32{float32(v[0]), float32(v[1]), float32(v[2])} }
