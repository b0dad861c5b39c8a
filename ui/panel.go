// Package ui is the viewer's giu (Dear ImGui) panel: menu, scene tree,
// inspector, variants, findings and view toggles. It reads the scene model
// and returns what the user asked for as Actions; it never calls GL.
package ui

import (
	"fmt"
	"image/color"
	"path/filepath"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"

	"physview/debugdraw"
	"physview/scene"
	_ "physview/ui/glibcshim" // cimgui-go needs it on Debian 12's glibc
)

// ActionKind is what the user asked the viewer to do.
type ActionKind int

// Actions the panel can return.
const (
	ActionOpen       ActionKind = iota + 1 // open Action.Path
	ActionOpenDemo                         // open the built-in demo scene
	ActionSave                             // save in place
	ActionSaveAs                           // save to Action.Path
	ActionFrame                            // frame the selection, or everything
	ActionReset                            // reset the camera
	ActionCamera                           // view from the file's camera Action.Index
	ActionSetVariant                       // State.Variant changed
)

// Action is one request from the panel.
type Action struct {
	Kind  ActionKind
	Path  string
	Index int
}

// State is what the panel shows and edits.
type State struct {
	Doc *scene.Document
	// Name is the file name shown in the title.
	Name string
	// Selected is the selected node, -1 for none.
	Selected int
	// Variant is the active material variant, -1 for the default materials.
	Variant            int
	ShowGrid, ShowAxes bool
	// Debug turns each category of debug drawing on; XRay shows hidden lines dimmer.
	Debug [debugdraw.NumCategories]bool
	XRay  bool
	// Environment is the lighting environment (an index into
	// EnvironmentNames), Exposure the exposure in stops (0 neutral) and
	// Background what fills the view behind the scene (an index into
	// BackgroundNames). Their zero values are the defaults.
	Environment int32
	Exposure    float32
	Background  int32
	// Probe shows the net gravity at ProbeAt and a test particle's path.
	Probe   bool
	ProbeAt [3]float32
	// ProbeText is the net gravity the window computed there.
	ProbeText string
	// Loading is set while a file loads; Progress is 0..1 while textures decode.
	Loading  bool
	Progress float32
	// Messages are the renderer's notes (unreadable images, primitives).
	Messages []string
	// Error is the last open or save error, shown until the next success.
	Error string
	// Status is a short note such as "saved".
	Status string
	// Modified is set by edits and cleared by a save.
	Modified bool

	openPath, savePath, newVariant string
}

// PanelWidth is the width of the side panel in pixels.
const PanelWidth = 380

// Build lays out the menu bar and the side panel for a window of width x
// height and returns the actions the user took this frame.
func Build(s *State, width, height float32) []Action {
	var acts []Action
	act := func(a Action) { acts = append(acts, a) }

	g.MainMenuBar().Layout(
		g.Menu("File").Layout(
			g.MenuItem("Open...").OnClick(func() { s.openPath = ""; g.OpenPopup("Open file") }),
			g.MenuItem("Open demo scene").OnClick(func() { act(Action{Kind: ActionOpenDemo}) }),
			g.Separator(),
			g.MenuItem("Save").Shortcut("Ctrl+S").Enabled(s.Doc != nil).OnClick(func() { act(Action{Kind: ActionSave}) }),
			g.MenuItem("Save as...").Enabled(s.Doc != nil).OnClick(func() { s.savePath = suggestSavePath(s); g.OpenPopup("Save as") }),
		),
		g.Menu("View").Layout(
			g.MenuItem("Frame (F)").OnClick(func() { act(Action{Kind: ActionFrame}) }),
			g.MenuItem("Reset camera (Home)").OnClick(func() { act(Action{Kind: ActionReset}) }),
			g.Checkbox("Grid", &s.ShowGrid),
			g.Checkbox("Axes", &s.ShowAxes),
		),
	).Build()

	menuH := float32(22)
	g.Window("Panel").Pos(width-PanelWidth, menuH).Size(PanelWidth, height-menuH).
		Flags(g.WindowFlagsNoMove|g.WindowFlagsNoResize|g.WindowFlagsNoCollapse|g.WindowFlagsNoTitleBar).
		Layout(
			g.Label(title(s)),
			g.Condition(s.Loading, g.Layout{g.Label("Loading..."), g.ProgressBar(s.Progress).Size(-1, 0)}, nil),
			g.Condition(!s.Loading && s.Progress > 0 && s.Progress < 1, g.ProgressBar(s.Progress).Size(-1, 0).Overlay("textures"), nil),
			g.Condition(s.Error != "", g.Style().SetColor(g.StyleColorText, color.RGBA{255, 110, 100, 255}).To(g.Label(s.Error).Wrapped(true)), nil),
			g.Condition(s.Status != "", g.Label(s.Status), nil),
			g.Separator(),
			g.Condition(s.Doc != nil, g.TabBar().TabItems(
				g.TabItem("Scene").Layout(sceneTree(s)),
				g.TabItem("Inspector").Layout(inspector(s, act)),
				g.TabItem(fmt.Sprintf("Variants (%d)", variantCount(s))).Layout(variants(s, act)),
				g.TabItem(fmt.Sprintf("Findings (%d)", findingCount(s))).Layout(findings(s)),
				g.TabItem("View").Layout(view(s, act)),
			), nil),
		)

	openPopup(s, act)
	saveAsPopup(s, act)
	return acts
}

func title(s *State) string {
	if s.Doc == nil {
		return "No file open"
	}
	gl := s.Doc.GLTF
	name := s.Name
	if s.Modified {
		name += " (modified)"
	}
	return fmt.Sprintf("%s\n%d nodes, %d meshes, %d materials, %d shapes", name, len(gl.Nodes), len(gl.Meshes), len(gl.Materials), len(s.Doc.Shapes))
}

func suggestSavePath(s *State) string {
	if s.Doc != nil && s.Doc.Path != "" {
		return s.Doc.Path
	}
	return filepath.Join(".", "scene.glb")
}

func openPopup(s *State, act func(Action)) {
	pathPopup("Open file", "Path of a .gltf or .glb file (or drop a file on the window):", "Open", &s.openPath, ActionOpen, act)
}

func saveAsPopup(s *State, act func(Action)) {
	pathPopup("Save as", "Save to (.gltf or .glb):", "Save", &s.savePath, ActionSaveAs, act)
}

// pathPopup asks for a file path and returns it with an action of kind.
func pathPopup(title, prompt, button string, path *string, kind ActionKind, act func(Action)) {
	submit := func() {
		act(Action{Kind: kind, Path: strings.TrimSpace(*path)})
		g.CloseCurrentPopup()
	}
	g.PopupModal(title).Layout(
		g.Label(prompt),
		// Type at once: the field has the keyboard when the popup opens,
		// and Enter submits.
		g.Custom(func() {
			if imgui.IsWindowAppearing() {
				imgui.SetKeyboardFocusHere()
			}
		}),
		g.InputText(path).Size(420).Flags(g.InputTextFlagsEnterReturnsTrue).OnChange(submit),
		g.Row(
			g.Button(button).OnClick(submit),
			g.Button("Cancel").OnClick(g.CloseCurrentPopup),
		),
	).Build()
}

// NodeLabel names a node with tags for what it carries.
func NodeLabel(d *scene.Document, n int) string {
	node := d.GLTF.Nodes[n]
	name := node.Name
	if name == "" {
		name = fmt.Sprintf("node %d", n)
	}
	var tags []string
	if node.Mesh != nil {
		tags = append(tags, "mesh")
	}
	ne := d.Nodes[n]
	if b := ne.Body; b != nil {
		if b.Motion != nil {
			tags = append(tags, b.Motion.Type.String())
		}
		if c := b.Collider; c != nil {
			if c.Shape >= 0 && c.Shape < len(d.Shapes) {
				tags = append(tags, "collider "+d.Shapes[c.Shape].Type.String())
			} else {
				tags = append(tags, "compound collider")
			}
		}
		if t := b.Trigger; t != nil {
			tags = append(tags, "trigger")
		}
	}
	if ne.Gravity != nil {
		tags = append(tags, "gravity "+ne.Gravity.Type.String())
	}
	if ne.Joint != nil {
		tags = append(tags, "joint")
	}
	if len(tags) == 0 {
		return name
	}
	return name + "  [" + strings.Join(tags, ", ") + "]"
}

func sceneTree(s *State) g.Widget {
	return g.Custom(func() {
		d := s.Doc
		seen := make([]bool, len(d.GLTF.Nodes))
		var node func(n int)
		node = func(n int) {
			if n < 0 || n >= len(seen) || seen[n] {
				return
			}
			seen[n] = true
			label := fmt.Sprintf("%s##n%d", NodeLabel(d, n), n)
			kids := d.Children(n)
			if len(kids) == 0 {
				g.Selectable(label).Selected(s.Selected == n).OnClick(func() { s.Selected = n }).Build()
				return
			}
			flags := g.TreeNodeFlagsOpenOnArrow | g.TreeNodeFlagsDefaultOpen
			if s.Selected == n {
				flags |= g.TreeNodeFlagsSelected
			}
			g.TreeNode(label).Flags(flags).Event(func() {
				if g.IsItemClicked(g.MouseButtonLeft) {
					s.Selected = n
				}
			}).Layout(g.Custom(func() {
				for _, c := range kids {
					node(c)
				}
			})).Build()
		}
		for _, n := range d.SceneNodes() {
			if d.Parent(n) < 0 {
				node(n)
			}
		}
	})
}

func inspector(s *State, act func(Action)) g.Widget {
	d := s.Doc
	n := s.Selected
	if n < 0 || n >= len(d.GLTF.Nodes) {
		return g.Label("Select a node in the Scene tab.")
	}
	node := d.GLTF.Nodes[n]
	t, r, sc := node.TranslationOrDefault(), node.RotationOrDefault(), node.ScaleOrDefault()
	ws := g.Layout{
		g.Label(NodeLabel(d, n)).Wrapped(true),
		g.Label(fmt.Sprintf("translation %.4g %.4g %.4g", t[0], t[1], t[2])),
		g.Label(fmt.Sprintf("rotation (xyzw) %.4g %.4g %.4g %.4g", r[0], r[1], r[2], r[3])),
		g.Label(fmt.Sprintf("scale %.4g %.4g %.4g", sc[0], sc[1], sc[2])),
	}
	ne := d.Nodes[n]
	if b := ne.Body; b != nil {
		if m := b.Motion; m != nil {
			ws = append(ws, g.Separator(), motionEditor(n, m, act),
				g.Label(fmt.Sprintf("centre of mass %v", m.CenterOfMass)),
				g.Label(fmt.Sprintf("linear velocity %v m/s", m.LinearVelocity)),
				g.Label(fmt.Sprintf("angular velocity %v rad/s", m.AngularVelocity)))
		}
		if c := b.Collider; c != nil {
			ws = append(ws, g.Separator(), g.Label("collider: "+shapeText(d, c.Shape)).Wrapped(true), shapeEditor(d, c.Shape, act))
			if c.PhysicsMaterial >= 0 {
				ws = append(ws, g.Label(fmt.Sprintf("physics material %d", c.PhysicsMaterial)))
			}
			if c.CollisionFilter >= 0 {
				ws = append(ws, g.Label(fmt.Sprintf("collision filter %d", c.CollisionFilter)))
			}
		}
		if tr := b.Trigger; tr != nil {
			if tr.Nodes != nil {
				ws = append(ws, g.Separator(), g.Label(fmt.Sprintf("trigger: compound of nodes %v", tr.Nodes)))
			} else {
				ws = append(ws, g.Separator(), g.Label("trigger: "+shapeText(d, tr.Shape)).Wrapped(true), shapeEditor(d, tr.Shape, act))
			}
		}
	}
	if gv := ne.Gravity; gv != nil {
		ws = append(ws, g.Separator(), g.Label(fmt.Sprintf("gravity field: %s", gv.Type)), gravityEditor(n, gv, act))
	}
	if j := ne.Joint; j != nil {
		ws = append(ws, g.Separator(), g.Label(fmt.Sprintf("joint: settings %d, connected to node %d, collision %v", j.Joint, j.ConnectedNode, j.EnableCollision)).Wrapped(true))
	}
	return ws
}

func shapeText(d *scene.Document, i int) string {
	if i < 0 || i >= len(d.Shapes) {
		return "no shape (compound)"
	}
	s := d.Shapes[i]
	switch s.Type {
	case scene.ShapeBox:
		return fmt.Sprintf("shape %d box %g x %g x %g m", i, s.Size[0], s.Size[1], s.Size[2])
	case scene.ShapeSphere:
		return fmt.Sprintf("shape %d sphere radius %g m", i, s.Radius)
	case scene.ShapeCapsule:
		return fmt.Sprintf("shape %d capsule mid height %g, radius top %g, bottom %g (full height %g)", i, s.Height, s.RadiusTop, s.RadiusBottom, s.FullHeight())
	case scene.ShapeCylinder:
		return fmt.Sprintf("shape %d cylinder height %g, radius top %g, bottom %g", i, s.Height, s.RadiusTop, s.RadiusBottom)
	case scene.ShapeConvex, scene.ShapeTrimesh:
		return fmt.Sprintf("shape %d %s of mesh %d", i, s.Type, s.Mesh)
	}
	return fmt.Sprintf("shape %d of unknown type", i)
}

func variantCount(s *State) int { return len(s.Doc.Variants) }

func variants(s *State, act func(Action)) g.Widget {
	d := s.Doc
	edited := func() { act(Action{Kind: ActionVariantsEdited}) }
	ws := g.Layout{}
	if len(d.Variants) == 0 {
		ws = append(ws, g.Label("This file has no material variants yet."))
	} else {
		ws = append(ws, g.RadioButton("(default)", s.Variant < 0).OnChange(func() {
			s.Variant = -1
			act(Action{Kind: ActionSetVariant})
		}))
		for i := range d.Variants {
			ws = append(ws, g.RadioButton(fmt.Sprintf("%s##v%d", d.VariantLabel(i), i), s.Variant == i).OnChange(func() {
				s.Variant = i
				act(Action{Kind: ActionSetVariant})
			}))
		}
	}
	ws = append(ws, g.Separator(), g.Row(
		g.InputText(&s.newVariant).Hint("new variant name").Size(200),
		g.Button("Add variant").OnClick(func() {
			name := strings.TrimSpace(s.newVariant)
			if name == "" {
				name = fmt.Sprintf("Variant %d", len(d.Variants))
			}
			s.Variant = d.AddVariant(name)
			s.newVariant = ""
			edited()
		}),
	))
	v := s.Variant
	if v < 0 || v >= len(d.Variants) {
		return append(ws, g.Label("Choose a variant to rename it or to set the materials it uses."))
	}
	ws = append(ws, g.Row(
		g.InputText(&d.Variants[v].Name).Label(fmt.Sprintf("name##vn%d", v)).Size(200).OnChange(edited),
		g.Button(fmt.Sprintf("Remove##vr%d", v)).OnClick(func() {
			if d.RemoveVariant(v) == nil {
				s.Variant = -1
				edited()
			}
		}),
	))
	n := s.Selected
	if n < 0 || n >= len(d.GLTF.Nodes) || d.GLTF.Nodes[n].Mesh == nil || *d.GLTF.Nodes[n].Mesh >= len(d.GLTF.Meshes) {
		return append(ws, g.Label("Select a node with a mesh to choose its materials in this variant."))
	}
	mesh := *d.GLTF.Nodes[n].Mesh
	names := []string{"(its ordinary material)"}
	for i, m := range d.GLTF.Materials {
		names = append(names, fmt.Sprintf("%d %s", i, m.Name))
	}
	ws = append(ws, g.Label(fmt.Sprintf("Materials of mesh %d in %q:", mesh, d.VariantLabel(v))))
	for p := range d.GLTF.Meshes[mesh].Primitives {
		ref := scene.PrimitiveRef{Mesh: mesh, Primitive: p}
		cur := int32(d.Primitives[ref].MaterialFor(v, -1) + 1)
		sel := cur
		ws = append(ws, g.Combo(fmt.Sprintf("primitive %d##vp%d_%d", p, mesh, p), names[cur], names, &sel).Size(220).OnChange(func() {
			if d.SetVariantMaterial(ref, v, int(sel)-1) == nil {
				edited()
			}
		}))
	}
	return ws
}

func findingCount(s *State) int { return len(s.Doc.Findings()) + len(s.Messages) }

var severityColor = map[scene.Severity]color.RGBA{
	scene.Error:   {255, 110, 100, 255},
	scene.Warning: {240, 200, 90, 255},
	scene.Info:    {150, 180, 220, 255},
}

func findings(s *State) g.Widget {
	ws := g.Layout{}
	for _, m := range s.Messages {
		ws = append(ws, g.Style().SetColor(g.StyleColorText, severityColor[scene.Warning]).To(g.Label("render: "+m).Wrapped(true)))
	}
	for _, f := range s.Doc.Findings() {
		ws = append(ws, g.Style().SetColor(g.StyleColorText, severityColor[f.Severity]).To(g.Label(f.String()).Wrapped(true)))
	}
	if len(ws) == 0 {
		return g.Label("No findings.")
	}
	return ws
}

func view(s *State, act func(Action)) g.Widget {
	ws := g.Layout{g.Label("Physics drawing:")}
	for k := range s.Debug {
		ws = append(ws, g.Checkbox(debugdraw.Category(k).String(), &s.Debug[k]))
	}
	ws = append(ws,
		g.Checkbox("X-ray (show hidden lines dimmer)", &s.XRay),
		g.Checkbox("Gravity probe", &s.Probe),
		g.Condition(s.Probe, g.Layout{
			g.Row(
				g.InputFloat(&s.ProbeAt[0]).Label("x").Size(80).Format("%.2f"),
				g.InputFloat(&s.ProbeAt[1]).Label("y").Size(80).Format("%.2f"),
				g.InputFloat(&s.ProbeAt[2]).Label("z").Size(80).Format("%.2f"),
			),
			g.Label(s.ProbeText),
			g.Label("Yellow: net gravity there, and the path of a particle released at rest (4 s)."),
		}, nil),
		g.Label("Colliders: static blue, kinematic orange, dynamic green; triggers purple; selected yellow."),
		g.Separator(),
		g.Label("Lighting:"),
		lookControls(s),
		g.Separator(),
		g.Checkbox("Ground grid", &s.ShowGrid),
		g.Checkbox("Axis gizmo", &s.ShowAxes),
		g.Row(
			g.Button("Frame (F)").OnClick(func() { act(Action{Kind: ActionFrame}) }),
			g.Button("Reset (Home)").OnClick(func() { act(Action{Kind: ActionReset}) }),
		),
		g.Label("Drag: orbit. Right or middle drag: pan. Wheel: zoom."),
	)
	if n := len(s.Doc.GLTF.Cameras); n > 0 {
		ws = append(ws, g.Separator(), g.Label("The file's cameras:"))
		for i := 0; i < n; i++ {
			name := s.Doc.GLTF.Cameras[i].Name
			if name == "" {
				name = fmt.Sprintf("camera %d", i)
			}
			ws = append(ws, g.Button(fmt.Sprintf("%s##c%d", name, i)).OnClick(func() { act(Action{Kind: ActionCamera, Index: i}) }))
		}
	}
	return ws
}
