package scene

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"
)

func TestRoundSig(t *testing.T) {
	tests := []struct {
		v      float64
		digits int
		want   float64
	}{
		{2.1328173633587544, 4, 2.133},
		{1.1444999999999999, 5, 1.1445}, // issue 22: written as 1.1445
		{2 - 0.974, 12, 1.026},
		{0.000123456, 4, 0.0001235},
		{-98765.4, 3, -98800},
		{0, 4, 0},
		{-0.01975160999999992, 6, -0.0197516},
	}
	for _, tc := range tests {
		if got := RoundSig(tc.v, tc.digits); got != tc.want {
			t.Errorf("RoundSig(%v, %d) = %v, want %v", tc.v, tc.digits, got, tc.want)
		}
	}
	if !math.IsNaN(RoundSig(math.NaN(), 4)) || !math.IsInf(RoundSig(math.Inf(-1), 4), -1) {
		t.Error("NaN and infinity must pass through")
	}
}

func TestDecomposeTRS(t *testing.T) {
	q := mgl64.QuatRotate(math.Pi/3, mgl64.Vec3{1, 2, 3}.Normalize())
	tests := []struct {
		name string
		m    mgl64.Mat4
		want Transform
	}{
		{"identity", mgl64.Ident4(), Transform{Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}}},
		{"mirror", mgl64.Scale3D(-2, 1, 1), Transform{Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{-2, 1, 1}}},
		{"trs", mgl64.Translate3D(1, 2.5, -3).Mul4(q.Mat4()).Mul4(mgl64.Scale3D(2, 0.5, 1)),
			Transform{Translation: [3]float64{1, 2.5, -3}, Rotation: [4]float64{q.V[0], q.V[1], q.V[2], q.W}, Scale: [3]float64{2, 0.5, 1}}},
	}
	for _, tc := range tests {
		got := DecomposeTRS(tc.m)
		for i := 0; i < 4; i++ {
			if i < 3 && (math.Abs(got.Translation[i]-tc.want.Translation[i]) > 1e-12 || math.Abs(got.Scale[i]-tc.want.Scale[i]) > 1e-12) {
				t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
			}
			if math.Abs(got.Rotation[i]-tc.want.Rotation[i]) > 1e-12 {
				t.Errorf("%s: rotation %v, want %v", tc.name, got.Rotation, tc.want.Rotation)
			}
		}
	}
}

func TestNodeName(t *testing.T) {
	d := &Document{GLTF: &gltf.Document{Nodes: []*gltf.Node{{Name: "Crate"}, {}}}}
	for n, want := range map[int]string{0: "Crate", 1: "node 1", 5: "node 5", -1: "node -1"} {
		if got := d.NodeName(n); got != want {
			t.Errorf("NodeName(%d) = %q, want %q", n, got, want)
		}
	}
}
