package scene_test

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"physview/internal/khronosval"
	"physview/internal/testcorpus"
	"physview/scene"
	"physview/scene/corecheck"
)

// TestSampleModelsAgreement validates the real sample models of the corpus
// (files no rule was tuned to) with the Khronos glTF-Validator run from npm
// and with scene.Load, and compares: whether a file has errors, and for the
// files Khronos flags whether an error code is shared. Codes of our own
// (not in corecheck.KhronosCodes, e.g. UNSUPPORTED_REQUIRED_EXTENSION) are
// left out of the comparison. It also reports how many of Khronos' codes of
// any severity we give.
func TestSampleModelsAgreement(t *testing.T) {
	corpus := testcorpus.Dir(t)
	dir := khronosval.Dir(t, testcorpus.Root(t))
	var files []string
	filepath.WalkDir(filepath.Join(corpus, "gltf-sample-assets"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".gltf") || strings.HasSuffix(p, ".glb")) {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	if len(files) == 0 {
		t.Skip("no sample models in the corpus")
	}
	reps, err := khronosval.Run(dir, t.TempDir(), files)
	if err != nil {
		t.Fatal(err)
	}
	total, agree, flagged, shared := 0, 0, 0, 0
	codesWant, codesGot, extra := 0, 0, 0
	for _, f := range files {
		rep, ok := reps[f]
		if !ok || rep.Err != "" {
			t.Logf("Khronos validator failed on %s: %s", f, rep.Err)
			continue
		}
		rel, _ := filepath.Rel(corpus, f)
		total++
		var got []string
		all := map[string]bool{}
		d, err := scene.Load(f)
		if err != nil {
			got = append(got, scene.ErrorCode(err))
		} else {
			for _, fd := range d.Findings() {
				all[fd.Code] = true
				if fd.Severity == scene.Error && corecheck.IsKhronosCode(fd.Code) && !slices.Contains(got, fd.Code) {
					got = append(got, fd.Code)
				}
			}
		}
		var want []string
		seen := map[string]bool{}
		for _, m := range rep.Messages {
			if m.Severity == 0 && !slices.Contains(want, m.Code) {
				want = append(want, m.Code)
			}
			if !seen[m.Code] {
				seen[m.Code] = true
				codesWant++
				if all[m.Code] || slices.Contains(got, m.Code) {
					codesGot++
				} else {
					t.Logf("code not given: %s %s", rel, m.Code)
				}
			}
		}
		for c := range all {
			if corecheck.IsKhronosCode(c) && !seen[c] {
				extra++
				t.Logf("code Khronos does not give: %s %s", rel, c)
			}
		}
		if (len(got) > 0) == (rep.NumErrors > 0) {
			agree++
		} else {
			t.Logf("disagree %s: Khronos %v, ours %v", rel, want, got)
		}
		if rep.NumErrors > 0 {
			flagged++
			for _, c := range got {
				if slices.Contains(want, c) {
					shared++
					break
				}
			}
		}
	}
	t.Logf("sample models vs Khronos: %d files, has-errors agree on %d; of %d files with Khronos errors, %d share an error code; %d of %d distinct (file, code) pairs of any severity given, %d given that Khronos does not give",
		total, agree, flagged, shared, codesGot, codesWant, extra)
	if total > 0 && float64(agree) < 0.95*float64(total) {
		t.Errorf("has-errors agreement %d/%d is below 95%%", agree, total)
	}
}
