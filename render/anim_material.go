package render

import (
	"strconv"
	"strings"
)

// posedMaterials returns the materials with the factors the pose animates
// through KHR_animation_pointer (base colour, metallic, roughness,
// emissive, alpha cutoff, normal scale, occlusion strength) replaced; nil
// when the pose animates none.
func (r *Renderer) posedMaterials() map[int]material {
	if r.pose == nil || len(r.pose.Props) == 0 {
		return nil
	}
	var out map[int]material
	for ptr, v := range r.pose.Props {
		rest, ok := strings.CutPrefix(ptr, "/materials/")
		if !ok {
			continue
		}
		idxText, prop, ok := strings.Cut(rest, "/")
		idx, err := strconv.Atoi(idxText)
		if !ok || err != nil || idx < 0 || idx >= len(r.materials) {
			continue
		}
		if out == nil {
			out = map[int]material{}
		}
		m, seen := out[idx]
		if !seen {
			m = r.materials[idx]
		}
		f := func(i int) float32 {
			if i < len(v) {
				return float32(v[i])
			}
			return 0
		}
		switch prop {
		case "pbrMetallicRoughness/baseColorFactor":
			m.baseColor = [4]float32{f(0), f(1), f(2), f(3)}
		case "pbrMetallicRoughness/metallicFactor":
			m.metallic = f(0)
		case "pbrMetallicRoughness/roughnessFactor":
			m.roughness = f(0)
		case "emissiveFactor":
			m.emissive = [3]float32{f(0), f(1), f(2)}
		case "alphaCutoff":
			m.alphaCutoff = f(0)
		case "normalTexture/scale":
			m.normalScale = f(0)
		case "occlusionTexture/strength":
			m.occlusionStrength = f(0)
		default:
			continue
		}
		out[idx] = m
	}
	return out
}
