package report

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"physview/scene"
)

const animFixtures = "../../scene/anim/testdata/"

// TestPosedBounds poses interp.gltf, whose triangle (0,0,0) (1,0,0)
// (0,1,0) sits on a node moved linearly along X through 0, 1 and 3 m at
// 0, 1 and 2 s, and checks the box at each time, the clamping past the
// end, the rest pose for a NaN time and the errors naming the bad value.
func TestPosedBounds(t *testing.T) {
	d, err := scene.Load(filepath.Join(animFixtures, "interp.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	nan := math.NaN()
	for _, tc := range []struct {
		name    string
		a       int
		t       float64
		min     [3]float64
		max     [3]float64
		wantErr string
	}{
		{"rest", 0, nan, [3]float64{0, 0, 0}, [3]float64{1, 1, 0}, ""},
		{"rest ignores the index", 7, nan, [3]float64{0, 0, 0}, [3]float64{1, 1, 0}, ""},
		{"start", 0, 0, [3]float64{0, 0, 0}, [3]float64{1, 1, 0}, ""},
		{"half a second", 0, 0.5, [3]float64{0.5, 0, 0}, [3]float64{1.5, 1, 0}, ""},
		{"second key to third", 0, 1.5, [3]float64{2, 0, 0}, [3]float64{3, 1, 0}, ""},
		{"clamped past the end", 0, 10, [3]float64{3, 0, 0}, [3]float64{4, 1, 0}, ""},
		{"every animation", -1, 0.5, [3]float64{0.5, 0, 0}, [3]float64{1.5, 1, 0}, ""},
		{"index past the end", 1, 0.5, [3]float64{}, [3]float64{}, "animation 1: the file has 1 animations"},
		{"index below -1", -2, 0.5, [3]float64{}, [3]float64{}, "animation -2: the file has 1 animations"},
		{"infinite time", 0, math.Inf(1), [3]float64{}, [3]float64{}, "time +Inf: want a finite number of seconds"},
	} {
		b, err := PosedBounds(d, tc.a, tc.t)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil || b == nil {
			t.Errorf("%s: bounds %v, error %v", tc.name, b, err)
			continue
		}
		for k := 0; k < 3; k++ {
			if math.Abs(b.Min[k]-tc.min[k]) > 1e-6 || math.Abs(b.Max[k]-tc.max[k]) > 1e-6 {
				t.Errorf("%s: bounds %v %v, want %v %v", tc.name, b.Min, b.Max, tc.min, tc.max)
				break
			}
		}
	}
}

// TestPosedBoundsNothingDrawn: a scene of bodies without meshes has no
// box, posed or not, and no error.
func TestPosedBoundsNothingDrawn(t *testing.T) {
	d, err := scene.Load(filepath.Join(animFixtures, "platform.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tm := range []float64{math.NaN(), 1} {
		if b, err := PosedBounds(d, 0, tm); b != nil || err != nil {
			t.Errorf("time %v: bounds %v, error %v; want none", tm, b, err)
		}
	}
}

// TestInspectionJSON checks inspect -json's layout: indented, the posed
// bounds under "bounds", none without them.
func TestInspectionJSON(t *testing.T) {
	d, err := scene.Load(filepath.Join(animFixtures, "interp.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	r := Inspect(d)
	var plain bytes.Buffer
	if err := r.WriteJSON(&plain); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), `"bounds"`) || !strings.HasPrefix(plain.String(), "{\n  \"file\": ") {
		t.Errorf("without bounds:\n%s", plain.String())
	}
	r.Bounds = &Bounds{Min: [3]float64{0.5, 0, 0}, Max: [3]float64{1.5, 1, 0}}
	var posed bytes.Buffer
	if err := r.WriteJSON(&posed); err != nil {
		t.Fatal(err)
	}
	var back struct{ Bounds Bounds }
	if err := json.Unmarshal(posed.Bytes(), &back); err != nil || back.Bounds != *r.Bounds {
		t.Errorf("bounds read back %+v (%v), want %+v", back.Bounds, err, *r.Bounds)
	}
}
