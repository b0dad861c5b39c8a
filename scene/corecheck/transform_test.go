package corecheck

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
// without node and the npm package) and with Decode: the same codes at the
// same severities.
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
	// Khronos severities: 0 error, 1 warning, 2 info, 3 hint.
	sev := map[Severity]int{Error: 0, Warning: 1, Info: 2}
	for _, f := range files {
		rep, ok := reps[f]
		if !ok || rep.Err != "" {
			t.Errorf("Khronos validator failed on %s: %s", f, rep.Err)
			continue
		}
		var want []string
		for _, m := range rep.Messages {
			if c := fmt.Sprintf("%s/%d", m.Code, m.Severity); !slices.Contains(want, c) {
				want = append(want, c)
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
			if c := fmt.Sprintf("%s/%d", fd.Code, sev[fd.Severity]); !slices.Contains(got, c) {
				got = append(got, c)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: codes %v, Khronos %v", f, got, want)
		}
	}
}

// TestWebPSize checks a WebP image is measured for IMAGE_NPOT_DIMENSIONS,
// also when a texture names it only through EXT_texture_webp (as
// glTF-Transform's webp writes it): 3x2 with the default sampler is
// reported, with a clamped sampler without mipmaps it is not.
func TestWebPSize(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "transform", "webp_npot.glb"))
	if err != nil {
		t.Fatal(err)
	}
	// The same file with a sampler that needs no power of two.
	js := data[20 : 20+binary.LittleEndian.Uint32(data[12:])]
	var doc map[string]any
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	doc["samplers"] = []any{map[string]any{"magFilter": 9729, "minFilter": 9729, "wrapS": 33071, "wrapT": 33071}}
	doc["textures"].([]any)[0].(map[string]any)["sampler"] = 0
	clamped, _ := json.Marshal(doc)
	bin := data[20+len(js)+8:]
	cases := []struct {
		name string
		data []byte
		want bool
	}{
		{"default sampler", data, true},
		{"clamped, no mipmaps", glbOf(string(clamped), bin), false},
	}
	for _, c := range cases {
		res, err := Decode(c.data, nil, Options{})
		if err != nil {
			t.Fatalf("%s: does not open: %v", c.name, err)
		}
		got := false
		for _, f := range res.Findings {
			if f.Code == "IMAGE_NPOT_DIMENSIONS" {
				got = true
				if f.Path != "/images/0" || !strings.Contains(f.Message, "3x2") {
					t.Errorf("%s: %s at %s: %q, want /images/0 and 3x2", c.name, f.Code, f.Path, f.Message)
				}
			}
		}
		if got != c.want {
			t.Errorf("%s: IMAGE_NPOT_DIMENSIONS %v, want %v: %v", c.name, got, c.want, res.Findings)
		}
	}
}
