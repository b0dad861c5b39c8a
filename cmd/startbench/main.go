// Command startbench measures, in one run, how long this program takes to
// show a textured model and how much memory it needs, beside a floor
// measured in the same run and beside F3D:
//
//   - floor: reading the file, its buffers and images and decoding every
//     image with the Go standard library (KTX2: package ktx2) on all cores
//     (in this process, no process start): what any viewer written in Go
//     must at least do;
//   - screenshot: `viewer screenshot -size 800x600` from process start to
//     exit (EGL, no window), with its peak resident memory;
//   - window: `viewer FILE` from process start to the first frame with every
//     texture (reduced ones at first: render.SetPreviewSide), and to the
//     first frame with every texture whole ("full"), with its peak
//     resident memory then;
//   - f3d: `f3d --output` at 800x600 from process start to exit, when f3d
//     is installed (apt-get install f3d).
//
// Each figure is the median of -runs runs; the runs of the four measures
// are interleaved so that a busy machine disturbs them alike. Beside each
// wall time is the CPU time (user + system, every thread) the same work
// took, which other processes on the machine disturb much less. Peak
// memory is the largest VmHWM of the runs, in MB of 10^6 bytes; the goal
// is 1.4 times the decoded textures (4 bytes a pixel) plus 150 MB.
//
//	go run ./cmd/startbench [-runs 5] [FILE...]
//
// With no FILE it measures DamagedHelmet, StainedGlassLamp, GlamVelvetSofa
// and BrainStem from the shared corpus, and shared98.glb, the file of
// issue 36 (98 meshes sharing one sphere's accessors, 98 materials, no
// texture), written by render/testdata/shared/gen.go into the scratch
// folder. Before its runs, each file is drawn once by `viewer screenshot`
// unmeasured: the first run of a build fills the disk caches (the
// prefiltered environment, the shader programs: render/envcache.go,
// progcache.go), as a user's first use does once. It starts a private
// Xvfb when DISPLAY is not set.
//
//	go run ./cmd/startbench -open [-runs 3] [-shots DIR] [FILE]
//
// measures instead how long the window goes without a frame while it
// opens FILE (StainedGlassLamp by default) through its own file browser
// over the demo scene, beside the idle window's frames in the same run
// (open.go).
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"physview/internal/procstat"
	"physview/internal/xvfb"
	"physview/render/imgdec"
	"physview/render/imgdec/ktx2"
	"physview/scene"
)

// corpusModels are measured when no file is named, relative to the corpus.
var corpusModels = []string{
	"gltf-sample-assets/Models/DamagedHelmet/glTF-Binary/DamagedHelmet.glb",
	"gltf-sample-assets/Models/StainedGlassLamp/glTF/StainedGlassLamp.gltf",
	"gltf-sample-assets/Models/GlamVelvetSofa/glTF-Binary/GlamVelvetSofa.glb",
	"gltf-sample-assets/Models/BrainStem/glTF-Binary/BrainStem.glb",
}

func main() {
	runs := flag.Int("runs", 5, "runs per measurement (the median is shown)")
	corpus := flag.String("corpus", "../shared/corpus", "the shared corpus, for the default models")
	open := flag.Bool("open", false, "measure the window's frame gaps while it opens FILE (default StainedGlassLamp) through its file browser, beside its idle frames")
	shots := flag.String("shots", "", "with -open: save screen captures taken during the first open in this folder")
	floorOnly := flag.Bool("floor", false, "measure the floor of one FILE in this process and print it (used by the benchmark, in a child process)")
	flag.Parse()
	if *floorOnly {
		t, tb, err := floor(flag.Arg(0))
		if err != nil {
			fmt.Fprintln(os.Stderr, "startbench:", err)
			os.Exit(1)
		}
		fmt.Println(t.wall.Nanoseconds(), t.cpu.Nanoseconds(), tb)
		return
	}
	files := flag.Args()
	if *open {
		file := filepath.Join(*corpus, filepath.FromSlash(corpusModels[1]))
		if len(files) > 0 {
			file = files[0]
		}
		if err := openBenchmark(*runs, file, *shots); err != nil {
			fmt.Fprintln(os.Stderr, "startbench:", err)
			os.Exit(1)
		}
		return
	}
	shared := len(files) == 0
	if len(files) == 0 {
		for _, m := range corpusModels {
			files = append(files, filepath.Join(*corpus, filepath.FromSlash(m)))
		}
	}
	if err := benchmark(*runs, files, shared); err != nil {
		fmt.Fprintln(os.Stderr, "startbench:", err)
		os.Exit(1)
	}
}

// timing is one measurement: wall time and CPU time.
type timing struct{ wall, cpu time.Duration }

func (t timing) String() string {
	return fmt.Sprintf("%d/%d", t.wall.Milliseconds(), t.cpu.Milliseconds())
}

// medianTiming takes the median wall and the median CPU time separately.
func medianTiming(ts []timing) timing {
	var w, c []time.Duration
	for _, t := range ts {
		w, c = append(w, t.wall), append(c, t.cpu)
	}
	return timing{median(w), median(c)}
}

func ratios(a, b timing) string {
	return fmt.Sprintf("%.2f/%.2f", ratio(a.wall, b.wall), ratio(a.cpu, b.cpu))
}

// cpuOf is the user and system time of a finished child.
func cpuOf(ps *os.ProcessState) time.Duration { return ps.UserTime() + ps.SystemTime() }

// selfCPU is the CPU time this process used so far.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchmark measures files; shared adds the file of issue 36, written in
// the scratch folder.
func benchmark(runs int, files []string, shared bool) error {
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			return err
		}
	}
	bench, err := xvfb.NewBench("startbench")
	if err != nil {
		return err
	}
	defer bench.Close()
	tmp, viewer, display := bench.Dir, bench.Viewer, bench.Display
	if shared {
		f := filepath.Join(tmp, "shared98.glb")
		if out, err := exec.Command("go", "run", "render/testdata/shared/gen.go", "-o", f).CombinedOutput(); err != nil {
			return fmt.Errorf("writing %s: %v\n%s", f, err, out)
		}
		files = append(files, f)
	}
	f3d, _ := exec.LookPath("f3d")
	if f3d == "" {
		fmt.Println("f3d is not installed: its column is empty (apt-get install f3d)")
	}

	fmt.Printf("%d runs each, medians; times in ms as wall/CPU, ratios likewise; process start included except in the floor\n", runs)
	fmt.Printf("%-16s %10s | %10s %9s %6s | %10s %9s %10s %9s %6s | %10s %9s | %7s %7s\n",
		"model", "floor", "shot", "/floor", "RSS", "window", "/floor", "full", "/floor", "RSS", "f3d", "f3d/shot", "dec.tex", "RSSgoal")
	for _, file := range files {
		var floors, shots, windows, fulls, f3ds []timing
		var shotRSS, windowRSS, texBytes int64
		// Unmeasured: fills the disk caches of this build.
		if _, _, err := screenshot(viewer, file, filepath.Join(tmp, "shot.png")); err != nil {
			return err
		}
		for i := 0; i < runs; i++ {
			fl, tb, err := childFloor(file)
			if err != nil {
				return err
			}
			floors, texBytes = append(floors, fl), tb
			t, rss, err := screenshot(viewer, file, filepath.Join(tmp, "shot.png"))
			if err != nil {
				return err
			}
			shots, shotRSS = append(shots, t), max(shotRSS, rss)
			t, full, rss, err := window(viewer, display, file)
			if err != nil {
				return err
			}
			windows, fulls, windowRSS = append(windows, t), append(fulls, full), max(windowRSS, rss)
			if f3d != "" {
				start := time.Now()
				cmd := exec.Command(f3d, "--output", filepath.Join(tmp, "f3d.png"), "--resolution", "800,600", file)
				cmd.Env = append(os.Environ(), "DISPLAY="+display)
				if err := cmd.Run(); err == nil {
					f3ds = append(f3ds, timing{time.Since(start), cpuOf(cmd.ProcessState)})
				}
			}
		}
		fl, sh, wi, fu := medianTiming(floors), medianTiming(shots), medianTiming(windows), medianTiming(fulls)
		f3dText, f3dRatio := "-", "-"
		if len(f3ds) > 0 {
			f := medianTiming(f3ds)
			f3dText, f3dRatio = f.String(), ratios(f, sh)
		}
		goal := texBytes*7/5 + 150e6
		fmt.Printf("%-16s %10s | %10s %9s %4.0fMB | %10s %9s %10s %9s %4.0fMB | %10s %9s | %5.0fMB %5.0fMB\n",
			strings.TrimSuffix(filepath.Base(file), filepath.Ext(file)), fl,
			sh, ratios(sh, fl), mb(shotRSS), wi, ratios(wi, fl), fu, ratios(fu, fl), mb(windowRSS),
			f3dText, f3dRatio, mb(texBytes), mb(goal))
	}
	return nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%dms", d.Milliseconds()) }
func mb(b int64) float64        { return float64(b) / 1e6 }
func ratio(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func median(ds []time.Duration) time.Duration {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2]
}

// childFloor measures the floor in a child process: the children's peak
// memory, which Linux takes at exec from the parent's, stays that of the
// viewer rather than of the floor's decoding.
func childFloor(file string) (timing, int64, error) {
	self, err := os.Executable()
	if err != nil {
		return timing{}, 0, err
	}
	out, err := exec.Command(self, "-floor", file).Output()
	if err != nil {
		return timing{}, 0, fmt.Errorf("%s: floor: %w", file, err)
	}
	var w, c, tb int64
	if _, err := fmt.Sscan(string(out), &w, &c, &tb); err != nil {
		return timing{}, 0, fmt.Errorf("%s: floor: %q: %w", file, out, err)
	}
	return timing{time.Duration(w), time.Duration(c)}, tb, nil
}

// floor reads the document, its buffers and images and decodes every image
// with the standard library on one worker per CPU: what any viewer must do
// before a textured frame. It returns the time and the decoded size of the
// images (4 bytes a pixel).
func floor(file string) (timing, int64, error) {
	start, cpu := time.Now(), selfCPU()
	d, err := scene.Load(file)
	if err != nil {
		return timing{}, 0, err
	}
	dir := filepath.Dir(file)
	next := make(chan int, len(d.GLTF.Images))
	for i := range d.GLTF.Images {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var total int64
	for w := 0; w < runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				img := d.GLTF.Images[i]
				var data []byte
				switch {
				case img.BufferView != nil:
					bv := d.GLTF.BufferViews[*img.BufferView]
					data = d.GLTF.Buffers[bv.Buffer].Data[bv.ByteOffset : bv.ByteOffset+bv.ByteLength]
				case img.URI != "" && !strings.HasPrefix(img.URI, "data:"):
					data, _ = os.ReadFile(filepath.Join(dir, filepath.FromSlash(img.URI)))
				}
				if data == nil {
					continue
				}
				decode := imgdec.DecodeStd
				if bytes.HasPrefix(data, ktx2.Magic) {
					decode = imgdec.Decode // KTX2: the Go decoder of package ktx2
				}
				if m, err := decode(data); err == nil {
					mu.Lock()
					total += int64(len(m.Pix))
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return timing{time.Since(start), selfCPU() - cpu}, total, nil
}

var peakLine = regexp.MustCompile(`viewer: peak RSS (\d+) kB`)

// screenshot runs `viewer screenshot` and returns its time from process
// start to exit and its peak resident memory. The viewer reports its own
// peak (VmHWM) before it exits: the ru_maxrss that wait4 returns is no use
// here, since Go starts a child sharing the parent's memory until exec
// (vfork) and Linux then counts this process's own peak in the child's.
func screenshot(viewer, file, out string) (timing, int64, error) {
	cmd := exec.Command(viewer, "screenshot", "-size", "800x600", "-o", out, file)
	cmd.Env = append(os.Environ(), "PHYSVIEW_PEAK_RSS=1")
	start := time.Now()
	b, err := cmd.CombinedOutput()
	if err != nil {
		return timing{}, 0, fmt.Errorf("%s: viewer screenshot: %v\n%s", file, err, b)
	}
	el := timing{time.Since(start), cpuOf(cmd.ProcessState)}
	m := peakLine.FindSubmatch(b)
	if m == nil {
		return timing{}, 0, fmt.Errorf("%s: viewer screenshot did not report its peak memory:\n%s", file, b)
	}
	kb, _ := strconv.ParseInt(string(m[1]), 10, 64)
	return el, kb * 1024, nil
}

var (
	frameLine = regexp.MustCompile(`viewer: textured frame after (\d+) ms`)
	fullLine  = regexp.MustCompile(`viewer: full-resolution frame after (\d+) ms`)
)

// window starts the viewer on file and waits for its textured-frame and
// full-resolution reports; it returns the times from process start with
// the CPU time then, and the peak resident memory at the second.
func window(viewer, display, file string) (textured, full timing, rss int64, err error) {
	cmd := exec.Command(viewer, file)
	cmd.Env = append(os.Environ(), "DISPLAY="+display)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return timing{}, timing{}, 0, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return timing{}, timing{}, 0, err
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	deadline := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
	defer deadline.Stop()
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		// Wall times from our start, which includes process start-up.
		if frameLine.MatchString(sc.Text()) {
			textured = timing{time.Since(start), procstat.CPU(cmd.Process.Pid)}
		}
		if fullLine.MatchString(sc.Text()) {
			full = timing{time.Since(start), procstat.CPU(cmd.Process.Pid)}
			return textured, full, peakRSS(cmd.Process.Pid), nil
		}
	}
	return timing{}, timing{}, 0, fmt.Errorf("%s: the viewer exited before a full-resolution frame", file)
}

// peakRSS reads VmHWM from /proc, in bytes.
func peakRSS(pid int) int64 { return procstat.PeakKB(pid) * 1024 }
