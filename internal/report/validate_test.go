package report

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"physview/scene"
	cc "physview/scene/corecheck"
)

// TestKhronosSeverities checks the Khronos layout's severity numbers and
// counts: error 0, warning 1, info 2, and 3 for an Info whose Khronos
// severity is Hint; and a file that cannot be read is one IO_ERROR.
func TestKhronosSeverities(t *testing.T) {
	i := slices.IndexFunc(cc.KhronosCodes, func(k cc.KhronosCode) bool { return k.Hint })
	if i < 0 {
		t.Fatal("no Khronos code has severity Hint")
	}
	hint := cc.KhronosCodes[i].Code
	v := Validation{Path: "a.GLB", Findings: []scene.Finding{
		{Severity: scene.Error, Code: "E1", Path: "/nodes/0", Message: "bad"},
		{Severity: scene.Warning, Code: "W1", Path: "/meshes/1"},
		{Severity: scene.Info, Code: "I1"},
		{Severity: scene.Info, Code: hint},
		{Severity: scene.Error, Code: "E2"},
	}}
	r := v.Khronos()
	if r.MimeType != "model/gltf-binary" || r.URI != "a.GLB" {
		t.Errorf("uri %q, mime type %q", r.URI, r.MimeType)
	}
	if got := [4]int{r.Issues.NumErrors, r.Issues.NumWarnings, r.Issues.NumInfos, r.Issues.NumHints}; got != [4]int{2, 1, 1, 1} {
		t.Errorf("counts %v, want [2 1 1 1]", got)
	}
	var sev []int
	for _, m := range r.Issues.Messages {
		sev = append(sev, m.Severity)
	}
	if !slices.Equal(sev, []int{0, 1, 2, 3, 0}) {
		t.Errorf("severities %v, want [0 1 2 3 0]", sev)
	}
	if m := r.Issues.Messages[0]; m.Code != "E1" || m.Pointer != "/nodes/0" || m.Message != "bad" {
		t.Errorf("first message %+v", m)
	}

	r = Validation{Path: "b.gltf", Err: errors.New("b.gltf: gone")}.Khronos()
	if r.MimeType != "model/gltf+json" || r.Issues.NumErrors != 1 || len(r.Issues.Messages) != 1 || r.Issues.Messages[0].Code != "IO_ERROR" {
		t.Errorf("unreadable file: %+v", r)
	}
}

// TestValidateOrder checks that files keep their order whatever core
// validates them, that an unreadable file does not stop the others, and the
// summary lines.
func TestValidateOrder(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.gltf")
	if err := os.WriteFile(broken, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	paths, err := ExpandPaths([]string{corecheck + "camera_zfar.gltf", dir, corecheck + "buffer_no_uri.gltf"})
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 3 || paths[1] != broken {
		t.Fatalf("paths %v", paths)
	}
	results := Validate(paths, scene.Load)
	for i, v := range results {
		if v.Path != paths[i] {
			t.Errorf("result %d is %s, want %s", i, v.Path, paths[i])
		}
	}
	if results[1].Err == nil || results[0].Err != nil || !scene.HasErrors(results[0].Findings) {
		t.Errorf("errors: %v, %v, %v", results[0].Err, results[1].Err, results[2].Err)
	}
	var out bytes.Buffer
	WriteSummary(&out, results)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := []string{paths[0] + ": ERRORS, ", broken + ": cannot be read: ", paths[2] + ": ok, ", "3 files: 1 without errors, 1 with errors, 1 unreadable"}
	if len(lines) != len(want) {
		t.Fatalf("summary:\n%s", out.String())
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d %q, want it to start with %q", i, lines[i], w)
		}
	}
}

// TestValidatePanicIsInternal: a check that panics on one file gives that
// file an InternalError (the caller's exit status 3), and the others are
// still validated.
func TestValidatePanicIsInternal(t *testing.T) {
	open := func(p string) (*scene.Document, error) {
		if strings.HasSuffix(p, "boom.gltf") {
			panic("a check failed")
		}
		return scene.Load(p)
	}
	results := Validate([]string{corecheck + "camera_zfar.gltf", "boom.gltf"}, open)
	var ie *InternalError
	if !errors.As(results[1].Err, &ie) || ie.Path != "boom.gltf" {
		t.Errorf("boom.gltf: %v, want an InternalError", results[1].Err)
	}
	if results[0].Err != nil || len(results[0].Findings) == 0 {
		t.Errorf("camera_zfar.gltf: %v, %d findings", results[0].Err, len(results[0].Findings))
	}
}

// TestStatus checks the precedence of the exit statuses, 3 > 2 > 1 > 0,
// whatever the order of the files: a validator failure (a recovered panic)
// is 3, never 2, which means a file cannot be read.
func TestStatus(t *testing.T) {
	bad := []scene.Finding{{Severity: scene.Error, Code: "X"}}
	warn := []scene.Finding{{Severity: scene.Warning, Code: "W"}}
	gone := Validation{Err: errors.New("no such file")}
	panicked := Validation{Err: &InternalError{Path: "a", Value: "boom"}}
	wrapped := Validation{Err: fmt.Errorf("b: %w", &InternalError{Path: "b", Value: 1})}
	for _, tc := range []struct {
		name string
		in   []Validation
		want int
	}{
		{"none", nil, 0},
		{"clean", []Validation{{}, {Findings: warn}}, 0},
		{"errors", []Validation{{}, {Findings: bad}}, 1},
		{"unreadable after errors", []Validation{{Findings: bad}, gone}, 2},
		{"errors after unreadable", []Validation{gone, {Findings: bad}}, 2},
		{"panic first", []Validation{panicked, gone, {Findings: bad}}, 3},
		{"panic last", []Validation{{Findings: bad}, gone, panicked}, 3},
		{"wrapped panic", []Validation{gone, wrapped}, 3},
	} {
		if got := Status(tc.in); got != tc.want {
			t.Errorf("%s: status %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestParseFormat checks how -format and -json combine.
func TestParseFormat(t *testing.T) {
	for _, c := range []struct {
		format  string
		asJSON  bool
		want    Format
		wantErr string
	}{
		{"text", false, FormatText, ""},
		{"text", true, FormatJSON, ""}, // -json alone: the default -format is text
		{"json", false, FormatJSON, ""},
		{"json", true, FormatJSON, ""},
		{"sarif", false, FormatSARIF, ""},
		{"sarif", true, "", "-json and -format sarif exclude each other"},
		{"xml", false, "", `unknown -format "xml" (text, json or sarif)`},
		{"SARIF", false, "", `unknown -format "SARIF" (text, json or sarif)`},
		{"", true, "", `unknown -format "" (text, json or sarif)`},
	} {
		got, err := ParseFormat(c.format, c.asJSON)
		if got != c.want || (err == nil) != (c.wantErr == "") || (err != nil && err.Error() != c.wantErr) {
			t.Errorf("ParseFormat(%q, %v) = %q, %v; want %q, %q", c.format, c.asJSON, got, err, c.want, c.wantErr)
		}
	}
}

// TestFormatWrite: each layout starts as its writer's does, and a Khronos
// report of one file is an object, of several a list.
func TestFormatWrite(t *testing.T) {
	results := []Validation{{Path: "a.gltf"}, {Path: "b.gltf", Findings: []scene.Finding{{Severity: scene.Error, Code: "E1"}}}}
	for _, c := range []struct {
		f      Format
		single bool
		in     []Validation
		prefix string
	}{
		{FormatText, false, results, "a.gltf: ok, 0 errors"},
		{FormatJSON, false, results, "[\n"},
		{FormatJSON, true, results[:1], "{\n"},
		{FormatSARIF, false, results, "{\n  \"$schema\""},
	} {
		var b bytes.Buffer
		if err := c.f.Write(&b, c.in, c.single); err != nil || !strings.HasPrefix(b.String(), c.prefix) {
			t.Errorf("%s (single %v): %v, output:\n%.200s\nwant it to start %q", c.f, c.single, err, b.String(), c.prefix)
		}
	}
}
