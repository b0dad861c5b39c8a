package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"physview/scene"
)

// writeScene writes a glTF of the given nodes (JSON objects, all roots)
// with a sphere (shape 0) and a 20 m box (shape 1) and returns its path.
func writeScene(t *testing.T, nodes ...string) string {
	t.Helper()
	roots := make([]string, len(nodes))
	for i := range nodes {
		roots[i] = fmt.Sprint(i)
	}
	doc := fmt.Sprintf(`{"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body"],
	"extensions": {"OMI_physics_shape": {"shapes": [{"type": "sphere", "sphere": {"radius": 0.25}}, {"type": "box", "box": {"size": [20, 1, 20]}}]}},
	"scene": 0, "scenes": [{"nodes": [%s]}], "nodes": [%s]}`, strings.Join(roots, ","), strings.Join(nodes, ","))
	p := filepath.Join(t.TempDir(), "scene.gltf")
	if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const (
	ballNode   = `{"name": "ball", "translation": [0, 1, 0], "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}, "collider": {"shape": 0}}}}`
	floorNode  = `{"name": "floor", "translation": [0, -0.5, 0], "extensions": {"OMI_physics_body": {"collider": {"shape": 1}}}}`
	liftNode   = `{"name": "lift", "extensions": {"OMI_physics_body": {"motion": {"type": "kinematic"}, "collider": {"shape": 1}}}}`
	sensorNode = `{"name": "sensor", "extensions": {"OMI_physics_body": {"trigger": {"shape": 1}}}}`
	// A compound: the body's collider is on a child without motion, which
	// moves with it (not ground).
	cartNode = `{"name": "cart", "children": [1], "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}}}}`
	cartPart = `{"name": "cart part", "extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}}`
)

// TestPlayNotesNothingToLandOn: Play says when its dynamic bodies have
// nothing static (or kinematic) to land on, and only then; a trigger or a
// compound's own part is no ground.
func TestPlayNotesNothingToLandOn(t *testing.T) {
	for _, c := range []struct {
		name   string
		nodes  []string
		ground bool
	}{
		{"ball alone", []string{ballNode}, false},
		{"ball over a floor", []string{floorNode, ballNode}, true},
		{"ball over a kinematic lift", []string{liftNode, ballNode}, true},
		{"ball and a trigger", []string{sensorNode, ballNode}, false},
		{"compound cart alone", []string{cartNode, cartPart}, false},
		{"compound cart over a floor", []string{cartNode, cartPart, floorNode}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, _ := open(t, writeScene(t, c.nodes...))
			if !s.StepPlay(2) {
				t.Fatalf("Play did not step: %s", s.Play.Error)
			}
			noted := len(s.Play.Notes) > 0 && s.Play.Notes[0] == NoGroundNote
			if noted == c.ground {
				t.Errorf("ground %v, but notes %q", c.ground, s.Play.Notes)
			}
			// The note stays while Play steps, after the simulation's own.
			s.StepPlay(1)
			if again := len(s.Play.Notes) > 0 && s.Play.Notes[0] == NoGroundNote; again != noted {
				t.Errorf("after another step the note is %v, was %v: %q", again, noted, s.Play.Notes)
			}
			if !strings.Contains(strings.Join(s.Play.Notes, "\n"), "no world gravity") {
				t.Errorf("the simulation's gravity note is gone: %q", s.Play.Notes)
			}
		})
	}
}

// TestPlayResetDropsTheRunsNotes: after Reset the Play tab no longer lists
// the stopped run's notes (the stopped tab says the gravity itself, and
// said it twice).
func TestPlayResetDropsTheRunsNotes(t *testing.T) {
	s, _ := open(t, writeScene(t, ballNode))
	if !s.StepPlay(1) || len(s.Play.Notes) < 2 {
		t.Fatalf("stepped with notes %q (error %q), want the ground and gravity notes", s.Play.Notes, s.Play.Error)
	}
	s.Do(PlayReset{})
	if s.Play.Running() || len(s.Play.Notes) != 0 {
		t.Errorf("after Reset: running %v, notes %q", s.Play.Running(), s.Play.Notes)
	}
}

// TestPlayWithNoBodiesSaysWhatToDo: a scene with only static colliders
// does not play, and the error says how to get a body that moves.
func TestPlayWithNoBodiesSaysWhatToDo(t *testing.T) {
	s, _ := open(t, writeScene(t, floorNode))
	if s.StepPlay(1) {
		t.Fatal("a scene without bodies played")
	}
	if !strings.HasPrefix(s.Play.Error, "the scene has no dynamic or kinematic bodies") || !strings.HasSuffix(s.Play.Error, NoBodiesHint) {
		t.Errorf("Error = %q, want sim's reason and the hint", s.Play.Error)
	}
}

// TestPlayBodiesListsTheMovingBodies: the Play tab's list of bodies to
// plot names each body with motion (not the static floor), capped at max
// with the total given.
func TestPlayBodiesListsTheMovingBodies(t *testing.T) {
	s, _ := open(t, writeScene(t, floorNode, ballNode, liftNode))
	if got, n := s.PlayBodies(10); got != nil || n != 0 {
		t.Fatalf("stopped: %v, %d", got, n)
	}
	if !s.StepPlay(1) {
		t.Fatalf("Play did not step: %s", s.Play.Error)
	}
	got, n := s.PlayBodies(10)
	if n != 2 || len(got) != 2 || got[0] != (PlayBody{Node: 1, Name: "ball"}) || got[1] != (PlayBody{Node: 2, Name: "lift"}) {
		t.Errorf("PlayBodies(10) = %v, %d; want ball (1) and lift (2) of 2", got, n)
	}
	if got, n := s.PlayBodies(1); n != 2 || len(got) != 1 || got[0].Name != "ball" {
		t.Errorf("PlayBodies(1) = %v, %d; want ball, of 2", got, n)
	}
	// Choosing one selects it, and the plot follows it at once (Play is
	// paused: no step comes to update it).
	s.Select(2)
	if s.Play.Plotted != "lift" {
		t.Errorf("Plotted = %q after selecting the lift", s.Play.Plotted)
	}
	s.Select(0)
	if s.Play.Plotted != "" {
		t.Errorf("Plotted = %q after selecting the static floor", s.Play.Plotted)
	}
}

// TestUndoSaysWhatItUndid: Undo and Redo replace the message of the step
// they undo or redo ("... now selected" no longer holds) with what they
// did.
func TestUndoSaysWhatItUndid(t *testing.T) {
	s, _ := open(t, writeBox(t, t.TempDir(), "box.gltf"))
	s.Do(ApplyEdit{Edit: scene.SetNodeName{Node: 0, To: "Crate"}})
	name := s.Hist.UndoName()
	s.Notice("renamed, now selected")
	s.Do(Undo{})
	if m, _, ok := s.Message(); !ok || m.Text != "Undone: "+name || m.Error {
		t.Errorf("after Undo the message is %+v (shown %v), want %q", m, ok, "Undone: "+name)
	}
	s.Do(Redo{})
	if m, _, ok := s.Message(); !ok || m.Text != "Redone: "+name {
		t.Errorf("after Redo the message is %+v (shown %v), want %q", m, ok, "Redone: "+name)
	}
	// Nothing to undo: nothing said.
	s.Do(Undo{})
	s.Notice("")
	s.Do(Undo{})
	if m, _, ok := s.Message(); ok {
		t.Errorf("Undo with nothing to undo said %q", m.Text)
	}
}

// TestLoadErrorStaysWhileNothingIsOpen: a file that cannot be opened into
// an empty window leaves its reason in LoadError after the message fades;
// a good file clears it, and a bad one over an open document does not
// set it (the document stays).
func TestLoadErrorStaysWhileNothingIsOpen(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.gltf")
	if err := os.WriteFile(bad, []byte("[]"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := New()
	t.Cleanup(s.Close)
	s.Open(bad)
	if err := s.WaitLoad(); err == nil {
		t.Fatal("bad.gltf opened")
	}
	want := bad + ": not a glTF document: the JSON is not an object"
	if got := s.LoadError(); got != want {
		t.Errorf("LoadError() = %q, want %q", got, want)
	}
	later := s.now().Add(errorHold + messageFade + 1)
	s.Now = func() time.Time { return later }
	if _, _, ok := s.Message(); ok {
		t.Error("the message did not fade")
	}
	if s.LoadError() != want {
		t.Errorf("LoadError() after the fade = %q", s.LoadError())
	}
	s.Open(writeBox(t, dir, "box.gltf"))
	if err := s.WaitLoad(); err != nil {
		t.Fatal(err)
	}
	if s.LoadError() != "" {
		t.Errorf("LoadError() with box.gltf open = %q", s.LoadError())
	}
	s.Open(bad)
	s.WaitLoad()
	if s.Doc == nil || s.LoadError() != "" {
		t.Errorf("a failed load over box.gltf: doc %v, LoadError %q", s.Doc != nil, s.LoadError())
	}
}

// TestPlayGravitySaysTheFieldsPlay: with gravity fields and no world
// gravity, the stopped Play tab does not say "none in the file" (the view
// shows the fields' arrows); it says the fields play too.
func TestPlayGravitySaysTheFieldsPlay(t *testing.T) {
	field := func(name string) string {
		return `{"name": "` + name + `", "extensions": {"OMI_physics_body": {"trigger": {"shape": 1}}, "OMI_physics_gravity": {"type": "point", "gravity": 9.8}}}`
	}
	for _, c := range []struct {
		nodes []string
		want  string
	}{
		{[]string{ballNode}, "gravity: none in the file, so Play uses 9.80665 m/s² down (-Y), as engines do (not saved)"},
		{[]string{field("planet"), ballNode}, "gravity: no world gravity in the file, so Play uses 9.80665 m/s² down (-Y), as engines do (not saved); its gravity field plays too, inside its trigger"},
		{[]string{field("a"), field("b")}, "gravity: no world gravity in the file, so Play uses 9.80665 m/s² down (-Y), as engines do (not saved); its 2 gravity fields play too, inside their triggers"},
	} {
		p := writeScene(t, c.nodes...)
		text, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		text = []byte(strings.Replace(string(text), `"extensionsUsed": [`, `"extensionsUsed": ["OMI_physics_gravity", `, 1))
		if err := os.WriteFile(p, text, 0o644); err != nil {
			t.Fatal(err)
		}
		s, _ := open(t, p)
		if got := s.PlayGravity(); got != c.want {
			t.Errorf("%d nodes:\n got %q\nwant %q", len(c.nodes), got, c.want)
		}
	}
}

// TestCompoundFitSaysWhenStatic: a compound fitted to a node without
// motion is static scenery, and the fit's message says how to make it
// fall (Play would otherwise answer "no bodies"); on a dynamic body it
// does not.
func TestCompoundFitSaysWhenStatic(t *testing.T) {
	for _, dynamic := range []bool{true, false} {
		s, _ := open(t, "../concave/testdata/u.glb")
		if !dynamic {
			s.Do(ApplyEdit{Edit: s.Doc.SetMotionEdit(1, nil, "Remove motion")})
		}
		s.Do(PreviewCompound{Node: 1, Options: scene.CompoundOptions{MaxHulls: 4, MaxVertices: 16}})
		s.WaitCompound()
		s.Poll()
		s.Do(ApplyCompound{})
		m, _, ok := s.Message()
		if !ok || !strings.HasPrefix(m.Text, "fitted a compound of ") {
			t.Fatalf("dynamic %v: message %+v", dynamic, m)
		}
		if said := strings.Contains(m.Text, "static scenery until the node has motion"); said == dynamic {
			t.Errorf("dynamic %v: %q", dynamic, m.Text)
		}
	}
}

// TestUndoKeepsTheBodySelected: undoing a fit while one of its new part
// nodes is selected selects the body it was fitted to (the part is gone),
// rather than nothing; an undo that leaves the selection alone keeps it.
func TestUndoKeepsTheBodySelected(t *testing.T) {
	s, _ := open(t, "../concave/testdata/u.glb")
	s.Do(PreviewCompound{Node: 1, Options: scene.CompoundOptions{MaxHulls: 4, MaxVertices: 16}})
	s.WaitCompound()
	s.Poll()
	s.Do(ApplyCompound{})
	parts := s.Doc.CompoundParts(1)
	if len(parts) < 2 {
		t.Fatalf("%d parts", len(parts))
	}
	s.Select(parts[1])
	s.Do(Undo{})
	if len(s.Doc.GLTF.Nodes) != 2 || s.Selected != 1 {
		t.Errorf("after undo: %d nodes, node %d selected; want the body, node 1", len(s.Doc.GLTF.Nodes), s.Selected)
	}
	// Redo adds the parts back; the body stays selected.
	s.Do(Redo{})
	if s.Selected != 1 {
		t.Errorf("after redo: node %d selected", s.Selected)
	}
	s.Do(ApplyEdit{Edit: scene.SetNodeName{Node: 0, To: "floor"}})
	s.Select(0)
	s.Do(Undo{})
	if s.Selected != 0 {
		t.Errorf("undoing a rename: node %d selected", s.Selected)
	}
}
