package anim

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
