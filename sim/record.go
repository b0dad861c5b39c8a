package sim

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
)

// DefaultRecordBudget is the memory (bytes) a Recording holds before it
// decimates: 1 GiB keeps 4,000 bodies for 60 s at 60 Hz (every fourth
// step of 1/240 s), or 1,000 bodies for 60 s at every step.
const DefaultRecordBudget = 1 << 30

// maxRecordInterval is the coarsest a Recording decimates to (s): past it,
// recording stops (the simulation goes on).
const maxRecordInterval = 1.0 / 30

// sampleBytes is what one body costs in one frame: a float64 position,
// float32 rotation and velocities, a contact count and a sleeping bit.
const sampleBytes = 3*8 + 10*4 + 2 + 1

// BodySample is one body's recorded state at one frame, in world space:
// the node origin's position, the rotation, the centre of mass's linear
// velocity and the angular velocity (rad/s about world axes), the contact
// points it got that step (a sleeping body keeps the count it fell asleep
// with: ODE makes no contacts for it), and whether ODE had put it to
// sleep.
type BodySample struct {
	Position        mgl64.Vec3
	Rotation        mgl64.Quat
	LinearVelocity  mgl64.Vec3
	AngularVelocity mgl64.Vec3
	Contacts        int
	Asleep          bool
}

// frame is one recorded step.
type frame struct {
	step     int
	pos      []float64 // 3 a body
	rest     []float32 // rotation x, y, z, w, linear and angular velocity: 10 a body
	contacts []uint16
	asleep   []uint64 // one bit a body
}

// Recording keeps the bodies' states of a run, step by step, within a
// memory budget: when it is reached the recording keeps every second
// frame and records half as often (Every doubles), and once a frame would
// be further apart than 1/30 s it stops (Stopped) and says so in Note.
// Positions are float64 (exact); rotations and velocities float32.
type Recording struct {
	// Nodes, Names and Types describe the bodies, in Sim.Bodies' order.
	Nodes []int
	Names []string
	Types []scene.MotionType
	// Step is the simulation's step (s); Every how many steps apart the
	// frames are (1 until the budget decimated the recording).
	Step  float64
	Every int
	// Budget is the most bytes the frames may take (DefaultRecordBudget
	// when the constructor is given 0).
	Budget int
	// Stopped is set once the budget stopped the recording; Note says why
	// it was decimated or stopped ("" while it holds every step).
	Stopped bool
	Note    string

	frames []*frame
	bytes  int
	// flags and counts are Add's scratch for ODE's per-body flags.
	flags  []byte
	counts []int32
	// spare are frames dropped by decimation or Truncate, reused.
	spare []*frame
	// ahead brings frames prepared on another goroutine (prefetch); done
	// stops it.
	ahead chan *frame
	done  chan struct{}
}

// NewRecording starts an empty recording of s's bodies; Add records the
// states. A recording of many bodies prepares its memory on a goroutine
// of its own: Close it when done.
func NewRecording(s *Sim, budget int) *Recording {
	r := &Recording{Step: s.StepSize(), Every: 1, Budget: budget}
	for _, b := range s.Bodies {
		r.Nodes = append(r.Nodes, b.Node)
		r.Names = append(r.Names, b.Name)
		r.Types = append(r.Types, b.Type)
	}
	if r.Budget <= 0 {
		r.Budget = DefaultRecordBudget
	}
	r.prefetch()
	return r
}

// NewRecordingOf starts an empty recording of the bodies on nodes (names
// and types alike, one each) at step seconds a step, for a recording read
// from elsewhere or made up (AddFrame fills it).
func NewRecordingOf(nodes []int, names []string, types []scene.MotionType, step float64, budget int) *Recording {
	r := &Recording{Nodes: nodes, Names: names, Types: types, Step: step, Every: 1, Budget: budget}
	if r.Budget <= 0 {
		r.Budget = DefaultRecordBudget
	}
	return r
}

// AddFrame records the bodies' states at step (one sample a body, after
// the frames already there), within the budget as Add does. It reports
// whether the frame was added.
func (r *Recording) AddFrame(step int, samples []BodySample) bool {
	if len(samples) != len(r.Nodes) {
		return false
	}
	f := r.reserve(step)
	if f == nil {
		return false
	}
	for i, b := range samples {
		r.put(f, i, b.Position, b.Rotation, b.LinearVelocity, b.AngularVelocity)
		f.contacts[i] = uint16(min(max(b.Contacts, 0), math.MaxUint16))
		if b.Asleep {
			f.asleep[i/64] |= 1 << (i % 64)
		}
	}
	r.commit(f)
	return true
}

// Len returns the number of frames.
func (r *Recording) Len() int {
	if r == nil {
		return 0
	}
	return len(r.frames)
}

// Bytes returns the memory the frames take.
func (r *Recording) Bytes() int { return r.bytes }

// FrameStep returns the simulation step frame i was taken at.
func (r *Recording) FrameStep(i int) int { return r.frames[i].step }

// Time returns the simulated time of frame i (s).
func (r *Recording) Time(i int) float64 { return float64(r.frames[i].step) * r.Step }

// End returns the time of the last frame (0 when empty).
func (r *Recording) End() float64 {
	if r.Len() == 0 {
		return 0
	}
	return r.Time(len(r.frames) - 1)
}

// FrameAt returns the last frame at or before time t (the first for t
// before it; -1 when empty).
func (r *Recording) FrameAt(t float64) int {
	n := r.Len()
	if n == 0 {
		return -1
	}
	step := int(math.Floor(t/r.Step + 1e-6))
	lo, hi := 0, n-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if r.frames[mid].step <= step {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// FrameOfStep returns the frame taken at step, or -1.
func (r *Recording) FrameOfStep(step int) int {
	i := r.FrameAt(float64(step) * r.Step)
	if i >= 0 && r.frames[i].step == step {
		return i
	}
	return -1
}

// Sample returns body b's state at frame i.
func (r *Recording) Sample(i, b int) BodySample {
	f := r.frames[i]
	p, q := f.pos[3*b:3*b+3], f.rest[10*b:10*b+10]
	return BodySample{
		Position:        mgl64.Vec3{p[0], p[1], p[2]},
		Rotation:        mgl64.Quat{W: float64(q[3]), V: mgl64.Vec3{float64(q[0]), float64(q[1]), float64(q[2])}},
		LinearVelocity:  mgl64.Vec3{float64(q[4]), float64(q[5]), float64(q[6])},
		AngularVelocity: mgl64.Vec3{float64(q[7]), float64(q[8]), float64(q[9])},
		Contacts:        int(f.contacts[b]),
		Asleep:          f.asleep[b/64]&(1<<(b%64)) != 0,
	}
}

// Add records s's state after its last step (or before the first), when
// the step falls on the recording's interval and the recording has not
// stopped. It reports whether a frame was added.
func (r *Recording) Add(s *Sim) bool {
	if len(s.Bodies) != len(r.Nodes) {
		return false
	}
	f := r.reserve(s.Steps)
	if f == nil {
		return false
	}
	for i, b := range s.Bodies {
		r.put(f, i, b.Position, b.Rotation, b.LinearVelocity, b.AngularVelocity)
	}
	if len(r.flags) != len(s.Bodies) {
		r.flags, r.counts = make([]byte, len(s.Bodies)), make([]int32, len(s.Bodies))
	}
	s.bodyFlagsInto(f.contacts, f.asleep, r.flags, r.counts)
	if n := len(r.frames); n > 0 {
		// ODE makes no contacts for a sleeping body: it keeps those it
		// had when it fell asleep.
		prev := r.frames[n-1]
		for i := range f.contacts {
			if f.contacts[i] == 0 && f.asleep[i/64]&(1<<(i%64)) != 0 {
				f.contacts[i] = prev.contacts[i]
			}
		}
	}
	r.commit(f)
	return true
}

// reserve returns a frame to fill for step, or nil when the step is not
// recorded (off the interval, not after the last frame, or the budget
// stopped the recording).
func (r *Recording) reserve(step int) *frame {
	if r.Stopped || step%r.Every != 0 {
		return nil
	}
	if n := len(r.frames); n > 0 && r.frames[n-1].step >= step {
		return nil
	}
	for r.bytes+r.frameBytes() > r.Budget {
		if !r.decimate() || step%r.Every != 0 {
			return nil
		}
	}
	f := r.newFrame(len(r.Nodes))
	f.step = step
	return f
}

// frameBytes is what one frame takes.
func (r *Recording) frameBytes() int { return len(r.Nodes)*sampleBytes + 64 }

func (r *Recording) put(f *frame, i int, p mgl64.Vec3, rot mgl64.Quat, v, w mgl64.Vec3) {
	copy(f.pos[3*i:], p[:])
	q := f.rest[10*i : 10*i+10]
	q[0], q[1], q[2], q[3] = float32(rot.V[0]), float32(rot.V[1]), float32(rot.V[2]), float32(rot.W)
	for k := 0; k < 3; k++ {
		q[4+k] = float32(v[k])
		q[7+k] = float32(w[k])
	}
}

func (r *Recording) commit(f *frame) {
	r.frames = append(r.frames, f)
	r.bytes += r.frameBytes()
}

func (r *Recording) newFrame(nb int) *frame {
	if k := len(r.spare); k > 0 {
		f := r.spare[k-1]
		r.spare = r.spare[:k-1]
		clear(f.asleep)
		return f
	}
	if r.ahead != nil {
		select {
		case f := <-r.ahead:
			if f != nil && len(f.contacts) == nb {
				return f
			}
		default:
		}
	}
	return allocFrame(nb)
}

func allocFrame(nb int) *frame {
	return &frame{pos: make([]float64, 3*nb), rest: make([]float32, 10*nb), contacts: make([]uint16, nb), asleep: make([]uint64, (nb+63)/64)}
}

// prefetchBodies is the size from which a recording prepares its frames
// ahead on a goroutine of its own: writing a frame into memory fresh from
// the system costs a page fault every 4 KB (about 0.4 ms a step for 4,000
// bodies), which the goroutine pays on another core instead of the
// simulation's.
const prefetchBodies = 500

// framesAhead is how many frames the goroutine keeps ready.
const framesAhead = 4

// prefetch starts the goroutine that prepares frames ahead (Close stops
// it).
func (r *Recording) prefetch() {
	nb := len(r.Nodes)
	if nb < prefetchBodies || r.ahead != nil {
		return
	}
	r.ahead = make(chan *frame, framesAhead)
	r.done = make(chan struct{})
	go func(ahead chan<- *frame, done <-chan struct{}) {
		defer func() {
			// Only allocation can fail here: the recording then
			// allocates its frames itself.
			_ = recover()
		}()
		for {
			f := allocFrame(nb)
			// Touch every page now (fresh memory is not zeroed by Go:
			// it faults on the first write).
			for i := range f.pos {
				f.pos[i] = 0
			}
			for i := range f.rest {
				f.rest[i] = 0
			}
			select {
			case ahead <- f:
			case <-done:
				return
			}
		}
	}(r.ahead, r.done)
}

// Close stops the goroutine preparing frames; the recording stays
// readable (and Add still works, allocating as it goes).
func (r *Recording) Close() {
	if r != nil && r.done != nil {
		close(r.done)
		r.done, r.ahead = nil, nil
	}
}

// decimate keeps every second frame (by step) and doubles Every, or stops
// the recording when frames would be more than maxRecordInterval apart.
// It reports whether there is room again.
func (r *Recording) decimate() bool {
	if float64(2*r.Every)*r.Step > maxRecordInterval+1e-12 || len(r.frames) < 2 {
		r.Stopped = true
		r.Close()
		r.Note = fmt.Sprintf("recording stopped at t = %.3f s: the memory budget (%s) is full; Play goes on", r.End(), megabytes(r.Budget))
		return false
	}
	r.Every *= 2
	kept := r.frames[:0]
	for _, f := range r.frames {
		if f.step%r.Every == 0 {
			kept = append(kept, f)
		} else {
			r.spare = append(r.spare, f)
		}
	}
	clear(r.frames[len(kept):])
	r.frames = kept
	r.bytes = r.frameBytes() * len(kept)
	// The spare frames are reused, not counted: drop them beyond a few
	// so that the budget is what memory holds.
	if len(r.spare) > 4 {
		clear(r.spare[4:])
		r.spare = r.spare[:4]
	}
	r.Note = fmt.Sprintf("recording decimated to every %d steps (%.4g Hz) to stay within its memory budget (%s)", r.Every, 1/(float64(r.Every)*r.Step), megabytes(r.Budget))
	return true
}

// Truncate drops the frames after frame i (Continue from here).
func (r *Recording) Truncate(i int) {
	if i < 0 || i >= len(r.frames) {
		return
	}
	clear(r.frames[i+1:])
	r.frames = r.frames[:i+1]
	r.bytes = r.frameBytes() * len(r.frames)
	r.Stopped = false
}

// bodyFlags fills each body's contact count (of the last collision pass)
// and sleeping bit.
func (s *Sim) bodyFlags(contacts []uint16, asleep []uint64) {
	n := len(s.Bodies)
	s.bodyFlagsInto(contacts, asleep, make([]byte, n), make([]int32, n))
}

// bodyFlagsInto is bodyFlags with ODE's answers read into a and c (one
// entry a body).
func (s *Sim) bodyFlagsInto(contacts []uint16, asleep []uint64, a []byte, c []int32) {
	n := len(s.Bodies)
	if s.w == nil || n == 0 {
		return
	}
	s.w.BodyFlags(a, c)
	for i := 0; i < n; i++ {
		contacts[i] = uint16(min(c[i], math.MaxUint16))
		if a[i] != 0 {
			asleep[i/64] |= 1 << (i % 64)
		}
	}
}

// BodyContacts returns, per body (Bodies' order), the contact points it
// got in the last step and whether it sleeps.
func (s *Sim) BodyContacts() (contacts []int, asleep []bool) {
	n := len(s.Bodies)
	c16 := make([]uint16, n)
	bits := make([]uint64, (n+63)/64)
	s.bodyFlags(c16, bits)
	contacts, asleep = make([]int, n), make([]bool, n)
	for i := range c16 {
		contacts[i] = int(c16[i])
		asleep[i] = bits[i/64]&(1<<(i%64)) != 0
	}
	return contacts, asleep
}

// Hash returns a hex digest of the state: the step count and every body's
// node, position, rotation and velocities, bit for bit (SHA-256, first 16
// bytes). Two runs of the same file with the same options and ODE build
// give the same hash; any change to the trajectories changes it.
func (s *Sim) Hash() string {
	h := sha256.New()
	var buf [8]byte
	put := func(x float64) {
		if x == 0 {
			x = 0 // -0 and +0 hash alike
		}
		binary.LittleEndian.PutUint64(buf[:], math.Float64bits(x))
		h.Write(buf[:])
	}
	binary.LittleEndian.PutUint64(buf[:], uint64(s.Steps))
	h.Write(buf[:])
	for _, b := range s.Bodies {
		binary.LittleEndian.PutUint64(buf[:], uint64(b.Node))
		h.Write(buf[:])
		for _, v := range [][]float64{b.Position[:], b.Rotation.V[:], {b.Rotation.W}, b.LinearVelocity[:], b.AngularVelocity[:]} {
			for _, x := range v {
				put(x)
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// megabytes writes n bytes as "1024 MB" (or "0.0123 MB" below one).
func megabytes(n int) string {
	mb := float64(n) / (1 << 20)
	if mb >= 1 {
		return fmt.Sprintf("%.0f MB", mb)
	}
	return fmt.Sprintf("%.3g MB", mb)
}
