package corecheck

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"physview/internal/khronosval"
)

// GLB chunk types of the tests; chunkUnknown is none of the spec's.
const chunkUnknown = 0x4E4B4E55 // "UNKN"

// glbChunk is one chunk of a test GLB: its type, its data and the length
// its header gives (-1: the data's length).
type glbChunk struct {
	typ    uint32
	data   []byte
	length int64
}

func jsonChunk(text string) glbChunk {
	for len(text)%4 != 0 {
		text += " "
	}
	return glbChunk{chunkJSON, []byte(text), -1}
}

func binChunk(data ...byte) glbChunk { return glbChunk{chunkBIN, data, -1} }

// buildGLB lays out a GLB: magic, version 2, the total length (-1: the
// real one) and the chunks, each header as given.
func buildGLB(total int64, chunks ...glbChunk) []byte {
	b := []byte("glTF")
	b = binary.LittleEndian.AppendUint32(b, 2)
	b = binary.LittleEndian.AppendUint32(b, 0)
	for _, c := range chunks {
		n := c.length
		if n < 0 {
			n = int64(len(c.data))
		}
		b = binary.LittleEndian.AppendUint32(b, uint32(n))
		b = binary.LittleEndian.AppendUint32(b, c.typ)
		b = append(b, c.data...)
	}
	if total < 0 {
		total = int64(len(b))
	}
	binary.LittleEndian.PutUint32(b[8:], uint32(total))
	return b
}

// glbCase is a GLB and every GLB_ and BUFFER_ issue Khronos reports for
// it, "CODE severity @offset" (GLB container) or "CODE severity /pointer",
// severity as Khronos numbers it (0 error, 1 warning, 2 info).
type glbCase struct {
	name  string
	data  []byte
	fatal string // the code of the LoadError, "" when the document is read
	want  []string
	// missing is why buffer 0 has no data, "" when it has.
	missing string
}

// glbCases follow the GLB File Format Specification of glTF 2.0 and the
// Khronos validator's reading of it (lib/src/glb_reader.dart): each chunk
// header is checked on its own (alignment, fitting the declared length,
// place, type), so one chunk can give several codes; the document is read
// whenever its JSON chunk is whole.
func glbCases() []glbCase {
	asset := jsonChunk(`{"asset":{"version":"2.0"}}`) // 28 bytes: chunk 0 ends at 48
	withBuffer := jsonChunk(`{"asset":{"version":"2.0"},"buffers":[{"byteLength":4}]}`)
	withBuffer3 := jsonChunk(`{"asset":{"version":"2.0"},"buffers":[{"byteLength":3}]}`)
	unknown := glbChunk{chunkUnknown, []byte("abcd"), -1}
	valid := buildGLB(-1, withBuffer, binChunk(1, 2, 3, 4))
	cutHeader := append(buildGLB(52, asset), 4, 0, 0, 0)
	extra := append(buildGLB(-1, asset), make([]byte, 8)...)
	binary.LittleEndian.PutUint32(extra[8:], 48)
	headerOnly := buildGLB(-1)
	return []glbCase{
		{name: "valid", data: valid},
		{name: "first chunk unknown, JSON second", data: buildGLB(-1, unknown, asset),
			want: []string{"GLB_UNEXPECTED_FIRST_CHUNK 0 @12", "GLB_UNKNOWN_CHUNK_TYPE 1 @12"}},
		{name: "only an unknown chunk", data: buildGLB(-1, unknown), fatal: "GLB_UNEXPECTED_FIRST_CHUNK",
			want: []string{"GLB_UNEXPECTED_FIRST_CHUNK 0 @12", "GLB_UNKNOWN_CHUNK_TYPE 1 @12"}},
		{name: "BIN first, JSON second", data: buildGLB(-1, binChunk(1, 2, 3, 4), withBuffer),
			want: []string{"GLB_UNEXPECTED_FIRST_CHUNK 0 @12"}},
		{name: "only a BIN chunk", data: buildGLB(-1, binChunk(1, 2, 3, 4)), fatal: "GLB_UNEXPECTED_FIRST_CHUNK",
			want: []string{"GLB_UNEXPECTED_FIRST_CHUNK 0 @12"}},
		{name: "BIN chunk past the end", data: buildGLB(-1, withBuffer, glbChunk{chunkBIN, []byte{1, 2, 3, 4}, 64}),
			want:    []string{"GLB_CHUNK_TOO_BIG 0 @76", "GLB_UNEXPECTED_END_OF_CHUNK_DATA 0 @88"},
			missing: "the GLB's BIN chunk is cut off"},
		{name: "JSON chunk past the end", data: buildGLB(-1, glbChunk{chunkJSON, asset.data, 40}), fatal: "GLB_UNEXPECTED_END_OF_CHUNK_DATA",
			want: []string{"GLB_CHUNK_TOO_BIG 0 @12", "GLB_UNEXPECTED_END_OF_CHUNK_DATA 0 @48"}},
		{name: "chunk header cut off", data: cutHeader,
			want: []string{"GLB_UNEXPECTED_END_OF_CHUNK_HEADER 0 @52"}},
		{name: "chunk header cut off, a buffer in BIN", data: append(buildGLB(78, withBuffer), 4, 0),
			want:    []string{"GLB_UNEXPECTED_END_OF_CHUNK_HEADER 0 @78"},
			missing: "the GLB is cut off before a BIN chunk"},
		{name: "bytes after the declared length", data: extra,
			want: []string{"GLB_EXTRA_DATA 1 @48"}},
		{name: "declared length past the end", data: buildGLB(100, asset),
			want: []string{"GLB_LENGTH_MISMATCH 0 @48"}},
		{name: "declared length short of two chunks", data: buildGLB(30, withBuffer, binChunk(1, 2, 3, 4)),
			want: []string{"GLB_CHUNK_TOO_BIG 0 @12", "GLB_CHUNK_TOO_BIG 0 @76", "GLB_LENGTH_MISMATCH 0 @88"}},
		{name: "unaligned JSON chunk", data: buildGLB(-1, glbChunk{chunkJSON, []byte(`{"asset":{"version":"2.0"}}`), -1}),
			want: []string{"GLB_CHUNK_LENGTH_UNALIGNED 0 @12"}},
		{name: "empty JSON chunk", data: buildGLB(-1, glbChunk{chunkJSON, nil, -1}), fatal: "GLB_EMPTY_CHUNK",
			want: []string{"GLB_EMPTY_CHUNK 0 @12"}},
		{name: "declared length 12", data: buildGLB(12, asset), fatal: "GLB_LENGTH_TOO_SMALL",
			want: []string{"GLB_LENGTH_TOO_SMALL 0 @8", "GLB_EXTRA_DATA 1 @12"}},
		{name: "declared length 0", data: buildGLB(0, asset),
			want: []string{"GLB_LENGTH_TOO_SMALL 0 @8", "GLB_CHUNK_TOO_BIG 0 @12", "GLB_LENGTH_MISMATCH 0 @48"}},
		{name: "header only", data: headerOnly, fatal: "GLB_LENGTH_TOO_SMALL",
			want: []string{"GLB_LENGTH_TOO_SMALL 0 @8"}},
		{name: "header cut off", data: valid[:10], fatal: "GLB_UNEXPECTED_END_OF_HEADER",
			want: []string{"GLB_UNEXPECTED_END_OF_HEADER 0 @10"}},
		{name: "version 1", data: append(append([]byte("glTF"), 1, 0, 0, 0), valid[8:]...), fatal: "GLB_INVALID_VERSION",
			want: []string{"GLB_INVALID_VERSION 0 @4"}},
		{name: "empty BIN chunk", data: buildGLB(-1, asset, binChunk()),
			want: []string{"GLB_EMPTY_BIN_CHUNK 2 @48"}},
		{name: "two BIN chunks", data: buildGLB(-1, withBuffer, binChunk(1, 2, 3, 4), binChunk(5, 6, 7, 8)),
			want: []string{"GLB_DUPLICATE_CHUNK 0 @88"}},
		{name: "two JSON chunks", data: buildGLB(-1, asset, asset),
			want: []string{"GLB_DUPLICATE_CHUNK 0 @48"}},
		{name: "BIN chunk third", data: buildGLB(-1, withBuffer, unknown, binChunk(1, 2, 3, 4)),
			want: []string{"GLB_UNKNOWN_CHUNK_TYPE 1 @76", "GLB_UNEXPECTED_BIN_CHUNK 0 @88"}},
		{name: "BIN chunk of 5 bytes", data: buildGLB(-1, withBuffer, binChunk(1, 2, 3, 4, 5)),
			want: []string{"GLB_CHUNK_LENGTH_UNALIGNED 0 @76", "BUFFER_GLB_CHUNK_TOO_BIG 1 /buffers/0"}},
		{name: "BIN chunk 4 for byteLength 3", data: buildGLB(-1, withBuffer3, binChunk(1, 2, 3, 0))},
		{name: "BIN chunk 8 for byteLength 3", data: buildGLB(-1, withBuffer3, binChunk(1, 2, 3, 0, 0, 0, 0, 0)),
			want: []string{"BUFFER_GLB_CHUNK_TOO_BIG 1 /buffers/0"}},
		{name: "4 GB chunk after JSON", data: buildGLB(-1, asset, glbChunk{chunkUnknown, nil, 0xFFFFFFF0}),
			want: []string{"GLB_CHUNK_TOO_BIG 0 @48", "GLB_UNKNOWN_CHUNK_TYPE 1 @48", "GLB_UNEXPECTED_END_OF_CHUNK_DATA 0 @56"}},
		{name: "3-byte unknown first, JSON after it", data: buildGLB(20, glbChunk{chunkUnknown, []byte("abc"), -1}, asset),
			want: []string{"GLB_CHUNK_LENGTH_UNALIGNED 0 @12", "GLB_CHUNK_TOO_BIG 0 @12", "GLB_UNEXPECTED_FIRST_CHUNK 0 @12",
				"GLB_UNKNOWN_CHUNK_TYPE 1 @12", "GLB_CHUNK_TOO_BIG 0 @23", "GLB_LENGTH_MISMATCH 0 @59"}},
	}
}

// khronosSeverity numbers a severity as Khronos does.
func khronosSeverity(s Severity) int {
	switch s {
	case Error:
		return 0
	case Warning:
		return 1
	}
	return 2
}

// glbIssues lists the GLB_ and BUFFER_ findings of a decoded GLB (a
// LoadError's, then the LoadError itself), sorted.
func glbIssues(res *Result, err error) []string {
	var fs []Finding
	if res != nil {
		fs = res.Findings
	}
	var le *LoadError
	if errors.As(err, &le) {
		fs = append(slices.Clone(le.Findings), Finding{Severity: Error, Code: le.Code, Path: le.Pointer, Offset: le.Offset})
	}
	var out []string
	for _, f := range fs {
		switch {
		case strings.HasPrefix(f.Code, "GLB_"):
			out = append(out, fmt.Sprintf("%s %d @%d", f.Code, khronosSeverity(f.Severity), f.Offset))
		case strings.HasPrefix(f.Code, "BUFFER_"):
			out = append(out, fmt.Sprintf("%s %d %s", f.Code, khronosSeverity(f.Severity), f.Path))
		}
	}
	slices.Sort(out)
	return out
}

// TestGLBReader: every problem of a GLB container is reported with
// Khronos's code, severity and byte offset, several for one chunk when it
// breaks several rules; a GLB whose JSON chunk is whole is read whatever
// follows it, and a buffer in a BIN chunk that was cut off has no data.
func TestGLBReader(t *testing.T) {
	for _, tc := range glbCases() {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Decode(tc.data, nil, Options{})
			if got := ErrorCode(err); got != tc.fatal {
				t.Fatalf("load error %v (code %q), want code %q", err, got, tc.fatal)
			}
			want := slices.Sorted(slices.Values(tc.want))
			if got := glbIssues(res, err); !slices.Equal(got, want) {
				t.Errorf("issues\n  %q\nwant\n  %q", got, want)
			}
			if err != nil {
				return
			}
			if why := res.MissingBuffers[0]; why != tc.missing {
				t.Errorf("buffer 0 missing %q, want %q", why, tc.missing)
			}
			if tc.missing != "" && len(res.GLTF.Buffers) > 0 && res.GLTF.Buffers[0].Data != nil {
				t.Errorf("buffer 0 has %d bytes from a BIN chunk that is not there whole", len(res.GLTF.Buffers[0].Data))
			}
		})
	}
}

// TestGLBReaderKhronos runs the Khronos validator on the same GLBs (when
// node and gltf-validator are installed) and compares its GLB_ and BUFFER_
// issues with each case's: the table is Khronos's reading, not ours.
func TestGLBReaderKhronos(t *testing.T) {
	dir := khronosval.Dir(t, "../..")
	tmp := t.TempDir()
	cases := glbCases()
	var files []string
	for i, tc := range cases {
		p := filepath.Join(tmp, fmt.Sprintf("case%02d.glb", i))
		if err := os.WriteFile(p, tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	reps, err := khronosval.Run(dir, tmp, files)
	if err != nil {
		t.Fatal(err)
	}
	for i, tc := range cases {
		rep, ok := reps[files[i]]
		if !ok || rep.Err != "" {
			t.Errorf("%s: no Khronos report (%s)", tc.name, rep.Err)
			continue
		}
		var got []string
		for _, m := range rep.Messages {
			switch {
			case strings.HasPrefix(m.Code, "GLB_") && m.Offset != nil:
				got = append(got, fmt.Sprintf("%s %d @%d", m.Code, m.Severity, *m.Offset))
			case strings.HasPrefix(m.Code, "BUFFER_"):
				got = append(got, fmt.Sprintf("%s %d %s", m.Code, m.Severity, m.Pointer))
			}
		}
		slices.Sort(got)
		if want := slices.Sorted(slices.Values(tc.want)); !slices.Equal(got, want) {
			t.Errorf("%s: Khronos gives\n  %q\nthe case says\n  %q", tc.name, got, want)
		}
	}
}
