package scene

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"physview/scene/internal/jsonobj"
)

const editFixture = "testdata/edit/editor.gltf"

func loadEditFixture(t *testing.T) *Document {
	t.Helper()
	d, err := Load(editFixture)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// encoded returns what saving d as a .gltf beside the fixture would write.
func encoded(t *testing.T, d *Document) []byte {
	t.Helper()
	files, err := d.Encode(filepath.Join(filepath.Dir(editFixture), "out.gltf"))
	if err != nil {
		t.Fatal(err)
	}
	return files[0].Data
}

// rawDiff lists the JSON pointers at which a and b differ, comparing the
// raw bytes of every leaf value (numbers as spelled, strings as escaped).
func rawDiff(a, b []byte) []string {
	var out []string
	var walk func(p string, x, y []byte)
	walk = func(p string, x, y []byte) {
		x, y = bytes.TrimSpace(x), bytes.TrimSpace(y)
		switch {
		case len(x) > 0 && len(y) > 0 && x[0] == '{' && y[0] == '{':
			ox, err1 := jsonobj.Parse(x)
			oy, err2 := jsonobj.Parse(y)
			if err1 != nil || err2 != nil {
				out = append(out, p)
				return
			}
			keys := ox.Keys()
			for _, k := range oy.Keys() {
				if !slices.Contains(keys, k) {
					keys = append(keys, k)
				}
			}
			for _, k := range keys {
				vx, okx := ox.Get(k)
				vy, oky := oy.Get(k)
				if okx != oky {
					out = append(out, p+"/"+k)
					continue
				}
				walk(p+"/"+k, vx, vy)
			}
			if slices.Equal(ox.Keys(), oy.Keys()) == false && len(out) == 0 {
				out = append(out, p+" (key order)")
			}
		case len(x) > 0 && len(y) > 0 && x[0] == '[' && y[0] == '[':
			ax, err1 := jsonobj.ParseArray(x)
			ay, err2 := jsonobj.ParseArray(y)
			if err1 != nil || err2 != nil || len(ax) != len(ay) {
				out = append(out, p)
				return
			}
			for i := range ax {
				walk(p+"/"+strconv.Itoa(i), ax[i], ay[i])
			}
		default:
			var cx, cy bytes.Buffer
			_ = json.Compact(&cx, x)
			_ = json.Compact(&cy, y)
			if !bytes.Equal(cx.Bytes(), cy.Bytes()) {
				out = append(out, p)
			}
		}
	}
	walk("", a, b)
	sort.Strings(out)
	return out
}

// checkDiff fails unless every pointer in diff starts with one of want and
// every entry of want is matched.
func checkDiff(t *testing.T, diff, want []string) {
	t.Helper()
	matched := map[string]bool{}
	for _, p := range diff {
		ok := false
		for _, w := range want {
			if p == w || strings.HasPrefix(p, w+"/") {
				ok, matched[w] = true, true
			}
		}
		if !ok {
			t.Errorf("unexpected change at %s (want changes only under %v)", p, want)
		}
	}
	for _, w := range want {
		if !matched[w] {
			t.Errorf("no change under %s; changes: %v", w, diff)
		}
	}
}

const (
	shapesPtr = "/extensions/OMI_physics_shape/shapes"
	bodyPtr   = "/extensions/OMI_physics_body"
)

func node(n int, rest string) string { return "/nodes/" + strconv.Itoa(n) + rest }

func TestEditsUndoRedo(t *testing.T) {
	box := func(x, y, z float64) Shape { s := DefaultShape(ShapeBox); s.Size = [3]float64{x, y, z}; return s }
	tests := []struct {
		name string
		edit func(d *Document) Edit
		// want lists the JSON pointers under which the saved file changes.
		want []string
	}{
		{"resize box", func(d *Document) Edit {
			s := d.Shapes[1]
			s.Size = [3]float64{2.5, 1, 1}
			return SetShape{Index: 1, Shape: s}
		}, []string{shapesPtr + "/1/box/size/0"}},
		{"box to sphere", func(d *Document) Edit {
			return SetShape{Index: 1, Shape: d.Shapes[1].WithType(ShapeSphere, -1)}
		}, []string{shapesPtr + "/1/type", shapesPtr + "/1/box", shapesPtr + "/1/sphere"}},
		{"add collider", func(d *Document) Edit { return d.AddColliderEdit(6, box(2, 4, 6)) },
			[]string{shapesPtr, node(6, "/extensions")}},
		{"remove unique collider", func(d *Document) Edit { return d.RemoveColliderEdit(1) },
			[]string{shapesPtr, node(1, "/extensions/OMI_physics_body/collider"),
				// Later shapes move down one: their users follow.
				node(2, "/extensions/OMI_physics_body/collider/shape"), node(3, "/extensions/OMI_physics_body/collider/shape"), node(4, "/extensions/OMI_physics_body/trigger/shape")}},
		{"remove shared collider keeps shape", func(d *Document) Edit { return d.RemoveColliderEdit(2) },
			[]string{node(2, "/extensions/OMI_physics_body/collider")}},
		{"add trigger", func(d *Document) Edit { return d.AddTriggerEdit(5, box(1, 1, 1)) },
			[]string{shapesPtr, node(5, "/extensions/OMI_physics_body")}},
		{"remove trigger", func(d *Document) Edit { return d.RemoveTriggerEdit(4) },
			[]string{shapesPtr, node(4, "/extensions/OMI_physics_body")}},
		{"motion mass", func(d *Document) Edit {
			m := *d.Nodes[1].Body.Motion
			m.Mass = 5
			return d.SetMotionEdit(1, &m, "")
		}, []string{node(1, "/extensions/OMI_physics_body/motion/mass")}},
		{"motion to kinematic", func(d *Document) Edit {
			m := *d.Nodes[1].Body.Motion
			m.Type = MotionKinematic
			return d.SetMotionEdit(1, &m, "")
		}, []string{node(1, "/extensions/OMI_physics_body/motion/type")}},
		{"remove motion", func(d *Document) Edit { return d.SetMotionEdit(2, nil, "") },
			[]string{node(2, "/extensions/OMI_physics_body/motion")}},
		{"add gravity with its trigger", func(d *Document) Edit { return d.AddGravityEdit(6, GravityDirectional, 3) },
			[]string{shapesPtr, node(6, "/extensions")}},
		{"add gravity to a trigger", func(d *Document) Edit {
			return SetGravity{Node: 4, Gravity: ptr(DefaultGravity(GravityDisc))}
		}, []string{node(4, "/extensions/OMI_physics_gravity")}},
		{"remove gravity", func(d *Document) Edit { return d.RemoveGravityEdit(4) },
			[]string{node(4, "/extensions/OMI_physics_gravity")}},
		{"gravity strength", func(d *Document) Edit {
			g := *d.Nodes[4].Gravity
			g.Gravity, g.Priority, g.Stop = 2, 3, true
			return SetGravity{Node: 4, Gravity: &g}
		}, []string{node(4, "/extensions/OMI_physics_gravity/gravity"), node(4, "/extensions/OMI_physics_gravity/priority"), node(4, "/extensions/OMI_physics_gravity/stop")}},
		{"world gravity", func(d *Document) Edit {
			return SetWorldGravity{Gravity: &WorldGravity{Gravity: 1.62, Direction: [3]float64{0, -1, 0}}}
		}, []string{"/extensions/OMI_physics_gravity/gravity"}},
		{"remove world gravity", func(d *Document) Edit { return SetWorldGravity{} },
			[]string{"/extensions/OMI_physics_gravity"}},
		{"add joint", func(d *Document) Edit { return d.AddJointEdit(2, 3) },
			[]string{"/extensions/OMI_physics_joint/physicsJoints", node(2, "/extensions/OMI_physics_joint")}},
		{"remove joint", func(d *Document) Edit { return d.RemoveJointEdit(5) },
			[]string{"/extensions/OMI_physics_joint", node(5, "/extensions"), "/extensionsUsed"}},
		{"joint limits", func(d *Document) Edit {
			j := d.Joints[0].clone()
			j.Limits[1].Min, j.Limits[1].Max = -0.5, 0.5
			return SetJointSettings{Index: 0, Settings: j}
		}, []string{"/extensions/OMI_physics_joint/physicsJoints/0/limits/1/min", "/extensions/OMI_physics_joint/physicsJoints/0/limits/1/max"}},
		{"make shape unique", func(d *Document) Edit { return d.MakeShapeUniqueEdit(3, false) },
			[]string{shapesPtr, node(3, "/extensions/OMI_physics_body/collider/shape")}},
		{"add physics material", func(d *Document) Edit { return AddPhysicsMaterial{Material: DefaultPhysicsMaterial()} },
			[]string{bodyPtr + "/physicsMaterials"}},
		{"edit physics material", func(d *Document) Edit {
			m := d.PhysicsMaterials[0]
			m.Restitution = 0.9
			return SetPhysicsMaterial{Index: 0, Material: m}
		}, []string{bodyPtr + "/physicsMaterials/0/restitution"}},
		{"remove physics material in use", func(d *Document) Edit { return d.RemovePhysicsMaterialEdit(0) },
			[]string{bodyPtr + "/physicsMaterials", node(0, "/extensions/OMI_physics_body/collider/physicsMaterial")}},
		{"assign physics material", func(d *Document) Edit {
			c := *d.Nodes[1].Body.Collider
			c.PhysicsMaterial = 0
			return d.SetColliderEdit(1, c, "")
		}, []string{node(1, "/extensions/OMI_physics_body/collider")}},
		{"add collision filter", func(d *Document) Edit {
			return AddCollisionFilter{Filter: CollisionFilter{CollisionSystems: []string{"props"}}}
		}, []string{bodyPtr + "/collisionFilters"}},
		{"edit collision filter", func(d *Document) Edit {
			return SetCollisionFilter{Index: 0, Filter: CollisionFilter{CollisionSystems: []string{"ground", "static"}, CollideWithSystems: []string{"props"}}}
		}, []string{bodyPtr + "/collisionFilters/0/collisionSystems"}},
		{"remove collision filter in use", func(d *Document) Edit { return d.RemoveCollisionFilterEdit(0) },
			[]string{bodyPtr + "/collisionFilters", node(0, "/extensions/OMI_physics_body/collider/collisionFilter")}},
		{"rename node", func(d *Document) Edit { return SetNodeName{Node: 1, To: "a<b & c"} },
			[]string{node(1, "/name")}},
		{"move node", func(d *Document) Edit {
			tr := d.NodeTransform(2)
			tr.Translation[1] = 4
			return SetNodeTransform{Node: 2, Transform: tr}
		}, []string{node(2, "/translation/1"), node(2, "/rotation"), node(2, "/scale")}},
		{"move a node with a matrix", func(d *Document) Edit {
			tr := d.NodeTransform(6)
			tr.Translation[2] = 1
			return SetNodeTransform{Node: 6, Transform: tr}
		}, []string{node(6, "/matrix"), node(6, "/translation"), node(6, "/rotation"), node(6, "/scale")}},
		{"add variant", func(d *Document) Edit { return AddVariantEdit("Dusk") },
			[]string{"/extensions/KHR_materials_variants/variants"}},
		{"rename variant", func(d *Document) Edit { return RenameVariantEdit(0, "Morning") },
			[]string{"/extensions/KHR_materials_variants/variants/0/name"}},
		{"remove variant", func(d *Document) Edit { return RemoveVariantEdit(0) },
			[]string{"/extensions/KHR_materials_variants/variants", "/meshes/0/primitives/0/extensions/KHR_materials_variants/mappings/0/variants/0"}},
		{"variant material", func(d *Document) Edit {
			return SetVariantMaterialEdit(PrimitiveRef{0, 0}, 0, 1)
		}, []string{"/meshes/0/primitives/0/extensions/KHR_materials_variants/mappings/0/variants"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := loadEditFixture(t)
			before := encoded(t, d)
			var h History
			e := tc.edit(d)
			if _, err := h.Do(d, e); err != nil {
				t.Fatalf("Do(%s): %v", e.Name(), err)
			}
			if !h.Modified() {
				t.Error("not modified after an edit")
			}
			after := encoded(t, d)
			checkDiff(t, rawDiff(before, after), tc.want)
			if _, ok := h.Undo(d); !ok {
				t.Fatal("nothing to undo")
			}
			if got := encoded(t, d); !bytes.Equal(got, before) {
				t.Errorf("undo does not give the bytes back; differences at %v", rawDiff(before, got))
			}
			if h.Modified() {
				t.Error("modified after undoing back to the loaded state")
			}
			if _, ok := h.Redo(d); !ok {
				t.Fatal("nothing to redo")
			}
			if got := encoded(t, d); !bytes.Equal(got, after) {
				t.Errorf("redo does not give the edited bytes; differences at %v", rawDiff(after, got))
			}
			// The saved file loads back with the edit in it.
			back, err := Decode(after, os.DirFS("testdata/edit"))
			if err != nil {
				t.Fatal(err)
			}
			if got := encoded(t, back); !bytes.Equal(got, after) {
				t.Errorf("the saved file does not load back the same; differences at %v", rawDiff(after, got))
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestEditsRefuseBadInput(t *testing.T) {
	tests := []struct {
		name string
		edit func(d *Document) Edit
		want string
	}{
		{"negative box size", func(d *Document) Edit {
			s := d.Shapes[1]
			s.Size[0] = -1
			return SetShape{Index: 1, Shape: s}
		}, "size x must be greater than 0"},
		{"zero sphere radius", func(d *Document) Edit {
			s := d.Shapes[2]
			s.Radius = 0
			return SetShape{Index: 2, Shape: s}
		}, "radius must be greater than 0"},
		{"NaN radius", func(d *Document) Edit {
			s := d.Shapes[2]
			s.Radius = math.NaN()
			return SetShape{Index: 2, Shape: s}
		}, "finite"},
		{"infinite height", func(d *Document) Edit {
			return SetShape{Index: 2, Shape: Shape{Type: ShapeCapsule, Height: math.Inf(1), RadiusTop: 1, RadiusBottom: 1, Mesh: -1}}
		}, "finite"},
		{"capsule with no radius", func(d *Document) Edit {
			return SetShape{Index: 2, Shape: Shape{Type: ShapeCapsule, Height: 1, Mesh: -1}}
		}, "must not both be 0"},
		{"negative mass", func(d *Document) Edit {
			m := *d.Nodes[1].Body.Motion
			m.Mass = -2
			return d.SetMotionEdit(1, &m, "")
		}, "mass"},
		{"convex without mesh", func(d *Document) Edit { return d.AddColliderEdit(2, DefaultShape(ShapeConvex)) }, "needs a mesh"},
		{"collider of a missing shape", func(d *Document) Edit {
			return d.SetColliderEdit(1, Collider{Shape: 99, PhysicsMaterial: -1, CollisionFilter: -1}, "")
		}, "shape 99 does not exist"},
		{"joint min above max", func(d *Document) Edit {
			j := d.Joints[0].clone()
			j.Limits[0].Min, j.Limits[0].Max = 1, -1
			return SetJointSettings{Index: 0, Settings: j}
		}, "min <= max"},
		{"zero scale", func(d *Document) Edit {
			tr := d.NodeTransform(1)
			tr.Scale[1] = 0
			return SetNodeTransform{Node: 1, Transform: tr}
		}, "scale"},
		{"negative friction", func(d *Document) Edit {
			m := d.PhysicsMaterials[0]
			m.StaticFriction = -0.1
			return SetPhysicsMaterial{Index: 0, Material: m}
		}, "friction"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := loadEditFixture(t)
			before := encoded(t, d)
			var h History
			_, err := h.Do(d, tc.edit(d))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got error %v, want one saying %q", err, tc.want)
			}
			if h.Len() != 0 || h.Modified() {
				t.Error("a refused edit was recorded")
			}
			if got := encoded(t, d); !bytes.Equal(got, before) {
				t.Errorf("a refused edit changed the document at %v", rawDiff(before, got))
			}
		})
	}
}

func TestHistoryMergesADragIntoOneStep(t *testing.T) {
	d := loadEditFixture(t)
	before := encoded(t, d)
	var h History
	for _, r := range []float64{0.3, 0.4, 0.55} {
		s := d.Shapes[2]
		s.Radius = r
		if _, err := h.Do(d, SetShape{Index: 2, Shape: s, Label: "Drag sphere radius"}); err != nil {
			t.Fatal(err)
		}
	}
	h.Seal()
	if h.Len() != 1 || h.UndoName() != "Drag sphere radius" {
		t.Fatalf("a drag of 3 steps gave %d undo steps named %q", h.Len(), h.UndoName())
	}
	if d.Shapes[2].Radius != 0.55 {
		t.Fatalf("radius %g after the drag, want 0.55", d.Shapes[2].Radius)
	}
	// A new drag after the seal is a second step.
	s := d.Shapes[2]
	s.Radius = 1
	if _, err := h.Do(d, SetShape{Index: 2, Shape: s, Label: "Drag sphere radius"}); err != nil {
		t.Fatal(err)
	}
	// Escape cancels the open drag: back to 0.55, nothing to redo.
	if _, ok := h.Cancel(d); !ok {
		t.Fatal("cancel found no open drag")
	}
	if d.Shapes[2].Radius != 0.55 || h.Len() != 1 || h.RedoName() != "" {
		t.Fatalf("after cancel: radius %g, %d steps, redo %q", d.Shapes[2].Radius, h.Len(), h.RedoName())
	}
	h.Undo(d)
	if got := encoded(t, d); !bytes.Equal(got, before) {
		t.Errorf("undoing the drag does not give the bytes back: %v", rawDiff(before, got))
	}
	if h.RedoName() != "Drag sphere radius" {
		t.Errorf("redo names %q", h.RedoName())
	}
}

func TestHistoryModifiedFollowsTheSavedState(t *testing.T) {
	d := loadEditFixture(t)
	var h History
	rename := func(name string) {
		if _, err := h.Do(d, SetNodeName{Node: 0, To: name}); err != nil {
			t.Fatal(err)
		}
		h.Seal()
	}
	rename("a")
	h.MarkSaved()
	if h.Modified() {
		t.Fatal("modified right after saving")
	}
	rename("b")
	if !h.Modified() {
		t.Fatal("not modified after an edit")
	}
	h.Undo(d)
	if h.Modified() {
		t.Fatal("modified after undoing back to the saved state")
	}
	h.Undo(d)
	if !h.Modified() {
		t.Fatal("not modified after undoing past the saved state")
	}
	h.Redo(d)
	if h.Modified() {
		t.Fatal("modified after redoing to the saved state")
	}
	// A new edit from an earlier state drops the redo list holding the
	// saved state: nothing can reach it any more.
	h.Undo(d)
	rename("c")
	h.Undo(d)
	if !h.Modified() {
		t.Fatal("the saved state is gone but the document reads unmodified")
	}
}

func TestSaveKeepsHTMLCharacters(t *testing.T) {
	d := loadEditFixture(t)
	if _, err := Apply(d, SetNodeName{Node: 2, To: "a<b & c>"}); err != nil {
		t.Fatal(err)
	}
	out := encoded(t, d)
	if !bytes.Contains(out, []byte(`"name": "a<b & c>"`)) {
		t.Errorf("the name is not written as typed:\n%s", grepLine(out, "a"))
	}
	// Untouched strings with the same characters keep their bytes too.
	if !bytes.Contains(out, []byte(`"note": "keep me & <this>"`)) {
		t.Errorf("extras with & and < changed:\n%s", grepLine(out, "note"))
	}
	if bytes.Contains(out, []byte(`\u003c`)) || bytes.Contains(out, []byte(`\u0026`)) {
		t.Error("the saved file has HTML escapes")
	}
}

func grepLine(b []byte, sub string) string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func TestCloneIsIndependent(t *testing.T) {
	d := loadEditFixture(t)
	before := encoded(t, d)
	c := d.Clone()
	var h History
	edits := []Edit{
		SetNodeName{Node: 1, To: "changed"},
		SetNodeTransform{Node: 1, Transform: Transform{[3]float64{9, 9, 9}, [4]float64{0, 0, 0, 1}, [3]float64{1, 1, 1}}},
		SetShape{Index: 1, Shape: DefaultShape(ShapeSphere)},
		c.RemoveColliderEdit(2),
		RemoveVariantEdit(1),
	}
	for _, e := range edits {
		if _, err := h.Do(c, e); err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
	}
	if got := encoded(t, d); !bytes.Equal(got, before) {
		t.Errorf("editing the clone changed the original at %v", rawDiff(before, got))
	}
	if got := encoded(t, c); bytes.Equal(got, before) {
		t.Error("the clone's edits did not reach its saved bytes")
	}
}
