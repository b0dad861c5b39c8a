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
// fading out when their time is up, longer text cut with "..." and shown
// whole in a tooltip; else the textures still decoding.
func statusArea(s *State, act func(app.Intent)) g.Widget {
	return g.Custom(func() {
		// A child of fixed size is one item to the panel: whatever is
		// drawn inside cannot move what follows.
		h := imgui.TextLineHeightWithSpacing() + imgui.FrameHeight()
		visible := imgui.BeginChildStrV("##status", imgui.Vec2{X: -1, Y: h}, 0, imgui.WindowFlagsNoScrollbar|imgui.WindowFlagsNoScrollWithMouse|imgui.WindowFlagsNoBackground)
		defer imgui.EndChild()
		if !visible {
			return
		}
		if s.S.Loading() != nil {
			loadingBar(s, act).Build()
			return
		}
		if m, alpha, ok := s.S.Message(); ok {
			c := color.RGBA{220, 225, 230, uint8(255 * alpha)}
			if m.Error {
				c = color.RGBA{255, 110, 100, uint8(255 * alpha)}
			}
			const sample = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ"
			perChar := imgui.CalcTextSize(sample).X / float32(len(sample))
			text := fitLines(m.Text, MessageLines, int((PanelWidth-24)/perChar))
			imgui.PushStyleColorVec4(imgui.ColText, g.ToVec4Color(c))
			imgui.TextUnformatted(text)
			imgui.PopStyleColor()
			if text != m.Text && imgui.IsItemHovered() {
				imgui.SetTooltip(strings.ReplaceAll(m.Text, "%", "%%"))
			}
			return
		}
		loadingBar(s, act).Build()
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
