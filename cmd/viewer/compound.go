package main

import (
	"fmt"
	"os"

	"github.com/go-gl/mathgl/mgl64"

	"physview/debugdraw"
	"physview/ui"
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

// logMeshes tells a test driving the window (PHYSVIEW_LOG_SCREEN=1) a
// point on each mesh node near the bottom middle of its bounds (the base
// of a U, where its middle is the gap).
func (a *windowApp) logMeshes(at func(mgl64.Vec3) (float64, float64, bool)) {
	for n, node := range a.s.Doc.GLTF.Nodes {
		if node.Mesh == nil {
			continue
		}
		lo, hi, ok := a.renderer.NodeBounds(n)
		if !ok {
			continue
		}
		p := lo.Add(hi).Mul(0.5)
		p[1] = lo[1] + 0.1*(hi[1]-lo[1])
		if x, y, ok := at(p); ok {
			fmt.Fprintf(os.Stderr, "viewer: node %d mesh base at %.0f %.0f\n", n, x, y)
		}
	}
}

// logItems reports where the panel's widgets are (PHYSVIEW_LOG_SCREEN=1),
// each name once per position.
func logItems(st *ui.State) {
	if os.Getenv("PHYSVIEW_LOG_SCREEN") == "" {
		return
	}
	last := map[string][2]int{}
	st.ItemLog = func(name string, x, y float32) {
		p := [2]int{int(x), int(y)}
		if last[name] != p {
			last[name] = p
			fmt.Fprintf(os.Stderr, "viewer: item %s at %d %d\n", name, p[0], p[1])
		}
	}
}
