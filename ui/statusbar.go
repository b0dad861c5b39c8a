package ui

import (
	"fmt"
	"strings"

	g "github.com/AllenDang/giu"
)

// StatusBarHeight is the height of the status bar at the bottom of the 3D
// view, in pixels.
const StatusBarHeight = 24

// StatusText is what the status bar says: file name, format, counts, the
// modified marker, the active variant and the frame time.
func StatusText(s *State) string {
	if s.Doc == nil {
		if s.Files.Load != nil {
			return "loading " + s.Files.Load.Name
		}
		return "no file open"
	}
	d := s.Doc
	bodies := 0
	for _, ne := range d.Nodes {
		if ne.Body != nil {
			bodies++
		}
	}
	parts := []string{s.Name}
	if s.Files.Format != "" {
		parts = append(parts, s.Files.Format)
	}
	parts = append(parts, fmt.Sprintf("%d nodes, %d shapes, %d bodies", len(d.GLTF.Nodes), len(d.Shapes), bodies))
	if s.Modified {
		parts = append(parts, "modified")
	}
	variant := "default materials"
	if s.Variant >= 0 && s.Variant < len(d.Variants) {
		variant = "variant " + d.VariantLabel(s.Variant)
	}
	parts = append(parts, variant)
	if s.Files.Watching {
		parts = append(parts, "watching for changes")
	}
	if s.Files.FrameMS > 0 {
		parts = append(parts, fmt.Sprintf("%.1f ms/frame", s.Files.FrameMS))
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
