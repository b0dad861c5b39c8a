package ui

import "testing"

// TestDamage checks the part of the panel drawn anew: the triangles
// between the common beginning and end of each list, old and new, bound
// it; lists that differ in number or owner cannot tell.
func TestDamage(t *testing.T) {
	tr := func(h uint64, x0, y0, x1, y1 int32) tri { return tri{h: h, box: [4]int32{x0, y0, x1, y1}} }
	bg := tr(1, 0, 0, 100, 200)      // the window's background
	bar := tr(2, 10, 20, 60, 30)     // the progress bar at 2 of 19
	bar2 := tr(3, 10, 20, 90, 30)    // at 3 of 19
	text := tr(4, 10, 40, 80, 50)    // a label below it
	text2 := tr(5, 10, 40, 84, 52)   // the label, one glyph longer
	child := tr(6, 0, 100, 100, 200) // a child window's row
	one := func(ts ...tri) *layerTris { return &layerTris{names: []string{"Panel"}, lists: [][]tri{ts}} }
	two := func(a, b []tri) *layerTris {
		return &layerTris{names: []string{"Panel", "Panel/Tree"}, lists: [][]tri{a, b}}
	}
	tests := []struct {
		name     string
		was, now *layerTris
		want     [4]int32
		ok       bool
		empty    bool
	}{
		{"same triangles: nothing", one(bg, bar, text), one(bg, bar, text), [4]int32{}, true, true},
		{"the bar changed", one(bg, bar, text), one(bg, bar2, text), [4]int32{10, 20, 90, 30}, true, false},
		{"a triangle more", one(bg, bar, text), one(bg, bar, text, text2), [4]int32{10, 40, 84, 52}, true, false},
		{"a triangle gone", one(bg, bar, text), one(bg, text), [4]int32{10, 20, 60, 30}, true, false},
		{"two changes span both", one(bg, bar, text, child), one(bg, bar2, text2, child), [4]int32{10, 20, 90, 52}, true, false},
		{"in the second list", two([]tri{bg}, []tri{child, text}), two([]tri{bg}, []tri{child, text2}), [4]int32{10, 40, 84, 52}, true, false},
		{"a list more", one(bg, bar), two([]tri{bg, bar}, []tri{text}), [4]int32{10, 40, 80, 50}, true, false},
		{"a list gone", two([]tri{bg}, []tri{child, text}), one(bg), [4]int32{0, 40, 100, 200}, true, false},
		{"a list between", &layerTris{names: []string{"Panel", "Panel/Tree"}, lists: [][]tri{{bg}, {child}}},
			&layerTris{names: []string{"Panel", "Panel/Status", "Panel/Tree"}, lists: [][]tri{{bg}, {bar}, {child}}}, [4]int32{10, 20, 60, 30}, true, false},
		{"another owner", &layerTris{names: []string{"Panel/A"}, lists: [][]tri{{bar}}}, &layerTris{names: []string{"Panel/B"}, lists: [][]tri{{text}}}, [4]int32{10, 20, 80, 50}, true, false},
		{"nothing drawn before", nil, one(bg), [4]int32{}, false, false},
	}
	for _, tc := range tests {
		got, ok := damage(tc.was, tc.now)
		if ok != tc.ok {
			t.Errorf("%s: ok %v, want %v", tc.name, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		if empty := got[0] >= got[2] || got[1] >= got[3]; empty != tc.empty {
			t.Errorf("%s: damage %v empty %v, want %v", tc.name, got, empty, tc.empty)
			continue
		}
		if !tc.empty && got != tc.want {
			t.Errorf("%s: damage %v, want %v", tc.name, got, tc.want)
		}
	}
}
