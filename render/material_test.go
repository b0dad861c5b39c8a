package render

import (
	"encoding/json"
	"testing"

	"github.com/qmuntal/gltf"
)

// TestMaterialExtensions reads every extension's factors and texture slots
// (UV set, KHR_texture_transform) and the defaults when a field is absent.
func TestMaterialExtensions(t *testing.T) {
	const src = `{
	  "extensions": {
	    "KHR_materials_ior": {"ior": 1.33},
	    "KHR_materials_specular": {"specularFactor": 0.5, "specularColorFactor": [1, 0.5, 0.25],
	      "specularTexture": {"index": 1}, "specularColorTexture": {"index": 2, "texCoord": 1}},
	    "KHR_materials_sheen": {"sheenColorFactor": [0.1, 0.2, 0.3], "sheenRoughnessFactor": 0.4,
	      "sheenColorTexture": {"index": 3}, "sheenRoughnessTexture": {"index": 4}},
	    "KHR_materials_clearcoat": {"clearcoatFactor": 0.9, "clearcoatRoughnessFactor": 0.1,
	      "clearcoatTexture": {"index": 5}, "clearcoatRoughnessTexture": {"index": 6},
	      "clearcoatNormalTexture": {"index": 7, "scale": 0.5,
	        "extensions": {"KHR_texture_transform": {"scale": [2, 3], "texCoord": 1}}}},
	    "KHR_materials_transmission": {"transmissionFactor": 0.8, "transmissionTexture": {"index": 8}},
	    "KHR_materials_volume": {"thicknessFactor": 0.25, "thicknessTexture": {"index": 9},
	      "attenuationDistance": 2, "attenuationColor": [0.9, 0.8, 0.7]},
	    "KHR_materials_emissive_strength": {"emissiveStrength": 4}
	  },
	  "emissiveFactor": [0.5, 0.25, 0]
	}`
	var gm gltf.Material
	if err := json.Unmarshal([]byte(src), &gm); err != nil {
		t.Fatal(err)
	}
	m := newMaterial(&gm)
	for _, c := range []struct {
		name      string
		got, want float32
	}{
		{"ior", m.ior, 1.33},
		{"specular", m.specular, 0.5},
		{"specular colour g", m.specularColor[1], 0.5},
		{"sheen colour b", m.sheenColor[2], 0.3},
		{"sheen roughness", m.sheenRoughness, 0.4},
		{"clearcoat", m.clearcoat, 0.9},
		{"clearcoat roughness", m.clearcoatRoughness, 0.1},
		{"clearcoat normal scale", m.clearcoatNormalScale, 0.5},
		{"transmission", m.transmission, 0.8},
		{"thickness", m.thickness, 0.25},
		{"attenuation distance", m.attenuationDistance, 2},
		{"attenuation colour r", m.attenuationColor[0], 0.9},
		{"emissive r x strength", m.emissive[0], 2},
	} {
		if c.got != c.want {
			t.Errorf("%s = %g, want %g", c.name, c.got, c.want)
		}
	}
	for slot, want := range map[int]int{slotSpecular: 1, slotSpecularColor: 2, slotSheenColor: 3, slotSheenRoughness: 4,
		slotClearcoat: 5, slotClearcoatRoughness: 6, slotClearcoatNormal: 7, slotTransmission: 8, slotThickness: 9} {
		if m.tex[slot].texture != want {
			t.Errorf("slot %d: texture %d, want %d", slot, m.tex[slot].texture, want)
		}
	}
	if m.tex[slotSpecularColor].texCoord != 1 {
		t.Errorf("specular colour texture on UV set %d, want 1", m.tex[slotSpecularColor].texCoord)
	}
	cn := m.tex[slotClearcoatNormal]
	if cn.texCoord != 1 || cn.transform[0] != 2 || cn.transform[4] != 3 {
		t.Errorf("clearcoat normal: UV set %d, transform %v; want set 1, scale (2, 3)", cn.texCoord, cn.transform)
	}
	for _, slot := range []int{slotSheenColor, slotSpecularColor, slotBaseColor, slotEmissive} {
		if !slotSRGB(slot) {
			t.Errorf("slot %d holds colour and must be read as sRGB", slot)
		}
	}
	for _, slot := range []int{slotSpecular, slotSheenRoughness, slotClearcoatNormal, slotThickness} {
		if slotSRGB(slot) {
			t.Errorf("slot %d holds data and must not be read as sRGB", slot)
		}
	}

	// Defaults: an absent extension leaves the core model (ior 1.5,
	// specular 1, no sheen, clearcoat or transmission); a present one with
	// no fields takes the extension's defaults.
	var plain gltf.Material
	json.Unmarshal([]byte(`{"extensions": {"KHR_materials_specular": {}, "KHR_materials_volume": {}}}`), &plain)
	d := newMaterial(&plain)
	if d.ior != 1.5 || d.specular != 1 || d.specularColor != [3]float32{1, 1, 1} || d.sheenColor != [3]float32{} ||
		d.clearcoat != 0 || d.transmission != 0 || d.attenuationDistance != 0 || d.attenuationColor != [3]float32{1, 1, 1} {
		t.Errorf("defaults: %+v", d)
	}
}

// TestUnrenderedExtensions lists what the shader does not draw, once each.
func TestUnrenderedExtensions(t *testing.T) {
	mats := []*gltf.Material{
		{Extensions: gltf.Extensions{"KHR_materials_sheen": nil, "KHR_materials_iridescence": nil}},
		{Extensions: gltf.Extensions{"KHR_materials_anisotropy": nil, "KHR_materials_iridescence": nil}},
		nil,
	}
	got := unrenderedExtensions(mats)
	want := []string{"KHR_materials_anisotropy", "KHR_materials_iridescence"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestShaderFeaturesCompile compiles the mesh shader with every set of
// optional parts, and checks a material asks for the parts it uses.
func TestShaderFeaturesCompile(t *testing.T) {
	headless(t)
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Delete()
	for f := shaderFeatures(0); f < featTransmission<<1; f++ {
		if p := r.meshProgram(f); f != 0 && p == r.mesh {
			t.Errorf("%s: %v", f, r.Messages)
		}
	}
	m := defaultMaterial()
	m.sheenColor = [3]float32{0, 0.1, 0}
	m.transmission = 1
	if got := m.features(); got != featSheen|featTransmission {
		t.Errorf("features %s, want sheen and transmission", got)
	}
	if m.unlit = true; m.features() != 0 {
		t.Error("an unlit material needs no optional parts")
	}
}
