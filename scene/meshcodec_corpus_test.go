package scene_test

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"physview/internal/testcorpus"
	"physview/scene"
)

// TestSampleModelsDraw opens every .gltf and .glb of the Khronos sample
// models in the shared corpus and counts the files that open and draw at
// least one primitive of their shown scene (the renderer reads geometry
// through ReadPrimitive, so what reads here is what draws). A file the
// corpus ships without its .bin is listed but not counted against us.
func TestSampleModelsDraw(t *testing.T) {
	root := filepath.Join(testcorpus.Dir(t), "gltf-sample-assets", "Models")
	var files []string
	filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			if ext := strings.ToLower(filepath.Ext(p)); ext == ".gltf" || ext == ".glb" {
				files = append(files, p)
			}
		}
		return nil
	})
	if len(files) == 0 {
		t.Skip("no sample models in the corpus")
	}
	drawn, incomplete := 0, 0
	var failed []string
	for _, p := range files {
		rel, _ := filepath.Rel(root, p)
		d, err := scene.Load(p)
		if err != nil {
			if strings.Contains(err.Error(), "no such file") {
				incomplete++
				t.Logf("corpus incomplete: %s: %v", rel, err)
				continue
			}
			failed = append(failed, rel+": "+err.Error())
			continue
		}
		if err := d.CheckRequired(); err != nil {
			failed = append(failed, rel+": "+err.Error())
			continue
		}
		if missing := d.MissingData(); len(missing) > 0 {
			// Opens with an IO_ERROR finding per missing .bin.
			incomplete++
			t.Logf("corpus incomplete: %s: %s", rel, missing[0])
			continue
		}
		if why := d.EmptyPictureReason(); why != "" {
			failed = append(failed, rel+": "+why)
			continue
		}
		drawn++
	}
	t.Logf("sample models: %d files, %d open and draw, %d not; %d lack files the corpus does not ship", len(files), drawn, len(failed), incomplete)
	for _, f := range failed {
		t.Errorf("does not draw: %s", f)
	}
}
