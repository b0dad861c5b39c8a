package main

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// TestAnimatedVisibilityGreysCollidersShot: in viewer screenshot -time,
// the collider of the node an animation pointer hides from 1 s on (the
// right one) is drawn grey, as a statically hidden node's: at 0.5 s both
// halves of the picture have blue (static collider) pixels, at 1.5 s the
// left half is the same and the right half has none.
func TestAnimatedVisibilityGreysCollidersShot(t *testing.T) {
	const file = "../../debugdraw/testdata/visibility_anim_colliders.gltf"
	blue := func(time string) (left, right int) {
		out := filepath.Join(t.TempDir(), "shot.png")
		if code, _, errOut := runCLI("screenshot", "-size", "320x180", "-time", time, "-o", out, file); code != 0 {
			t.Fatalf("-time %s: exit %d: %s", time, code, errOut)
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
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				r, _, bl, _ := img.At(x, y).RGBA()
				if bl>>8 > 150 && bl>>8 > r>>8+60 {
					if x < (b.Min.X+b.Max.X)/2 {
						left++
					} else {
						right++
					}
				}
			}
		}
		return left, right
	}
	l0, r0 := blue("0.5")
	l1, r1 := blue("1.5")
	if l0 < 50 || r0 < 50 {
		t.Errorf("at 0.5 s: %d and %d blue pixels left and right; want both colliders blue (>= 50 each)", l0, r0)
	}
	if l1 != l0 || r1 != 0 {
		t.Errorf("at 1.5 s: %d and %d blue pixels left and right; want %d and 0 (the hidden node's collider grey)", l1, r1, l0)
	}
}
