package ui

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"

	"physview/internal/app"
)

// StatusBarHeight is the height of the status bar at the bottom of the 3D
// view, in pixels.
const StatusBarHeight = 24

// StatusText is what the status bar says: file name, format, counts,
// whether Play runs, the modified marker, the active variant and the frame
// time.
func StatusText(s *State) string { return joinStatus(statusParts(s)) }

// statusPart is one part of the status bar; drop orders what goes first
// when the bar is too narrow (highest first; 0 is always kept).
type statusPart struct {
	text string
	drop int
}

func statusParts(s *State) []statusPart {
	ss := s.S
	if ss.Doc == nil {
		if l := ss.Loading(); l != nil {
			return []statusPart{{"loading " + filepath.Base(l.Path), 0}}
		}
		return []statusPart{{"no file open", 0}}
	}
	d := ss.Doc
	parts := []statusPart{{ss.Name, 0}}
	if ss.Format != "" {
		parts = append(parts, statusPart{ss.Format, 4})
	}
	parts = append(parts, statusPart{fmt.Sprintf("%s, %s, %s", plural(len(d.GLTF.Nodes), "node", "nodes"), plural(len(d.Shapes), "shape", "shapes"), plural(app.BodyCount(d), "body", "bodies")), 5})
	// Play moves the bodies whatever tab is shown: say so where it shows.
	if p := &ss.Play; p.Running() && p.Playing {
		parts = append(parts, statusPart{fmt.Sprintf("playing %.1f s", p.Time), 0})
	} else if p.Scrubbing() {
		parts = append(parts, statusPart{fmt.Sprintf("paused at %.1f s, showing the recording at %.2f s", p.Time, p.ScrubTime()), 0})
	} else if p.Running() {
		parts = append(parts, statusPart{fmt.Sprintf("paused at %.1f s", p.Time), 0})
	}
	if ss.Modified() {
		parts = append(parts, statusPart{"modified", 0})
	}
	variant := statusPart{"default materials", 6}
	if ss.Variant >= 0 && ss.Variant < len(d.Variants) {
		variant = statusPart{"variant " + d.VariantLabel(ss.Variant), 3}
	}
	parts = append(parts, variant)
	if ss.Watching() {
		parts = append(parts, statusPart{"auto-reload", 7}) // the file is watched
	}
	if s.FrameMS > 0 {
		parts = append(parts, statusPart{fmt.Sprintf("%.1f ms/frame", s.FrameMS), 8})
	}
	return parts
}

const statusSep = "  |  "

func joinStatus(parts []statusPart) string {
	texts := make([]string, len(parts))
	for i, p := range parts {
		texts[i] = p.text
	}
	return strings.Join(texts, statusSep)
}

// fitStatus drops whole parts, the least useful first (frame time,
// auto-reload, "default materials", the counts ...), until the text fits
// (fits says whether a text does), rather than have it run on under the
// panel cut mid-word; the file name, Play's state and "modified" stay.
func fitStatus(parts []statusPart, fits func(string) bool) string {
	parts = append([]statusPart(nil), parts...)
	for !fits(joinStatus(parts)) {
		worst := -1
		for i, p := range parts {
			if p.drop > 0 && (worst < 0 || p.drop > parts[worst].drop) {
				worst = i
			}
		}
		if worst < 0 {
			break
		}
		parts = append(parts[:worst], parts[worst+1:]...)
	}
	return joinStatus(parts)
}

// StatusBar draws the status bar along the bottom of the 3D view of a
// width x height window.
func StatusBar(s *State, width, height float32) {
	g.Window("##statusbar").Pos(0, height-StatusBarHeight).Size(width-PanelWidth, StatusBarHeight).
		Flags(g.WindowFlagsNoMove | g.WindowFlagsNoResize | g.WindowFlagsNoCollapse | g.WindowFlagsNoTitleBar |
			g.WindowFlagsNoScrollbar | g.WindowFlagsNoFocusOnAppearing | g.WindowFlagsNoBringToFrontOnFocus | g.WindowFlagsNoSavedSettings).
		Layout(g.Custom(func() {
			room := imgui.ContentRegionAvail().X
			imgui.TextUnformatted(fitStatus(statusParts(s), func(t string) bool { return imgui.CalcTextSize(t).X <= room }))
		}))
}
