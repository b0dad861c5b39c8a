// Command refcompare renders glTF models with this viewer's renderer and
// with the Khronos glTF Sample Renderer (npm @khronosgroup/gltf-viewer, run
// in headless Chromium) from the same camera, environment and exposure, and
// prints the mean absolute difference per channel.
//
// It is a judge for the renderer, not part of the tests: its install step
// (install.sh beside this file: Debian chromium and the npm package) is its
// own and CI does not run it.
//
//	go run ./cmd/refcompare [-size 480x360] [-env studio] [-exposure 0] [-out DIR] MODEL[@VARIANT]...
//
// Both renderers get the same environment: this viewer's generated one,
// written out as an equirectangular Radiance .hdr for the Sample Renderer
// (which prefilters it itself), and the sheen albedo table it needs.
// Punctual lights in the file are used by both; tone mapping is Khronos PBR
// Neutral in both.
package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"physview/render"
	"physview/scene"
)

func main() {
	size := flag.String("size", "480x360", "image size WIDTHxHEIGHT")
	envName := flag.String("env", "studio", "environment: studio, soft-room or outdoor")
	exposure := flag.Float64("exposure", 0, "exposure in stops")
	out := flag.String("out", "refcompare-out", "folder for the images (ours, reference, side by side)")
	viewerDir := flag.String("viewer", defaultViewerDir(), "the dist folder of @khronosgroup/gltf-viewer")
	chromium := flag.String("chromium", "chromium", "the Chromium binary")
	timeout := flag.Duration("timeout", 180*time.Second, "time allowed for one reference render")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: refcompare [flags] MODEL[@VARIANT]...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	var w, h int
	if _, err := fmt.Sscanf(*size, "%dx%d", &w, &h); err != nil || w <= 0 || h <= 0 {
		fatalf("-size %q: want WIDTHxHEIGHT", *size)
	}
	env := render.EnvStudio
	found := false
	for i, n := range render.EnvironmentNames {
		if strings.EqualFold(strings.ReplaceAll(n, " ", "-"), *envName) {
			env, found = render.Environment(i), true
		}
	}
	if !found {
		fatalf("-env %q: want studio, soft-room or outdoor", *envName)
	}
	if _, err := os.Stat(filepath.Join(*viewerDir, "gltf-viewer.module.js")); err != nil {
		fatalf("no Sample Renderer at %s (run cmd/refcompare/install.sh, or pass -viewer): %v", *viewerDir, err)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fatalf("%v", err)
	}
	srv, err := newServer(*viewerDir, env)
	if err != nil {
		fatalf("%v", err)
	}
	defer srv.close()

	hl, err := render.NewHeadless()
	if err != nil {
		fatalf("%v", err)
	}
	defer hl.Close()
	fmt.Printf("%-40s %8s %8s %8s %8s   %s\n", "model", "MAE R", "MAE G", "MAE B", "mean", "(0-255, over pixels either renderer covers)")
	failed := false
	for _, arg := range flag.Args() {
		path, variant, _ := strings.Cut(arg, "@")
		name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		if variant != "" {
			name += "-" + strings.ReplaceAll(variant, " ", "_")
		}
		res, err := compare(srv, path, variant, w, h, env, float32(*exposure), *chromium, *timeout)
		if err != nil {
			fmt.Fprintf(os.Stderr, "refcompare: %s: %v\n", arg, err)
			failed = true
			continue
		}
		for suffix, img := range map[string]image.Image{"ours": res.ours, "reference": res.ref, "side": sideBySide(res.ours, res.ref)} {
			if err := writePNG(filepath.Join(*out, name+"-"+suffix+".png"), img); err != nil {
				fatalf("%v", err)
			}
		}
		m := res.mae
		fmt.Printf("%-40s %8.1f %8.1f %8.1f %8.1f\n", name, m[0], m[1], m[2], (m[0]+m[1]+m[2])/3)
	}
	if failed {
		os.Exit(1)
	}
}

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "refcompare: "+format+"\n", args...)
	os.Exit(2)
}

func defaultViewerDir() string {
	return filepath.Join(os.Getenv("HOME"), ".cache", "physview-refcompare", "node_modules", "@khronosgroup", "gltf-viewer", "dist")
}

// background is the plain clear colour both renderers use (0-255).
var background = [3]uint8{51, 51, 51}

type result struct {
	ours, ref *image.NRGBA
	mae       [3]float64
}

func compare(srv *server, path, variant string, w, h int, env render.Environment, exposure float32, chromium string, timeout time.Duration) (*result, error) {
	d, err := scene.Load(path)
	if err != nil {
		return nil, err
	}
	v := -1
	if variant != "" {
		for i := range d.Variants {
			if d.VariantLabel(i) == variant {
				v = i
			}
		}
		if v < 0 {
			return nil, fmt.Errorf("no variant %q", variant)
		}
	}
	r, err := render.New()
	if err != nil {
		return nil, err
	}
	defer r.Delete()
	r.SetDocument(d)
	r.WaitTextures()
	lo, hi := r.Bounds()
	cam := render.NewCamera(lo, hi)
	opt := render.DefaultOptions()
	opt.Grid, opt.Axes = false, false
	for i := range opt.Debug {
		opt.Debug[i] = false
	}
	opt.Variant = v
	opt.Environment, opt.Exposure = env, exposure
	opt.Background = [3]float32{float32(background[0]) / 255, float32(background[1]) / 255, float32(background[2]) / 255}
	ours, err := r.RenderImage(cam, w, h, opt)
	if err != nil {
		return nil, fmt.Errorf("our render: %w", err)
	}
	ref, err := srv.reference(chromium, path, variant, cam, w, h, math.Exp2(float64(exposure)), timeout)
	if err != nil {
		return nil, fmt.Errorf("reference render: %w", err)
	}
	return &result{ours: ours, ref: ref, mae: mae(ours, ref)}, nil
}

// mae is the mean absolute difference per channel over the pixels where
// either image is not the background.
func mae(a, b *image.NRGBA) [3]float64 {
	var sum [3]float64
	n := 0
	isBG := func(p []uint8) bool {
		return absDiff(p[0], background[0])+absDiff(p[1], background[1])+absDiff(p[2], background[2]) <= 3
	}
	for i := 0; i+3 < len(a.Pix) && i+3 < len(b.Pix); i += 4 {
		pa, pb := a.Pix[i:i+3], b.Pix[i:i+3]
		if isBG(pa) && isBG(pb) {
			continue
		}
		for k := 0; k < 3; k++ {
			sum[k] += float64(absDiff(pa[k], pb[k]))
		}
		n++
	}
	if n > 0 {
		for k := range sum {
			sum[k] /= float64(n)
		}
	}
	return sum
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

func sideBySide(a, b *image.NRGBA) *image.NRGBA {
	w, h := a.Rect.Dx(), a.Rect.Dy()
	out := image.NewNRGBA(image.Rect(0, 0, 2*w+4, h))
	draw.Draw(out, out.Rect, &image.Uniform{color.NRGBA{255, 255, 255, 255}}, image.Point{}, draw.Src)
	draw.Draw(out, image.Rect(0, 0, w, h), a, image.Point{}, draw.Src)
	draw.Draw(out, image.Rect(w+4, 0, 2*w+4, h), b, b.Rect.Min, draw.Src)
	return out
}

func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

// server serves the Sample Renderer, the page that drives it, the
// environment and the models, and receives the rendered image.
type server struct {
	ln      net.Listener
	srv     *http.Server
	hdr     []byte
	sheenE  []byte
	mu      sync.Mutex
	model   string // the model file being rendered
	results chan []byte
	logs    chan string
}

func newServer(viewerDir string, env render.Environment) (*server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &server{ln: ln, results: make(chan []byte, 1), logs: make(chan string, 100)}
	s.hdr = panoramaHDR(env, 1024, 512)
	s.sheenE = sheenELUT(64)
	module, err := patchedModule(viewerDir)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/viewer/gltf-viewer.module.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		w.Write(module)
	})
	mux.Handle("/viewer/", http.StripPrefix("/viewer/", http.FileServer(http.Dir(viewerDir))))
	mux.HandleFunc("/index.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, page)
	})
	mux.HandleFunc("/env.hdr", func(w http.ResponseWriter, r *http.Request) { w.Write(s.hdr) })
	mux.HandleFunc("/lut_sheen_E.png", func(w http.ResponseWriter, r *http.Request) { w.Write(s.sheenE) })
	mux.HandleFunc("/model/", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		dir := filepath.Dir(s.model)
		s.mu.Unlock()
		http.StripPrefix("/model/", http.FileServer(http.Dir(dir))).ServeHTTP(w, r)
	})
	mux.HandleFunc("/result", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		select {
		case s.results <- b:
		default:
		}
	})
	mux.HandleFunc("/log", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		select {
		case s.logs <- string(b):
		default:
		}
	})
	s.srv = &http.Server{Handler: mux}
	go s.srv.Serve(ln)
	return s, nil
}

func (s *server) close() { s.srv.Close() }

// iblSettings are the Sample Renderer's environment prefilter settings
// (its defaults first) and what the harness uses instead: on a software
// rasteriser (SwiftShader, 2 cores) the defaults take many minutes per
// model. The smaller cube is still twice this viewer's.
var iblSettings = [][2]string{
	{"this.textureSize = 256;", "this.textureSize = 256;"},
	{"this.ggxSampleCount = 1024;", "this.ggxSampleCount = 128;"},
	{"this.lambertianSampleCount = 2048;", "this.lambertianSampleCount = 128;"},
	{"this.sheenSamplCount = 64;", "this.sheenSamplCount = 32;"},
	{"this.lutResolution = 1024;", "this.lutResolution = 128;"},
}

// patchedModule returns the Sample Renderer module with the cheaper
// prefilter settings; it fails if the module does not have the expected
// defaults (another version).
func patchedModule(dir string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(dir, "gltf-viewer.module.js"))
	if err != nil {
		return nil, err
	}
	s := string(b)
	for _, r := range iblSettings {
		if strings.Count(s, r[0]) != 1 {
			return nil, fmt.Errorf("gltf-viewer.module.js: %q not found once (expected version 1.1.0)", r[0])
		}
		s = strings.Replace(s, r[0], r[1], 1)
	}
	return []byte(s), nil
}

// reference renders a model with the Sample Renderer in headless Chromium.
func (s *server) reference(chromium, path, variant string, cam render.Camera, w, h int, exposure float64, timeout time.Duration) (*image.NRGBA, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.model = abs
	s.mu.Unlock()
	for len(s.results) > 0 {
		<-s.results
	}
	if variant == "" {
		variant = "default"
	}
	q := fmt.Sprintf("model=%s&variant=%s&w=%d&h=%d&yaw=%g&pitch=%g&dist=%g&tx=%g&ty=%g&tz=%g&fov=%g&exposure=%g&bg=%d,%d,%d",
		urlEscape(filepath.Base(abs)), urlEscape(variant), w, h, cam.Yaw, cam.Pitch, cam.Distance,
		cam.Target[0], cam.Target[1], cam.Target[2], cam.FovY, exposure, background[0], background[1], background[2])
	url := fmt.Sprintf("http://%s/index.html?%s", s.ln.Addr(), q)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	profile, err := os.MkdirTemp("", "refcompare-chromium-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(profile)
	cmd := exec.CommandContext(ctx, chromium, "--headless=new", "--no-sandbox", "--disable-gpu-sandbox",
		"--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist",
		"--user-data-dir="+profile, fmt.Sprintf("--window-size=%d,%d", w+40, h+40), url)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", chromium, err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	var logs []string
	for {
		select {
		case b := <-s.results:
			data := string(b)
			if strings.HasPrefix(data, "error:") {
				return nil, errors.New(data + "\n" + strings.Join(logs, "\n"))
			}
			_, enc, ok := strings.Cut(data, ",")
			if !ok {
				return nil, errors.New("the page sent no image")
			}
			raw, err := base64.StdEncoding.DecodeString(enc)
			if err != nil {
				return nil, err
			}
			img, err := png.Decode(bytes.NewReader(raw))
			if err != nil {
				return nil, err
			}
			out := image.NewNRGBA(image.Rect(0, 0, img.Bounds().Dx(), img.Bounds().Dy()))
			draw.Draw(out, out.Rect, img, img.Bounds().Min, draw.Src)
			for i := 3; i < len(out.Pix); i += 4 {
				out.Pix[i] = 255
			}
			if os.Getenv("REFCOMPARE_LOG") != "" {
				fmt.Fprintln(os.Stderr, strings.Join(logs, "\n"))
			}
			return out, nil
		case l := <-s.logs:
			logs = append(logs, l)
		case <-ctx.Done():
			return nil, fmt.Errorf("timed out after %v; page log:\n%s\nchromium:\n%s", timeout, strings.Join(logs, "\n"), tail(stderr.String(), 2000))
		}
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

func urlEscape(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// page loads the model and the environment into the Sample Renderer, sets
// the camera as this viewer's orbit camera (yaw about +Y, then pitch), the
// exposure and the Khronos PBR Neutral tone map, renders and posts the
// canvas as a PNG.
const page = `<!doctype html>
<html><body style="margin:0">
<canvas id="c"></canvas>
<script src="/viewer/libs/libktx.js"></script>
<script type="module">
const post = (path, body) => fetch(path, {method: "POST", body});
const log = (...a) => post("/log", a.join(" "));
window.addEventListener("error", e => log("error", e.message));
console.error = (...a) => log("console.error", ...a);
console.warn = (...a) => log("console.warn", ...a);
try {
  const { GltfView } = await import("/viewer/gltf-viewer.module.js");
  const p = new URLSearchParams(location.search);
  const canvas = document.getElementById("c");
  const w = +p.get("w"), h = +p.get("h");
  canvas.width = w; canvas.height = h;
  canvas.style.width = w + "px"; canvas.style.height = h + "px";
  const gl = canvas.getContext("webgl2", {alpha: false, antialias: true, preserveDrawingBuffer: true});
  if (!gl) throw new Error("no WebGL2");
  const view = new GltfView(gl);
  const state = view.createState();
  const loader = view.createResourceLoader(undefined, undefined, "/viewer/libs/");
  state.gltf = await loader.loadGltf("/model/" + p.get("model"));
  state.sceneIndex = state.gltf.scene === undefined ? 0 : state.gltf.scene;
  state.cameraIndex = undefined;
  log("gltf loaded", performance.now());
  state.environment = await loader.loadEnvironment("/env.hdr", {lut_sheen_E_file: "/lut_sheen_E.png"});
  log("environment filtered", performance.now());
  const rp = state.renderingParameters;
  rp.exposure = +p.get("exposure");
  rp.toneMap = "Khronos PBR Neutral";
  rp.clearColor = p.get("bg").split(",").map(v => +v / 255).concat([1]);
  rp.renderEnvironmentMap = false;
  rp.useIBL = true;
  rp.usePunctual = true;
  rp.environmentRotation = 0.0;
  state.variant = p.get("variant");
  const cam = state.userCamera;
  cam.perspective.aspectRatio = w / h;
  cam.setVerticalFoV(+p.get("fov"));
  cam.resetView(state.gltf, state.sceneIndex);
  const target = [+p.get("tx"), +p.get("ty"), +p.get("tz")];
  cam.rotAroundY = +p.get("yaw"); cam.rotAroundX = +p.get("pitch");
  cam.setRotation(cam.rotAroundY, cam.rotAroundX);
  cam.setDistanceFromTarget(+p.get("dist"), target);
  cam.fitCameraPlanesToExtents(cam.sceneExtents.min, cam.sceneExtents.max);
  // Textures upload over a few frames.
  for (let i = 0; i < 8; i++) {
    view.renderFrame(state, w, h);
    await new Promise(r => requestAnimationFrame(r));
  }
  view.renderFrame(state, w, h);
  gl.finish();
  log("rendered", performance.now());
  await post("/result", canvas.toDataURL("image/png"));
} catch (e) {
  await post("/result", "error: " + (e && e.stack || e));
}
</script></body></html>
`
