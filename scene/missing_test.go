package scene_test

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"physview/scene"
)

// triangleBytes is three float VEC3 positions: (0,0,0), (1,0,0), (0,1,0).
func triangleBytes() []byte {
	var b []byte
	for _, v := range []float32{0, 0, 0, 1, 0, 0, 0, 1, 0} {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
	}
	return b
}

// TestMissingResource: a buffer or image whose file does not exist is an
// IO_ERROR finding at its uri, worded as Khronos words it, and every other
// check still runs (the accessors on the missing buffer get no data
// checks); the document opens. What reads the missing buffer is not drawn,
// and the error names the file.
func TestMissingResource(t *testing.T) {
	dataURI := "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(triangleBytes())
	// Buffer 0 is always there; buffer 1 is the file under test. Accessor
	// 0 (buffer 0) has a wrong max, which the data checks must still find;
	// accessor 1 (buffer 1) has one too, which they cannot see.
	const doc = `{"asset":{"version":"2.0"},
"buffers":[{"byteLength":36,"uri":"%s"},{"byteLength":42,"uri":"%s"}],
"bufferViews":[{"buffer":0,"byteLength":36,"target":34962},{"buffer":1,"byteLength":36,"target":34962},{"buffer":1,"byteOffset":36,"byteLength":6,"target":34963}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,2,0]},
 {"bufferView":1,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,2,0]},
 {"bufferView":2,"componentType":5123,"count":3,"type":"SCALAR"}],
"images":[{"uri":"%s"}],"textures":[{"source":0}],"materials":[{"emissiveTexture":{"index":0}}],
"meshes":[{"name":"here","primitives":[{"attributes":{"POSITION":0},"material":0}]},
 {"name":"gone","primitives":[{"attributes":{"POSITION":1}}]},
 {"name":"indexed","primitives":[{"attributes":{"POSITION":0},"indices":2}]}],
"nodes":[{"mesh":0},{"mesh":1},{"mesh":2}],"scenes":[{"nodes":[0,1,2]}],"scene":0}`
	bin := append(triangleBytes(), 0, 0, 1, 0, 2, 0)
	for _, tc := range []struct {
		name, buffer, image string
		// ioErrors are the IO_ERROR findings, "pointer message".
		ioErrors []string
		// notDrawn are the meshes ReadPrimitive refuses, with what the
		// error must say.
		notDrawn map[int]string
	}{
		{"all there", "tri.bin", "pixel.png", nil, nil},
		{"buffer missing", "gone.bin", "pixel.png",
			[]string{"/buffers/1/uri Resource not found (gone.bin)."},
			map[int]string{
				1: "mesh 1 primitive 0: POSITION accessor 1: buffer 1 has no data: its file gone.bin was not found",
				2: "mesh 2 primitive 0: indices accessor 2: buffer 1 has no data: its file gone.bin was not found",
			}},
		{"buffer in a missing folder", "sub/gone.bin", "pixel.png",
			[]string{"/buffers/1/uri Resource not found (sub/gone.bin)."},
			map[int]string{1: "its file sub/gone.bin was not found", 2: "its file sub/gone.bin was not found"}},
		{"image missing", "tri.bin", "gone.png",
			[]string{"/images/0/uri Resource not found (gone.png)."}, nil},
		{"both missing", "gone.bin", "gone.png",
			[]string{"/buffers/1/uri Resource not found (gone.bin).", "/images/0/uri Resource not found (gone.png)."},
			map[int]string{1: "gone.bin", 2: "gone.bin"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, data := range map[string][]byte{"tri.bin": bin, "pixel.png": onePixelPNG()} {
				if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			path := filepath.Join(dir, "m.gltf")
			if err := os.WriteFile(path, fmt.Appendf(nil, doc, dataURI, tc.buffer, tc.image), 0o644); err != nil {
				t.Fatal(err)
			}
			d, err := scene.Load(path)
			if err != nil {
				t.Fatalf("Load: %v (a missing resource is a finding)", err)
			}
			var ioErrors []string
			maxMismatch := map[string]bool{}
			for _, f := range d.Findings() {
				switch f.Code {
				case "IO_ERROR":
					if f.Severity != scene.Error {
						t.Errorf("IO_ERROR is %v, want error", f.Severity)
					}
					ioErrors = append(ioErrors, f.Path+" "+f.Message)
				case "ACCESSOR_MAX_MISMATCH":
					maxMismatch[strings.SplitN(f.Path[1:], "/", 3)[1]] = true
				}
			}
			slices.Sort(ioErrors)
			if !slices.Equal(ioErrors, tc.ioErrors) {
				t.Errorf("IO_ERROR findings %q, want %q", ioErrors, tc.ioErrors)
			}
			// The data checks run on what was read, and only on it.
			_, bufferGone := tc.notDrawn[1]
			if !maxMismatch["0"] || maxMismatch["1"] == bufferGone {
				t.Errorf("ACCESSOR_MAX_MISMATCH on accessors %v, want 0 and, when its buffer was read, 1", maxMismatch)
			}
			for m := range d.GLTF.Meshes {
				_, err := d.ReadPrimitive(m, 0)
				want, gone := tc.notDrawn[m]
				switch {
				case !gone && err != nil:
					t.Errorf("mesh %d: %v", m, err)
				case gone && (err == nil || !strings.Contains(err.Error(), want)):
					t.Errorf("mesh %d: ReadPrimitive error %v, want one containing %q", m, err, want)
				}
			}
			missing := d.MissingData()
			if len(missing) != len(tc.notDrawn) {
				t.Errorf("MissingData %q, want %d meshes", missing, len(tc.notDrawn))
			}
			for _, s := range missing {
				if !strings.Contains(s, "is not drawn") || !strings.Contains(s, tc.buffer) {
					t.Errorf("MissingData %q does not say the mesh is not drawn for lack of %s", s, tc.buffer)
				}
			}
			if why := d.EmptyPictureReason(); why != "" {
				t.Errorf("mesh 0 has its data, yet %q", why)
			}
		})
	}
}

// TestSaveMissingBuffer: a document whose buffer file is missing saves
// beside itself byte for byte, as a .gltf elsewhere with a warning and no file
// in the missing one's place (never an empty .bin), and not as a .glb (its
// bytes are not known): the error names the buffer and the file.
func TestSaveMissingBuffer(t *testing.T) {
	dir := t.TempDir()
	text, err := os.ReadFile("testdata/missing/missing_buffer.gltf")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "m.gltf")
	if err := os.WriteFile(path, text, 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := scene.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.MissingDataError(); err == nil || err.Error() != "buffer 1 has no data: its file gone.bin was not found" {
		t.Errorf("MissingDataError: %v", err)
	}
	out := t.TempDir()
	for _, tc := range []struct {
		target  string
		err     string // "" when the save works
		warning string
	}{
		{path, "", ""},
		{filepath.Join(out, "copy.gltf"), "", "buffer 1: its file gone.bin is missing and was not copied"},
		{filepath.Join(out, "packed.glb"), "buffer 1 has no data (its file gone.bin was not found), so it cannot be packed into a .glb", ""},
	} {
		err := d.Save(tc.target)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("save to %s: %v", filepath.Base(tc.target), err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("save to %s: %v, want an error with %q", filepath.Base(tc.target), err, tc.err)
		}
		if tc.warning != "" && !slices.Contains(d.SaveWarnings(), tc.warning) {
			t.Errorf("save to %s: warnings %q, want %q", filepath.Base(tc.target), d.SaveWarnings(), tc.warning)
		}
	}
	if got, _ := os.ReadFile(path); string(got) != string(text) {
		t.Error("the save in place changed the file")
	}
	// Saved again, the file still names gone.bin and still lacks it.
	for _, p := range []string{path, filepath.Join(out, "copy.gltf")} {
		d, err := scene.Load(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.MissingDataError(); err == nil || !strings.Contains(err.Error(), "gone.bin") {
			t.Errorf("%s saved: MissingDataError %v", filepath.Base(p), err)
		}
	}
	for _, p := range []string{filepath.Join(dir, "gone.bin"), filepath.Join(out, "gone.bin"), filepath.Join(out, "packed.glb")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was written", p)
		}
	}
}
