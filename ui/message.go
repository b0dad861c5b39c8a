package ui

import (
	"image/color"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"
)

// MessageLines is how many text lines the message area always takes, with
// or without a message, so that a message never moves the widgets below.
const MessageLines = 2

// messageLine draws the session's message ("saved ...", "Not applied ...",
// "Reloaded ...") in a fixed-height area under the title: errors red,
// fading out when their time is up; longer text is cut with "..." and
// shown whole in a tooltip.
func messageLine(s *State) g.Widget {
	return g.Custom(func() {
		h := imgui.TextLineHeightWithSpacing()*MessageLines + 2
		start := imgui.CursorPos()
		m, alpha, ok := s.S.Message()
		if ok {
			c := color.RGBA{220, 225, 230, uint8(255 * alpha)}
			if m.Error {
				c = color.RGBA{255, 110, 100, uint8(255 * alpha)}
			}
			text := fitLines(m.Text, MessageLines, int(PanelWidth/imgui.CalcTextSize("m").X)-2)
			imgui.PushStyleColorVec4(imgui.ColText, g.ToVec4Color(c))
			imgui.TextUnformatted(text)
			imgui.PopStyleColor()
			if text != m.Text && imgui.IsItemHovered() {
				imgui.SetTooltip(strings.ReplaceAll(m.Text, "%", "%%"))
			}
		}
		imgui.SetCursorPos(imgui.Vec2{X: start.X, Y: start.Y + h})
	})
}

// fitLines cuts text to at most lines lines of at most width characters,
// ending with "..." when something was cut.
func fitLines(text string, lines, width int) string {
	if width < 8 {
		width = 8
	}
	var out []string
	cut := false
	for _, l := range strings.Split(text, "\n") {
		for len(l) > width {
			i := strings.LastIndex(l[:width], " ")
			if i <= 0 {
				i = width
			}
			out = append(out, l[:i])
			l = strings.TrimLeft(l[i:], " ")
		}
		out = append(out, l)
	}
	if len(out) > lines {
		out, cut = out[:lines], true
	}
	if cut {
		last := out[lines-1]
		if len(last) > width-3 {
			last = last[:width-3]
		}
		out[lines-1] = last + "..."
	}
	return strings.Join(out, "\n")
}
