package main

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"physview/internal/report"
)

// TestValidateGLBProblems: a GLB whose first chunk is of an unknown type
// breaks two rules with one chunk, and validate reports both, at byte 12,
// as Khronos does: with the JSON chunk after it the document is read (exit
// 1, errors); without it the file cannot be read (exit 2), and the report
// still has both.
func TestValidateGLBProblems(t *testing.T) {
	chunk := func(typ string, data string) []byte {
		b := binary.LittleEndian.AppendUint32(nil, uint32(len(data)))
		return append(append(b, typ...), data...)
	}
	file := func(name string, chunks ...[]byte) string {
		b := append([]byte("glTF"), 2, 0, 0, 0, 0, 0, 0, 0)
		for _, c := range chunks {
			b = append(b, c...)
		}
		binary.LittleEndian.PutUint32(b[8:], uint32(len(b)))
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	unknown := chunk("UNKN", "abcd")
	json0 := chunk("JSON", `{"asset":{"version":"2.0"}}`+" ")
	both := []string{"GLB_UNEXPECTED_FIRST_CHUNK 0 @12", "GLB_UNKNOWN_CHUNK_TYPE 1 @12"}
	for _, tc := range []struct {
		name string
		path string
		code int
	}{
		{"JSON second", file("second.glb", unknown, json0), 1},
		{"no JSON", file("none.glb", unknown), 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI("validate", "-json", tc.path)
			if code != tc.code {
				t.Errorf("exit %d, want %d: %s", code, tc.code, errOut)
			}
			var r report.Khronos
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("not a report: %v\n%s", err, out)
			}
			var got []string
			for _, m := range r.Issues.Messages {
				if m.Offset == nil {
					t.Errorf("%s has no offset", m.Code)
					continue
				}
				got = append(got, fmt.Sprintf("%s %d @%d", m.Code, m.Severity, *m.Offset))
			}
			if strings.Join(got, ",") != strings.Join(both, ",") {
				t.Errorf("messages %q, want %q", got, both)
			}
			// The text listing has both too, at their byte.
			code, out, _ = runCLI("validate", tc.path)
			if code != tc.code || !strings.Contains(out, "GLB_UNEXPECTED_FIRST_CHUNK byte 12") || !strings.Contains(out, "GLB_UNKNOWN_CHUNK_TYPE byte 12") {
				t.Errorf("text: exit %d:\n%s", code, out)
			}
		})
	}
}
