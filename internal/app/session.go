package app

import (
	"fmt"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"physview/debugdraw"
	"physview/internal/recent"
	"physview/scene"
	"physview/sim"
)

// Camera is the orbit camera's values: the point it turns about, its
// distance, yaw and pitch (radians), vertical field of view (radians) and
// the radius of what it frames. It has the layout of render.Camera, which
// the window converts it to (render.Camera(c)) for the maths of orbiting
// and drawing.
type Camera struct {
	Target   mgl64.Vec3
	Distance float64
	Yaw      float64
	Pitch    float64
	FovY     float64
	Radius   float64
}

// GizmoMode is what the transform gizmo on the selected node does.
type GizmoMode int

// Gizmo modes.
const (
	GizmoOff GizmoMode = iota
	GizmoTranslate
	GizmoRotate
	GizmoScale
)

// ViewOptions are the view's settings that are not GL: what is drawn and
// how it is lit. The panel's widgets edit them in place (they are not part
// of the document and not undoable); the window turns them into
// render.Options when it draws.
type ViewOptions struct {
	Grid, Axes bool
	// Debug turns each category of debug drawing on; XRay shows hidden
	// lines dimmer.
	Debug [debugdraw.NumCategories]bool
	XRay  bool
	// Environment indexes the lighting environments, Exposure is in stops
	// (0 neutral), Background indexes the background modes; zero values
	// are the defaults.
	Environment int32
	Exposure    float32
	Background  int32
	// Probe shows the net gravity at ProbeAt.
	Probe   bool
	ProbeAt [3]float32
	// Gizmo is what the transform gizmo does.
	Gizmo GizmoMode
	// Joints draws skins' bones and joints on top: the selected node's
	// skin, or the skins it is a joint of; every skin when nothing is
	// selected.
	Joints bool
	// PanelWidth is the side panel's width the user dragged the splitter
	// to (0: the default; see PanelFor).
	PanelWidth float32
	// Trajectories draws the paths of Play's recording (the selected
	// body's, or every dynamic body's).
	Trajectories bool
}

// FileEnvironment is ViewOptions.Environment for the document's own
// lighting (EXT_lights_image_based): the entry after the built-in ones
// (render.EnvFile).
const FileEnvironment int32 = 3

// DefaultViewOptions has the grid, the axes and every debug category on.
func DefaultViewOptions() ViewOptions {
	o := ViewOptions{Grid: true, Axes: true}
	for i := range o.Debug {
		o.Debug[i] = true
	}
	return o
}

// View is told what changed in the session; the renderer and the debug
// draw cache of the window implement it.
type View interface {
	// DocumentReplaced says a new document is shown (nothing selected).
	DocumentReplaced(d *scene.Document)
	// DocumentChanged says an edit, an undo or a redo changed what ch names.
	DocumentChanged(ch scene.Change)
	// SelectionChanged says node (-1 for none) is now selected.
	SelectionChanged(node int)
}

// PlayView is a View that also shows Play: the simulation's copy of the
// document as it moves.
type PlayView interface {
	// PlayStarted says s was built from the document and is shown instead.
	PlayStarted(s *sim.Sim)
	// PlayStepped says s advanced (or the selection changed while it plays).
	PlayStepped(s *sim.Sim)
	// PlayStopped says the simulation is gone and the document shows again.
	PlayStopped()
}

// Message is a line the panel shows in its fixed place: a status ("saved
// a.glb") or an error ("Not applied: ..."). It fades after a while.
type Message struct {
	Text  string
	Error bool
	At    time.Time
}

// How long a message shows at full strength, and how long it then fades.
const (
	messageHold  = 6 * time.Second
	errorHold    = 10 * time.Second
	messageFade  = 1500 * time.Millisecond
	reloadReport = 12 * time.Second
)

// Session is one window's worth of application state.
type Session struct {
	// Doc is the open document (nil before the first load), Name the name
	// shown for it and Format its format's name ("glTF", "GLB", "XODE",
	// "G4MF", "built-in demo").
	Doc    *scene.Document
	Name   string
	Format string
	// Hist holds the document's edits.
	Hist *scene.History
	// Selected and Hovered are nodes (-1 for none); Variant is the active
	// material variant (-1 for the default materials).
	Selected, Hovered, Variant int
	// ViewPicks counts the selections made in the 3D view: the panel
	// brings the Inspector forward when it changes (not during Play).
	ViewPicks int
	// View holds the drawing options and Camera the camera's values.
	View   ViewOptions
	Camera Camera
	// Play is the Play tab's simulation.
	Play Play
	// Timeline is the animation timeline (timeline.go).
	Timeline Timeline
	// Compound is the compound collider being previewed (compound.go).
	Compound CompoundPreview
	// Compare is the file compared with the document (compare.go).
	Compare DiffCompare
	// Recent is the recent-files list (nil: none is kept).
	Recent *recent.List
	// Views are told what changed.
	Views []View

	// Wake, when set, is called from goroutines whose result a frame
	// should show (a load finished, a file changed on disk).
	Wake func()
	// Preload, when set, is called on the load goroutine with the
	// document just read (the window starts decoding its images);
	// DropPreload with a document that will not be shown.
	Preload, DropPreload func(d *scene.Document)
	// HoldLoads makes Poll keep a finished load for a later Poll (see
	// Poll): the window sets it for a frame that slept to its frame
	// interval first, since showing a document takes 6-28 ms on llvmpipe.
	HoldLoads bool
	// Log, when set, receives one line per thing done ("opened a.glb").
	Log func(line string)
	// Now is the clock (time.Now when nil); tests set it.
	Now func() time.Time
	// MarkerSize is the view's marker size in metres (a joint's limit arcs
	// are JointLimitRadius of them across), set by the viewport; the joint
	// handles sit where those marks are drawn.
	MarkerSize float64

	msg Message
	// loadErr is why the last file could not be opened ("" once one is).
	loadErr string
	// msgHold, when set, is how long msg shows before it fades.
	msgHold time.Duration
	files   fileState
	drag    *dragState
	// gizmoOn is set while the transform gizmo is dragged.
	gizmoOn bool
	// cmdNote is what the last command said about its edit (CommandNote).
	cmdNote string
}

// New returns a session with nothing open.
func New() *Session {
	s := &Session{Selected: -1, Hovered: -1, Variant: -1, Hist: &scene.History{}, View: DefaultViewOptions()}
	s.Compound.Node = -1
	s.Compare.Selected = -1
	s.Play.Speed = 3
	s.Timeline.Speed, s.Timeline.Loop = 3, true
	s.files.init()
	return s
}

func (s *Session) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Session) logf(format string, args ...any) {
	if s.Log != nil {
		s.Log(fmt.Sprintf(format, args...))
	}
}

func (s *Session) wake() {
	if s.Wake != nil {
		s.Wake()
	}
}

// Notice shows text as a status message.
func (s *Session) Notice(text string) { s.msg, s.msgHold = Message{Text: text, At: s.now()}, 0 }

// Fail shows text as an error message.
func (s *Session) Fail(text string) {
	s.msg, s.msgHold = Message{Text: text, Error: true, At: s.now()}, 0
}

// Message returns the message shown now and its strength (1 full, falling
// to 0 as it fades); ok is false when there is none.
func (s *Session) Message() (m Message, alpha float32, ok bool) {
	if s.msg.Text == "" {
		return Message{}, 0, false
	}
	hold := messageHold
	if s.msg.Error {
		hold = errorHold
	}
	if s.msgHold > 0 {
		hold = s.msgHold
	}
	age := s.now().Sub(s.msg.At)
	switch {
	case age < hold:
		return s.msg, 1, true
	case age < hold+messageFade:
		return s.msg, float32(1 - float64(age-hold)/float64(messageFade)), true
	}
	return Message{}, 0, false
}

// LoadError is why the last file asked for could not be opened, while no
// document is open ("" otherwise): the panel keeps saying it after the
// message has faded, since an empty window explains nothing.
func (s *Session) LoadError() string {
	if s.Doc != nil {
		return ""
	}
	return s.loadErr
}

// Modified reports whether the document differs from its saved state.
func (s *Session) Modified() bool { return s.Doc != nil && s.Hist.Modified() }

// Do carries out one intent. FrameView, ResetView and UseCamera need the
// renderer's bounds: the window handles them and Do ignores them.
func (s *Session) Do(in Intent) {
	if s.doCompare(in) { // compare.go
		return
	}
	switch in := in.(type) {
	case ResizePanel:
		s.resizePanel(in)
	case OpenFile:
		s.Open(in.Path)
	case OpenDemo:
		s.ask(Pending{Kind: PendingOpenDemo, What: "opening the demo scene"})
	case OpenDialog:
		s.ask(Pending{Kind: PendingOpenDialog, What: "opening another file"})
	case FileChosen:
		s.fileChosen(in)
	case ChooserCancelled:
		s.files.afterSave = nil
	case Save:
		s.Save()
	case SaveAsDialog:
		if s.Doc != nil {
			s.files.chooser = ChooseSave
		}
	case SaveAs:
		s.SaveAs(in.Path)
	case Quit:
		s.ask(Pending{Kind: PendingQuit, What: "quitting"})
	case CancelLoad:
		s.CancelLoad()
	case AnswerPrompt:
		s.Answer(in.Choice)
	case ApplyEdit:
		s.Edit(in.Edit)
	case ConvertPhysics:
		s.convertPhysics(in.To)
	case Undo:
		s.Undo()
	case Redo:
		s.Redo()
	case Select:
		s.Select(in.Node)
		if in.FromView {
			s.ViewPicks++
		}
	case SetVariant:
		s.SetVariant(in.Index)
	case SetGizmo:
		if s.View.Gizmo != in.Mode {
			s.logf("gizmo: %s", map[GizmoMode]string{GizmoOff: "off", GizmoTranslate: "move", GizmoRotate: "rotate", GizmoScale: "scale"}[in.Mode])
		}
		s.View.Gizmo = in.Mode
	case ShowError:
		s.Fail(in.Text)
	case PlayToggle:
		s.Play.Playing = !s.Play.Playing
	case PlayStep:
		s.Play.Playing, s.Play.stepRequested = false, true
	case PlayReset:
		s.Play.Playing = false
		s.stopPlay()
		s.Play.Error = ""
	case SetPlaySpeed:
		if in.Choice >= 0 && in.Choice < len(PlaySpeeds) {
			s.Play.Speed = in.Choice
		}
	case SetContacts:
		s.Play.Contacts = in.On
		if s.Play.Sim != nil {
			s.notifyPlay(func(v PlayView) { v.PlayStepped(s.Play.Sim) })
		}
	default:
		if !s.doCompound(in) && !s.doEngines(in) && !s.doRecording(in) { // compound.go, engines.go, playrecord.go
			s.doTimeline(in)
		}
	}
}

// Select makes node n the selection (-1 for none).
func (s *Session) Select(n int) {
	if s.Doc == nil || n < -1 || n >= len(s.Doc.GLTF.Nodes) {
		n = -1
	}
	if n == s.Selected {
		return
	}
	s.Selected = n
	s.logf("selected node %d", n)
	for _, v := range s.Views {
		v.SelectionChanged(n)
	}
	if s.Play.Sim != nil {
		// Paused, the plot's name follows at once, not at the next step.
		s.plotted()
		s.notifyPlay(func(v PlayView) { v.PlayStepped(s.Play.Sim) })
	}
}

// SetVariant makes variant i active (-1 for the default materials).
func (s *Session) SetVariant(i int) {
	if s.Doc == nil || i < -1 || i >= len(s.Doc.Variants) {
		i = -1
	}
	s.Variant = i
}

// Edit applies e through the history; a refused edit shows why.
func (s *Session) Edit(e scene.Edit) {
	if s.Doc == nil || e == nil {
		return
	}
	if err := s.Apply(e); err != nil {
		s.Fail("Not applied: " + err.Error())
		return
	}
	if s.msg.Error {
		s.msg = Message{}
	}
}

// changed tells the views, re-validates (once a drag is over) and keeps
// the selection and variant in range after an edit, undo or redo.
func (s *Session) changed(ch scene.Change) {
	d := s.Doc
	for _, v := range s.Views {
		v.DocumentChanged(ch)
	}
	s.timelineChanged(ch)
	if !s.Hist.Dragging() {
		s.validate()
	}
	if s.Selected >= len(d.GLTF.Nodes) {
		s.Select(-1)
	}
	if s.Variant >= len(d.Variants) {
		s.Variant = -1
	}
}

// namedNode is a node by index and name, to find it again after an edit.
type namedNode struct {
	index int
	name  string
}

// selectionAncestors lists the selected node's ancestors, nearest first.
func (s *Session) selectionAncestors() []namedNode {
	var out []namedNode
	d := s.Doc
	if s.Selected < 0 || s.Selected >= len(d.GLTF.Nodes) {
		return nil
	}
	seen := map[int]bool{}
	for p := d.Parent(s.Selected); p >= 0 && p < len(d.GLTF.Nodes) && !seen[p]; p = d.Parent(p) {
		seen[p] = true
		out = append(out, namedNode{p, d.GLTF.Nodes[p].Name})
	}
	return out
}

// reselect, when an undo or redo removed the selected node (a fitted
// collider's child node), selects its nearest ancestor still there (the
// body it was fitted to), so that the Inspector does not go blank.
func (s *Session) reselect(up []namedNode) {
	if s.Selected >= 0 {
		return
	}
	for _, a := range up {
		if a.index < len(s.Doc.GLTF.Nodes) && s.Doc.GLTF.Nodes[a.index].Name == a.name {
			s.Select(a.index)
			return
		}
	}
}

// Undo undoes the last edit; during a drag it cancels the drag.
func (s *Session) Undo() {
	if s.Doc == nil {
		return
	}
	if s.drag != nil || s.gizmoOn {
		s.CancelDrag()
		return
	}
	name := s.Hist.UndoName()
	up := s.selectionAncestors()
	if ch, ok := s.Hist.Undo(s.Doc); ok {
		s.changed(ch)
		s.reselect(up)
		s.logf("undo %s", name)
		// Replaces what the undone step said ("... now selected"), which
		// no longer holds.
		s.Notice("Undone: " + name)
	}
}

// Redo redoes the last undone edit.
func (s *Session) Redo() {
	if s.Doc == nil {
		return
	}
	name := s.Hist.RedoName()
	up := s.selectionAncestors()
	if ch, ok := s.Hist.Redo(s.Doc); ok {
		s.changed(ch)
		s.reselect(up)
		s.logf("redo %s", name)
		s.Notice("Redone: " + name)
	}
}

// Seal closes the open undo step (typing in a field merges into one step
// until the field is left) and validates what it changed. The window
// calls it once no field is active and no drag is going on.
func (s *Session) Seal() {
	if s.Doc != nil && s.Hist.Dragging() && s.drag == nil && !s.gizmoOn {
		s.Hist.Seal()
		s.validate()
	}
}

// validate re-checks the document after a finished change: the one place
// findings are refreshed (an edit, undo or redo that is not part of an open
// drag or typing step; the end of a drag, gizmo drag or field's typing).
func (s *Session) validate() {
	if s.Doc != nil {
		s.Doc.Validate()
	}
}

// install shows d (read from path; "" for the demo scene) in place of
// the open document: a new history, nothing selected, Play stopped, the
// gravity probe off unless the same file is read again.
func (s *Session) install(d *scene.Document, name string) {
	s.loadErr = ""
	if s.Doc == nil || d == nil || d.Path == "" || d.Path != s.Doc.Path {
		// The probe's point belongs to the scene it was put in; a reload
		// of the same file keeps it.
		s.View.Probe = false
	}
	s.stopPlay()
	s.Play = Play{Speed: s.Play.Speed, Contacts: s.Play.Contacts, Engines: PlayEngines{Engine: s.Play.Engines.Engine}}
	s.Doc, s.Name = d, name
	s.Format = FormatName(d)
	s.Hist = &scene.History{}
	s.Selected, s.Hovered, s.Variant = -1, -1, -1
	s.drag, s.gizmoOn = nil, false
	s.resetTimeline(d)
	// The camera is the views' to frame the new document with (a reload
	// or the recent list may restore one after).
	s.Camera = Camera{}
	for _, v := range s.Views {
		v.DocumentReplaced(d)
	}
}
