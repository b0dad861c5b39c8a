package scene_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"physview/internal/testcorpus"
	"physview/scene"
	"physview/scene/corecheck"
)

// khronosReport is the part of a Khronos glTF-Validator report the test reads.
type khronosReport struct {
	Issues struct {
		NumErrors int `json:"numErrors"`
		Messages  []struct {
			Code     string `json:"code"`
			Severity int    `json:"severity"`
		} `json:"messages"`
	} `json:"issues"`
}

// TestKhronosAgreement loads every file of the Khronos validator's own test
// set and compares with the report Khronos gives for it: a file without
// errors must open with no error finding; a file with errors must get at
// least one error (or not open), ideally with a code Khronos also gives.
func TestKhronosAgreement(t *testing.T) {
	dir := filepath.Join(testcorpus.Dir(t), "khronos-gltf-validator", "test")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no Khronos validator test files at %s", dir)
	}
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".gltf") || strings.HasSuffix(p, ".glb")) {
			files = append(files, p)
		}
		return nil
	})
	total, agree, flagged, shared := 0, 0, 0, 0
	pairsWant, pairsGot, pairsExtra := 0, 0, 0
	for _, f := range files {
		raw, err := os.ReadFile(f + ".report.json")
		if err != nil {
			continue
		}
		var rep khronosReport
		if err := json.Unmarshal(raw, &rep); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		rel, _ := filepath.Rel(dir, f)
		total++
		want := map[string]bool{}
		for _, m := range rep.Issues.Messages {
			if m.Severity == 0 {
				want[m.Code] = true
			}
		}
		var got []string
		d, err := scene.Load(f)
		any := map[string]bool{}
		if err != nil {
			got = append(got, scene.ErrorCode(err))
			any[scene.ErrorCode(err)] = true
			// The GLB container's problems found before the one that
			// stopped the reading.
			var le *scene.LoadError
			if errors.As(err, &le) {
				for _, fd := range le.Findings {
					any[fd.Code] = true
					if fd.Severity == scene.Error && !slices.Contains(got, fd.Code) {
						got = append(got, fd.Code)
					}
				}
			}
		} else {
			for _, fd := range d.Findings() {
				any[fd.Code] = true
				if fd.Severity == scene.Error && !slices.Contains(got, fd.Code) {
					got = append(got, fd.Code)
				}
			}
		}
		wantAny := map[string]bool{}
		for _, m := range rep.Issues.Messages {
			wantAny[m.Code] = true
		}
		for c := range wantAny {
			pairsWant++
			if any[c] {
				pairsGot++
			} else {
				t.Logf("code not given: %s %s", rel, c)
			}
		}
		for c := range any {
			if corecheck.IsKhronosCode(c) && !wantAny[c] {
				pairsExtra++
				t.Logf("code Khronos does not give: %s %s", rel, c)
			}
		}
		khronosErr := rep.Issues.NumErrors > 0
		if (len(got) > 0) == khronosErr {
			agree++
		} else {
			wantList := make([]string, 0, len(want))
			for c := range want {
				wantList = append(wantList, c)
			}
			t.Logf("disagree %s: Khronos %v, ours %v (load error %v)", rel, wantList, got, err)
		}
		if khronosErr {
			flagged++
			hit := false
			for _, c := range got {
				if want[c] {
					hit = true
				}
			}
			if hit {
				shared++
			} else if len(got) > 0 {
				wantList := make([]string, 0, len(want))
				for c := range want {
					wantList = append(wantList, c)
				}
				t.Logf("no shared code %s: Khronos %v, ours %v", rel, wantList, got)
			}
		}
	}
	agreement := float64(agree) / float64(total)
	codes := float64(shared) / float64(flagged)
	t.Logf("Khronos agreement: %d files, has-errors agree on %d (%.1f%%); of %d files with Khronos errors, %d share an error code (%.1f%%)",
		total, agree, 100*agreement, flagged, shared, 100*codes)
	t.Logf("all severities: %d of %d distinct (file, code) pairs of Khronos given; %d Khronos codes given that its report does not have",
		pairsGot, pairsWant, pairsExtra)
	if agreement < 0.98 {
		t.Errorf("has-errors agreement %.1f%% is below the 98%% goal", 100*agreement)
	}
	if codes < 0.90 {
		t.Errorf("shared codes on %.1f%% of flagged files, below the 90%% goal", 100*codes)
	}
}
