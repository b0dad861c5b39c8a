package render

import (
	"encoding/json"
	"math"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/qmuntal/gltf"
)

// Texture slots of the mesh shader.
const (
	slotBaseColor = iota
	slotMetalRough
	slotNormal
	slotOcclusion
	slotEmissive
	slotCount
)

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
}

func defaultMaterial() material {
	m := material{baseColor: [4]float32{1, 1, 1, 1}, metallic: 1, roughness: 1, normalScale: 1, occlusionStrength: 1, alphaCutoff: 0.5}
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
	return m
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
