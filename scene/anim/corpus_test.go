package anim

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"physview/internal/testcorpus"
	"physview/scene"
)

// This file poses the Khronos sample models with a reference written for
// the test alone: its own JSON structs, accessor reader, sampling
// (slerp as q0 (q0^-1 q1)^u through axis and angle), matrices and
// skinning, none shared with the package.

type refDoc struct {
	Scene  *int `json:"scene"`
	Scenes []struct {
		Nodes []int `json:"nodes"`
	} `json:"scenes"`
	Nodes []struct {
		Children    []int     `json:"children"`
		Mesh        *int      `json:"mesh"`
		Skin        *int      `json:"skin"`
		Matrix      []float64 `json:"matrix"`
		Translation []float64 `json:"translation"`
		Rotation    []float64 `json:"rotation"`
		Scale       []float64 `json:"scale"`
		Weights     []float64 `json:"weights"`
	} `json:"nodes"`
	Meshes []struct {
		Weights    []float64 `json:"weights"`
		Primitives []struct {
			Attributes map[string]int   `json:"attributes"`
			Indices    *int             `json:"indices"`
			Targets    []map[string]int `json:"targets"`
		} `json:"primitives"`
	} `json:"meshes"`
	Skins []struct {
		Joints []int `json:"joints"`
		IBM    *int  `json:"inverseBindMatrices"`
	} `json:"skins"`
	Accessors []struct {
		View       *int   `json:"bufferView"`
		Offset     int    `json:"byteOffset"`
		Component  int    `json:"componentType"`
		Normalized bool   `json:"normalized"`
		Count      int    `json:"count"`
		Type       string `json:"type"`
	} `json:"accessors"`
	Views []struct {
		Buffer int `json:"buffer"`
		Offset int `json:"byteOffset"`
		Stride int `json:"byteStride"`
	} `json:"bufferViews"`
	Buffers []struct {
		URI string `json:"uri"`
	} `json:"buffers"`
	Animations []struct {
		Channels []struct {
			Sampler int `json:"sampler"`
			Target  struct {
				Node int    `json:"node"`
				Path string `json:"path"`
			} `json:"target"`
		} `json:"channels"`
		Samplers []struct {
			Input  int    `json:"input"`
			Output int    `json:"output"`
			Interp string `json:"interpolation"`
		} `json:"samplers"`
	} `json:"animations"`
	bufs [][]byte
}

func (d *refDoc) read(i int) [][]float64 {
	a := d.Accessors[i]
	n := map[string]int{"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}[a.Type]
	size := map[int]int{5121: 1, 5123: 2, 5125: 4, 5126: 4}[a.Component]
	v := d.Views[*a.View]
	stride := v.Stride
	if stride == 0 {
		stride = n * size
	}
	b := d.bufs[v.Buffer]
	out := make([][]float64, a.Count)
	for e := range out {
		out[e] = make([]float64, n)
		for c := 0; c < n; c++ {
			o := v.Offset + a.Offset + e*stride + c*size
			var x float64
			switch a.Component {
			case 5126:
				x = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[o:])))
			case 5125:
				x = float64(binary.LittleEndian.Uint32(b[o:]))
			case 5123:
				x = float64(binary.LittleEndian.Uint16(b[o:]))
				if a.Normalized {
					x /= 65535
				}
			case 5121:
				x = float64(b[o])
				if a.Normalized {
					x /= 255
				}
			}
			out[e][c] = x
		}
	}
	return out
}

type mat [16]float64 // column-major

func (a mat) mul(b mat) mat {
	var m mat
	for c := 0; c < 4; c++ {
		for r := 0; r < 4; r++ {
			for k := 0; k < 4; k++ {
				m[c*4+r] += a[k*4+r] * b[c*4+k]
			}
		}
	}
	return m
}

func (a mat) apply(p [3]float64) [3]float64 {
	var o [3]float64
	for r := 0; r < 3; r++ {
		o[r] = a[r]*p[0] + a[4+r]*p[1] + a[8+r]*p[2] + a[12+r]
	}
	return o
}

func trs(t, q, s []float64) mat {
	x, y, z, w := q[0], q[1], q[2], q[3]
	l := math.Sqrt(x*x + y*y + z*z + w*w)
	x, y, z, w = x/l, y/l, z/l, w/l
	return mat{
		(1 - 2*(y*y+z*z)) * s[0], 2 * (x*y + z*w) * s[0], 2 * (x*z - y*w) * s[0], 0,
		2 * (x*y - z*w) * s[1], (1 - 2*(x*x+z*z)) * s[1], 2 * (y*z + x*w) * s[1], 0,
		2 * (x*z + y*w) * s[2], 2 * (y*z - x*w) * s[2], (1 - 2*(x*x+y*y)) * s[2], 0,
		t[0], t[1], t[2], 1,
	}
}

// qmul multiplies quaternions (x, y, z, w).
func qmul(a, b []float64) []float64 {
	return []float64{
		a[3]*b[0] + a[0]*b[3] + a[1]*b[2] - a[2]*b[1],
		a[3]*b[1] - a[0]*b[2] + a[1]*b[3] + a[2]*b[0],
		a[3]*b[2] + a[0]*b[1] - a[1]*b[0] + a[2]*b[3],
		a[3]*b[3] - a[0]*b[0] - a[1]*b[1] - a[2]*b[2],
	}
}

// qslerp is q0 (q0^-1 q1)^u, taking the shorter way.
func qslerp(q0, q1 []float64, u float64) []float64 {
	unit := func(q []float64) []float64 {
		l := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
		return []float64{q[0] / l, q[1] / l, q[2] / l, q[3] / l}
	}
	q0, q1 = unit(q0), unit(q1)
	if q0[0]*q1[0]+q0[1]*q1[1]+q0[2]*q1[2]+q0[3]*q1[3] < 0 {
		q1 = []float64{-q1[0], -q1[1], -q1[2], -q1[3]}
	}
	d := qmul([]float64{-q0[0], -q0[1], -q0[2], q0[3]}, q1)
	s := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
	if s < 1e-12 {
		return q0
	}
	half := math.Atan2(s, d[3]) * u
	k := math.Sin(half) / s
	return qmul(q0, []float64{d[0] * k, d[1] * k, d[2] * k, math.Cos(half)})
}

// sample evaluates one sampler at t (clamped).
func (d *refDoc) sample(a, si int, t float64) []float64 {
	s := d.Animations[a].Samplers[si]
	in := d.read(s.Input)
	out := d.read(s.Output)
	cubic := s.Interp == "CUBICSPLINE"
	n := len(in)
	width := len(out[0])
	if len(out) != n && !cubic {
		// weights: several elements per key.
		width = len(out) / n
	}
	if cubic {
		width = len(out) / n / 3 * len(out[0])
	}
	flat := make([]float64, 0, len(out)*len(out[0]))
	for _, e := range out {
		flat = append(flat, e...)
	}
	key := func(k, part int) []float64 { // part: 0 in, 1 value, 2 out (cubic)
		if cubic {
			return flat[(3*k+part)*width : (3*k+part+1)*width]
		}
		return flat[k*width : (k+1)*width]
	}
	valIdx := 0
	if cubic {
		valIdx = 1
	}
	if t <= in[0][0] {
		return key(0, valIdx)
	}
	if t >= in[n-1][0] {
		return key(n-1, valIdx)
	}
	k := 0
	for in[k+1][0] <= t {
		k++
	}
	t0, t1 := in[k][0], in[k+1][0]
	u := (t - t0) / (t1 - t0)
	res := make([]float64, width)
	switch s.Interp {
	case "STEP":
		copy(res, key(k, 0))
	case "CUBICSPLINE":
		dt := t1 - t0
		for i := range res {
			p0, m0, p1, m1 := key(k, 1)[i], dt*key(k, 2)[i], key(k+1, 1)[i], dt*key(k+1, 0)[i]
			res[i] = (2*u*u*u-3*u*u+1)*p0 + (u*u*u-2*u*u+u)*m0 + (-2*u*u*u+3*u*u)*p1 + (u*u*u-u*u)*m1
		}
	default:
		if width == 4 && d.isRotation(a, si) {
			return qslerp(key(k, 0), key(k+1, 0), u)
		}
		for i := range res {
			res[i] = (1-u)*key(k, 0)[i] + u*key(k+1, 0)[i]
		}
	}
	return res
}

func (d *refDoc) isRotation(a, si int) bool {
	for _, c := range d.Animations[a].Channels {
		if c.Sampler == si && c.Target.Path == "rotation" {
			return true
		}
	}
	return false
}

// bounds poses the document with animation a at t (a < 0: rest).
func (d *refDoc) bounds(a int, t float64) (lo, hi [3]float64) {
	type local struct{ t, r, s, w []float64 }
	loc := make([]local, len(d.Nodes))
	for i, n := range d.Nodes {
		loc[i] = local{[]float64{0, 0, 0}, []float64{0, 0, 0, 1}, []float64{1, 1, 1}, n.Weights}
		if n.Translation != nil {
			loc[i].t = n.Translation
		}
		if n.Rotation != nil {
			loc[i].r = n.Rotation
		}
		if n.Scale != nil {
			loc[i].s = n.Scale
		}
	}
	if a >= 0 {
		for _, c := range d.Animations[a].Channels {
			v := d.sample(a, c.Sampler, t)
			l := &loc[c.Target.Node]
			switch c.Target.Path {
			case "translation":
				l.t = v
			case "rotation":
				l.r = v
			case "scale":
				l.s = v
			case "weights":
				l.w = v
			}
		}
	}
	world := make([]mat, len(d.Nodes))
	var walk func(n int, parent mat)
	walk = func(n int, parent mat) {
		m := trs(loc[n].t, loc[n].r, loc[n].s)
		if mm := d.Nodes[n].Matrix; mm != nil {
			copy(m[:], mm)
		}
		world[n] = parent.mul(m)
		for _, c := range d.Nodes[n].Children {
			walk(c, world[n])
		}
	}
	ident := mat{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}
	scene := 0
	if d.Scene != nil {
		scene = *d.Scene
	}
	for _, r := range d.Scenes[scene].Nodes {
		walk(r, ident)
	}
	for k := 0; k < 3; k++ {
		lo[k], hi[k] = math.Inf(1), math.Inf(-1)
	}
	var visit func(n int)
	visit = func(n int) {
		node := d.Nodes[n]
		for _, c := range node.Children {
			visit(c)
		}
		if node.Mesh == nil {
			return
		}
		mesh := d.Meshes[*node.Mesh]
		w := loc[n].w
		if w == nil {
			w = mesh.Weights
		}
		var joints []mat
		if node.Skin != nil {
			sk := d.Skins[*node.Skin]
			ibm := d.read(*sk.IBM)
			for k, j := range sk.Joints {
				var im mat
				copy(im[:], ibm[k])
				joints = append(joints, world[j].mul(im))
			}
		}
		for _, pr := range mesh.Primitives {
			pos := d.read(pr.Attributes["POSITION"])
			var targets [][][]float64
			for _, tg := range pr.Targets {
				if i, ok := tg["POSITION"]; ok {
					targets = append(targets, d.read(i))
				} else {
					targets = append(targets, nil)
				}
			}
			var js, ws [][][]float64
			for _, set := range []string{"0", "1"} {
				if i, ok := pr.Attributes["JOINTS_"+set]; ok && joints != nil {
					js = append(js, d.read(i))
					ws = append(ws, d.read(pr.Attributes["WEIGHTS_"+set]))
				}
			}
			used := map[int]bool{}
			if pr.Indices != nil {
				for _, e := range d.read(*pr.Indices) {
					used[int(e[0])] = true
				}
			} else {
				for i := range pos {
					used[i] = true
				}
			}
			for v := range used {
				p := [3]float64{pos[v][0], pos[v][1], pos[v][2]}
				for ti, tg := range targets {
					if tg != nil && ti < len(w) {
						for k := 0; k < 3; k++ {
							p[k] += w[ti] * tg[v][k]
						}
					}
				}
				var q [3]float64
				if js != nil {
					for s := range js {
						for k := 0; k < 4; k++ {
							r := joints[int(js[s][v][k])].apply(p)
							for c := 0; c < 3; c++ {
								q[c] += ws[s][v][k] * r[c]
							}
						}
					}
				} else {
					q = world[n].apply(p)
				}
				for k := 0; k < 3; k++ {
					lo[k], hi[k] = math.Min(lo[k], q[k]), math.Max(hi[k], q[k])
				}
			}
		}
	}
	for _, r := range d.Scenes[scene].Nodes {
		visit(r)
	}
	return lo, hi
}

func loadRef(t *testing.T, path string) *refDoc {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var d refDoc
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	for _, b := range d.Buffers {
		raw, err := os.ReadFile(filepath.Join(filepath.Dir(path), b.URI))
		if err != nil {
			t.Fatal(err)
		}
		d.bufs = append(d.bufs, raw)
	}
	return &d
}

// TestCorpusPosedBounds compares the package's posed bounds with the
// reference's for the sample models, at rest and at several times of
// their first animation.
func TestCorpusPosedBounds(t *testing.T) {
	dir := testcorpus.Dir(t)
	models := []string{"SimpleSkin", "RiggedSimple", "Fox", "SimpleMorph", "AnimatedMorphCube", "MorphStressTest", "AnimatedCube", "BoxAnimated", "InterpolationTest"}
	for _, name := range models {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, "gltf-sample-assets", "Models", name, "glTF", name+".gltf")
			if _, err := os.Stat(path); err != nil {
				t.Skipf("%s not in the corpus", path)
			}
			ref := loadRef(t, path)
			d, err := scene.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			m := NewModel(d)
			if len(m.Problems) > 0 {
				t.Errorf("problems: %v", m.Problems)
			}
			check := func(label string, p *Pose, a int, tt float64) {
				lo, hi, ok := m.Bounds(p)
				rlo, rhi := ref.bounds(a, tt)
				size := 0.0
				for k := 0; k < 3; k++ {
					size = math.Max(size, rhi[k]-rlo[k])
				}
				tol := 1e-5 * math.Max(size, 1)
				for k := 0; k < 3; k++ {
					if !ok || math.Abs(lo[k]-rlo[k]) > tol || math.Abs(hi[k]-rhi[k]) > tol {
						t.Errorf("%s: bounds %v %v, reference %v %v", label, lo, hi, rlo, rhi)
						return
					}
				}
			}
			check("rest", m.Rest(), -1, 0)
			if len(m.Animations) == 0 {
				t.Fatal("no animations")
			}
			end := m.Animations[0].End
			for _, f := range []float64{0, 0.13, 0.37, 0.5, 0.81, 1, 1.5} {
				tt := f * end
				check("t="+ftoa(tt), m.Pose(0, tt), 0, tt)
			}
			if name == "SimpleMorph" {
				lo, hi, _ := m.Bounds(m.Rest())
				if h := hi[1] - lo[1]; math.Abs(h-1.5) > 1e-6 {
					t.Errorf("SimpleMorph's triangle is %g high, want 1.5", h)
				}
			}
		})
	}
}

func ftoa(f float64) string { b, _ := json.Marshal(f); return string(b) }
