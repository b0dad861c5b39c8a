package main

import (
	"fmt"
	"image/png"
	"io"
	"os"
	"strconv"
	"strings"

	"physview/render"
	"physview/render/shot"
)

func cmdScreenshot(args []string, w, stderr io.Writer) error {
	fs := newFlags("screenshot")
	out := fs.String("o", "", "output PNG (default: FILE's name with .png)")
	size := fs.String("size", "1280x720", "image size WIDTHxHEIGHT")
	variant := fs.String("variant", "", "material variant name (or index) to show")
	camera := fs.Int("camera", -1, "index of the file's camera to view from (default: frame the scene)")
	sceneIdx := fs.Int("scene", -1, "index of the scene to show (default: the file's scene)")
	lf := addLookFlags(fs)
	pf := addPoseFlags(fs)
	joints := fs.Bool("joints", false, "draw the joints of every skin as lines, on top")
	if err := parseFlags(fs, args, 1, "one FILE"); err != nil {
		return err
	}
	o := shot.Options{Variant: *variant, Camera: *camera, Animation: *pf.animation, Time: *pf.time, Joints: *joints}
	var err error
	if o.Look, err = lf.parse(); err != nil {
		return fail(2, "screenshot: %v", err)
	}
	if _, err := fmt.Sscanf(*size, "%dx%d", &o.Width, &o.Height); err != nil || o.Width <= 0 || o.Height <= 0 || o.Width > 16384 || o.Height > 16384 {
		return fail(2, "screenshot: -size %q: want WIDTHxHEIGHT, e.g. 1280x720", *size)
	}
	path := fs.Arg(0)
	if *out == "" {
		*out = strings.TrimSuffix(path, pathExt(path)) + ".png"
	}
	d, err := loadForView(path)
	if err != nil {
		return err
	}
	if err := d.SetShownScene(*sceneIdx); err != nil {
		return fail(2, "%s: -scene: %v", path, err)
	}
	render.Preload(d) // decode while EGL starts
	h, err := render.NewHeadless()
	if err != nil {
		return fail(2, "%v", err)
	}
	defer h.Close()
	img, msgs, err := shot.Render(d, o)
	for _, m := range msgs {
		fmt.Fprintf(stderr, "viewer: %s: %s\n", path, m)
	}
	if err != nil {
		return fail(2, "%s: %v", path, err)
	}
	f, err := os.Create(*out)
	if err != nil {
		return fail(2, "%v", err)
	}
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(f, img); err != nil {
		f.Close()
		return fail(2, "%s: %v", *out, err)
	}
	if err := f.Close(); err != nil {
		return fail(2, "%v", err)
	}
	fmt.Fprintf(w, "wrote %s (%dx%d)\n", *out, o.Width, o.Height)
	if os.Getenv("PHYSVIEW_PEAK_RSS") == "1" {
		// For cmd/startbench: the rusage a parent gets after a Go exec
		// counts the parent's own peak too.
		if kb := peakRSSKB(); kb > 0 {
			fmt.Fprintf(stderr, "viewer: peak RSS %d kB\n", kb)
		}
	}
	return nil
}

// peakRSSKB returns this process's peak resident memory (VmHWM) in kB, or
// 0 when /proc does not tell.
func peakRSSKB() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb
		}
	}
	return 0
}

func pathExt(p string) string {
	if i := strings.LastIndexByte(p, '.'); i > strings.LastIndexByte(p, '/') {
		return p[i:]
	}
	return ""
}
