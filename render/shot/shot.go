// Package shot draws a document to an image on the current GL context (the
// headless one of `viewer screenshot`): the variant, camera, lighting and
// pose asked for, with all textures loaded and the physics drawn over it.
// The window uses its camera and debug-drawing helpers too.
package shot

import (
	"fmt"
	"image"
	"math"
	"strings"

	"physview/debugdraw"
	"physview/render"
	"physview/scene"
	"physview/scene/anim"
)

// Options say what to draw.
type Options struct {
	Width, Height int
	Variant       string // material variant name or index; "" for none
	Camera        int    // the file's camera index; -1 frames the scene
	Look          Look
	// Animation and Time pose the scene: animation index (-1 all of them)
	// at Time seconds, clamped to its range; Time NaN is the rest pose.
	Animation int
	Time      float64
	Joints    bool // draw every skin's joints as lines, on top
}

// Look is the lighting: environment, exposure in stops and background.
type Look struct {
	Environment render.Environment
	Exposure    float32
	Background  render.BackgroundMode
}

// ParseLook reads the names the screenshot flags take: env studio,
// soft-room, outdoor or file (any case); background plain, blurred or
// environment.
func ParseLook(env, background string, exposure float64) (Look, error) {
	var out Look
	found := false
	for i, name := range render.EnvironmentNames {
		if strings.EqualFold(strings.ReplaceAll(name, " ", "-"), env) {
			out.Environment, found = render.Environment(i), true
		}
	}
	if strings.EqualFold(env, "file") {
		out.Environment, found = render.EnvFile, true
	}
	if !found {
		return out, fmt.Errorf("-env %q: want studio, soft-room, outdoor or file", env)
	}
	switch background {
	case "plain":
		out.Background = render.BackgroundColor
	case "blurred":
		out.Background = render.BackgroundBlurred
	case "environment":
		out.Background = render.BackgroundEnvironment
	default:
		return out, fmt.Errorf("-background %q: want plain, blurred or environment", background)
	}
	out.Exposure = float32(exposure)
	return out, nil
}

// apply sets the look in render options.
func (l Look) apply(o *render.Options) {
	o.Environment, o.Exposure, o.BackgroundMode = l.Environment, l.Exposure, l.Background
}

// Render draws d as o says, on the current GL context, and returns the
// image and the renderer's messages (textures it could not load ...).
func Render(d *scene.Document, o Options) (*image.NRGBA, []string, error) {
	img, rep, err := RenderReport(d, o)
	return img, rep.Messages, err
}

// Report is what drawing a document left to say.
type Report struct {
	// Messages are the renderer's messages (textures it could not load,
	// primitives it could not read ...), for stderr.
	Messages []string
	// NotDrawn lists what the file asks that the picture lacks
	// (render.Renderer.NotDrawn): nil when the picture is complete.
	NotDrawn []string
}

// RenderReport is Render that also says what the picture lacks.
func RenderReport(d *scene.Document, o Options) (img *image.NRGBA, rep Report, err error) {
	v, err := VariantIndex(d, o.Variant)
	if err != nil {
		return nil, rep, err
	}
	r, err := render.New()
	if err != nil {
		return nil, rep, err
	}
	defer r.Delete()
	r.SetDocument(d)
	// Named results: what the renderer says, whatever ends the drawing.
	defer func() { rep.Messages, rep.NotDrawn = r.Messages, r.NotDrawn() }()
	posed, err := pose(r, o)
	if err != nil {
		return nil, rep, err
	}
	r.WaitTextures()
	cache := DebugCache(d, r)
	if posed != nil {
		cache.SetPose(posed.World, nil)  // colliders follow the pose
		cache.SetVisibility(posed.Props) // and grey where it hides their node
	}
	cache.Update()
	r.SetDebug(cache.Groups())
	cam, err := Camera(d, r, o.Camera)
	if err != nil {
		return nil, rep, err
	}
	opt := render.DefaultOptions()
	opt.Variant = v
	o.Look.apply(&opt)
	img, err = r.RenderImage(cam, o.Width, o.Height, opt)
	return img, rep, err
}

// pose poses r's document as o says (nothing at the rest pose) and draws
// the joints when asked, at the pose set or, without one, the rest pose.
func pose(r *render.Renderer, o Options) (p *anim.Pose, err error) {
	defer func() {
		if o.Joints {
			drawJoints(r, p)
		}
	}()
	if math.IsNaN(o.Time) {
		return nil, nil
	}
	m := r.Animation()
	if a := o.Animation; a >= len(m.Animations) || a < -1 {
		return nil, fmt.Errorf("-animation %d: the file has %d animations", a, len(m.Animations))
	}
	p = m.Pose(o.Animation, o.Time)
	r.SetPose(p)
	return p, nil
}

// drawJoints puts every skin's skeleton, posed, in r's overlay.
func drawJoints(r *render.Renderer, pose *anim.Pose) {
	m := r.Animation()
	if pose == nil {
		pose = m.Rest()
	}
	lo, hi := r.Bounds()
	var lines []debugdraw.Line
	for s := range m.Doc.GLTF.Skins {
		lines = append(lines, debugdraw.SkinLines(m.Doc, m.Joints(s), pose.World, hi.Sub(lo).Len()*0.01)...)
	}
	r.SetOverlay(lines)
}

// VariantIndex finds a variant of d by name or index; "" means none (-1).
func VariantIndex(d *scene.Document, name string) (int, error) {
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

// Camera frames the scene r draws (DefaultCamera), or views from d's
// camera index c (c >= 0), which a node of the shown scene must use.
func Camera(d *scene.Document, r *render.Renderer, c int) (render.Camera, error) {
	if c < 0 {
		cam, _ := DefaultCamera(d, r)
		return cam, nil
	}
	lo, hi := r.Bounds()
	cam := render.NewCamera(lo, hi)
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

// DefaultCamera is the view a document opens with: the framing the
// renderer chooses (render.Renderer.Framing: the bounds, the bounds without
// a shell the scene is inside, or the file's first camera then), and what
// the status bar says of it ("" for the plain bounds).
func DefaultCamera(d *scene.Document, r *render.Renderer) (render.Camera, string) {
	f := r.Framing()
	if f.Camera >= 0 {
		if cam, err := Camera(d, r, f.Camera); err == nil {
			return cam, f.Note
		}
	}
	if f.Camera >= 0 {
		f.Min, f.Max = r.Bounds()
		f.Note = ""
	}
	cam := render.NewCamera(f.Min, f.Max)
	// The clipping planes still take in the shell around what is framed.
	lo, hi := r.Bounds()
	cam.Radius = max(cam.Radius, hi.Sub(lo).Len()/2)
	return cam, f.Note
}

// DebugCache prepares the debug drawing of d, its markers sized to the
// scene r draws.
func DebugCache(d *scene.Document, r *render.Renderer) *debugdraw.Cache {
	lo, hi := r.Bounds()
	return debugdraw.SceneCache(d, lo, hi)
}
