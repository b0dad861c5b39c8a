package main

import (
	"encoding/json"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const animFixtures = "../../scene/anim/testdata/"

// TestInspectPosedBounds: inspect -json reports the posed bounds of every
// drawn vertex: rest pose without -time, animation N at -time T (clamped).
func TestInspectPosedBounds(t *testing.T) {
	c, s := math.Cos(math.Pi/4), math.Sin(math.Pi/4)
	tests := []struct {
		args   []string
		lo, hi [3]float64
	}{
		{[]string{"skin.gltf"}, [3]float64{-0.5, 0, 0}, [3]float64{0.5, 2, 0}},
		{[]string{"-time", "1", "skin.gltf"}, [3]float64{-1, 0, 0}, [3]float64{0.5, 1.5, 0}},
		{[]string{"-time", "0.5", "-animation", "0", "skin.gltf"}, [3]float64{-0.5*c - s, 0, 0}, [3]float64{0.5, 0.5*s + c + 1, 0}},
		{[]string{"-time", "99", "skin8.gltf"}, [3]float64{-1, 0, 0}, [3]float64{0.5, 1.5, 0}},
		{[]string{"morph.gltf"}, [3]float64{0, 0, 0}, [3]float64{7, 1.5, 0}},
		{[]string{"instancing.gltf"}, [3]float64{-1, 1, -5}, [3]float64{12, 3, 0}},
	}
	for _, tc := range tests {
		name := strings.Join(tc.args, " ")
		args := append([]string{"inspect", "-json"}, tc.args...)
		args[len(args)-1] = animFixtures + args[len(args)-1]
		code, out, errOut := runCLI(args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, errOut)
		}
		var r struct {
			Bounds *struct{ Min, Max [3]float64 }
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil || r.Bounds == nil {
			t.Fatalf("%s: %v, bounds %v", name, err, r.Bounds)
		}
		for k := 0; k < 3; k++ {
			if math.Abs(r.Bounds.Min[k]-tc.lo[k]) > 1e-6 || math.Abs(r.Bounds.Max[k]-tc.hi[k]) > 1e-6 {
				t.Errorf("%s: bounds %v %v, want %v %v", name, r.Bounds.Min, r.Bounds.Max, tc.lo, tc.hi)
				break
			}
		}
	}
	// The animations with their ranges.
	code, out, _ := runCLI("inspect", "-json", animFixtures+"interp.gltf")
	var r struct {
		Animations []struct {
			Index      int
			Start, End float64
			Channels   int
		}
	}
	if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil || len(r.Animations) != 1 || r.Animations[0].End != 2 || r.Animations[0].Channels != 7 {
		t.Errorf("interp.gltf animations: exit %d, %v, %+v; want one of 0..2 s with 7 channels", code, err, r.Animations)
	}
	if code, _, errOut := runCLI("inspect", "-json", "-time", "1", "-animation", "3", animFixtures+"skin.gltf"); code != 2 || !strings.Contains(errOut, "has 1 animations") {
		t.Errorf("-animation 3: exit %d, %q; want 2 naming the count", code, errOut)
	}
}

// TestSimulateKinematicAnimation: simulate plays the platform's animation:
// the box resting on it ends 1 m along X (within 1%).
func TestSimulateKinematicAnimation(t *testing.T) {
	code, out, errOut := runCLI("simulate", "-json", "-t", "2.5", animFixtures+"platform.gltf")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Bodies []struct {
			Name     string
			Position [3]float64
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Bodies) != 1 {
		t.Fatalf("%v: %s", err, out)
	}
	if p := r.Bodies[0].Position; math.Abs(p[0]-1) > 0.01 {
		t.Errorf("box at %v, want x = 1 within 1%%", p)
	}
}

// TestScreenshotTimes: screenshots of the skin at -time 0 and -time 1
// differ (the top half turned), and -time 0 equals the rest pose's.
func TestScreenshotTimes(t *testing.T) {
	dir := t.TempDir()
	shotAt := func(name string, extra ...string) []byte {
		out := filepath.Join(dir, name+".png")
		args := append([]string{"screenshot", "-size", "160x120", "-o", out}, extra...)
		args = append(args, animFixtures+"skin.gltf")
		if code, _, errOut := runCLI(args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		img, err := png.Decode(f)
		if err != nil {
			t.Fatal(err)
		}
		var pix []byte
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				r, g, bl, _ := img.At(x, y).RGBA()
				pix = append(pix, byte(r>>8), byte(g>>8), byte(bl>>8))
			}
		}
		return pix
	}
	rest, t0, t1 := shotAt("rest"), shotAt("t0", "-time", "0"), shotAt("t1", "-time", "1")
	diff := func(a, b []byte) int {
		n := 0
		for i := 0; i < len(a); i += 3 {
			if a[i] != b[i] || a[i+1] != b[i+1] || a[i+2] != b[i+2] {
				n++
			}
		}
		return n
	}
	if n := diff(rest, t0); n != 0 {
		t.Errorf("rest and -time 0 differ in %d pixels", n)
	}
	if n := diff(t0, t1); n < 200 {
		t.Errorf("-time 0 and -time 1 differ in %d pixels, want the turned half (>= 200)", n)
	}
}
