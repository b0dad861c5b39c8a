// Package ui is the viewer's giu (Dear ImGui) panel: menu, scene tree,
// inspector, variants, findings and view toggles. It reads the session
// (internal/app) and returns what the user asked for as app.Intent values;
// it keeps no package-level state and never calls GL.
package ui

import (
	"fmt"
	"image/color"
	"physview/internal/app"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"

	"physview/debugdraw"
	"physview/scene"
	"physview/scene/anim"
	_ "physview/ui/glibcshim" // cimgui-go needs it on Debian 12's glibc
)

// State is the panel's view model: the session it shows (read only; what
// the user asks for is returned as app.Intent values, and only the view
// options are edited in place), what the window measured, and the
// widgets' own state. The window keeps one State for its life.
type State struct {
	// S is the session shown.
	S *app.Session
	// splitGrab is where on the splitter the mouse took hold of it (its x
	// less the panel's left edge), while it is dragged.
	splitGrab float32
	// Progress is 0..1 while textures decode; Messages are the renderer's
	// notes (unreadable images, primitives).
	Progress float32
	// Refining counts the textures still shown reduced while their whole
	// images come (render.SetPreviewSide).
	Refining int
	Messages []string
	// ProbeText is the net gravity the window computed at the probe.
	ProbeText string
	// FrameMS is the time the last frame took to build and show (not the
	// sleep between frames).
	FrameMS float32
	// Files is the file browser's state.
	Files Files

	newVariant string
	// seenPicks is the session's ViewPicks the Inspector was last
	// brought forward for.
	seenPicks int
	speed     int32
	// recScrub is the Play tab's recording slider (play.go).
	recScrub float32
	// tab is the tab to bring forward on the next frame ("" none).
	tab string
	// timeline is the Animation tab's widget state (timeline.go).
	timeline timelineWidgets
	// compound is the compound fit's settings (compound.go).
	compound compoundWidgets
	// diff is the Diff tab's state (diff.go).
	diff diffWidgets
	// variantsShown is set while the Variants tab is the one shown.
	variantsShown bool
	// ItemLog, when set, is told where some widgets are on screen, by name
	// (the window sets it under PHYSVIEW_LOG_SCREEN=1: tests drive the
	// panel through it, since they cannot see it).
	ItemLog func(name string, x, y float32)
}

// LogItems makes ItemLog report each widget's position on log, once per
// position ("item NAME at X Y").
func (s *State) LogItems(log func(line string)) {
	last := map[string][2]int{}
	s.ItemLog = func(name string, x, y float32) {
		if p := [2]int{int(x), int(y)}; last[name] != p {
			last[name] = p
			log(fmt.Sprintf("item %s at %d %d", name, p[0], p[1]))
		}
	}
}

// Build lays out the menu bar and the side panel for a window of width x
// height and returns the actions the user took this frame.
func Build(s *State, width, height float32) []app.Intent {
	var acts []app.Intent
	act := func(a app.Intent) { acts = append(acts, a) }
	closedPopups = closedPopups[:0] // those of this frame (TakePanelLayer)

	g.MainMenuBar().Layout(
		g.Menu("File").Layout(fileMenu(s, act)),
		g.Menu("Edit").Layout(
			g.MenuItem(undoLabel("Undo", s.S.Hist.UndoName())).Shortcut("Ctrl+Z").Enabled(s.S.Hist.UndoName() != "").OnClick(func() { act(app.Undo{}) }),
			g.MenuItem(undoLabel("Redo", s.S.Hist.RedoName())).Shortcut("Ctrl+Shift+Z").Enabled(s.S.Hist.RedoName() != "").OnClick(func() { act(app.Redo{}) }),
		),
		g.Menu("View").Layout(
			g.MenuItem("Frame (F)").OnClick(func() { act(app.FrameView{}) }),
			g.MenuItem("Reset camera (Home)").OnClick(func() { act(app.ResetView{}) }),
			g.Checkbox("Grid", &s.S.View.Grid),
			g.Checkbox("Axes", &s.S.View.Axes),
		),
		g.Menu("Help").Layout(helpMenu()),
	).Build()

	menuH := float32(22)
	pw := s.S.View.PanelFor(width)
	g.Window("Panel").Pos(width-pw, menuH).Size(pw, height-menuH).
		// The panel itself never scrolls: the title, the messages and the
		// tabs stay put and each tab's body scrolls on its own (tabBody).
		Flags(g.WindowFlagsNoMove|g.WindowFlagsNoResize|g.WindowFlagsNoCollapse|g.WindowFlagsNoTitleBar|
			g.WindowFlagsNoScrollbar|g.WindowFlagsNoScrollWithMouse).
		Layout(
			g.Label(title(s)),
			statusArea(s, act),
			g.Separator(),
			g.Custom(func() {
				if s.S.Doc == nil && s.S.Loading() == nil {
					noFile(s, act).Build()
				}
			}),
			// Built only with a document: the tabs read it (a file may still be loading).
			g.Custom(func() {
				if s.S.Doc == nil {
					return
				}
				// Tighter tab padding, so that all eight names fit unclipped;
				// each tab's body puts the usual padding back.
				st := imgui.CurrentStyle()
				pad, inner := st.FramePadding(), st.ItemInnerSpacing()
				imgui.PushStyleVarVec2(imgui.StyleVarFramePadding, imgui.Vec2{X: tabPadding, Y: pad.Y})
				imgui.PushStyleVarVec2(imgui.StyleVarItemInnerSpacing, imgui.Vec2{X: tabPadding, Y: inner.Y})
				defer imgui.PopStyleVarV(2)
				body := func(w g.Widget) g.Layout { return g.Layout{tabBody(w, pad, inner)} }
				// Set again by the Variants tab's body when it is the tab shown.
				variantsShown := s.variantsShown
				s.variantsShown = false
				tabs := []*g.TabItemWidget{
					g.TabItem("Scene").Layout(body(sceneTree(s, act))),
					g.TabItem("Inspector").Flags(tabFlagsOver(s, "Inspector", variantsShown)).Layout(body(inspector(s, act))),
					g.TabItem("Physics").Layout(body(physicsTab(s, act))),
					g.TabItem("Variants###variants").Layout(g.Custom(func() { s.variantsShown = true }), body(variants(s, act))),
					g.TabItem(findingsLabel(s)).Layout(body(findings(s, act))),
					g.TabItem("View").Layout(body(view(s, act))),
					g.TabItem("Play").Flags(tabFlags(s, "Play")).Layout(body(PlayTab(s, act))),
					g.TabItem("Animation").Layout(body(TimelineTab(s, act))),
				}
				// The Diff tab is there while a file is compared (File >
				// Open for compare): without one, every tab keeps its
				// whole name.
				if s.S.Compare.Path != "" {
					tabs = append(tabs, g.TabItem("Diff").Flags(diffTabFlags(s)).Layout(body(diffTab(s, act))))
				}
				g.TabBar().TabItems(tabs...).Flags(g.TabBarFlagsFittingPolicyResizeDown).Build()
			}),
		)

	splitter(s, act, width, height, pw, menuH)
	buildFiles(s, act, width, height)
	return acts
}

// splitterWidth is how wide the grip between the 3D view and the panel is.
const splitterWidth = 6

// splitter is the grip on the panel's left edge: dragged, it makes the
// panel narrower or wider (app.ResizePanel; the session keeps both the
// panel and the view usable), remembered with the window's size when the
// drag ends. The cursor shows a left-right arrow over it.
func splitter(s *State, act func(app.Intent), width, height, pw, menuH float32) {
	h := height - menuH
	g.Window("##splitter").Pos(width-pw-splitterWidth/2, menuH).Size(splitterWidth, h).
		Flags(g.WindowFlagsNoMove | g.WindowFlagsNoResize | g.WindowFlagsNoCollapse | g.WindowFlagsNoTitleBar |
			g.WindowFlagsNoScrollbar | g.WindowFlagsNoBackground | g.WindowFlagsNoSavedSettings | g.WindowFlagsNoFocusOnAppearing).
		Layout(g.Custom(func() {
			imgui.SetCursorPos(imgui.Vec2{})
			imgui.InvisibleButton("##split", imgui.Vec2{X: splitterWidth, Y: h})
			active := imgui.IsItemActive()
			if active || imgui.IsItemHovered() {
				imgui.SetMouseCursor(imgui.MouseCursorResizeEW)
			}
			if s.ItemLog != nil {
				s.ItemLog("splitter", width-pw, menuH+h/2)
			}
			// The panel's edge follows the mouse where it took hold (a sum
			// of per-frame deltas lost the moves of slow frames).
			mx := imgui.MousePos().X
			if imgui.IsItemActivated() {
				s.splitGrab = mx - (width - pw)
			}
			if w := width - (mx - s.splitGrab); active && w != pw {
				act(app.ResizePanel{Width: w, WindowWidth: width, WindowHeight: height})
			}
			if imgui.IsItemDeactivated() {
				act(app.ResizePanel{Width: pw, WindowWidth: width, WindowHeight: height, Done: true})
			}
		}))
}

// noFile is the panel with nothing open: why the last file could not be
// opened (it stays after the message fades: an empty window explains
// nothing) and how to open one.
func noFile(s *State, act func(app.Intent)) g.Widget {
	ws := g.Layout{}
	if why := s.S.LoadError(); why != "" {
		ws = append(ws, g.Style().SetColor(g.StyleColorText, color.RGBA{255, 110, 100, 255}).To(g.Label("Could not open: "+why).Wrapped(true)), g.Spacing())
	}
	return append(ws,
		g.Label(OpenHint).Wrapped(true),
		g.Row(
			g.Button("Open...##nofile").OnClick(func() { act(app.OpenDialog{}) }),
			g.Button("Open the demo scene##nofile").OnClick(func() { act(app.OpenDemo{}) }),
		),
	)
}

// OpenHint tells a window with nothing open how to open a file.
const OpenHint = "Open a .gltf, .glb, .xode, .g4tf or .g4b file: File > Open (Ctrl+O), Open recent, or drop it on this window."

// tabPadding is the tab bar's horizontal frame padding and the gap
// between tabs (ImGui's default is 4): with the default panel width it leaves room for
// every tab's whole name, "Findings" with a three-digit count included.
const tabPadding = 3

// tabBody lays out one tab's widgets in a child area that fills the rest
// of the panel and scrolls by itself when they are taller, with the frame
// padding and inner spacing the widgets normally have.
func tabBody(w g.Widget, pad, inner imgui.Vec2) g.Widget {
	return g.Custom(func() {
		imgui.PushStyleVarVec2(imgui.StyleVarFramePadding, pad)
		imgui.PushStyleVarVec2(imgui.StyleVarItemInnerSpacing, inner)
		defer imgui.PopStyleVarV(2)
		if imgui.BeginChildStrV("##tabbody", imgui.Vec2{}, 0, 0) {
			w.Build()
		}
		imgui.EndChild()
	})
}

// findingsLabel counts the findings on the tab; the ### part keeps the
// tab's identity when the count changes.
func findingsLabel(s *State) string {
	if n := findingCount(s); n > 0 {
		return fmt.Sprintf("Findings %d###findings", n)
	}
	return "Findings###findings"
}

// tabFlags brings forward the tab asked for (s.tab: a double-click in the
// Scene tree asks for the Inspector), and the Inspector after a pick in
// the 3D view, except while Play runs (the Play tab then shows the picked
// body's plot).
func tabFlags(s *State, tab string) g.TabItemFlags { return tabFlagsOver(s, tab, false) }

// tabFlagsOver is tabFlags when the Variants tab is shown (variants): a
// pick in the view then keeps it, since it shows the picked node's
// materials in the variant, as Play keeps its tab to plot the picked body.
func tabFlagsOver(s *State, tab string, variants bool) g.TabItemFlags {
	if s.tab == tab {
		s.tab = ""
		return g.TabItemFlagsSetSelected
	}
	if tab == "Inspector" && s.seenPicks != s.S.ViewPicks {
		s.seenPicks = s.S.ViewPicks
		if !s.S.Play.Running() && !variants {
			return g.TabItemFlagsSetSelected
		}
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
	if s.S.Doc == nil {
		return "No file open"
	}
	gl := s.S.Doc.GLTF
	mark := ""
	if s.S.Modified() {
		mark = " (modified)"
	}
	// A long name gives way in its middle rather than run past the panel.
	room := imgui.ContentRegionAvail().X
	name := MiddleEllipsis(s.S.Name, func(t string) bool { return room <= 0 || imgui.CalcTextSize(t+mark).X <= room }) + mark
	return fmt.Sprintf("%s\n%s, %s, %s, %s", name, plural(len(gl.Nodes), "node", "nodes"), plural(len(gl.Meshes), "mesh", "meshes"),
		plural(len(gl.Materials), "material", "materials"), plural(len(s.S.Doc.Shapes), "shape", "shapes"))
}

// NodeLabel names a node with tags for what it carries.
func NodeLabel(d *scene.Document, n int) string {
	node := d.GLTF.Nodes[n]
	name := d.NodeName(n)
	if k := anim.InstanceCount(d, n); k > 0 {
		name += " x " + groupThousands(k) // EXT_mesh_gpu_instancing
	}
	var tags []string
	if node.Mesh != nil {
		tags = append(tags, "mesh")
	}
	if node.Skin != nil {
		tags = append(tags, "skin")
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
		if b.Collider == nil {
			// A compound: colliders on child nodes (a fitted one: convex
			// hulls only). Every child collider counts, so that a body of
			// two hulls and two capsules does not read as two hulls.
			if k, hulls := childColliders(d, n), len(d.CompoundParts(n)); k > 0 && k == hulls {
				tags = append(tags, "compound of "+plural(k, "convex hull", "convex hulls"))
			} else if k > 0 {
				tags = append(tags, "compound of "+plural(k, "collider", "colliders"))
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

// childColliders counts node n's children that carry a collider and no
// motion of their own: the parts of n's compound collider.
func childColliders(d *scene.Document, n int) int { return len(childColliderNodes(d, n)) }

// childColliderNodes are node n's children with a collider of a valid
// shape and no motion of their own.
func childColliderNodes(d *scene.Document, n int) []int {
	var out []int
	for _, c := range d.Children(n) {
		if c >= 0 && c < len(d.Nodes) {
			if b := d.Nodes[c].Body; b != nil && b.Collider != nil && b.Motion == nil && b.Collider.Shape >= 0 && b.Collider.Shape < len(d.Shapes) {
				out = append(out, c)
			}
		}
	}
	return out
}

// selectedRow is the fill of the selected tree row: the accent colour,
// strong enough to find the selection at a glance.
var selectedRow = imgui.Vec4{X: 0.22, Y: 0.48, Z: 0.85, W: 1}

// sceneTree lists the nodes as a tree in a child area that scrolls
// sideways when a row is wider than the panel; a row cut at the edge shows
// its whole label as a tooltip.
func sceneTree(s *State, act func(app.Intent)) g.Widget {
	return g.Custom(func() {
		d := s.S.Doc
		imgui.TextDisabled("Click selects; double-click frames and opens the Inspector.")
		if !imgui.BeginChildStrV("##tree", imgui.Vec2{X: -1, Y: -1}, 0, imgui.WindowFlagsHorizontalScrollbar) {
			imgui.EndChild()
			return
		}
		defer imgui.EndChild()
		imgui.PushStyleColorVec4(imgui.ColHeader, selectedRow)
		defer imgui.PopStyleColor()
		right := imgui.WindowPos().X + imgui.WindowWidth()
		seen := make([]bool, len(d.GLTF.Nodes))
		var node func(n int)
		node = func(n int) {
			if n < 0 || n >= len(seen) || seen[n] {
				return
			}
			seen[n] = true
			text := NodeLabel(d, n)
			if !d.NodeVisible(n) {
				text += " (hidden)"
			}
			label := fmt.Sprintf("%s##n%d", text, n)
			kids := d.Children(n)
			open := false
			if len(kids) == 0 {
				if imgui.SelectableBoolV(label, s.S.Selected == n, 0, imgui.Vec2{}) {
					act(app.Select{Node: n})
				}
			} else {
				flags := imgui.TreeNodeFlagsOpenOnArrow | imgui.TreeNodeFlagsDefaultOpen | imgui.TreeNodeFlagsSpanAvailWidth
				if s.S.Selected == n {
					flags |= imgui.TreeNodeFlagsSelected
				}
				open = imgui.TreeNodeExStrV(label, flags)
				if imgui.IsItemClicked() && !imgui.IsItemToggledOpen() {
					act(app.Select{Node: n})
				}
			}
			visibilityMenu(d, n, act)
			// A double-click frames the node and opens its Inspector: one
			// gesture instead of a click, F and a tab.
			if imgui.IsItemHovered() && imgui.IsMouseDoubleClicked(imgui.MouseButtonLeft) {
				act(app.Select{Node: n, Frame: true})
				s.tab = "Inspector"
			}
			if imgui.IsItemHovered() && imgui.ItemRectMin().X+imgui.CalcTextSize(text).X+24 > right {
				imgui.SetTooltip(strings.ReplaceAll(text, "%", "%%"))
			}
			if open {
				for _, c := range kids {
					node(c)
				}
				imgui.TreePop()
			}
		}
		for _, n := range d.SceneNodes() {
			if d.Parent(n) < 0 {
				node(n)
			}
		}
	})
}

// visibilityMenu is the tree row's right-click menu: hide or show the
// node and its subtree (KHR_node_visibility, an undoable edit).
func visibilityMenu(d *scene.Document, n int, act func(app.Intent)) {
	if !imgui.BeginPopupContextItemV(fmt.Sprintf("##vis%d", n), imgui.PopupFlagsMouseButtonRight) {
		return
	}
	defer imgui.EndPopup()
	if d.NodeVisible(n) {
		if imgui.MenuItemBool("Hide node and subtree") {
			act(app.ApplyEdit{Edit: scene.SetNodeVisible{Node: n, Visible: false}})
		}
	} else if imgui.MenuItemBool("Show node") {
		act(app.ApplyEdit{Edit: scene.SetNodeVisible{Node: n, Visible: true}})
	}
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

func variantCount(s *State) int { return len(s.S.Doc.Variants) }

func variants(s *State, act func(app.Intent)) (ws g.Layout) {
	d := s.S.Doc
	do := func(e scene.Edit) { act(app.ApplyEdit{Edit: e}) }
	if len(d.Variants) == 0 {
		ws = append(ws, g.Label("This file has no material variants yet."))
	} else {
		ws = append(ws, g.RadioButton("(default)", s.S.Variant < 0).OnChange(func() {
			act(app.SetVariant{Index: -1})
		}))
		for i := range d.Variants {
			ws = append(ws, g.RadioButton(fmt.Sprintf("%s##v%d", d.VariantLabel(i), i), s.S.Variant == i).OnChange(func() {
				act(app.SetVariant{Index: i})
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
			do(scene.AddVariantEdit(name)) // the session shows the variant added
			s.newVariant = ""
		}),
	))
	v := s.S.Variant
	if v < 0 || v >= len(d.Variants) {
		return append(ws, g.Label("Choose a variant to rename it or to set the materials it uses."))
	}
	ws = append(ws, g.Custom(func() {
		text(fmt.Sprintf("name##vn%d", v), d.Variants[v].Name, 200, func(name string) { do(scene.RenameVariantEdit(v, name)) })
		imgui.SameLine()
		button(fmt.Sprintf("Remove##vr%d", v), func() {
			do(scene.RemoveVariantEdit(v))
			act(app.SetVariant{Index: -1})
		})
	}))
	n := s.S.Selected
	// The nodes to choose from, here: going to the Scene tab or the view
	// and back took three clicks (and a pick in the view brings the
	// Inspector forward).
	nodes, more := meshNodes(d, maxMeshButtons)
	choose := func(prompt string) g.Widget {
		return g.Custom(func() {
			if len(nodes) == 0 || len(nodes) == 1 && nodes[0] == n {
				return
			}
			imgui.TextWrapped(prompt)
			selectButtons(nodes, func(k int) string { return d.NodeName(k) }, "vmsel", func(k int) { act(app.Select{Node: k}) })
			if more > 0 {
				imgui.TextDisabled(fmt.Sprintf("and %d more: select them in the Scene tab or the view", more))
			}
		})
	}
	if !hasMesh(d, n) {
		return append(ws, choose("Choose a node with a mesh to set its materials in this variant:"))
	}
	defer func() { ws = append(ws, g.Spacing(), choose("Another node with a mesh:")) }()
	mesh := *d.GLTF.Nodes[n].Mesh
	names := []string{"(its ordinary material)"}
	for i, m := range d.GLTF.Materials {
		names = append(names, fmt.Sprintf("%d %s", i, m.Name))
	}
	// Named by the selected node: mesh numbers mean nothing to the user.
	ws = append(ws, g.Label(fmt.Sprintf("Materials of %s (mesh %d) in %q:", d.NodeName(n), mesh, d.VariantLabel(v))).Wrapped(true))
	for p := range d.GLTF.Meshes[mesh].Primitives {
		ref := scene.PrimitiveRef{Mesh: mesh, Primitive: p}
		cur := d.Primitives[ref].MaterialFor(v, -1) + 1
		ws = append(ws, g.Custom(func() {
			// Wide enough for "(its ordinary material)" and most names.
			comboWidth(fmt.Sprintf("primitive %d##vp%d_%d", p, mesh, p), 260, cur, names, func(k int) {
				do(scene.SetVariantMaterialEdit(ref, v, k-1))
			})
		}))
	}
	return ws
}

// maxMeshButtons is how many mesh nodes the Variants tab offers as
// buttons.
const maxMeshButtons = 40

// hasMesh reports whether node n exists and has a mesh that exists.
func hasMesh(d *scene.Document, n int) bool {
	if n < 0 || n >= len(d.GLTF.Nodes) {
		return false
	}
	m := d.GLTF.Nodes[n].Mesh
	return m != nil && *m >= 0 && *m < len(d.GLTF.Meshes)
}

// meshNodes lists the first max nodes with a mesh, in node order, and how
// many more there are.
func meshNodes(d *scene.Document, max int) (nodes []int, more int) {
	for i := range d.GLTF.Nodes {
		if !hasMesh(d, i) {
			continue
		}
		if len(nodes) == max {
			more++
			continue
		}
		nodes = append(nodes, i)
	}
	return nodes, more
}

// selectButtons lays out one small button per node, named by name, that
// wrap to the panel's width; a click calls pick with the node.
func selectButtons(nodes []int, name func(int) string, id string, pick func(int)) {
	room := imgui.ContentRegionAvail().X
	x := float32(0)
	for i, k := range nodes {
		label := fmt.Sprintf("%s##%s%d", name(k), id, k)
		w := imgui.CalcTextSize(name(k)).X + 2*imgui.CurrentStyle().FramePadding().X
		if i > 0 && x+imgui.CurrentStyle().ItemSpacing().X+w <= room {
			imgui.SameLine()
			x += imgui.CurrentStyle().ItemSpacing().X
		} else {
			x = 0
		}
		x += w
		if imgui.SmallButton(label) {
			pick(k)
		}
	}
}

func findingCount(s *State) int { return len(s.S.Doc.Findings()) + len(s.Messages) }

var severityColor = map[scene.Severity]color.RGBA{
	scene.Error:   {255, 110, 100, 255},
	scene.Warning: {240, 200, 90, 255},
	scene.Info:    {150, 180, 220, 255},
}

func findings(s *State, act func(app.Intent)) g.Widget { return findingsTab(s, act) }

func view(s *State, act func(app.Intent)) g.Widget {
	ws := g.Layout{g.Label("Physics drawing:")}
	o := &s.S.View
	for k := range o.Debug {
		ws = append(ws, g.Checkbox(debugdraw.Category(k).String(), &o.Debug[k]))
	}
	ws = append(ws,
		g.Checkbox("X-ray (show hidden lines dimmer)", &o.XRay),
		g.Checkbox("Skin joints (the selected node's skin; all when none is selected)", &o.Joints),
		g.Checkbox("Trajectories (Play's recorded paths)", &o.Trajectories),
		g.Checkbox("Gravity probe", &o.Probe),
		g.Condition(o.Probe, g.Layout{
			g.Row(
				g.InputFloat(&o.ProbeAt[0]).Label("x").Size(80).Format("%.2f"),
				g.InputFloat(&o.ProbeAt[1]).Label("y").Size(80).Format("%.2f"),
				g.InputFloat(&o.ProbeAt[2]).Label("z").Size(80).Format("%.2f"),
			),
			g.Label(s.ProbeText),
			g.Label("Yellow: net gravity there, and the path of a particle released at rest (4 s).").Wrapped(true),
		}, nil),
		g.TreeNode("Legend").Layout(legend()),
		g.Separator(),
		g.Label("Lighting:"),
		lookControls(s),
		g.Separator(),
		g.Checkbox("Ground grid", &o.Grid),
		g.Checkbox("Axis gizmo", &o.Axes),
		g.Row(
			g.Button("Frame (F)").OnClick(func() { act(app.FrameView{}) }),
			g.Button("Reset (Home)").OnClick(func() { act(app.ResetView{}) }),
		),
		g.Label("Drag: orbit. Right or middle drag: pan. Wheel: zoom."),
	)
	if n := len(s.S.Doc.GLTF.Cameras); n > 0 {
		ws = append(ws, g.Separator(), g.Label("The file's cameras:"))
		for i := 0; i < n; i++ {
			name := s.S.Doc.GLTF.Cameras[i].Name
			if name == "" {
				name = fmt.Sprintf("camera %d", i)
			}
			ws = append(ws, g.Button(fmt.Sprintf("%s##c%d", name, i)).OnClick(func() { act(app.UseCamera{Index: i}) }))
		}
	}
	return ws
}

// legend shows what each colour and line style in the view means
// (debugdraw.Legend), each line in its own colour.
func legend() g.Layout {
	var ws g.Layout
	for _, e := range debugdraw.Legend {
		c := color.RGBA{uint8(e.Color[0] * 255), uint8(e.Color[1] * 255), uint8(e.Color[2] * 255), 255}
		ws = append(ws, g.Style().SetColor(g.StyleColorText, c).To(g.Label(e.What).Wrapped(true)))
	}
	return ws
}

// Theme is giu's default theme with opaque popups (a combo's list or a
// menu over the panel hides the widgets below it instead of showing their
// labels through its 94% background) and readable dimmed text (hints,
// greyed menu items: about 5:1 against the panel instead of 2.5:1, still
// plainly dimmer than the rest).
func Theme() *g.StyleSetter {
	return g.DefaultTheme().
		SetColorVec4(g.StyleColorPopupBg, imgui.Vec4{X: 0.08, Y: 0.08, Z: 0.08, W: 1}).
		SetColorVec4(g.StyleColorTextDisabled, imgui.Vec4{X: 0.55, Y: 0.60, Z: 0.65, W: 1})
}

// ViewTooltip shows text in a tooltip by the mouse over the 3D view, to
// the cursor's left when it would reach past right (the panel's edge):
// it never covers the Inspector fields being watched while dragging.
func ViewTooltip(text string, right float32) {
	m, st := imgui.MousePos(), imgui.CurrentStyle()
	w := imgui.CalcTextSize(text).X + 2*st.WindowPadding().X
	if x := TooltipX(m.X, w, right); x != m.X+tooltipOffset {
		imgui.SetNextWindowPos(imgui.Vec2{X: x, Y: m.Y + tooltipOffset})
	}
	// SetTooltip takes a format: escape the text's percent signs.
	imgui.SetTooltip(strings.ReplaceAll(text, "%", "%%"))
}

// tooltipOffset is how far right of and below the mouse a tooltip goes.
const tooltipOffset = 16

// TooltipX is the left edge of a tooltip w wide for the mouse at x: right
// of the cursor where it fits left of right, else left of the cursor
// (but not past the window's left edge).
func TooltipX(x, w, right float32) float32 {
	if x+tooltipOffset+w <= right {
		return x + tooltipOffset
	}
	return max(0, x-w-4)
}
