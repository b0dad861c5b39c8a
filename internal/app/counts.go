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
	above := ancestorFlags(d)
	n := 0
	for i, ne := range d.Nodes {
		b := ne.Body
		if b == nil {
			continue
		}
		switch {
		case b.Motion != nil:
			n++
		case b.Collider != nil && above[i]&(motionAbove|colliderAbove) == 0:
			n++
		}
	}
	return n
}

// The bits of ancestorFlags.
const (
	motionAbove   = 1 << iota // an ancestor has motion
	colliderAbove             // an ancestor has a collider
	flagsKnown                // the node's bits are set
	onPath                    // on the walk being made (a cycle stops there)
)

// ancestorFlags returns, for each node, whether an ancestor has motion and
// whether one has a collider, each node's found once from its parent's.
// BodyCount walked every collider's parent chain, with a map, each frame
// the status bar is drawn: a chain of 20,000 nodes took 600 ms a frame.
func ancestorFlags(d *scene.Document) []uint8 {
	flags := make([]uint8, len(d.Nodes))
	own := func(n int) uint8 {
		var f uint8
		if b := d.Nodes[n].Body; b != nil {
			if b.Motion != nil {
				f |= motionAbove
			}
			if b.Collider != nil {
				f |= colliderAbove
			}
		}
		return f
	}
	var path []int
	for i := range flags {
		path = path[:0]
		p := i
		for p >= 0 && p < len(flags) && flags[p]&(flagsKnown|onPath) == 0 {
			flags[p] |= onPath
			path = append(path, p)
			p = d.Parent(p)
		}
		// p is a root's parent (-1), a node already known, or a node on
		// this walk (a cycle, which scene breaks on load: it ends there).
		var down uint8
		if p >= 0 && p < len(flags) && flags[p]&flagsKnown != 0 {
			down = own(p) | flags[p]&(motionAbove|colliderAbove)
		}
		for k := len(path) - 1; k >= 0; k-- {
			c := path[k]
			flags[c] = down | flagsKnown
			down |= own(c)
		}
	}
	return flags
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
