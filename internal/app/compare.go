package app

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/go-gl/mathgl/mgl64"

	"physview/scene"
	"physview/sim"
)

// DefaultCompareThreshold is how far (m) two engines' trajectories of a
// body may part before Compare reports it: 5 cm.
const DefaultCompareThreshold = 0.05

// restSpeed is the speed (m/s, and rad/s) under which a body counts as at
// rest for a comparison's restedAt.
const restSpeed = 0.05

// CompareOptions say how Compare runs the engines.
type CompareOptions struct {
	// Seconds to simulate, Step the fixed time step (sim.DefaultStep when 0).
	Seconds, Step float64
	// Threshold is the distance (m) at which two trajectories count as
	// parted (DefaultCompareThreshold when 0).
	Threshold float64
	// Animation is the animation kinematic bodies follow (-1: all).
	Animation int
	// Engines are the two engines compared (sim.Engines when empty).
	Engines []string
}

// Comparison is what Compare found: one entry per dynamic body.
type Comparison struct {
	Engines   []string         `json:"engines"`
	Time      float64          `json:"time"`
	Step      float64          `json:"step"`
	Threshold float64          `json:"threshold"`
	Bodies    []BodyComparison `json:"bodies"`
	// Parted counts the bodies whose trajectories parted.
	Parted int `json:"parted"`
	// Notes are each engine's warnings, prefixed with its name.
	Notes []string `json:"notes,omitempty"`
	// Tracks holds each engine's trajectory of each body (centre of mass,
	// one point every TrackEvery steps), for drawing: Tracks[e][i] is
	// engine e's track of Bodies[i].
	Tracks     [][][]mgl64.Vec3 `json:"-"`
	TrackEvery int              `json:"-"`
	// Poses holds, at the same points, each body's pose in each engine
	// (Poses[e][i][k]), for drawing both engines' bodies at a time.
	Poses [][][]Pose `json:"-"`
}

// Pose is where a body is: its node's origin and rotation in the world.
type Pose struct {
	Position mgl64.Vec3
	Rotation mgl64.Quat
}

// PoseAt returns body i's pose in engine e at time t (s), between the two
// track points around t; false when t is outside the comparison's run.
func (c *Comparison) PoseAt(e, i int, t float64) (Pose, bool) {
	if c == nil || e < 0 || e >= len(c.Poses) || i < 0 || i >= len(c.Poses[e]) || !(c.Step > 0) || c.TrackEvery <= 0 {
		return Pose{}, false
	}
	ps := c.Poses[e][i]
	dt := c.Step * float64(c.TrackEvery)
	x := t / dt
	if len(ps) == 0 || !(x >= -1e-9) || t > c.Time+c.Step/2 {
		return Pose{}, false
	}
	k := int(math.Floor(x))
	if k >= len(ps)-1 {
		return ps[len(ps)-1], true
	}
	k = max(k, 0)
	f := math.Min(1, math.Max(0, x-float64(k)))
	a, b := ps[k], ps[k+1]
	return Pose{a.Position.Add(b.Position.Sub(a.Position).Mul(f)), mgl64.QuatNlerp(a.Rotation, b.Rotation, f)}, true
}

// BodyComparison is one dynamic body in both engines.
type BodyComparison struct {
	Node int    `json:"node"`
	Name string `json:"name"`
	// PositionDistance (m) and RotationDistanceDegrees are between the two
	// engines' final poses.
	PositionDistance        float64 `json:"positionDistance"`
	RotationDistanceDegrees float64 `json:"rotationDistanceDegrees"`
	// PartedAt is the first time (s) the two centres of mass were more
	// than the threshold apart, nil if never.
	PartedAt *float64 `json:"partedAt"`
	// RestedAt is, per engine, the time from which the body stayed under
	// 0.05 m/s and 0.05 rad/s to the end, nil if it was still moving.
	RestedAt map[string]*float64 `json:"restedAt"`
	// MaxSpeed is per engine the body's highest speed (m/s).
	MaxSpeed map[string]float64 `json:"maxSpeed"`
	// Cause names what likely made the engines differ ("" when nothing
	// nameable, or when they did not part).
	Cause string `json:"cause"`
}

// trackEvery is how many steps apart a comparison's track points are.
const trackEvery = 4

// Compare plays d in two engines with the same step and compares every
// dynamic body's trajectory. An engine that cannot build or stops (NaN) is
// an error naming it.
func Compare(d *scene.Document, opt CompareOptions) (*Comparison, error) {
	engines := opt.Engines
	if len(engines) == 0 {
		engines = sim.Engines
	}
	if len(engines) != 2 {
		return nil, fmt.Errorf("compare needs two engines, got %v", engines)
	}
	if opt.Threshold <= 0 || math.IsNaN(opt.Threshold) {
		opt.Threshold = DefaultCompareThreshold
	}
	c := &Comparison{Engines: engines, Threshold: opt.Threshold, TrackEvery: trackEvery}
	var sims [2]*sim.Sim
	for i, e := range engines {
		s, err := sim.New(d, sim.Options{Step: opt.Step, Engine: e})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e, err) // the ones made close by their defer
		}
		defer s.Close()
		if err := AnimateKinematic(s, d, opt.Animation); err != nil {
			return nil, err
		}
		sims[i] = s
	}
	c.Step = sims[0].StepSize()
	var dyn []int // indices into Bodies of the dynamic bodies
	for i, b := range sims[0].Bodies {
		if b.Type == scene.MotionDynamic {
			dyn = append(dyn, i)
			c.Bodies = append(c.Bodies, BodyComparison{Node: b.Node, Name: b.Name,
				RestedAt: map[string]*float64{}, MaxSpeed: map[string]float64{}})
		}
	}
	c.Tracks = make([][][]mgl64.Vec3, 2)
	c.Poses = make([][][]Pose, 2)
	for e := range c.Tracks {
		c.Tracks[e] = make([][]mgl64.Vec3, len(dyn))
		c.Poses[e] = make([][]Pose, len(dyn))
	}
	moving := make([][2]float64, len(dyn)) // last time each moved, per engine
	record := func(step int) {
		for k, bi := range dyn {
			for e, s := range sims {
				b := s.Bodies[bi]
				if step%trackEvery == 0 {
					c.Tracks[e][k] = append(c.Tracks[e][k], b.CenterOfMass)
					c.Poses[e][k] = append(c.Poses[e][k], Pose{b.Position, b.Rotation})
				}
				v := b.LinearVelocity.Len()
				if v > c.Bodies[k].MaxSpeed[engines[e]] {
					c.Bodies[k].MaxSpeed[engines[e]] = v
				}
				if v >= restSpeed || b.AngularVelocity.Len() >= restSpeed {
					moving[k][e] = s.Time
				}
			}
			bc := &c.Bodies[k]
			if bc.PartedAt == nil && sims[0].Bodies[bi].CenterOfMass.Sub(sims[1].Bodies[bi].CenterOfMass).Len() > opt.Threshold {
				t := sims[0].Time
				bc.PartedAt = &t
			}
		}
	}
	record(0)
	var runErr error
	for step := 1; sims[0].Time+c.Step/2 < opt.Seconds; step++ {
		for e, s := range sims {
			if err := s.Step(); err != nil {
				runErr = fmt.Errorf("%s: %w", engines[e], err)
			}
		}
		if runErr != nil {
			break
		}
		record(step)
	}
	c.Time = sims[0].Time
	for e, s := range sims {
		for _, w := range s.Warnings {
			c.Notes = append(c.Notes, engines[e]+": "+w)
		}
	}
	for k, bi := range dyn {
		bc := &c.Bodies[k]
		a, b := sims[0].Bodies[bi], sims[1].Bodies[bi]
		bc.PositionDistance = a.Position.Sub(b.Position).Len()
		dot := math.Min(1, math.Abs(a.Rotation.Dot(b.Rotation)))
		bc.RotationDistanceDegrees = 2 * math.Acos(dot) * 180 / math.Pi
		for e := range sims {
			if moving[k][e] < c.Time-c.Step/2 {
				t := moving[k][e]
				bc.RestedAt[engines[e]] = &t
			} else {
				bc.RestedAt[engines[e]] = nil
			}
		}
		if bc.PartedAt != nil {
			c.Parted++
			bc.Cause = likelyCause(d, sims[0], bi, bc, engines, c.Step)
		}
	}
	return c, runErr
}

// likelyCause names what most likely made the engines part on body bi:
// each cause found, most specific first, joined by "; ".
func likelyCause(d *scene.Document, s *sim.Sim, bi int, bc *BodyComparison, engines []string, step float64) string {
	b := s.Bodies[bi]
	var causes []string
	// Tunnelling: a step at the body's top speed is longer than the
	// thinnest collider of the scene is thick.
	// A body skips through a shape when a step carries it past the shape
	// and its own thickness together.
	top := math.Max(bc.MaxSpeed[engines[0]], bc.MaxSpeed[engines[1]])
	own, _, _ := thinnestCollider(d, b.Node, true)
	if thin, node, ok := thinnestCollider(d, b.Node, false); ok && top*step > thin+own {
		causes = append(causes, fmt.Sprintf("tunnelling: at %.3g m/s the body moves %.3g m a step, more than it and %q are thick (%.3g m and %.3g m); Bullet sweeps fast bodies (continuous collision), ODE does not",
			top, top*step, nodeLabel(d, node), own, thin))
	}
	var combine []string
	trimesh, maxRest := false, 0.0
	for n := range d.Nodes {
		body := d.Nodes[n].Body
		if body == nil || body.Collider == nil {
			continue
		}
		own := d.BodyNode(n) == b.Node
		if !own && d.BodyNode(n) >= 0 && d.Nodes[d.BodyNode(n)].Body.Motion != nil && d.Nodes[d.BodyNode(n)].Body.Motion.Type != scene.MotionStatic {
			continue // another moving body's material: named on that body
		}
		if own && body.Collider.Shape >= 0 && body.Collider.Shape < len(d.Shapes) && d.Shapes[body.Collider.Shape].Type == scene.ShapeTrimesh {
			trimesh = true
		}
		if m := body.Collider.PhysicsMaterial; m >= 0 && m < len(d.PhysicsMaterials) {
			pm := d.PhysicsMaterials[m]
			if own {
				maxRest = math.Max(maxRest, pm.Restitution)
			}
			for _, x := range []struct{ what, mode string }{{"restitution", pm.RestitutionCombine}, {"friction", pm.FrictionCombine}} {
				if x.mode != "" && x.mode != "average" {
					w := fmt.Sprintf("%s combine mode %q on %q", x.what, x.mode, nodeLabel(d, n))
					if !containsString(combine, w) {
						combine = append(combine, w)
					}
				}
			}
		}
	}
	if len(combine) > 0 {
		causes = append(causes, strings.Join(combine, ", ")+": engines combine materials differently (both play the file's mode here, but Bullet restitutes only above 0.2 m/s and its solver splits overlaps off the velocity)")
	} else if maxRest >= 0.8 {
		causes = append(causes, fmt.Sprintf("restitution %.3g: every bounce's small difference in contact timing grows with the next", maxRest))
	}
	if trimesh {
		causes = append(causes, "a triangle mesh collider on a dynamic body, played as its convex hull")
	}
	if mo := d.Nodes[b.Node].Body.Motion; mo != nil {
		id := mo.InertiaDiagonal
		if mo.InertiaInfinite || (d.PhysicsDialect() == scene.DialectKHR && (id[0] == 0 || id[1] == 0 || id[2] == 0) && id != [3]float64{}) {
			causes = append(causes, "an infinite inertia axis, held by correcting each step after the engine")
		}
	}
	for n := range d.Nodes {
		nj := d.Nodes[n].Joint
		if nj == nil || nj.Joint < 0 || nj.Joint >= len(d.Joints) {
			continue
		}
		if d.BodyNode(n) != b.Node && d.BodyNode(nj.ConnectedNode) != b.Node {
			continue
		}
		for _, l := range d.Joints[nj.Joint].Limits {
			if l.Min != l.Max && !(math.IsInf(l.Min, -1) && math.IsInf(l.Max, 1)) {
				causes = append(causes, fmt.Sprintf("a joint limit on %q: the engines solve stops differently (ODE in its solver with a little CFM, Bullet by its limit row, and a soft limit as a force from outside its solver)", nodeLabel(d, n)))
				break
			}
		}
	}
	return strings.Join(causes, "; ")
}

func containsString(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func nodeLabel(d *scene.Document, n int) string {
	if name := d.GLTF.Nodes[n].Name; name != "" {
		return name
	}
	return fmt.Sprintf("node %d", n)
}

// thinnestCollider returns the smallest thickness (m, world scale) of the
// colliders on body node own (mine) or of those not on it: a box's
// smallest side, a sphere's or a capsule's diameter, a triangle mesh's 0
// (a surface has no inside).
func thinnestCollider(d *scene.Document, own int, mine bool) (float64, int, bool) {
	world := d.WorldMatrices()
	best, node, ok := math.Inf(1), -1, false
	for n := range d.Nodes {
		body := d.Nodes[n].Body
		if body == nil || body.Collider == nil || (d.BodyNode(n) == own) != mine {
			continue
		}
		sh := body.Collider.Shape
		if sh < 0 || sh >= len(d.Shapes) || n >= len(world) {
			continue
		}
		var sc [3]float64
		for k := 0; k < 3; k++ {
			sc[k] = world[n].Col(k).Vec3().Len()
		}
		s := d.Shapes[sh]
		var th float64
		switch s.Type {
		case scene.ShapeBox:
			th = math.Min(s.Size[0]*sc[0], math.Min(s.Size[1]*sc[1], s.Size[2]*sc[2]))
		case scene.ShapeSphere:
			th = 2 * s.Radius * math.Min(sc[0], math.Min(sc[1], sc[2]))
		case scene.ShapeCapsule, scene.ShapeCylinder:
			th = 2 * math.Min(s.RadiusTop, s.RadiusBottom) * math.Min(sc[0], sc[2])
		case scene.ShapeTrimesh, scene.ShapeHeightmap:
			th = 0
		default:
			continue
		}
		if th < best {
			best, node, ok = th, n, true
		}
	}
	return best, node, ok
}

// Write prints the comparison: a table, or with asJSON the JSON document.
func (c *Comparison) Write(w io.Writer, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(c)
	}
	e0, e1 := c.Engines[0], c.Engines[1]
	fmt.Fprintf(w, "%s and %s, %.4g s in steps of %.4g s; trajectories part at %.3g m\n", e0, e1, c.Time, c.Step, c.Threshold)
	secs := func(t *float64) string {
		if t == nil {
			return "moving"
		}
		return fmt.Sprintf("%.3g s", *t)
	}
	for _, b := range c.Bodies {
		parted := "never parted"
		if b.PartedAt != nil {
			parted = fmt.Sprintf("parted at %.3g s", *b.PartedAt)
		}
		fmt.Fprintf(w, "%s (node %d): %.3g m and %.3g° apart at the end, %s; rests at %s (%s) / %s (%s); top speed %.3g / %.3g m/s\n",
			b.Name, b.Node, b.PositionDistance, b.RotationDistanceDegrees, parted,
			secs(b.RestedAt[e0]), e0, secs(b.RestedAt[e1]), e1, b.MaxSpeed[e0], b.MaxSpeed[e1])
		if b.Cause != "" {
			fmt.Fprintf(w, "  likely cause: %s\n", b.Cause)
		}
	}
	if c.Parted == 0 {
		fmt.Fprintf(w, "the engines agree: no body parted by more than %.3g m\n", c.Threshold)
	} else {
		fmt.Fprintf(w, "%d of %d bodies parted by more than %.3g m\n", c.Parted, len(c.Bodies), c.Threshold)
	}
	return nil
}
