package render

import (
	"math"
	"slices"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// Texture units of the lighting inputs; the material slots come first.
const (
	unitEnvSpecular  = slotCount
	unitBRDFLUT      = slotCount + 1
	unitTransmission = slotCount + 2
)

// gpuEnv is an environment on the GPU: the specular cube map with one mip
// level per roughness step and its irradiance coefficients.
type gpuEnv struct {
	cube  uint32
	sh    [9][3]float32
	mips  int        // specular levels, roughness 0 to 1
	toEnv [9]float32 // column-major mat3 from world directions to the cube's
}

// identity3 is the column-major 3x3 identity.
var identity3 = [9]float32{1, 0, 0, 0, 1, 0, 0, 0, 1}

// envTextures returns environment e on the GPU, uploading it on first use.
// When its prefilter (started here if need be) has not finished, it waits
// for it if r.waitEnv is set, and otherwise returns a plain grey stand-in
// and notes that Poll should report the environment's arrival.
func (r *Renderer) envTextures(e Environment) *gpuEnv {
	if e == EnvFile {
		if g := r.fileEnvironment(); g != nil {
			return g
		}
	}
	if e < 0 || e >= numEnvironments {
		e = EnvStudio
	}
	if g := r.envs[e]; g != nil {
		return g
	}
	var m *envMaps
	if r.waitEnv {
		m = prefiltered(e)
	} else {
		var ok bool
		if m, ok = prefilteredReady(e); !ok {
			if !slices.Contains(r.envPending, e) {
				r.envPending = append(r.envPending, e)
				go func(en *envEntry) {
					<-en.done
					wake()
				}(startPrefilter(e))
			}
			if r.placeholder == nil {
				r.placeholder = uploadEnv(placeholderEnv())
			}
			return r.placeholder
		}
	}
	g := uploadEnv(m)
	r.envs[e] = g
	return g
}

// placeholderEnv is a uniform grey environment, shown for the moments
// before the real one is prefiltered.
func placeholderEnv() *envMaps {
	m := &envMaps{}
	c := &cube{n: 1}
	for f := range c.faces {
		c.faces[f] = []float32{0.45, 0.45, 0.45}
	}
	m.specular[0] = c.faces
	m.sh = irradianceSH(c)
	return m
}

// uploadEnv makes the cube map of m's specular levels (as many as it has).
func uploadEnv(m *envMaps) *gpuEnv {
	g := &gpuEnv{sh: m.sh, toEnv: identity3}
	gl.GenTextures(1, &g.cube)
	gl.BindTexture(gl.TEXTURE_CUBE_MAP, g.cube)
	levels := 0
	for level := 0; level < envMips && m.specular[level][0] != nil; level++ {
		n := int32(envBaseSize >> level)
		if level == 0 {
			n = int32(math.Sqrt(float64(len(m.specular[0][0]) / 3)))
		}
		for f := 0; f < 6; f++ {
			gl.TexImage2D(gl.TEXTURE_CUBE_MAP_POSITIVE_X+uint32(f), int32(level), gl.RGB16F, n, n, 0, gl.RGB, gl.FLOAT, gl.Ptr(m.specular[level][f]))
		}
		levels++
	}
	g.mips = levels
	gl.TexParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_BASE_LEVEL, 0)
	gl.TexParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_MAX_LEVEL, int32(levels-1))
	gl.TexParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR)
	gl.TexParameteri(gl.TEXTURE_CUBE_MAP, gl.TEXTURE_MAG_FILTER, gl.LINEAR)
	for _, w := range []uint32{gl.TEXTURE_WRAP_S, gl.TEXTURE_WRAP_T, gl.TEXTURE_WRAP_R} {
		gl.TexParameteri(gl.TEXTURE_CUBE_MAP, w, gl.CLAMP_TO_EDGE)
	}
	return g
}

// envArrived reports whether an environment a draw had to stand in for
// has been prefiltered since, so the view should be drawn again.
func (r *Renderer) envArrived() bool {
	if r.lut == 0 && r.lutStandIn != 0 && lutReady.Load() != nil {
		return true // the BRDF table the stand-in was drawn for is there
	}
	n := len(r.envPending)
	r.envPending = slices.DeleteFunc(r.envPending, func(e Environment) bool {
		_, ok := prefilteredReady(e)
		return ok
	})
	return len(r.envPending) < n
}

// lutTexture returns the BRDF lookup table on the GPU.
func (r *Renderer) lutTexture() uint32 {
	if r.lut != 0 {
		return r.lut
	}
	l := lutReady.Load()
	if l == nil && !r.waitEnv {
		// On a first start with an empty cache the table takes a second
		// or two: the window shows the panel and the scene lit by a flat
		// stand-in (and the Play or status texts) meanwhile, not black.
		if r.lutStandIn == 0 {
			r.lutStandIn = solidTexture([4]uint8{255, 0, 0, 255}) // scale 1, bias 0: plain Fresnel F0
			go func() {
				sharedLUT()
				wake()
			}()
		}
		return r.lutStandIn
	}
	if l == nil {
		l = sharedLUT()
	}
	gl.GenTextures(1, &r.lut)
	gl.BindTexture(gl.TEXTURE_2D, r.lut)
	gl.TexImage2D(gl.TEXTURE_2D, 0, gl.RGB16F, lutSize, lutSize, 0, gl.RGB, gl.FLOAT, gl.Ptr(l.data))
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE)
	gl.TexParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE)
	return r.lut
}

// PrefilterTime reports how long the CPU work for environment e took in
// this run (the GGX levels, the irradiance and the BRDF table), or 0 when
// it is not ready yet. It is done once per run, and when the disk cache
// has the environment the time is that of loading it.
func PrefilterTime(e Environment) time.Duration {
	if e < 0 || e >= numEnvironments {
		return 0
	}
	m, ok := prefilteredReady(e)
	if !ok {
		return 0
	}
	d := m.elapsed
	if lutCache != nil {
		d += lutCache.elapsed
	}
	return d
}

// bindEnvironment binds the lighting textures and sets the environment
// uniforms of program p (the mesh or the background program).
func (r *Renderer) bindEnvironment(p *program, opt Options) {
	env := r.envTextures(opt.Environment)
	gl.ActiveTexture(gl.TEXTURE0 + unitEnvSpecular)
	gl.BindTexture(gl.TEXTURE_CUBE_MAP, env.cube)
	gl.Uniform1i(p.loc("uEnvSpecular"), unitEnvSpecular)
	gl.ActiveTexture(gl.TEXTURE0 + unitBRDFLUT)
	gl.BindTexture(gl.TEXTURE_2D, r.lutTexture())
	gl.Uniform1i(p.loc("uBRDFLUT"), unitBRDFLUT)
	p.float("uEnvMips", float32(env.mips))
	gl.UniformMatrix3fv(p.loc("uEnvRotation"), 1, false, &env.toEnv[0])
	for i := range env.sh {
		p.vec3(shUniforms[i], env.sh[i])
	}
	p.float("uExposure", opt.exposureScale())
	gl.ActiveTexture(gl.TEXTURE0)
}

var shUniforms = func() (u [9]string) {
	for i := range u {
		u[i] = "uSH[" + string(rune('0'+i)) + "]"
	}
	return u
}()
