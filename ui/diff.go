package ui

import (
	"fmt"
	"path/filepath"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"

	"physview/internal/app"
)

// diffWidgets is the Diff tab's own state.
type diffWidgets struct {
	// shownPath is the compared file the tab was last brought forward for.
	shownPath string
}

// categoryColors tints each change's category in the list.
var categoryColors = map[string]imgui.Vec4{
	"structure": {X: 0.55, Y: 0.8, Z: 1, W: 1},
	"physics":   {X: 1, Y: 0.7, Z: 0.3, W: 1},
	"value":     {X: 0.85, Y: 0.85, Z: 0.85, W: 1},
	"geometry":  {X: 0.6, Y: 1, Z: 0.6, W: 1},
	"texture":   {X: 1, Y: 0.6, Z: 0.9, W: 1},
	"animation": {X: 0.9, Y: 0.9, Z: 0.5, W: 1},
	"variant":   {X: 0.7, Y: 0.7, Z: 1, W: 1},
}

// diffTabFlags brings the Diff tab forward once when a file is compared.
func diffTabFlags(s *State) g.TabItemFlags {
	if p := s.S.Compare.Path; p != "" && p != s.diff.shownPath {
		s.diff.shownPath = p
		return g.TabItemFlagsSetSelected
	}
	return tabFlags(s, "Diff")
}

// diffTab lists the changes from the open document (A) to the compared
// file (B); a click selects and frames the node a change is about. The
// toggle chooses what the 3D view shows.
func diffTab(s *State, act func(app.Intent)) g.Widget {
	return g.Custom(func() {
		c := &s.S.Compare
		logItem := func(name string) {
			if s.ItemLog != nil {
				lo, hi := imgui.ItemRectMin(), imgui.ItemRectMax()
				s.ItemLog(name, (lo.X+hi.X)/2, (lo.Y+hi.Y)/2)
			}
		}
		if c.Doc == nil {
			imgui.TextWrapped("Compare the open file (A) with another version of it (B): what changed in its structure, values, physics, geometry, textures, animations and variants.")
			button("Open for compare...", func() { act(app.OpenCompareDialog{}) })
			logItem("diff open")
			return
		}
		r := s.S.CompareReport()
		imgui.TextWrapped(fmt.Sprintf("A: %s\nB: %s", s.S.Name, filepath.Base(c.Path)))
		for i, name := range app.CompareShowNames {
			if imgui.RadioButtonBool(name+fmt.Sprintf("##show%d", i), c.Show == app.CompareShow(i)) {
				act(app.SetCompareShow{Show: app.CompareShow(i)})
			}
			logItem(fmt.Sprintf("diff show %d", i))
			if i < len(app.CompareShowNames)-1 {
				imgui.SameLine()
			}
		}
		button("Compare with another file...", func() { act(app.OpenCompareDialog{}) })
		imgui.SameLine()
		button("Close compare", func() { act(app.CloseCompare{}) })
		imgui.Separator()
		switch n := len(r.Changes); n {
		case 0:
			imgui.Text("A and B are equal.")
		case 1:
			imgui.Text("1 change (orange boxes: changed in A; green: only in B)")
		default:
			imgui.Text(fmt.Sprintf("%d changes (orange boxes: changed in A; green: only in B)", n))
		}
		for i, ch := range r.Changes {
			col, ok := categoryColors[ch.Category]
			if !ok {
				col = imgui.Vec4{X: 1, Y: 1, Z: 1, W: 1}
			}
			imgui.PushStyleColorVec4(imgui.ColText, col)
			label := fmt.Sprintf("%s %s", ch.Category, ch.Kind)
			if ch.Node != "" {
				label += fmt.Sprintf(" %q", ch.Node)
			}
			if imgui.SelectableBoolV(fmt.Sprintf("%s##change%d", label, i), c.Selected == i, 0, imgui.Vec2{}) {
				act(app.SelectChange{Index: i})
			}
			imgui.PopStyleColor()
			logItem(fmt.Sprintf("diff change %d", i))
			imgui.Indent()
			imgui.TextWrapped(ch.Summary)
			if ch.PointerA != "" || ch.PointerB != "" {
				imgui.TextDisabled(fmt.Sprintf("A %s  B %s", orDash(ch.PointerA), orDash(ch.PointerB)))
			}
			imgui.Unindent()
		}
	})
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
