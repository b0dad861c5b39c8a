package ui

import (
	"image/color"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"

	"physview/internal/app"
)

// MessageLines is how many text lines a message may take in the status
// area.
const MessageLines = 2

// statusArea is a fixed-height area under the title that always takes
// the same room, so that nothing in it moves the widgets below (issue 22):
// the file being loaded with its bar and Cancel; else the session's
// message ("saved ...", "Not applied ...", "Reloaded ..."), errors red,
// fading out when their time is up, longer text scrolling inside the
// area (and whole in a tooltip); else the textures still decoding.
func statusArea(s *State, act func(app.Intent)) g.Widget {
	return g.Custom(func() {
		// A child of fixed size is one item to the panel: whatever is
		// drawn inside cannot move what follows.
		h := imgui.TextLineHeightWithSpacing() + imgui.FrameHeight()
		// A message longer than the area scrolls inside it (the wheel, or
		// its scrollbar) rather than being cut: the area keeps its height.
		flags := imgui.WindowFlagsNoScrollbar | imgui.WindowFlagsNoScrollWithMouse | imgui.WindowFlagsNoBackground
		m, alpha, shown := s.S.Message()
		long := shown && s.S.Loading() == nil && !fitsLines(m.Text, MessageLines, imgui.ContentRegionAvail().X-imgui.CurrentStyle().ScrollbarSize())
		if long {
			flags = imgui.WindowFlagsNoBackground
		}
		visible := imgui.BeginChildStrV("##status", imgui.Vec2{X: -1, Y: h}, 0, flags)
		defer imgui.EndChild()
		if !visible {
			return
		}
		if s.S.Loading() != nil {
			loadingBar(s, act).Build()
			return
		}
		// With nothing open, the load's error is said below, and stays.
		if shown && !(m.Error && m.Text == s.S.LoadError()) {
			c := color.RGBA{220, 225, 230, uint8(255 * alpha)}
			if m.Error {
				c = color.RGBA{255, 110, 100, uint8(255 * alpha)}
			}
			room := imgui.ContentRegionAvail().X
			text := fitLines(m.Text, MessageLines, func(l string) bool { return imgui.CalcTextSize(l).X <= room })
			if long {
				// Every line of it, broken to the width; the area scrolls.
				text = strings.Join(wrapLines(m.Text, func(l string) bool { return imgui.CalcTextSize(l).X <= room }), "\n")
			}
			imgui.PushStyleColorVec4(imgui.ColText, g.ToVec4Color(c))
			imgui.TextUnformatted(text)
			imgui.PopStyleColor()
			if long && imgui.IsItemHovered() {
				imgui.SetTooltip(strings.ReplaceAll(m.Text, "%", "%%"))
			}
			return
		}
		loadingBar(s, act).Build()
	})
}

// fitsLines reports whether text fits in lines lines of width room
// without being cut.
func fitsLines(text string, lines int, room float32) bool {
	return len(wrapLines(text, func(l string) bool { return imgui.CalcTextSize(l).X <= room })) <= lines
}

// fitLines cuts text to at most lines lines, each one that fits (the
// panel's width, measured in the font: paths and numbers are narrower than
// an average of letters), breaking at spaces where it can and ending with
// "..." when something was cut.
func fitLines(text string, lines int, fits func(string) bool) string {
	out := wrapLines(text, fits)
	if len(out) <= lines {
		return strings.Join(out, "\n")
	}
	out = out[:lines]
	last := []rune(out[lines-1])
	for len(last) > 0 && !fits(string(last)+"...") {
		last = last[:len(last)-1]
	}
	out[lines-1] = string(last) + "..."
	return strings.Join(out, "\n")
}

// wrapLines breaks text into lines that each fit, at spaces where it can.
func wrapLines(text string, fits func(string) bool) []string {
	var out []string
	for _, para := range strings.Split(text, "\n") {
		line := ""
		for _, word := range strings.Split(para, " ") {
			switch {
			case line == "" && fits(word):
				line = word
			case line != "" && fits(line+" "+word):
				line += " " + word
			default:
				if line != "" {
					out = append(out, line)
				}
				// A word wider than the line is broken where it must be.
				for rs := []rune(word); ; {
					k := len(rs)
					for k > 1 && !fits(string(rs[:k])) {
						k--
					}
					if k == len(rs) {
						line = string(rs)
						break
					}
					out = append(out, string(rs[:k]))
					rs = rs[k:]
				}
			}
		}
		out = append(out, line)
	}
	return out
}
