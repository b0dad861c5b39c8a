package render

import (
	"log"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"physview/internal/guard"
)

// Environment is one of the built-in lighting environments. They are
// generated in code (nothing is read from the network) and prefiltered
// for image-based lighting once per build: the result is kept in a disk
// cache (see CacheDirEnv).
type Environment int

// The built-in environments. The zero value is the studio.
const (
	// EnvStudio is a neutral grey studio: a large soft key box at the
	// front left, a fill at the right, a rim light behind and a strip
	// overhead, over a darker floor.
	EnvStudio Environment = iota
	// EnvSoftRoom is an evenly lit pale room, almost a white furnace:
	// materials show their own colour with little contrast.
	EnvSoftRoom
	// EnvOutdoor is a blue sky with a sun and a brown ground.
	EnvOutdoor
	numEnvironments
)

// EnvironmentNames are the names of the environments, by value, as the
// View tab shows them.
var EnvironmentNames = [numEnvironments]string{"Studio", "Soft room", "Outdoor"}

// String returns the environment's name.
func (e Environment) String() string {
	if e == EnvFile {
		return "From the file"
	}
	if e < 0 || e >= numEnvironments {
		return "Studio"
	}
	return EnvironmentNames[e]
}

// Sizes of the prefiltered maps: small, because the prefilter runs on the
// CPU at start-up and the GL is often a software rasteriser.
const (
	envBaseSize = 128 // face size of the sharp level (roughness 0)
	envMips     = 5   // specular levels: roughness 0, .25, .5, .75, 1
	lutSize     = 32  // BRDF lookup table, NdotV x roughness
)

// envMaps is an environment prefiltered for split-sum image-based
// lighting: a cube map whose mip levels hold the radiance convolved with
// GGX lobes of increasing roughness, the irradiance as 9 spherical
// harmonic coefficients (already convolved with the cosine lobe and
// divided by pi, so diffuse = albedo * eval), and how long it took.
type envMaps struct {
	specular [envMips][6][]float32 // RGB, face size envBaseSize>>level
	sh       [9][3]float32
	elapsed  time.Duration
}

// brdfLUT holds, for NdotV along x and roughness along y, the split-sum
// scale and bias of GGX specular (R, G) and the directional albedo of the
// Charlie sheen lobe (B).
type brdfLUT struct {
	data    []float32 // RGB, lutSize x lutSize
	elapsed time.Duration
}

// envEntry is one environment's prefiltered maps, loaded from the disk
// cache or computed, once per run on a goroutine of its own; done is
// closed when m (and the BRDF table) are ready.
type envEntry struct {
	once sync.Once
	done chan struct{}
	m    *envMaps
}

var (
	envEntries [numEnvironments]envEntry
	lutOnce    sync.Once
	lutCache   *brdfLUT
)

// startPrefilter starts loading or computing environment e (and the BRDF
// table) if that has not started yet, and returns its entry.
func startPrefilter(e Environment) *envEntry {
	if e < 0 || e >= numEnvironments {
		e = EnvStudio
	}
	en := &envEntries[e]
	en.once.Do(func() {
		en.done = make(chan struct{})
		go func() {
			defer close(en.done)
			var err error
			defer func() {
				if err != nil {
					log.Printf("environment %d: internal error: %v", e, err)
				}
				if en.m == nil {
					en.m = placeholderEnv()
				}
			}()
			defer guard.Catch(&err) // the scene is drawn without this light, not killed
			sharedLUT()
			en.m = cachedPrefilter(defaultEnvCache(), e)
		}()
	})
	return en
}

// StartEnvironment starts reading (or prefiltering) environment e and the
// BRDF table on a goroutine, before there is a GL context: the window
// calls it at process start, so that its first textured frame, which
// reduced textures bring early, is lit by them rather than by the
// stand-ins.
func StartEnvironment(e Environment) { startPrefilter(e) }

// prefiltered returns environment e prefiltered, waiting for it.
func prefiltered(e Environment) *envMaps {
	en := startPrefilter(e)
	<-en.done
	return en.m
}

// prefilteredReady returns environment e if it is ready, starting it
// otherwise.
func prefilteredReady(e Environment) (*envMaps, bool) {
	en := startPrefilter(e)
	select {
	case <-en.done:
		return en.m, true
	default:
		return nil, false
	}
}

// sharedLUT returns the BRDF lookup table, loaded from the disk cache or
// computed, once per run.
func sharedLUT() *brdfLUT {
	lutOnce.Do(func() {
		lutCache = cachedLUT(defaultEnvCache())
		lutReady.Store(lutCache)
	})
	return lutCache
}

// lutReady is the BRDF table once it is there (nil before), read without
// waiting: the window's first frames draw with a stand-in meanwhile.
var lutReady atomic.Pointer[brdfLUT]

type vec3 [3]float64

func (a vec3) add(b vec3) vec3    { return vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func (a vec3) sub(b vec3) vec3    { return vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func (a vec3) mul(s float64) vec3 { return vec3{a[0] * s, a[1] * s, a[2] * s} }
func (a vec3) dot(b vec3) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func (a vec3) cross(b vec3) vec3 {
	return vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}
func (a vec3) norm() vec3            { return a.mul(1 / math.Sqrt(a.dot(a))) }
func mix3(a, b vec3, t float64) vec3 { return a.mul(1 - t).add(b.mul(t)) }

func smoothstep(e0, e1, x float64) float64 {
	t := math.Max(0, math.Min(1, (x-e0)/(e1-e0)))
	return t * t * (3 - 2*t)
}

// softbox is a rectangular area light seen from the centre: direction c,
// half extents (w, h) as tangents, radiance l, edges softened over soft.
type softbox struct {
	c, up      vec3
	w, h       float64
	l          vec3
	soft       float64
	right, upv vec3 // the box's axes, made by init
}

func (b *softbox) init() {
	b.c = b.c.norm()
	b.right = b.c.cross(b.up).norm()
	b.upv = b.right.cross(b.c)
}

func (b softbox) at(d vec3) vec3 {
	f := d.dot(b.c)
	if f <= 0 {
		return vec3{}
	}
	x, y := math.Abs(d.dot(b.right)/f), math.Abs(d.dot(b.upv)/f)
	if x > b.w+b.soft || y > b.h+b.soft {
		return vec3{}
	}
	m := (1 - smoothstep(b.w-b.soft, b.w+b.soft, x)) * (1 - smoothstep(b.h-b.soft, b.h+b.soft, y))
	return b.l.mul(m)
}

// radianceFunc returns the linear radiance of environment e in world
// direction d (unit, +Y up). The default camera looks from +Z+X, slightly
// above, so the studio's key light is at its front left.
func radianceFunc(e Environment) func(d vec3) vec3 {
	switch e {
	case EnvSoftRoom:
		return func(d vec3) vec3 {
			g := 0.55 + 0.25*smoothstep(-0.4, 0.8, d[1])
			return vec3{g, g, g * 0.98}
		}
	case EnvOutdoor:
		sun := vec3{0.45, 0.65, 0.6}.norm()
		return func(d vec3) vec3 {
			var c vec3
			if d[1] >= 0 {
				t := math.Pow(d[1], 0.5)
				c = mix3(vec3{1.1, 1.15, 1.25}, vec3{0.25, 0.45, 0.95}, t)
			} else {
				t := smoothstep(0, -0.2, d[1])
				c = mix3(vec3{0.6, 0.58, 0.55}, vec3{0.28, 0.24, 0.19}, t)
			}
			cs := d.dot(sun)
			// A sun of about 3 degrees with a glow around it.
			c = c.add(vec3{60, 56, 48}.mul(smoothstep(0.9982, 0.9988, cs)))
			c = c.add(vec3{1.2, 1.0, 0.7}.mul(math.Pow(math.Max(cs, 0), 64)))
			return c
		}
	}
	boxes := []softbox{
		{c: vec3{-0.25, 0.55, 0.8}, up: vec3{0, 1, 0}, w: 0.45, h: 0.3, l: vec3{5.0, 4.9, 4.7}, soft: 0.06},
		{c: vec3{0.95, 0.2, -0.05}, up: vec3{0, 1, 0}, w: 0.3, h: 0.45, l: vec3{1.7, 1.75, 1.85}, soft: 0.08},
		{c: vec3{-0.35, 0.45, -0.85}, up: vec3{0, 1, 0}, w: 0.2, h: 0.5, l: vec3{2.6, 2.6, 2.6}, soft: 0.05},
		{c: vec3{0, 1, 0.0001}, up: vec3{0, 0, 1}, w: 0.12, h: 0.7, l: vec3{2.2, 2.2, 2.2}, soft: 0.04},
	}
	for i := range boxes {
		boxes[i].init()
	}
	return func(d vec3) vec3 {
		var c vec3
		if d[1] >= 0 {
			g := 0.3 + 0.12*d[1]
			c = vec3{g, g, g}
		} else {
			g := 0.3 - 0.16*smoothstep(0, -0.3, d[1])
			c = vec3{g, g, g}
		}
		for _, b := range boxes {
			c = c.add(b.at(d))
		}
		return c
	}
}

// cubeDir returns the direction through texel (x, y) of face f of a cube
// map of face size n, following the GL cube map conventions (row 0 is t=0).
func cubeDir(f, x, y, n int) vec3 {
	sc := 2*(float64(x)+0.5)/float64(n) - 1
	tc := 2*(float64(y)+0.5)/float64(n) - 1
	var d vec3
	switch f {
	case 0:
		d = vec3{1, -tc, -sc}
	case 1:
		d = vec3{-1, -tc, sc}
	case 2:
		d = vec3{sc, 1, tc}
	case 3:
		d = vec3{sc, -1, -tc}
	case 4:
		d = vec3{sc, -tc, 1}
	default:
		d = vec3{-sc, -tc, -1}
	}
	return d.norm()
}

// cubeCoord maps a direction to a face and (s, t) in [0, 1].
func cubeCoord(d vec3) (f int, s, t float64) {
	ax, ay, az := math.Abs(d[0]), math.Abs(d[1]), math.Abs(d[2])
	var sc, tc, ma float64
	switch {
	case ax >= ay && ax >= az:
		ma = ax
		if d[0] > 0 {
			f, sc, tc = 0, -d[2], -d[1]
		} else {
			f, sc, tc = 1, d[2], -d[1]
		}
	case ay >= az:
		ma = ay
		if d[1] > 0 {
			f, sc, tc = 2, d[0], d[2]
		} else {
			f, sc, tc = 3, d[0], -d[2]
		}
	default:
		ma = az
		if d[2] > 0 {
			f, sc, tc = 4, d[0], -d[1]
		} else {
			f, sc, tc = 5, -d[0], -d[1]
		}
	}
	return f, (sc/ma + 1) / 2, (tc/ma + 1) / 2
}

// cube is a cube map in memory: six RGB faces of size n.
type cube struct {
	n     int
	faces [6][]float32
}

// sample reads the cube bilinearly (within a face) in direction d.
func (c *cube) sample(d vec3) vec3 {
	f, s, t := cubeCoord(d)
	x := s*float64(c.n) - 0.5
	y := t*float64(c.n) - 0.5
	x0, y0 := int(math.Floor(x)), int(math.Floor(y))
	fx, fy := x-float64(x0), y-float64(y0)
	px := c.faces[f]
	xa, xb := max(0, min(c.n-1, x0)), max(0, min(c.n-1, x0+1))
	ya, yb := max(0, min(c.n-1, y0)), max(0, min(c.n-1, y0+1))
	i00, i10 := 3*(ya*c.n+xa), 3*(ya*c.n+xb)
	i01, i11 := 3*(yb*c.n+xa), 3*(yb*c.n+xb)
	w00, w10, w01, w11 := float32((1-fx)*(1-fy)), float32(fx*(1-fy)), float32((1-fx)*fy), float32(fx*fy)
	var out vec3
	for k := 0; k < 3; k++ {
		out[k] = float64(px[i00+k]*w00 + px[i10+k]*w10 + px[i01+k]*w01 + px[i11+k]*w11)
	}
	return out
}

// halve box-filters a cube to half its size.
func (c *cube) halve() *cube {
	n := c.n / 2
	out := &cube{n: n}
	for f := range out.faces {
		src := c.faces[f]
		dst := make([]float32, 3*n*n)
		for y := 0; y < n; y++ {
			for x := 0; x < n; x++ {
				for k := 0; k < 3; k++ {
					s := src[3*((2*y)*c.n+2*x)+k] + src[3*((2*y)*c.n+2*x+1)+k] +
						src[3*((2*y+1)*c.n+2*x)+k] + src[3*((2*y+1)*c.n+2*x+1)+k]
					dst[3*(y*n+x)+k] = s / 4
				}
			}
		}
		out.faces[f] = dst
	}
	return out
}

// parallel runs fn(i) for i in [0, n) on one goroutine per CPU.
func parallel(n int, fn func(i int)) {
	guard.Each(n, runtime.NumCPU(), fn)
}

// hammersley returns the i-th of n low-discrepancy points in [0,1)^2.
func hammersley(i, n int) (float64, float64) {
	b := uint32(i)
	b = (b << 16) | (b >> 16)
	b = ((b & 0x55555555) << 1) | ((b & 0xAAAAAAAA) >> 1)
	b = ((b & 0x33333333) << 2) | ((b & 0xCCCCCCCC) >> 2)
	b = ((b & 0x0F0F0F0F) << 4) | ((b & 0xF0F0F0F0) >> 4)
	b = ((b & 0x00FF00FF) << 8) | ((b & 0xFF00FF00) >> 8)
	return float64(i) / float64(n), float64(b) * 2.3283064365386963e-10
}

// ggxHalf importance-samples a GGX half vector about +Z for alpha = a.
func ggxHalf(u, v, a float64) vec3 {
	phi := 2 * math.Pi * u
	cosT := math.Sqrt((1 - v) / (1 + (a*a-1)*v))
	sinT := math.Sqrt(1 - cosT*cosT)
	return vec3{sinT * math.Cos(phi), sinT * math.Sin(phi), cosT}
}

func dGGX(nh, a float64) float64 {
	a2 := a * a
	f := nh*nh*(a2-1) + 1
	return a2 / (math.Pi * f * f)
}

// prefilter renders the radiance function into a cube, then convolves it
// with GGX lobes for the specular levels (filtered importance sampling:
// each sample reads a blurrier copy the wider its solid angle) and
// projects it on spherical harmonics for the irradiance.
func prefilter(rad func(vec3) vec3) *envMaps {
	start := time.Now()
	m := &envMaps{}
	base := &cube{n: envBaseSize}
	parallel(6, func(f int) {
		n := envBaseSize
		px := make([]float32, 3*n*n)
		for y := 0; y < n; y++ {
			for x := 0; x < n; x++ {
				c := rad(cubeDir(f, x, y, n))
				px[3*(y*n+x)], px[3*(y*n+x)+1], px[3*(y*n+x)+2] = float32(c[0]), float32(c[1]), float32(c[2])
			}
		}
		base.faces[f] = px
	})
	chain := []*cube{base}
	for chain[len(chain)-1].n > 1 {
		chain = append(chain, chain[len(chain)-1].halve())
	}
	m.specular[0] = base.faces
	texelSA := 4 * math.Pi / (6 * float64(envBaseSize*envBaseSize))
	for level := 1; level < envMips; level++ {
		rough := float64(level) / float64(envMips-1)
		a := rough * rough
		samples := [envMips]int{0, 32, 48, 64, 128}[level]
		type smp struct {
			l   vec3
			w   float64
			lod int
		}
		var set []smp
		for i := 0; i < samples; i++ {
			u, v := hammersley(i, samples)
			h := ggxHalf(u, v, a)
			l := vec3{2 * h[2] * h[0], 2 * h[2] * h[1], 2*h[2]*h[2] - 1}
			if l[2] <= 0 {
				continue
			}
			// With N = V = R, pdf(L) = D * NdotH / (4 VdotH) = D / 4.
			pdf := dGGX(h[2], a) / 4
			sa := 1 / (float64(samples) * pdf)
			lod := 0.5*math.Log2(sa/texelSA) + 1
			li := max(0, min(len(chain)-1, int(math.Round(lod))))
			set = append(set, smp{l, l[2], li})
		}
		n := envBaseSize >> level
		parallel(6, func(f int) {
			px := make([]float32, 3*n*n)
			for y := 0; y < n; y++ {
				for x := 0; x < n; x++ {
					nrm := cubeDir(f, x, y, n)
					up := vec3{0, 1, 0}
					if math.Abs(nrm[1]) > 0.999 {
						up = vec3{1, 0, 0}
					}
					t := up.cross(nrm).norm()
					b := nrm.cross(t)
					var c vec3
					var wsum float64
					for _, s := range set {
						d := t.mul(s.l[0]).add(b.mul(s.l[1])).add(nrm.mul(s.l[2]))
						c = c.add(chain[s.lod].sample(d).mul(s.w))
						wsum += s.w
					}
					c = c.mul(1 / wsum)
					px[3*(y*n+x)], px[3*(y*n+x)+1], px[3*(y*n+x)+2] = float32(c[0]), float32(c[1]), float32(c[2])
				}
			}
			m.specular[level][f] = px
		})
	}
	m.sh = irradianceSH(chain[2]) // 32x32 faces are plenty for the low-frequency terms
	m.elapsed = time.Since(start)
	return m
}

// shBasis returns the 9 real spherical harmonics at unit direction d.
func shBasis(d vec3) [9]float64 {
	x, y, z := d[0], d[1], d[2]
	return [9]float64{
		0.282095,
		0.488603 * y, 0.488603 * z, 0.488603 * x,
		1.092548 * x * y, 1.092548 * y * z, 0.315392 * (3*z*z - 1), 1.092548 * x * z, 0.546274 * (x*x - y*y),
	}
}

// irradianceSH projects the cube on 9 spherical harmonics and convolves
// with the clamped cosine (Ramamoorthi and Hanrahan), divided by pi: the
// result evaluated at n is the diffuse radiance of a white Lambertian
// surface facing n.
func irradianceSH(c *cube) [9][3]float32 {
	var acc [9]vec3
	var wsum float64
	for f := 0; f < 6; f++ {
		for y := 0; y < c.n; y++ {
			for x := 0; x < c.n; x++ {
				u := 2*(float64(x)+0.5)/float64(c.n) - 1
				v := 2*(float64(y)+0.5)/float64(c.n) - 1
				w := 1 / math.Pow(1+u*u+v*v, 1.5) // texel solid angle
				d := cubeDir(f, x, y, c.n)
				i := 3 * (y*c.n + x)
				col := vec3{float64(c.faces[f][i]), float64(c.faces[f][i+1]), float64(c.faces[f][i+2])}
				for k, b := range shBasis(d) {
					acc[k] = acc[k].add(col.mul(b * w))
				}
				wsum += w
			}
		}
	}
	band := [9]float64{math.Pi, 2 * math.Pi / 3, 2 * math.Pi / 3, 2 * math.Pi / 3, math.Pi / 4, math.Pi / 4, math.Pi / 4, math.Pi / 4, math.Pi / 4}
	var out [9][3]float32
	for k := range acc {
		s := 4 * math.Pi / wsum * band[k] / math.Pi
		for j := 0; j < 3; j++ {
			out[k][j] = float32(acc[k][j] * s)
		}
	}
	return out
}

// evalSH evaluates irradiance coefficients at direction n.
func evalSH(sh [9][3]float32, n vec3) vec3 {
	var c vec3
	for k, b := range shBasis(n) {
		c = c.add(vec3{float64(sh[k][0]), float64(sh[k][1]), float64(sh[k][2])}.mul(b))
	}
	return c
}

// vGGX is the height-correlated Smith visibility G / (4 NdotL NdotV).
func vGGX(nl, nv, a float64) float64 {
	a2 := a * a
	gv := nl * math.Sqrt(nv*nv*(1-a2)+a2)
	gl := nv * math.Sqrt(nl*nl*(1-a2)+a2)
	if gv+gl <= 0 {
		return 0
	}
	return 0.5 / (gv + gl)
}

// dCharlie is the Charlie sheen distribution (Estevez and Kulla).
func dCharlie(rough, nh float64) float64 {
	a := math.Max(rough*rough, 1e-6)
	inv := 1 / a
	sin2 := 1 - nh*nh
	return (2 + inv) * math.Pow(sin2, inv*0.5) / (2 * math.Pi)
}

func lambdaSheenHelper(x, a float64) float64 {
	t := (1 - a) * (1 - a)
	lerp := func(p, q float64) float64 { return p + (q-p)*t }
	return lerp(21.5473, 25.3245)/(1+lerp(3.82987, 3.32435)*math.Pow(x, lerp(0.19823, 0.16801))) +
		lerp(-1.97760, -1.27393)*x + lerp(-4.32054, -4.85967)
}

func lambdaSheen(c, a float64) float64 {
	if math.Abs(c) < 0.5 {
		return math.Exp(lambdaSheenHelper(c, a))
	}
	return math.Exp(2*lambdaSheenHelper(0.5, a) - lambdaSheenHelper(1-c, a))
}

// vSheen is the sheen visibility term of the KHR_materials_sheen spec.
func vSheen(nl, nv, rough float64) float64 {
	a := math.Max(rough*rough, 1e-6)
	v := 1 / ((1 + lambdaSheen(nv, a) + lambdaSheen(nl, a)) * (4 * nv * nl))
	return math.Max(0, math.Min(1, v))
}

// EnvironmentRadiance returns the linear radiance of environment e in the
// world direction dir (+Y up; need not be unit length), as the prefilter
// sees it. The reference comparison writes it out as an HDR panorama.
func EnvironmentRadiance(e Environment, dir [3]float64) [3]float64 {
	if e < 0 || e >= numEnvironments {
		e = EnvStudio
	}
	return radianceFunc(e)(vec3(dir).norm())
}

// SheenAlbedo is the directional albedo of the KHR_materials_sheen lobe
// (Charlie distribution, sheen visibility) of a white sheen at NdotV nv and
// sheen roughness rough, integrated with the given number of samples.
func SheenAlbedo(nv, rough float64, samples int) float64 {
	v := vec3{math.Sqrt(1 - nv*nv), 0, nv}
	var e float64
	for k := 0; k < samples; k++ {
		u1, u2 := hammersley(k, samples)
		// Cosine-weighted hemisphere samples.
		r, phi := math.Sqrt(u2), 2*math.Pi*u1
		l := vec3{r * math.Cos(phi), r * math.Sin(phi), math.Sqrt(1 - u2)}
		if l[2] > 1e-4 {
			h := l.add(v).norm()
			e += math.Pi * dCharlie(rough, h[2]) * vSheen(l[2], nv, rough)
		}
	}
	return math.Min(1, e/float64(samples))
}

// computeLUT integrates the split-sum GGX terms and the Charlie albedo.
func computeLUT(size, samples int) *brdfLUT {
	start := time.Now()
	out := &brdfLUT{data: make([]float32, 3*size*size)}
	parallel(size, func(j int) {
		rough := (float64(j) + 0.5) / float64(size)
		a := rough * rough
		for i := 0; i < size; i++ {
			nv := (float64(i) + 0.5) / float64(size)
			v := vec3{math.Sqrt(1 - nv*nv), 0, nv}
			var A, B float64
			for k := 0; k < samples; k++ {
				u1, u2 := hammersley(k, samples)
				h := ggxHalf(u1, u2, a)
				vh := v.dot(h)
				l := h.mul(2 * vh).sub(v)
				if l[2] > 0 && vh > 0 {
					g := vGGX(l[2], nv, a) * l[2] * 4 * vh / h[2]
					fc := math.Pow(1-vh, 5)
					A += (1 - fc) * g
					B += fc * g
				}
			}
			p := 3 * (j*size + i)
			out.data[p] = float32(A / float64(samples))
			out.data[p+1] = float32(B / float64(samples))
			out.data[p+2] = float32(SheenAlbedo(nv, rough, samples))
		}
	})
	out.elapsed = time.Since(start)
	return out
}
