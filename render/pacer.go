package render

import "time"

// StreamRedrawInterval is the least time between two redraws of the 3D
// view while more of a document's textures are coming.
const StreamRedrawInterval = 2 * time.Second

// Pacer decides when the 3D view is drawn anew while a document's
// textures stream in. The window keeps the picture before the document
// for up to HoldInterval (Holding); once that has passed it is drawn
// without them (the untextured model, with the progress bar in the panel),
// then as little as possible: on a software rasteriser each redraw of a
// large scene costs 100 ms of CPU or more, and each new set of bound
// textures makes llvmpipe compile new shader variants, all of it taken
// from the decoders. When the last texture is in, the view is drawn at
// once.
type Pacer struct {
	streaming, shown, stale bool
	lastDraw                time.Time
	since                   time.Time // when Reset
}

// HoldInterval is how long a new document is not drawn while its textures
// are still coming: the picture before it (the old document's, or none)
// stays, with the progress bar in the panel. Drawing the model untextured
// first costs one long frame on a software rasteriser (new shader
// variants for every material) and another when the textures arrive.
const HoldInterval = 4 * time.Second

// Reset starts over for a new document.
func (p *Pacer) Reset() { *p = Pacer{since: time.Now()} }

// Holding reports whether the view should keep the picture before the
// document: its textures are pending (decoding or uploading) and the
// document is less than HoldInterval old.
func (p *Pacer) Holding(now time.Time, pending int) bool {
	p.streaming = pending > 0
	return pending > 0 && !p.shown && !p.since.IsZero() && now.Sub(p.since) < HoldInterval
}

// Arrived takes in what Renderer.Poll reported this frame and says whether
// the view must be drawn anew: textures (or the lighting environment)
// arrived since it was last drawn, and either none is pending or the last
// redraw is StreamRedrawInterval old.
func (p *Pacer) Arrived(now time.Time, arrived, pending int) (redraw bool) {
	p.streaming = pending > 0
	if arrived > 0 {
		p.stale = true
	}
	if pending > 0 && (!p.shown || now.Sub(p.lastDraw) < StreamRedrawInterval) {
		return false // the first draw, untextured; or the view as last drawn
	}
	return p.stale
}

// Drawn says the view was drawn at now.
func (p *Pacer) Drawn(now time.Time) { p.lastDraw, p.stale, p.shown = now, false, true }

// Shown reports whether the document's view was drawn yet.
func (p *Pacer) Shown() bool { return p.shown }

// Streaming reports whether textures were still pending at the last
// Arrived.
func (p *Pacer) Streaming() bool { return p.streaming }
