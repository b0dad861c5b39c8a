package anim

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Moves returns which nodes animation a (every animation for a < 0)
// moves: the nodes its transform channels target and their descendants.
func (m *Model) Moves(a int) []bool {
	d := m.Doc
	moved := make([]bool, len(d.GLTF.Nodes))
	for i, an := range m.Animations {
		if a >= 0 && i != a {
			continue
		}
		for _, ch := range an.Channels {
			switch ch.Path {
			case PathTranslation, PathRotation, PathScale:
				moved[ch.Node] = true
			}
		}
	}
	for n := range moved {
		if moved[n] {
			continue
		}
		d.Ancestors(n, func(p int) bool {
			if moved[p] {
				moved[n] = true
				return false
			}
			return true
		})
	}
	return moved
}

// Driver returns what a simulation needs to move kinematic bodies by
// animation a (every animation for a < 0): world gives every node's world
// matrix at time t (clamped to the animation's range), moves says whether
// the animation moves node n.
func (m *Model) Driver(a int) (world func(t float64) []mgl64.Mat4, moves func(n int) bool) {
	moved := m.Moves(a)
	end := m.Duration(a)
	world = func(t float64) []mgl64.Mat4 {
		if a < 0 {
			t = math.Min(t, end)
		}
		p := m.Rest()
		m.Apply(p, a, t)
		return p.World
	}
	moves = func(n int) bool { return n >= 0 && n < len(moved) && moved[n] }
	return world, moves
}
