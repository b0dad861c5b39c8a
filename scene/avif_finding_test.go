package scene_test

import (
	"os"
	"path/filepath"
	"testing"

	"physview/scene"
)

// TestAVIFImageFinding: an AVIF image (EXT_texture_avif) is reported as an
// info that names the decoder, not as the IMAGE_UNRECOGNIZED_FORMAT warning
// the Khronos validator gives (it does not know AVIF); bytes that only look
// like an ISO-BMFF file of another brand still get the warning.
func TestAVIFImageFinding(t *testing.T) {
	avif, err := os.ReadFile("../render/imgdec/testdata/rgb8_420.avif")
	if err != nil {
		t.Fatal(err)
	}
	heic := append([]byte{0, 0, 0, 24}, []byte("ftypheic\x00\x00\x00\x00mif1heic")...)
	for _, tc := range []struct {
		name string
		data []byte
		code string
		sev  scene.Severity
	}{
		{"avif", avif, "IMAGE_AVIF", scene.Info},
		{"heic", heic, "IMAGE_UNRECOGNIZED_FORMAT", scene.Warning},
	} {
		dir := t.TempDir()
		file := `{"asset":{"version":"2.0"},"extensionsUsed":["EXT_texture_avif"],
"images":[{"uri":"tex.avif"}],
"textures":[{"extensions":{"EXT_texture_avif":{"source":0}}}],
"materials":[{"pbrMetallicRoughness":{"baseColorTexture":{"index":0}}}]}`
		if err := os.WriteFile(filepath.Join(dir, "tex.avif"), tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "x.gltf"), []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := scene.Load(filepath.Join(dir, "x.gltf"))
		if err != nil {
			t.Fatal(err)
		}
		var got []scene.Finding
		for _, f := range d.Findings() {
			if f.Path == "/images/0" {
				got = append(got, f)
			}
		}
		if len(got) != 1 || got[0].Code != tc.code || got[0].Severity != tc.sev {
			t.Errorf("%s: findings on /images/0 %v, want one %v %s", tc.name, got, tc.sev, tc.code)
		}
	}
}
