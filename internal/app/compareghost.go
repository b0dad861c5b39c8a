package app

import (
	"github.com/go-gl/mathgl/mgl64"

	"physview/debugdraw"
)

// CompareEngineColors are the colours of the two engines of a comparison in
// the view, their tracks and their ghosts: the first engine (ODE) orange,
// the second (Bullet) cyan.
var CompareEngineColors = [2][4]float32{{1, 0.55, 0.1, 1}, {0.2, 0.85, 1, 1}}

// maxCompareGhostLines bounds the ghosts' lines (two engines' colliders,
// rebuilt each frame while Play runs): beyond it the bodies are left out.
const maxCompareGhostLines = 200000

// CompareGhostTime is the time at which the ghosts of the last engine
// comparison are drawn: the time Play shows (the scrubbed recorded frame,
// or the live state), while Play has a run and that time is within the
// comparison's; false otherwise.
func (s *Session) CompareGhostTime() (float64, bool) {
	p := &s.Play
	c := p.Engines.Compare
	if c == nil || p.Sim == nil || s.Doc == nil {
		return 0, false
	}
	t := p.ScrubTime()
	if !(t >= 0) || t > c.Time+c.Step/2 {
		return 0, false
	}
	return t, true
}

// CompareGhostLines draws, at CompareGhostTime, every compared body's
// colliders where each engine had it at that time, in the engine's colour
// (CompareEngineColors): scrubbing the recording shows both engines' bodies
// beside the one Play plays. None without a comparison or outside its time.
func (s *Session) CompareGhostLines() []debugdraw.Line {
	t, ok := s.CompareGhostTime()
	if !ok {
		return nil
	}
	c, d := s.Play.Engines.Compare, s.Doc
	world := d.WorldMatrices()
	meshes := &debugdraw.DocumentMeshes{Doc: d}
	var out []debugdraw.Line
	for i, b := range c.Bodies {
		if b.Node < 0 || b.Node >= len(d.Nodes) {
			continue
		}
		// Each collider's place in the body, from the body's first pose
		// (its pose in the document, where both runs started).
		start, ok := c.PoseAt(0, i, 0)
		if !ok {
			continue
		}
		toBody := poseMatrix(start).Inv()
		type part struct {
			shape int
			rel   mgl64.Mat4
		}
		var parts []part
		for n, ne := range d.Nodes {
			if ne.Body == nil || ne.Body.Collider == nil || d.BodyNode(n) != b.Node {
				continue
			}
			if sh := ne.Body.Collider.Shape; sh >= 0 && sh < len(d.Shapes) {
				parts = append(parts, part{sh, toBody.Mul4(world[n])})
			}
		}
		for e := range c.Poses {
			if e >= len(CompareEngineColors) {
				break
			}
			p, ok := c.PoseAt(e, i, t)
			if !ok {
				continue
			}
			m := poseMatrix(p)
			for _, pt := range parts {
				out = append(out, debugdraw.Shape(d.Shapes[pt.shape], m.Mul4(pt.rel), CompareEngineColors[e], meshes)...)
			}
		}
		if len(out) > maxCompareGhostLines {
			break
		}
	}
	return out
}

// poseMatrix is the rigid transform of p.
func poseMatrix(p Pose) mgl64.Mat4 {
	return mgl64.Translate3D(p.Position[0], p.Position[1], p.Position[2]).Mul4(p.Rotation.Normalize().Mat4())
}
