package main

import (
	"fmt"
	"math"
	"os"
	"strings"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/go-gl/mathgl/mgl64"

	"physview/debugdraw"
	"physview/scene"
	"physview/sim"
	"physview/ui"
)

// player runs the Play tab's simulation in the window: it steps the
// simulation in real time (times the chosen speed) each frame and shows
// the poses, the moving wireframes, the triggers with bodies inside and the
// contact points.
type player struct {
	doc    *scene.Document // the document the simulation was made from
	sim    *sim.Sim
	cache  *debugdraw.Cache // debug lines of the simulation's copy
	meshes *debugdraw.DocumentMeshes
	moving []int // nodes whose lines move with the bodies
	sel    int   // the selected node, whose body is plotted
	// shownSel is the selection the lines were last uploaded with.
	shownSel int
	last     time.Time
	acc      float64
	// frame statistics while playing, reported on stderr every 5 s
	frames     int
	frameTime  time.Duration
	stepTime   time.Duration // of which stepping
	poseTime   time.Duration // of which poses, lines and overlay
	stepsShown int
	reported   time.Time
}

// maxStepsPerFrame bounds the work of one frame: a slow frame slows the
// simulation down rather than freezing the window.
const maxStepsPerFrame = 64

// stepBudget is the most time one frame spends stepping (at least one step
// is taken): a scene too heavy for real time plays slower, and the window
// stays responsive.
const stepBudget = 25 * time.Millisecond

// playFrame is called once per frame before the view is drawn.
func (a *windowApp) playFrame() {
	p, ps := &a.play, ui.Play
	d := a.state.Doc
	if p.doc != d {
		a.stopPlay()
		p.doc = d
		ps.Error, ps.Notes, ps.Playing = "", nil, false
	}
	p.sel = a.state.Selected
	if !imgui.CurrentIO().WantCaptureKeyboard() && imgui.IsKeyPressedBool(imgui.KeySpace) {
		ps.Playing = !ps.Playing
	}
	if ps.ResetRequested {
		ps.ResetRequested = false
		a.stopPlay()
		ps.Error = ""
	}
	if (ps.Playing || ps.StepRequested) && p.sim == nil && d != nil && a.renderer != nil {
		a.startPlay()
	}
	if p.sim == nil {
		ps.StepRequested = false
		return
	}
	now := time.Now()
	steps := 0
	if ps.Playing {
		dt := math.Min(now.Sub(p.last).Seconds(), 0.1)
		p.acc += dt * ui.PlaySpeeds[ps.SpeedChoice]
		steps = int(p.acc / p.sim.StepSize())
		p.acc -= float64(steps) * p.sim.StepSize()
		if steps > maxStepsPerFrame {
			steps, p.acc = maxStepsPerFrame, 0
		}
		p.frames++
		p.frameTime += now.Sub(p.last)
	}
	p.last = now
	if ps.StepRequested {
		ps.StepRequested, steps = false, 1
	}
	start := time.Now()
	done := 0
	for ; done < steps; done++ {
		if done > 0 && time.Since(start) > stepBudget {
			// Too slow for real time: play slower rather than stall the window.
			p.acc = 0
			break
		}
		if err := p.sim.Step(); err != nil {
			ps.Error, ps.Playing = err.Error(), false
			break
		}
		p.sample()
	}
	steps = done
	p.stepsShown += steps
	stepped := time.Now()
	if steps > 0 || p.cacheSelect(a.state.Selected) {
		a.showPoses()
	}
	if ps.Playing {
		p.stepTime += stepped.Sub(start)
		p.poseTime += time.Since(stepped)
	}
	ps.Time = p.sim.Time
	if ps.Playing && now.Sub(p.reported) > 5*time.Second && p.frames > 0 {
		ms := func(d time.Duration) float64 { return float64((d / time.Duration(p.frames)).Microseconds()) / 1000 }
		ps.Info = fmt.Sprintf("%d bodies; a frame takes %.1f ms: %.1f ms stepping, %.1f ms poses and lines", len(p.sim.Bodies), ms(p.frameTime), ms(p.stepTime), ms(p.poseTime))
		fmt.Fprintf(os.Stderr, "viewer: playing: %d frames, mean frame %.1f ms (stepping %.1f ms, poses and lines %.1f ms, the rest drawing), %d steps (%.0f steps/s)\n",
			p.frames, ms(p.frameTime), ms(p.stepTime), ms(p.poseTime), p.stepsShown, float64(p.stepsShown)/p.frameTime.Seconds())
		p.frames, p.frameTime, p.stepTime, p.poseTime, p.stepsShown, p.reported = 0, 0, 0, 0, 0, now
	}
}

// startPlay builds the simulation from the document as it is now.
func (a *windowApp) startPlay() {
	p, ps := &a.play, ui.Play
	s, err := sim.New(a.state.Doc, sim.Options{RecordContacts: true})
	if err != nil {
		ps.Error, ps.Playing, ps.StepRequested = err.Error(), false, false
		return
	}
	p.sim = s
	animateKinematic(s, a.state.Doc, -1) // kinematic bodies follow the animations (anim.go)
	p.meshes = &debugdraw.DocumentMeshes{Doc: s.Doc}
	p.cache = newDebugCache(s.Doc, a.renderer)
	p.moving = movingNodes(s)
	p.last, p.reported, p.acc = time.Now(), time.Now(), 0
	ps.Running, ps.Error, ps.Notes, ps.Info = true, "", s.Warnings, fmt.Sprintf("%d bodies", len(s.Bodies))
	ps.ClearSamples()
	p.sample()
	a.renderer.ForgetDebug()
	a.showPoses()
}

// stopPlay drops the simulation and shows the document again.
func (a *windowApp) stopPlay() {
	p, ps := &a.play, ui.Play
	ps.Running, ps.Time, ps.Inside, ps.Plotted = false, 0, nil, ""
	ps.ClearSamples()
	if p.sim == nil {
		return
	}
	p.sim.Close()
	p.sim, p.cache = nil, nil
	if a.renderer != nil && a.state.Doc == p.doc {
		a.renderer.SetPoses(nil)
		a.renderer.ForgetDebug()
		a.renderer.SetDebug(a.debug.Groups())
		a.renderer.SetOverlay(nil)
		a.probeOn = !a.state.Probe // the probe redraws its overlay
		a.view.Invalidate()
	}
}

// cacheSelect follows the selection in the simulation's lines.
func (p *player) cacheSelect(n int) bool {
	if p.cache == nil {
		return false
	}
	p.cache.Select(n)
	return p.cache.Update()
}

// sample adds one point to the plot.
func (p *player) sample() {
	ps := ui.Play
	s := p.sim
	h, v := math.NaN(), math.NaN()
	ps.Plotted = ""
	if i := s.BodyIndex(p.sel); i >= 0 {
		b := s.Bodies[i]
		h, v = b.CenterOfMass[1], b.LinearVelocity.Len()
		ps.Plotted = b.Name
	}
	ps.AddSample(s.Time, h, v, s.Energy())
}

// showPoses puts the simulation's poses on screen: meshes, wireframes,
// lit triggers and contact points.
func (a *windowApp) showPoses() {
	p, ps := &a.play, ui.Play
	s := p.sim
	s.Apply()
	world := s.Doc.WorldMatrices()
	a.renderer.SetPoses(world)
	p.cache.MarkDirty(p.moving)
	if p.cache.Select(a.state.Selected); a.state.Selected != p.shownSel {
		// The window re-uploaded the document's lines for the new selection.
		a.renderer.ForgetDebug()
		p.shownSel = a.state.Selected
	}
	p.cache.Update()
	a.renderer.SetDebug(p.cache.Groups())

	var overlay []debugdraw.Line
	ps.Inside = nil
	lit := [4]float32{1, 0.3, 1, 1}
	for _, t := range s.Triggers {
		in := s.Inside(t)
		if len(in) == 0 {
			continue
		}
		names := make([]string, len(in))
		for i, b := range in {
			names[i] = s.Bodies[b].Name
		}
		ps.Inside = append(ps.Inside, fmt.Sprintf("trigger %q: %s inside", s.Doc.GLTF.Nodes[t].Name, strings.Join(names, ", ")))
		for _, vs := range s.Doc.VolumeShapes(t) {
			overlay = append(overlay, debugdraw.Shape(s.Doc.Shapes[vs[1]], world[vs[0]], lit, p.meshes)...)
		}
	}
	if ps.Contacts {
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

// movingNodes lists the nodes whose debug lines move when the bodies do:
// every body's subtree, the joints connected into one, and the compound
// triggers listing one.
func movingNodes(s *sim.Sim) []int {
	d := s.Doc
	in := map[int]bool{}
	var walk func(int)
	walk = func(n int) {
		if in[n] {
			return
		}
		in[n] = true
		for _, c := range d.Children(n) {
			walk(c)
		}
	}
	for _, b := range s.Bodies {
		walk(b.Node)
	}
	for i, ne := range d.Nodes {
		if ne.Joint != nil && in[ne.Joint.ConnectedNode] {
			in[i] = true
		}
		if ne.Body != nil && ne.Body.Trigger != nil {
			for _, t := range ne.Body.Trigger.Nodes {
				if in[t] {
					in[i] = true
				}
			}
		}
	}
	out := make([]int, 0, len(in))
	for n := range in {
		out = append(out, n)
	}
	return out
}
