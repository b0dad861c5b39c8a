package ui

import (
	"fmt"
	"path/filepath"
	"strings"

	g "github.com/AllenDang/giu"

	"physview/internal/app"
)

// StatusBarHeight is the height of the status bar at the bottom of the 3D
// view, in pixels.
const StatusBarHeight = 24

// StatusText is what the status bar says: file name, format, counts,
// whether Play runs, the modified marker, the active variant and the frame
// time.
func StatusText(s *State) string {
	ss := s.S
	if ss.Doc == nil {
		if l := ss.Loading(); l != nil {
			return "loading " + filepath.Base(l.Path)
		}
		return "no file open"
	}
	d := ss.Doc
	parts := []string{ss.Name}
	if ss.Format != "" {
		parts = append(parts, ss.Format)
	}
	parts = append(parts, fmt.Sprintf("%d nodes, %d shapes, %d bodies", len(d.GLTF.Nodes), len(d.Shapes), app.BodyCount(d)))
	// Play moves the bodies whatever tab is shown: say so where it shows.
	if p := &ss.Play; p.Running() && p.Playing {
		parts = append(parts, fmt.Sprintf("playing %.1f s", p.Time))
	} else if p.Running() {
		parts = append(parts, fmt.Sprintf("paused at %.1f s", p.Time))
	}
	if ss.Modified() {
		parts = append(parts, "modified")
	}
	variant := "default materials"
	if ss.Variant >= 0 && ss.Variant < len(d.Variants) {
		variant = "variant " + d.VariantLabel(ss.Variant)
	}
	parts = append(parts, variant)
	if ss.Watching() {
		parts = append(parts, "auto-reload") // the file is watched
	}
	if s.FrameMS > 0 {
		parts = append(parts, fmt.Sprintf("%.1f ms/frame", s.FrameMS))
	}
	return strings.Join(parts, "  |  ")
}

// StatusBar draws the status bar along the bottom of the 3D view of a
// width x height window.
func StatusBar(s *State, width, height float32) {
	g.Window("##statusbar").Pos(0, height-StatusBarHeight).Size(width-PanelWidth, StatusBarHeight).
		Flags(g.WindowFlagsNoMove | g.WindowFlagsNoResize | g.WindowFlagsNoCollapse | g.WindowFlagsNoTitleBar |
			g.WindowFlagsNoScrollbar | g.WindowFlagsNoFocusOnAppearing | g.WindowFlagsNoBringToFrontOnFocus | g.WindowFlagsNoSavedSettings).
		Layout(g.Label(StatusText(s)))
}
