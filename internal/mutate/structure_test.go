package mutate

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"

	"physview/internal/report"
	"physview/scene"
)

var (
	structuredPerFile = flag.Int("mutate.structured", 3, "structure-aware mutations per file (-1: all of them)")
	structuredBudget  = flag.Duration("mutate.budget", 40*time.Second, "time after which TestStructured stops starting inputs (0: none)")
)

// verbs runs the core path of every command on a document that loaded:
// inspect (text and JSON), validate (text, Khronos JSON, SARIF), convert
// (encoded as .glb and as .gltf, nothing written), edit (a convex
// collider fitted to the first mesh node, then encoded). simulate and the
// mesh reads of screenshot are in run.
func verbs(d *scene.Document) {
	r := report.Inspect(d)
	r.WriteText(io.Discard)
	if err := r.WriteJSON(io.Discard); err != nil {
		panic(fmt.Sprintf("inspect -json: %v", err))
	}
	v := []report.Validation{{Path: d.Path, Findings: d.Findings(), Omitted: d.Omitted()}}
	report.WriteFindings(io.Discard, d.Path, v[0].Findings, v[0].Omitted...)
	if err := report.WriteKhronos(io.Discard, v, true); err != nil {
		panic(fmt.Sprintf("validate -json: %v", err))
	}
	if err := report.WriteSARIF(io.Discard, v); err != nil {
		panic(fmt.Sprintf("validate -format sarif: %v", err))
	}
	dir := filepath.Dir(d.Path)
	d.Encode(filepath.Join(dir, "out.glb"))
	d.Encode(filepath.Join(dir, "out.gltf"))
	for n, node := range d.GLTF.Nodes {
		if node.Mesh == nil {
			continue
		}
		if e, err := d.FitColliderEdit(n, scene.ShapeConvex, false); err == nil {
			var h scene.History
			if _, err := h.Do(d, e); err == nil {
				d.Encode(filepath.Join(dir, "edited.gltf"))
			}
		}
		break
	}
}

// runAll is run and then verbs, with the same recover.
func runAll(path string, data []byte) (o outcome) {
	if o = run(path, data); o.crash != "" || o.refused {
		return o
	}
	defer func() {
		if r := recover(); r != nil {
			o.crash = fmt.Sprintf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	if d, err := scene.Decode(data, scene.FolderFS(filepath.Dir(path))); err == nil {
		d.Path = path
		verbs(d)
	}
	return o
}

// TestStructured: issue 31. Every glTF model under the repository's
// testdata folders in structure-aware mutations (Structured: one value
// replaced by what its key means, -mutate.structured of them per file)
// and the built hostile inputs (hostileInputs) go through load,
// validation, drawing, ten simulation steps and the core of inspect,
// validate (text, JSON, SARIF), convert and edit, in this process: none
// may panic, hang (each input has a time bound) or take the process over
// its memory ceiling. The run stops starting inputs after -mutate.budget,
// so that CI stays within its time.
func TestStructured(t *testing.T) {
	if testing.Short() {
		t.Skip("feeds thousands of mutated files")
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(memoryLimit))
	var st stats
	start := time.Now()
	over := func() bool { return *structuredBudget > 0 && time.Since(start) > *structuredBudget }
	try := func(label, path string, data []byte) bool {
		st.inputs++
		ch := make(chan outcome, 1)
		go func() { ch <- runAll(path, data) }()
		select {
		case o := <-ch:
			if o.crash != "" {
				st.crashes++
				t.Errorf("%s: %s", label, o.crash)
			}
			if o.refused {
				st.refused++
			}
		case <-time.After(*perInput):
			st.hangs++
			t.Errorf("%s: still running after %v", label, *perInput)
			if st.hangs >= 3 {
				t.Errorf("three inputs hang: stopping")
				return false
			}
		}
		if rss := peakRSS(); rss > rssCeiling {
			t.Errorf("%s: the peak resident size reached %d MB, over the %d MB ceiling", label, rss>>20, rssCeiling>>20)
			return false
		}
		return true
	}
	for _, h := range hostileInputs(t) {
		if !try("built "+h.name, h.path, h.data) {
			return
		}
	}
	var all []string
	for _, p := range repoFiles(t) {
		if e := strings.ToLower(filepath.Ext(p)); e == ".gltf" || e == ".glb" {
			all = append(all, p)
		}
	}
	for _, path := range all {
		if over() {
			t.Logf("time budget of %v spent: stopping after %d files", *structuredBudget, st.files)
			break
		}
		st.files++
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel := name(t, path)
		for _, m := range Structured(rel, data, *structuredPerFile) {
			if !try(rel+", "+m.Name, path, m.Data) {
				return
			}
		}
	}
	st.peak = peakRSS()
	t.Logf("%d of %d files, %d inputs (%d refused), %d crashes, %d hangs, peak RSS %d MB, %v",
		st.files, len(all), st.inputs, st.refused, st.crashes, st.hangs, st.peak>>20, time.Since(start).Round(time.Second))
}

// hostile is one built input: data read as if from path.
type hostile struct {
	name, path string
	data       []byte
}

// hostileInputs builds the inputs a one-value mutation cannot make: a
// named pipe as a buffer and (through a symbolic link) as an image, the
// shapes whose findings or work grow with the square of their size, and
// zero-filled accessors and morph targets far larger than their file.
func hostileInputs(t *testing.T) []hostile {
	dir := t.TempDir()
	var out []hostile
	add := func(name, file, text string) {
		p := filepath.Join(dir, file)
		out = append(out, hostile{name, p, []byte(text)})
	}
	// A FIFO nobody writes to: opening it for reading would block forever.
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.bin"), 0o644); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	if err := os.Symlink("pipe.bin", filepath.Join(dir, "pipe.png")); err != nil {
		t.Fatal(err)
	}
	add("fifo buffer", "fifo_buffer.gltf", `{"asset":{"version":"2.0"},"buffers":[{"byteLength":12,"uri":"pipe.bin"}],
"bufferViews":[{"buffer":0,"byteLength":12}],"accessors":[{"bufferView":0,"componentType":5126,"count":1,"type":"VEC3","min":[0,0,0],"max":[0,0,0]}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0}`)
	add("fifo image through a link", "fifo_image.gltf", `{"asset":{"version":"2.0"},"images":[{"uri":"pipe.png"}],"textures":[{"source":0}],
"materials":[{"pbrMetallicRoughness":{"baseColorTexture":{"index":0}}}]}`)

	// 10,000 channels on one target: 50 million pairs.
	var ch strings.Builder
	for i := range 10000 {
		if i > 0 {
			ch.WriteByte(',')
		}
		ch.WriteString(`{"sampler":0,"target":{"node":0,"path":"rotation"}}`)
	}
	var bin []byte
	for _, f := range []float32{0, 1, 0, 0, 0, 1, 0, 0.7071, 0, 0.7071} {
		bin = binary.LittleEndian.AppendUint32(bin, math.Float32bits(f))
	}
	add("10,000 repeated animation channels", "channels.gltf", fmt.Sprintf(`{"asset":{"version":"2.0"},
"buffers":[{"byteLength":40,"uri":"data:application/octet-stream;base64,%s"}],
"bufferViews":[{"buffer":0,"byteLength":8},{"buffer":0,"byteOffset":8,"byteLength":32}],
"accessors":[{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},{"bufferView":1,"componentType":5126,"count":2,"type":"VEC4"}],
"nodes":[{"name":"n"}],"scenes":[{"nodes":[0]}],"scene":0,"animations":[{"samplers":[{"input":0,"output":1}],"channels":[%s]}]}`,
		base64.StdEncoding.EncodeToString(bin), ch.String()))

	// A chain of 20,000 nodes (per-node cost, and deep recursion).
	var nodes strings.Builder
	for i := range 20000 {
		if i > 0 {
			nodes.WriteByte(',')
		}
		if i < 19999 {
			fmt.Fprintf(&nodes, `{"children":[%d]}`, i+1)
		} else {
			nodes.WriteString(`{}`)
		}
	}
	add("a chain of 20,000 nodes", "chain.gltf", `{"asset":{"version":"2.0"},"nodes":[`+nodes.String()+`],"scenes":[{"nodes":[0]}],"scene":0}`)

	// Accessors without a buffer view are zeros: 2^28 vertices of 12
	// bytes (3 GB) and 1,000 morph targets of them, from a few hundred
	// bytes of text.
	var targets strings.Builder
	for i := range 1000 {
		if i > 0 {
			targets.WriteByte(',')
		}
		targets.WriteString(`{"POSITION":1}`)
	}
	add("zero-filled accessors and morph targets", "zeros.gltf", `{"asset":{"version":"2.0"},
"accessors":[{"componentType":5126,"count":268435456,"type":"VEC3","min":[0,0,0],"max":[0,0,0]},
{"componentType":5126,"count":268435456,"type":"VEC3","min":[0,0,0],"max":[0,0,0]}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0},"targets":[`+targets.String()+`]}],"weights":[]}],
"nodes":[{"mesh":0,"extensions":{"KHR_physics_rigid_bodies":{"motion":{"mass":1},"collider":{"geometry":{"mesh":0,"convexHull":true}}}}}],
"extensionsUsed":["KHR_physics_rigid_bodies"],"scenes":[{"nodes":[0]}],"scene":0}`)

	// 1,000 accessors reading one 1.2 MB view, from a 1.2 MB buffer
	// (each under its own budget, they asked for 1.2 GB: they are read
	// once now, scene.AccessorKey).
	var accs strings.Builder
	for i := range 1000 {
		if i > 0 {
			accs.WriteByte(',')
		}
		accs.WriteString(`{"bufferView":0,"componentType":5126,"count":100000,"type":"VEC3","min":[0,0,0],"max":[0,0,0]}`)
	}
	if err := os.WriteFile(filepath.Join(dir, "big.bin"), make([]byte, 1200000), 0o644); err != nil {
		t.Fatal(err)
	}
	var prims strings.Builder
	for i := range 1000 {
		if i > 0 {
			prims.WriteByte(',')
		}
		fmt.Fprintf(&prims, `{"attributes":{"POSITION":%d}}`, i)
	}
	add("1,000 accessors on one view", "aliased.gltf", `{"asset":{"version":"2.0"},"buffers":[{"byteLength":1200000,"uri":"big.bin"}],
"bufferViews":[{"buffer":0,"byteLength":1200000}],"accessors":[`+accs.String()+`],
"meshes":[{"primitives":[`+prims.String()+`]}],"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0}`)

	// A GLB whose JSON chunk claims more bytes than the file has.
	var glb bytes.Buffer
	for _, v := range []uint32{0x46546C67, 2, 1 << 30, 1 << 29, 0x4E4F534A} {
		glb.Write(binary.LittleEndian.AppendUint32(nil, v))
	}
	glb.WriteString(`{"asset":{"version":"2.0"}}`)
	out = append(out, hostile{"GLB lengths past the file", filepath.Join(dir, "lengths.glb"), glb.Bytes()})
	return out
}

// TestStructuredValues: each value is replaced by what its key means, one
// at a time, the rest of the text kept; the choice of a limited run is
// the same every time.
func TestStructuredValues(t *testing.T) {
	doc := []byte(`{"asset":{"version":"2.0"},"nodes":[{"mesh":0}],"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],` +
		`"accessors":[{"count":3,"min":[0.5]}]}`)
	all := Structured("x.gltf", doc, -1)
	// By name without the offset: the first of each (an array before its
	// elements).
	byName := map[string]string{}
	for _, m := range all {
		n, _, _ := strings.Cut(m.Name, "(")
		if _, seen := byName[n]; !seen {
			byName[n] = string(m.Data)
		}
	}
	for _, tc := range []struct{ name, want string }{
		{"index=count+1@nodes/mesh", `"nodes":[{"mesh":2}]`},
		{"index-1@attributes/POSITION", `"POSITION":-1`},
		{"index=2^32@attributes/POSITION", `"POSITION":4294967296`},
		{"size=9007199254740993@accessors/count", `"count":9007199254740993`},
		{"size=3.5@accessors/count", `"count":3.5`},
		{"float=NaN@min", `"min":[NaN]`},
		{"float=-0@min", `"min":[-0]`},
		{"null@nodes", `"nodes":null`},
		{"wrong-type@accessors/count", `"count":{"x":[]}`},
		{"duplicate-key@nodes/mesh", `{"mesh":0, "mesh": null}`},
		{"invalid-utf8@asset/version", "\"version\":\"\xff\xfe"},
	} {
		got, ok := byName[tc.name]
		if !ok {
			t.Errorf("no mutation %s", tc.name)
			continue
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: %s lacks %s", tc.name, got, tc.want)
		}
		if want := len(doc) - len(tc.want); !strings.HasPrefix(tc.name, "duplicate") && len(got) < want-20 {
			t.Errorf("%s: %d bytes, more than the value was replaced", tc.name, len(got))
		}
	}
	// {"mesh":0} is 10 bytes: 1 MB holds 95,325 of them with commas.
	if m, want := byName["100k-copy@nodes"], min(copies, copyBytes/11); strings.Count(m, `{"mesh":0}`) != want {
		t.Errorf("the copy holds %d nodes, want %d", strings.Count(m, `{"mesh":0}`), want)
	}
	if m := byName["100k-copy@accessors"]; !strings.Contains(m, `"accessors":[{"count":3,"min":[0.5]},{"count":3,`) {
		t.Errorf("the copy of the accessors: %.80s", m)
	}
	if m := byName["10k-deep@nodes"]; strings.Count(m, "[{") < deepNest {
		t.Errorf("deep nesting is %d deep, want %d", strings.Count(m, "[{"), deepNest)
	}
	a, b := Structured("x.gltf", doc, 10), Structured("x.gltf", doc, 10)
	if len(a) != 10 {
		t.Fatalf("%d mutations with a limit of 10", len(a))
	}
	for i := range a {
		if a[i].Name != b[i].Name || !bytes.Equal(a[i].Data, b[i].Data) {
			t.Errorf("mutation %d differs between two runs", i)
		}
	}
}
