package mutate

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"physview/debugdraw"
	"physview/internal/testcorpus"
	"physview/scene"
	"physview/scene/anim"
	"physview/scene/g4mf"
	"physview/scene/xode"
	"physview/sim"
)

var (
	corpusFiles = flag.Int("mutate.corpus", -1, "how many corpus files to mutate (0: none, -1: all under the size cap)")
	perInput    = flag.Duration("mutate.timeout", 30*time.Second, "time bound of one mutated input")
	simulate    = flag.Bool("mutate.sim", true, "simulate each input that loads (false: load, validate and draw only)")
	isolate     = flag.Bool("mutate.isolate", false, "run each file in a child process, counting the crashes that kill it (for figures)")
)

// The process's memory: a soft limit the collector works to, and a hard
// ceiling on the peak resident size the test fails above.
const (
	memoryLimit = 1536 << 20
	rssCeiling  = 2560 << 20
	// corpusMaxBytes leaves the largest corpus files out (their mutations
	// take seconds each; the small ones reach the same code).
	corpusMaxBytes = 8 << 20
)

var modelExts = []string{".gltf", ".glb", ".xode", ".g4tf", ".g4b"}

func isModel(p string) bool { return slices.Contains(modelExts, strings.ToLower(filepath.Ext(p))) }

// repoFiles returns every model file under the repository's testdata
// folders, sorted.
func repoFiles(t *testing.T) []string {
	root := testcorpus.Root(t)
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && isModel(p) && strings.Contains(filepath.ToSlash(p), "/testdata/") {
			out = append(out, p)
		}
		return nil
	})
	slices.Sort(out)
	return out
}

// corpusSample returns n corpus models of at most corpusMaxBytes, spread
// evenly over the sorted list (the same ones every run).
func corpusSample(t *testing.T, n int) []string {
	dir := testcorpus.Dir(t)
	var all []string
	for _, rel := range testcorpus.Models(t, modelExts...) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if st, err := os.Stat(p); err == nil && st.Size() <= corpusMaxBytes {
			all = append(all, p)
		}
	}
	if n < 0 || n >= len(all) {
		return all
	}
	out := make([]string, 0, n)
	for i := range n {
		out = append(out, all[i*len(all)/n])
	}
	return out
}

// outcome is what one mutated input did.
type outcome struct {
	refused bool   // the load said no, with an error
	crash   string // a panic, with its value
}

// run feeds one mutated input through everything that reads a file:
// load, validation, the mesh data the renderer uploads, the bounds,
// the debug draw lists, and ten steps of simulation.
func run(path string, data []byte) (o outcome) {
	defer func() {
		if r := recover(); r != nil {
			o.crash = fmt.Sprintf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	dir := filepath.Dir(path)
	var d *scene.Document
	var err error
	switch strings.ToLower(filepath.Ext(path)) {
	case ".xode":
		d, err = xode.Decode(data)
	case ".g4tf", ".g4b":
		d, err = g4mf.Decode(data, scene.FolderFS(dir))
	default:
		d, err = scene.Decode(data, scene.FolderFS(dir))
	}
	if err != nil {
		if err.Error() == "" {
			return outcome{crash: "an empty error message"}
		}
		return outcome{refused: true}
	}
	d.Path = path
	d.Validate()
	_ = d.Findings()
	for mi, m := range d.GLTF.Meshes {
		if m == nil {
			continue
		}
		for pi := range m.Primitives {
			d.ReadPrimitive(mi, pi)
		}
	}
	model := anim.NewModel(d)
	model.Bounds(model.Rest())
	cache := debugdraw.NewCache(d, &debugdraw.DocumentMeshes{Doc: d}, debugdraw.Options{MarkerSize: 0.1, GravitySamples: 3})
	cache.Update()
	if !*simulate {
		return o
	}
	s, err := sim.New(d, sim.Options{})
	if err == nil {
		for range 10 {
			if s.Step() != nil {
				break
			}
		}
		s.Close()
	}
	return o
}

// peakRSS is the process's peak resident size in bytes (VmHWM), 0 when
// /proc does not say.
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// stats are the figures of a run (docs/robustness.md).
type stats struct {
	files, inputs, refused, crashes, hangs int
	peak                                   int64
}

// name is how a file is named in messages and seeds: from the
// repository's root (corpus files from its parent's shared folder),
// whatever the checkout is called.
func name(t *testing.T, path string) string {
	root := testcorpus.Root(t)
	rel, _ := filepath.Rel(root, path)
	if strings.HasPrefix(rel, "..") {
		rel, _ = filepath.Rel(filepath.Join(root, "..", "shared"), path)
	}
	return filepath.ToSlash(rel)
}

// files returns the repository's model files and the corpus sample.
func files(t *testing.T) []string {
	out := repoFiles(t)
	if len(out) < 100 {
		t.Fatalf("found %d model files under testdata", len(out))
	}
	if *corpusFiles != 0 {
		if _, err := os.Stat(filepath.Join(testcorpus.Root(t), "..", "shared", "corpus", "MANIFEST.tsv")); err != nil {
			t.Logf("shared corpus not found: mutating the repository's files only")
		} else {
			out = append(out, corpusSample(t, *corpusFiles)...)
		}
	}
	return out
}

// mutateFile runs the mutations of path from the from-th on, each in a
// goroutine with a time bound, and calls done after each (for the child
// process of -mutate.isolate).
func mutateFile(t *testing.T, path string, from int, st *stats, done func(k int, what string)) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rel := name(t, path)
	ms := Of(rel, data)
	for k := from; k < len(ms); k++ {
		m := ms[k]
		st.inputs++
		ch := make(chan outcome, 1)
		go func() { ch <- run(path, m.Data) }()
		select {
		case o := <-ch:
			what := "ok"
			if o.crash != "" {
				st.crashes++
				what = "crash"
				t.Errorf("%s, mutation %s: %s", rel, m.Name, o.crash)
			}
			if o.refused {
				st.refused++
				what = "refused"
			}
			done(k, what)
		case <-time.After(*perInput):
			st.hangs++
			t.Errorf("%s, mutation %s: still running after %v", rel, m.Name, *perInput)
			done(k, "hang")
			if st.hangs >= 3 {
				t.Errorf("three inputs hang: stopping")
				return false
			}
		}
	}
	if rss := peakRSS(); rss > rssCeiling {
		t.Errorf("%s: the peak resident size reached %d MB, over the %d MB ceiling", rel, rss>>20, rssCeiling>>20)
		return false
	}
	return true
}

// TestMutations: issue 24. Every model under the repository's testdata
// folders, and the shared corpus, in a fixed set of seeded mutations, goes
// through load, validation, drawing and simulation in this one process: no
// input may panic, hang (each has a time bound) or take the process over
// its memory ceiling. Refusing an input with an error is what should
// happen to most of them. With -mutate.isolate each file runs in a child
// process, so that a crash the process cannot survive (a C library's
// abort) is counted and the run goes on: that is how docs/robustness.md's
// figures count crashes.
func TestMutations(t *testing.T) {
	if testing.Short() {
		t.Skip("feeds thousands of mutated files")
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(memoryLimit))
	if child := os.Getenv("PHYSVIEW_MUTATE_FILE"); child != "" {
		from, _ := strconv.Atoi(os.Getenv("PHYSVIEW_MUTATE_FROM"))
		var st stats
		mutateFile(t, child, from, &st, func(k int, what string) { fmt.Printf("MUTATE-DONE %d %s\n", k, what) })
		fmt.Printf("MUTATE-END\n")
		return
	}
	var st stats
	start := time.Now()
	for _, path := range files(t) {
		st.files++
		if *isolate {
			isolated(t, path, &st)
			continue
		}
		if !mutateFile(t, path, 0, &st, func(int, string) {}) {
			break
		}
	}
	if !*isolate {
		st.peak = peakRSS()
	}
	t.Logf("%d files, %d inputs (%d refused), %d crashes, %d hangs, peak RSS %d MB, %v",
		st.files, st.inputs, st.refused, st.crashes, st.hangs, st.peak>>20, time.Since(start).Round(time.Second))
}

// isolated runs path's mutations in child processes: when one dies, its
// mutation is counted as a crash and a new child goes on after it.
func isolated(t *testing.T, path string, st *stats) {
	data, _ := os.ReadFile(path)
	n := len(Of(name(t, path), data))
	for from := 0; from < n; {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMutations$", "-mutate.sim="+strconv.FormatBool(*simulate), "-mutate.timeout="+perInput.String())
		cmd.Env = append(os.Environ(), "PHYSVIEW_MUTATE_FILE="+path, "PHYSVIEW_MUTATE_FROM="+strconv.Itoa(from))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, _ := cmd.Output()
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			st.peak = max(st.peak, ru.Maxrss<<10)
		}
		last, ended := from-1, false
		for _, l := range strings.Split(string(out), "\n") {
			var k int
			var what string
			if _, err := fmt.Sscanf(l, "MUTATE-DONE %d %s", &k, &what); err == nil {
				last = k
				st.inputs++
				switch what {
				case "refused":
					st.refused++
				case "crash":
					st.crashes++
				case "hang":
					st.hangs++
				}
			}
			ended = ended || l == "MUTATE-END"
		}
		if ended {
			if _, fail, ok := strings.Cut(string(out), "--- FAIL"); ok {
				t.Errorf("%s: %s", name(t, path), firstLines(fail, 4))
			}
			return
		}
		// The child died on mutation last+1.
		st.inputs++
		st.crashes++
		t.Errorf("%s, mutation %d: the process died: %s", name(t, path), last+1, firstLines(stderr.String(), 3))
		from = last + 2
	}
}

func firstLines(s string, n int) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "=== RUN") {
			keep = append(keep, strings.TrimSpace(l))
		}
		if len(keep) == n {
			break
		}
	}
	return strings.Join(keep, " | ")
}

// TestMutationsDeterministic: the same file gives the same mutations.
func TestMutationsDeterministic(t *testing.T) {
	data, err := os.ReadFile("../../scene/testdata/khr_physics.gltf")
	if err != nil {
		t.Fatal(err)
	}
	a, b := Of("x/khr_physics.gltf", data), Of("x/khr_physics.gltf", data)
	if len(a) != 12 || len(a) != len(b) {
		t.Fatalf("%d and %d mutations, want 12", len(a), len(b))
	}
	for i := range a {
		if a[i].Name != b[i].Name || !bytes.Equal(a[i].Data, b[i].Data) {
			t.Errorf("mutation %d differs between two runs", i)
		}
		if bytes.Equal(a[i].Data, data) {
			t.Errorf("mutation %s changed nothing", a[i].Name)
		}
	}
	if c := Of("y/khr_physics.gltf", data); bytes.Equal(c[3].Data, a[3].Data) {
		t.Error("another name gives the same byte flips")
	}
}
