package render

import (
	"image"
	"math"
	"path/filepath"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
	"physview/scene/anim"
)

// front returns a camera looking down -Z at the box [lo, hi].
func front(lo, hi mgl64.Vec3) Camera {
	c := Camera{FovY: math.Pi / 4}
	c.Frame(lo, hi)
	return c
}

// drawnAt reports whether world point p is drawn in img (any channel far
// from the background).
func drawnAt(img *image.NRGBA, cam Camera, p mgl64.Vec3) bool {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	clip := cam.Projection(float64(w) / float64(h)).Mul4(cam.View()).Mul4x1(p.Vec4(1))
	x := int((clip[0]/clip[3]*0.5 + 0.5) * float64(w))
	y := int((0.5 - clip[1]/clip[3]*0.5) * float64(h))
	c := img.NRGBAAt(x, y)
	// The corner pixel is always background.
	b := img.NRGBAAt(0, 0)
	d := math.Abs(float64(c.R)-float64(b.R)) + math.Abs(float64(c.G)-float64(b.G)) + math.Abs(float64(c.B)-float64(b.B))
	return d > 30
}

func bareOptions() Options {
	o := DefaultOptions()
	o.Grid, o.Axes = false, false
	for i := range o.Debug {
		o.Debug[i] = false
	}
	return o
}

func loadAnimFixture(t *testing.T, name string) *scene.Document {
	t.Helper()
	d, err := scene.Load(filepath.Join("..", "scene", "anim", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestPosedDrawing checks that the GPU draws skins, morph weights and
// instances where the pure-Go posing puts them: points inside the posed
// shape are covered, points only the unposed shape covers are not.
func TestPosedDrawing(t *testing.T) {
	headless(t)
	tests := []struct {
		file       string
		anim       int
		time       float64 // NaN: rest pose
		in, out    []mgl64.Vec3
		wantChange bool
	}{
		// Rest: the strip stands from y 0 to 2 (the node's own translation
		// of 100 in X is ignored for a skinned mesh).
		{"skin.gltf", 0, math.NaN(), []mgl64.Vec3{{0, 1.8, 0}, {0, 0.2, 0}}, []mgl64.Vec3{{-0.8, 1, 0}}, false},
		// t = 1: joint 1 turned 90 degrees: the top half lies to the left
		// between x -1 and -0.25, nothing above y 1.6.
		{"skin.gltf", 0, 1, []mgl64.Vec3{{-0.8, 1, 0}, {0, 0.2, 0}}, []mgl64.Vec3{{0, 1.8, 0}}, true},
		{"skin8.gltf", 0, 1, []mgl64.Vec3{{-0.8, 1, 0}, {0, 0.2, 0}}, []mgl64.Vec3{{0, 1.8, 0}}, true},
		// mesh.weights [0.5, 0] lift the apex to 1.5; node 1's own weights
		// [0, 1] stretch its triangle to x = 7.
		{"morph.gltf", 0, math.NaN(), []mgl64.Vec3{{0.5, 1.3, 0}, {6.6, 0.1, 0}}, []mgl64.Vec3{{0.5, 1.7, 0}}, false},
		// Three instances, the third mirrored in X (still facing the
		// camera: its winding is flipped).
		{"instancing.gltf", 0, math.NaN(), []mgl64.Vec3{{0.3, 1.3, 0}, {10.6, 1.6, 0}, {-0.3, 1.3, -5}}, []mgl64.Vec3{{5, 1.5, 0}}, false},
	}
	// No subtests: the GL context is current on this goroutine's thread.
	// Both places that pose: the vertex shader and the CPU.
	for _, mode := range []string{"gpu", "cpu"} {
		t.Setenv("PHYSVIEW_SKINNING", mode)
		for _, tc := range tests {
			func() {
				d := loadAnimFixture(t, tc.file)
				r := showing(t, d)
				defer r.Delete()
				m := r.Animation()
				p := m.Rest()
				if !math.IsNaN(tc.time) {
					p = m.Pose(tc.anim, tc.time)
				}
				r.SetPose(p)
				lo, hi, _ := m.Bounds(p)
				lo, hi = lo.Sub(mgl64.Vec3{1, 1, 1}), hi.Add(mgl64.Vec3{1, 1, 1})
				cam := front(lo, hi)
				opt := bareOptions()
				img, err := r.RenderImage(cam, 320, 240, opt)
				if err != nil {
					t.Fatal(err)
				}
				for _, q := range tc.in {
					if !drawnAt(img, cam, q) {
						t.Errorf("%s %s t=%g: %v is not drawn", mode, tc.file, tc.time, q)
					}
				}
				for _, q := range tc.out {
					if drawnAt(img, cam, q) {
						t.Errorf("%s %s t=%g: %v is drawn, want background", mode, tc.file, tc.time, q)
					}
				}
				if len(r.Messages) > 0 {
					t.Errorf("%s: messages: %q", tc.file, r.Messages)
				}
				if r.cpuSkinning() != (mode == "cpu") {
					t.Errorf("PHYSVIEW_SKINNING=%s not followed", mode)
				}
			}()
		}
	}
}

// TestShotsAtTwoTimesDiffer renders the skin at t = 0 and t = 1 with one
// camera: the pictures differ where the top half moved, and a pose set
// back to rest gives the rest picture again.
func TestShotsAtTwoTimesDiffer(t *testing.T) {
	headless(t)
	var first []*image.NRGBA
	for _, mode := range []string{"gpu", "cpu"} {
		t.Setenv("PHYSVIEW_SKINNING", mode)
		imgs := shotsAtTwoTimes(t)
		if first == nil {
			first = imgs
			continue
		}
		// The CPU and the shader pose alike (to rounding at edges).
		for i := range imgs {
			n := 0
			for k := 0; k < len(imgs[i].Pix); k += 4 {
				if d := int(imgs[i].Pix[k]) - int(first[i].Pix[k]); d > 24 || d < -24 {
					n++
				}
			}
			if n > 40 {
				t.Errorf("shot %d: CPU and GPU posing differ in %d pixels", i, n)
			}
		}
	}
}

// shotsAtTwoTimes renders the skin at t = 0, t = 1 and the rest pose and
// checks what TestShotsAtTwoTimesDiffer says.
func shotsAtTwoTimes(t *testing.T) []*image.NRGBA {
	d := loadAnimFixture(t, "skin.gltf")
	r := showing(t, d)
	defer r.Delete()
	lo, hi := r.Bounds()
	cam := NewCamera(lo, hi)
	opt := DefaultOptions()
	m := r.Animation()
	var imgs []*image.NRGBA
	for _, p := range []*anim.Pose{m.Pose(0, 0), m.Pose(0, 1), nil} {
		r.SetPose(p)
		img, err := r.RenderImage(cam, 200, 150, opt)
		if err != nil {
			t.Fatal(err)
		}
		imgs = append(imgs, img)
	}
	diff := func(a, b *image.NRGBA) int {
		n := 0
		for i := 0; i < len(a.Pix); i += 4 {
			if a.Pix[i] != b.Pix[i] || a.Pix[i+1] != b.Pix[i+1] || a.Pix[i+2] != b.Pix[i+2] {
				n++
			}
		}
		return n
	}
	if n := diff(imgs[0], imgs[1]); n < 500 {
		t.Errorf("t=0 and t=1 differ in %d pixels, want the moved half (>= 500)", n)
	}
	if n := diff(imgs[0], imgs[2]); n != 0 {
		t.Errorf("t=0 and the rest pose differ in %d pixels, want 0", n)
	}
	return imgs
}

// TestPointerAnimatesMaterial: interp.gltf animates material 0's base
// colour from red (t = 0) to blue (t = 1) through KHR_animation_pointer;
// the triangle on node 1 (moved by its own LINEAR channel) shows it.
func TestPointerAnimatesMaterial(t *testing.T) {
	headless(t)
	d := loadAnimFixture(t, "interp.gltf")
	r := showing(t, d)
	defer r.Delete()
	m := r.Animation()
	opt := bareOptions()
	for _, tc := range []struct {
		t           float64
		at          mgl64.Vec3
		redOverBlue bool
	}{{0, mgl64.Vec3{0.3, 0.3, 0}, true}, {1, mgl64.Vec3{1.3, 0.3, 0}, false}} {
		p := m.Pose(0, tc.t)
		r.SetPose(p)
		cam := front(mgl64.Vec3{-1, -1, -1}, mgl64.Vec3{3, 2, 1})
		img, err := r.RenderImage(cam, 160, 120, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !drawnAt(img, cam, tc.at) {
			t.Errorf("t=%g: %v not drawn", tc.t, tc.at)
			continue
		}
		w, h := img.Rect.Dx(), img.Rect.Dy()
		clip := cam.Projection(float64(w) / float64(h)).Mul4(cam.View()).Mul4x1(tc.at.Vec4(1))
		c := img.NRGBAAt(int((clip[0]/clip[3]*0.5+0.5)*float64(w)), int((0.5-clip[1]/clip[3]*0.5)*float64(h)))
		cr, cb := int(c.R), int(c.B) // in int: c.R+40 overflows a byte for a bright red
		if (cr > cb+40) != tc.redOverBlue || (cb > cr+40) == tc.redOverBlue {
			t.Errorf("t=%g: colour %v, want %s", tc.t, c, map[bool]string{true: "red", false: "blue"}[tc.redOverBlue])
		}
	}
}

// TestAnimatedLight: a light on an animated node moves with the pose, and
// its colour and intensity follow KHR_animation_pointer values.
func TestAnimatedLight(t *testing.T) {
	d, err := scene.Decode([]byte(`{"asset": {"version": "2.0"}, "extensionsUsed": ["KHR_lights_punctual"],
 "extensions": {"KHR_lights_punctual": {"lights": [{"type": "point", "color": [1, 1, 1], "intensity": 2}]}},
 "scene": 0, "scenes": [{"nodes": [0]}],
 "nodes": [{"name": "lamp", "extensions": {"KHR_lights_punctual": {"light": 0}}}]}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	rest := lightsAt(d, d.WorldMatrices(), nil)
	posed := lightsAt(d, []mgl64.Mat4{mgl64.Translate3D(0, 3, 0)}, map[string][]float64{
		"/extensions/KHR_lights_punctual/lights/0/color":     {1, 0, 0},
		"/extensions/KHR_lights_punctual/lights/0/intensity": {5},
	})
	if len(rest) != 1 || len(posed) != 1 {
		t.Fatalf("%d and %d lights, want 1", len(rest), len(posed))
	}
	if rest[0].color != [3]float32{2, 2, 2} || rest[0].pos != (mgl64.Vec3{}) {
		t.Errorf("rest light: colour %v at %v, want [2 2 2] at the origin", rest[0].color, rest[0].pos)
	}
	if posed[0].color != [3]float32{5, 0, 0} || posed[0].pos != (mgl64.Vec3{0, 3, 0}) {
		t.Errorf("posed light: colour %v at %v, want [5 0 0] at (0, 3, 0)", posed[0].color, posed[0].pos)
	}
}

// TestNodeBoundsPosed: framing a skinned node frames where the skin puts
// its vertices (not at the node's own transform), in the pose shown; an
// instanced node's bounds hold every instance.
func TestNodeBoundsPosed(t *testing.T) {
	headless(t)
	for _, tc := range []struct {
		file   string
		time   float64
		lo, hi mgl64.Vec3
	}{
		{"skin.gltf", math.NaN(), mgl64.Vec3{-0.5, 0, 0}, mgl64.Vec3{0.5, 2, 0}},
		{"skin.gltf", 1, mgl64.Vec3{-1, 0, 0}, mgl64.Vec3{0.5, 1.5, 0}},
		{"instancing.gltf", math.NaN(), mgl64.Vec3{-1, 1, -5}, mgl64.Vec3{12, 3, 0}},
	} {
		r := showing(t, loadAnimFixture(t, tc.file))
		if !math.IsNaN(tc.time) {
			r.SetPose(r.Animation().Pose(0, tc.time))
		}
		lo, hi, ok := r.NodeBounds(0)
		if !ok || !lo.ApproxEqualThreshold(tc.lo, 1e-6) || !hi.ApproxEqualThreshold(tc.hi, 1e-6) {
			t.Errorf("%s t=%g: node bounds %v %v %v, want %v %v", tc.file, tc.time, lo, hi, ok, tc.lo, tc.hi)
		}
		r.Delete()
	}
}

// TestCPUPoseOnlyWhenChanged checks that items posed on the CPU are posed
// and uploaded again only when their joints or morph weights change: the
// same pose set twice, a STEP key held, a node the animation does not
// move cost nothing; a new pose and the rest pose are drawn.
func TestCPUPoseOnlyWhenChanged(t *testing.T) {
	headless(t)
	t.Setenv("PHYSVIEW_SKINNING", "cpu")
	uploads := func(r *Renderer, node int) int {
		for _, it := range r.items {
			if it.node == node && it.dyn != nil {
				return it.dyn.cpuUploads
			}
		}
		t.Fatalf("node %d has no posed item", node)
		return 0
	}
	type step struct {
		time float64 // NaN: the rest pose
		want []int   // uploads so far, per node
	}
	tests := []struct {
		file  string
		nodes []int
		steps []step
	}{
		// SetDocument poses the rest pose once.
		{"skin.gltf", []int{0}, []step{
			{1, []int{2}},
			{1, []int{2}}, // the same pose again
			{0.5, []int{3}},
			{math.NaN(), []int{4}},
			{math.NaN(), []int{4}},
		}},
		// The weights of node 0 are a STEP animation keyed at 0 and 1;
		// node 1 has weights of its own and no animation.
		{"morph.gltf", []int{0, 1}, []step{
			{0, []int{2, 1}},
			{0.2, []int{2, 1}}, // the step's value held
			{0.4, []int{2, 1}},
			{1, []int{3, 1}},
		}},
	}
	for _, tc := range tests {
		func() {
			r := showing(t, loadAnimFixture(t, tc.file))
			defer r.Delete()
			if !r.cpuSkinning() {
				t.Fatal("PHYSVIEW_SKINNING=cpu not followed")
			}
			m := r.Animation()
			for i, s := range tc.steps {
				if math.IsNaN(s.time) {
					r.SetPose(nil)
				} else {
					r.SetPose(m.Pose(0, s.time))
				}
				for k, n := range tc.nodes {
					if got := uploads(r, n); got != s.want[k] {
						t.Errorf("%s step %d (t=%g): node %d uploaded %d times, want %d", tc.file, i, s.time, n, got, s.want[k])
					}
				}
			}
		}()
	}
}
