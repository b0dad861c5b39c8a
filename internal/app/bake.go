package app

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"

	"physview/scene"
	"physview/sim"
)

// Bake defaults: keys at 60 Hz, reduced to stay within 1 mm and 0.1°.
const (
	DefaultBakeRate      = 60
	DefaultBakeTolerance = 0.001
	DefaultBakeAngle     = 0.1 * math.Pi / 180
	// BakeAnimationName names the animation a bake adds.
	BakeAnimationName = "Simulation"
)

// BakeOptions tune Bake. The zero value bakes at the defaults.
type BakeOptions struct {
	// Rate is the sampling rate (Hz; DefaultBakeRate when 0).
	Rate float64
	// Tolerance is how far (m) the reduced translation keys may stray
	// from the samples (DefaultBakeTolerance when 0; negative keeps every
	// sample); Angle is the same for rotations (radians).
	Tolerance, Angle float64
	// StripPhysics removes every body and joint from the file (for plain
	// viewers) instead of making the baked bodies kinematic.
	StripPhysics bool
	// Name names the animation (BakeAnimationName when "").
	Name string
}

// BakeStats says what a bake wrote.
type BakeStats struct {
	// Bodies is the number of baked (dynamic) bodies; Samples the samples
	// taken of each; Keys the keys written over all channels.
	Bodies, Samples, Keys int
	// Duration is the animation's length (s).
	Duration float64
}

// Bake turns rec, a recording of a simulation of d, into one undoable
// edit of d: a new animation (BakeOptions.Name) with a translation and a
// rotation channel per dynamic body (LINEAR, in the node's parent space,
// sampled at the rate and reduced to the keys needed to stay within the
// tolerance; a body at rest keeps 2 keys), and the baked bodies made
// kinematic with no start velocity, since the animation now moves them
// (KHR_physics_rigid_bodies: animated transforms take priority over the
// simulation), or, with StripPhysics, every body and joint removed.
func Bake(d *scene.Document, rec *sim.Recording, opt BakeOptions) (scene.Edit, BakeStats, error) {
	var st BakeStats
	if rec.Len() < 1 {
		return nil, st, errors.New("bake: the recording is empty: play the scene first")
	}
	if opt.Rate == 0 {
		opt.Rate = DefaultBakeRate
	}
	if !(opt.Rate > 0) || math.IsInf(opt.Rate, 0) {
		return nil, st, fmt.Errorf("bake: rate %g Hz must be a positive number", opt.Rate)
	}
	if opt.Tolerance == 0 {
		opt.Tolerance = DefaultBakeTolerance
	}
	if opt.Angle == 0 {
		opt.Angle = DefaultBakeAngle
	}
	if opt.Name == "" {
		opt.Name = BakeAnimationName
	}
	var baked []int // indices into rec's bodies
	body := map[int]int{}
	for b, n := range rec.Nodes {
		if n < 0 || n >= len(d.GLTF.Nodes) {
			return nil, st, fmt.Errorf("bake: the recording's node %d is not in the file (it changed since the run)", n)
		}
		body[n] = b
		if rec.Types[b] == scene.MotionDynamic {
			baked = append(baked, b)
		}
	}
	if len(baked) == 0 {
		return nil, st, errors.New("bake: the recording has no dynamic bodies")
	}
	times := bakeTimes(rec.End(), opt.Rate)
	st.Bodies, st.Samples, st.Duration = len(baked), len(times), times[len(times)-1]

	// The world pose of every node at each sample time, from the recorded
	// bodies down (a body's child follows it), as parent-space keys.
	trans := make([][]mgl64.Vec3, len(baked))
	rots := make([][]mgl64.Quat, len(baked))
	for k := range baked {
		trans[k] = make([]mgl64.Vec3, len(times))
		rots[k] = make([]mgl64.Quat, len(times))
	}
	for i, t := range times {
		w := worldAt(d, rec, body, t)
		for k, b := range baked {
			n := rec.Nodes[b]
			p, q := w.pose(n)
			if par := d.Parent(n); par >= 0 {
				local := w.matrix(par).Inv().Mul4(mgl64.Translate3D(p[0], p[1], p[2]).Mul4(q.Mat4()))
				p = local.Col(3).Vec3()
				q = rotationOf(local)
			}
			if i > 0 && q.Dot(rots[k][i-1]) < 0 {
				q = q.Scale(-1) // the short way round for LINEAR's slerp
			}
			trans[k][i], rots[k][i] = p, q
		}
	}

	enc := &animEncoder{inputs: map[string]int{}}
	anim := gltf.Animation{Name: opt.Name}
	for k, b := range baked {
		node := rec.Nodes[b]
		tk := reduce(len(times), func(a, c int) bool {
			return translationFits(times, trans[k], a, c, opt.Tolerance)
		})
		rk := reduce(len(times), func(a, c int) bool {
			return rotationFits(times, rots[k], a, c, opt.Angle)
		})
		for _, ch := range []struct {
			keys []int
			path gltf.TRSProperty
			val  func(int) []float64
		}{
			{tk, gltf.TRSTranslation, func(i int) []float64 { return trans[k][i][:] }},
			{rk, gltf.TRSRotation, func(i int) []float64 {
				q := rots[k][i].Normalize()
				return []float64{q.V[0], q.V[1], q.V[2], q.W}
			}},
		} {
			in := enc.input(times, ch.keys)
			out := enc.output(ch.keys, ch.val)
			anim.Samplers = append(anim.Samplers, &gltf.AnimationSampler{Input: in, Output: out, Interpolation: gltf.InterpolationLinear})
			n := node
			anim.Channels = append(anim.Channels, &gltf.AnimationChannel{Sampler: len(anim.Samplers) - 1, Target: gltf.AnimationChannelTarget{Node: &n, Path: ch.path}})
			st.Keys += len(ch.keys)
		}
	}
	edits := []scene.Edit{d.AddAnimationEdit(scene.NewAnimation{Animation: anim, Data: enc.data, Views: enc.views, Accessors: enc.accessors}, "Bake simulation")}
	if opt.StripPhysics {
		for n, ne := range d.Nodes {
			if ne.Body != nil {
				edits = append(edits, scene.SetBody{Node: n, Body: nil, Label: "Strip physics"})
			}
			if ne.Joint != nil {
				edits = append(edits, scene.SetNodeJoint{Node: n, Joint: nil, Label: "Strip physics"})
			}
		}
	} else {
		for _, b := range baked {
			n := rec.Nodes[b]
			ne := d.Nodes[n]
			if ne.Body == nil || ne.Body.Motion == nil {
				continue
			}
			m := *ne.Body.Motion
			m.Type = scene.MotionKinematic
			m.LinearVelocity, m.AngularVelocity = [3]float64{}, [3]float64{}
			edits = append(edits, d.SetMotionEdit(n, &m, "Bake simulation"))
		}
	}
	return scene.Batch{Label: fmt.Sprintf("Bake simulation (%d bodies, %.3g s)", len(baked), st.Duration), Edits: edits}, st, nil
}

// bakeTimes are the sample times: every 1/rate s from 0, and the end.
func bakeTimes(end, rate float64) []float64 {
	n := int(math.Floor(end*rate + 1e-9))
	out := make([]float64, 0, n+2)
	for i := 0; i <= n; i++ {
		out = append(out, float64(i)/rate)
	}
	if end-out[len(out)-1] > 1e-9 {
		out = append(out, end)
	}
	return out
}

// reduce keeps the samples (indices out of n) that linear interpolation
// needs: fits(a, c) says whether every sample between kept samples a and
// c is close enough to the interpolation from a to c. From each kept
// sample it finds the furthest next one that fits (growing by doubling,
// then bisecting), always keeping the first and last: a body at rest
// keeps 2 keys.
func reduce(n int, fits func(a, c int) bool) []int {
	if n == 1 {
		return []int{0}
	}
	keep := []int{0}
	a := 0
	for a < n-1 {
		good, step := a+1, 1
		for good+step <= n-1 && fits(a, good+step) {
			good += step
			step *= 2
		}
		lo, hi := good, min(good+step, n-1)
		if hi > lo && fits(a, hi) {
			lo = hi
		}
		for hi-lo > 1 {
			mid := (lo + hi) / 2
			if fits(a, mid) {
				lo = mid
			} else {
				hi = mid
			}
		}
		keep = append(keep, lo)
		a = lo
	}
	return keep
}

// translationFits reports whether the straight line from sample a to c
// passes within tol (m) of every sample between them at its time (tol < 0:
// never).
func translationFits(times []float64, p []mgl64.Vec3, a, c int, tol float64) bool {
	if tol < 0 {
		return c == a+1
	}
	d := p[c].Sub(p[a])
	span := times[c] - times[a]
	for i := a + 1; i < c; i++ {
		u := (times[i] - times[a]) / span
		if p[a].Add(d.Mul(u)).Sub(p[i]).LenSqr() > tol*tol {
			return false
		}
	}
	return true
}

// rotationFits reports whether the slerp from sample a to c (what LINEAR
// means for a rotation) stays within angle (radians) of every sample
// between them at its time (angle < 0: never).
func rotationFits(times []float64, q []mgl64.Quat, a, c int, angle float64) bool {
	if angle < 0 {
		return c == a+1
	}
	qa, qc := q[a], q[c]
	dot := qa.Dot(qc)
	if dot < 0 {
		qc, dot = qc.Scale(-1), -dot
	}
	theta := math.Acos(math.Min(1, dot))
	sin := math.Sin(theta)
	// |q·s| >= cos(angle/2) is the angle test without an acos a sample.
	limit := math.Cos(angle / 2)
	span := times[c] - times[a]
	for i := a + 1; i < c; i++ {
		u := (times[i] - times[a]) / span
		var m mgl64.Quat
		if sin < 1e-9 {
			m = mgl64.QuatNlerp(qa, qc, u)
		} else {
			wa, wc := math.Sin((1-u)*theta)/sin, math.Sin(u*theta)/sin
			m = qa.Scale(wa).Add(qc.Scale(wc))
		}
		if math.Abs(m.Dot(q[i])) < limit*m.Len()*q[i].Len() {
			return false
		}
	}
	return true
}

// rotationOf returns the rotation of a matrix with scale.
func rotationOf(m mgl64.Mat4) mgl64.Quat {
	var r mgl64.Mat3
	for k := 0; k < 3; k++ {
		c := m.Col(k).Vec3()
		if l := c.Len(); l > 0 {
			c = c.Mul(1 / l)
		}
		r.SetCol(k, c)
	}
	return mgl64.Mat4ToQuat(r.Mat4()).Normalize()
}

// poses is the world state of a document at one time of a recording.
type poses struct {
	d     *scene.Document
	rec   *sim.Recording
	body  map[int]int
	f0    int
	u     float64 // between frame f0 and f0+1
	world map[int]mgl64.Mat4
}

func worldAt(d *scene.Document, rec *sim.Recording, body map[int]int, t float64) *poses {
	f := rec.FrameAt(t)
	u := 0.0
	if f+1 < rec.Len() {
		t0, t1 := rec.Time(f), rec.Time(f+1)
		u = math.Max(0, math.Min(1, (t-t0)/(t1-t0)))
	}
	if u < 1e-9 {
		u = 0
	}
	return &poses{d: d, rec: rec, body: body, f0: f, u: u, world: map[int]mgl64.Mat4{}}
}

// pose returns a recorded body's world position and rotation, between two
// frames interpolated linearly and by slerp.
func (p *poses) pose(n int) (mgl64.Vec3, mgl64.Quat) {
	b := p.body[n]
	s := p.rec.Sample(p.f0, b)
	if p.u == 0 {
		return s.Position, s.Rotation.Normalize()
	}
	e := p.rec.Sample(p.f0+1, b)
	return s.Position.Add(e.Position.Sub(s.Position).Mul(p.u)), mgl64.QuatSlerp(s.Rotation.Normalize(), e.Rotation.Normalize(), p.u).Normalize()
}

// matrix returns node n's world matrix: a recorded body's pose with the
// node's own scale, any other node's transform under its parent's.
func (p *poses) matrix(n int) mgl64.Mat4 {
	if m, ok := p.world[n]; ok {
		return m
	}
	var m mgl64.Mat4
	if _, ok := p.body[n]; ok {
		pos, q := p.pose(n)
		sc := p.d.NodeTransform(n).Scale
		m = mgl64.Translate3D(pos[0], pos[1], pos[2]).Mul4(q.Mat4()).Mul4(mgl64.Scale3D(sc[0], sc[1], sc[2]))
	} else {
		m = p.d.LocalMatrix(n)
		if par := p.d.Parent(n); par >= 0 {
			m = p.matrix(par).Mul4(m)
		}
	}
	p.world[n] = m
	return m
}

// animEncoder lays out the animation's accessors: float keys, one input
// accessor per distinct key list.
type animEncoder struct {
	data      []byte
	views     []gltf.BufferView
	accessors []gltf.Accessor
	inputs    map[string]int
}

func (e *animEncoder) add(vals []float32, typ gltf.AccessorType, count int, lo, hi []float64) int {
	off := len(e.data)
	for _, v := range vals {
		e.data = binary.LittleEndian.AppendUint32(e.data, math.Float32bits(v))
	}
	e.views = append(e.views, gltf.BufferView{ByteOffset: off, ByteLength: 4 * len(vals)})
	bv := len(e.views) - 1
	e.accessors = append(e.accessors, gltf.Accessor{BufferView: &bv, ComponentType: gltf.ComponentFloat, Count: count, Type: typ, Min: lo, Max: hi})
	return len(e.accessors) - 1
}

// input returns the accessor of the key times (shared by equal lists).
func (e *animEncoder) input(times []float64, keys []int) int {
	vals := make([]float32, len(keys))
	for i, k := range keys {
		vals[i] = float32(times[k])
	}
	id := fmt.Sprint(vals)
	if a, ok := e.inputs[id]; ok {
		return a
	}
	a := e.add(vals, gltf.AccessorScalar, len(vals), []float64{float64(vals[0])}, []float64{float64(vals[len(vals)-1])})
	e.inputs[id] = a
	return a
}

// output returns a new accessor of the keys' values (VEC3 or VEC4).
func (e *animEncoder) output(keys []int, val func(int) []float64) int {
	var vals []float32
	width := 0
	for _, k := range keys {
		v := val(k)
		width = len(v)
		for _, x := range v {
			vals = append(vals, float32(x))
		}
	}
	typ := gltf.AccessorVec3
	if width == 4 {
		typ = gltf.AccessorVec4
	}
	return e.add(vals, typ, len(keys), nil, nil)
}
