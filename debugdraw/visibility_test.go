package debugdraw

import (
	"testing"

	"physview/scene"
	"physview/scene/anim"
)

// TestAnimatedVisibilityGreysColliders: the Blink animation hides node 1
// from 1 s (KHR_animation_pointer on its visible flag, STEP). At 0.5 s both
// colliders have the static colour; at 1.5 s node 1's is ColorHidden, as a
// node hidden in the file draws, and node 0's is unchanged; back at the
// rest pose it is static again.
func TestAnimatedVisibilityGreysColliders(t *testing.T) {
	d, err := scene.Load("testdata/visibility_anim_colliders.gltf")
	if err != nil {
		t.Fatal(err)
	}
	m := anim.NewModel(d)
	c := NewCache(d, nil, Options{MarkerSize: 0.1})
	colour := func(n int) [4]float32 {
		t.Helper()
		ls := c.nodes[n][Colliders]
		if len(ls) == 0 {
			t.Fatalf("node %d draws no collider", n)
		}
		for _, l := range ls[1:] {
			if l.Color != ls[0].Color {
				t.Fatalf("node %d's collider has two colours: %v and %v", n, ls[0].Color, l.Color)
			}
		}
		return ls[0].Color
	}
	for _, tc := range []struct {
		name         string
		time         float64 // < 0: the rest pose
		want0, want1 [4]float32
	}{
		{"rest", -1, ColorStatic, ColorStatic},
		{"0.5 s", 0.5, ColorStatic, ColorStatic},
		{"1.5 s", 1.5, ColorStatic, ColorHidden},
		{"back at 0.5 s", 0.5, ColorStatic, ColorStatic},
		{"1.5 s again", 1.5, ColorStatic, ColorHidden},
		{"rest again", -1, ColorStatic, ColorStatic},
	} {
		if tc.time < 0 {
			c.SetPose(nil, nil)
			c.SetVisibility(nil)
		} else {
			p := m.Pose(0, tc.time)
			c.SetPose(p.World, []int{})
			c.SetVisibility(p.Props)
		}
		c.Update()
		if got0, got1 := colour(0), colour(1); got0 != tc.want0 || got1 != tc.want1 {
			t.Errorf("%s: collider colours %v, %v; want %v, %v", tc.name, got0, got1, tc.want0, tc.want1)
		}
	}
	// The statically hidden node takes the same colour.
	d.Nodes[1].Visibility.Visible = false
	c.SetVisibility(nil)
	c.InvalidateAll()
	c.Update()
	if got := colour(1); got != ColorHidden {
		t.Errorf("statically hidden: %v, want %v", got, ColorHidden)
	}
}
