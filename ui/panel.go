// Package ui is the viewer's giu (Dear ImGui) panel: menu, scene tree,
// inspector, variants, findings and view toggles. It reads the scene model
// and returns what the user asked for as Actions; it never calls GL.
package ui

import (
	"fmt"
	"image/color"
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
	ActionEdit                             // apply Action.Edit through the history
	ActionUndo                             // undo the last edit
	ActionRedo                             // redo the last undone edit
	ActionError                            // show Action.Path as an error (a refused input)
	ActionSelect                           // select node Action.Index and frame it
)

// Action is one request from the panel.
type Action struct {
	Kind  ActionKind
	Path  string
	Index int
	// Edit is the change an ActionEdit asks for; the window applies it.
	Edit scene.Edit
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
	// Modified is set while the document differs from its saved state
	// (the window reads it from the history).
	Modified bool
	// UndoName and RedoName say what Undo and Redo would do ("" for nothing).
	UndoName, RedoName string
	// Gizmo is what the transform gizmo on the selected node does.
	Gizmo GizmoMode
	// Hovered is the node under the mouse in the view, -1 for none.
	Hovered int
	// ShowInspector brings the Inspector tab to the front once (the
	// window sets it when a click in the view selects a node).
	ShowInspector bool
	// Files is the state of the file browser, recent files, prompts and status bar (ui/files.go).
	Files Files

	newVariant string
}

// PanelWidth is the width of the side panel in pixels.
const PanelWidth = 450

// Build lays out the menu bar and the side panel for a window of width x
// height and returns the actions the user took this frame.
func Build(s *State, width, height float32) []Action {
	var acts []Action
	act := func(a Action) { acts = append(acts, a) }

	g.MainMenuBar().Layout(
		g.Menu("File").Layout(fileMenu(s, act)),
		g.Menu("Edit").Layout(
			g.MenuItem(undoLabel("Undo", s.UndoName)).Shortcut("Ctrl+Z").Enabled(s.UndoName != "").OnClick(func() { act(Action{Kind: ActionUndo}) }),
			g.MenuItem(undoLabel("Redo", s.RedoName)).Shortcut("Ctrl+Shift+Z").Enabled(s.RedoName != "").OnClick(func() { act(Action{Kind: ActionRedo}) }),
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
			loadingBar(s, act),
			g.Condition(s.Error != "", g.Style().SetColor(g.StyleColorText, color.RGBA{255, 110, 100, 255}).To(g.Label(s.Error).Wrapped(true)), nil),
			g.Condition(s.Status != "", g.Label(s.Status), nil),
			g.Separator(),
			// Built only with a document: the tabs read it (a file may still be loading).
			g.Custom(func() {
				if s.Doc == nil {
					return
				}
				g.TabBar().TabItems(
					g.TabItem("Scene").Layout(sceneTree(s)),
					g.TabItem("Inspector").Flags(inspectorFlags(s)).Layout(inspector(s, act)),
					g.TabItem("Physics").Layout(physicsTab(s, act)),
					g.TabItem("Variants###variants").Layout(variants(s, act)),
					g.TabItem(findingsLabel(s)).Layout(findings(s, act)),
					g.TabItem("View").Layout(view(s, act)),
					g.TabItem("Play").Layout(PlayTab(s)),
				).Flags(g.TabBarFlagsFittingPolicyResizeDown).Build()
			}),
		)

	buildFiles(s, act, width, height)
	return acts
}

// findingsLabel counts the findings on the tab; the ### part keeps the
// tab's identity when the count changes.
func findingsLabel(s *State) string {
	if n := findingCount(s); n > 0 {
		return fmt.Sprintf("Findings %d###findings", n)
	}
	return "Findings###findings"
}

func inspectorFlags(s *State) g.TabItemFlags {
	if s.ShowInspector {
		s.ShowInspector = false
		return g.TabItemFlagsSetSelected
	}
	return 0
}

func undoLabel(verb, what string) string {
	if what == "" {
		return verb
	}
	return verb + " " + what
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
	if s.Type != 0 {
		return fmt.Sprintf("shape %d %s %s", i, s.Type, s.Params())
	}
	return fmt.Sprintf("shape %d of unknown type", i)
}

func variantCount(s *State) int { return len(s.Doc.Variants) }

func variants(s *State, act func(Action)) g.Widget {
	d := s.Doc
	do := func(e scene.Edit) { act(Action{Kind: ActionEdit, Edit: e}) }
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
			do(scene.AddVariantEdit(name))
			s.Variant = len(d.Variants) // the variant the edit adds
			s.newVariant = ""
			act(Action{Kind: ActionSetVariant})
		}),
	))
	v := s.Variant
	if v < 0 || v >= len(d.Variants) {
		return append(ws, g.Label("Choose a variant to rename it or to set the materials it uses."))
	}
	ws = append(ws, g.Custom(func() {
		text(fmt.Sprintf("name##vn%d", v), d.Variants[v].Name, 200, func(name string) { do(scene.RenameVariantEdit(v, name)) })
		imgui.SameLine()
		button(fmt.Sprintf("Remove##vr%d", v), func() {
			do(scene.RemoveVariantEdit(v))
			s.Variant = -1
			act(Action{Kind: ActionSetVariant})
		})
	}))
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
		cur := d.Primitives[ref].MaterialFor(v, -1) + 1
		ws = append(ws, g.Custom(func() {
			combo(fmt.Sprintf("primitive %d##vp%d_%d", p, mesh, p), cur, names, func(k int) {
				do(scene.SetVariantMaterialEdit(ref, v, k-1))
			})
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

func findings(s *State, act func(Action)) g.Widget { return findingsTab(s, act) }

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
