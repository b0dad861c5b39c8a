package diff

import (
	"path/filepath"
	"strings"
	"testing"

	"physview/internal/testcorpus"
	"physview/scene"
)

// TestCorpus runs the diff over the corpus: every model compared with
// itself is equal; saved again (a lossless save that rewrites the JSON) it
// is equal; a model with physics converted to the other dialect (OMI ↔
// KHR) and saved differs by the one "dialect changed …, physics equal"
// change, except where the conversion cannot carry a value (a KHR infinite
// inertia has no OMI form; the conversion warns about it) and the diff
// says so. Models the loader refuses are left out.
func TestCorpus(t *testing.T) {
	dir := testcorpus.Dir(t)
	resaved, converted := 0, 0
	text := func(r Report) string {
		var sb strings.Builder
		r.WriteText(&sb)
		return sb.String()
	}
	for _, rel := range testcorpus.Models(t, ".gltf", ".glb") {
		d, err := scene.Load(filepath.Join(dir, rel))
		if err != nil {
			continue
		}
		if r := compare(t, d, d); !r.Equal {
			t.Errorf("%s with itself:\n%s", rel, text(r))
			continue
		}
		out := filepath.Join(t.TempDir(), filepath.Base(rel))
		if err := d.Save(out); err != nil {
			continue // a save refused (a model with a missing buffer, say) is not this test's matter
		}
		b, err := scene.Load(out)
		if err != nil {
			t.Errorf("%s: the saved copy does not load: %v", rel, err)
			continue
		}
		if r := compare(t, d, b); !r.Equal {
			t.Errorf("%s saved again:\n%s", rel, text(r))
		}
		resaved++
		if !hasPhysics(d) {
			continue
		}
		other := scene.DialectKHR
		if d.PhysicsDialect() == scene.DialectKHR {
			other = scene.DialectOMI
		}
		c := d.Clone()
		c.SetPhysicsDialect(other)
		conv := filepath.Join(t.TempDir(), filepath.Base(rel))
		if err := c.Save(conv); err != nil {
			continue
		}
		if b, err = scene.Load(conv); err != nil {
			t.Errorf("%s converted: %v", rel, err)
			continue
		}
		converted++
		r := compare(t, d, b)
		if r.Equal {
			t.Errorf("%s converted: equal", rel)
			continue
		}
		last := r.Changes[len(r.Changes)-1]
		if last.Category != Physics || !strings.HasPrefix(last.Summary, "dialect changed") {
			t.Errorf("%s converted: no dialect change:\n%s", rel, text(r))
			continue
		}
		for _, ch := range r.Changes[:len(r.Changes)-1] {
			if ch.Summary != "inertia infinite → computed" {
				t.Errorf("%s converted:\n%s", rel, text(r))
				break
			}
		}
	}
	t.Logf("%d models saved again, %d converted", resaved, converted)
	if resaved < 50 || converted < 20 {
		t.Errorf("only %d models saved again and %d converted", resaved, converted)
	}
}

func compare(t *testing.T, a, b *scene.Document) Report {
	t.Helper()
	r, err := Compare(a, b)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
