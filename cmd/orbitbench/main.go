// Command orbitbench measures how smoothly the window orbits a model: it
// opens `viewer FILE` in a 1280x780 window under Xvfb, waits for its
// full-resolution frame (every texture in at its full size), drags the
// mouse across the 3D view for a few seconds
// (xdotool, as a user orbits) and reads the frame times the viewer logs
// (PHYSVIEW_LOG_FRAMES=1). It reports, for each case, the median and 90th
// percentile of the time between frames while the camera moves, the
// frames per second, and the ratio of each to the baseline measured in
// the same run: the demo scene, which the window draws at its 30 fps cap;
// and the median time from a frame's start, where it takes in the input,
// to its swap.
//
// The cases (their -cases names), interleaved round by round so that a
// busy machine disturbs them alike:
//
//   - demo: the demo scene (the baseline);
//
//   - demo-start: the demo, its frames paced by their start rather than
//     by their swap (PHYSVIEW_PACING=start);
//
//   - full: FILE, every frame at full resolution (PHYSVIEW_DYNRES=off);
//
//   - nolevels: FILE as the window draws it, but without the levels of
//     detail of the frames drawn while the camera moves
//     (PHYSVIEW_MOVINGLOD=off);
//
//   - start: FILE as the window draws it, paced by the frames' start;
//
//   - file: FILE as the window draws it (dynamic resolution while
//     moving, the panel copied from its cache, the frames' swaps on the
//     interval's grid).
//
//     go run ./cmd/orbitbench [-runs 3] [-seconds 4] [-shots DIR] [-cases demo-start,start,file] [FILE]
//
// With no FILE it orbits StainedGlassLamp from the shared corpus. It starts
// a private Xvfb when DISPLAY is not set. With -shots it saves a picture of
// the window while moving and after the camera stopped (ImageMagick's
// import), per case.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"physview/internal/procstat"
	"physview/internal/xvfb"
)

const defaultModel = "gltf-sample-assets/Models/StainedGlassLamp/glTF/StainedGlassLamp.gltf"

func main() {
	runs := flag.Int("runs", 3, "rounds of the cases (the figures pool every round's frames)")
	seconds := flag.Float64("seconds", 4, "how long each orbit drags")
	corpus := flag.String("corpus", "../shared/corpus", "the shared corpus, for the default model")
	shots := flag.String("shots", "", "folder to save pictures of the moving and the still window in")
	only := flag.String("cases", "", "comma-separated cases to run (demo, demo-start, full, nolevels, start, file; default all; demo always runs, first)")
	flag.Parse()
	file := flag.Arg(0)
	if file == "" {
		file = filepath.Join(*corpus, filepath.FromSlash(defaultModel))
	}
	if err := benchmark(*runs, *seconds, file, *shots, *only); err != nil {
		fmt.Fprintln(os.Stderr, "orbitbench:", err)
		os.Exit(1)
	}
}

// benchCase is one way of opening the window.
type benchCase struct {
	key  string // its name for -cases
	name string
	file string   // "" the demo scene
	env  []string // added to the viewer's environment
}

// result pools the frames of one case over the rounds.
type result struct {
	intervals []float64 // ms between frame ends while dragging
	work      []float64 // ms of work of those frames
	input     []float64 // ms from their start (the input taken in) to their swap
	redraws   []float64 // ms of the 3D view's redraws among them
	redrawn   int       // frames that redrew the 3D view while dragging
	reduced   int       // of which at a reduced resolution
	settle    []float64 // ms from the drag's end to the first full redraw
	cpu       []float64 // CPU ms a frame over each drag
}

// pick returns the cases named in only (comma-separated keys; "" all),
// the demo first: it is the baseline of the ratios.
func pick(all []benchCase, only string) ([]benchCase, error) {
	if only == "" {
		return all, nil
	}
	want := map[string]bool{"demo": true}
	for _, k := range strings.Split(only, ",") {
		want[strings.TrimSpace(k)] = true
	}
	var cases []benchCase
	for _, c := range all {
		if want[c.key] {
			cases = append(cases, c)
			delete(want, c.key)
		}
	}
	for k := range want {
		return nil, fmt.Errorf("no case %q (the cases: demo, demo-start, full, nolevels, start, file)", k)
	}
	return cases, nil
}

func benchmark(runs int, seconds float64, file, shots, only string) error {
	if _, err := os.Stat(file); err != nil {
		return err
	}
	if _, err := exec.LookPath("xdotool"); err != nil {
		return fmt.Errorf("xdotool is needed to drag the mouse (apt-get install xdotool)")
	}
	bench, err := xvfb.NewBench("orbitbench")
	if err != nil {
		return err
	}
	defer bench.Close()
	tmp, viewer, display := bench.Dir, bench.Viewer, bench.Display
	if shots != "" {
		if err := os.MkdirAll(shots, 0o755); err != nil {
			return err
		}
	}
	name := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	all := []benchCase{
		{key: "demo", name: "demo (baseline)"},
		{key: "demo-start", name: "demo, start pacing", env: []string{"PHYSVIEW_PACING=start"}},
		{key: "full", name: name + ", full resolution", file: file, env: []string{"PHYSVIEW_DYNRES=off"}},
		{key: "nolevels", name: name + ", no moving levels", file: file, env: []string{"PHYSVIEW_MOVINGLOD=off"}},
		{key: "start", name: name + ", start pacing", file: file, env: []string{"PHYSVIEW_PACING=start"}},
		{key: "file", name: name, file: file},
	}
	cases, err := pick(all, only)
	if err != nil {
		return err
	}
	results := make([]result, len(cases))
	for round := 0; round < runs; round++ {
		for i, c := range cases {
			shotDir := ""
			if shots != "" && round == 0 {
				shotDir = shots
			}
			if err := orbit(viewer, display, tmp, c, seconds, shotDir, i, &results[i]); err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
		}
	}
	fmt.Printf("%d rounds of %.0f s orbits at 1280x780; ms between frames while the camera moves (the window's cap: 33.3 ms)\n", runs, seconds)
	fmt.Printf("%-34s %7s %7s %6s %9s %9s %9s %7s %9s %6s %10s %10s %9s\n", "case", "median", "p90", "fps", "median/b", "p90/b", "work med", "redraw", "CPU/frame", "cpu/b", "reduced", "settle ms", "input ms")
	base := results[0]
	for i, c := range cases {
		r := results[i]
		med, p90 := percentile(r.intervals, 50), percentile(r.intervals, 90)
		fmt.Printf("%-34s %7.1f %7.1f %6.1f %9.2f %9.2f %9.1f %7.1f %9.1f %6.2f %5d/%-4d %10.0f %9.1f\n", c.name, med, p90, 1000/med,
			med/percentile(base.intervals, 50), p90/percentile(base.intervals, 90),
			percentile(r.work, 50), percentile(r.redraws, 50), percentile(r.cpu, 50), percentile(r.cpu, 50)/percentile(base.cpu, 50), r.reduced, r.redrawn, percentile(r.settle, 50), percentile(r.input, 50))
	}
	return nil
}

var texturedLog = regexp.MustCompile(`^viewer: textured frame after (\d+) ms`)

// sharpLog is the frame from which every texture is drawn at full
// resolution: the window uploads the full-resolution textures after the
// reduced ones (rendering.md, "Reduced textures first"), work that is
// the opening's, not the orbit's.
var sharpLog = regexp.MustCompile(`^viewer: full-resolution frame after (\d+) ms`)

// frameLog is one "viewer: frame" line.
var frameLog = regexp.MustCompile(`^viewer: frame (\d+) at ([\d.]+) ms, work ([\d.]+) ms, view (\S+), redraw ([\d.]+) ms(?:, input ([\d.]+) ms)?`)

type frame struct {
	at, work float64 // ms since the window opened; ms of work
	view     string  // "copy" or the size redrawn
	redraw   float64 // ms the redraw took (when view is a size)
	input    float64 // ms from the frame's start (its input) to its swap
}

// orbit runs the viewer for one case and adds the frames of its drag to res.
func orbit(viewer, display, tmp string, c benchCase, seconds float64, shots string, idx int, res *result) error {
	args := []string{}
	if c.file != "" {
		args = append(args, c.file)
	}
	cmd := exec.Command(viewer, args...)
	// A private config folder: no remembered window size or panel width.
	cfg := filepath.Join(tmp, "config")
	cmd.Env = append(os.Environ(), "DISPLAY="+display, "PHYSVIEW_LOG_FRAMES=1", "XDG_CONFIG_HOME="+cfg, "HOME="+tmp, "PHYSVIEW_NO_PORTAL=1")
	cmd.Env = append(cmd.Env, c.env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	var mu sync.Mutex
	var frames []frame
	textured, sharp, exited := make(chan struct{}), make(chan struct{}), make(chan struct{})
	// offset is when the viewer's clock started, on ours (ms).
	var offset float64
	go func() {
		defer func() { recover() }()
		sc := bufio.NewScanner(stderr)
		once, sharpOnce := false, false
		for sc.Scan() {
			line := sc.Text()
			if sharpLog.MatchString(line) && !sharpOnce {
				sharpOnce = true
				close(sharp)
			}
			if m := texturedLog.FindStringSubmatch(line); m != nil && !once {
				n, _ := strconv.ParseFloat(m[1], 64)
				mu.Lock()
				offset = ms(time.Since(start)) - n
				mu.Unlock()
				once = true
				close(textured)
			}
			if m := frameLog.FindStringSubmatch(line); m != nil {
				at, _ := strconv.ParseFloat(m[2], 64)
				work, _ := strconv.ParseFloat(m[3], 64)
				redraw, _ := strconv.ParseFloat(m[5], 64)
				input, _ := strconv.ParseFloat(m[6], 64)
				mu.Lock()
				frames = append(frames, frame{at, work, m[4], redraw, input})
				mu.Unlock()
			}
		}
		io.Copy(io.Discard, stderr)
		close(exited)
	}()
	select {
	case <-textured:
	case <-exited:
		return fmt.Errorf("the viewer exited before its textured frame")
	case <-time.After(2 * time.Minute):
		return fmt.Errorf("no textured frame within 2 minutes")
	}
	select {
	case <-sharp:
	case <-exited:
		return fmt.Errorf("the viewer exited before its full-resolution frame")
	case <-time.After(2 * time.Minute):
		return fmt.Errorf("no full-resolution frame within 2 minutes")
	}
	// Let the lighting environment and the first redraws settle.
	time.Sleep(1500 * time.Millisecond)
	// The window opens at the screen's top left; its 3D view spans
	// x 0-800, y 22-780 beside the panel. One xdotool process drags: a
	// step of 3 pixels every 15 ms, as a hand moves.
	steps := int(seconds * 1000 / 15)
	drag := []string{"mousemove", "200", "400", "mousedown", "1"}
	for i := 0; i < steps; i++ {
		dx := "3"
		if (i/100)%2 == 1 {
			dx = "-3" // back and forth, so the view stays on the model
		}
		drag = append(drag, "mousemove_relative", "--", dx, "0", "sleep", "0.015")
	}
	drag = append(drag, "mouseup", "1")
	dragCmd := exec.Command("xdotool", drag...)
	dragCmd.Env = append(os.Environ(), "DISPLAY="+display)
	if err := dragCmd.Start(); err != nil {
		return err
	}
	begin, cpu0 := time.Since(start), procstat.CPU(cmd.Process.Pid)
	if shots != "" {
		time.Sleep(time.Duration(seconds*500) * time.Millisecond)
		grab(display, filepath.Join(shots, fmt.Sprintf("%d-moving.png", idx)))
	}
	if err := dragCmd.Wait(); err != nil {
		return fmt.Errorf("xdotool: %w", err)
	}
	end, cpu1 := time.Since(start), procstat.CPU(cmd.Process.Pid)
	time.Sleep(time.Second)
	if shots != "" {
		grab(display, filepath.Join(shots, fmt.Sprintf("%d-still.png", idx)))
	}
	mu.Lock()
	defer mu.Unlock()
	// The viewer's clock starts a little after ours (offset, to within a
	// millisecond or so); the first and last 300 ms of the drag are left
	// out.
	b, e := ms(begin)-offset, ms(end)-offset
	lo, hi := b+300, e-300
	// full is the size of a full redraw: the last one before the drag.
	full := ""
	for _, f := range frames {
		if f.at < b && f.view != "copy" {
			full = f.view
		}
	}
	prev := -1.0
	for _, f := range frames {
		if f.at < lo || f.at > hi {
			prev = f.at
			continue
		}
		if prev >= lo {
			res.intervals = append(res.intervals, f.at-prev)
			res.work = append(res.work, f.work)
			res.input = append(res.input, f.input)
			if f.view != "copy" {
				res.redrawn++
				res.redraws = append(res.redraws, f.redraw)
			}
			if f.view != "copy" && f.view != full {
				res.reduced++
			}
		}
		prev = f.at
	}
	// The first full redraw after the drag's end.
	for _, f := range frames {
		if f.at > e && f.view == full {
			res.settle = append(res.settle, f.at-e)
			break
		}
	}
	if len(res.intervals) == 0 {
		return fmt.Errorf("no frames while dragging (%d frames logged)", len(frames))
	}
	// The CPU time (every thread: the rasteriser's too) over the drag, a
	// frame: a busy machine lengthens the wall times of the frames more.
	n := 0
	for _, f := range frames {
		if f.at >= b && f.at <= e {
			n++
		}
	}
	if n > 0 {
		res.cpu = append(res.cpu, ms(cpu1-cpu0)/float64(n))
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// grab saves the X screen as a PNG.
func grab(display, path string) {
	cmd := exec.Command("import", "-window", "root", "-crop", "1280x780+0+0", path)
	cmd.Env = append(os.Environ(), "DISPLAY="+display)
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "orbitbench: import: %v\n%s", err, out)
	}
}

func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	i := int(float64(len(s)-1) * p / 100)
	return s[i]
}
