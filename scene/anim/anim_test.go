package anim

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

func load(t *testing.T, name string) *Model {
	t.Helper()
	d, err := scene.Load(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	m := NewModel(d)
	if len(m.Problems) > 0 {
		t.Fatalf("%s: %v", name, m.Problems)
	}
	return m
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

func nearVec(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !near(a[i], b[i]) {
			return false
		}
	}
	return true
}

func TestSamplerModes(t *testing.T) {
	m := load(t, "interp.gltf")
	if got := len(m.Animations); got != 1 {
		t.Fatalf("%d animations, want 1", got)
	}
	a := m.Animations[0]
	if a.Start != 0 || a.End != 2 {
		t.Errorf("range [%g, %g], want [0, 2]", a.Start, a.End)
	}
	s22 := math.Sin(math.Pi / 8)
	c22 := math.Cos(math.Pi / 8)
	s11 := math.Sin(math.Pi / 16)
	c11 := math.Cos(math.Pi / 16)
	u := 0.25 // t = 0.5 on the cubic's [0, 2]
	tests := []struct {
		name string
		t    float64
		node int
		get  func(TRS) []float64
		want []float64
	}{
		{"step before first key", -1, 0, trsT, []float64{0, 0, 0}},
		{"step mid first segment", 0.5, 0, trsT, []float64{0, 0, 0}},
		{"step on a key", 1, 0, trsT, []float64{1, 0, 0}},
		{"step mid second segment", 1.5, 0, trsT, []float64{1, 0, 0}},
		{"step after last key", 9, 0, trsT, []float64{3, 0, 0}},
		{"linear mid first segment", 0.5, 1, trsT, []float64{0.5, 0, 0}},
		{"linear mid second segment", 1.5, 1, trsT, []float64{2, 0, 0}},
		{"linear three quarters", 1.75, 1, trsT, []float64{2.5, 0, 0}},
		// x: value 0 -> 2, zero tangents: 2 * (3u^2 - 2u^3);
		// y: value 0 -> 0, out-tangent 3 at key 0 over td = 2: 2*3*(u^3 - 2u^2 + u).
		{"cubic spline", 0.5, 2, trsT, []float64{2 * (3*u*u - 2*u*u*u), 6 * (u*u*u - 2*u*u + u), 0}},
		{"cubic spline at end", 2, 2, trsT, []float64{2, 0, 0}},
		// identity -> 90 degrees about Z, zero tangents, u = 0.5: the
		// halfway blend normalised is 45 degrees.
		{"cubic spline rotation", 0.5, 3, trsR, []float64{0, 0, s22, c22}},
		// slerp a quarter of the way to 90 degrees: 22.5 degrees.
		{"linear rotation is slerp", 0.25, 4, trsR, []float64{0, 0, s11, c11}},
		{"pointer translation", 0.5, 5, trsT, []float64{0, 2, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := m.Pose(0, tc.t)
			if got := tc.get(p.Local[tc.node]); !nearVec(got, tc.want) {
				t.Errorf("node %d at t=%g: %v, want %v", tc.node, tc.t, got, tc.want)
			}
		})
	}
	// A material factor through KHR_animation_pointer: red to blue.
	p := m.Pose(0, 0.5)
	if got := p.Props["/materials/0/pbrMetallicRoughness/baseColorFactor"]; !nearVec(got, []float64{0.5, 0, 0.5, 1}) {
		t.Errorf("baseColorFactor at 0.5: %v, want [0.5 0 0.5 1]", got)
	}
	// The rest pose is the file's: nothing moved, no properties.
	r := m.Rest()
	if got := trsT(r.Local[5]); !nearVec(got, []float64{0, 0, 0}) || len(r.Props) != 0 {
		t.Errorf("rest: node 5 at %v, props %v", got, r.Props)
	}
	// Posed bounds: the triangle on node 1 at t = 1.5 is moved by (2,0,0).
	lo, hi, ok := m.Bounds(m.Pose(0, 1.5))
	if !ok || !nearVec(lo[:], []float64{2, 0, 0}) || !nearVec(hi[:], []float64{3, 1, 0}) {
		t.Errorf("bounds at 1.5: %v %v %v, want [2 0 0] [3 1 0]", lo, hi, ok)
	}
}

func trsT(x TRS) []float64 { return x.T[:] }
func trsR(x TRS) []float64 { return x.R[:] }

func TestSkinTwoJoints(t *testing.T) {
	c, s := math.Cos(math.Pi/4), math.Sin(math.Pi/4)
	tests := []struct {
		t      float64
		lo, hi []float64
	}{
		// Bind shape: the node's own translation (100, 0, 0) is ignored.
		{0, []float64{-0.5, 0, 0}, []float64{0.5, 2, 0}},
		// 90 degrees: the top row goes to (-1, 1 + x); the middle row to
		// (x/2, 1 + x/2).
		{1, []float64{-1, 0, 0}, []float64{0.5, 1.5, 0}},
		// 45 degrees: the top row (x, 1) about joint 1 gives
		// (x c - s, x s + c + 1): x = -0.5 is leftmost, x = 0.5 highest.
		{0.5, []float64{-0.5*c - s, 0, 0}, []float64{0.5, 0.5*s + c + 1, 0}},
		{7, []float64{-1, 0, 0}, []float64{0.5, 1.5, 0}},
	}
	for _, name := range []string{"skin.gltf", "skin8.gltf"} {
		m := load(t, name)
		for _, tc := range tests {
			lo, hi, ok := m.Bounds(m.Pose(0, tc.t))
			if !ok || !nearVec(lo[:], tc.lo) || !nearVec(hi[:], tc.hi) {
				t.Errorf("%s at t=%g: bounds %v %v, want %v %v", name, tc.t, lo, hi, tc.lo, tc.hi)
			}
		}
		// Joint matrices at t = 1: joint 1 = T(0,1,0) Rz(90) T(0,-1,0).
		p := m.Pose(0, 1)
		j := m.JointMatrices(p, 0, nil)
		ident := mgl64.Ident4()
		want := mgl64.Translate3D(0, 1, 0).Mul4(mgl64.HomogRotate3DZ(math.Pi / 2)).Mul4(mgl64.Translate3D(0, -1, 0))
		if len(j) != 2 || !nearVec(j[1][:], want[:]) || !nearVec(j[0][:], ident[:]) {
			t.Errorf("%s: joint matrices %v, want identity and %v", name, j, want)
		}
	}
}

func TestMorphWeights(t *testing.T) {
	m := load(t, "morph.gltf")
	tests := []struct {
		name   string
		pose   *Pose
		lo, hi []float64
	}{
		// node 0: mesh.weights [0.5, 0]: top at 1.5; node 1 at x = 5 with
		// node.weights [0, 1]: vertex 1 at x = 5 + 2.
		{"rest", m.Rest(), []float64{0, 0, 0}, []float64{7, 1.5, 0}},
		// STEP to [0, 0] before t = 1: node 0 flat at 1 high; node 1 keeps its own.
		{"step start", m.Pose(0, 0.5), []float64{0, 0, 0}, []float64{7, 1, 0}},
		// [1, 1] from t = 1: node 0 top at 2.
		{"step end", m.Pose(0, 1), []float64{0, 0, 0}, []float64{7, 2, 0}},
	}
	for _, tc := range tests {
		lo, hi, ok := m.Bounds(tc.pose)
		if !ok || !nearVec(lo[:], tc.lo) || !nearVec(hi[:], tc.hi) {
			t.Errorf("%s: bounds %v %v, want %v %v", tc.name, lo, hi, tc.lo, tc.hi)
		}
	}
	if w := m.Rest().Weights(m, 1); !nearVec(w, []float64{0, 1}) {
		t.Errorf("node 1 weights %v, want [0 1]", w)
	}
	if w := m.Rest().Weights(m, 0); !nearVec(w, []float64{0.5, 0}) {
		t.Errorf("node 0 weights %v, want [0.5 0]", w)
	}
}

func TestInstancingBounds(t *testing.T) {
	m := load(t, "instancing.gltf")
	inst := m.Instances(0)
	if len(inst) != 3 {
		t.Fatalf("%d instances, want 3", len(inst))
	}
	if d := inst[2].Det(); d >= 0 {
		t.Errorf("mirrored instance determinant %g, want negative", d)
	}
	lo, hi, ok := m.Bounds(m.Rest())
	// instance 0: x [0,1] y [1,2]; 1: x [10,12] y [1,3]; 2: x [-1,0] z -5.
	if !ok || !nearVec(lo[:], []float64{-1, 1, -5}) || !nearVec(hi[:], []float64{12, 3, 0}) {
		t.Errorf("bounds %v %v, want [-1 1 -5] [12 3 0]", lo, hi)
	}
	count := 0
	m.Vertices(m.Rest(), 0, 0, func(mgl64.Vec3) { count++ })
	if count != 9 {
		t.Errorf("%d vertices drawn, want 3 per instance (9)", count)
	}
}

func TestBrokenChannelsSkipped(t *testing.T) {
	d, err := scene.Load(filepath.Join("testdata", "interp.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	// A channel to a node that does not exist and one to a sampler that
	// does not exist are skipped with a problem each; the rest still play.
	c := *d.GLTF.Animations[0].Channels[1]
	bad := 99
	c.Target.Node = &bad
	c2 := *d.GLTF.Animations[0].Channels[1]
	c2.Sampler = 42
	d.GLTF.Animations[0].Channels = append(d.GLTF.Animations[0].Channels, &c, &c2)
	m := NewModel(d)
	if len(m.Problems) != 2 || len(m.Animations[0].Channels) != 7 {
		t.Errorf("problems %q, %d channels, want 2 and 7", m.Problems, len(m.Animations[0].Channels))
	}
}
