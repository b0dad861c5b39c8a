package scene_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"physview/scene"
)

// linkModel writes a model folder beside a "secret" folder: the model's
// image and buffer names are given, and links made: link.png and link.bin
// to files in secret, linkdir to the secret folder, inside.png to a file in
// the model's own folder.
func linkModel(t *testing.T, bufURI, imgURI string) (modelDir, path string) {
	t.Helper()
	root := t.TempDir()
	modelDir, secret := filepath.Join(root, "model"), filepath.Join(root, "secret")
	for _, d := range []string{modelDir, filepath.Join(secret, "dir")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	png := onePixelPNG()
	tri := []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0}
	for name, data := range map[string][]byte{
		filepath.Join(secret, "s.png"): png, filepath.Join(secret, "dir", "s.png"): png,
		filepath.Join(secret, "tri.bin"): tri, filepath.Join(secret, "dir", "tri.bin"): tri, filepath.Join(modelDir, "tri.bin"): tri,
		filepath.Join(modelDir, "own.png"): png,
	} {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{
		"link.png": "../secret/s.png", "link.bin": "../secret/tri.bin",
		"linkdir": filepath.Join(secret, "dir"), "inside.png": "own.png",
	} {
		if err := os.Symlink(to, filepath.Join(modelDir, link)); err != nil {
			t.Fatal(err)
		}
	}
	path = filepath.Join(modelDir, "m.gltf")
	doc := `{"asset":{"version":"2.0"},"buffers":[{"byteLength":36,"uri":"` + bufURI + `"}],
"bufferViews":[{"buffer":0,"byteLength":36}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],
"images":[{"uri":"` + imgURI + `"}],"textures":[{"source":0}],"materials":[{"emissiveTexture":{"index":0}}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0},"material":0}]}],"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0}`
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return modelDir, path
}

// onePixelPNG is a valid 1x1 PNG.
func onePixelPNG() []byte {
	return []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90wS\xde\x00\x00\x00\x0cIDATx\x9cc\xf8\xcf\xc0\x00\x00\x03\x01\x01\x00\xc9\xfe\x92\xef\x00\x00\x00\x00IEND\xaeB`\x82")
}

// TestSymlinkOutsideRefused: issue 24 item 5. An image that is a link to a
// file outside the model's folder, or that passes through a link to an
// outside folder, is refused like "../" (an IO_ERROR naming it, nothing
// read); converting does not embed it in a .glb nor copy it beside a .gltf.
// A link that stays inside the folder is followed.
func TestSymlinkOutsideRefused(t *testing.T) {
	for _, tc := range []struct {
		img, finding string
	}{
		{"link.png", "cannot read image link.png: " + scene.ErrOutsideFolder.Error()},
		{"linkdir/s.png", "cannot read image linkdir/s.png: " + scene.ErrOutsideFolder.Error()},
		{"../secret/s.png", "image ../secret/s.png is not read: it is outside the model's folder"},
		{"inside.png", ""},
	} {
		t.Run(tc.img, func(t *testing.T) {
			_, path := linkModel(t, "tri.bin", tc.img)
			d, err := scene.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range d.Findings() {
				if f.Code == "IO_ERROR" {
					got = append(got, f.Path+" "+f.Message)
				}
			}
			if tc.finding == "" {
				if len(got) > 0 {
					t.Errorf("a link inside the folder is refused: %v", got)
				}
			} else if len(got) != 1 || got[0] != "/images/0/uri "+tc.finding {
				t.Errorf("IO_ERROR findings %q, want one at /images/0/uri: %q", got, tc.finding)
			}
			out := t.TempDir()
			glb, gltf := filepath.Join(out, "c.glb"), filepath.Join(out, "sub", "c.gltf")
			errGLB, errGLTF := d.Save(glb), d.Save(gltf)
			if tc.finding == "" {
				if errGLB != nil || errGLTF != nil {
					t.Fatalf("saves: %v; %v", errGLB, errGLTF)
				}
				data, _ := os.ReadFile(glb)
				if !strings.Contains(string(data), string(onePixelPNG()[:16])) {
					t.Error("the image a link inside the folder names is not embedded in the .glb")
				}
				if _, err := os.Stat(filepath.Join(out, "sub", tc.img)); err != nil {
					t.Errorf("not copied beside the .gltf: %v", err)
				}
				return
			}
			for _, e := range []error{errGLB, errGLTF} {
				if e == nil || !strings.Contains(e.Error(), tc.img) {
					t.Errorf("save: %v, want an error naming %s", e, tc.img)
				}
			}
			if tc.img != "../secret/s.png" && !errors.Is(errGLB, scene.ErrOutsideFolder) {
				t.Errorf("save to .glb: %v is not ErrOutsideFolder", errGLB)
			}
			// Nothing written: no .glb holding the secret, no copy.
			filepath.WalkDir(out, func(p string, e os.DirEntry, err error) error {
				if err == nil && !e.IsDir() {
					t.Errorf("the refused conversion wrote %s", p)
				}
				return nil
			})
		})
	}
}

// TestSymlinkBufferRefused: a buffer that is a link out of the folder is
// refused like a "../" buffer: the file does not open, and the error names
// the buffer.
func TestSymlinkBufferRefused(t *testing.T) {
	for _, uri := range []string{"link.bin", "linkdir/tri.bin"} {
		_, path := linkModel(t, uri, "own.png")
		_, err := scene.Load(path)
		if err == nil || !errors.Is(err, scene.ErrOutsideFolder) || !strings.Contains(err.Error(), "buffer 0: "+uri) {
			t.Errorf("%s: Load: %v, want ErrOutsideFolder naming buffer 0", uri, err)
		}
	}
	_, path := linkModel(t, "tri.bin", "own.png")
	if _, err := scene.Load(path); err != nil {
		t.Errorf("the same model without links: %v", err)
	}
}

// TestReadInFolder: the helper the renderer reads images with.
func TestReadInFolder(t *testing.T) {
	dir, _ := linkModel(t, "tri.bin", "own.png")
	for _, tc := range []struct {
		name    string
		outside bool
	}{
		{"own.png", false}, {"inside.png", false}, {"link.png", true}, {"linkdir/s.png", true},
		{"../secret/s.png", true}, {"/etc/passwd", true},
	} {
		data, err := scene.ReadInFolder(dir, tc.name)
		if tc.outside != errors.Is(err, scene.ErrOutsideFolder) || (!tc.outside && len(data) == 0) {
			t.Errorf("%s: %d bytes, %v", tc.name, len(data), err)
		}
		if err != nil && !strings.HasPrefix(err.Error(), tc.name+": ") {
			t.Errorf("%s: the error %q does not name it", tc.name, err)
		}
	}
}
