package render

import "github.com/go-gl/mathgl/mgl64"

// SetPoses draws every node at world[node] instead of at its transform in
// the document (a simulation's poses, from the copy it plays on). nil goes
// back to the document's own transforms. Bounds and the grid keep the
// document's, so the camera does not jump while playing.
func (r *Renderer) SetPoses(world []mgl64.Mat4) {
	if r.doc == nil {
		return
	}
	if world == nil {
		world = r.doc.WorldMatrices()
	}
	r.moves++
	for i := range r.items {
		if n := r.items[i].node; n >= 0 && n < len(world) {
			r.items[i].model = world[n]
		}
	}
}

// ForgetDebug makes the next SetDebug upload every group, for when the
// groups come from a different debugdraw.Cache than before (whose version
// numbers are unrelated).
func (r *Renderer) ForgetDebug() {
	for i := range r.debug {
		r.debug[i].version = 0
	}
}
