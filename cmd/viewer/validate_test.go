package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"physview/internal/report"
	"physview/scene"
)

const corecheck = fixtures + "corecheck/"

// TestValidateJSON checks the Khronos report layout: counts, and messages
// with code, severity 0-3 and pointer.
func TestValidateJSON(t *testing.T) {
	code, out, errOut := runCLI("validate", "-json", corecheck+"accessor_too_long.gltf")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (errors): %s", code, errOut)
	}
	var r report.Khronos
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not a report: %v\n%s", err, out)
	}
	if r.Issues.NumErrors != 1 || len(r.Issues.Messages) != 1 {
		t.Fatalf("report %+v, want one error", r.Issues)
	}
	m := r.Issues.Messages[0]
	if m.Code != "ACCESSOR_TOO_LONG" || m.Severity != 0 || m.Pointer != "/accessors/0" {
		t.Errorf("message %+v, want ACCESSOR_TOO_LONG, severity 0, /accessors/0", m)
	}
	for _, key := range []string{`"numErrors"`, `"numWarnings"`, `"numInfos"`, `"numHints"`, `"messages"`, `"pointer"`} {
		if !strings.Contains(out, key) {
			t.Errorf("report lacks %s", key)
		}
	}

	// An unreadable file: exit 2 and one error with the Khronos code.
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.gltf")
	os.WriteFile(broken, []byte("{"), 0o644)
	code, out, _ = runCLI("validate", "-json", broken)
	if code != 2 || !strings.Contains(out, `"code": "INVALID_JSON"`) {
		t.Errorf("broken file: exit %d, report:\n%s", code, out)
	}
}

// TestValidateMany checks folders and several files: one line per file, a
// summary, and the worst exit status.
func TestValidateMany(t *testing.T) {
	cases := []struct {
		args  []string
		code  int
		lines []string
	}{
		{[]string{corecheck + "buffer_no_uri.gltf", corecheck + "integer_as_float.gltf"}, 0,
			[]string{"buffer_no_uri.gltf: ok, 0 errors", "integer_as_float.gltf: ok, 0 errors", "2 files: 2 without errors, 0 with errors, 0 unreadable"}},
		{[]string{corecheck + "buffer_no_uri.gltf", corecheck + "camera_zfar.gltf"}, 1,
			[]string{"camera_zfar.gltf: ERRORS, 1 errors", "2 files: 1 without errors, 1 with errors, 0 unreadable"}},
		{[]string{corecheck + "buffer_no_uri.gltf", "nope.gltf"}, 2,
			[]string{"nope.gltf: cannot be read: ", "2 files: 1 without errors, 0 with errors, 1 unreadable"}},
		{[]string{corecheck}, 1, []string{"44 files: 6 without errors, 38 with errors, 0 unreadable"}},
	}
	for _, c := range cases {
		code, out, errOut := runCLI(append([]string{"validate"}, c.args...)...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d (%s)\n%s", c.args, code, c.code, errOut, out)
		}
		for _, l := range c.lines {
			if !strings.Contains(out, l) {
				t.Errorf("%v: output lacks %q:\n%s", c.args, l, out)
			}
		}
	}
	// -json over several files is a JSON array of reports.
	_, out, _ := runCLI("validate", "-json", corecheck+"buffer_no_uri.gltf", corecheck+"camera_zfar.gltf")
	var rs []report.Khronos
	hasZfar := func(r report.Khronos) bool {
		for _, m := range r.Issues.Messages {
			if m.Code == "CAMERA_ZFAR_LEQUAL_ZNEAR" && m.Severity == 0 {
				return true
			}
		}
		return false
	}
	if err := json.Unmarshal([]byte(out), &rs); err != nil || len(rs) != 2 || rs[1].Issues.NumErrors != 1 || !hasZfar(rs[1]) {
		t.Errorf("reports %+v (%v)", rs, err)
	}
}

// TestValidateShowsCodes checks the single-file listing names each rule.
func TestValidateShowsCodes(t *testing.T) {
	_, out, _ := runCLI("validate", corecheck+"camera_zfar.gltf")
	if !strings.Contains(out, "error   CAMERA_ZFAR_LEQUAL_ZNEAR /cameras/0/perspective: zfar must be greater than znear") {
		t.Errorf("output:\n%s", out)
	}
}

// TestValidateStatus: report.Status's status for a validator failure (a
// recovered panic) is the viewer's exitInternal, never 2, which means a
// file cannot be read (report's tests check the precedence).
func TestValidateStatus(t *testing.T) {
	bad := []scene.Finding{{Severity: scene.Error, Code: "X"}}
	in := []report.Validation{{Err: errors.New("no such file")}, {Err: &report.InternalError{Path: "a", Value: "boom"}}, {Findings: bad}}
	if got := report.Status(in); got != exitInternal {
		t.Errorf("status %d, want exitInternal (%d)", got, exitInternal)
	}
}
