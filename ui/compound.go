package ui

import (
	"fmt"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"

	"physview/internal/app"
	"physview/scene"
)

// logItem tells e.items where the last widget is.
func (e ed) logItem(name string) {
	if e.items != nil {
		lo, hi := imgui.ItemRectMin(), imgui.ItemRectMax()
		e.items(name, (lo.X+hi.X)/2, (lo.Y+hi.Y)/2)
	}
}

// compoundWidgets are the settings of the compound fit being set up.
type compoundWidgets struct {
	// node is the node whose controls are open (-1: none).
	node                 int
	open                 bool
	hulls, verts, voxels int32
	concavity            float32 // percent of the solid's volume
}

func (c *compoundWidgets) start(n int) {
	*c = compoundWidgets{node: n, open: true, hulls: 16, verts: 64, voxels: 100_000, concavity: 1}
}

func (c *compoundWidgets) options() scene.CompoundOptions {
	return scene.CompoundOptions{MaxHulls: int(c.hulls), MaxVertices: int(c.verts), Resolution: int(c.voxels), Concavity: float64(c.concavity) / 100}
}

// compoundControls sets up, previews and applies a compound of convex
// hulls for node n (the "Fit compound of convex hulls" entry opens them).
func compoundControls(s *State, e ed, n int) {
	c := &s.compound
	if !c.open || c.node != n {
		return
	}
	p := &s.S.Compound
	imgui.SeparatorText("Fit compound of convex hulls")
	clamp := func(v *int32, lo, hi int32) {
		*v = max(lo, min(hi, *v))
	}
	imgui.SetNextItemWidth(120)
	if imgui.InputInt("max hulls##cph", &c.hulls) {
		clamp(&c.hulls, 1, 256)
	}
	imgui.SetNextItemWidth(120)
	if imgui.InputInt("max vertices per hull (OMI: 255)##cpv", &c.verts) {
		clamp(&c.verts, 4, 255)
	}
	imgui.SetNextItemWidth(120)
	if imgui.InputIntV("resolution (voxels)##cpr", &c.voxels, 10000, 100000, 0) {
		clamp(&c.voxels, 1000, 4_000_000)
	}
	imgui.SetNextItemWidth(120)
	imgui.SliderFloatV("concavity (% of volume)##cpc", &c.concavity, 0.1, 10, "%.2f", imgui.SliderFlagsLogarithmic)
	c.concavity = max(0.01, min(100, c.concavity))
	button("Preview##cpp", func() { e.act(app.PreviewCompound{Node: n, Options: c.options()}) })
	e.logItem("compound preview")
	imgui.SameLine()
	ready := p.Node == n && !p.Running && len(p.Hulls) > 0
	imgui.BeginDisabledV(!ready)
	button("Apply##cpa", func() {
		e.act(app.ApplyCompound{})
		c.open = false
	})
	e.logItem("compound apply")
	imgui.EndDisabled()
	imgui.SameLine()
	button("Cancel##cpx", func() {
		e.act(app.CancelCompound{})
		c.open = false
	})
	switch {
	case p.Node != n:
		imgui.TextWrapped("Preview splits the mesh into convex parts and draws them (cyan) before anything changes.")
	case p.Running:
		imgui.Text("Decomposing...")
	case p.Err != "":
		imgui.TextColored(warnColor, p.Err)
	default:
		verts := 0
		for _, h := range p.Hulls {
			verts = max(verts, len(h.Points))
		}
		imgui.TextWrapped(fmt.Sprintf("%d hulls (at most %d vertices each), in %v: drawn in cyan. Apply adds a child node with a convex collider per hull.", len(p.Hulls), verts, p.Took.Round(time.Millisecond)))
	}
}

// compoundParts shows node n's compound collider: a button that removes
// its convex hull parts, and the child nodes whose colliders make it up
// (select one to see and edit it). A body whose child colliders are not all
// hulls (a file's capsules beside fitted hulls) lists them all.
func compoundParts(s *State, e ed, n int) {
	parts, all := e.d.CompoundParts(n), childColliderNodes(e.d, n)
	if len(all) == 0 {
		return
	}
	switch b := e.d.Nodes[n].Body; {
	case b != nil && b.Collider != nil:
		// The Collider section above already says it is a compound.
		imgui.Text(fmt.Sprintf("Its parts (%d):", len(all)))
	case len(all) == len(parts):
		imgui.Text(fmt.Sprintf("Compound collider: %d convex parts", len(parts)))
	case len(parts) == 0:
		imgui.TextWrapped(fmt.Sprintf("Compound collider: colliders on %d child nodes", len(all)))
	default:
		imgui.TextWrapped(fmt.Sprintf("Compound collider: colliders on %d child nodes (%d convex hulls)", len(all), len(parts)))
	}
	// Remove comes before the parts: below them it landed where the fit's
	// Apply had been, so the second click of a double-click on Apply
	// removed the compound just fitted.
	if len(parts) > 0 {
		remove := "Remove compound"
		if len(all) != len(parts) {
			remove = "Remove its convex hulls"
		}
		button(fmt.Sprintf("%s##cprm%d", remove, n), func() {
			x, err := e.d.RemoveCompoundEdit(n)
			if err != nil {
				e.act(app.ShowError{Text: err.Error()})
				return
			}
			e.do(x)
		})
	}
	for i, c := range all {
		if i%4 != 0 {
			imgui.SameLine()
		}
		label := fmt.Sprintf("part %d", i+1)
		if len(all) != len(parts) {
			label += " " + e.d.Shapes[e.d.Nodes[c].Body.Collider.Shape].Type.String()
		}
		button(fmt.Sprintf("%s##cpsel%d", label, c), func() { e.act(app.Select{Node: c}) })
	}
}
