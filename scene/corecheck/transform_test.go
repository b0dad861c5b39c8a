package corecheck

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/fstest"

	"physview/internal/khronosval"
	"physview/internal/testcorpus"
)

// codesOf returns the sorted, distinct codes of the error and warning
// findings.
func codesOf(fs []Finding) []string {
	var c []string
	for _, f := range fs {
		if f.Severity >= Warning && !slices.Contains(c, f.Code) {
			c = append(c, f.Code)
		}
	}
	slices.Sort(c)
	return c
}

// TestBufferWithoutByteLength checks a buffer whose byteLength is missing or
// invalid gets the schema finding and nothing else, as from the Khronos
// validator 2.0.0-dev.3.10: its bytes are not looked for (no
// BUFFER_MISSING_GLB_DATA, BUFFER_GLB_CHUNK_TOO_BIG or IO_ERROR) and buffer
// views into it are not measured against it (no BUFFER_VIEW_TOO_LONG).
// glTF-Transform writes an empty GLB buffer that way (join_physics.glb).
func TestBufferWithoutByteLength(t *testing.T) {
	join, err := os.ReadFile(filepath.Join("testdata", "transform", "join_physics.glb"))
	if err != nil {
		t.Fatal(err)
	}
	view := `"bufferViews":[{"buffer":0,"byteLength":4}]`
	cases := []struct {
		name string
		data []byte
		want []string
	}{
		{"gltf-transform join", join, []string{"EMPTY_ENTITY", "UNDEFINED_PROPERTY"}},
		{"glb no BIN chunk", glbOf(`{"asset":{"version":"2.0"},"buffers":[{}]}`, nil), []string{"UNDEFINED_PROPERTY"}},
		{"glb with BIN chunk", glbOf(`{"asset":{"version":"2.0"},"buffers":[{}]}`, []byte("abcd")), []string{"UNDEFINED_PROPERTY"}},
		{"glb view into it", glbOf(`{"asset":{"version":"2.0"},"buffers":[{}],`+view+`}`, nil), []string{"UNDEFINED_PROPERTY"}},
		{"glb byteLength 0", glbOf(`{"asset":{"version":"2.0"},"buffers":[{"byteLength":0}]}`, nil), []string{"VALUE_NOT_IN_RANGE"}},
		{"glb byteLength -1", glbOf(`{"asset":{"version":"2.0"},"buffers":[{"byteLength":-1}]}`, nil), []string{"VALUE_NOT_IN_RANGE"}},
		{"glb byteLength string", glbOf(`{"asset":{"version":"2.0"},"buffers":[{"byteLength":"4"}]}`, nil), []string{"TYPE_MISMATCH"}},
		{"gltf missing file", []byte(`{"asset":{"version":"2.0"},"buffers":[{"uri":"nope.bin"}]}`), []string{"UNDEFINED_PROPERTY"}},
		{"gltf file, view into it", []byte(`{"asset":{"version":"2.0"},"buffers":[{"uri":"d.bin"}],` + view + `}`), []string{"UNDEFINED_PROPERTY"}},
		{"gltf byteLength 1.5", []byte(`{"asset":{"version":"2.0"},"buffers":[{"uri":"d.bin","byteLength":1.5}],` + view + `}`), []string{"TYPE_MISMATCH"}},
		// With a byteLength the buffer is read and measured as before.
		{"gltf byteLength 2", []byte(`{"asset":{"version":"2.0"},"buffers":[{"uri":"d.bin","byteLength":2}],` + view + `}`), []string{"BUFFER_VIEW_TOO_LONG"}},
		{"glb byteLength 4 no BIN", glbOf(`{"asset":{"version":"2.0"},"buffers":[{"byteLength":4}]}`, nil), []string{"BUFFER_MISSING_GLB_DATA"}},
	}
	dir := fstest.MapFS{"d.bin": {Data: []byte{1, 2, 3, 4}}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := Decode(c.data, dir, Options{})
			if err != nil {
				t.Fatalf("does not open: %v", err)
			}
			if got := codesOf(res.Findings); !slices.Equal(got, c.want) {
				t.Errorf("codes %v, want %v: %v", got, c.want, res.Findings)
			}
		})
	}
}

// glbOf is a GLB container of the JSON text js and, when bin is not nil, a
// BIN chunk.
func glbOf(js string, bin []byte) []byte {
	for len(js)%4 != 0 {
		js += " "
	}
	le := func(b []byte, v int) []byte { return append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24)) }
	body := append(le(le(nil, len(js)), 0x4E4F534A), js...)
	if bin != nil {
		body = append(le(le(body, len(bin)), 0x004E4942), bin...)
	}
	return append(le(le(le(nil, GLBMagic), 2), 12+len(body)), body...)
}

// TestTransformVariantsAgreeWithKhronos validates the glTF-Transform
// fixtures of testdata/transform with the Khronos validator (skipped
// without node and the npm package) and with Decode: the same error codes.
func TestTransformVariantsAgreeWithKhronos(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "transform", "*.gl*"))
	if len(files) == 0 {
		t.Fatal("no fixtures in testdata/transform")
	}
	dir := khronosval.Dir(t, testcorpus.Root(t))
	reps, err := khronosval.Run(dir, t.TempDir(), files)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		rep, ok := reps[f]
		if !ok || rep.Err != "" {
			t.Errorf("Khronos validator failed on %s: %s", f, rep.Err)
			continue
		}
		var want []string
		for _, m := range rep.Messages {
			if m.Severity == 0 && !slices.Contains(want, m.Code) {
				want = append(want, m.Code)
			}
		}
		slices.Sort(want)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Decode(data, os.DirFS(filepath.Dir(f)), Options{})
		if err != nil {
			t.Errorf("%s: does not open: %v", f, err)
			continue
		}
		var got []string
		for _, fd := range res.Findings {
			if fd.Severity == Error && !slices.Contains(got, fd.Code) {
				got = append(got, fd.Code)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: error codes %v, Khronos %v", f, got, want)
		}
	}
}
