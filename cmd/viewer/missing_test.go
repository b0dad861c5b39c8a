package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"physview/internal/report"
)

// TestMissingBufferCommands: a .gltf whose buffers[1].uri names a file that
// does not exist is read, as Khronos reads it: validate (text and -json)
// reports IO_ERROR at /buffers/1/uri with every other check run and exits
// 1 (errors), not 2 (cannot be read); inspect shows the finding; screenshot
// draws what has data, names the mesh that has none and does not exit 0.
func TestMissingBufferCommands(t *testing.T) {
	file := fixtures + "missing/missing_buffer.gltf"
	const finding = "Resource not found (gone.bin)."
	for _, tc := range []struct {
		args []string
		code int
		// out and errOut must contain these.
		out, errOut []string
	}{
		{[]string{"validate", file}, 1, []string{"IO_ERROR /buffers/1/uri: " + finding}, nil},
		{[]string{"inspect", file}, 0, []string{"error /buffers/1/uri: " + finding, `1 "gone": collider shape 0`}, nil},
		{[]string{"screenshot", "-size", "64x48", "-o", filepath.Join(t.TempDir(), "x.png"), file}, 1, []string{"wrote "},
			[]string{`mesh 1 "gone" is not drawn: its file gone.bin was not found (buffer 1, POSITION accessor 1 of primitive 0)`}},
	} {
		code, out, errOut := runCLI(tc.args...)
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d\n%s%s", tc.args[0], code, tc.code, out, errOut)
		}
		for _, s := range tc.out {
			if !strings.Contains(out, s) {
				t.Errorf("%s: output lacks %q:\n%s", tc.args[0], s, out)
			}
		}
		for _, s := range tc.errOut {
			if !strings.Contains(errOut, s) {
				t.Errorf("%s: stderr lacks %q:\n%s", tc.args[0], s, errOut)
			}
		}
	}

	code, out, errOut := runCLI("validate", "-json", file)
	if code != 1 {
		t.Errorf("validate -json: exit %d, want 1: %s", code, errOut)
	}
	var r report.Khronos
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not a report: %v\n%s", err, out)
	}
	want := report.KhronosMessage{Code: "IO_ERROR", Message: finding, Severity: 0, Pointer: "/buffers/1/uri"}
	if r.Issues.NumErrors != 1 || len(r.Issues.Messages) != 1 || r.Issues.Messages[0] != want {
		t.Errorf("report %+v, want the one message %+v", r.Issues, want)
	}
}
