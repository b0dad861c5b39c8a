package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"physview/assets"
	"physview/internal/recent"
	"physview/internal/testcorpus"
	"physview/scene"
)

// TestBodyCount counts bodies as an engine makes them (issue 22 item 7:
// the status bar said 15 for ball_pit's 6 bodies, counting collider nodes).
func TestBodyCount(t *testing.T) {
	s := New()
	s.OpenDemo()
	d := s.Doc
	want := 0
	for i, ne := range d.Nodes {
		if b := ne.Body; b != nil && (b.Motion != nil || (b.Collider != nil && !hasMotionAbove(d, i) && !hasColliderAbove(d, i))) {
			want++
		}
	}
	colliders := 0
	for _, ne := range d.Nodes {
		if ne.Body != nil && ne.Body.Collider != nil {
			colliders++
		}
	}
	// The demo's dumbbell is one body of three colliders under a node with
	// motion and no collider of its own.
	if got := BodyCount(d); got != want || got >= colliders+1 || got == 0 {
		t.Errorf("demo: %d bodies (%d nodes with a collider), want %d", got, colliders, want)
	}
	p := filepath.Join(testcorpus.Dir(t), "omigroup-gltf-extensions/extensions/2.0/OMI_physics_body/examples/complex/ball_pit.gltf")
	if err := s.LoadNow(p); err != nil {
		t.Fatal(err)
	}
	if got := BodyCount(s.Doc); got != 6 {
		t.Errorf("ball_pit.gltf: %d bodies, want 6", got)
	}
}

// TestBodyCountStaticCompound: a static compound (a node whose collider has
// no shape, over two box colliders) is one body, as is a lone static box.
func TestBodyCountStaticCompound(t *testing.T) {
	d, err := scene.Decode([]byte(`{"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body"],
		"extensions": {"OMI_physics_shape": {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]}},
		"scene": 0, "scenes": [{"nodes": [0, 3]}],
		"nodes": [
			{"name": "wall", "children": [1, 2], "extensions": {"OMI_physics_body": {"collider": {}}}},
			{"name": "left", "translation": [-1, 0, 0], "extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}},
			{"name": "right", "translation": [1, 0, 0], "extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}},
			{"name": "post", "translation": [5, 0, 0], "extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}}
		]}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.Nodes[0].Body == nil || d.Nodes[0].Body.Collider == nil {
		t.Fatal("the compound's top node has no collider in the model")
	}
	if got := BodyCount(d); got != 2 {
		t.Errorf("a static compound and a static box: %d bodies, want 2", got)
	}
}

// TestDescribeReload says what a reload changed (issue 22 item 6).
func TestDescribeReload(t *testing.T) {
	load := func() *scene.Document {
		s := New()
		s.OpenDemo()
		return s.Doc
	}
	find := func(d *scene.Document, name string) int {
		n, err := FindNode(d, name)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	tests := []struct {
		name string
		edit func(d *scene.Document)
		want string
	}{
		{"nothing", func(d *scene.Document) {}, "no node, shape or body changed"},
		{"rename", func(d *scene.Document) { d.GLTF.Nodes[find(d, "Ground")].Name = "Floor" },
			"nodes renamed: Ground -> Floor"},
		{"resize", func(d *scene.Document) {
			b := d.Nodes[find(d, "Ball (dynamic sphere)")].Body
			d.Shapes[b.Collider.Shape].Radius = 0.75
		}, "shapes resized: shape 2 sphere (radius 0.5 -> radius 0.75)"},
		{"retype", func(d *scene.Document) {
			b := d.Nodes[find(d, "Ball (dynamic sphere)")].Body
			d.Shapes[b.Collider.Shape] = scene.DefaultShape(scene.ShapeBox)
		}, "shapes retyped: shape 2 sphere -> box"},
		{"body", func(d *scene.Document) {
			d.Nodes[find(d, "Crate (dynamic box)")].Body.Motion.Mass = 9
		}, "bodies changed: Crate (dynamic box)"},
		{"body removed", func(d *scene.Document) { d.Nodes[find(d, "Ground")].Body = nil },
			"bodies changed: Ground (removed)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			old, d := load(), load()
			tc.edit(d)
			if got := DescribeReload(old, d); got != tc.want {
				t.Errorf("%q, want %q", got, tc.want)
			}
		})
	}
}

// TestStatusFormat: the built-in demo is not labelled GLB (issue 22
// item 7), a saved copy takes its file's format.
func TestStatusFormat(t *testing.T) {
	s := New()
	s.OpenDemo()
	if s.Format != "built-in demo" {
		t.Errorf("demo format %q", s.Format)
	}
	for _, c := range []struct{ file, want string }{{"a.glb", "GLB"}, {"a.gltf", "glTF"}, {"a.xode", "XODE"}, {"a.g4tf", "G4MF"}} {
		s.Doc.Path = c.file
		if got := FormatName(s.Doc); got != c.want {
			t.Errorf("%s: format %q, want %q", c.file, got, c.want)
		}
	}
}

// TestFormatsRegistered: every file format is registered once and feeds
// the list of openable files (drag-and-drop, the browser, the chooser).
func TestFormatsRegistered(t *testing.T) {
	seen := map[string]string{}
	for _, f := range scene.Formats() {
		for _, e := range f.Exts {
			if other, dup := seen[e]; dup {
				t.Errorf("%s registered by %s and %s", e, other, f.Name)
			}
			seen[e] = f.Name
		}
	}
	for _, e := range []string{".gltf", ".glb", ".xode", ".g4tf", ".g4b"} {
		if seen[e] == "" {
			t.Errorf("%s is not registered", e)
		}
		if err := CheckOpenable("scene" + e); err != nil {
			t.Error(err)
		}
	}
	if err := CheckOpenable("/tmp/notes.txt"); err == nil || err.Error() != "notes.txt: not a file the viewer opens (the types are .gltf, .glb, .g4tf, .g4b, .xode)" {
		t.Errorf("notes.txt: %v", err)
	}
}

// TestRecentRestoresView: reopening a file brings back its camera and
// active variant from the recent list.
func TestRecentRestoresView(t *testing.T) {
	dir := t.TempDir()
	l, err := recent.Load(filepath.Join(dir, "recent.json"))
	if err != nil {
		t.Fatal(err)
	}
	demo := filepath.Join(dir, "demo.glb")
	os.WriteFile(demo, assets.Demo, 0o644)
	other := writeBox(t, dir, "box.gltf")
	s := New()
	s.Recent = l
	s.Open(demo)
	s.WaitLoad()
	s.Camera = Camera{Distance: 12, Yaw: 1.25, Pitch: 0.5, FovY: 0.8, Radius: 3}
	s.Do(SetVariant{Index: 1})
	variant := s.Doc.Variants[1].Name
	s.Open(other)
	s.WaitLoad()
	if s.Camera.Distance == 12 {
		t.Fatal("the camera followed to another file")
	}
	s.Open(demo)
	s.WaitLoad()
	if s.Camera != (Camera{Distance: 12, Yaw: 1.25, Pitch: 0.5, FovY: 0.8, Radius: 3}) || s.Variant != 1 || s.Doc.Variants[1].Name != variant {
		t.Errorf("reopened: camera %+v, variant %d", s.Camera, s.Variant)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "recent.json")); !strings.Contains(string(data), variant) {
		t.Errorf("recent.json does not keep the variant: %s", data)
	}
	s.Close()
}

// TestPlayDefaultGravity: Play of a file without world gravity falls under
// standard gravity, the Play tab's notes say so, and the document neither
// gains a world gravity nor becomes modified (issue 22 item 1).
func TestPlayDefaultGravity(t *testing.T) {
	s := New()
	if err := s.LoadNow(filepath.Join("..", "..", "cmd", "viewer", "testdata", "sim_fall_nogravity.gltf")); err != nil {
		t.Fatal(err)
	}
	if g := s.PlayGravity(); !strings.Contains(g, "none in the file") || !strings.Contains(g, "9.80665") {
		t.Errorf("before Play the tab says %q, want the default gravity named", g)
	}
	s.StepPlay(240)
	if s.Play.Sim == nil {
		t.Fatalf("Play did not start: %q", s.Play.Error)
	}
	said := false
	for _, n := range s.Play.Notes {
		said = said || strings.Contains(n, "no world gravity")
	}
	if !said {
		t.Errorf("Play notes %q do not say the default gravity is used", s.Play.Notes)
	}
	b := s.Play.Sim.Bodies[0]
	if drop := 10 - b.Position[1]; drop < 4.85 || drop > 4.96 {
		t.Errorf("the ball dropped %.4g m in 1 s, want g/2 = 4.903", drop)
	}
	if s.Doc.WorldGravity != nil || s.Modified() {
		t.Errorf("after Play: world gravity %+v, modified %v; want none, false", s.Doc.WorldGravity, s.Modified())
	}
}

// TestPlayGravityOfFile: a file with a world gravity is said to use it.
func TestPlayGravityOfFile(t *testing.T) {
	s := New()
	if err := s.LoadNow(filepath.Join("..", "..", "cmd", "viewer", "testdata", "sim_fall.gltf")); err != nil {
		t.Fatal(err)
	}
	if g, want := s.PlayGravity(), "gravity: the file's world gravity, (0, -9.81, 0) m/s²"; g != want {
		t.Errorf("PlayGravity() = %q, want %q", g, want)
	}
}
