package main

import (
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"strconv"
	"strings"

	"physview/debugdraw"
	"physview/render"
	"physview/scene"
)

// shotOptions are the screenshot command's settings.
type shotOptions struct {
	out           string
	width, height int
	variant       string
	camera        int
	look          look
	pose          *poseFlags // -time, -animation (anim.go)
}

func cmdScreenshot(args []string, w, stderr io.Writer) error {
	fs := newFlags("screenshot")
	out := fs.String("o", "", "output PNG (default: FILE's name with .png)")
	size := fs.String("size", "1280x720", "image size WIDTHxHEIGHT")
	variant := fs.String("variant", "", "material variant name (or index) to show")
	camera := fs.Int("camera", -1, "index of the file's camera to view from (default: frame the scene)")
	sceneIdx := fs.Int("scene", -1, "index of the scene to show (default: the file's scene)")
	lf := addLookFlags(fs)
	pf := addShotPoseFlags(fs)
	if err := parseFlags(fs, args, 1, "one FILE"); err != nil {
		return err
	}
	o := shotOptions{out: *out, variant: *variant, camera: *camera, pose: pf}
	var err error
	if o.look, err = lf.parse(); err != nil {
		return fail(2, "screenshot: %v", err)
	}
	if _, err := fmt.Sscanf(*size, "%dx%d", &o.width, &o.height); err != nil || o.width <= 0 || o.height <= 0 || o.width > 16384 || o.height > 16384 {
		return fail(2, "screenshot: -size %q: want WIDTHxHEIGHT, e.g. 1280x720", *size)
	}
	path := fs.Arg(0)
	if o.out == "" {
		o.out = strings.TrimSuffix(path, pathExt(path)) + ".png"
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
	img, msgs, err := renderShot(d, o)
	for _, m := range msgs {
		fmt.Fprintf(stderr, "viewer: %s: %s\n", path, m)
	}
	if err != nil {
		return fail(2, "%s: %v", path, err)
	}
	f, err := os.Create(o.out)
	if err != nil {
		return fail(2, "%v", err)
	}
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(f, img); err != nil {
		f.Close()
		return fail(2, "%s: %v", o.out, err)
	}
	if err := f.Close(); err != nil {
		return fail(2, "%v", err)
	}
	fmt.Fprintf(w, "wrote %s (%dx%d)\n", o.out, o.width, o.height)
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

// variantIndex finds a variant by name or index; "" means none.
func variantIndex(d *scene.Document, name string) (int, error) {
	if name == "" {
		return -1, nil
	}
	for i := range d.Variants {
		if d.Variants[i].Name == name || d.VariantLabel(i) == name {
			return i, nil
		}
	}
	var i int
	if _, err := fmt.Sscanf(name, "%d", &i); err == nil && i >= 0 && i < len(d.Variants) {
		return i, nil
	}
	var names []string
	for i := range d.Variants {
		names = append(names, d.VariantLabel(i))
	}
	return 0, fmt.Errorf("no variant %q (the file has: %s)", name, strings.Join(names, ", "))
}

// renderShot draws d with all textures loaded, on the current GL context.
func renderShot(d *scene.Document, o shotOptions) (*image.NRGBA, []string, error) {
	v, err := variantIndex(d, o.variant)
	if err != nil {
		return nil, nil, err
	}
	r, err := render.New()
	if err != nil {
		return nil, nil, err
	}
	defer r.Delete()
	r.SetDocument(d)
	if err := o.pose.apply(r); err != nil {
		return nil, r.Messages, err
	}
	r.WaitTextures()
	cache := newDebugCache(d, r)
	if p := o.pose.posed(); p != nil {
		cache.SetPose(p.World, nil) // colliders follow the pose
	}
	cache.Update()
	r.SetDebug(cache.Groups())
	cam, err := shotCamera(d, r, o.camera)
	if err != nil {
		return nil, r.Messages, err
	}
	opt := render.DefaultOptions()
	opt.Variant = v
	o.look.apply(&opt)
	img, err := r.RenderImage(cam, o.width, o.height, opt)
	return img, r.Messages, err
}

// shotCamera frames the scene, or views from the file's camera index c.
func shotCamera(d *scene.Document, r *render.Renderer, c int) (render.Camera, error) {
	lo, hi := r.Bounds()
	cam := render.NewCamera(lo, hi)
	if c < 0 {
		return cam, nil
	}
	if c >= len(d.GLTF.Cameras) {
		return cam, fmt.Errorf("camera %d does not exist (the file has %d)", c, len(d.GLTF.Cameras))
	}
	world := d.WorldMatrices()
	for _, n := range d.SceneNodes() {
		if node := d.GLTF.Nodes[n]; node.Camera != nil && *node.Camera == c {
			yfov := 0.0
			if p := d.GLTF.Cameras[c].Perspective; p != nil {
				yfov = p.Yfov
			}
			center := lo.Add(hi).Mul(0.5)
			return render.CameraFromNode(world[n], yfov, center, hi.Sub(lo).Len()/2), nil
		}
	}
	return cam, fmt.Errorf("camera %d is not used by any node of the scene", c)
}

// newDebugCache prepares the debug drawing of d, sized to the scene.
func newDebugCache(d *scene.Document, r *render.Renderer) *debugdraw.Cache {
	lo, hi := r.Bounds()
	size := hi.Sub(lo).Len()
	if size <= 0 {
		size = 1
	}
	return debugdraw.NewCache(d, &debugdraw.DocumentMeshes{Doc: d}, debugdraw.Options{MarkerSize: size * 0.05, GravitySamples: 5})
}
