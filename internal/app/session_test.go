package app

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"physview/internal/depcheck"
	"physview/scene"
)

// TestNoGLOrGUI keeps the session free of GL, giu and imgui, so that it
// runs (and its tests run) with no display.
func TestNoGLOrGUI(t *testing.T) {
	depcheck.Forbid(t, "internal/app", "github.com/go-gl/gl", "github.com/AllenDang/giu", "github.com/AllenDang/cimgui-go", "physview/render", "physview/ui")
}

// recorder is a View that writes down what it was told.
type recorder struct{ calls []string }

func (r *recorder) DocumentReplaced(d *scene.Document) { r.calls = append(r.calls, "replaced") }
func (r *recorder) DocumentChanged(ch scene.Change)    { r.calls = append(r.calls, "changed") }
func (r *recorder) SelectionChanged(n int)             { r.calls = append(r.calls, "selected") }

// writeBox writes the box fixture (one node "Box", an external .bin) to
// dir/name and returns its path.
func writeBox(t *testing.T, dir, name string) string {
	t.Helper()
	text, bin := boxGLTF([4]float64{1, 0, 0, 1}, strings.TrimSuffix(name, ".gltf")+".bin")
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, text, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(strings.TrimSuffix(p, ".gltf")+".bin", bin, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// open opens path in a new session and waits for it.
func open(t *testing.T, path string) (*Session, *recorder) {
	t.Helper()
	s := New()
	r := &recorder{}
	s.Views = []View{r}
	s.Open(path)
	if err := s.WaitLoad(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, r
}

func nodeName(s *Session, n int) string { return s.Doc.GLTF.Nodes[n].Name }

func TestOpenEditUndoRedoSave(t *testing.T) {
	dir := t.TempDir()
	p := writeBox(t, dir, "box.gltf")
	s, r := open(t, p)
	if s.Name != "box.gltf" || s.Format != "glTF" || len(s.Doc.GLTF.Nodes) != 1 || s.Modified() {
		t.Fatalf("opened %q (%s), %d nodes, modified %v", s.Name, s.Format, len(s.Doc.GLTF.Nodes), s.Modified())
	}
	s.Do(ApplyEdit{Edit: scene.SetNodeName{Node: 0, To: "Crate"}})
	if nodeName(s, 0) != "Crate" || !s.Modified() || s.Hist.UndoName() == "" {
		t.Fatalf("after the edit: name %q, modified %v, undo %q", nodeName(s, 0), s.Modified(), s.Hist.UndoName())
	}
	s.Do(Undo{})
	if nodeName(s, 0) != "Box" || s.Modified() {
		t.Fatalf("after undo: name %q, modified %v", nodeName(s, 0), s.Modified())
	}
	s.Do(Redo{})
	if nodeName(s, 0) != "Crate" || !s.Modified() {
		t.Fatalf("after redo: name %q, modified %v", nodeName(s, 0), s.Modified())
	}
	s.Do(Save{})
	data, _ := os.ReadFile(p)
	if !strings.Contains(string(data), `"name": "Crate"`) || s.Modified() {
		t.Fatalf("saved file has no Crate or still modified (%v)", s.Modified())
	}
	if m, _, ok := s.Message(); !ok || m.Error || m.Text != "saved "+p {
		t.Errorf("message after save: %+v", m)
	}
	if want := "replaced changed changed changed"; strings.Join(r.calls, " ") != want {
		t.Errorf("views were told %q, want %q", strings.Join(r.calls, " "), want)
	}
	// A refused edit changes nothing and says why.
	s.Do(ApplyEdit{Edit: scene.SetNodeName{Node: 7, To: "X"}})
	if m, _, ok := s.Message(); !ok || !m.Error || !strings.HasPrefix(m.Text, "Not applied: ") || s.Modified() {
		t.Errorf("refused edit: message %+v, modified %v", m, s.Modified())
	}
}

func TestSaveAs(t *testing.T) {
	dir := t.TempDir()
	p := writeBox(t, dir, "box.gltf")
	s, _ := open(t, p)
	s.Do(ApplyEdit{Edit: scene.SetNodeName{Node: 0, To: "Crate"}})
	out := filepath.Join(dir, "copy.glb")
	s.Do(SaveAs{Path: out})
	if s.Doc.Path != out || s.Name != "copy.glb" || s.Format != "GLB" || s.Modified() {
		t.Fatalf("after save as: path %q name %q format %q modified %v", s.Doc.Path, s.Name, s.Format, s.Modified())
	}
	d, err := OpenDocument(out)
	if err != nil || d.GLTF.Nodes[0].Name != "Crate" {
		t.Fatalf("reading the saved copy: %v", err)
	}
	if data, _ := os.ReadFile(p); strings.Contains(string(data), "Crate") {
		t.Error("save as wrote the original file")
	}
}

// TestUnsavedPrompt: opening another file, closing and reloading with
// unsaved edits ask first; cancel keeps everything, discard goes on, save
// saves and goes on.
func TestUnsavedPrompt(t *testing.T) {
	dir := t.TempDir()
	p := writeBox(t, dir, "box.gltf")
	other := writeBox(t, dir, "other.gltf")
	edit := func(s *Session) { s.Do(ApplyEdit{Edit: scene.SetNodeName{Node: 0, To: "Edited"}}) }

	t.Run("open: cancel, discard", func(t *testing.T) {
		s, _ := open(t, p)
		edit(s)
		s.Do(OpenFile{Path: other})
		pr := s.Prompt()
		if pr == nil || pr.Title != "Unsaved changes" || s.Pending().Kind != PendingOpen || s.Loading() != nil {
			t.Fatalf("no prompt before opening: %+v pending %+v", pr, s.Pending())
		}
		if !strings.Contains(pr.Text, "opening other.gltf") || strings.Join(pr.Choices, ",") != "Save,Discard,Cancel" {
			t.Errorf("prompt %+v", pr)
		}
		s.Do(AnswerPrompt{Choice: AnswerCancel})
		if s.Prompt() != nil || s.Loading() != nil || !s.Modified() || nodeName(s, 0) != "Edited" {
			t.Fatal("cancel did not keep the document and its edits")
		}
		s.Do(OpenFile{Path: other})
		s.Do(AnswerPrompt{Choice: AnswerDiscard})
		if err := s.WaitLoad(); err != nil || s.Name != "other.gltf" || s.Modified() {
			t.Fatalf("discard: %v, name %q", err, s.Name)
		}
		if data, _ := os.ReadFile(p); strings.Contains(string(data), "Edited") {
			t.Error("discard saved the edits")
		}
	})
	t.Run("open: save", func(t *testing.T) {
		s, _ := open(t, p)
		edit(s)
		s.Do(OpenFile{Path: other})
		s.Do(AnswerPrompt{Choice: AnswerSave})
		if err := s.WaitLoad(); err != nil || s.Name != "other.gltf" {
			t.Fatalf("save then open: %v, name %q", err, s.Name)
		}
		if data, _ := os.ReadFile(p); !strings.Contains(string(data), "Edited") {
			t.Error("save in the prompt did not save")
		}
		writeBox(t, dir, "box.gltf") // for the next cases
	})
	t.Run("close: cancel, discard", func(t *testing.T) {
		s, _ := open(t, p)
		edit(s)
		if s.RequestClose() || s.Prompt() == nil || s.Pending().Kind != PendingQuit {
			t.Fatal("close with edits did not ask")
		}
		s.Do(AnswerPrompt{Choice: AnswerCancel})
		if s.ShouldClose() || !s.Modified() {
			t.Fatal("cancel closed")
		}
		s.Do(Quit{})
		s.Do(AnswerPrompt{Choice: AnswerDiscard})
		if !s.ShouldClose() {
			t.Fatal("discard did not close")
		}
	})
	t.Run("demo: save asks where, then opens", func(t *testing.T) {
		s := New()
		s.OpenDemo()
		if s.Format != "built-in demo" {
			t.Errorf("demo format %q", s.Format)
		}
		edit(s)
		s.Do(OpenFile{Path: other})
		s.Do(AnswerPrompt{Choice: AnswerSave})
		if c := s.TakeChooser(); c != ChooseSave || !s.AwaitingSaveAs() {
			t.Fatalf("chooser %v awaiting %v", c, s.AwaitingSaveAs())
		}
		target := filepath.Join(dir, "demo.glb")
		s.Do(FileChosen{Path: target, Save: true})
		if err := s.WaitLoad(); err != nil || s.Name != "other.gltf" {
			t.Fatalf("after save as: %v, name %q", err, s.Name)
		}
		if _, err := os.Stat(target); err != nil {
			t.Error(err)
		}
	})
	t.Run("demo: Ctrl+S opens save as", func(t *testing.T) {
		s := New()
		s.OpenDemo()
		s.Do(Save{})
		if c := s.TakeChooser(); c != ChooseSave {
			t.Errorf("Save on the demo: chooser %v", c)
		}
		if _, _, ok := s.Message(); ok {
			t.Error("Save on the demo showed a message instead of Save as")
		}
	})
	t.Run("reload: keep edits, reload", func(t *testing.T) {
		s, _ := open(t, p)
		edit(s)
		s.FilesChanged([]string{p})
		if pr := s.Prompt(); pr == nil || pr.Title != "Changed on disk" || s.Pending().Kind != PendingReload {
			t.Fatalf("reload prompt %+v", pr)
		}
		s.Do(AnswerPrompt{Choice: 1})
		if s.Loading() != nil || nodeName(s, 0) != "Edited" {
			t.Fatal("keep my edits reloaded")
		}
		s.FilesChanged([]string{p})
		s.Do(AnswerPrompt{Choice: 0})
		if err := s.WaitLoad(); err != nil || nodeName(s, 0) != "Box" || s.Modified() {
			t.Fatalf("reload: %v, name %q", err, nodeName(s, 0))
		}
	})
}

// TestReloadKeepsSelection: a reload keeps the selected node (by name),
// the camera and the variant, and says what changed.
func TestReloadKeepsSelection(t *testing.T) {
	dir := t.TempDir()
	p := writeBox(t, dir, "box.gltf")
	s, _ := open(t, p)
	s.Do(Select{Node: 0})
	s.Camera = Camera{Distance: 7, Yaw: 0.5}
	// The exporter renames nothing but adds a node before it.
	text, _ := os.ReadFile(p)
	text = []byte(strings.Replace(string(text), `"nodes": [
    {
      "mesh": 0,
      "name": "Box"
    }
  ]`, `"nodes": [
    {
      "name": "Lamp"
    },
    {
      "mesh": 0,
      "name": "Box"
    }
  ]`, 1))
	if !strings.Contains(string(text), "Lamp") {
		t.Fatalf("fixture did not change: %s", text)
	}
	os.WriteFile(p, text, 0o644)
	s.FilesChanged([]string{p})
	if err := s.WaitLoad(); err != nil {
		t.Fatal(err)
	}
	if s.Selected != 1 || nodeName(s, 1) != "Box" || s.Camera.Distance != 7 {
		t.Errorf("after reload: selected %d, camera %+v", s.Selected, s.Camera)
	}
	m, _, ok := s.Message()
	if want := "Reloaded from disk (box.gltf changed): nodes added: Box; nodes renamed: Box -> Lamp"; !ok || m.Text != want {
		t.Errorf("reload message %q, want %q", m.Text, want)
	}
}

func TestDemoDragAndCancel(t *testing.T) {
	s := New()
	s.OpenDemo()
	ground := -1
	for i, n := range s.Doc.GLTF.Nodes {
		if n.Name == "Ground" {
			ground = i
		}
	}
	s.Do(Select{Node: ground})
	hs, shapes := s.Handles()
	if len(hs) != 6 {
		t.Fatalf("Ground (a box) has %d handles, want 6", len(hs))
	}
	sh := shapes[0]
	before := s.Doc.Shapes[sh]
	// A ray crossing the handle's axis 0.25 m further out.
	ray := func(h int, out float64) (mgl64.Vec3, mgl64.Vec3) {
		ax := hs[h].Axis
		perp := ax.Cross(mgl64.Vec3{0, 1, 0})
		if perp.Len() < 0.1 {
			perp = ax.Cross(mgl64.Vec3{1, 0, 0})
		}
		perp = perp.Normalize()
		return hs[h].Pos.Add(ax.Mul(out)).Sub(perp.Mul(10)), perp
	}
	if !s.BeginDrag(0) || !s.Dragging() {
		t.Fatal("BeginDrag failed")
	}
	s.DragTo(ray(0, 0.25))
	s.DragTo(ray(0, 0.5))
	if s.Doc.Shapes[sh].Size == before.Size {
		t.Fatal("the drag did not resize the box")
	}
	s.CancelDrag()
	if s.Doc.Shapes[sh].Size != before.Size || s.Hist.Len() != 0 || s.Dragging() || s.Modified() {
		t.Fatalf("cancel left size %v (was %v), %d steps", s.Doc.Shapes[sh].Size, before.Size, s.Hist.Len())
	}
	s.BeginDrag(0)
	s.DragTo(ray(0, 0.25))
	s.DragTo(ray(0, 0.5))
	s.EndDrag()
	after := s.Doc.Shapes[sh].Size
	if after == before.Size || s.Hist.Len() != 1 || !strings.HasPrefix(s.Hist.UndoName(), "Drag ") {
		t.Fatalf("drag: size %v, %d steps (%q)", after, s.Hist.Len(), s.Hist.UndoName())
	}
	for _, v := range after {
		if v != scene.RoundSig(v, 4) {
			t.Errorf("dragged size %v has more than 4 significant digits", after)
		}
	}
	s.Undo()
	if s.Doc.Shapes[sh].Size != before.Size {
		t.Errorf("undo of the drag: size %v, want %v", s.Doc.Shapes[sh].Size, before.Size)
	}
}

func TestPlayStartStepReset(t *testing.T) {
	s := New()
	s.OpenDemo()
	now := time.Unix(100, 0)
	s.Do(PlayStep{})
	if !s.PlayFrame(now) || s.Play.Sim == nil || s.Play.Playing {
		t.Fatal("Step did not start and step the simulation")
	}
	step := s.Play.Sim.StepSize()
	if s.Play.Time != step || len(s.Play.T) != 2 || s.Play.Bodies == 0 {
		t.Fatalf("after one step: t %v, %d samples, %d bodies", s.Play.Time, len(s.Play.T), s.Play.Bodies)
	}
	s.Do(PlayToggle{})
	s.Do(SetPlaySpeed{Choice: 3}) // 1x
	s.PlayFrame(now.Add(50 * time.Millisecond))
	if got, want := s.Play.Time, step+0.05; got < want-step || got > want+step {
		t.Errorf("after 50 ms playing at 1x: t = %v, want %v", got, want)
	}
	s.Do(PlayReset{})
	if s.Play.Sim != nil || s.Play.Time != 0 || s.Play.Playing || len(s.Play.T) != 0 {
		t.Fatalf("after reset: %+v", s.Play)
	}
	// Figures do not outlive the document (issue 22 item 7).
	s.StepPlay(3)
	dir := t.TempDir()
	s.Open(writeBox(t, dir, "box.gltf"))
	s.WaitLoad()
	if s.Play.Sim != nil || s.Play.Bodies != 0 || s.Play.Time != 0 || s.Play.StepMS != 0 {
		t.Errorf("Play after opening another file: %+v", s.Play)
	}
}

func TestVariantSwitch(t *testing.T) {
	s := New()
	s.OpenDemo()
	n := len(s.Doc.Variants)
	if n == 0 {
		t.Fatal("the demo has no variants")
	}
	s.Do(SetVariant{Index: n - 1})
	if s.Variant != n-1 {
		t.Fatalf("variant %d, want %d", s.Variant, n-1)
	}
	s.Do(SetVariant{Index: n + 3})
	if s.Variant != -1 {
		t.Errorf("an unknown variant gave %d, want -1 (default)", s.Variant)
	}
	s.Do(ApplyEdit{Edit: scene.AddVariantEdit("Rust")})
	if s.Variant != n || s.Doc.Variants[n].Name != "Rust" {
		t.Errorf("after adding: variant %d, want the new one %d", s.Variant, n)
	}
	s.Do(Undo{})
	if s.Variant != -1 || len(s.Doc.Variants) != n {
		t.Errorf("after undoing the add: variant %d, %d variants", s.Variant, len(s.Doc.Variants))
	}
}

func TestMessageFades(t *testing.T) {
	s := New()
	now := time.Unix(0, 0)
	s.Now = func() time.Time { return now }
	s.Notice("saved a.glb")
	cases := []struct {
		after time.Duration
		alpha float32
		ok    bool
	}{
		{0, 1, true},
		{messageHold - time.Millisecond, 1, true},
		{messageHold + messageFade/2, 0.5, true},
		{messageHold + messageFade, 0, false},
	}
	for _, c := range cases {
		now = time.Unix(0, 0).Add(c.after)
		_, a, ok := s.Message()
		if ok != c.ok || a < c.alpha-0.01 || a > c.alpha+0.01 {
			t.Errorf("after %v: alpha %v ok %v, want %v %v", c.after, a, ok, c.alpha, c.ok)
		}
	}
}

// TestMovingNodes: the lines that move with the bodies are every body's
// subtree (the dumbbell's ends and bar with it), the joints connected to
// one; a node that is no body and under none stays put.
func TestMovingNodes(t *testing.T) {
	s := New()
	s.OpenDemo()
	if !s.StepPlay(1) {
		t.Fatal("Play did not step")
	}
	moving := map[int]bool{}
	for _, n := range MovingNodes(s.Play.Sim) {
		moving[n] = true
	}
	for _, b := range s.Play.Sim.Bodies {
		if !moving[b.Node] {
			t.Errorf("body %s does not move", b.Name)
		}
	}
	for name, want := range map[string]bool{"Dumbbell end A": true, "Dumbbell bar": true, "Hinge (joint)": true, "Updraft (directional gravity)": false} {
		n, err := FindNode(s.Doc, name)
		if err != nil {
			t.Fatal(err)
		}
		if moving[n] != want {
			t.Errorf("%s moving %v, want %v", name, moving[n], want)
		}
	}
}

// gizmoCrate opens the demo with its crate selected and the move gizmo
// on, and returns the crate, its transform, and its world matrix moved by
// dx along X as the gizmo gives it (in float32).
func gizmoCrate(t *testing.T) (s *Session, n int, before scene.Transform, move func(dx float64) mgl64.Mat4) {
	t.Helper()
	s = New()
	s.OpenDemo()
	n, err := FindNode(s.Doc, "Crate (dynamic box)")
	if err != nil {
		t.Fatal(err)
	}
	s.Do(Select{Node: n})
	s.Do(SetGizmo{Mode: GizmoTranslate})
	world := s.Doc.WorldMatrix(n)
	return s, n, s.Doc.NodeTransform(n), func(dx float64) mgl64.Mat4 {
		m := mgl64.Translate3D(dx, 0, 0).Mul4(world)
		for i := range m {
			m[i] = float64(float32(m[i])) // the gizmo works in float32
		}
		return m
	}
}

// TestGizmoDrag: a transform-gizmo drag is one undo step however many
// moves it has, its matrix noise is rounded, and a cancel restores.
func TestGizmoDrag(t *testing.T) {
	s, n, before, move := gizmoCrate(t)
	s.BeginGizmo()
	s.GizmoTo(move(0.5))
	s.GizmoTo(move(1))
	s.EndGizmo()
	after := s.Doc.NodeTransform(n)
	if s.Hist.Len() != 1 || s.Hist.UndoName() != "Move node (gizmo)" {
		t.Fatalf("%d steps (%q), want one", s.Hist.Len(), s.Hist.UndoName())
	}
	if got, want := after.Translation[0], scene.RoundSig(before.Translation[0]+1, 6); got != want {
		t.Errorf("x after the drag %v, want %v", got, want)
	}
	s.BeginGizmo()
	s.GizmoTo(move(3))
	s.Do(Undo{}) // Undo during a drag cancels it
	if s.GizmoActive() || s.Doc.NodeTransform(n) != after || s.Hist.Len() != 1 {
		t.Errorf("cancel left %+v, %d steps", s.Doc.NodeTransform(n), s.Hist.Len())
	}
	s.Do(Undo{})
	if s.Doc.NodeTransform(n) != before {
		t.Errorf("undo of the drag: %+v, want %+v", s.Doc.NodeTransform(n), before)
	}
}

// TestGizmoFrames: one drag as the window sees it, frame by frame from
// ImGuizmo: a first change on a frame that does not yet say "in use" and
// moves nothing, moves while in use, a frame after release. It is one undo
// step, and undoing it puts the node back.
func TestGizmoFrames(t *testing.T) {
	s, n, before, at := gizmoCrate(t)
	s.GizmoFrame(false, false, at(0)) // hover
	s.GizmoFrame(false, true, at(0))  // the press: a change that moves nothing
	s.GizmoFrame(true, true, at(0.25))
	s.GizmoFrame(true, false, at(0.25))
	s.GizmoFrame(true, true, at(0.5))
	s.GizmoFrame(false, false, at(0.5)) // released
	s.GizmoFrame(false, false, at(0.5))
	if s.GizmoActive() {
		t.Error("the drag did not end on release")
	}
	if s.Hist.Len() != 1 {
		t.Fatalf("one gizmo drag made %d undo steps (%q), want 1", s.Hist.Len(), s.Hist.UndoName())
	}
	if got, want := s.Doc.NodeTransform(n).Translation[0], scene.RoundSig(before.Translation[0]+0.5, 6); got != want {
		t.Errorf("x after the drag %v, want %v", got, want)
	}
	s.Do(Undo{})
	if s.Doc.NodeTransform(n) != before || s.Hist.Len() != 0 {
		t.Errorf("after one undo: %+v with %d steps, want %+v with none", s.Doc.NodeTransform(n), s.Hist.Len(), before)
	}
	// A click on the gizmo that moves nothing makes no step at all.
	s.GizmoFrame(false, true, at(0))
	s.GizmoFrame(true, true, at(0))
	s.GizmoFrame(false, false, at(0))
	if s.Hist.Len() != 0 || s.Hist.RedoName() == "" {
		t.Errorf("a click that moved nothing: %d undo steps (%q)", s.Hist.Len(), s.Hist.UndoName())
	}
}

// TestFitOnChildSaysSo: a box fitted to a mesh that is not centred on its
// node goes on a new child node, which becomes the selection; the panel's
// message says so, since the Inspector then shows another node than the
// one the user chose.
func TestFitOnChildSaysSo(t *testing.T) {
	dir := t.TempDir()
	text, bin := boxGLTF([4]float64{1, 0, 0, 1}, "box.bin")
	// The mesh 2 m along +x of its node.
	for i := 0; i+12 <= len(bin); i += 12 {
		x := math.Float32frombits(binary.LittleEndian.Uint32(bin[i:]))
		binary.LittleEndian.PutUint32(bin[i:], math.Float32bits(x+2))
	}
	var doc map[string]any
	if err := json.Unmarshal(text, &doc); err != nil {
		t.Fatal(err)
	}
	acc := doc["accessors"].([]any)[0].(map[string]any)
	acc["min"], acc["max"] = []float64{1.5, -0.5, -0.5}, []float64{2.5, 0.5, 0.5}
	text, _ = json.Marshal(doc)
	p := filepath.Join(dir, "off.gltf")
	os.WriteFile(p, text, 0o644)
	os.WriteFile(filepath.Join(dir, "box.bin"), bin, 0o644)
	s, _ := open(t, p)
	s.Select(0)
	e, err := s.Doc.FitColliderEdit(0, scene.ShapeBox, false)
	if err != nil {
		t.Fatal(err)
	}
	s.Do(ApplyEdit{Edit: e})
	if len(s.Doc.GLTF.Nodes) != 2 || s.Selected != 1 {
		t.Fatalf("%d nodes, selected %d; want the fitted box on a new child node 1, selected", len(s.Doc.GLTF.Nodes), s.Selected)
	}
	m, _, ok := s.Message()
	want := fmt.Sprintf("%s: on the new child node %q, now selected", e.Name(), s.Doc.NodeName(1))
	if !ok || m.Text != want || m.Error {
		t.Errorf("message %q (error %v), want %q", m.Text, m.Error, want)
	}
	// A fit on the node itself (a centred mesh) keeps the selection and
	// says nothing of a child.
	s2, _ := open(t, writeBox(t, t.TempDir(), "box.gltf"))
	s2.Select(0)
	e2, err := s2.Doc.FitColliderEdit(0, scene.ShapeBox, false)
	if err != nil {
		t.Fatal(err)
	}
	s2.Do(ApplyEdit{Edit: e2})
	if m, _, ok := s2.Message(); s2.Selected != 0 || (ok && strings.Contains(m.Text, "child")) {
		t.Errorf("centred mesh: selected %d, message %q", s2.Selected, m.Text)
	}
}
