package scene

import "testing"

// TestImageBasedLight: the shown scene's EXT_lights_image_based light is
// found, and a missing or dangling reference is none.
func TestImageBasedLight(t *testing.T) {
	const lights = `"extensions":{"EXT_lights_image_based":{"lights":[{"specularImageSize":1,"specularImages":[]},{"specularImageSize":1,"specularImages":[]}]}}`
	for _, c := range []struct {
		name, doc string
		want      int
	}{
		{"second light", `{"asset":{"version":"2.0"},` + lights + `,"scene":0,"scenes":[{"extensions":{"EXT_lights_image_based":{"light":1}}}]}`, 1},
		{"scene without one", `{"asset":{"version":"2.0"},` + lights + `,"scene":0,"scenes":[{}]}`, -1},
		{"past the list", `{"asset":{"version":"2.0"},` + lights + `,"scene":0,"scenes":[{"extensions":{"EXT_lights_image_based":{"light":2}}}]}`, -1},
		{"no list", `{"asset":{"version":"2.0"},"scene":0,"scenes":[{"extensions":{"EXT_lights_image_based":{"light":0}}}]}`, -1},
	} {
		d, err := Decode([]byte(c.doc), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := d.ImageBasedLight(); got != c.want {
			t.Errorf("%s: light %d, want %d", c.name, got, c.want)
		}
	}
}

// TestNewMaterialExtensionsOpen: files that require the material
// extensions drawn since issue 23, or the file's own environment, open.
func TestNewMaterialExtensionsOpen(t *testing.T) {
	for _, name := range []string{"KHR_materials_pbrSpecularGlossiness", "KHR_materials_iridescence", "KHR_materials_anisotropy",
		"KHR_materials_dispersion", "KHR_materials_diffuse_transmission", "EXT_lights_image_based"} {
		d, err := Decode([]byte(`{"asset":{"version":"2.0"},"extensionsUsed":["`+name+`"],"extensionsRequired":["`+name+`"]}`), nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := d.CheckRequired(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if req, opt := d.UnsupportedExtensions(); len(req)+len(opt) != 0 {
			t.Errorf("%s: unsupported %v %v", name, req, opt)
		}
	}
}
