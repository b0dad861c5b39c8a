package app

import (
	"fmt"

	"physview/sim"
)

// PlayEngines is the Play tab's engine choice and its last comparison of
// the engines.
type PlayEngines struct {
	// Engine is the engine Play runs on (sim.EngineODE when "").
	Engine string
	// Compare is the last "Compare engines" result (nil before one), of
	// CompareSeconds of the scene; CompareError says why it failed.
	Compare        *Comparison
	CompareSeconds float64
	CompareError   string
}

// SetPlayEngine picks the engine Play runs on (one of sim.Engines); a
// running simulation stops, as Reset does, since a run cannot change
// engine half-way.
type SetPlayEngine struct{ Engine string }

// CompareEngines runs the open document in both engines for Seconds
// (DefaultCompareSeconds when 0) and keeps the comparison in
// Play.Engines.Compare.
type CompareEngines struct{ Seconds float64 }

func (SetPlayEngine) intent()  {}
func (CompareEngines) intent() {}

// DefaultCompareSeconds is how long "Compare engines" plays the scene.
const DefaultCompareSeconds = 5

// PlayEngineIndex returns the index in sim.Engines of Play's engine.
func (p *Play) PlayEngineIndex() int {
	for i, e := range sim.Engines {
		if e == p.Engines.Engine {
			return i
		}
	}
	return 0
}

// doEngines handles the engine intents; false for any other intent.
func (s *Session) doEngines(in Intent) bool {
	switch in := in.(type) {
	case SetPlayEngine:
		known := false
		for _, e := range sim.Engines {
			known = known || e == in.Engine
		}
		if !known || in.Engine == s.Play.EngineName() {
			return true
		}
		s.Play.Engines.Engine = in.Engine
		s.Play.Playing = false
		s.stopPlay()
		s.Play.Error = ""
		s.logf("play engine %s", in.Engine)
	case CompareEngines:
		p := &s.Play.Engines
		p.Compare, p.CompareError = nil, ""
		if s.Doc == nil {
			p.CompareError = "no document open"
			return true
		}
		secs := in.Seconds
		if !(secs > 0) {
			secs = DefaultCompareSeconds
		}
		p.CompareSeconds = secs
		c, err := Compare(s.Doc, CompareOptions{Seconds: secs, Animation: -1})
		p.Compare = c
		if err != nil {
			p.CompareError = err.Error()
		}
		s.logf("compared engines over %g s", secs)
	default:
		return false
	}
	return true
}

// EngineLabel is an engine's name as the window's prose says it ("ODE",
// "Bullet", as the Engine list shows them); an unknown name as it is.
func EngineLabel(engine string) string {
	switch engine {
	case sim.EngineODE:
		return "ODE"
	case sim.EngineBullet:
		return "Bullet"
	}
	return engine
}

// EngineName is the engine Play runs on.
func (p *Play) EngineName() string {
	if p.Engines.Engine == "" {
		return sim.EngineODE
	}
	return p.Engines.Engine
}

// CompareSummary is the comparison as lines for the Play tab: a headline,
// then one line per body that parted (with its cause), or that every body
// agreed.
func (p *PlayEngines) CompareSummary() []string {
	c := p.Compare
	if c == nil {
		return nil
	}
	e0, e1 := EngineLabel(c.Engines[0]), EngineLabel(c.Engines[1])
	out := []string{fmt.Sprintf("%s and %s over %.3g s: %d of %d bodies parted by more than %.3g m", e0, e1, c.Time, c.Parted, len(c.Bodies), c.Threshold)}
	for _, b := range c.Bodies {
		if b.PartedAt == nil {
			continue
		}
		l := fmt.Sprintf("%s: parted at %.3g s, %.3g m and %.3g° apart at the end", b.Name, *b.PartedAt, b.PositionDistance, b.RotationDistanceDegrees)
		if b.Cause != "" {
			l += "; likely cause: " + b.Cause
		}
		out = append(out, l)
	}
	return out
}
