package main

import (
	"flag"
	"fmt"
	"math"

	"physview/internal/report"
	"physview/scene"
	"physview/scene/anim"
	"physview/sim"
)

// poseFlags are -time and -animation, shared by screenshot and inspect.
type poseFlags struct {
	time      *float64
	animation *int
	set       func() bool
}

func addPoseFlags(fs *flag.FlagSet) *poseFlags {
	p := &poseFlags{
		time:      fs.Float64("time", math.NaN(), "pose the scene at T seconds of the animation (clamped to its range; default: the rest pose)"),
		animation: fs.Int("animation", 0, "the animation -time samples (index); -1 plays them all"),
	}
	p.set = func() bool { return !math.IsNaN(*p.time) }
	return p
}

// pose returns the pose the flags ask for: the rest pose without -time.
func (p *poseFlags) pose(d *scene.Document) (*anim.Model, *anim.Pose, error) {
	m := anim.NewModel(d)
	if !p.set() {
		return m, m.Rest(), nil
	}
	if a := *p.animation; a >= len(m.Animations) || a < -1 {
		return nil, nil, fail(2, "-animation %d: the file has %d animations", a, len(m.Animations))
	}
	if math.IsInf(*p.time, 0) {
		return nil, nil, fail(2, "-time %v: want a finite number of seconds", *p.time)
	}
	return m, m.Pose(*p.animation, *p.time), nil
}

// poseBounds returns the bounds of d posed as the flags say; nil when
// nothing is drawn.
func poseBounds(d *scene.Document, pf *poseFlags) (*report.Bounds, error) {
	if d.GLTF == nil {
		return nil, nil
	}
	m, p, err := pf.pose(d)
	if err != nil {
		return nil, err
	}
	lo, hi, ok := m.Bounds(p)
	if !ok {
		return nil, nil
	}
	return &report.Bounds{Min: lo, Max: hi}, nil
}

// animateKinematic makes s's kinematic bodies on nodes animation a moves
// (every animation for a = -1) follow it, sampled at the simulation's time
// (clamped to the animation's range). Nothing happens when the document has
// no animations.
func animateKinematic(s *sim.Sim, d *scene.Document, a int) error {
	if len(d.GLTF.Animations) == 0 {
		return nil
	}
	m := anim.NewModel(d)
	if a < -1 || a >= len(m.Animations) {
		return fmt.Errorf("-animation %d: the file has %d animations", a, len(m.Animations))
	}
	world, moves := m.Driver(a)
	s.AnimateKinematic(&sim.KinematicAnimation{World: world, Moves: moves})
	return nil
}

// when names the pose the flags ask for, for inspect's bounds line.
func (p *poseFlags) when() string {
	if p.set() {
		return fmt.Sprintf("animation %d at %g s", *p.animation, *p.time)
	}
	return "rest pose"
}
