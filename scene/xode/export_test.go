package xode

import (
	"bytes"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"physview/assets"
	"physview/internal/testcorpus"
	"physview/scene"
)

// inertiaTensor rebuilds a motion's inertia about its centre of mass; the
// diagonal and orientation may come out permuted after a round trip, the
// tensor may not.
func inertiaTensor(m *scene.Motion) mgl64.Mat3 {
	q := mgl64.Quat{W: m.InertiaOrientation[3], V: mgl64.Vec3{m.InertiaOrientation[0], m.InertiaOrientation[1], m.InertiaOrientation[2]}}
	r := q.Normalize().Mat4().Mat3()
	return r.Mul3(diag(m.InertiaDiagonal[0], m.InertiaDiagonal[1], m.InertiaDiagonal[2])).Mul3(r.Transpose())
}

func sameModel(t *testing.T, a, b *scene.Document) {
	t.Helper()
	if len(a.GLTF.Nodes) != len(b.GLTF.Nodes) || len(a.Shapes) != len(b.Shapes) || len(a.Joints) != len(b.Joints) {
		t.Fatalf("nodes %d/%d, shapes %d/%d, joints %d/%d", len(a.GLTF.Nodes), len(b.GLTF.Nodes), len(a.Shapes), len(b.Shapes), len(a.Joints), len(b.Joints))
	}
	wa, wb := a.WorldMatrices(), b.WorldMatrices()
	// Under a sheared transform (PyODE's test document has one on purpose)
	// joint frames cannot be placed exactly (the import warns): skip them.
	sheared := hasShear(a)
	for i := range wa {
		if a.GLTF.Nodes[i].Name != b.GLTF.Nodes[i].Name {
			t.Fatalf("node %d: %q vs %q", i, a.GLTF.Nodes[i].Name, b.GLTF.Nodes[i].Name)
		}
		if sheared && (a.Nodes[i].Joint != nil || strings.HasSuffix(a.GLTF.Nodes[i].Name, "(connected)")) {
			continue
		}
		for k := range wa[i] {
			if math.Abs(wa[i][k]-wb[i][k]) > 1e-6 {
				t.Fatalf("node %d (%s): world matrix %v vs %v", i, a.GLTF.Nodes[i].Name, wa[i], wb[i])
			}
		}
		ba, bb := a.Nodes[i].Body, b.Nodes[i].Body
		if (ba == nil) != (bb == nil) {
			t.Fatalf("node %d: body %v vs %v", i, ba, bb)
		}
		if ba != nil && ba.Motion != nil {
			ma, mb := ba.Motion, bb.Motion
			if math.Abs(ma.Mass-mb.Mass) > 1e-9*math.Max(1, ma.Mass) || mgl64.Vec3(ma.CenterOfMass).Sub(mgl64.Vec3(mb.CenterOfMass)).Len() > 1e-9 {
				t.Errorf("node %d: mass %g %v vs %g %v", i, ma.Mass, ma.CenterOfMass, mb.Mass, mb.CenterOfMass)
			}
			ia, ib := inertiaTensor(ma), inertiaTensor(mb)
			for k := range ia {
				if math.Abs(ia[k]-ib[k]) > 1e-9*math.Max(1, math.Abs(ia[k])) {
					t.Errorf("node %d: inertia %v vs %v", i, ia, ib)
					break
				}
			}
			if ma.LinearVelocity != mb.LinearVelocity || ma.AngularVelocity != mb.AngularVelocity || ma.GravityFactor != mb.GravityFactor {
				t.Errorf("node %d: velocities or gravity factor differ", i)
			}
		}
		if ba != nil && ba.Collider != nil {
			sa, sb := a.Shapes[ba.Collider.Shape], b.Shapes[bb.Collider.Shape]
			sa.Extra, sb.Extra, sa.SubExtra, sb.SubExtra = nil, nil, nil, nil
			if sa.Type != sb.Type || sa.Size != sb.Size || sa.Radius != sb.Radius || sa.Height != sb.Height || sa.RadiusTop != sb.RadiusTop {
				t.Errorf("node %d: shape %+v vs %+v", i, sa, sb)
			}
		}
		ja, jb := a.Nodes[i].Joint, b.Nodes[i].Joint
		if (ja == nil) != (jb == nil) {
			t.Fatalf("node %d: joint %v vs %v", i, ja, jb)
		}
		if ja != nil {
			la, lb := a.Joints[ja.Joint].Limits, b.Joints[jb.Joint].Limits
			if len(la) != len(lb) {
				t.Errorf("node %d: %d vs %d limits", i, len(la), len(lb))
			}
		}
	}
}

func TestRoundTripCorpus(t *testing.T) {
	dir := testcorpus.Dir(t)
	for _, f := range testcorpus.Models(t, ".xode") {
		t.Run(filepath.Base(f), func(t *testing.T) {
			a, err := Load(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			x1, _, err := Encode(a)
			if err != nil {
				t.Fatal(err)
			}
			b, err := Decode(x1)
			if err != nil {
				t.Fatalf("written XODE does not read back: %v\n%s", err, x1)
			}
			sameModel(t, a, b)
			x2, _, err := Encode(b)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(x1, x2) && !hasShear(a) {
				t.Errorf("second XODE write differs from the first")
			}
		})
	}
}

// TestExtRetained: ext elements come back verbatim ("XODE 1.0r23 +retain").
func TestExtRetained(t *testing.T) {
	doc := `<xode version="1.0r23"><ext name="top"><note text="kept"/></ext><world><space>
<body name="b" enabled="false" custom:flag="on" future="yes"><ext name="com.example.tag"><tag value="red &amp; blue"/></ext><geom><sphere radius="1"/></geom></body>
</space></world></xode>`
	d, err := Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := Encode(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<ext name="top"><note text="kept"/></ext>`, `<ext name="com.example.tag"><tag value="red &amp; blue"/></ext>`, `<body name="b" enabled="false" flag="on" future="yes">`} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("written XODE lacks %s:\n%s", want, out)
		}
	}
	// Also through glTF: the ext survives in the node's extras.
	g := filepath.Join(t.TempDir(), "b.gltf")
	if err := d.Save(g); err != nil {
		t.Fatal(err)
	}
	gd, err := scene.Load(g)
	if err != nil {
		t.Fatal(err)
	}
	out2, _, err := Encode(gd)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out2, []byte(`<ext name="com.example.tag">`)) {
		t.Errorf("ext lost on the way through glTF:\n%s", out2)
	}
}

// TestGLTFToXODE: the demo scene (gravity, triggers, variants, every shape)
// goes to XODE with warnings for what XODE cannot hold; the bodies come back
// at the same world positions.
func TestGLTFToXODE(t *testing.T) {
	d, err := scene.Decode(assets.Demo, nil)
	if err != nil {
		t.Fatal(err)
	}
	out, warnings, err := Encode(d)
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(warnings, "\n")
	for _, want := range []string{"gravity fields", "triggers", "material variants", "tapered capsule", "convex shapes"} {
		if !strings.Contains(all, want) {
			t.Errorf("no warning about %s:\n%s", want, all)
		}
	}
	x, err := Decode(out)
	if err != nil {
		t.Fatalf("written XODE does not read back: %v\n%s", err, out)
	}
	positions := func(doc *scene.Document) map[string]mgl64.Vec3 {
		m := map[string]mgl64.Vec3{}
		w := doc.WorldMatrices()
		for i, ne := range doc.Nodes {
			if ne.Body != nil && ne.Body.Motion != nil {
				m[doc.GLTF.Nodes[i].Name] = w[i].Col(3).Vec3()
			}
		}
		return m
	}
	pa, pb := positions(d), positions(x)
	if len(pa) == 0 || len(pa) != len(pb) {
		t.Fatalf("bodies: %d in glTF, %d in XODE", len(pa), len(pb))
	}
	for name, p := range pa {
		if q, ok := pb[name]; !ok || p.Sub(q).Len() > 1e-6 {
			t.Errorf("body %q at %v, after XODE %v", name, p, q)
		}
	}
	if len(x.Joints) != 2 {
		t.Errorf("%d joints after XODE, want the door's hinge and the wheel's", len(x.Joints))
	}
}

// hasShear reports the import's warning about a sheared transform, under
// which joint frames drift on every round trip.
func hasShear(d *scene.Document) bool {
	for _, f := range d.Findings() {
		if strings.Contains(f.Message, "not a rotation and translation") {
			return true
		}
	}
	return false
}
