package render

import (
	"math"
	"testing"
)

func TestCubeDirRoundTrip(t *testing.T) {
	const n = 16
	for f := 0; f < 6; f++ {
		for _, xy := range [][2]int{{0, 0}, {3, 11}, {15, 15}, {8, 2}} {
			d := cubeDir(f, xy[0], xy[1], n)
			gf, s, tt := cubeCoord(d)
			x, y := int(s*n), int(tt*n)
			if gf != f || x != xy[0] || y != xy[1] {
				t.Errorf("face %d texel %v: direction %v maps back to face %d texel (%d, %d)", f, xy, d, gf, x, y)
			}
		}
	}
}

// TestPrefilterFurnace: a uniform environment of radiance 1 stays 1 at
// every roughness, and its irradiance term gives 1 in every direction.
func TestPrefilterFurnace(t *testing.T) {
	m := prefilter(func(vec3) vec3 { return vec3{1, 1, 1} })
	for level := range m.specular {
		for f := range m.specular[level] {
			for i, v := range m.specular[level][f] {
				if math.Abs(float64(v)-1) > 1e-3 {
					t.Fatalf("level %d face %d value %d = %g, want 1", level, f, i, v)
				}
			}
		}
	}
	for _, n := range []vec3{{0, 1, 0}, {0, -1, 0}, {1, 0, 0}, vec3{1, 2, 3}.norm()} {
		if c := evalSH(m.sh, n); math.Abs(c[0]-1) > 0.01 || math.Abs(c[2]-1) > 0.01 {
			t.Errorf("irradiance at %v = %v, want 1", n, c)
		}
	}
}

// TestPrefilterStudio: the studio's key light shows in the sharp level,
// the roughest level is smoother, the floor is darker than the sky, and
// the prefilter stays cheap enough for start-up.
func TestPrefilterStudio(t *testing.T) {
	m := prefiltered(EnvStudio)
	t.Logf("studio prefilter: %v", m.elapsed)
	if m.elapsed.Seconds() > 2 {
		t.Errorf("prefilter took %v", m.elapsed)
	}
	up, down := evalSH(m.sh, vec3{0, 1, 0}), evalSH(m.sh, vec3{0, -1, 0})
	if up[1] <= down[1] {
		t.Errorf("irradiance up %v not above down %v", up, down)
	}
	spread := func(level int) (lo, hi float32) {
		lo, hi = 1e9, -1e9
		for _, face := range m.specular[level] {
			for _, v := range face {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
		return
	}
	lo0, hi0 := spread(0)
	lo4, hi4 := spread(envMips - 1)
	if hi0 < 4 || hi4 >= hi0/2 || lo4 < lo0 {
		t.Errorf("sharp level %g..%g, roughest %g..%g: want the key light (5) sharp and spread out when rough", lo0, hi0, lo4, hi4)
	}
}

// TestBRDFLUT: at normal incidence and low roughness the split-sum terms
// add to about 1 (a smooth mirror reflects everything), with the bias
// near 0; the sheen albedo stays in [0, 1].
func TestBRDFLUT(t *testing.T) {
	l := sharedLUT()
	t.Logf("LUT: %v", l.elapsed)
	at := func(i, j int) (float32, float32, float32) {
		p := 3 * (j*lutSize + i)
		return l.data[p], l.data[p+1], l.data[p+2]
	}
	a, b, _ := at(lutSize-1, 0)
	if math.Abs(float64(a+b)-1) > 0.03 || b > 0.02 {
		t.Errorf("smooth, normal incidence: scale %g bias %g", a, b)
	}
	a, b, _ = at(lutSize/2, lutSize-1)
	if a+b > 0.9 || a+b < 0.3 {
		t.Errorf("rough: scale %g + bias %g should lose energy but not all", a, b)
	}
	for j := 0; j < lutSize; j++ {
		for i := 0; i < lutSize; i++ {
			if _, _, e := at(i, j); e < 0 || e > 1 {
				t.Fatalf("sheen albedo %g at %d,%d", e, i, j)
			}
		}
	}
}

// TestEnvironmentArrives: a draw before an environment is prefiltered uses
// a grey stand-in and Poll later reports the environment's arrival, so a
// window redraws; after that the real maps are used.
func TestEnvironmentArrives(t *testing.T) {
	headless(t)
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Delete()
	g := r.envTextures(EnvOutdoor) // the first request starts its prefilter
	if g != r.placeholder {
		t.Fatal("the outdoor environment was ready before anything asked for it")
	}
	prefiltered(EnvOutdoor)
	if arrived, _ := r.Poll(); arrived != 1 {
		t.Errorf("Poll reported %d arrivals after the prefilter finished, want 1", arrived)
	}
	if arrived, _ := r.Poll(); arrived != 0 {
		t.Errorf("Poll reported the environment again")
	}
	if g := r.envTextures(EnvOutdoor); g == r.placeholder || g.cube == 0 {
		t.Error("the real environment is not used once ready")
	}
	if PrefilterTime(EnvOutdoor) <= 0 {
		t.Error("no prefilter time recorded")
	}
}
