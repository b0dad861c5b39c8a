package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"physview/internal/app"
	"physview/internal/procstat"
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
	env := fs.String("env", "studio", "lighting environment: studio, soft-room, outdoor or file (the file's own EXT_lights_image_based, else studio)")
	exposure := fs.Float64("exposure", 0, "exposure in stops (each +1 doubles the light)")
	background := fs.String("background", "plain", "behind the scene: plain, blurred or environment")
	pf := addPoseFlags(fs)
	joints := fs.Bool("joints", false, "draw the joints of every skin as lines, on top")
	if err := parseFlags(fs, args, 1, "one FILE"); err != nil {
		return err
	}
	o := shot.Options{Variant: *variant, Camera: *camera, Animation: *pf.animation, Time: *pf.time, Joints: *joints}
	var err error
	if o.Look, err = shot.ParseLook(*env, *background, *exposure); err != nil {
		return fail(2, "screenshot: %v", err)
	}
	if _, err := fmt.Sscanf(*size, "%dx%d", &o.Width, &o.Height); err != nil || o.Width <= 0 || o.Height <= 0 || o.Width > 16384 || o.Height > 16384 {
		return fail(2, "screenshot: -size %q: want WIDTHxHEIGHT, e.g. 1280x720", *size)
	}
	path := fs.Arg(0)
	if *out == "" {
		*out = shot.OutputPath(path)
	}
	d, err := app.OpenForView(path)
	if err != nil {
		return fail(2, "%v", err)
	}
	if err := d.SetShownScene(*sceneIdx); err != nil {
		return fail(2, "%s: -scene: %v", path, err)
	}
	// A screenshot's Go heap is mostly the file's bytes and images on
	// their way to the decoders: collected at a quarter of growth rather
	// than doubling, StainedGlassLamp peaks 8-12 MB lower for a few ms
	// of collection on the other core.
	debug.SetGCPercent(25)
	render.Preload(d) // decode while EGL starts
	h, err := render.NewHeadless()
	if err != nil {
		return fail(2, "%v", err)
	}
	defer h.Close()
	img, rep, err := shot.RenderReport(d, o)
	for _, m := range rep.Messages {
		fmt.Fprintf(stderr, "viewer: %s: %s\n", path, m)
	}
	if err != nil {
		return fail(2, "%s: %v", path, err)
	}
	if err := shot.WritePNG(*out, img); err != nil {
		return fail(2, "%v", err)
	}
	fmt.Fprintf(w, "wrote %s (%dx%d)\n", *out, o.Width, o.Height)
	// For cmd/startbench: the rusage a parent gets after a Go exec counts
	// the parent's own peak too. Said before the exit status is decided, so an
	// incomplete picture is measured too.
	if os.Getenv("PHYSVIEW_PEAK_RSS") == "1" {
		if kb := procstat.PeakKB(0); kb > 0 {
			fmt.Fprintf(stderr, "viewer: peak RSS %d kB\n", kb)
		}
	}
	if missing := d.MissingData(); len(missing) > 0 {
		// The picture lacks what the missing files hold: never a success.
		return fail(1, "%s: the picture is incomplete: %s", path, firstOf(missing, maxNotDrawn))
	}
	if len(rep.NotDrawn) > 0 {
		// An empty picture, or one short of a primitive the file asks
		// for, must not pass a pipeline either.
		return fail(1, "%s: the picture is incomplete: %s", path, firstOf(rep.NotDrawn, maxNotDrawn))
	}
	return nil
}

// maxNotDrawn is how many primitives not drawn the exit message lists (a
// hostile file can have a thousand, each refused for the same reason).
const maxNotDrawn = 10

// firstOf joins the first n items with "; " and says how many more there
// are.
func firstOf(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, "; ")
	}
	return fmt.Sprintf("%s; and %d more not drawn", strings.Join(items[:n], "; "), len(items)-n)
}
