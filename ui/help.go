package ui

import (
	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"
)

// Shortcut is one line of the Help menu: the keys (or mouse action) and
// what they do.
type Shortcut struct{ Keys, Does string }

// Shortcuts are the window's keyboard and mouse shortcuts, as the Help
// menu lists them (docs/guide.md says the same).
var Shortcuts = []Shortcut{
	{"Drag", "orbit the camera"},
	{"Right- or middle-drag", "pan"},
	{"Wheel", "zoom"},
	{"Click", "select the node under the cursor"},
	{"F", "frame the selected node (or everything)"},
	{"Home", "reset the camera"},
	{"W / E / R / Q", "gizmo: move / rotate / scale / off"},
	{"Space", "Play or pause the physics"},
	{"Comma / Period", "Play: one physics step back / forward through the recording (the , and . keys; Shift: 10 steps)"},
	{"Esc", "cancel a handle drag"},
	{"Ctrl+Z", "undo"},
	{"Ctrl+Shift+Z, Ctrl+Y", "redo"},
	{"Ctrl+O", "open a file"},
	{"Ctrl+S", "save"},
	{"Ctrl+Shift+S", "save as"},
	{"Ctrl+Q", "quit"},
}

// About is what the Help menu says physview is.
const About = "physview: view, check, play and edit the OMI and KHR physics of glTF files (and XODE, G4MF). docs/guide.md is the guide."

// helpMenu lists the shortcuts in two columns, then About.
func helpMenu() g.Widget {
	return g.Custom(func() {
		imgui.TextDisabled("Keyboard and mouse")
		if imgui.BeginTableV("##shortcuts", 2, imgui.TableFlagsSizingFixedFit, imgui.Vec2{}, 0) {
			for _, k := range Shortcuts {
				imgui.TableNextRow()
				imgui.TableNextColumn()
				imgui.TextUnformatted(k.Keys)
				imgui.TableNextColumn()
				imgui.TextUnformatted(k.Does)
			}
			imgui.EndTable()
		}
		imgui.Separator()
		imgui.TextUnformatted(About)
	})
}
