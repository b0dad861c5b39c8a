package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"physview/internal/khronosval"
	"physview/internal/testcorpus"
	"physview/scene"
	"physview/sim"
)

// jointFixture is testdata/joints/bodies.gltf: a ground, a static post
// with a 10 kg door beside it, a 1 kg bob, a 2 kg wheel (a cylinder lying
// along Z), a 1 kg cart, two boxes (top 1 kg above bottom 5 kg). In
// the KHR dialect it is the same file converted. A 1 kg rod (1 m) hangs
// between the bob and the cart.
func jointFixture(t *testing.T, dialect scene.PhysicsDialect) string {
	t.Helper()
	src := filepath.Join("testdata", "joints", "bodies.gltf")
	dir := t.TempDir()
	path := filepath.Join(dir, "bodies.gltf")
	if dialect == scene.DialectOMI {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	if _, err := Convert(src, path, "khr"); err != nil {
		t.Fatal(err)
	}
	return path
}

// authored applies the commands to the fixture in dialect, saves the result
// and returns the saved file's path.
func authored(t *testing.T, dialect scene.PhysicsDialect, cmds ...string) string {
	t.Helper()
	in := jointFixture(t, dialect)
	out := filepath.Join(filepath.Dir(in), "out.gltf")
	var words []string
	for _, c := range cmds {
		words = append(words, strings.Fields(c)...)
		words = append(words, ";")
	}
	groups, err := SplitCommands(words)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := EditFile(in, out, groups, func([]string, string, string) {}); err != nil {
		t.Fatal(err)
	}
	return out
}

// cleanFile loads path and fails on any error or warning its validation
// gives.
func cleanFile(t *testing.T, path string) *scene.Document {
	t.Helper()
	d, err := scene.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range d.Findings() {
		if f.Severity >= scene.Warning {
			t.Errorf("%s: %v %s %s: %s", filepath.Base(path), f.Severity, f.Code, f.Path, f.Message)
		}
	}
	return d
}

func namedBody(t *testing.T, s *sim.Sim, name string) *sim.Body {
	t.Helper()
	n, err := FindNode(s.Doc, name)
	if err != nil {
		t.Fatal(err)
	}
	i := s.BodyIndex(n)
	if i < 0 {
		t.Fatalf("%s is not a simulated body", name)
	}
	return s.Bodies[i]
}

func jointValue(t *testing.T, s *sim.Sim, name string) float64 {
	t.Helper()
	for _, j := range s.JointStates() {
		if strings.HasPrefix(j.Name, name+" ") {
			if j.Angular {
				return j.Value * 180 / math.Pi
			}
			return j.Value
		}
	}
	t.Fatalf("no joint of %s is played", name)
	return 0
}

// bodyMotion is the motion of the body node named name.
func bodyMotion(t *testing.T, d *scene.Document, name string) *scene.Motion {
	t.Helper()
	n, err := FindNode(d, name)
	if err != nil {
		t.Fatal(err)
	}
	if d.Nodes[n].Body == nil || d.Nodes[n].Body.Motion == nil {
		t.Fatalf("%s has no motion", name)
	}
	return d.Nodes[n].Body.Motion
}

// swing is the angle (degrees) between the direction of body node name's
// centre from pivot and axis.
func swing(t *testing.T, s *sim.Sim, name string, pivot, axis mgl64.Vec3) float64 {
	t.Helper()
	r := namedBody(t, s, name).Position.Sub(pivot)
	return math.Acos(math.Max(-1, math.Min(1, r.Normalize().Dot(axis)))) * 180 / math.Pi
}

// TestJointsPlay authors each joint with the edit commands, in OMI and in
// KHR, checks the saved file validates clean and plays it in each engine
// (ODE and Bullet): every row holds in both.
func TestJointsPlay(t *testing.T) {
	var peak float64 // the largest angle or position seen
	cases := []struct {
		name    string
		cmds    []string
		seconds float64
		// prepare changes the document before it is played; start is
		// called before the first step, step after each, end after the
		// last.
		prepare func(t *testing.T, d *scene.Document)
		start   func(t *testing.T, s *sim.Sim)
		step    func(t *testing.T, s *sim.Sim)
		end     func(t *testing.T, s *sim.Sim)
	}{{
		// A door hinged at its lower edge's end, which gravity turns past
		// 90 degrees: the stop holds it there.
		name:    "door_limit",
		cmds:    []string{"joint door post hinge axis=0,0,-1 pivot=0.05,2.05,0 limit=0,90"},
		seconds: 5,
		step: func(t *testing.T, s *sim.Sim) {
			a := jointValue(t, s, "door")
			if a > 91 || a < -1 {
				t.Fatalf("t=%.3f: door at %.2f degrees, limit [0, 90]", s.Time, a)
			}
			peak = math.Max(peak, a)
		},
		end: func(t *testing.T, s *sim.Sim) {
			t.Logf("door: at most %.3f degrees", peak)
			peak = 0
			if a := jointValue(t, s, "door"); a < 89 {
				t.Errorf("door at %.2f degrees after 5 s, want it resting on its 90 degree stop", a)
			}
		},
	}, {
		name:    "ball_pendulum",
		cmds:    []string{"joint bob world ball pivot=3.6,1.8,0"},
		seconds: 5,
		step: func(t *testing.T, s *sim.Sim) {
			p := namedBody(t, s, "bob").Position
			if l := p.Sub(mgl64.Vec3{3.6, 1.8, 0}).Len(); math.Abs(l-1) > 0.001 {
				t.Fatalf("t=%.3f: pendulum length %.5f m, want 1 within 1 mm", s.Time, l)
			} else {
				peak = math.Max(peak, math.Abs(l-1))
			}
		},
		end: func(t *testing.T, s *sim.Sim) {
			t.Logf("pendulum: length at most %.3f mm off", peak*1000)
			peak = 0
			if x := namedBody(t, s, "bob").Position[0]; x == 3 {
				t.Errorf("the bob never swung")
			}
		},
	}, {
		// A slider tilted 45 degrees down: the cart slides to its 0.5 m
		// stop, which it meets at 2.6 m/s: ODE finds a stop reached after
		// the step that reaches it (11 mm of travel at that speed) and
		// holds the cart 4 mm past it for a step before pulling it back,
		// so the bound is 5 mm.
		name:    "slider_limit",
		cmds:    []string{"joint cart world slider axis=1,-1,0 limit=-0.5,0.5"},
		seconds: 3,
		step: func(t *testing.T, s *sim.Sim) {
			x := jointValue(t, s, "cart")
			if x < -0.505 || x > 0.505 {
				t.Fatalf("t=%.3f: cart at %.4f m, limit [-0.5, 0.5]", s.Time, x)
			}
			peak = math.Max(peak, x)
			p := namedBody(t, s, "cart").Position.Sub(mgl64.Vec3{6, 1, 0})
			if off := math.Abs(p[0] + p[1]); off > 0.001 {
				t.Fatalf("t=%.3f: cart %.4f m off its rail", s.Time, off)
			}
		},
		end: func(t *testing.T, s *sim.Sim) {
			if x := jointValue(t, s, "cart"); x < 0.49 {
				t.Errorf("cart at %.4f m after 3 s, want it on its 0.5 m stop", x)
			}
			t.Logf("cart: at most %.4f m", peak)
			peak = 0
		},
	}, {
		name:    "wheel_velocity",
		cmds:    []string{"joint wheel world hinge axis=0,0,1", "joint-drive wheel velocity=6.28 maxForce=100"},
		seconds: 1,
		end: func(t *testing.T, s *sim.Sim) {
			w := namedBody(t, s, "wheel").AngularVelocity
			if math.Abs(w[2]-6.28) > 0.05*6.28 || math.Abs(w[0])+math.Abs(w[1]) > 0.01 {
				t.Errorf("wheel turns at %.4v rad/s after 1 s, want (0, 0, 6.28) within 5%%", w)
			}
		},
	}, {
		name:    "wheel_position",
		cmds:    []string{"joint wheel world hinge axis=0,0,1", "joint-drive wheel position=60"},
		seconds: 3,
		end: func(t *testing.T, s *sim.Sim) {
			if a := jointValue(t, s, "wheel"); math.Abs(a-60) > 1 {
				t.Errorf("wheel at %.3f degrees after 3 s, want 60 within 1", a)
			}
		},
	}, {
		// A pendulum (the rod, hung from its top end) on a 30 degree cone
		// pushed sideways at 1.6 m/s, which would swing it out to 42
		// degrees: the cone holds its swing.
		name:    "cone_push",
		cmds:    []string{"joint rod world cone pivot=4.5,2,0 axis=0,-1,0 limit=0,30"},
		seconds: 5,
		prepare: func(t *testing.T, d *scene.Document) {
			bodyMotion(t, d, "rod").LinearVelocity = [3]float64{1.5, 0, 0.5}
		},
		step: func(t *testing.T, s *sim.Sim) {
			a := swing(t, s, "rod", mgl64.Vec3{4.5, 2, 0}, mgl64.Vec3{0, -1, 0})
			if a > 31 {
				t.Fatalf("t=%.3f: pendulum swung %.2f degrees, cone 30", s.Time, a)
			}
			peak = math.Max(peak, a)
		},
		end: func(t *testing.T, s *sim.Sim) {
			t.Logf("cone: at most %.3f degrees", peak)
			if peak < 29 {
				t.Errorf("the pendulum swung only %.2f degrees: it never met the cone", peak)
			}
			peak = 0
		},
	}, {
		// The rod stood on its lower end on an upright cone: it topples
		// onto the cone's edge and rests there.
		name:    "cone_gravity",
		cmds:    []string{"joint rod world cone pivot=4.5,1,0 limit=0,30"},
		seconds: 5,
		prepare: func(t *testing.T, d *scene.Document) {
			bodyMotion(t, d, "rod").LinearVelocity = [3]float64{0.1, 0, 0}
		},
		step: func(t *testing.T, s *sim.Sim) {
			a := swing(t, s, "rod", mgl64.Vec3{4.5, 1, 0}, mgl64.Vec3{0, 1, 0})
			if a > 31 {
				t.Fatalf("t=%.3f: rod %.2f degrees off the cone's axis, cone 30", s.Time, a)
			}
			peak = math.Max(peak, a)
		},
		end: func(t *testing.T, s *sim.Sim) {
			t.Logf("toppled: at most %.3f degrees", peak)
			peak = 0
			if a := swing(t, s, "rod", mgl64.Vec3{4.5, 1, 0}, mgl64.Vec3{0, 1, 0}); a < 29 {
				t.Errorf("rod %.2f degrees off the cone's axis after 5 s, want it resting on the 30 degree cone", a)
			}
		},
	}, {
		// A cone-twist: the hanging rod spun about the cone's axis at 5
		// rad/s twists to its 20 degree limit and no further.
		name:    "cone_twist",
		cmds:    []string{"joint rod world cone pivot=4.5,2,0 axis=0,-1,0 limit=0,30", "joint-limit rod angular-y -20,20"},
		seconds: 3,
		prepare: func(t *testing.T, d *scene.Document) {
			bodyMotion(t, d, "rod").AngularVelocity = [3]float64{0, 5, 0}
		},
		step: func(t *testing.T, s *sim.Sim) {
			q := namedBody(t, s, "rod").Rotation
			a := math.Abs(2*math.Atan2(q.V[1], q.W)) * 180 / math.Pi
			if a > 180 {
				a = 360 - a
			}
			if a > 21 {
				t.Fatalf("t=%.3f: rod twisted %.2f degrees, limit 20", s.Time, a)
			}
			peak = math.Max(peak, a)
		},
		end: func(t *testing.T, s *sim.Sim) {
			t.Logf("twist: at most %.3f degrees", peak)
			if peak < 19 {
				t.Errorf("the rod twisted only %.2f degrees: it never met its limit", peak)
			}
			peak = 0
		},
	}, {
		// bottom (5 kg) welded under top (1 kg), top hinged to the world
		// at its side: the pair swings, the weld carries the load.
		name:    "fixed_load",
		cmds:    []string{"joint bottom top fixed", "joint top world hinge axis=0,0,1 pivot=8.8,2,0"},
		seconds: 3,
		start: func(t *testing.T, s *sim.Sim) {
			top, bottom := namedBody(t, s, "top"), namedBody(t, s, "bottom")
			rel := top.Rotation.Inverse().Rotate(bottom.Position.Sub(top.Position))
			if rel.Sub(mgl64.Vec3{0, -0.5, 0}).Len() > 1e-9 {
				t.Fatalf("bottom starts at %v in top's frame", rel)
			}
		},
		step: func(t *testing.T, s *sim.Sim) {
			top, bottom := namedBody(t, s, "top"), namedBody(t, s, "bottom")
			rel := top.Rotation.Inverse().Rotate(bottom.Position.Sub(top.Position))
			if d := rel.Sub(mgl64.Vec3{0, -0.5, 0}).Len(); d > 0.001 {
				t.Fatalf("t=%.3f: bottom %.4f m off its place in top's frame", s.Time, d)
			}
			q := top.Rotation.Inverse().Mul(bottom.Rotation)
			if a := 2 * math.Acos(math.Min(1, math.Abs(q.W))) * 180 / math.Pi; a > 0.1 {
				t.Fatalf("t=%.3f: bottom turned %.3f degrees in top's frame", s.Time, a)
			}
			peak = math.Max(peak, math.Abs(jointValue(t, s, "top")))
		},
		end: func(t *testing.T, s *sim.Sim) {
			if peak < 30 {
				t.Errorf("the welded pair swung only %.2f degrees", peak)
			}
			peak = 0
		},
	}}
	for _, engine := range sim.Engines {
		for _, dialect := range []scene.PhysicsDialect{scene.DialectOMI, scene.DialectKHR} {
			for _, tc := range cases {
				t.Run(engine+"/"+dialect.String()+"/"+tc.name, func(t *testing.T) {
					path := authored(t, dialect, tc.cmds...)
					d := cleanFile(t, path)
					if got := d.PhysicsDialect(); got != dialect {
						t.Fatalf("saved in %v, want %v", got, dialect)
					}
					if tc.prepare != nil {
						tc.prepare(t, d)
					}
					s, err := sim.New(d, sim.Options{Engine: engine})
					if err != nil {
						t.Fatal(err)
					}
					defer s.Close()
					for _, w := range s.Warnings {
						t.Errorf("warning: %s", w)
					}
					if tc.start != nil {
						tc.start(t, s)
					}
					for s.Time < tc.seconds-1e-9 {
						if err := s.Step(); err != nil {
							t.Fatal(err)
						}
						if tc.step != nil {
							tc.step(t, s)
						}
					}
					if tc.end != nil {
						tc.end(t, s)
					}
				})
			}
		}
	}
}

// TestJointCommandErrors: values the drafts forbid, and commands that
// cannot be done, are refused with a message and change nothing.
func TestJointCommandErrors(t *testing.T) {
	cases := []struct {
		cmds []string
		want string
	}{
		{[]string{"joint door post hinge limit=90,0"}, "min 90 is greater than max 0"},
		{[]string{"joint door post spring"}, `unknown joint type "spring"`},
		{[]string{"joint door door hinge"}, "two different nodes"},
		{[]string{"joint door nobody hinge"}, `no node is called "nobody"`},
		{[]string{"joint ground world hinge"}, "neither ground nor the world is a dynamic body"},
		{[]string{"joint door post hinge axis=0,0,0"}, "must not be the zero vector"},
		{[]string{"joint door post ball limit=0,10"}, "use cone"},
		{[]string{"joint door post fixed limit=0,10"}, "no free axis"},
		{[]string{"joint door post hinge collide=maybe"}, "want true or false"},
		{[]string{"joint door post hinge", "joint-limit door 10,5"}, "min 10 is greater than max 5"},
		{[]string{"joint door post hinge", "joint-limit door 0,45 stiffness=-1"}, "stiffness must not be negative"},
		{[]string{"joint door post hinge", "joint-limit door 0,45 damping=-2"}, "damping must not be negative"},
		{[]string{"joint door post hinge", "joint-limit door sideways 0,45"}, `unknown axis "sideways"`},
		{[]string{"joint door post ball", "joint-limit door 0,45"}, "3 free axes: name one"},
		{[]string{"joint door post hinge", "joint-drive door"}, "say velocity=V"},
		{[]string{"joint door post hinge", "joint-drive door velocity=1 maxForce=-5"}, "maxForce=-5: must not be negative"},
		{[]string{"joint door post hinge", "joint-drive door velocity=1 mode=magic"}, "force or acceleration"},
		{[]string{"joint-limit door 0,1"}, "door has no joint"},
		{[]string{"remove-joint bob"}, "bob has no joint"},
	}
	for _, c := range cases {
		t.Run(c.cmds[len(c.cmds)-1], func(t *testing.T) {
			s := New()
			if err := s.LoadNow(jointFixture(t, scene.DialectOMI)); err != nil {
				t.Fatal(err)
			}
			var err error
			for _, cmd := range c.cmds {
				groups, serr := SplitCommands(strings.Fields(cmd))
				if serr != nil {
					err = serr
					break
				}
				if err = s.RunCommand(groups[0]); err != nil {
					break
				}
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
			if s.Hist.Len() != len(c.cmds)-1 {
				t.Errorf("%d undo steps after a refused command, want %d", s.Hist.Len(), len(c.cmds)-1)
			}
		})
	}
}

// TestJointEditsUndo: each command is one undo step; undoing them all, or
// removing the joint made in the session, saves the file byte for byte as
// it was; a saved joint file saves again unchanged.
func TestJointEditsUndo(t *testing.T) {
	for _, dialect := range []scene.PhysicsDialect{scene.DialectOMI, scene.DialectKHR} {
		t.Run(dialect.String(), func(t *testing.T) {
			in := jointFixture(t, dialect)
			orig, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			cmds := []string{"joint door post hinge axis=0,0,-1 pivot=0.05,2.05,0 limit=0,90",
				"joint-limit door 0,80 stiffness=500 damping=5", "joint-drive door position=30",
				"joint wheel world hinge axis=0,0,1", "joint-drive wheel velocity=3"}
			s := New()
			if err := s.LoadNow(in); err != nil {
				t.Fatal(err)
			}
			nodes := len(s.Doc.GLTF.Nodes)
			for _, c := range cmds {
				if err := s.RunCommand(strings.Fields(c)); err != nil {
					t.Fatal(err)
				}
			}
			if s.Hist.Len() != len(cmds) {
				t.Fatalf("%d undo steps for %d commands", s.Hist.Len(), len(cmds))
			}
			js := s.Doc.Joints[s.Doc.Nodes[nodes].Joint.Joint]
			last := js.Limits[len(js.Limits)-1]
			if len(js.Limits) != 3 || !slicesEqual(last.AngularAxes, []int{1}) || math.Abs(last.Max-80*math.Pi/180) > 1e-12 || last.Stiffness != 500 || last.Damping != 5 {
				t.Errorf("door limits after joint-limit: %+v", js.Limits)
			}
			if len(js.Drives) != 1 || math.Abs(*js.Drives[0].PositionTarget-math.Pi/6) > 1e-15 || js.Drives[0].Type != "angular" || js.Drives[0].Axis != 1 {
				t.Errorf("door drive: %+v", js.Drives)
			}
			// Saved, loaded and saved again: the same bytes.
			dir := t.TempDir()
			a := filepath.Join(dir, "a.gltf")
			if _, err := s.SaveTo(a); err != nil {
				t.Fatal(err)
			}
			s2 := New()
			if err := s2.LoadNow(a); err != nil {
				t.Fatal(err)
			}
			if len(s2.Doc.Joints) != 2 {
				t.Fatalf("%d joint settings read back, want 2", len(s2.Doc.Joints))
			}
			s2.Doc.GLTF.Nodes[0].Name = s2.Doc.GLTF.Nodes[0].Name + "" // untouched
			b := filepath.Join(dir, "b.gltf")
			if _, err := s2.SaveTo(b); err != nil {
				t.Fatal(err)
			}
			if ab, bb := mustRead(t, a), mustRead(t, b); !bytes.Equal(ab, bb) {
				t.Errorf("a saved joint file saves differently:\n%s\n---\n%s", ab, bb)
			}
			// Outside the joint (its settings, its frame nodes, the bodies'
			// children lists and the scene's new root) the saved file is
			// the original: every original node byte for byte as JSON
			// values, and every other top-level member.
			sameOutsideJoint(t, orig, mustRead(t, a))
			// Everything undone: the original bytes.
			for s.Hist.Len() > 0 {
				s.Hist.Undo(s.Doc)
			}
			c := filepath.Join(dir, "c.gltf")
			if _, err := s.SaveTo(c); err != nil {
				t.Fatal(err)
			}
			if cb := mustRead(t, c); !bytes.Equal(cb, orig) {
				t.Errorf("undone edits save differently from the file:\n%s", cb)
			}
			// Redo them all, then remove both joints: the original bytes too.
			for range cmds {
				s.Hist.Redo(s.Doc)
			}
			for _, c := range []string{"remove-joint wheel", "remove-joint door"} {
				if err := s.RunCommand(strings.Fields(c)); err != nil {
					t.Fatal(err)
				}
			}
			if len(s.Doc.GLTF.Nodes) != nodes || len(s.Doc.Joints) != 0 {
				t.Errorf("after remove-joint: %d nodes (want %d), %d joint settings", len(s.Doc.GLTF.Nodes), nodes, len(s.Doc.Joints))
			}
			e := filepath.Join(dir, "e.gltf")
			if _, err := s.SaveTo(e); err != nil {
				t.Fatal(err)
			}
			if eb := mustRead(t, e); !bytes.Equal(eb, orig) {
				t.Errorf("removed joints save differently from the file:\n%s", eb)
			}
		})
	}
}

// sameOutsideJoint fails unless saved holds orig's nodes (their
// "children" aside) and orig's other top-level members and extensions
// unchanged, besides what a joint adds.
func sameOutsideJoint(t *testing.T, orig, saved []byte) {
	t.Helper()
	var a, b map[string]json.RawMessage
	if err := json.Unmarshal(orig, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(saved, &b); err != nil {
		t.Fatal(err)
	}
	same := func(what string, x, y json.RawMessage) {
		var vx, vy any
		if json.Unmarshal(x, &vx) != nil || json.Unmarshal(y, &vy) != nil || !reflect.DeepEqual(vx, vy) {
			t.Errorf("%s changed:\n%s\n---\n%s", what, x, y)
		}
	}
	for k, v := range a {
		switch k {
		case "nodes":
			var na, nb []map[string]json.RawMessage
			if json.Unmarshal(v, &na) != nil || json.Unmarshal(b[k], &nb) != nil || len(nb) < len(na) {
				t.Fatalf("nodes: %d before, %d after", len(na), len(nb))
			}
			for i := range na {
				for f, fv := range na[i] {
					if f != "children" {
						same(fmt.Sprintf("node %d %s", i, f), fv, nb[i][f])
					}
				}
			}
		case "scenes", "extensionsUsed":
			// The anchor's root and the joint extension are added.
		case "extensions":
			var ea, eb map[string]json.RawMessage
			if json.Unmarshal(v, &ea) != nil || json.Unmarshal(b[k], &eb) != nil {
				t.Fatal("extensions unreadable")
			}
			for e, ev := range ea {
				if e != "KHR_physics_rigid_bodies" {
					same("extension "+e, ev, eb[e])
					continue
				}
				// KHR keeps physicsJoints here, beside what must stay.
				var ka, kb map[string]json.RawMessage
				if json.Unmarshal(ev, &ka) != nil || json.Unmarshal(eb[e], &kb) != nil {
					t.Fatal("KHR_physics_rigid_bodies unreadable")
				}
				for m, mv := range ka {
					if m != "physicsJoints" {
						same(e+"/"+m, mv, kb[m])
					}
				}
			}
		default:
			same(k, v, b[k])
		}
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func slicesEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestJointConversion: a file with every template converted OMI -> KHR ->
// OMI keeps each joint: its settings, its frames and what it connects;
// the world anchor is a static body in OMI and a node without motion in
// KHR, and each file validates clean.
func TestJointConversion(t *testing.T) {
	omi := authored(t, scene.DialectOMI,
		"joint door post hinge axis=0,0,-1 pivot=0.05,2.05,0 limit=0,90", "joint-drive door position=45",
		"joint bob world cone pivot=3.6,1.8,0 limit=0,30", "joint cart world slider axis=1,-1,0 limit=-0.5,0.5",
		"joint bottom top fixed", "joint wheel world free limit=0,0.2")
	dir := filepath.Dir(omi)
	khr, back := filepath.Join(dir, "khr.gltf"), filepath.Join(dir, "back.gltf")
	if _, err := Convert(omi, khr, "khr"); err != nil {
		t.Fatal(err)
	}
	if _, err := Convert(khr, back, "omi"); err != nil {
		t.Fatal(err)
	}
	a, k, b := cleanFile(t, omi), cleanFile(t, khr), cleanFile(t, back)
	if k.PhysicsDialect() != scene.DialectKHR || b.PhysicsDialect() != scene.DialectOMI {
		t.Fatalf("dialects %v, %v", k.PhysicsDialect(), b.PhysicsDialect())
	}
	for _, d := range []*scene.Document{k, b} {
		if len(d.Joints) != len(a.Joints) || len(d.GLTF.Nodes) != len(a.GLTF.Nodes) {
			t.Fatalf("%d joint settings, %d nodes; want %d, %d", len(d.Joints), len(d.GLTF.Nodes), len(a.Joints), len(a.GLTF.Nodes))
		}
		for i := range a.Joints {
			if !reflect.DeepEqual(jointJSON(a.Joints[i]), jointJSON(d.Joints[i])) {
				t.Errorf("joint settings %d: %+v, want %+v", i, d.Joints[i], a.Joints[i])
			}
		}
		for n := range a.Nodes {
			if !reflect.DeepEqual(a.Nodes[n].Joint, d.Nodes[n].Joint) {
				t.Errorf("node %d joint %+v, want %+v", n, d.Nodes[n].Joint, a.Nodes[n].Joint)
			}
			if a.WorldMatrix(n).Sub(d.WorldMatrix(n)).Abs().Trace() > 1e-9 {
				t.Errorf("node %d moved", n)
			}
		}
	}
	// The anchors: static bodies in OMI, nodes without a body in KHR.
	for n, ne := range a.Nodes {
		if !strings.HasSuffix(a.NodeName(n), "joint anchor") {
			continue
		}
		if ne.Body == nil || ne.Body.Motion == nil || ne.Body.Motion.Type != scene.MotionStatic {
			t.Errorf("OMI anchor %s: %+v", a.NodeName(n), ne.Body)
		}
		if kb := k.Nodes[n].Body; kb != nil && kb.Motion != nil && kb.Motion.Type != scene.MotionStatic {
			t.Errorf("KHR anchor %s moves: %+v", k.NodeName(n), kb.Motion)
		}
	}
}

// jointJSON prints settings with their targets' values.
func jointJSON(s scene.JointSettings) string {
	out := fmt.Sprintf("%+v", s.Limits)
	for _, d := range s.Drives {
		p, v := "none", "none"
		if d.PositionTarget != nil {
			p = fmt.Sprint(*d.PositionTarget)
		}
		if d.VelocityTarget != nil {
			v = fmt.Sprint(*d.VelocityTarget)
		}
		out += fmt.Sprintf(" %s %s %d %g %s %s %g %g", d.Type, d.Mode, d.Axis, d.MaxForce, p, v, d.Stiffness, d.Damping)
	}
	return out
}

// TestJointWeldToKHR: OMI's weld form (one limit on every linear and
// angular axis) is written to KHR as two limits, which KHR's schema wants,
// and the file validates clean; back in OMI the weld plays the same.
func TestJointWeldToKHR(t *testing.T) {
	dir := t.TempDir()
	omi := filepath.Join(dir, "weld.gltf")
	data := strings.Replace(string(mustRead(t, filepath.Join("testdata", "joints", "bodies.gltf"))),
		`"OMI_physics_gravity": {"gravity": 9.81, "direction": [0, -1, 0]}`,
		`"OMI_physics_gravity": {"gravity": 9.81, "direction": [0, -1, 0]},
    "OMI_physics_joint": {"physicsJoints": [{"limits": [{"angularAxes": [0, 1, 2], "linearAxes": [0, 1, 2], "max": 0.0, "min": 0.0}]}]}`, 1)
	data = strings.Replace(data, `"name": "bottom", "translation": [9, 1.5, 0],`,
		`"name": "bottom", "translation": [9, 1.5, 0], "children": [9],`, 1)
	data = strings.Replace(data, `"collider": {"shape": 6}}}}
  ]`, `"collider": {"shape": 6}}}},
    {"name": "weld", "translation": [0, 0.25, 0], "extensions": {"OMI_physics_joint": {"joint": 0, "connectedNode": 6}}}
  ]`, 1)
	data = strings.Replace(data, `"extensionsUsed": ["OMI_physics_shape", "OMI_physics_body", "OMI_physics_gravity"]`,
		`"extensionsUsed": ["OMI_physics_shape", "OMI_physics_body", "OMI_physics_gravity", "OMI_physics_joint"]`, 1)
	if err := os.WriteFile(omi, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	d := cleanFile(t, omi)
	if len(d.Joints) != 1 || len(d.Joints[0].Limits) != 1 {
		t.Fatalf("weld fixture: %+v", d.Joints)
	}
	khr := filepath.Join(dir, "weld-khr.gltf")
	if _, err := Convert(omi, khr, "khr"); err != nil {
		t.Fatal(err)
	}
	k := cleanFile(t, khr)
	if got := jointJSON(k.Joints[0]); !strings.Contains(got, "LinearAxes:[0 1 2] AngularAxes:[]") || !strings.Contains(got, "LinearAxes:[] AngularAxes:[0 1 2]") {
		t.Errorf("KHR weld limits: %s", got)
	}
	s, err := sim.New(k, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Run(2); err != nil {
		t.Fatal(err)
	}
	top, bottom := namedBody(t, s, "top"), namedBody(t, s, "bottom")
	if rel := top.Rotation.Inverse().Rotate(bottom.Position.Sub(top.Position)); rel.Sub(mgl64.Vec3{0, -0.5, 0}).Len() > 0.001 {
		t.Errorf("the KHR weld let bottom move to %v in top's frame", rel)
	}
}

// TestPlayPlotsJoint: with a joint node selected, Play's plot follows its
// angle in degrees.
func TestPlayPlotsJoint(t *testing.T) {
	s := New()
	if err := s.LoadNow(jointFixture(t, scene.DialectOMI)); err != nil {
		t.Fatal(err)
	}
	if err := s.RunCommand(strings.Fields("joint door post hinge axis=0,0,-1 pivot=0.05,2.05,0 limit=0,90")); err != nil {
		t.Fatal(err)
	}
	now := time.Unix(100, 0)
	s.Do(PlayToggle{})
	s.Do(SetPlaySpeed{Choice: 3}) // 1x
	for i := range 20 {
		s.PlayFrame(now.Add(time.Duration(i) * 50 * time.Millisecond))
	}
	if !strings.Contains(s.Play.Plotted, "door hinge joint: angle (°)") {
		t.Fatalf("Plotted = %q with the hinge selected", s.Play.Plotted)
	}
	last := s.Play.Height[len(s.Play.Height)-1]
	if want := jointValue(t, s.Play.Sim, "door"); last != want || !(last > 10) {
		t.Errorf("plotted %.3f degrees, the hinge is at %.3f (want the door falling past 10)", last, want)
	}
}

// TestJointFilesKhronos: the files joint edits write, in OMI and KHR, give
// the Khronos validator (the core glTF rules) no code the file they were
// made from does not give (skipped when it is not installed).
func TestJointFilesKhronos(t *testing.T) {
	kdir := khronosval.Dir(t, testcorpus.Root(t))
	var files []string
	for _, dialect := range []scene.PhysicsDialect{scene.DialectOMI, scene.DialectKHR} {
		files = append(files, jointFixture(t, dialect), authored(t, dialect,
			"joint door post hinge axis=0,0,-1 pivot=0.05,2.05,0 limit=0,90", "joint-drive door position=45",
			"joint bob world cone pivot=3.6,1.8,0 limit=0,30", "joint cart world slider axis=1,-1,0 limit=-0.5,0.5",
			"joint bottom top fixed", "joint wheel world free limit=0,0.2"))
	}
	reps, err := khronosval.Run(kdir, t.TempDir(), files)
	if err != nil {
		t.Fatal(err)
	}
	codes := func(f string) map[string]bool {
		r, ok := reps[f]
		if !ok || r.Err != "" {
			t.Fatalf("%s: no report (%v)", f, r.Err)
		}
		out := map[string]bool{}
		for _, m := range r.Messages {
			if m.Severity <= 1 {
				out[m.Code] = true
			}
		}
		return out
	}
	for i := 0; i < len(files); i += 2 {
		before, after := codes(files[i]), codes(files[i+1])
		for c := range after {
			if !before[c] {
				t.Errorf("%s: the Khronos validator reports %s, which %s does not have", files[i+1], c, files[i])
			}
		}
		if reps[files[i+1]].NumErrors > 0 {
			t.Errorf("%s: %d errors: %+v", files[i+1], reps[files[i+1]].NumErrors, reps[files[i+1]].Messages)
		}
	}
}

// TestRetargetJoint: the wheel's joint moved from the world to the cart
// gets a new frame under the cart where the joint frame is, validates
// clean and plays (the cart falls, carrying the wheel); undo puts it back.
func TestRetargetJoint(t *testing.T) {
	for _, dialect := range []scene.PhysicsDialect{scene.DialectOMI, scene.DialectKHR} {
		t.Run(dialect.String(), func(t *testing.T) {
			s := New()
			if err := s.LoadNow(jointFixture(t, dialect)); err != nil {
				t.Fatal(err)
			}
			for _, c := range []string{"joint wheel world hinge axis=0,0,1", "retarget-joint wheel cart"} {
				if err := s.RunCommand(strings.Fields(c)); err != nil {
					t.Fatal(err)
				}
			}
			d := s.Doc
			jn, err := d.JointNodeOf(4)
			if err != nil {
				t.Fatal(err)
			}
			cn := d.Nodes[jn].Joint.ConnectedNode
			if d.Parent(cn) != 5 || d.WorldMatrix(cn).Sub(d.WorldMatrix(jn)).Abs().Trace() > 1e-9 {
				t.Errorf("connected frame %d (%s) under %d, want a frame of the cart at the joint frame", cn, d.NodeName(cn), d.Parent(cn))
			}
			if s.Hist.UndoName() != "Connect wheel hinge joint to cart" {
				t.Errorf("undo step %q", s.Hist.UndoName())
			}
			out := filepath.Join(t.TempDir(), "r.gltf")
			if _, err := s.SaveTo(out); err != nil {
				t.Fatal(err)
			}
			cleanFile(t, out)
			s.Hist.Undo(d)
			if got := d.NodeName(d.Nodes[jn].Joint.ConnectedNode); got != "wheel joint anchor" {
				t.Errorf("after undo the joint connects %s", got)
			}
		})
	}
}

// TestSplitJointCommands: joint-limit's AXIS is optional; the words run to
// the next command word.
func TestSplitJointCommands(t *testing.T) {
	words := strings.Fields("joint door post hinge limit=0,90 joint-limit door angular-y -10,80 stiffness=5 joint-limit door 0,45 joint-drive door velocity=1 remove-joint door")
	got, err := SplitCommands(words)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"joint", "door", "post", "hinge", "limit=0,90"}, {"joint-limit", "door", "angular-y", "-10,80", "stiffness=5"},
		{"joint-limit", "door", "0,45"}, {"joint-drive", "door", "velocity=1"}, {"remove-joint", "door"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%q\nwant %q", got, want)
	}
}

// TestJointWorldAnchorKHR: "joint A world" in a KHR (or glTF 2.1) document
// writes the connected node as the drafts read the world: a root node at
// the pivot (A's origin) with no physics of its own (no motion, no collider, no OMI
// static motion in extras), which the sim plays as the world.
func TestJointWorldAnchorKHR(t *testing.T) {
	for _, physics := range []string{"khr", "gltf2.1"} {
		t.Run(physics, func(t *testing.T) {
			dir := t.TempDir()
			in, out := filepath.Join(dir, "in.gltf"), filepath.Join(dir, "out.gltf")
			if _, err := Convert(filepath.Join("testdata", "joints", "bodies.gltf"), in, physics); err != nil {
				t.Fatal(err)
			}
			groups, err := SplitCommands(strings.Fields("joint wheel world hinge axis=0,0,1 ; joint-drive wheel velocity=2 maxForce=50"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := EditFile(in, out, groups, func([]string, string, string) {}); err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Scenes []struct{ Nodes []int }
				Nodes  []map[string]json.RawMessage
			}
			if err := json.Unmarshal(mustRead(t, out), &doc); err != nil {
				t.Fatal(err)
			}
			anchor := -1
			for i, n := range doc.Nodes {
				if string(n["name"]) == `"wheel joint anchor"` {
					anchor = i
				}
			}
			if anchor < 0 {
				t.Fatalf("no node \"wheel joint anchor\" in %s", out)
			}
			n := doc.Nodes[anchor]
			var keys []string
			for k := range n {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			if want := []string{"name", "rotation", "scale", "translation"}; !slices.Equal(keys, want) {
				t.Errorf("anchor node %d has %v, want only %v: %s", anchor, keys, want, mustRead(t, out))
			}
			var at []float64
			if err := json.Unmarshal(n["translation"], &at); err != nil || !slices.Equal(at, []float64{-3, 1, 0}) {
				t.Errorf("anchor at %s, want the pivot (the wheel's origin) [-3, 1, 0]", n["translation"])
			}
			if !slices.Contains(doc.Scenes[0].Nodes, anchor) {
				t.Errorf("anchor node %d is not a root of the scene %v", anchor, doc.Scenes[0].Nodes)
			}
			d := cleanFile(t, out)
			if b := d.BodyNode(anchor); b >= 0 {
				t.Errorf("the anchor is read as part of body node %d", b)
			}
			s, err := sim.New(d, sim.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if err := s.Run(1); err != nil {
				t.Fatal(err)
			}
			if js := s.JointStates(); len(js) != 1 || js[0].Type != "hinge" || math.Abs(js[0].Rate-2) > 0.1 {
				t.Errorf("joints %+v, want one hinge turning at 2 rad/s", js)
			}
			if p := namedBody(t, s, "wheel").Position; p.Sub(mgl64.Vec3{-3, 1, 0}).Len() > 0.001 {
				t.Errorf("the wheel moved to %v: its anchor is not the world", p)
			}
		})
	}
}

// TestDemoJoints: the demo has a door on a hinge limited to ±70 degrees
// and a wheel on a hinge to the world driven at 2 rad/s; played in each
// engine, the door pushed open meets its stop and stays within it, and the
// wheel reaches its speed.
func TestDemoJoints(t *testing.T) {
	s := New()
	s.OpenDemo()
	d := s.Doc
	limits := map[string][2]float64{}
	for n, ne := range d.Nodes {
		if ne.Joint == nil {
			continue
		}
		js := d.Joints[ne.Joint.Joint]
		for _, l := range js.Limits {
			if len(l.AngularAxes) == 1 && l.Min != l.Max {
				limits[d.NodeName(n)] = [2]float64{l.Min * 180 / math.Pi, l.Max * 180 / math.Pi}
			}
		}
		for _, dr := range js.Drives {
			if dr.VelocityTarget != nil {
				t.Logf("%s: drive at %g rad/s", d.NodeName(n), *dr.VelocityTarget)
			}
		}
	}
	if l, ok := limits["Hinge (joint)"]; !ok || math.Abs(l[0]+70) > 0.2 || math.Abs(l[1]-70) > 0.2 { // 1.22 rad
		t.Fatalf("the demo's door hinge limits: %v, want [-70, 70] degrees (1.22 rad)", limits)
	}
	// A push: the door swings about its vertical hinge to a stop.
	bodyMotion(t, d, "Door (dynamic, hinged)").AngularVelocity = [3]float64{0, 3, 0}
	for _, engine := range sim.Engines {
		t.Run(engine, func(t *testing.T) { demoJointsPlay(t, d, engine) })
	}
}

// demoJointsPlay plays the demo d, its door pushed, in engine.
func demoJointsPlay(t *testing.T, d *scene.Document, engine string) {
	sm, err := sim.New(d, sim.Options{Engine: engine})
	if err != nil {
		t.Fatal(err)
	}
	defer sm.Close()
	for _, w := range sm.Warnings {
		if strings.Contains(w, "joint") {
			t.Errorf("warning: %s", w)
		}
	}
	peak := 0.0
	for sm.Time < 3 {
		if err := sm.Step(); err != nil {
			t.Fatal(err)
		}
		for _, j := range sm.JointStates() {
			if j.Name == "Hinge (joint)" {
				peak = math.Max(peak, math.Abs(j.Value*180/math.Pi))
			}
		}
	}
	if peak > 71 || peak < 69 {
		t.Errorf("the door pushed turned at most %.2f degrees, want it to meet its 70 degree stop and stay within 71", peak)
	}
	w := namedBody(t, sm, "Wheel (dynamic, driven hinge)").AngularVelocity
	if math.Abs(math.Abs(w[2])-2) > 0.1 || math.Abs(w[0])+math.Abs(w[1]) > 0.05 {
		t.Errorf("the wheel turns at %.3v rad/s after 3 s, want 2 about Z", w)
	}
	t.Logf("door: at most %.2f degrees; wheel %.4v rad/s", peak, w)
}
