// Command startbench measures how long the viewer window takes from process
// start to its first frame with geometry and to its fully textured frame,
// against a floor measured in the same run: reading the file, its buffers and
// images and decoding every image in parallel with the standard library. It
// also times `f3d --output` on the same file when f3d is installed, and
// reports the viewer's peak memory beside the decoded texture size.
//
//	go run ./cmd/startbench [-runs 3] FILE...
//
// It starts a private Xvfb when DISPLAY is not set.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	_ "golang.org/x/image/webp"

	"physview/scene"
)

func main() {
	runs := flag.Int("runs", 3, "runs per measurement (the median is shown)")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: startbench [-runs N] FILE...")
		os.Exit(2)
	}
	if err := benchmark(*runs, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "startbench:", err)
		os.Exit(1)
	}
}

func benchmark(runs int, files []string) error {
	tmp, err := os.MkdirTemp("", "startbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	viewer := filepath.Join(tmp, "viewer")
	if out, err := exec.Command("go", "build", "-o", viewer, "./cmd/viewer").CombinedOutput(); err != nil {
		return fmt.Errorf("building the viewer: %v\n%s", err, out)
	}
	display := os.Getenv("DISPLAY")
	if display == "" {
		// Xvfb picks a free display and reports it on fd 3; SIGTERM lets it
		// remove its socket when done.
		r, w, err := os.Pipe()
		if err != nil {
			return err
		}
		x := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp")
		x.ExtraFiles = []*os.File{w}
		if err := x.Start(); err != nil {
			return fmt.Errorf("starting Xvfb: %w", err)
		}
		w.Close()
		defer func() { x.Process.Signal(syscall.SIGTERM); x.Wait() }()
		n, err := bufio.NewReader(r).ReadString('\n')
		r.Close()
		if err != nil {
			return fmt.Errorf("Xvfb did not report its display: %w", err)
		}
		display = ":" + strings.TrimSpace(n)
	}
	f3d, _ := exec.LookPath("f3d")

	fmt.Printf("%-22s %10s %10s %12s %10s %9s %12s %12s\n", "file", "floor", "first", "textured", "f3d", "tex/floor", "peak RSS", "decoded tex")
	for _, file := range files {
		var floors, firsts, texs, f3ds []time.Duration
		var rss, texBytes int64
		for i := 0; i < runs; i++ {
			fl, tb, err := floor(file)
			if err != nil {
				return err
			}
			floors, texBytes = append(floors, fl), tb
			first, textured, peak, err := window(viewer, display, file)
			if err != nil {
				return err
			}
			firsts, texs = append(firsts, first), append(texs, textured)
			rss = max(rss, peak)
			if f3d != "" {
				start := time.Now()
				cmd := exec.Command(f3d, "--output", filepath.Join(tmp, "f3d.png"), "--resolution", "1280,780", file)
				cmd.Env = append(os.Environ(), "DISPLAY="+display)
				if err := cmd.Run(); err == nil {
					f3ds = append(f3ds, time.Since(start))
				}
			}
		}
		fl, tx := median(floors), median(texs)
		f3dText := "-"
		if len(f3ds) > 0 {
			f3dText = ms(median(f3ds))
		}
		fmt.Printf("%-22s %10s %10s %12s %10s %8.2fx %10.0fMB %10.0fMB\n",
			strings.TrimSuffix(filepath.Base(file), filepath.Ext(file)), ms(fl), ms(median(firsts)), ms(tx), f3dText,
			float64(tx)/float64(fl), float64(rss)/1e6, float64(texBytes)/1e6)
	}
	return nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%dms", d.Milliseconds()) }

func median(ds []time.Duration) time.Duration {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2]
}

// floor reads the document, its buffers and images and decodes every image
// in parallel: what any viewer must do before a textured frame. It returns
// the time and the decoded size of the images (4 bytes a pixel).
func floor(file string) (time.Duration, int64, error) {
	start := time.Now()
	d, err := scene.Load(file)
	if err != nil {
		return 0, 0, err
	}
	dir := filepath.Dir(file)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var total int64
	for _, img := range d.GLTF.Images {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var data []byte
			switch {
			case img.BufferView != nil:
				bv := d.GLTF.BufferViews[*img.BufferView]
				data = d.GLTF.Buffers[bv.Buffer].Data[bv.ByteOffset : bv.ByteOffset+bv.ByteLength]
			case img.URI != "" && !strings.HasPrefix(img.URI, "data:"):
				data, _ = os.ReadFile(filepath.Join(dir, filepath.FromSlash(img.URI)))
			}
			if data == nil {
				return
			}
			if m, _, err := image.Decode(strings.NewReader(string(data))); err == nil {
				b := m.Bounds()
				mu.Lock()
				total += int64(b.Dx() * b.Dy() * 4)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return time.Since(start), total, nil
}

var frameLine = regexp.MustCompile(`viewer: (first|textured) frame after (\d+) ms`)

// window starts the viewer on file and reads its frame reports; it returns
// the times from process start and the peak resident memory.
func window(viewer, display, file string) (first, textured time.Duration, peak int64, err error) {
	cmd := exec.Command(viewer, file)
	cmd.Env = append(os.Environ(), "DISPLAY="+display)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return 0, 0, 0, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, 0, err
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	sc := bufio.NewScanner(stderr)
	deadline := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
	defer deadline.Stop()
	for sc.Scan() {
		m := frameLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		// Wall time from our start, which includes process start-up.
		el := time.Since(start)
		if m[1] == "first" {
			first = el
		} else {
			textured = el
			peak = peakRSS(cmd.Process.Pid)
			return first, textured, peak, nil
		}
	}
	return 0, 0, 0, fmt.Errorf("%s: the viewer exited before a textured frame", file)
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
