package debugdraw

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// cubeGLTF is a glTF document whose mesh 0 is a unit cube (+-0.5, 12
// triangles, indexed, in an embedded buffer) with the given nodes and scene
// node list.
func cubeGLTF(nodes []string, sceneNodes []int) string {
	var buf bytes.Buffer
	for i := 0; i < 8; i++ {
		for k := 0; k < 3; k++ {
			binary.Write(&buf, binary.LittleEndian, float32(i>>k&1)-0.5)
		}
	}
	quads := [][4]uint16{{0, 1, 3, 2}, {4, 6, 7, 5}, {0, 4, 5, 1}, {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 5, 7, 3}}
	for _, q := range quads {
		for _, i := range []uint16{q[0], q[1], q[2], q[0], q[2], q[3]} {
			binary.Write(&buf, binary.LittleEndian, i)
		}
	}
	sn := make([]string, len(sceneNodes))
	for i, n := range sceneNodes {
		sn[i] = fmt.Sprint(n)
	}
	return `{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[` + strings.Join(sn, ",") + `]}],
	"nodes":[` + strings.Join(nodes, ",") + `],
	"meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":1}]}],
	"accessors":[
		{"bufferView":0,"componentType":5126,"count":8,"type":"VEC3","min":[-0.5,-0.5,-0.5],"max":[0.5,0.5,0.5]},
		{"bufferView":1,"componentType":5123,"count":36,"type":"SCALAR"}],
	"bufferViews":[{"buffer":0,"byteLength":96},{"buffer":0,"byteOffset":96,"byteLength":72}],
	"buffers":[{"byteLength":168,"uri":"data:application/octet-stream;base64,` + base64.StdEncoding.EncodeToString(buf.Bytes()) + `"}]}`
}

func decodeDoc(t testing.TB, js string) *scene.Document {
	t.Helper()
	d, err := scene.Decode([]byte(js), nil)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// camera looks from (0, 0, 10) at the origin, 45 degrees high, 800 x 600.
var (
	camView = mgl64.LookAtV(mgl64.Vec3{0, 0, 10}, mgl64.Vec3{}, mgl64.Vec3{0, 1, 0})
	camProj = mgl64.Perspective(math.Pi/4, 800.0/600.0, 0.1, 100)
	camVP   = camProj.Mul4(camView)
)

const vpW, vpH = 800.0, 600.0

func screenOf(t testing.TB, p mgl64.Vec3) (float64, float64) {
	t.Helper()
	x, y, ok := ScreenPoint(camVP, p, vpW, vpH)
	if !ok {
		t.Fatalf("%v is behind the camera", p)
	}
	return x, y
}

// countingMeshes counts the triangle reads, to show the bounds reject works.
type countingMeshes struct {
	MeshSource
	reads int
}

func (c *countingMeshes) MeshTriangles(m int) ([][3]mgl64.Vec3, error) {
	c.reads++
	return c.MeshSource.MeshTriangles(m)
}

func TestPickRay(t *testing.T) {
	ortho := mgl64.Ortho(-4, 4, -3, 3, 0.5, 50)
	infinite := camProj
	// An infinite far plane: the third row tends to (0, 0, -1, -2 near).
	infinite[10], infinite[14] = -1, -0.2
	pts := []mgl64.Vec3{{0, 0, 0}, {1, 2, -3}, {-2.5, 0.3, 4}, {0.1, -1.7, 8}}
	for _, c := range []struct {
		name string
		proj mgl64.Mat4
	}{{"perspective", camProj}, {"orthographic", ortho}, {"infinite far", infinite}} {
		t.Run(c.name, func(t *testing.T) {
			vp := c.proj.Mul4(camView)
			for _, p := range pts {
				x, y, ok := ScreenPoint(vp, p, vpW, vpH)
				if !ok {
					t.Fatalf("%v behind the camera", p)
				}
				o, dir := PickRay(camView, c.proj, x, y, vpW, vpH)
				if math.Abs(dir.Len()-1) > 1e-12 {
					t.Fatalf("dir %v not unit", dir)
				}
				// p lies on the ray, in front of its origin.
				along := p.Sub(o).Dot(dir)
				if off := p.Sub(o.Add(dir.Mul(along))).Len(); off > 1e-9 || along <= 0 {
					t.Errorf("ray %v + t %v misses %v by %g (t = %g)", o, dir, p, off, along)
				}
			}
		})
	}
	// The perspective ray starts on the near plane, 0.1 in front of the eye.
	o, dir := PickRay(camView, camProj, 400, 300, vpW, vpH)
	if !o.ApproxEqualThreshold(mgl64.Vec3{0, 0, 9.9}, 1e-9) || !dir.ApproxEqualThreshold(mgl64.Vec3{0, 0, -1}, 1e-12) {
		t.Errorf("centre ray %v + t %v, want (0 0 9.9) + t (0 0 -1)", o, dir)
	}
	// y runs down: a pixel above the centre looks up.
	if _, dir := PickRay(camView, camProj, 400, 100, vpW, vpH); dir[1] <= 0 {
		t.Errorf("pixel above the centre looks along %v", dir)
	}
	if _, dir := PickRay(camView, camProj, 1, 1, 0, vpH); dir != (mgl64.Vec3{}) {
		t.Errorf("zero-width viewport gave %v", dir)
	}
	if _, dir := PickRay(camView, mgl64.Mat4{}, 1, 1, vpW, vpH); dir != (mgl64.Vec3{}) {
		t.Errorf("zero projection gave %v", dir)
	}
}

func TestPixelSize(t *testing.T) {
	// 45 degrees over 600 pixels at 10 m.
	want := 2 * 10 * math.Tan(math.Pi/8) / 600
	if got := PixelSize(camView, camProj, mgl64.Vec3{3, 1, 0}, vpH); math.Abs(got-want) > 1e-12 {
		t.Errorf("perspective pixel %g m, want %g", got, want)
	}
	if got := PixelSize(camView, mgl64.Ortho(-4, 4, -3, 3, 0.5, 50), mgl64.Vec3{3, 1, -20}, vpH); math.Abs(got-0.01) > 1e-12 {
		t.Errorf("orthographic pixel %g m, want 0.01", got)
	}
	if got := PixelSize(camView, camProj, mgl64.Vec3{0, 0, 20}, vpH); got != 0 {
		t.Errorf("behind the camera: %g, want 0", got)
	}
}

func TestPickHandle(t *testing.T) {
	box := scene.Shape{Type: scene.ShapeBox, Size: [3]float64{2, 2, 2}}
	hs := ShapeHandles(box, mgl64.Ident4())
	x, y := screenOf(t, hs[0].Pos)
	cases := []struct {
		name      string
		hs        []Handle
		x, y, tol float64
		want      int
	}{
		{"on +X", hs, x, y, 6, 0},
		{"3 px off +X", hs, x + 3, y, 6, 0},
		{"too far", hs, x + 7, y, 6, -1},
		// +Z and -Z project to the centre: the nearer (+Z) wins.
		{"front of two", hs, 400, 300, 6, 4},
		{"front of two, listed last", []Handle{hs[5], hs[4]}, 400, 300, 6, 1},
		{"behind the camera", []Handle{{Param: BoxX, Pos: mgl64.Vec3{0, 0, 20}}}, 400, 300, 1000, -1},
		{"none", nil, 400, 300, 6, -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := PickHandle(c.hs, camVP, c.x, c.y, vpW, vpH, c.tol); got != c.want {
				t.Errorf("picked %d, want %d", got, c.want)
			}
		})
	}
}

// pickScene: node 0 "front" cube mesh at (0.5, 0, 3), partly in front of
// node 1 "back", a cube mesh at the origin; node 2 "collider" a 1 m box collider at x = 3 with no mesh,
// node 3 "turned" a cube mesh turned 45 degrees about Y and scaled 2 at
// x = -3, node 4 "skin" a box collider on the surface of node 5 "solid"'s
// cube mesh at y = 2.5, node 6 "hidden" a box collider low at the back,
// seen through the bar of node 7 "wall" (a cube mesh scaled 4 along X at
// z = 2), node 8 "offstage" a cube mesh not in the scene.
func pickScene(t testing.TB) (*scene.Document, []mgl64.Mat4, func(int) []Line) {
	d := decodeDoc(t, cubeGLTF([]string{
		`{"name":"front","mesh":0,"translation":[0.5,0,3]}`,
		`{"name":"back","mesh":0}`,
		`{"name":"collider","translation":[3,0,0]}`,
		`{"name":"turned","mesh":0,"translation":[-3,0,0],"rotation":[0,0.3826834,0,0.9238795],"scale":[2,2,2]}`,
		`{"name":"skin","translation":[0,2.5,0]}`,
		`{"name":"solid","mesh":0,"translation":[0,2.5,0]}`,
		`{"name":"hidden","translation":[0,-3,-4]}`,
		`{"name":"wall","mesh":0,"translation":[0,-1.8,2],"scale":[4,1,1]}`,
		`{"name":"offstage","mesh":0,"translation":[2,-2,5]}`,
	}, []int{0, 1, 2, 3, 4, 5, 6, 7}))
	d.Shapes = []scene.Shape{{Type: scene.ShapeBox, Size: [3]float64{1, 1, 1}, Mesh: -1}}
	for _, n := range []int{2, 4, 6} {
		d.Nodes[n].Body = &scene.Body{Collider: &scene.Collider{Shape: 0, PhysicsMaterial: -1, CollisionFilter: -1}}
	}
	world := d.WorldMatrices()
	lines := func(n int) []Line {
		ls := NodeLines(d, n, world, false, nil, Options{MarkerSize: 0.1})
		return append(ls[Colliders], ls[Triggers]...)
	}
	return d, world, lines
}

func TestPickNode(t *testing.T) {
	d, world, lines := pickScene(t)
	var picker Picker
	at := func(p mgl64.Vec3) [2]float64 { x, y := screenOf(t, p); return [2]float64{x, y} }
	cases := []struct {
		name  string
		px    [2]float64
		want  string
		reads int // mesh reads at most, -1 for any
	}{
		{"front cube over the back one", at(mgl64.Vec3{0.3, 0, 3}), "front", -1},
		{"back cube beside the front one", at(mgl64.Vec3{-0.4, 0, 0.5}), "back", -1},
		{"collider edge", at(mgl64.Vec3{3.5, 0.1, 0.5}), "collider", 0},
		{"2 px beside the collider edge", func() [2]float64 { p := at(mgl64.Vec3{3.5, 0.1, 0.5}); return [2]float64{p[0] + 2, p[1]} }(), "collider", 0},
		{"inside the collider, far from its edges", at(mgl64.Vec3{3, 0, 0}), "collider", 0},
		{"beside the collider", at(mgl64.Vec3{3.8, 0, 0}), "", 0},
		{"turned cube corner beyond the unturned extent", at(mgl64.Vec3{-3 - 1.3, 0, 0}), "turned", -1},
		{"beyond the turned cube", at(mgl64.Vec3{-3 - 1.6, 0, 0}), "", 0},
		{"wireframe on a mesh surface wins", at(mgl64.Vec3{0.5, 2.5, 0.5}), "skin", -1},
		{"mesh face inside the wireframe", at(mgl64.Vec3{0, 2.5, 0.5}), "solid", -1},
		{"wireframe hidden behind a mesh", at(mgl64.Vec3{0.5, -3, -3.5}), "wall", -1},
		{"not in the scene", at(mgl64.Vec3{2, -2, 5}), "", 0},
		{"empty space", [2]float64{20, 20}, "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			meshes := &countingMeshes{MeshSource: &DocumentMeshes{Doc: d}}
			got := PickNode(d, world, meshes, lines, camView, camProj, c.px[0], c.px[1], vpW, vpH, 5)
			// A Picker (asked twice: the second time from memory) agrees.
			for i := 0; i < 2; i++ {
				if p := picker.PickNode(d, world, meshes, lines, camView, camProj, c.px[0], c.px[1], vpW, vpH, 5); p != got {
					t.Errorf("Picker call %d picked %d, PickNode %d", i+1, p, got)
				}
			}
			name := ""
			if got >= 0 {
				name = d.GLTF.Nodes[got].Name
			}
			if name != c.want {
				t.Errorf("picked %d %q, want %q", got, name, c.want)
			}
			if c.reads >= 0 && meshes.reads > c.reads {
				t.Errorf("%d mesh reads, want at most %d (the bounds should reject)", meshes.reads, c.reads)
			}
		})
	}
	// Without lines only meshes count; without meshes only lines.
	p := at(mgl64.Vec3{3.5, 0.1, 0.5})
	if got := PickNode(d, world, &DocumentMeshes{Doc: d}, nil, camView, camProj, p[0], p[1], vpW, vpH, 5); got != -1 {
		t.Errorf("no lines: picked %d at a collider edge", got)
	}
	p = at(mgl64.Vec3{0.3, 0, 3})
	if got := PickNode(d, world, nil, lines, camView, camProj, p[0], p[1], vpW, vpH, 5); got != -1 {
		t.Errorf("no meshes: picked %d at a mesh", got)
	}
}

// gridGLTF is a glTF document whose one node shows a 10 x 10 m grid of
// 2*n*n triangles facing +Z.
func gridGLTF(n int) string {
	var pos, idx bytes.Buffer
	for j := 0; j <= n; j++ {
		for i := 0; i <= n; i++ {
			for _, v := range []float32{10*float32(i)/float32(n) - 5, 10*float32(j)/float32(n) - 5, 0} {
				binary.Write(&pos, binary.LittleEndian, v)
			}
		}
	}
	at := func(i, j int) uint32 { return uint32(j*(n+1) + i) }
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			for _, v := range []uint32{at(i, j), at(i+1, j), at(i+1, j+1), at(i, j), at(i+1, j+1), at(i, j+1)} {
				binary.Write(&idx, binary.LittleEndian, v)
			}
		}
	}
	data := append(pos.Bytes(), idx.Bytes()...)
	return fmt.Sprintf(`{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],
	"meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":1}]}],
	"accessors":[
		{"bufferView":0,"componentType":5126,"count":%d,"type":"VEC3","min":[-5,-5,0],"max":[5,5,0]},
		{"bufferView":1,"componentType":5125,"count":%d,"type":"SCALAR"}],
	"bufferViews":[{"buffer":0,"byteLength":%d},{"buffer":0,"byteOffset":%d,"byteLength":%d}],
	"buffers":[{"byteLength":%d,"uri":"data:application/octet-stream;base64,%s"}]}`,
		(n+1)*(n+1), 6*n*n, pos.Len(), pos.Len(), idx.Len(), len(data), base64.StdEncoding.EncodeToString(data))
}

// BenchmarkPickNode100kTriangles: a click on a mesh of 100,352 triangles,
// its triangles already read (as after the first click or the first frame).
func BenchmarkPickNode100kTriangles(b *testing.B) {
	d := decodeDoc(b, gridGLTF(224))
	world := d.WorldMatrices()
	meshes := &DocumentMeshes{Doc: d}
	if got := PickNode(d, world, meshes, nil, camView, camProj, 410, 290, vpW, vpH, 5); got != 0 {
		b.Fatalf("picked %d, want the grid", got)
	}
	b.Run("PickNode", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			PickNode(d, world, meshes, nil, camView, camProj, 410, 290, vpW, vpH, 5)
		}
	})
	// Hover: the same Picker under a moving mouse.
	b.Run("Picker", func(b *testing.B) {
		var p Picker
		p.PickNode(d, world, meshes, nil, camView, camProj, 410, 290, vpW, vpH, 5)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			p.PickNode(d, world, meshes, nil, camView, camProj, 410+float64(i%7), 290, vpW, vpH, 5)
		}
	})
}

// BenchmarkPickNode10kColliders: a click among 10,000 collider wireframes
// (their lines already built, as the cache holds them).
func BenchmarkPickNode10kColliders(b *testing.B) {
	d := bigScene(b, 10000)
	world := d.WorldMatrices()
	all := make([][]Line, len(d.Nodes))
	for n := range d.Nodes {
		ls := NodeLines(d, n, world, false, nil, Options{MarkerSize: 0.1, GravitySamples: 3})
		all[n] = append(ls[Colliders], ls[Triggers]...)
	}
	lines := func(n int) []Line { return all[n] }
	// Looking down at the grid of colliders from above its middle.
	view := mgl64.LookAtV(mgl64.Vec3{100, 60, 140}, mgl64.Vec3{100, 0, 100}, mgl64.Vec3{0, 1, 0})
	x, y, _ := ScreenPoint(camProj.Mul4(view), mgl64.Vec3{100.5, 0, 100}, vpW, vpH)
	if got := PickNode(d, world, nil, lines, view, camProj, x, y, vpW, vpH, 5); got < 0 {
		b.Fatal("picked nothing")
	}
	b.Run("PickNode", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			PickNode(d, world, nil, lines, view, camProj, x, y, vpW, vpH, 5)
		}
	})
	// Hover: the same Picker under a moving mouse.
	b.Run("Picker", func(b *testing.B) {
		var p Picker
		p.PickNode(d, world, nil, lines, view, camProj, x, y, vpW, vpH, 5)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			p.PickNode(d, world, nil, lines, view, camProj, x+float64(i%7), y, vpW, vpH, 5)
		}
	})
}

// TestCachePickLines: the cache hands PickNode the collider and trigger
// lines it built, and a pick through them finds the collider.
func TestCachePickLines(t *testing.T) {
	d, world, _ := pickScene(t)
	d.Nodes[4].Body.Trigger = &scene.Trigger{Shape: 0, CollisionFilter: -1}
	c := NewCache(d, nil, Options{MarkerSize: 0.1})
	c.Update()
	for _, w := range []struct{ n, lines int }{{0, 0}, {2, 12}, {4, 24}, {-1, 0}, {99, 0}} {
		if got := len(c.PickLines(w.n)); got != w.lines {
			t.Errorf("node %d: %d lines, want %d", w.n, got, w.lines)
		}
	}
	x, y := screenOf(t, mgl64.Vec3{3.5, 0.1, 0.5})
	if got := PickNode(d, world, nil, c.PickLines, camView, camProj, x, y, vpW, vpH, 5); got != 2 {
		t.Errorf("picked %d through the cache, want 2", got)
	}
}

// TestPickNodeBadInput: broken matrices, a short world list, a mesh index
// past the end, NaN lines and a zero viewport pick nothing and do not panic.
func TestPickNodeBadInput(t *testing.T) {
	d, world, lines := pickScene(t)
	nan := math.NaN()
	x, y := screenOf(t, mgl64.Vec3{0.3, 0, 3})
	meshes := &DocumentMeshes{Doc: d}
	nanWorld := append([]mgl64.Mat4(nil), world...)
	for i := range nanWorld {
		nanWorld[i] = mgl64.Translate3D(nan, 0, 0)
	}
	zeroWorld := make([]mgl64.Mat4, len(world))
	nanLines := func(int) []Line { return []Line{{A: [3]float32{float32(nan), 0, 0}, B: [3]float32{0, 0, 0}}} }
	cases := []struct {
		name  string
		world []mgl64.Mat4
		lines func(int) []Line
		w, h  float64
	}{
		{"NaN matrices", nanWorld, nil, vpW, vpH},
		{"zero matrices", zeroWorld, nil, vpW, vpH},
		{"short world", world[:0], nil, vpW, vpH},
		{"NaN lines", world[:0], nanLines, vpW, vpH},
		{"zero viewport", world, lines, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := PickNode(d, c.world, meshes, c.lines, camView, camProj, x, y, c.w, c.h, 5); got != -1 {
				t.Errorf("picked %d, want -1", got)
			}
		})
	}
	bad := *d.GLTF.Nodes[0].Mesh + 99
	d.GLTF.Nodes[0].Mesh = &bad
	d.GLTF.Nodes[1].Mesh = nil
	if got := PickNode(d, world, meshes, nil, camView, camProj, x, y, vpW, vpH, 5); got != -1 {
		t.Errorf("mesh index past the end: picked %d, want -1", got)
	}
	if got := PickNode(nil, world, meshes, lines, camView, camProj, x, y, vpW, vpH, 5); got != -1 {
		t.Errorf("nil document: picked %d", got)
	}
}

// TestPickerSeesNewLines: when a node's lines are rebuilt (a new slice), the
// Picker's remembered bounds give way.
func TestPickerSeesNewLines(t *testing.T) {
	d, world, _ := pickScene(t)
	box := scene.Shape{Type: scene.ShapeBox, Size: [3]float64{1, 1, 1}}
	current := Shape(box, mgl64.Translate3D(3, 0, 0), [4]float32{1, 1, 1, 1}, nil)
	lines := func(n int) []Line {
		if n == 2 {
			return current
		}
		return nil
	}
	var p Picker
	oldX, oldY := screenOf(t, mgl64.Vec3{3.5, 0.1, 0.5})
	newX, newY := screenOf(t, mgl64.Vec3{-3.5, 1.1, 0.5})
	if got := p.PickNode(d, world, nil, lines, camView, camProj, oldX, oldY, vpW, vpH, 5); got != 2 {
		t.Fatalf("before the move: picked %d, want 2", got)
	}
	current = Shape(box, mgl64.Translate3D(-3, 1, 0), [4]float32{1, 1, 1, 1}, nil)
	// The node moved with its lines (its volume is picked too).
	world[2] = mgl64.Translate3D(-3, 1, 0)
	if got := p.PickNode(d, world, nil, lines, camView, camProj, newX, newY, vpW, vpH, 5); got != 2 {
		t.Errorf("after the move, at the new place: picked %d, want 2", got)
	}
	if got := p.PickNode(d, world, nil, lines, camView, camProj, oldX, oldY, vpW, vpH, 5); got != -1 {
		t.Errorf("after the move, at the old place: picked %d, want -1", got)
	}
	p.Reset()
	if got := p.PickNode(d, world, nil, lines, camView, camProj, newX, newY, vpW, vpH, 5); got != 2 {
		t.Errorf("after Reset: picked %d, want 2", got)
	}
}

// TestPickerBigMesh: on a mesh large enough for the Picker's triangle runs,
// the Picker finds the same hits as PickNode, at the same distance.
func TestPickerBigMesh(t *testing.T) {
	d := decodeDoc(t, gridGLTF(40))
	// Tilt the grid so that depth varies across it.
	d.GLTF.Nodes[0].Rotation = [4]float64{0.3826834, 0, 0, 0.9238795}
	world := d.WorldMatrices()
	meshes := &DocumentMeshes{Doc: d}
	var p Picker
	hits := 0
	for y := 0.0; y <= vpH; y += 37 {
		for x := 0.0; x <= vpW; x += 41 {
			want := PickNode(d, world, meshes, nil, camView, camProj, x, y, vpW, vpH, 5)
			if got := p.PickNode(d, world, meshes, nil, camView, camProj, x, y, vpW, vpH, 5); got != want {
				t.Errorf("(%g, %g): Picker picked %d, PickNode %d", x, y, got, want)
			}
			if want == 0 {
				hits++
			}
			o, dir := PickRay(camView, camProj, x, y, vpW, vpH)
			t1, ok1 := (*Picker)(nil).pickMesh(d, 0, world[0], meshes, o, dir, math.Inf(1))
			t2, ok2 := p.pickMesh(d, 0, world[0], meshes, o, dir, math.Inf(1))
			if ok1 != ok2 || t1 != t2 {
				t.Errorf("(%g, %g): hit %v at %g, Picker %v at %g", x, y, ok1, t1, ok2, t2)
			}
		}
	}
	if hits < 20 || hits > 300 {
		t.Errorf("%d hits on the grid: the test does not cover it", hits)
	}
	if len(p.meshes[0].boxes) != (2*40*40+chunkSize-1)/chunkSize {
		t.Errorf("%d triangle runs remembered, want %d", len(p.meshes[0].boxes), (2*40*40+chunkSize-1)/chunkSize)
	}
}
