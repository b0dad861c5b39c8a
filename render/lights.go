package render

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// light is a KHR_lights_punctual light placed in the world.
type light struct {
	kind      int32 // 0 directional, 1 point, 2 spot
	color     [3]float32
	pos, dir  mgl64.Vec3
	rng       float32
	coneOuter float32
	coneInner float32
}

// lightsOf returns the file's KHR_lights_punctual lights (at most 4), or nil.
func lightsOf(d *scene.Document) []light { return lightsAt(d, d.WorldMatrices(), nil) }

// lightsAt is lightsOf with the nodes at world (a pose's world matrices)
// and the light properties props animates through KHR_animation_pointer
// (by pointer; nil for none).
func lightsAt(d *scene.Document, world []mgl64.Mat4, props map[string][]float64) []light {
	var defs struct {
		Lights []struct {
			Type      string      `json:"type"`
			Color     *[3]float64 `json:"color"`
			Intensity *float64    `json:"intensity"`
			Range     float64     `json:"range"`
			Spot      struct {
				Inner *float64 `json:"innerConeAngle"`
				Outer *float64 `json:"outerConeAngle"`
			} `json:"spot"`
		} `json:"lights"`
	}
	if !rawExtension(d.GLTF.Extensions, "KHR_lights_punctual", &defs) {
		return nil
	}
	var out []light
	for _, n := range d.SceneNodes() {
		var ref struct {
			Light *int `json:"light"`
		}
		if !rawExtension(d.GLTF.Nodes[n].Extensions, "KHR_lights_punctual", &ref) || ref.Light == nil || *ref.Light < 0 || *ref.Light >= len(defs.Lights) {
			continue
		}
		def := defs.Lights[*ref.Light]
		animateLight(&def.Color, &def.Intensity, &def.Range, &def.Spot.Inner, &def.Spot.Outer, props, *ref.Light)
		c := [3]float64{1, 1, 1}
		if def.Color != nil {
			c = *def.Color
		}
		intensity := 1.0
		if def.Intensity != nil {
			intensity = *def.Intensity
		}
		l := light{rng: float32(def.Range)}
		m := world[n]
		l.pos = m.Col(3).Vec3()
		l.dir = m.Mul4x1(mgl64.Vec4{0, 0, -1, 0}).Vec3().Normalize()
		switch def.Type {
		case "directional":
			l.kind = 0
		case "spot":
			l.kind = 2
			inner, outer := 0.0, math.Pi/4
			if def.Spot.Inner != nil {
				inner = *def.Spot.Inner
			}
			if def.Spot.Outer != nil {
				outer = *def.Spot.Outer
			}
			l.coneOuter, l.coneInner = float32(math.Cos(outer)), float32(math.Cos(inner))
		default:
			l.kind = 1
		}
		// Intensities are used as the spec gives them (lux for directional,
		// candela for point and spot), as the Khronos Sample Viewer does.
		scale := intensity
		l.color = [3]float32{float32(c[0] * scale), float32(c[1] * scale), float32(c[2] * scale)}
		out = append(out, l)
		if len(out) == 4 {
			break
		}
	}
	return out
}

// setLights sets the light uniforms: the file's KHR_lights_punctual
// lights. Without any, the environment is the only light.
func (r *Renderer) setLights(p *program) {
	lights := r.lights
	p.int("uLightCount", int32(len(lights)))
	for i, l := range lights {
		p.int(fmt.Sprintf("uLightType[%d]", i), l.kind)
		p.vec3(fmt.Sprintf("uLightColor[%d]", i), l.color)
		p.vec3(fmt.Sprintf("uLightPos[%d]", i), [3]float32{float32(l.pos[0]), float32(l.pos[1]), float32(l.pos[2])})
		p.vec3(fmt.Sprintf("uLightDir[%d]", i), [3]float32{float32(l.dir[0]), float32(l.dir[1]), float32(l.dir[2])})
		p.float(fmt.Sprintf("uLightRange[%d]", i), l.rng)
		p.vec2(fmt.Sprintf("uLightCone[%d]", i), [2]float32{l.coneOuter, l.coneInner})
	}
}

// animateLight replaces a light's values by those props animates.
func animateLight(color **[3]float64, intensity *(*float64), rng *float64, inner, outer **float64, props map[string][]float64, i int) {
	if len(props) == 0 {
		return
	}
	at := func(name string) []float64 {
		return props[fmt.Sprintf("/extensions/KHR_lights_punctual/lights/%d/%s", i, name)]
	}
	if v := at("color"); len(v) >= 3 {
		c := [3]float64{v[0], v[1], v[2]}
		*color = &c
	}
	for _, f := range []struct {
		name string
		dst  **float64
	}{{"intensity", intensity}, {"spot/innerConeAngle", inner}, {"spot/outerConeAngle", outer}} {
		if v := at(f.name); len(v) >= 1 {
			x := v[0]
			*f.dst = &x
		}
	}
	if v := at("range"); len(v) >= 1 {
		*rng = v[0]
	}
}
