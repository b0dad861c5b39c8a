package render

import (
	"flag"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/assets"
	"physview/debugdraw"
	"physview/internal/testcorpus"
	"physview/scene"
	"physview/scene/xode"
)

var update = flag.Bool("update", false, "rewrite the golden images under testdata/golden")

// showing returns a renderer on the current GL context with d uploaded and
// every texture in; the caller deletes it.
func showing(tb testing.TB, d *scene.Document) *Renderer {
	tb.Helper()
	r, err := New()
	if err != nil {
		tb.Fatal(err)
	}
	r.SetDocument(d)
	r.WaitTextures()
	return r
}

// shot renders a document through the headless path, textures loaded,
// with the debug drawing.
func shot(t *testing.T, d *scene.Document, variant, w, h int) (*image.NRGBA, []string) {
	t.Helper()
	return shotFraming(t, d, variant, w, h, nil)
}

// shotFraming is shot with the camera framing box (min, max) instead of
// the whole scene when box is not nil.
func shotFraming(t *testing.T, d *scene.Document, variant, w, h int, box *[2]mgl64.Vec3) (*image.NRGBA, []string) {
	t.Helper()
	r := showing(t, d)
	defer r.Delete()
	lo0, hi0 := r.Bounds()
	cache := debugdraw.NewCache(d, &debugdraw.DocumentMeshes{Doc: d}, debugdraw.Options{MarkerSize: hi0.Sub(lo0).Len() * 0.05})
	cache.Update()
	r.SetDebug(cache.Groups())
	lo, hi := r.Bounds()
	if box != nil {
		lo, hi = box[0], box[1]
	}
	opt := DefaultOptions()
	opt.Variant = variant
	img, err := r.RenderImage(NewCamera(lo, hi), w, h, opt)
	if err != nil {
		t.Fatal(err)
	}
	return img, r.Messages
}

// headless gives the test a GL context, current on the test goroutine's
// locked OS thread.
func headless(t *testing.T) {
	t.Helper()
	h, err := NewHeadless()
	if err != nil {
		t.Fatalf("%v (install Mesa's EGL: bash .ci/install-deps)", err)
	}
	t.Cleanup(h.Close)
}

// compareGolden fails when img differs from the stored image by more than
// rendering noise: mean channel difference over 1.5, or over 1% of the
// pixels off by more than 48 in some channel.
func compareGolden(t *testing.T, name string, img *image.NRGBA) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".png")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := png.Encode(f, img); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (run go test ./render -update to create it)", err)
	}
	defer f.Close()
	want, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if want.Bounds() != img.Bounds() {
		t.Fatalf("size %v, golden %v", img.Bounds(), want.Bounds())
	}
	var sum float64
	bad := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := img.NRGBAAt(x, y)
			wr, wg, wb, _ := want.At(x, y).RGBA()
			d := []float64{
				math.Abs(float64(c.R) - float64(wr>>8)),
				math.Abs(float64(c.G) - float64(wg>>8)),
				math.Abs(float64(c.B) - float64(wb>>8)),
			}
			sum += d[0] + d[1] + d[2]
			if d[0] > 48 || d[1] > 48 || d[2] > 48 {
				bad++
			}
		}
	}
	n := float64(b.Dx() * b.Dy())
	mean := sum / (3 * n)
	if mean > 1.5 || float64(bad) > 0.01*n {
		out := filepath.Join(t.TempDir(), name+".png")
		if f, err := os.Create(out); err == nil {
			png.Encode(f, img)
			f.Close()
		}
		t.Errorf("%s differs from the golden image: mean difference %.2f, %d pixels far off (got image: %s)", name, mean, bad, out)
	}
}

func TestGoldenCorpus(t *testing.T) {
	const models = "gltf-sample-assets/Models/"
	cases := []struct {
		name, file string
		variant    string
	}{
		{"Box", models + "Box/glTF/Box.gltf", ""},
		{"BoxTextured", models + "BoxTextured/glTF-Binary/BoxTextured.glb", ""},
		{"Duck", models + "Duck/glTF/Duck.gltf", ""},
		{"DamagedHelmet", models + "DamagedHelmet/glTF-Binary/DamagedHelmet.glb", ""},
		{"MaterialsVariantsShoe-beach", models + "MaterialsVariantsShoe/glTF/MaterialsVariantsShoe.gltf", "beach"},
		{"MaterialsVariantsShoe-midnight", models + "MaterialsVariantsShoe/glTF/MaterialsVariantsShoe.gltf", "midnight"},
		// Sheen and specular; transmission, volume, ior and clearcoat.
		{"GlamVelvetSofa-Navy", models + "GlamVelvetSofa/glTF-Binary/GlamVelvetSofa.glb", "Navy"},
		{"StainedGlassLamp", models + "StainedGlassLamp/glTF/StainedGlassLamp.gltf", "Lamp on"},
		// Physics drawing: every gravity type, bodies, a slider joint.
		{"moon_petavius_crater", "omigroup-gltf-extensions/extensions/2.0/OMI_physics_gravity/examples/moon_petavius_crater/moon_petavius_crater.gltf", ""},
		{"ball_pit", "omigroup-gltf-extensions/extensions/2.0/OMI_physics_body/examples/complex/ball_pit.gltf", ""},
		{"swing_and_slide", "omigroup-gltf-extensions/extensions/2.0/OMI_physics_joint/examples/swing_and_slide.gltf", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Subtests run on their own goroutines: each needs its own context.
			headless(t)
			d, err := scene.Load(testcorpus.File(t, c.file))
			if err != nil {
				t.Fatal(err)
			}
			v := -1
			for i := range d.Variants {
				if d.Variants[i].Name == c.variant {
					v = i
				}
			}
			if c.variant != "" && v < 0 {
				t.Fatalf("no variant %q", c.variant)
			}
			img, msgs := shot(t, d, v, 320, 240)
			if len(msgs) > 0 && c.name != "moon_petavius_crater" { // its normal map is missing
				t.Errorf("messages: %v", msgs)
			}
			compareGolden(t, c.name, img)
		})
	}
}

// TestGoldenXODE renders a pybrain XODE scene: capsule limbs upright, hinge
// limit arcs at the joints.
func TestGoldenXODE(t *testing.T) {
	headless(t)
	d, err := xode.Load(testcorpus.File(t, "pybrain/pybrain/rl/environments/ode/models/johnnie-heavyarms.xode"))
	if err != nil {
		t.Fatal(err)
	}
	img, _ := shot(t, d, -1, 320, 240)
	compareGolden(t, "johnnie-heavyarms", img)
}

// TestBoxPixels checks real colours, not only a stored image: Box.gltf is
// red (0.8, 0, 0) and sits in the middle of the frame on the background.
func TestBoxPixels(t *testing.T) {
	headless(t)
	d, err := scene.Load(testcorpus.File(t, "gltf-sample-assets/Models/Box/glTF/Box.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	img, _ := shot(t, d, -1, 160, 120)
	c := img.NRGBAAt(80, 60)
	if c.R < 150 || c.G > 80 || c.B > 80 {
		t.Errorf("centre pixel %v is not red", c)
	}
	corner := img.NRGBAAt(2, 2)
	bg := DefaultOptions().Background
	if math.Abs(float64(corner.R)-float64(bg[0]*255)) > 3 || math.Abs(float64(corner.B)-float64(bg[2]*255)) > 3 {
		t.Errorf("corner pixel %v is not the background %v", corner, bg)
	}
}

// TestVariantsChangePixels: switching the shoe's variant changes its colour.
func TestVariantsChangePixels(t *testing.T) {
	headless(t)
	d, err := scene.Load(testcorpus.File(t, "gltf-sample-assets/Models/MaterialsVariantsShoe/glTF/MaterialsVariantsShoe.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := shot(t, d, 0, 160, 120)
	b, _ := shot(t, d, 1, 160, 120)
	diff := 0
	for i := 0; i < len(a.Pix); i += 4 {
		if math.Abs(float64(a.Pix[i])-float64(b.Pix[i]))+math.Abs(float64(a.Pix[i+2])-float64(b.Pix[i+2])) > 30 {
			diff++
		}
	}
	if diff < 300 {
		t.Errorf("variants 0 and 1 differ in only %d pixels", diff)
	}
}

// TestMissingImage: a file whose image is missing still renders, with a
// placeholder and a message (moon_petavius_crater's normal map is absent).
func TestMissingImage(t *testing.T) {
	headless(t)
	d, err := scene.Load(testcorpus.File(t, "omigroup-gltf-extensions/extensions/2.0/OMI_physics_gravity/examples/moon_petavius_crater/moon_petavius_crater.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	_, msgs := shot(t, d, -1, 64, 48)
	if len(msgs) != 1 {
		t.Errorf("want one message about the missing normal map, got %q", msgs)
	}
}

func TestCameraFraming(t *testing.T) {
	c := NewCamera([3]float64{-1, -1, -1}, [3]float64{1, 1, 1})
	// The bounding sphere (radius sqrt 3) fits the vertical field of view.
	if got := c.Distance * math.Sin(c.FovY/2); got < math.Sqrt(3) {
		t.Errorf("distance %g too close for radius %g", c.Distance, math.Sqrt(3))
	}
	near, far := c.Planes()
	if near <= 0 || near >= c.Distance-math.Sqrt(3) || far <= c.Distance+math.Sqrt(3) {
		t.Errorf("planes %g..%g do not enclose the scene at distance %g", near, far, c.Distance)
	}
	// A millimetre part and a 60 m scene both get sane planes.
	for _, size := range []float64{0.001, 60} {
		c := NewCamera([3]float64{0, 0, 0}, [3]float64{size, size, size})
		near, far := c.Planes()
		if near <= 0 || far/near > 1e5 || far < c.Distance {
			t.Errorf("size %g: planes %g..%g", size, near, far)
		}
	}
	eye := c.Eye()
	c.Orbit(0.3, 0.2)
	if c.Eye().Sub(c.Target).Len()-c.Distance > 1e-9 || c.Eye() == eye {
		t.Error("orbit must move the eye and keep the distance")
	}
	d := c.Distance
	c.Zoom(1)
	if c.Distance >= d {
		t.Error("zoom in must come closer")
	}
}

// TestGoldenDemo renders the built-in demo scene; it needs no corpus, so it
// runs on a fresh clone.
func TestGoldenDemo(t *testing.T) {
	headless(t)
	d, err := scene.Decode(assets.Demo, nil)
	if err != nil {
		t.Fatal(err)
	}
	for v, name := range []string{"Day", "Night", "Gold", "Iridescent"} {
		if d.VariantLabel(v) != name {
			t.Fatalf("variant %d is %q, want %q", v, d.VariantLabel(v), name)
		}
	}
	img, msgs := shot(t, d, -1, 480, 270)
	if len(msgs) > 0 {
		t.Errorf("messages: %v", msgs)
	}
	compareGolden(t, "demo", img)
	gold, _ := shot(t, d, 2, 480, 270)
	compareGolden(t, "demo-gold", gold)
	// The Iridescent variant, close up on the superellipsoid (a thin film)
	// and the platform (brushed steel), and the Day variant of the same.
	closeUp := &[2]mgl64.Vec3{{-0.6, 0, -3.6}, {1.3, 1.9, -0.5}}
	ir, msgs := shotFraming(t, d, 3, 480, 270, closeUp)
	if len(msgs) > 0 {
		t.Errorf("messages (iridescent): %v", msgs)
	}
	compareGolden(t, "demo-iridescent", ir)
	day, _ := shotFraming(t, d, 0, 480, 270, closeUp)
	compareGolden(t, "demo-day-closeup", day)
	// The thin film adds saturated greens and magentas the Day materials
	// (gold, steel) do not have; the debug lines are the same in both.
	irG, irM := hueBands(ir)
	dayG, dayM := hueBands(day)
	t.Logf("saturated green-cyan / magenta pixels: iridescent %d / %d, day %d / %d", irG, irM, dayG, dayM)
	if irG-dayG < 150 || irM-dayM < 150 {
		t.Errorf("the Iridescent variant adds %d green-cyan and %d magenta pixels, want at least 150 of each", irG-dayG, irM-dayM)
	}
}

// hueBands counts the saturated, lit pixels whose hue is green to cyan
// (140-190 degrees) and magenta (290-340 degrees).
func hueBands(img *image.NRGBA) (green, magenta int) {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := img.NRGBAAt(x, y)
			r, g, bl := float64(c.R)/255, float64(c.G)/255, float64(c.B)/255
			hi, lo := math.Max(r, math.Max(g, bl)), math.Min(r, math.Min(g, bl))
			if hi < 0.15 || (hi-lo)/hi < 0.5 {
				continue
			}
			var h float64
			switch hi {
			case r:
				h = 60 * math.Mod((g-bl)/(hi-lo), 6)
			case g:
				h = 60 * ((bl-r)/(hi-lo) + 2)
			default:
				h = 60 * ((r-g)/(hi-lo) + 4)
			}
			if h < 0 {
				h += 360
			}
			switch {
			case h >= 140 && h < 190:
				green++
			case h >= 290 && h < 340:
				magenta++
			}
		}
	}
	return green, magenta
}
