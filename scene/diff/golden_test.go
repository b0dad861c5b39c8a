package diff

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"physview/scene"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// golden compares got with testdata/golden/name (rewritten with -update).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	p := filepath.Join("testdata", "golden", name)
	if *update {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n%s", name, got)
	}
}

// TestGolden keeps the text, JSON and SARIF reports of a pair with
// several changes (a heavier crate, a renamed lamp, a floor turned into a
// trigger, a joint), and the canonical summary of base.gltf.
func TestGolden(t *testing.T) {
	b := editBase(t, func(d *scene.Document) []scene.Edit {
		m := *d.Nodes[1].Body.Motion
		m.Mass = 7.5
		m.LinearVelocity = [3]float64{1, 0, 0}
		return []scene.Edit{
			d.SetMotionEdit(1, &m, ""),
			scene.SetNodeName{Node: 3, To: "Lantern"},
			d.RemoveColliderEdit(2),
			d.AddJointEdit(4, 1),
		}
	})
	a := load(t, filepath.Join("testdata", "base.gltf"))
	r, err := Compare(a, load(t, b))
	if err != nil {
		t.Fatal(err)
	}
	r.A, r.B = "base.gltf", "b.gltf"
	var text, js, sarif, summary bytes.Buffer
	r.WriteText(&text)
	r.WriteJSON(&js)
	r.WriteSARIF(&sarif)
	if err := WriteSummary(&summary, a); err != nil {
		t.Fatal(err)
	}
	golden(t, "several.txt", text.Bytes())
	golden(t, "several.json", js.Bytes())
	golden(t, "several.sarif", sarif.Bytes())
	golden(t, "base_summary.txt", summary.Bytes())
}
