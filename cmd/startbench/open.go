package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"physview/internal/xvfb"
)

// The -open benchmark: how long the window stops drawing while it opens a
// file through its own file browser (Ctrl+O, the path typed, Enter), the
// old scene (the demo) on screen. The viewer draws at its frame interval
// throughout (PHYSVIEW_FRAME_TIMES=1, as while the mouse moves) and
// reports when each frame was shown; the gaps between frames while the
// file opens are set beside the gaps of the idle window in the same run.

// verbose (STARTBENCH_VERBOSE=1) prints the viewer's lines during the open.
var verbose = os.Getenv("STARTBENCH_VERBOSE") == "1"

var frameTimeLine = regexp.MustCompile(`viewer: frame at ([0-9.]+) ms took ([0-9.]+) ms( drew the view)?`)

// openRun is what one open measured, in ms.
type openRun struct {
	idleGap, idleWork       float64 // medians while idle
	idleMax                 float64 // the longest gap while idle
	maxGap, medGap, maxWork float64 // while the file opens
	// maxCopy is the longest gap before a frame that did not draw the 3D
	// view anew (it copied the last picture); draws counts those that did
	// and maxDraw is the longest gap before one.
	maxCopy, maxDraw float64
	draws            int
	textured         float64 // from Enter to the textured frame
	frames           int
	// p90Gap is the 90th percentile of the gaps while the file opens,
	// enterGap the gap before the frame that took Enter (the dialog
	// closed in it, the load started).
	p90Gap, enterGap float64
}

// openBenchmark opens file runs times in a fresh window each and prints
// each run and the medians. With shots set it saves screen captures taken
// during the first open there.
func openBenchmark(runs int, file, shots string) error {
	abs, err := filepath.Abs(file)
	if err != nil {
		return err
	}
	bench, err := xvfb.NewBench("startbench")
	if err != nil {
		return err
	}
	defer bench.Close()
	tmp, viewer, display := bench.Dir, bench.Viewer, bench.Display
	fmt.Printf("opening %s in the window over the demo, %d runs; ms\n", filepath.Base(file), runs)
	fmt.Printf("%4s %9s %9s %8s | %8s %8s %8s | %8s %8s %5s | %8s %6s | %7s %6s\n", "run", "idle gap", "idle work", "idle max", "max gap", "med gap", "max work", "max copy", "max draw", "draws", "textured", "frames", "p90 gap", "enter")
	var all []openRun
	for i := 0; i < runs; i++ {
		dir := ""
		if i == 0 {
			dir = shots
		}
		r, err := openOnce(viewer, display, abs, tmp, dir)
		if err != nil {
			return err
		}
		all = append(all, r)
		fmt.Printf("%4d %9.1f %9.1f %8.1f | %8.1f %8.1f %8.1f | %8.1f %8.1f %5d | %8.0f %6d | %7.1f %6.1f\n", i+1, r.idleGap, r.idleWork, r.idleMax, r.maxGap, r.medGap, r.maxWork, r.maxCopy, r.maxDraw, r.draws, r.textured, r.frames, r.p90Gap, r.enterGap)
	}
	med := func(f func(openRun) float64) float64 {
		var v []float64
		for _, r := range all {
			v = append(v, f(r))
		}
		return medianF(v)
	}
	fmt.Printf("%4s %9.1f %9.1f %8.1f | %8.1f %8.1f %8.1f | %8.1f %8.1f %5s | %8.0f %6s | %7.1f %6.1f\n", "med",
		med(func(r openRun) float64 { return r.idleGap }), med(func(r openRun) float64 { return r.idleWork }),
		med(func(r openRun) float64 { return r.idleMax }),
		med(func(r openRun) float64 { return r.maxGap }), med(func(r openRun) float64 { return r.medGap }),
		med(func(r openRun) float64 { return r.maxWork }), med(func(r openRun) float64 { return r.maxCopy }),
		med(func(r openRun) float64 { return r.maxDraw }), "", med(func(r openRun) float64 { return r.textured }), "",
		med(func(r openRun) float64 { return r.p90Gap }), med(func(r openRun) float64 { return r.enterGap }))
	return nil
}

func medianF(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	sort.Float64s(v)
	return v[len(v)/2]
}

// openOnce starts the viewer on the demo, measures its idle frames, opens
// file through the browser and measures the frames until a second after
// the file's textured frame.
func openOnce(viewer, display, file, tmp, shots string) (openRun, error) {
	var r openRun
	cmd := exec.Command(viewer)
	cmd.Dir = filepath.Dir(file) // where the browser starts: the name is enough
	cmd.Env = append(os.Environ(), "DISPLAY="+display, "PHYSVIEW_FRAME_TIMES=1", "PHYSVIEW_NO_PORTAL=1",
		"XDG_CONFIG_HOME="+filepath.Join(tmp, "config"), "DBUS_SESSION_BUS_ADDRESS=")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return r, err
	}
	if err := cmd.Start(); err != nil {
		return r, err
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	lines := make(chan string, 1000)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	// next returns the next line, or false after d without one.
	next := func(d time.Duration) (string, bool) {
		select {
		case l, ok := <-lines:
			return l, ok
		case <-time.After(d):
			return "", false
		}
	}
	drew := false
	frame := func(l string) (at, work float64, ok bool) {
		m := frameTimeLine.FindStringSubmatch(l)
		if m == nil {
			return 0, 0, false
		}
		at, _ = strconv.ParseFloat(m[1], 64)
		work, _ = strconv.ParseFloat(m[2], 64)
		drew = m[3] != ""
		return at, work, true
	}
	for {
		l, ok := next(2 * time.Minute)
		if !ok {
			return r, fmt.Errorf("the viewer gave no textured frame on the demo")
		}
		if strings.Contains(l, "textured frame after") {
			break
		}
	}
	// Two seconds of the idle window.
	var idleGaps, idleWork []float64
	last := -1.0
	until := time.Now().Add(2 * time.Second)
	for time.Now().Before(until) {
		l, ok := next(time.Second)
		if !ok {
			continue
		}
		if at, w, ok := frame(l); ok {
			if last >= 0 {
				idleGaps = append(idleGaps, at-last)
			}
			idleWork = append(idleWork, w)
			last = at
		}
	}
	r.idleGap, r.idleWork = medianF(idleGaps), medianF(idleWork)
	for _, g := range idleGaps {
		r.idleMax = max(r.idleMax, g)
	}
	xdo := func(args ...string) {
		c := exec.Command("xdotool", args...)
		c.Env = append(os.Environ(), "DISPLAY="+display)
		c.Run()
	}
	xdo("mousemove", "450", "780") // over the status bar, off the view
	xdo("keydown", "ctrl")
	time.Sleep(100 * time.Millisecond)
	xdo("key", "o")
	time.Sleep(100 * time.Millisecond)
	xdo("keyup", "ctrl")
	time.Sleep(800 * time.Millisecond)
	xdo("type", "--delay", "40", filepath.Base(file))
	time.Sleep(2500 * time.Millisecond)
	// Drain what came so far; the frame before Enter starts the gaps.
	for {
		l, ok := next(50 * time.Millisecond)
		if !ok {
			break
		}
		if verbose {
			fmt.Println(l)
		}
		if at, _, ok := frame(l); ok {
			last = at
		}
	}
	if verbose {
		fmt.Println("startbench: Enter")
	}
	stopShots := make(chan struct{})
	shotsDone := make(chan struct{})
	go func() {
		defer close(shotsDone)
		if shots == "" {
			return
		}
		os.MkdirAll(shots, 0o755)
		for i := 0; ; i++ {
			select {
			case <-stopShots:
				return
			default:
			}
			c := exec.Command("import", "-display", display, "-window", "root", filepath.Join(shots, fmt.Sprintf("open-%02d.png", i)))
			c.Run()
			time.Sleep(150 * time.Millisecond)
		}
	}()
	xdo("key", "Return")
	var gaps []float64
	texturedAt, start := -1.0, -1.0
	giveUp := time.Now().Add(2 * time.Minute)
	for {
		l, ok := next(time.Minute)
		if !ok || time.Now().After(giveUp) {
			close(stopShots)
			return r, fmt.Errorf("%s: no textured frame within two minutes of Enter", file)
		}
		if verbose {
			fmt.Println(l)
		}
		if strings.HasPrefix(l, "viewer: loading ") && strings.HasSuffix(l, string(filepath.Separator)+filepath.Base(file)) && start < 0 {
			start = last
		}
		if strings.Contains(l, "textured frame after") && start >= 0 {
			texturedAt = last
		}
		at, w, ok := frame(l)
		if !ok {
			continue
		}
		if start >= 0 {
			gaps = append(gaps, at-last)
			r.maxWork = max(r.maxWork, w)
			r.frames++
			if drew {
				r.draws++
				r.maxDraw = max(r.maxDraw, at-last)
			} else {
				r.maxCopy = max(r.maxCopy, at-last)
			}
		}
		last = at
		if texturedAt >= 0 && at-texturedAt > 1000 {
			break
		}
	}
	close(stopShots)
	<-shotsDone
	for _, g := range gaps {
		r.maxGap = max(r.maxGap, g)
	}
	if len(gaps) > 0 {
		r.enterGap = gaps[0]
	}
	r.medGap = medianF(gaps)
	sorted := append([]float64(nil), gaps...)
	sort.Float64s(sorted)
	if len(sorted) > 0 {
		r.p90Gap = sorted[min(len(sorted)-1, len(sorted)*9/10)]
	}
	r.textured = texturedAt - start
	return r, nil
}
