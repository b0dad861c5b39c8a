package app

import "physview/scene"

// BodyCount counts d's rigid bodies as a physics engine makes them: each
// node with motion is one body (its descendants' colliders are its
// compound shape), and each collider with no motion on it or above it is
// one static body, with the colliders below it (a static compound, whose
// top node's collider may have no shape of its own). Triggers are not
// bodies.
func BodyCount(d *scene.Document) int {
	if d == nil {
		return 0
	}
	n := 0
	for i, ne := range d.Nodes {
		b := ne.Body
		if b == nil {
			continue
		}
		switch {
		case b.Motion != nil:
			n++
		case b.Collider != nil && !hasMotionAbove(d, i) && !hasColliderAbove(d, i):
			n++
		}
	}
	return n
}

// hasMotionAbove reports whether an ancestor of node n has motion.
func hasMotionAbove(d *scene.Document, n int) bool {
	seen := map[int]bool{}
	for p := d.Parent(n); p >= 0 && !seen[p]; p = d.Parent(p) {
		seen[p] = true
		if b := d.Nodes[p].Body; b != nil && b.Motion != nil {
			return true
		}
	}
	return false
}

// hasColliderAbove reports whether an ancestor of node n has a collider:
// n's collider is then a part of that static compound.
func hasColliderAbove(d *scene.Document, n int) bool {
	seen := map[int]bool{}
	for p := d.Parent(n); p >= 0 && !seen[p]; p = d.Parent(p) {
		seen[p] = true
		if b := d.Nodes[p].Body; b != nil && b.Collider != nil {
			return true
		}
	}
	return false
}
