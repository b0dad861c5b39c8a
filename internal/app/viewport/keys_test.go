package viewport

import (
	"reflect"
	"testing"

	"physview/internal/app"
)

func TestShortcut(t *testing.T) {
	press := func(k Key) (p [NumKeys]bool) { p[k] = true; return p }
	for _, c := range []struct {
		name string
		keys Keys
		want app.Intent
	}{
		{"space plays", Keys{Pressed: press(KeySpace)}, app.PlayToggle{}},
		{"space while typing a name", Keys{Pressed: press(KeySpace), Typing: true}, nil},
		{"w under a prompt", Keys{Pressed: press(KeyW), Prompt: true}, nil},
		{"e under a prompt", Keys{Pressed: press(KeyE), Prompt: true}, nil},
		{"ctrl+s under a prompt", Keys{Pressed: press(KeyS), Ctrl: true, Prompt: true}, nil},
		{"ctrl+z", Keys{Pressed: press(KeyZ), Ctrl: true}, app.Undo{}},
		{"ctrl+shift+z", Keys{Pressed: press(KeyZ), Ctrl: true, Shift: true}, app.Redo{}},
		{"ctrl+y", Keys{Pressed: press(KeyY), Ctrl: true}, app.Redo{}},
		{"ctrl+z while typing", Keys{Pressed: press(KeyZ), Ctrl: true, Typing: true}, nil},
		{"ctrl+s", Keys{Pressed: press(KeyS), Ctrl: true}, app.Save{}},
		{"ctrl+shift+s is the menu's Save as", Keys{Pressed: press(KeyS), Ctrl: true, Shift: true}, nil},
		{"s alone", Keys{Pressed: press(KeyS)}, nil},
		{"f frames", Keys{Pressed: press(KeyF)}, app.FrameView{}},
		{"home resets", Keys{Pressed: press(KeyHome)}, app.ResetView{}},
		{"w moves", Keys{Pressed: press(KeyW)}, app.SetGizmo{Mode: app.GizmoTranslate}},
		{"e turns", Keys{Pressed: press(KeyE)}, app.SetGizmo{Mode: app.GizmoRotate}},
		{"r scales", Keys{Pressed: press(KeyR)}, app.SetGizmo{Mode: app.GizmoScale}},
		{"q hides the gizmo", Keys{Pressed: press(KeyQ)}, app.SetGizmo{Mode: app.GizmoOff}},
		{"ctrl+q quits elsewhere, keeps the gizmo", Keys{Pressed: press(KeyQ), Ctrl: true}, nil},
		{"ctrl+w", Keys{Pressed: press(KeyW), Ctrl: true}, nil},
		{"nothing pressed", Keys{Ctrl: true, Shift: true}, nil},
	} {
		if got := Shortcut(c.keys); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %#v, want %#v", c.name, got, c.want)
		}
	}
}

// TestSpaceAfterPanelClick: Space toggles Play in the session whatever
// has the focus, as long as no text is typed (the window used to ignore it
// once a panel button had been clicked).
func TestSpaceAfterPanelClick(t *testing.T) {
	s := app.New()
	s.OpenDemo()
	space := Keys{Pressed: [NumKeys]bool{KeySpace: true}}
	s.Do(Shortcut(space))
	if !s.Play.Playing {
		t.Fatal("Space did not start Play")
	}
	s.Do(Shortcut(space))
	if s.Play.Playing {
		t.Fatal("a second Space did not pause Play")
	}
}
