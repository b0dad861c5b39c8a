package app

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"physview/scene"
	"physview/sim"
)

const (
	sceneData = "../../scene/testdata/"
	animData  = "../../scene/anim/testdata/"
)

// TestConvert converts the repository's fixtures and checks the warnings
// (the dialect's merged into the format's, each once), the findings counts
// carried over, and the errors for a bad -physics and a missing file.
func TestConvert(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		in, out, physics string
		warnings         []string // in order
		errors, findWarn int
	}{
		{"current.gltf", "same.gltf", "", nil, 0, 0},
		{"current.gltf", "khr.gltf", "khr", []string{
			`shape 4: no collider's node carries mesh 0 (or none uses the shape), so the convex is written as a KHR_implicit_shapes entry of type "convex", which KHR readers do not know`,
			`node 6 "Static": KHR has no static motion (a collider without motion is static); the OMI motion is kept in the KHR extension's extras`,
		}, 0, 0},
		{"khr_physics.gltf", "omi.glb", "omi", []string{`shape 2: plane is not an OMI shape; written with type "plane", which OMI readers other than physview do not know`}, 0, 1},
		{"bad_physics.gltf", "bad.gltf", "", nil, 21, 8}, // 4 unknown names are VALUE_NOT_IN_LIST warnings
	} {
		out := filepath.Join(dir, c.out)
		got, err := Convert(sceneData+c.in, out, c.physics)
		if err != nil {
			t.Errorf("%s -> %s: %v", c.in, c.out, err)
			continue
		}
		if !slices.Equal(got.Warnings, c.warnings) || got.Errors != c.errors || got.FindingWarnings != c.findWarn {
			t.Errorf("%s -> %s (-physics %q): %q, %d errors, %d warnings; want %q, %d, %d", c.in, c.out, c.physics, got.Warnings, got.Errors, got.FindingWarnings, c.warnings, c.errors, c.findWarn)
		}
		back, err := OpenDocument(out)
		if err != nil {
			t.Errorf("%s does not read back: %v", c.out, err)
		} else if c.physics != "" && back.PhysicsDialect().String() != c.physics {
			t.Errorf("%s was written in %s, want %s", c.out, back.PhysicsDialect(), c.physics)
		}
	}
	// The dialect's warnings are merged in, never twice.
	d, err := OpenDocument(sceneData + "current.gltf")
	if err != nil {
		t.Fatal(err)
	}
	dialect := d.SetPhysicsDialect(scene.DialectKHR)
	got, err := Convert(sceneData+"current.gltf", filepath.Join(dir, "again.gltf"), "khr")
	if err != nil || len(dialect) == 0 {
		t.Fatalf("%v; dialect warnings %q", err, dialect)
	}
	for _, w := range dialect {
		if n := slices.Index(got.Warnings, w); n < 0 || slices.Index(got.Warnings[n+1:], w) >= 0 {
			t.Errorf("dialect warning %q is in %q not exactly once", w, got.Warnings)
		}
	}
	for _, c := range []struct{ in, physics, want string }{
		{sceneData + "current.gltf", "bullet", `convert: -physics "bullet": want omi, khr or gltf2.1`},
		{sceneData + "nonexistent.gltf", "khr", sceneData + "nonexistent.gltf: no such file or directory"},
	} {
		if _, err := Convert(c.in, filepath.Join(dir, "x.gltf"), c.physics); err == nil || err.Error() != c.want {
			t.Errorf("Convert(%s, -physics %s): %v, want %q", c.in, c.physics, err, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.gltf")); err == nil {
		t.Error("a failed conversion wrote its output")
	}
}

// TestEditFile edits a copy of a fixture in place and to another file,
// and checks that a bad command or a missing file writes nothing.
func TestEditFile(t *testing.T) {
	src, err := os.ReadFile(sceneData + "current.gltf")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in.gltf")
	os.WriteFile(in, src, 0o644)

	var done []string
	record := func(c []string, edit, _ string) { done = append(done, strings.Join(c, " ")+": "+edit) }
	if _, err := EditFile(in, "", [][]string{{"rename", "0", "Renamed"}, {"gravity", "0,-3,0"}}, record); err != nil {
		t.Fatal(err)
	}
	if want := []string{"rename 0 Renamed: Rename node 0", "gravity 0,-3,0: Edit world gravity"}; !slices.Equal(done, want) {
		t.Errorf("edits %q, want %q", done, want)
	}
	d, err := OpenDocument(in)
	if err != nil || d.GLTF.Nodes[0].Name != "Renamed" {
		t.Fatalf("the edited file: %v", err)
	}

	out := filepath.Join(dir, "out.gltf")
	edited, _ := os.ReadFile(in)
	if _, err := EditFile(in, out, [][]string{{"rename", "0", "Other"}}, func([]string, string, string) {}); err != nil {
		t.Fatal(err)
	}
	if now, _ := os.ReadFile(in); !bytes.Equal(now, edited) {
		t.Error("edit -o changed its input")
	}
	if d, err := OpenDocument(out); err != nil || d.GLTF.Nodes[0].Name != "Other" {
		t.Errorf("the -o file: %v", err)
	}

	for _, c := range []struct {
		file string
		cmds [][]string
		want string
	}{
		{in, [][]string{{"rename", "0", "X"}, {"frobnicate", "1"}}, "edit " + in + `: "frobnicate 1": unknown command (the commands are fit, shape, motion, rename, gravity, remove-collider, make-single, joint, joint-limit, joint-drive, remove-joint, retarget-joint) (nothing written)`},
		{in, [][]string{{"motion", "0", "floaty"}}, "(nothing written)"},
		{filepath.Join(dir, "none.gltf"), [][]string{{"rename", "0", "X"}}, filepath.Join(dir, "none.gltf") + ": no such file or directory"},
	} {
		_, err := EditFile(c.file, "", c.cmds, func([]string, string, string) {})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error with %q", c.cmds, err, c.want)
		}
	}
	if now, _ := os.ReadFile(in); !bytes.Equal(now, edited) {
		t.Error("a failed edit wrote the file")
	}
}

// TestEditUsage lists every edit command, one line each.
func TestEditUsage(t *testing.T) {
	u := EditUsage()
	for _, c := range EditCommands() {
		if !strings.Contains(u, "\n    "+c.Usage+"\n") {
			t.Errorf("usage lacks %q:\n%s", c.Usage, u)
		}
	}
}

// newPlatform builds a simulation of platform.gltf: a kinematic platform
// (node 0) animated 1 m along X over 2 s, a dynamic box (node 1) on it.
func newPlatform(t *testing.T) (*sim.Sim, *scene.Document) {
	t.Helper()
	d, err := OpenForView(animData + "platform.gltf")
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(d, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, d
}

// bodyOf returns s's body on node n.
func bodyOf(t *testing.T, s *sim.Sim, n int) *sim.Body {
	t.Helper()
	for _, b := range s.Bodies {
		if b.Node == n {
			return b
		}
	}
	t.Fatalf("no body on node %d", n)
	return nil
}

// TestAnimateKinematic: driven by its animation the platform ends 2 s
// later 1 m along X; undriven it stays; an index out of range is refused.
func TestAnimateKinematic(t *testing.T) {
	for _, c := range []struct {
		a       int
		drive   bool
		x       float64
		wantErr string
	}{
		{0, true, 1, ""},
		{-1, true, 1, ""},
		{0, false, 0, ""},
		{1, true, 0, "-animation 1: the file has 1 animations"},
		{-2, true, 0, "-animation -2: the file has 1 animations"},
	} {
		s, d := newPlatform(t)
		if c.drive {
			err := AnimateKinematic(s, d, c.a)
			if c.wantErr != "" {
				if err == nil || err.Error() != c.wantErr {
					t.Errorf("animation %d: %v, want %q", c.a, err, c.wantErr)
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Run(2); err != nil {
			t.Fatal(err)
		}
		if x := bodyOf(t, s, 0).Position[0]; x < c.x-1e-3 || x > c.x+1e-3 {
			t.Errorf("animation %d (driven %v): the platform at x = %g, want %g", c.a, c.drive, x, c.x)
		}
	}
	// No animations: nothing to drive, whatever the index.
	d, err := OpenForView(sceneData + "current.gltf")
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(d, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := AnimateKinematic(s, d, 7); err != nil {
		t.Errorf("a file without animations: %v", err)
	}
}

// TestSimulationReport: the report holds the dynamic box alone (not the
// kinematic platform), with the simulation's own clock and states.
func TestSimulationReport(t *testing.T) {
	s, _ := newPlatform(t)
	if err := s.Run(0.5); err != nil {
		t.Fatal(err)
	}
	r := SimulationReport(s)
	if r.Time != s.Time || r.Steps != s.Steps || r.Steps != 120 || r.StepSize != sim.DefaultStep {
		t.Errorf("clock %g s, %d steps of %g; the sim's %g s, %d steps", r.Time, r.Steps, r.StepSize, s.Time, s.Steps)
	}
	if r.Gravity != [3]float64{0, -9.81, 0} || r.DefaultGravity {
		t.Errorf("gravity %v (default %v), want the file's 0 -9.81 0", r.Gravity, r.DefaultGravity)
	}
	if len(r.Bodies) != 1 {
		t.Fatalf("%d bodies reported, want the one dynamic box", len(r.Bodies))
	}
	b, box := r.Bodies[0], bodyOf(t, s, 1)
	q := box.Rotation
	if b.Node != 1 || b.Name != "box" || b.Position != [3]float64(box.Position) || b.Rotation != [4]float64{q.V[0], q.V[1], q.V[2], q.W} ||
		b.LinearVelocity != [3]float64(box.LinearVelocity) || b.AngularVelocity != [3]float64(box.AngularVelocity) {
		t.Errorf("reported %+v, the sim's %+v", b, *box)
	}
	// The box rests on the platform (top at 0.1 m): its centre 0.1 m above.
	if y := b.Position[1]; y < 0.15 || y > 0.25 {
		t.Errorf("box at y = %g, want about 0.2", y)
	}
}

// TestDroppedNote says nothing without dropped contacts and the counts
// with them.
func TestDroppedNote(t *testing.T) {
	s, _ := newPlatform(t)
	if err := s.Run(0.1); err != nil {
		t.Fatal(err)
	}
	if n := DroppedNote(s); n != "" {
		t.Errorf("no contacts dropped, note %q", n)
	}
	s.DroppedSteps, s.Dropped = 3, sim.DroppedContacts{Pairs: 5, Contacts: 40}
	if got, want := DroppedNote(s), "3 of 24 steps made too many contacts: 5 touching pairs and 40 contact points were dropped"; got != want {
		t.Errorf("note %q, want %q", got, want)
	}
}

// TestOpenForView refuses a file that requires an extension the viewer
// cannot honour, which OpenDocument still reads (for validate, convert).
func TestOpenForView(t *testing.T) {
	p := filepath.Join(t.TempDir(), "required.gltf")
	os.WriteFile(p, []byte(`{"asset":{"version":"2.0"},"extensionsUsed":["EXT_from_the_future"],"extensionsRequired":["EXT_from_the_future"]}`), 0o644)
	if _, err := OpenDocument(p); err != nil {
		t.Errorf("OpenDocument: %v", err)
	}
	_, err := OpenForView(p)
	var ue *scene.UnsupportedError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "EXT_from_the_future") {
		t.Errorf("OpenForView: %v, want an *scene.UnsupportedError naming the extension", err)
	}
	if d, err := OpenForView(sceneData + "current.gltf"); err != nil || d == nil {
		t.Errorf("current.gltf: %v", err)
	}
	if _, err := OpenForView(sceneData + "nonexistent.gltf"); err == nil {
		t.Error("a missing file opened")
	}
}
