package report

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"physview/internal/khronosval"
	"physview/internal/testcorpus"
	"physview/scene"
	cc "physview/scene/corecheck"
)

// msgKey is what makes two report messages the same: code, severity and
// where (the JSON pointer, or a GLB container's byte offset).
type msgKey struct {
	Code     string
	Severity int
	Where    string
}

func (k msgKey) String() string { return fmt.Sprintf("%s/%d %s", k.Code, k.Severity, k.Where) }

func keyOf(code string, severity int, pointer string, offset *int64) msgKey {
	if offset != nil {
		return msgKey{code, severity, fmt.Sprintf("byte %d", *offset)}
	}
	return msgKey{code, severity, pointer}
}

// messageDiff compares the messages of one file: the keys Khronos gives
// that we lack (missing) and ours with a Khronos code it lacks (extra).
// Codes of our own are left out.
type messageDiff struct {
	file            string
	want, got       map[string]bool
	missing, extra  []msgKey
	wantN, givenN   int
	wantErr, gotErr bool
}

func compareMessages(file string, khronos []khronosval.Message, ours Khronos) messageDiff {
	d := messageDiff{file: file, want: map[string]bool{}, got: map[string]bool{}}
	want := map[msgKey]bool{}
	for _, m := range khronos {
		want[keyOf(m.Code, m.Severity, m.Pointer, m.Offset)] = true
		d.wantErr = d.wantErr || m.Severity == 0
	}
	got := map[msgKey]bool{}
	for _, m := range ours.Issues.Messages {
		if !cc.IsKhronosCode(m.Code) {
			continue
		}
		got[keyOf(m.Code, m.Severity, m.Pointer, m.Offset)] = true
		d.gotErr = d.gotErr || m.Severity == 0
	}
	for k := range want {
		d.wantN++
		if got[k] {
			d.givenN++
		} else {
			d.missing = append(d.missing, k)
		}
	}
	for k := range got {
		if !want[k] {
			d.extra = append(d.extra, k)
		}
	}
	return d
}

// logMessageDiffs logs, grouped by code, the messages Khronos gives that
// we do not and ours it does not give, and returns the counts: files with
// identical sets, Khronos messages given, Khronos messages, has-errors
// agreeing.
func logMessageDiffs(t *testing.T, diffs []messageDiff) (same, given, want, errAgree int) {
	t.Helper()
	missing := map[string][]string{}
	extra := map[string][]string{}
	for _, d := range diffs {
		if len(d.missing) == 0 && len(d.extra) == 0 {
			same++
		}
		given += d.givenN
		want += d.wantN
		if d.wantErr == d.gotErr {
			errAgree++
		}
		for _, k := range d.missing {
			missing[k.Code] = append(missing[k.Code], fmt.Sprintf("%s: %s", d.file, k))
		}
		for _, k := range d.extra {
			extra[k.Code] = append(extra[k.Code], fmt.Sprintf("%s: %s", d.file, k))
		}
	}
	for _, group := range []struct {
		what string
		m    map[string][]string
	}{{"Khronos gives, we do not", missing}, {"we give, Khronos does not", extra}} {
		codes := make([]string, 0, len(group.m))
		for c := range group.m {
			codes = append(codes, c)
		}
		sort.Strings(codes)
		for _, c := range codes {
			list := group.m[c]
			sort.Strings(list)
			if len(list) > 8 && os.Getenv("PHYSVIEW_COMPARE_ALL") == "" {
				list = append(list[:8:8], fmt.Sprintf("... %d more (PHYSVIEW_COMPARE_ALL=1 lists them)", len(group.m[c])-8))
			}
			t.Logf("%s: %s (%d)\n\t%s", group.what, c, len(group.m[c]), strings.Join(list, "\n\t"))
		}
	}
	return same, given, want, errAgree
}

// validateForKhronos validates files as `viewer validate -json` does.
func validateForKhronos(files []string) map[string]Khronos {
	out := map[string]Khronos{}
	for _, v := range Validate(files, func(p string) (*scene.Document, error) { return scene.Load(p) }) {
		out[v.Path] = v.Khronos()
	}
	return out
}

// TestKhronosSuiteMessages compares, message by message (code, severity,
// pointer or byte offset), our Khronos-layout report of every file of the
// Khronos validator's test suite with the report beside it, and logs the
// differences grouped by code (-v). The counts are docs/validation.md's "same set of
// messages" figures; the floors only catch a large regression.
func TestKhronosSuiteMessages(t *testing.T) {
	dir := filepath.Join(testcorpus.Dir(t), "khronos-gltf-validator", "test")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no Khronos validator test files at %s", dir)
	}
	var files []string
	filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() && (strings.HasSuffix(p, ".gltf") || strings.HasSuffix(p, ".glb")) {
			if _, err := os.Stat(p + ".report.json"); err == nil {
				files = append(files, p)
			}
		}
		return nil
	})
	sort.Strings(files)
	ours := validateForKhronos(files)
	var diffs []messageDiff
	for _, f := range files {
		raw, err := os.ReadFile(f + ".report.json")
		if err != nil {
			t.Fatal(err)
		}
		var rep struct {
			Issues struct {
				Messages []khronosval.Message `json:"messages"`
			} `json:"issues"`
		}
		if err := json.Unmarshal(raw, &rep); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		rel, _ := filepath.Rel(dir, f)
		diffs = append(diffs, compareMessages(rel, rep.Issues.Messages, ours[f]))
	}
	same, given, want, errAgree := logMessageDiffs(t, diffs)
	t.Logf("Khronos suite: %d files, %d with the same set of messages, has-errors agree on %d; %d of Khronos's %d messages given",
		len(files), same, errAgree, given, want)
	if len(files) > 0 && float64(same) < 0.85*float64(len(files)) {
		t.Errorf("only %d of %d reports are the same set of messages", same, len(files))
	}
}

// TestKhronosValidatorMessages runs the Khronos validator (npm, see
// internal/khronosval) and ours on the sample models of the corpus, or on
// the .gltf/.glb files under $PHYSVIEW_COMPARE_DIR (files of one's own,
// e.g. glTF-Transform variants), and logs the differences grouped by code
// (-v).
func TestKhronosValidatorMessages(t *testing.T) {
	root := os.Getenv("PHYSVIEW_COMPARE_DIR")
	if root == "" {
		root = filepath.Join(testcorpus.Dir(t), "gltf-sample-assets")
	}
	vdir := khronosval.Dir(t, testcorpus.Root(t))
	var files []string
	filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() && (strings.HasSuffix(p, ".gltf") || strings.HasSuffix(p, ".glb")) {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	if len(files) == 0 {
		t.Skipf("no .gltf or .glb files under %s", root)
	}
	reps, err := khronosval.Run(vdir, t.TempDir(), files)
	if err != nil {
		t.Fatal(err)
	}
	ours := validateForKhronos(files)
	var diffs []messageDiff
	pairsWant, pairsGot, pairsExtra, flagged, shared := 0, 0, 0, 0, 0
	for _, f := range files {
		rep, ok := reps[f]
		if !ok || rep.Err != "" {
			t.Logf("Khronos validator failed on %s: %s", f, rep.Err)
			continue
		}
		rel, _ := filepath.Rel(root, f)
		d := compareMessages(rel, rep.Messages, ours[f])
		for _, m := range rep.Messages {
			d.want[m.Code] = true
		}
		for _, m := range ours[f].Issues.Messages {
			d.got[m.Code] = true
		}
		for c := range d.want {
			pairsWant++
			if d.got[c] {
				pairsGot++
			}
		}
		for c := range d.got {
			if cc.IsKhronosCode(c) && !d.want[c] {
				pairsExtra++
			}
		}
		if d.wantErr {
			flagged++
			for _, m := range ours[f].Issues.Messages {
				if m.Severity == 0 && rep.NumErrors > 0 && hasError(rep.Messages, m.Code) {
					shared++
					break
				}
			}
		}
		diffs = append(diffs, d)
	}
	same, given, want, errAgree := logMessageDiffs(t, diffs)
	t.Logf("%s: %d files, %d with the same set of messages, has-errors agree on %d; %d of Khronos's %d messages given; "+
		"of %d files with Khronos errors %d share an error code; %d of %d (file, code) pairs given, %d Khronos codes given that its report lacks",
		root, len(diffs), same, errAgree, given, want, flagged, shared, pairsGot, pairsWant, pairsExtra)
	// Floors for the corpus' sample models only (files of one's own are
	// measured, not judged): they catch a large regression.
	if os.Getenv("PHYSVIEW_COMPARE_DIR") == "" && len(diffs) > 0 {
		if float64(errAgree) < 0.95*float64(len(diffs)) {
			t.Errorf("has-errors agrees on %d of %d sample models, below 95%%", errAgree, len(diffs))
		}
		if float64(same) < 0.7*float64(len(diffs)) {
			t.Errorf("%d of %d sample models get Khronos' set of messages, below 70%%", same, len(diffs))
		}
	}
}

// hasError reports whether msgs has an error with code.
func hasError(msgs []khronosval.Message, code string) bool {
	for _, m := range msgs {
		if m.Severity == 0 && m.Code == code {
			return true
		}
	}
	return false
}
