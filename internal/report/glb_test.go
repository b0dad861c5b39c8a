package report

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"physview/scene"
)

// TestKhronosGLBMessages: a problem with a GLB container's structure is
// written with its byte offset and no pointer, as Khronos writes it; every
// other message keeps its pointer (also ""). A file whose reading stopped
// lists the problems found before, then the one that stopped it.
func TestKhronosGLBMessages(t *testing.T) {
	stop := &scene.LoadError{Code: "GLB_UNEXPECTED_END_OF_CHUNK_DATA", Err: fmt.Errorf("truncated GLB"), Offset: 48,
		Findings: []scene.Finding{{Severity: scene.Error, Code: "GLB_CHUNK_TOO_BIG", Offset: 12, Message: "too big"}}}
	for _, tc := range []struct {
		name string
		v    Validation
		want string
		errs int
	}{
		{"findings", Validation{Path: "a.glb", Findings: []scene.Finding{
			{Severity: scene.Warning, Code: "GLB_UNKNOWN_CHUNK_TYPE", Offset: 76, Message: "unknown"},
			{Severity: scene.Error, Code: "GLB_UNEXPECTED_BIN_CHUNK", Offset: 88, Message: "third"},
			{Severity: scene.Info, Code: "UNUSED_OBJECT", Path: "/buffers/0", Message: "unused"},
			{Severity: scene.Error, Code: "INVALID_JSON", Message: "broken"},
		}},
			`[{"code":"GLB_UNKNOWN_CHUNK_TYPE","message":"unknown","severity":1,"offset":76},` +
				`{"code":"GLB_UNEXPECTED_BIN_CHUNK","message":"third","severity":0,"offset":88},` +
				`{"code":"UNUSED_OBJECT","message":"unused","severity":2,"pointer":"/buffers/0"},` +
				`{"code":"INVALID_JSON","message":"broken","severity":0,"pointer":""}]`, 2},
		{"stopped", Validation{Path: "b.glb", Err: fmt.Errorf("b.glb: %w", stop)},
			`[{"code":"GLB_CHUNK_TOO_BIG","message":"too big","severity":0,"offset":12},` +
				`{"code":"GLB_UNEXPECTED_END_OF_CHUNK_DATA","message":"b.glb: truncated GLB","severity":0,"offset":48}]`, 2},
		{"magic", Validation{Path: "c.glb", Err: &scene.LoadError{Code: "GLB_INVALID_MAGIC", Err: fmt.Errorf("not a GLB")}},
			`[{"code":"GLB_INVALID_MAGIC","message":"not a GLB","severity":0,"offset":0}]`, 1},
		{"missing buffer", Validation{Path: "d.gltf", Err: &scene.LoadError{Code: "IO_ERROR", Err: fmt.Errorf("cannot read"), Pointer: "/buffers/0/uri"}},
			`[{"code":"IO_ERROR","message":"cannot read","severity":0,"pointer":"/buffers/0/uri"}]`, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.v.Khronos()
			got, err := json.Marshal(r.Issues.Messages)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("messages\n  %s\nwant\n  %s", got, tc.want)
			}
			if r.Issues.NumErrors != tc.errs {
				t.Errorf("numErrors %d, want %d", r.Issues.NumErrors, tc.errs)
			}
			// Read back, the offset is there and the pointer is not.
			var back []KhronosMessage
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			for i, m := range back {
				if glb := strings.HasPrefix(m.Code, "GLB_"); glb != (m.Offset != nil) {
					t.Errorf("message %d %s: offset %v", i, m.Code, m.Offset)
				}
			}
		})
	}
}

// TestWriteFindingsGLBOffset: the text listing places a GLB container's
// problem at its byte.
func TestWriteFindingsGLBOffset(t *testing.T) {
	var b strings.Builder
	WriteFindings(&b, "a.glb", []scene.Finding{
		{Severity: scene.Error, Code: "GLB_CHUNK_TOO_BIG", Offset: 12, Message: "too big"},
		{Severity: scene.Info, Code: "UNUSED_OBJECT", Path: "/buffers/0", Message: "unused"},
	})
	want := "a.glb\nfindings: 1 errors, 0 warnings, 1 notes\n  error   GLB_CHUNK_TOO_BIG byte 12: too big\n  info    UNUSED_OBJECT /buffers/0: unused\n"
	if b.String() != want {
		t.Errorf("listing\n%s\nwant\n%s", b.String(), want)
	}
}
