package debugdraw

// MarkDirty marks exactly the given nodes dirty, for a caller that knows
// what moved (a simulation step moves its bodies' subtrees, and the joints
// and compound triggers that refer to them, every frame): unlike
// Invalidate it does not walk the document.
func (c *Cache) MarkDirty(nodes []int) {
	// The nodes moved: the world matrices the cache keeps are out of date.
	c.world = nil
	for _, n := range nodes {
		if n >= 0 && n < len(c.nodes) {
			c.dirty[n] = true
		}
	}
}
