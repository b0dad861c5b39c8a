package render

import (
	"encoding/json"
	"testing"

	"github.com/qmuntal/gltf"

	"physview/scene"
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
		{Extensions: gltf.Extensions{"KHR_materials_sheen": nil, "KHR_materials_volume_scatter": nil}},
		{Extensions: gltf.Extensions{"EXT_materials_made_up": nil, "KHR_materials_iridescence": nil, "KHR_materials_volume_scatter": nil}},
		nil,
	}
	got := unrenderedExtensions(mats)
	want := []string{"EXT_materials_made_up", "KHR_materials_volume_scatter"}
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

// ratifiedMaterialExtensions are the Khronos-ratified material extensions
// (and the archived specular-glossiness one many older files use).
var ratifiedMaterialExtensions = []string{
	"KHR_materials_anisotropy", "KHR_materials_clearcoat", "KHR_materials_diffuse_transmission",
	"KHR_materials_dispersion", "KHR_materials_emissive_strength", "KHR_materials_ior",
	"KHR_materials_iridescence", "KHR_materials_pbrSpecularGlossiness", "KHR_materials_sheen",
	"KHR_materials_specular", "KHR_materials_transmission", "KHR_materials_unlit",
	"KHR_materials_variants", "KHR_materials_volume", "KHR_texture_transform",
}

// TestNoRatifiedExtensionUnrendered: no ratified material extension is on
// the "not rendered" list, and the document side honours each (a file that
// requires one opens).
func TestNoRatifiedExtensionUnrendered(t *testing.T) {
	for _, name := range ratifiedMaterialExtensions {
		if got := unrenderedExtensions([]*gltf.Material{{Extensions: gltf.Extensions{name: nil}}}); len(got) != 0 {
			t.Errorf("%s: listed as not rendered", name)
		}
		if !scene.ExtensionShown(name) {
			t.Errorf("%s: not honoured by scene (a file requiring it is refused)", name)
		}
	}
}

// TestNewMaterialExtensions reads the factors and texture slots of
// iridescence, anisotropy, dispersion, diffuse transmission and
// specular-glossiness, with their defaults.
func TestNewMaterialExtensions(t *testing.T) {
	const src = `{
	  "pbrMetallicRoughness": {"baseColorFactor": [0.1, 0.1, 0.1, 1], "baseColorTexture": {"index": 9},
	    "metallicRoughnessTexture": {"index": 9}, "metallicFactor": 1},
	  "extensions": {
	    "KHR_materials_pbrSpecularGlossiness": {"diffuseFactor": [0.5, 0.25, 1, 0.75], "specularFactor": [1, 0.5, 0],
	      "glossinessFactor": 0.6, "diffuseTexture": {"index": 1, "texCoord": 1},
	      "specularGlossinessTexture": {"index": 2, "extensions": {"KHR_texture_transform": {"offset": [0.5, 0]}}}},
	    "KHR_materials_iridescence": {"iridescenceFactor": 0.7, "iridescenceIor": 1.8, "iridescenceThicknessMinimum": 50,
	      "iridescenceThicknessMaximum": 900, "iridescenceTexture": {"index": 3}, "iridescenceThicknessTexture": {"index": 4, "texCoord": 1}},
	    "KHR_materials_anisotropy": {"anisotropyStrength": 0.4, "anisotropyRotation": 1.5, "anisotropyTexture": {"index": 5}},
	    "KHR_materials_dispersion": {"dispersion": 3},
	    "KHR_materials_diffuse_transmission": {"diffuseTransmissionFactor": 0.25, "diffuseTransmissionColorFactor": [1, 0.5, 0],
	      "diffuseTransmissionTexture": {"index": 6}, "diffuseTransmissionColorTexture": {"index": 7}}
	  }
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
		{"diffuse g (base colour)", m.baseColor[1], 0.25},
		{"diffuse alpha", m.baseColor[3], 0.75},
		{"spec-gloss specular g", m.specGlossFactor[1], 0.5},
		{"glossiness", m.glossiness, 0.6},
		{"metallic (none in spec-gloss)", m.metallic, 0},
		{"iridescence", m.iridescence, 0.7},
		{"iridescence ior", m.iridescenceIor, 1.8},
		{"iridescence thickness min", m.iridescenceThick[0], 50},
		{"iridescence thickness max", m.iridescenceThick[1], 900},
		{"anisotropy strength", m.anisotropy, 0.4},
		{"anisotropy rotation", m.anisotropyRot, 1.5},
		{"dispersion", m.dispersion, 3},
		{"diffuse transmission", m.diffuseTransmission, 0.25},
		{"diffuse transmission colour g", m.diffuseTransmissionColor[1], 0.5},
	} {
		if c.got != c.want {
			t.Errorf("%s = %g, want %g", c.name, c.got, c.want)
		}
	}
	if !m.specGloss {
		t.Error("specular-glossiness workflow not set")
	}
	for slot, want := range map[int]int{slotBaseColor: 1, slotSpecGloss: 2, slotIridescence: 3, slotIridescenceThickness: 4,
		slotAnisotropy: 5, slotDiffuseTransmission: 6, slotDiffuseTransmissionColor: 7, slotMetalRough: -1} {
		if m.tex[slot].texture != want {
			t.Errorf("slot %d: texture %d, want %d", slot, m.tex[slot].texture, want)
		}
	}
	if m.tex[slotBaseColor].texCoord != 1 || m.tex[slotIridescenceThickness].texCoord != 1 {
		t.Errorf("diffuse texture on UV %d, thickness texture on UV %d; want 1 and 1", m.tex[slotBaseColor].texCoord, m.tex[slotIridescenceThickness].texCoord)
	}
	if m.tex[slotSpecGloss].transform[6] != 0.5 {
		t.Errorf("specular-glossiness transform %v: want offset 0.5 in u", m.tex[slotSpecGloss].transform)
	}
	for slot, srgb := range map[int]bool{slotSpecGloss: true, slotDiffuseTransmissionColor: true, slotIridescence: false,
		slotIridescenceThickness: false, slotAnisotropy: false, slotDiffuseTransmission: false} {
		if slotSRGB(slot) != srgb {
			t.Errorf("slot %d: sRGB %v, want %v", slot, slotSRGB(slot), srgb)
		}
	}
	want := featSpecGloss | featIridescence | featAnisotropy | featDiffuseTransmission
	if f := m.features(); f != want {
		t.Errorf("features %s, want %s", f, want)
	}

	var plain gltf.Material
	json.Unmarshal([]byte(`{"extensions": {"KHR_materials_iridescence": {}, "KHR_materials_anisotropy": {},
	  "KHR_materials_diffuse_transmission": {}, "KHR_materials_pbrSpecularGlossiness": {}}}`), &plain)
	d := newMaterial(&plain)
	if d.iridescence != 0 || d.iridescenceIor != 1.3 || d.iridescenceThick != [2]float32{100, 400} || d.anisotropy != 0 ||
		d.diffuseTransmission != 0 || d.diffuseTransmissionColor != [3]float32{1, 1, 1} ||
		d.baseColor != [4]float32{1, 1, 1, 1} || d.specGlossFactor != [3]float32{1, 1, 1} || d.glossiness != 1 {
		t.Errorf("defaults: %+v", d)
	}
	if f := d.features(); f != featSpecGloss {
		t.Errorf("defaults: features %s, want only specular-glossiness (the others are zero)", f)
	}
}
