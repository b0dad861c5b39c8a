package anim

import (
	"runtime"
	"strings"
	"testing"

	"physview/scene"
)

// TestZeroFilledSamplerBounded: an animation whose sampler input is an
// accessor without a bufferView (every element zero) and a count just under
// the float32 budget is refused by its count, not read: before, it took
// 3 GB (float32 values, then a float64 copy) for a 400-byte file.
func TestZeroFilledSamplerBounded(t *testing.T) {
	src := `{"asset":{"version":"2.0"},"nodes":[{}],"scenes":[{"nodes":[0]}],
	"accessors":[{"componentType":5126,"count":268435455,"type":"SCALAR","min":[0],"max":[0]},
	             {"componentType":5126,"count":268435455,"type":"VEC3"}],
	"animations":[{"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}],
	               "samplers":[{"input":0,"output":1}]}]}`
	d, err := scene.Decode([]byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	m := NewModel(d)
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("reading the animation allocated %d MB", grew>>20)
	}
	if len(m.Problems) == 0 || !strings.Contains(strings.Join(m.Problems, "; "), "budget") {
		t.Errorf("problems %q, want the sampler refused over its budget", m.Problems)
	}
}
