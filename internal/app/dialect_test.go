package app

import (
	"path/filepath"
	"strings"
	"testing"

	"physview/scene"
)

// TestConvertPhysicsIntent: choosing another dialect in the Physics tab is
// one undoable edit, the notice lists what the target cannot hold, and
// Save as writes the chosen dialect.
func TestConvertPhysicsIntent(t *testing.T) {
	s := New()
	if err := s.LoadNow("../../scene/testdata/dialects/scene_gltf21.gltf"); err != nil {
		t.Fatal(err)
	}
	s.Do(ConvertPhysics{To: scene.DialectKHR})
	if s.Doc.PhysicsDialect() != scene.DialectKHR || !strings.Contains(s.msg.Text, "boundingVolume is glTF 2.1 core") {
		t.Fatalf("dialect %v, notice %q", s.Doc.PhysicsDialect(), s.msg.Text)
	}
	if s.Hist.UndoName() != "Write physics as khr" {
		t.Errorf("undo %q", s.Hist.UndoName())
	}
	out := filepath.Join(t.TempDir(), "k.gltf")
	if !s.SaveAs(out) {
		t.Fatal(s.msg.Text)
	}
	d, err := scene.Load(out)
	if err != nil || d.PhysicsDialect() != scene.DialectKHR || d.GLTFVersion() != "2.0" {
		t.Fatalf("%v: saved as %v, version %s", err, d.PhysicsDialect(), d.GLTFVersion())
	}
	s.Do(Undo{})
	if s.Doc.PhysicsDialect() != scene.DialectGLTF21 {
		t.Errorf("after undo: %v", s.Doc.PhysicsDialect())
	}
}
