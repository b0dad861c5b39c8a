package viewport

import (
	"physview/debugdraw"
	"physview/internal/app"
)

// CompareColors are the colours of the engines' tracks after "Compare
// engines" (app.CompareEngineColors, which its ghosts share).
var CompareColors = app.CompareEngineColors

// CompareLines draws each engine's track of every compared body (its
// centre of mass over the run) as a polyline in the engine's colour; none
// without a comparison.
func CompareLines(c *app.Comparison) []debugdraw.Line {
	if c == nil {
		return nil
	}
	var out []debugdraw.Line
	for e, tracks := range c.Tracks {
		if e >= len(CompareColors) {
			break
		}
		for _, tr := range tracks {
			for i := 1; i < len(tr); i++ {
				out = append(out, debugdraw.Line{A: f32(tr[i-1]), B: f32(tr[i]), Color: CompareColors[e]})
			}
		}
	}
	return out
}
