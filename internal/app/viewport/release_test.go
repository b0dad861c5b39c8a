package viewport

import (
	"math"
	"testing"

	"physview/internal/app"
)

// TestReleaseWithLastMoves: imgui hands a release that follows mouse moves
// to the same frame as the moves, and a slow frame (a busy machine, a
// software rasteriser's first draw of a material) gathers a whole quick
// drag into the frame after the press. The moves still count: an orbit
// turns the camera by them and selects nothing, a handle drag changes the
// shape by them (one undo step), as when each move had a frame of its own.
func TestReleaseWithLastMoves(t *testing.T) {
	t.Run("orbit", func(t *testing.T) {
		s, c, _, vp, crate := demo(t, "Crate (dynamic box)")
		x, y := lineOnScreen(t, c, vp, crate)
		var cam fakeCamera
		c.Input(vp, Mouse{X: x, Y: y, Over: true, Pressed: true, Left: true}, &cam)
		// The moves (40 px right, 20 up) and the release in one frame.
		c.Input(vp, Mouse{X: x + 40, Y: y - 20, DX: 40, DY: -20, Over: true}, &cam)
		if s.Selected != -1 || s.ViewPicks != 0 {
			t.Errorf("a drag released in the frame of its moves selected %d (picks %d), want nothing", s.Selected, s.ViewPicks)
		}
		if want := [2]float64{40 * orbitSpeed, 20 * orbitSpeed}; math.Abs(cam.orbit[0]-want[0]) > 1e-12 || math.Abs(cam.orbit[1]-want[1]) > 1e-12 {
			t.Errorf("orbited by %v, want %v", cam.orbit, want)
		}
		// A click after it still selects.
		c.Input(vp, Mouse{X: x, Y: y, Over: true, Pressed: true, Left: true}, &cam)
		c.Input(vp, Mouse{X: x, Y: y, Over: true}, &cam)
		if s.Selected != crate {
			t.Errorf("a click after the orbit selected %d, want %d", s.Selected, crate)
		}
	})
	t.Run("handle", func(t *testing.T) {
		s, c, _, vp, crate := demo(t, "Crate (dynamic box)")
		s.Do(app.Select{Node: crate})
		c.Update(vp)
		hs, shapes := s.Handles()
		if len(hs) == 0 {
			t.Fatal("the crate shows no handles")
		}
		h := hs[0]
		x, y := screen(t, vp, h.Pos)
		x1, y1 := screen(t, vp, h.Pos.Add(h.Axis))
		l := math.Hypot(x1-x, y1-y)
		dx, dy := (x1-x)/l*40, (y1-y)/l*40
		before := s.Doc.Shapes[shapes[0]]
		var cam fakeCamera
		c.Input(vp, Mouse{X: x, Y: y, Over: true, DX: 1}, &cam) // hover
		c.Input(vp, Mouse{X: x, Y: y, Over: true, Pressed: true, Left: true}, &cam)
		if !s.Dragging() {
			t.Fatal("a press on a handle did not start a drag")
		}
		c.Input(vp, Mouse{X: x + dx, Y: y + dy, DX: dx, DY: dy, Over: true}, &cam)
		after := s.Doc.Shapes[shapes[0]]
		if s.Dragging() || s.Hist.Len() != 1 || after.Size == before.Size {
			t.Fatalf("dragging %v, %d undo steps, size %v (was %v): want the drag done as one step with the moves", s.Dragging(), s.Hist.Len(), after.Size, before.Size)
		}
		if got := s.Hist.UndoName(); got != "Drag "+h.Param.String() {
			t.Errorf("undo step %q, want %q", got, "Drag "+h.Param.String())
		}
		if cam.orbit != [2]float64{} {
			t.Errorf("a handle drag orbited by %v", cam.orbit)
		}
	})
}
