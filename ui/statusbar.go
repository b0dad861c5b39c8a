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
	// What is left and still too long: the file name gives way in its
	// middle, so its start and its extension both stay readable.
	if !fits(joinStatus(parts)) && len(parts) > 0 {
		rest := joinStatus(parts[1:])
		if len(parts) > 1 {
			rest = statusSep + rest
		}
		if short := MiddleEllipsis(parts[0].text, func(t string) bool { return fits(t + rest) }); fits(short + rest) {
			parts[0].text = short
		} // else nothing would fit: the whole name is more use than a stub

	}
	return joinStatus(parts)
}

// StatusBar draws the status bar along the bottom of the 3D view of a
// width x height window.
func StatusBar(s *State, width, height float32) {
	g.Window("##statusbar").Pos(0, height-StatusBarHeight).Size(width-s.S.View.PanelFor(width), StatusBarHeight).
		Flags(g.WindowFlagsNoMove | g.WindowFlagsNoResize | g.WindowFlagsNoCollapse | g.WindowFlagsNoTitleBar |
			g.WindowFlagsNoScrollbar | g.WindowFlagsNoFocusOnAppearing | g.WindowFlagsNoBringToFrontOnFocus | g.WindowFlagsNoSavedSettings).
		Layout(g.Custom(func() {
			room := imgui.ContentRegionAvail().X
			imgui.TextUnformatted(fitStatus(statusParts(s), func(t string) bool { return imgui.CalcTextSize(t).X <= room }))
		}))
}

// MiddleEllipsis shortens text by taking characters out of its middle,
// replaced by "...", until fits says it fits (or only a few characters
// are left): a long file name keeps its start and its extension
// ("very_long_scene_na...final_v3.glb") where an end cut would lose both
// the version and the type.
func MiddleEllipsis(text string, fits func(string) bool) string {
	if fits(text) {
		return text
	}
	r := []rune(text)
	for keep := len(r) - 1; keep >= 4; keep-- {
		head := (keep + 1) / 2
		t := string(r[:head]) + "..." + string(r[len(r)-(keep-head):])
		if fits(t) {
			return t
		}
	}
	return string(r[:2]) + "..."
}
