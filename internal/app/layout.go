package app

import "physview/internal/recent"

// The side panel's width: a default, and limits that keep both the panel
// and the 3D view usable in any window.
const (
	// DefaultPanelWidth is the panel's width in a window wide enough.
	DefaultPanelWidth = 480
	// MinPanelWidth and MinViewWidth are the least the panel and the 3D
	// view keep whatever the user drags.
	MinPanelWidth = 260
	MinViewWidth  = 240
	// narrowShare is the most of a narrow window the default panel takes:
	// at 700 px the view keeps 385 px instead of a 220 px sliver.
	narrowShare = 0.45
)

// PanelFor returns the side panel's width in a window width pixels wide:
// the width the user dragged the splitter to (PanelWidth), else the
// default, which takes at most 45% of a narrow window; either way the
// panel keeps MinPanelWidth and the view MinViewWidth where the window
// has room for both (the panel wins in a window narrower than that).
func (o ViewOptions) PanelFor(width float32) float32 {
	w := o.PanelWidth
	if w <= 0 {
		w = DefaultPanelWidth
		if share := narrowShare * width; w > share {
			w = share
		}
	}
	if w > width-MinViewWidth {
		w = width - MinViewWidth
	}
	if w < MinPanelWidth {
		w = MinPanelWidth
	}
	return w
}

// ResizePanel is a drag of the splitter between the 3D view and the
// panel: the panel becomes Width wide in a window WindowWidth wide. Done
// marks the drag's end, when the width is remembered (with the window's
// size) for the next start.
type ResizePanel struct {
	Width, WindowWidth, WindowHeight float32
	Done                             bool
}

func (ResizePanel) intent() {}

func (s *Session) resizePanel(in ResizePanel) {
	s.View.PanelWidth = ViewOptions{PanelWidth: in.Width}.PanelFor(in.WindowWidth)
	if in.Done {
		s.RememberWindow(int(in.WindowWidth), int(in.WindowHeight))
	}
}

// RememberWindow keeps the window's size and the panel's width in the
// recent-files list, for the next start.
func (s *Session) RememberWindow(width, height int) {
	if s.Recent == nil || width <= 0 || height <= 0 {
		return
	}
	s.Recent.Window = &recent.Layout{Width: width, Height: height, PanelWidth: s.View.PanelWidth}
	s.saveRecent()
}

// RememberedWindow returns the window size and panel width the last run
// left (ok false: none), and takes the panel width into the view options.
func (s *Session) RememberedWindow() (width, height int, ok bool) {
	if s.Recent == nil || s.Recent.Window == nil {
		return 0, 0, false
	}
	l := s.Recent.Window
	if l.Width < 200 || l.Height < 150 || l.Width > 16384 || l.Height > 16384 {
		return 0, 0, false
	}
	s.View.PanelWidth = l.PanelWidth
	return l.Width, l.Height, true
}
