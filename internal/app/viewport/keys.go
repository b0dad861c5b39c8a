package viewport

import "physview/internal/app"

// Key is a key the window's shortcuts use.
type Key int

// The shortcut keys.
const (
	KeyF Key = iota
	KeyHome
	KeyS
	KeyZ
	KeyY
	KeyW
	KeyE
	KeyR
	KeyQ
	KeySpace
	// KeyComma and KeyPeriod step Play's recording one step back and
	// forward (with Shift, 10 steps).
	KeyComma
	KeyPeriod
	NumKeys
)

// Keys is one frame's keyboard as the window reads it.
type Keys struct {
	// Pressed: the key went down (or repeated) this frame.
	Pressed [NumKeys]bool
	// Ctrl and Shift are held.
	Ctrl, Shift bool
	// Typing: a text field has the keyboard; no shortcut applies.
	Typing bool
	// Prompt: a prompt (a modal question) has the keyboard; no shortcut
	// applies either.
	Prompt bool
}

// Shortcut is what this frame's keys ask for, nil for nothing. The
// shortcuts apply whenever no text field is being typed in, wherever the
// mouse is: a click on a panel button or tab leaves the panel focused,
// which should turn off neither Ctrl+Z nor Space (Play).
func Shortcut(k Keys) app.Intent {
	if k.Typing || k.Prompt {
		return nil
	}
	key := func(c Key) bool { return k.Pressed[c] }
	switch {
	case k.Ctrl && !k.Shift && key(KeyS):
		return app.Save{}
	case k.Ctrl && k.Shift && key(KeyZ), k.Ctrl && key(KeyY):
		return app.Redo{}
	case k.Ctrl && key(KeyZ):
		return app.Undo{}
	case k.Ctrl:
		// Ctrl+F, Ctrl+W and the like are no shortcut of the view's.
		return nil
	case key(KeyF):
		return app.FrameView{}
	case key(KeyHome):
		return app.ResetView{}
	case key(KeySpace):
		return app.PlayToggle{}
	case key(KeyComma):
		return app.StepRecording{Delta: -stepKeys(k.Shift)}
	case key(KeyPeriod):
		return app.StepRecording{Delta: stepKeys(k.Shift)}
	case key(KeyW):
		return app.SetGizmo{Mode: app.GizmoTranslate}
	case key(KeyE):
		return app.SetGizmo{Mode: app.GizmoRotate}
	case key(KeyR):
		return app.SetGizmo{Mode: app.GizmoScale}
	case key(KeyQ):
		return app.SetGizmo{Mode: app.GizmoOff}
	}
	return nil
}

// stepKeys is how many steps , and . move: 10 with Shift.
func stepKeys(shift bool) int {
	if shift {
		return 10
	}
	return 1
}
