package main

import (
	"github.com/go-gl/mathgl/mgl64"

	"physview/debugdraw"
)

// compoundColor draws the previewed hulls of a compound fit.
var compoundColor = [4]float32{0.2, 0.9, 1, 1}

// compoundFrame asks for the overlay again when the compound preview
// changed.
func (a *windowApp) compoundFrame() {
	if g := a.s.Compound.Gen; g != a.compoundGen {
		a.compoundGen = g
		a.overlayDirty = true
	}
}

// compoundLines are the edges of the previewed hulls, in the world.
func (a *windowApp) compoundLines() []debugdraw.Line {
	n, hulls := a.s.PreviewHulls()
	if len(hulls) == 0 {
		return nil
	}
	m := a.s.Doc.WorldMatrices()[n]
	w := func(p mgl64.Vec3) [3]float32 {
		q := m.Mul4x1(p.Vec4(1)).Vec3()
		return [3]float32{float32(q[0]), float32(q[1]), float32(q[2])}
	}
	var out []debugdraw.Line
	for _, h := range hulls {
		for _, e := range h.Edges() {
			out = append(out, debugdraw.Line{A: w(e[0]), B: w(e[1]), Color: compoundColor})
		}
	}
	return out
}
