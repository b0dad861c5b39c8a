package render

import (
	"encoding/json"
	"math"
	"sort"
	"strings"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/qmuntal/gltf"

	"physview/scene"
	"physview/shaders"
)

// Texture slots of the mesh shader.
const (
	slotBaseColor = iota
	slotMetalRough
	slotNormal
	slotOcclusion
	slotEmissive
	slotSheenColor
	slotSheenRoughness
	slotSpecular
	slotSpecularColor
	slotClearcoat
	slotClearcoatRoughness
	slotClearcoatNormal
	slotTransmission
	slotThickness
	slotSpecGloss // KHR_materials_pbrSpecularGlossiness: specular RGB (sRGB), glossiness A
	slotIridescence
	slotIridescenceThickness
	slotAnisotropy
	slotDiffuseTransmission
	slotDiffuseTransmissionColor
	slotDiffuseRoughness // KHR_materials_diffuse_roughness: R
	slotFuzz             // KHR_materials_fuzz: weight in R
	slotFuzzColor
	slotFuzzRoughness // A
	slotCount
)

// slotSRGB reports whether a slot holds colour (sRGB-encoded) rather than data.
func slotSRGB(slot int) bool {
	switch slot {
	case slotBaseColor, slotEmissive, slotSheenColor, slotSpecularColor, slotSpecGloss, slotDiffuseTransmissionColor, slotFuzzColor:
		return true
	}
	return false
}

// shaderFeatures are the optional parts of the mesh shader a material
// needs; each set is its own program.
type shaderFeatures uint64

// The optional shader parts.
const (
	featSheen shaderFeatures = 1 << iota
	featClearcoat
	featTransmission // with volume and dispersion
	featIridescence
	featAnisotropy
	featDiffuseTransmission
	featSpecGloss // the specular-glossiness workflow
	featDiffuseRoughness
	featFuzz
	// The vertex paths (mesh.vert): skins, morph targets and the file's
	// instancing; the batches of repeated nodes (batch.go). A plain draw
	// has neither, and its vertices cost a third as much on llvmpipe.
	// The attributes a primitive lacks (its buffer holds their defaults),
	// not passed from vertex to fragment (gpuPrimitive.lean): each varying
	// costs llvmpipe set-up per vertex and per triangle, a fixed part of
	// every redraw however few its pixels.
	featNoTangent shaderFeatures = 1 << firstLeanBit
	featNoUV1     shaderFeatures = 1 << (firstLeanBit + 1)
	featNoUV2     shaderFeatures = 1 << (firstLeanBit + 2)
	featNoColor   shaderFeatures = 1 << (firstLeanBit + 3)
	featLean                     = featNoTangent | featNoUV1 | featNoUV2 | featNoColor

	featVertexDynamic shaderFeatures = 1 << 14
	featVertexBatch   shaderFeatures = 1 << 15
)

// firstLeanBit is featNoTangent's bit: from it on, the defines concern
// the vertex shader too (meshVertSource).
const firstLeanBit = 9

// firstAbsentBit is the bit of texture slot 0 in the features a draw's
// program is compiled with (absentTextures): slotCount bits from it on.
const firstAbsentBit = 16

// compileOutTextures turns absentTextures on; tests turn it off to compare.
var compileOutTextures = true

// absentTextures returns a bit (firstAbsentBit + slot) for every texture
// slot m has no texture in: its program is compiled with that slot's
// uHasTex test replaced by false (meshSource). llvmpipe runs both sides
// of an if on a uniform, so a slot tested at run time costs its texture
// read and UV transform in every fragment block, textured or not (with
// the lean varyings, 12-16% of the lamp's full redraw, 4-7% of its
// reduced ones: docs/benchmarks.md).
func (m *material) absentTextures() shaderFeatures {
	if !compileOutTextures {
		return 0
	}
	var f shaderFeatures
	for slot, ref := range m.tex {
		if ref.texture < 0 {
			f |= 1 << (firstAbsentBit + slot)
		}
	}
	return f
}

// featureDefines are the shader's #define names of the features, by bit.
var featureDefines = []string{"SHEEN", "CLEARCOAT", "TRANSMISSION", "IRIDESCENCE", "ANISOTROPY", "DIFFUSE_TRANSMISSION", "SPECGLOSS", "DIFFUSE_ROUGHNESS", "FUZZ",
	"NO_TANGENT", "NO_UV1", "NO_UV2", "NO_COLOR"}

// String lists the features, for messages.
func (f shaderFeatures) String() string {
	var names []string
	for i, n := range []string{"sheen", "clearcoat", "transmission", "iridescence", "anisotropy", "diffuse transmission", "specular-glossiness", "diffuse roughness", "fuzz"} {
		if f&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "no extensions"
	}
	return strings.Join(names, ", ")
}

// features says which optional shader parts m needs.
func (m *material) features() shaderFeatures {
	var f shaderFeatures
	if m.unlit {
		return 0
	}
	if max(m.sheenColor[0], m.sheenColor[1], m.sheenColor[2]) > 0 && m.fuzz <= 0 {
		// KHR_materials_fuzz takes the place of sheen, its fallback.
		f |= featSheen
	}
	if m.clearcoat > 0 {
		f |= featClearcoat
	}
	if m.transmission > 0 {
		f |= featTransmission
	}
	if m.iridescence > 0 {
		f |= featIridescence
	}
	if m.anisotropy > 0 {
		f |= featAnisotropy
	}
	if m.diffuseTransmission > 0 {
		f |= featDiffuseTransmission
	}
	if m.specGloss {
		f |= featSpecGloss
	}
	if m.diffuseRoughness > 0 && !m.specGloss {
		f |= featDiffuseRoughness
	}
	if m.fuzz > 0 && !m.specGloss {
		f |= featFuzz
	}
	return f
}

// meshSource is the mesh fragment shader with f's parts defined and the
// tests of the texture slots f marks absent replaced by false.
func meshSource(f shaderFeatures) string {
	src := shaders.MeshFrag
	nl := strings.IndexByte(src, '\n') + 1
	var defs strings.Builder
	for i, n := range featureDefines {
		if f&(1<<i) != 0 {
			defs.WriteString("#define " + n + "\n")
		}
	}
	out := src[:nl] + defs.String() + src[nl:]
	for slot := 0; slot < slotCount; slot++ {
		if f&(1<<(firstAbsentBit+slot)) != 0 {
			out = strings.ReplaceAll(out, slotUniforms[slot].has, "false")
		}
	}
	return out
}

// meshVertSource is the mesh vertex shader with f's vertex path defined.
func meshVertSource(f shaderFeatures) string {
	src := shaders.MeshVert
	var defs string
	if f&featVertexDynamic != 0 {
		defs += "#define VERTEX_DYNAMIC\n"
	}
	if f&featVertexBatch != 0 {
		defs += "#define VERTEX_BATCH\n"
	}
	for i := firstLeanBit; i < len(featureDefines); i++ {
		if f&(1<<i) != 0 {
			defs += "#define " + featureDefines[i] + "\n"
		}
	}
	if defs == "" {
		return src
	}
	nl := strings.IndexByte(src, '\n') + 1
	return src[:nl] + defs + src[nl:]
}

// textureRef is one material texture: which glTF texture, which UV set and
// the KHR_texture_transform matrix.
type textureRef struct {
	texture   int // -1 when absent
	texCoord  int
	transform mgl32.Mat3
}

// material is a glTF material reduced to the shader's uniforms.
type material struct {
	baseColor         [4]float32
	metallic          float32
	roughness         float32
	emissive          [3]float32
	normalScale       float32
	occlusionStrength float32
	alphaMode         int32 // 0 opaque, 1 mask, 2 blend
	alphaCutoff       float32
	doubleSided       bool
	unlit             bool
	tex               [slotCount]textureRef

	ior                  float32
	specular             float32
	specularColor        [3]float32
	sheenColor           [3]float32
	sheenRoughness       float32
	clearcoat            float32
	clearcoatRoughness   float32
	clearcoatNormalScale float32
	transmission         float32
	thickness            float32
	attenuationColor     [3]float32
	attenuationDistance  float32 // 0: infinite
	dispersion           float32

	// KHR_materials_pbrSpecularGlossiness: baseColor holds the diffuse
	// factor and the base colour slot the diffuse texture.
	specGloss        bool
	specGlossFactor  [3]float32
	glossiness       float32
	iridescence      float32
	iridescenceIor   float32
	iridescenceThick [2]float32 // minimum, maximum in nanometres
	anisotropy       float32
	anisotropyRot    float32 // radians

	diffuseTransmission      float32
	diffuseTransmissionColor [3]float32

	// KHR_materials_diffuse_roughness: the roughness of the diffuse lobe.
	diffuseRoughness float32
	// KHR_materials_fuzz: the layer's weight, colour and roughness.
	fuzz          float32
	fuzzColor     [3]float32
	fuzzRoughness float32
	// KHR_materials_coat, drawn by the clearcoat code: the coat's Fresnel
	// at normal incidence (from coatIor; clearcoat's is 0.04) and the
	// colour it tints what is below with.
	coatF0    float32
	coatColor [3]float32
}

func defaultMaterial() material {
	m := material{baseColor: [4]float32{1, 1, 1, 1}, metallic: 1, roughness: 1, normalScale: 1, occlusionStrength: 1, alphaCutoff: 0.5,
		ior: 1.5, specular: 1, specularColor: [3]float32{1, 1, 1}, clearcoatNormalScale: 1, attenuationColor: [3]float32{1, 1, 1},
		specGlossFactor: [3]float32{1, 1, 1}, glossiness: 1, iridescenceIor: 1.3, iridescenceThick: [2]float32{100, 400},
		diffuseTransmissionColor: [3]float32{1, 1, 1}, fuzzColor: [3]float32{1, 1, 1}, fuzzRoughness: 0.5,
		coatF0: 0.04, coatColor: [3]float32{1, 1, 1}}
	for i := range m.tex {
		m.tex[i] = textureRef{texture: -1, transform: mgl32.Ident3()}
	}
	return m
}

func newMaterial(src *gltf.Material) material {
	m := defaultMaterial()
	if src == nil {
		return m
	}
	if pbr := src.PBRMetallicRoughness; pbr != nil {
		m.baseColor = f32x4(pbr.BaseColorFactorOrDefault())
		m.metallic = float32(pbr.MetallicFactorOrDefault())
		m.roughness = float32(pbr.RoughnessFactorOrDefault())
		if t := pbr.BaseColorTexture; t != nil {
			m.tex[slotBaseColor] = texRef(t.Index, t.TexCoord, t.Extensions)
		}
		if t := pbr.MetallicRoughnessTexture; t != nil {
			m.tex[slotMetalRough] = texRef(t.Index, t.TexCoord, t.Extensions)
		}
	}
	if t := src.NormalTexture; t != nil && t.Index != nil {
		m.tex[slotNormal] = texRef(*t.Index, t.TexCoord, t.Extensions)
		m.normalScale = float32(t.ScaleOrDefault())
	}
	if t := src.OcclusionTexture; t != nil && t.Index != nil {
		m.tex[slotOcclusion] = texRef(*t.Index, t.TexCoord, t.Extensions)
		m.occlusionStrength = float32(t.StrengthOrDefault())
	}
	if t := src.EmissiveTexture; t != nil {
		m.tex[slotEmissive] = texRef(t.Index, t.TexCoord, t.Extensions)
	}
	e := src.EmissiveFactor
	strength := 1.0
	var es struct {
		EmissiveStrength *float64 `json:"emissiveStrength"`
	}
	if rawExtension(src.Extensions, "KHR_materials_emissive_strength", &es) && es.EmissiveStrength != nil {
		strength = *es.EmissiveStrength
	}
	m.emissive = [3]float32{float32(e[0] * strength), float32(e[1] * strength), float32(e[2] * strength)}
	switch src.AlphaMode {
	case gltf.AlphaMask:
		m.alphaMode = 1
	case gltf.AlphaBlend:
		m.alphaMode = 2
	}
	m.alphaCutoff = float32(src.AlphaCutoffOrDefault())
	m.doubleSided = src.DoubleSided
	_, m.unlit = src.Extensions["KHR_materials_unlit"]
	readExtensions(&m, src.Extensions)
	return m
}

// extTexture is a textureInfo inside a material extension.
type extTexture struct {
	Index      *int            `json:"index"`
	TexCoord   int             `json:"texCoord"`
	Scale      *float64        `json:"scale"`
	Extensions gltf.Extensions `json:"extensions"`
}

func (t *extTexture) ref() (textureRef, bool) {
	if t == nil || t.Index == nil {
		return textureRef{}, false
	}
	return texRef(*t.Index, t.TexCoord, t.Extensions), true
}

func f32x3(v *[3]float64, def [3]float32) [3]float32 {
	if v == nil {
		return def
	}
	return [3]float32{float32(v[0]), float32(v[1]), float32(v[2])}
}

func f32or(v *float64, def float32) float32 {
	if v == nil {
		return def
	}
	return float32(*v)
}

// readExtensions reads the KHR material extensions into m, following each
// extension's defaults.
func readExtensions(m *material, exts gltf.Extensions) {
	set := func(slot int, t *extTexture) {
		if r, ok := t.ref(); ok {
			m.tex[slot] = r
		}
	}
	var ior struct {
		Ior *float64 `json:"ior"`
	}
	if rawExtension(exts, "KHR_materials_ior", &ior) {
		m.ior = f32or(ior.Ior, 1.5)
	}
	var spec struct {
		Factor       *float64    `json:"specularFactor"`
		Texture      *extTexture `json:"specularTexture"`
		ColorFactor  *[3]float64 `json:"specularColorFactor"`
		ColorTexture *extTexture `json:"specularColorTexture"`
	}
	if rawExtension(exts, "KHR_materials_specular", &spec) {
		m.specular = f32or(spec.Factor, 1)
		m.specularColor = f32x3(spec.ColorFactor, [3]float32{1, 1, 1})
		set(slotSpecular, spec.Texture)
		set(slotSpecularColor, spec.ColorTexture)
	}
	var sheen struct {
		ColorFactor      *[3]float64 `json:"sheenColorFactor"`
		ColorTexture     *extTexture `json:"sheenColorTexture"`
		RoughnessFactor  *float64    `json:"sheenRoughnessFactor"`
		RoughnessTexture *extTexture `json:"sheenRoughnessTexture"`
	}
	if rawExtension(exts, "KHR_materials_sheen", &sheen) {
		m.sheenColor = f32x3(sheen.ColorFactor, [3]float32{})
		m.sheenRoughness = f32or(sheen.RoughnessFactor, 0)
		set(slotSheenColor, sheen.ColorTexture)
		set(slotSheenRoughness, sheen.RoughnessTexture)
	}
	var cc struct {
		Factor           *float64    `json:"clearcoatFactor"`
		Texture          *extTexture `json:"clearcoatTexture"`
		RoughnessFactor  *float64    `json:"clearcoatRoughnessFactor"`
		RoughnessTexture *extTexture `json:"clearcoatRoughnessTexture"`
		NormalTexture    *extTexture `json:"clearcoatNormalTexture"`
	}
	if rawExtension(exts, "KHR_materials_clearcoat", &cc) {
		m.clearcoat = f32or(cc.Factor, 0)
		m.clearcoatRoughness = f32or(cc.RoughnessFactor, 0)
		set(slotClearcoat, cc.Texture)
		set(slotClearcoatRoughness, cc.RoughnessTexture)
		set(slotClearcoatNormal, cc.NormalTexture)
		if cc.NormalTexture != nil && cc.NormalTexture.Scale != nil {
			m.clearcoatNormalScale = float32(*cc.NormalTexture.Scale)
		}
	}
	var tr struct {
		Factor  *float64    `json:"transmissionFactor"`
		Texture *extTexture `json:"transmissionTexture"`
	}
	if rawExtension(exts, "KHR_materials_transmission", &tr) {
		m.transmission = f32or(tr.Factor, 0)
		set(slotTransmission, tr.Texture)
	}
	var vol struct {
		Thickness           *float64    `json:"thicknessFactor"`
		ThicknessTexture    *extTexture `json:"thicknessTexture"`
		AttenuationDistance *float64    `json:"attenuationDistance"`
		AttenuationColor    *[3]float64 `json:"attenuationColor"`
	}
	if rawExtension(exts, "KHR_materials_volume", &vol) {
		m.thickness = f32or(vol.Thickness, 0)
		set(slotThickness, vol.ThicknessTexture)
		m.attenuationColor = f32x3(vol.AttenuationColor, [3]float32{1, 1, 1})
		if vol.AttenuationDistance != nil && *vol.AttenuationDistance > 0 && !math.IsInf(*vol.AttenuationDistance, 1) {
			m.attenuationDistance = float32(*vol.AttenuationDistance)
		}
	}
	var disp struct {
		Dispersion *float64 `json:"dispersion"`
	}
	if rawExtension(exts, "KHR_materials_dispersion", &disp) {
		m.dispersion = f32or(disp.Dispersion, 0)
	}
	var sg struct {
		DiffuseFactor  *[4]float64 `json:"diffuseFactor"`
		DiffuseTexture *extTexture `json:"diffuseTexture"`
		SpecularFactor *[3]float64 `json:"specularFactor"`
		Glossiness     *float64    `json:"glossinessFactor"`
		SGTexture      *extTexture `json:"specularGlossinessTexture"`
	}
	if rawExtension(exts, "KHR_materials_pbrSpecularGlossiness", &sg) {
		// The workflow replaces the core metallic-roughness one: its
		// factors and textures are the fallback for other viewers.
		m.specGloss = true
		m.baseColor = [4]float32{1, 1, 1, 1}
		if sg.DiffuseFactor != nil {
			m.baseColor = f32x4(*sg.DiffuseFactor)
		}
		m.specGlossFactor = f32x3(sg.SpecularFactor, [3]float32{1, 1, 1})
		m.glossiness = f32or(sg.Glossiness, 1)
		m.metallic, m.roughness = 0, 1
		m.tex[slotBaseColor] = textureRef{texture: -1, transform: mgl32.Ident3()}
		m.tex[slotMetalRough] = textureRef{texture: -1, transform: mgl32.Ident3()}
		set(slotBaseColor, sg.DiffuseTexture)
		set(slotSpecGloss, sg.SGTexture)
	}
	var ir struct {
		Factor           *float64    `json:"iridescenceFactor"`
		Texture          *extTexture `json:"iridescenceTexture"`
		Ior              *float64    `json:"iridescenceIor"`
		ThicknessMin     *float64    `json:"iridescenceThicknessMinimum"`
		ThicknessMax     *float64    `json:"iridescenceThicknessMaximum"`
		ThicknessTexture *extTexture `json:"iridescenceThicknessTexture"`
	}
	if rawExtension(exts, "KHR_materials_iridescence", &ir) {
		m.iridescence = f32or(ir.Factor, 0)
		m.iridescenceIor = f32or(ir.Ior, 1.3)
		m.iridescenceThick = [2]float32{f32or(ir.ThicknessMin, 100), f32or(ir.ThicknessMax, 400)}
		set(slotIridescence, ir.Texture)
		set(slotIridescenceThickness, ir.ThicknessTexture)
	}
	var an struct {
		Strength *float64    `json:"anisotropyStrength"`
		Rotation *float64    `json:"anisotropyRotation"`
		Texture  *extTexture `json:"anisotropyTexture"`
	}
	if rawExtension(exts, "KHR_materials_anisotropy", &an) {
		m.anisotropy = f32or(an.Strength, 0)
		m.anisotropyRot = f32or(an.Rotation, 0)
		set(slotAnisotropy, an.Texture)
	}
	var dt struct {
		Factor       *float64    `json:"diffuseTransmissionFactor"`
		Texture      *extTexture `json:"diffuseTransmissionTexture"`
		ColorFactor  *[3]float64 `json:"diffuseTransmissionColorFactor"`
		ColorTexture *extTexture `json:"diffuseTransmissionColorTexture"`
	}
	if rawExtension(exts, "KHR_materials_diffuse_transmission", &dt) {
		m.diffuseTransmission = f32or(dt.Factor, 0)
		m.diffuseTransmissionColor = f32x3(dt.ColorFactor, [3]float32{1, 1, 1})
		set(slotDiffuseTransmission, dt.Texture)
		set(slotDiffuseTransmissionColor, dt.ColorTexture)
	}
	var dr struct {
		Factor  *float64    `json:"diffuseRoughnessFactor"`
		Texture *extTexture `json:"diffuseRoughnessTexture"`
	}
	if rawExtension(exts, "KHR_materials_diffuse_roughness", &dr) {
		m.diffuseRoughness = f32or(dr.Factor, 0)
		set(slotDiffuseRoughness, dr.Texture)
	}
	var fz struct {
		Factor           *float64    `json:"fuzzFactor"`
		Texture          *extTexture `json:"fuzzTexture"`
		ColorFactor      *[3]float64 `json:"fuzzColorFactor"`
		ColorTexture     *extTexture `json:"fuzzColorTexture"`
		RoughnessFactor  *float64    `json:"fuzzRoughnessFactor"`
		RoughnessTexture *extTexture `json:"fuzzRoughnessTexture"`
	}
	if rawExtension(exts, "KHR_materials_fuzz", &fz) {
		m.fuzz = f32or(fz.Factor, 0)
		m.fuzzColor = f32x3(fz.ColorFactor, [3]float32{1, 1, 1})
		m.fuzzRoughness = f32or(fz.RoughnessFactor, 0.5)
		set(slotFuzz, fz.Texture)
		set(slotFuzzColor, fz.ColorTexture)
		set(slotFuzzRoughness, fz.RoughnessTexture)
	}
	var coat struct {
		Factor           *float64    `json:"coatFactor"`
		Texture          *extTexture `json:"coatTexture"`
		RoughnessFactor  *float64    `json:"coatRoughnessFactor"`
		RoughnessTexture *extTexture `json:"coatRoughnessTexture"`
		NormalTexture    *extTexture `json:"coatNormalTexture"`
		Ior              *float64    `json:"coatIor"`
		ColorFactor      *[3]float64 `json:"coatColorFactor"`
	}
	if rawExtension(exts, "KHR_materials_coat", &coat) {
		// The successor of KHR_materials_clearcoat, which is then only its
		// fallback: the same layer with its own IOR and a colour. Its
		// colour texture, darkening and anisotropy are not drawn (see
		// docs/rendering.md).
		m.clearcoat = f32or(coat.Factor, 0)
		m.clearcoatRoughness = f32or(coat.RoughnessFactor, 0)
		m.clearcoatNormalScale = 1
		for _, s := range []int{slotClearcoat, slotClearcoatRoughness, slotClearcoatNormal} {
			m.tex[s] = textureRef{texture: -1, transform: mgl32.Ident3()}
		}
		set(slotClearcoat, coat.Texture)
		set(slotClearcoatRoughness, coat.RoughnessTexture)
		set(slotClearcoatNormal, coat.NormalTexture)
		if coat.NormalTexture != nil && coat.NormalTexture.Scale != nil {
			m.clearcoatNormalScale = float32(*coat.NormalTexture.Scale)
		}
		if ior := f32or(coat.Ior, 1.5); ior >= 1 {
			m.coatF0 = float32(math.Pow(float64((ior-1)/(ior+1)), 2))
		}
		m.coatColor = f32x3(coat.ColorFactor, [3]float32{1, 1, 1})
	}
}

// unrenderedExtensions lists, once each and sorted, the material (and
// material texture) extensions of d that the renderer does not draw: those
// scene does not list as honoured (scene.ExtensionShown, the one list of
// what the viewer shows, which the shader's extensions are on).
func unrenderedExtensions(mats []*gltf.Material) []string {
	seen := map[string]bool{}
	for _, m := range mats {
		if m == nil {
			continue
		}
		for name := range m.Extensions {
			if !scene.ExtensionShown(name) {
				seen[name] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for name := range seen {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

func f32x4(v [4]float64) [4]float32 {
	return [4]float32{float32(v[0]), float32(v[1]), float32(v[2]), float32(v[3])}
}

// texRef reads a texture reference with its KHR_texture_transform, which
// may override the UV set.
func texRef(index, texCoord int, exts gltf.Extensions) textureRef {
	r := textureRef{texture: index, texCoord: texCoord, transform: mgl32.Ident3()}
	var tt struct {
		Offset   [2]float64  `json:"offset"`
		Rotation float64     `json:"rotation"`
		Scale    *[2]float64 `json:"scale"`
		TexCoord *int        `json:"texCoord"`
	}
	if rawExtension(exts, "KHR_texture_transform", &tt) {
		s := [2]float64{1, 1}
		if tt.Scale != nil {
			s = *tt.Scale
		}
		c, sn := math.Cos(tt.Rotation), math.Sin(tt.Rotation)
		// T * R * S, as the extension specifies (rotation is counter-clockwise in UV space).
		t := mgl32.Mat3{1, 0, 0, 0, 1, 0, float32(tt.Offset[0]), float32(tt.Offset[1]), 1}
		rot := mgl32.Mat3{float32(c), float32(-sn), 0, float32(sn), float32(c), 0, 0, 0, 1}
		sc := mgl32.Mat3{float32(s[0]), 0, 0, 0, float32(s[1]), 0, 0, 0, 1}
		r.transform = t.Mul3(rot).Mul3(sc)
		if tt.TexCoord != nil {
			r.texCoord = *tt.TexCoord
		}
	}
	return r
}

// rawExtension decodes extension name from exts into v.
func rawExtension(exts gltf.Extensions, name string, v any) bool {
	raw, ok := exts[name]
	if !ok {
		return false
	}
	var b []byte
	switch r := raw.(type) {
	case json.RawMessage:
		b = r
	default:
		var err error
		if b, err = json.Marshal(r); err != nil {
			return false
		}
	}
	return json.Unmarshal(b, v) == nil
}
