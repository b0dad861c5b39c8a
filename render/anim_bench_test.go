package render

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"

	"physview/internal/testcorpus"
	"physview/scene"
)

// foxHerd makes a document of n Fox copies on a grid, each with its own
// skeleton, skin and animation channels; skinned false drops the skins
// (the same meshes drawn in their bind shape).
func foxHerd(tb testing.TB, n int, skinned bool) *scene.Document {
	path := testcorpus.File(tb, "gltf-sample-assets/Models/Fox/glTF/Fox.gltf")
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var g map[string]any
	if err := json.Unmarshal(data, &g); err != nil {
		tb.Fatal(err)
	}
	nodes := g["nodes"].([]any)
	skin := g["skins"].([]any)[0].(map[string]any)
	an := g["animations"].([]any)[0].(map[string]any)
	roots := g["scenes"].([]any)[0].(map[string]any)["nodes"].([]any)
	var outNodes, outSkins, outChannels, outRoots, grid []any
	off := func(v any, k int) any { return v.(float64) + float64(k*len(nodes)) }
	for k := 0; k < n; k++ {
		for _, raw := range nodes {
			src := raw.(map[string]any)
			nd := map[string]any{}
			for key, v := range src {
				nd[key] = v
			}
			if cs, ok := src["children"].([]any); ok {
				var c []any
				for _, x := range cs {
					c = append(c, off(x, k))
				}
				nd["children"] = c
			}
			if _, ok := src["skin"]; ok {
				if skinned {
					nd["skin"] = k
				} else {
					delete(nd, "skin")
				}
			}
			outNodes = append(outNodes, nd)
		}
		var joints []any
		for _, j := range skin["joints"].([]any) {
			joints = append(joints, off(j, k))
		}
		outSkins = append(outSkins, map[string]any{"joints": joints, "inverseBindMatrices": skin["inverseBindMatrices"]})
		for _, raw := range an["channels"].([]any) {
			c := raw.(map[string]any)
			tg := c["target"].(map[string]any)
			outChannels = append(outChannels, map[string]any{"sampler": c["sampler"], "target": map[string]any{"node": off(tg["node"], k), "path": tg["path"]}})
		}
		for _, r := range roots {
			// Each copy's root on a 10-wide grid, 150 units apart (a fox
			// is about 150 long).
			grid = append(grid, map[string]any{"children": []any{off(r, k)}, "translation": []any{float64(k%10) * 150, 0, float64(k/10) * 150}})
			outRoots = append(outRoots, float64(n*len(nodes)+len(grid)-1))
		}
	}
	// The grid nodes come after every copy's nodes, so that copy k's
	// nodes are at k*len(nodes) as off assumes.
	outNodes = append(outNodes, grid...)
	g["nodes"], g["skins"] = outNodes, outSkins
	g["animations"] = []any{map[string]any{"channels": outChannels, "samplers": an["samplers"]}}
	g["scenes"] = []any{map[string]any{"nodes": outRoots}}
	out, err := json.Marshal(g)
	if err != nil {
		tb.Fatal(err)
	}
	d, err := scene.Decode(out, os.DirFS(filepath.Dir(path)))
	if err != nil {
		tb.Fatal(err)
	}
	d.Path = path
	return d
}

// BenchmarkSkinnedFoxes poses and draws one frame of 100 skinned Fox
// copies, each frame at a new time, and the same 100 unskinned, frames
// alternating in one run; it reports both times and their ratio (of the
// means, of the medians, and of the process's CPU time, all threads: the
// last two move less when other jobs share the machine).
// The skinned copies are drawn twice, posed on the CPU and in the vertex
// shader (cpuSkinning picks one of the two for a driver), so that both
// paths are compared under the same load. A second renderer of the
// unskinned herd is a control: its ratio to the first, 1 in principle, is
// the noise floor of the run (on llvmpipe one renderer's frames now and
// then cost 20-40% more for a whole run, whichever renderer it is).
func BenchmarkSkinnedFoxes(b *testing.B) {
	h, err := NewHeadless()
	if err != nil {
		b.Skip(err)
	}
	defer h.Close()
	const w, hgt = 640, 360
	defer bindBenchTarget(w, hgt)()
	type variant struct {
		r      *Renderer
		cam    Camera
		frames []time.Duration
		pose   time.Duration
		cpu    time.Duration // the process's CPU time in its frames
	}
	newVariant := func(skinned, cpu bool) *variant {
		d := foxHerd(b, 100, skinned)
		r, err := New()
		if err != nil {
			b.Fatal(err)
		}
		r.skinMode = skinMode{decided: true, cpu: cpu}
		r.SetDocument(d)
		r.WaitTextures()
		lo, hi := r.Bounds()
		return &variant{r: r, cam: NewCamera(lo, hi)}
	}
	probe, err := New()
	if err != nil {
		b.Fatal(err)
	}
	cpu := probe.cpuSkinning() // the path this driver uses
	probe.Delete()
	skinned, other, unskinned, control := newVariant(true, cpu), newVariant(true, !cpu), newVariant(false, cpu), newVariant(false, cpu)
	all := []*variant{skinned, other, unskinned, control}
	defer func() {
		for _, v := range all {
			v.r.Delete() // before the context closes
		}
	}()
	opt := DefaultOptions()
	frame := func(v *variant, t float64) {
		cpu0, start := processCPU(), time.Now()
		m := v.r.Animation()
		v.r.SetPose(m.Pose(0, t))
		v.pose += time.Since(start)
		v.r.Draw(v.cam, w, hgt, opt)
		gl.Finish()
		v.frames = append(v.frames, time.Since(start))
		v.cpu += processCPU() - cpu0
	}
	// Warm up: compile programs, upload textures, and wait for the
	// environment's prefilter, which would otherwise run on other threads
	// during the timed frames.
	for _, v := range all {
		v.r.waitEnv = true
		frame(v, 0)
		v.r.waitEnv = false
		v.frames, v.pose, v.cpu = v.frames[:0], 0, 0
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t := float64(i) * 0.05
		// The order turns each time: work one frame leaves behind (the
		// garbage collector's, the driver's) falls on each variant alike.
		for k := range all {
			frame(all[(i+k)%len(all)], t)
		}
	}
	b.StopTimer()
	ms := func(d time.Duration) float64 { return d.Seconds() * 1000 }
	mean := func(v *variant) float64 {
		var sum time.Duration
		for _, f := range v.frames {
			sum += f
		}
		return ms(sum) / float64(len(v.frames))
	}
	median := func(v *variant) float64 {
		f := slices.Clone(v.frames)
		slices.Sort(f)
		return ms(f[len(f)/2])
	}
	b.ReportMetric(mean(skinned), "skinned-ms/frame")
	b.ReportMetric(mean(unskinned), "unskinned-ms/frame")
	b.ReportMetric(mean(skinned)/mean(unskinned), "ratio")
	b.ReportMetric(median(skinned)/median(unskinned), "median-ratio")
	b.ReportMetric(ms(skinned.pose)/float64(b.N), "skinned-pose-ms")
	b.ReportMetric(ms(unskinned.pose)/float64(b.N), "unskinned-pose-ms")
	otherName := "shader-path-median-ratio"
	if !cpu {
		otherName = "cpu-path-median-ratio"
	}
	b.ReportMetric(median(other)/median(unskinned), otherName)
	b.ReportMetric(median(control)/median(unskinned), "control-median-ratio")
	if unskinned.cpu > 0 {
		b.ReportMetric(float64(skinned.cpu)/float64(unskinned.cpu), "cpu-time-ratio")
		b.ReportMetric(float64(other.cpu)/float64(unskinned.cpu), strings.Replace(otherName, "median", "cpu-time", 1))
		b.ReportMetric(float64(control.cpu)/float64(unskinned.cpu), "control-cpu-time-ratio")
	}
	if e := gl.GetError(); e != gl.NO_ERROR {
		b.Fatal(fmt.Sprintf("GL error 0x%x", e))
	}
}
