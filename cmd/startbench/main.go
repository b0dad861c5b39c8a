// Command startbench measures, in one run, how long this program takes to
// show a textured model and how much memory it needs, beside a floor
// measured in the same run and beside F3D:
//
//   - floor: reading the file, its buffers and images and decoding every
//     image with the Go standard library on all cores (in this process, no
//     process start): what any viewer written in Go must at least do;
//   - screenshot: `viewer screenshot -size 800x600` from process start to
//     exit (EGL, no window), with its peak resident memory;
//   - window: `viewer FILE` from process start to the first frame with every
//     texture, with its peak resident memory then;
//   - f3d: `f3d --output` at 800x600 from process start to exit, when f3d
//     is installed (apt-get install f3d).
//
// Each figure is the median of -runs runs; the runs of the four measures
// are interleaved so that a busy machine disturbs them alike. The memory
// goal is 1.5 times the decoded textures (4 bytes a pixel) plus 150 MB.
//
//	go run ./cmd/startbench [-runs 5] [FILE...]
//
// With no FILE it measures DamagedHelmet, StainedGlassLamp, GlamVelvetSofa
// and BrainStem from the shared corpus. It starts a private Xvfb when
// DISPLAY is not set.
package main

import (
	"bufio"
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

	"physview/render/imgdec"
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
	flag.Parse()
	files := flag.Args()
	if len(files) == 0 {
		for _, m := range corpusModels {
			files = append(files, filepath.Join(*corpus, filepath.FromSlash(m)))
		}
	}
	if err := benchmark(*runs, files); err != nil {
		fmt.Fprintln(os.Stderr, "startbench:", err)
		os.Exit(1)
	}
}

// result is one model's medians.
type result struct {
	floor, shot, window, f3d time.Duration
	shotRSS, windowRSS       int64
	texBytes                 int64
}

func benchmark(runs int, files []string) error {
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			return err
		}
	}
	tmp, err := os.MkdirTemp("", "startbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	viewer := filepath.Join(tmp, "viewer")
	if out, err := exec.Command("go", "build", "-o", viewer, "./cmd/viewer").CombinedOutput(); err != nil {
		return fmt.Errorf("building the viewer: %v\n%s", err, out)
	}
	display, stop, err := xDisplay()
	if err != nil {
		return err
	}
	defer stop()
	f3d, _ := exec.LookPath("f3d")
	if f3d == "" {
		fmt.Println("f3d is not installed: its column is empty (apt-get install f3d)")
	}

	fmt.Printf("%d runs each, medians; process start included except in the floor\n", runs)
	fmt.Printf("%-18s %8s | %9s %6s %8s | %9s %6s %8s | %9s %6s | %8s %8s\n",
		"model", "floor", "shot", "/floor", "RSS", "window", "/floor", "RSS", "f3d", "/shot", "dec.tex", "RSS goal")
	for _, file := range files {
		var floors, shots, windows, f3ds []time.Duration
		var r result
		for i := 0; i < runs; i++ {
			fl, tb, err := floor(file)
			if err != nil {
				return err
			}
			floors, r.texBytes = append(floors, fl), tb
			d, rss, err := screenshot(viewer, file, filepath.Join(tmp, "shot.png"))
			if err != nil {
				return err
			}
			shots, r.shotRSS = append(shots, d), max(r.shotRSS, rss)
			d, rss, err = window(viewer, display, file)
			if err != nil {
				return err
			}
			windows, r.windowRSS = append(windows, d), max(r.windowRSS, rss)
			if f3d != "" {
				start := time.Now()
				cmd := exec.Command(f3d, "--output", filepath.Join(tmp, "f3d.png"), "--resolution", "800,600", file)
				cmd.Env = append(os.Environ(), "DISPLAY="+display)
				if err := cmd.Run(); err == nil {
					f3ds = append(f3ds, time.Since(start))
				}
			}
		}
		r.floor, r.shot, r.window = median(floors), median(shots), median(windows)
		f3dText, f3dRatio := "-", "-"
		if len(f3ds) > 0 {
			r.f3d = median(f3ds)
			f3dText, f3dRatio = ms(r.f3d), fmt.Sprintf("%.2f", float64(r.f3d)/float64(r.shot))
		}
		goal := r.texBytes*3/2 + 150e6
		fmt.Printf("%-18s %8s | %9s %5.2fx %6.0fMB | %9s %5.2fx %6.0fMB | %9s %6s | %6.0fMB %6.0fMB\n",
			strings.TrimSuffix(filepath.Base(file), filepath.Ext(file)), ms(r.floor),
			ms(r.shot), ratio(r.shot, r.floor), mb(r.shotRSS),
			ms(r.window), ratio(r.window, r.floor), mb(r.windowRSS),
			f3dText, f3dRatio, mb(r.texBytes), mb(goal))
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

// xDisplay returns DISPLAY, or starts a private Xvfb and returns its
// display and a function that stops it.
func xDisplay() (string, func(), error) {
	if d := os.Getenv("DISPLAY"); d != "" {
		return d, func() {}, nil
	}
	// Xvfb picks a free display and reports it on fd 3; SIGTERM lets it
	// remove its socket when done.
	r, w, err := os.Pipe()
	if err != nil {
		return "", nil, err
	}
	x := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp")
	x.ExtraFiles = []*os.File{w}
	if err := x.Start(); err != nil {
		return "", nil, fmt.Errorf("starting Xvfb: %w", err)
	}
	w.Close()
	stop := func() { x.Process.Signal(syscall.SIGTERM); x.Wait() }
	n, err := bufio.NewReader(r).ReadString('\n')
	r.Close()
	if err != nil {
		stop()
		return "", nil, fmt.Errorf("Xvfb did not report its display: %w", err)
	}
	return ":" + strings.TrimSpace(n), stop, nil
}

// floor reads the document, its buffers and images and decodes every image
// with the standard library on one worker per CPU: what any viewer must do
// before a textured frame. It returns the time and the decoded size of the
// images (4 bytes a pixel).
func floor(file string) (time.Duration, int64, error) {
	start := time.Now()
	d, err := scene.Load(file)
	if err != nil {
		return 0, 0, err
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
				if m, err := imgdec.DecodeStd(data); err == nil {
					mu.Lock()
					total += int64(len(m.Pix))
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return time.Since(start), total, nil
}

// screenshot runs `viewer screenshot` and returns its time from process
// start to exit and its peak resident memory.
func screenshot(viewer, file, out string) (time.Duration, int64, error) {
	cmd := exec.Command(viewer, "screenshot", "-size", "800x600", "-o", out, file)
	start := time.Now()
	if b, err := cmd.CombinedOutput(); err != nil {
		return 0, 0, fmt.Errorf("%s: viewer screenshot: %v\n%s", file, err, b)
	}
	el := time.Since(start)
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss * 1024
	}
	return el, rss, nil
}

var frameLine = regexp.MustCompile(`viewer: textured frame after (\d+) ms`)

// window starts the viewer on file and waits for its textured-frame report;
// it returns the time from process start and the peak resident memory then.
func window(viewer, display, file string) (time.Duration, int64, error) {
	cmd := exec.Command(viewer, file)
	cmd.Env = append(os.Environ(), "DISPLAY="+display)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return 0, 0, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	deadline := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
	defer deadline.Stop()
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if frameLine.MatchString(sc.Text()) {
			// Wall time from our start, which includes process start-up.
			return time.Since(start), peakRSS(cmd.Process.Pid), nil
		}
	}
	return 0, 0, fmt.Errorf("%s: the viewer exited before a textured frame", file)
}

// peakRSS reads VmHWM from /proc, in bytes.
func peakRSS(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			f := strings.Fields(l)
			if len(f) >= 2 {
				kb, _ := strconv.ParseInt(f[1], 10, 64)
				return kb * 1024
			}
		}
	}
	return 0
}
