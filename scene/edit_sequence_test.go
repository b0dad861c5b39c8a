package scene

import (
	"bytes"
	"math/rand"
	"testing"
)

// TestRandomEditSequences applies long seeded sequences of every kind of
// edit (refused ones included), then undoes them all: the saved bytes are
// the original ones; redoes them all: the bytes after the sequence again.
// Edits interact here as they do for a user (a shape removed after a body
// was changed, a variant removed after its mappings were set), which the
// one-edit table cannot show.
func TestRandomEditSequences(t *testing.T) {
	for seed := int64(1); seed <= 200; seed++ {
		d := loadEditFixture(t)
		original := encoded(t, d)
		r := rand.New(rand.NewSource(seed))
		var h History
		done := 0
		for i := 0; i < 120; i++ {
			e := randomEdit(r, d)
			if e == nil {
				continue
			}
			if _, err := h.Do(d, e); err == nil {
				done++
			}
			if r.Intn(3) == 0 {
				h.Seal()
			}
			// Now and then undo a step and carry on from there.
			if r.Intn(8) == 0 {
				h.Undo(d)
			}
		}
		h.Seal()
		after := encoded(t, d)
		if _, err := Decode(after, nil); err != nil {
			t.Fatalf("seed %d: the edited document does not load back: %v", seed, err)
		}
		steps := h.Len()
		for h.Len() > 0 {
			if _, ok := h.Undo(d); !ok {
				t.Fatalf("seed %d: undo failed with %d steps left", seed, h.Len())
			}
		}
		if got := encoded(t, d); !bytes.Equal(got, original) {
			t.Fatalf("seed %d (%d edits done, %d steps): undoing everything differs at %v", seed, done, steps, rawDiff(original, got))
		}
		if h.Modified() {
			t.Errorf("seed %d: modified after undoing everything", seed)
		}
		// Redo the steps that were done (a step undone at the very end of
		// the sequence stays below them on the redo list).
		for i := 0; i < steps; i++ {
			if _, ok := h.Redo(d); !ok {
				t.Fatalf("seed %d: redo %d of %d failed", seed, i+1, steps)
			}
		}
		if got := encoded(t, d); !bytes.Equal(got, after) {
			t.Fatalf("seed %d: redoing everything differs at %v", seed, rawDiff(after, got))
		}
	}
}

// randomEdit picks an edit of a random kind with random (sometimes bad)
// values for the document as it is.
func randomEdit(r *rand.Rand, d *Document) Edit {
	n := r.Intn(len(d.GLTF.Nodes))
	val := func() float64 { return []float64{0.5, 1, 2.25, -1, 0}[r.Intn(5)] }
	shapes := []ShapeType{ShapeBox, ShapeSphere, ShapeCapsule, ShapeCylinder, ShapeConvex, ShapeTrimesh}
	newShape := func() Shape {
		s := DefaultShape(shapes[r.Intn(len(shapes))])
		if s.Type == ShapeConvex || s.Type == ShapeTrimesh {
			s.Mesh = 0
		}
		return s
	}
	switch r.Intn(22) {
	case 0:
		if len(d.Shapes) == 0 {
			return nil
		}
		i := r.Intn(len(d.Shapes))
		s := d.Shapes[i]
		s.Size[r.Intn(3)] = val()
		s.Radius = val()
		return SetShape{Index: i, Shape: s, Label: "random"}
	case 1:
		if len(d.Shapes) == 0 {
			return nil
		}
		i := r.Intn(len(d.Shapes))
		return SetShape{Index: i, Shape: d.Shapes[i].WithType(shapes[r.Intn(4)], 0)}
	case 2:
		return d.AddColliderEdit(n, newShape())
	case 3:
		return d.RemoveColliderEdit(n)
	case 4:
		return d.AddTriggerEdit(n, newShape())
	case 5:
		return d.RemoveTriggerEdit(n)
	case 6:
		m := DefaultMotion(MotionType(1 + r.Intn(3)))
		m.Mass = val()
		return d.SetMotionEdit(n, &m, "")
	case 7:
		return d.SetMotionEdit(n, nil, "")
	case 8:
		return d.AddGravityEdit(n, GravityType(1+r.Intn(5)), val())
	case 9:
		return d.RemoveGravityEdit(n)
	case 10:
		return d.AddJointEdit(n, r.Intn(len(d.GLTF.Nodes)))
	case 11:
		return d.RemoveJointEdit(n)
	case 12:
		return d.MakeShapeUniqueEdit(n, r.Intn(2) == 0)
	case 13:
		return AddPhysicsMaterial{Material: DefaultPhysicsMaterial()}
	case 14:
		if len(d.PhysicsMaterials) == 0 {
			return nil
		}
		return d.RemovePhysicsMaterialEdit(r.Intn(len(d.PhysicsMaterials)))
	case 15:
		return AddCollisionFilter{Filter: CollisionFilter{CollisionSystems: []string{"x"}}}
	case 16:
		if len(d.CollisionFilters) == 0 {
			return nil
		}
		return d.RemoveCollisionFilterEdit(r.Intn(len(d.CollisionFilters)))
	case 17:
		return SetNodeName{Node: n, To: []string{"a<b & c", "", "x"}[r.Intn(3)]}
	case 18:
		tr := d.NodeTransform(n)
		tr.Translation[r.Intn(3)] += val()
		tr.Scale[r.Intn(3)] = val()
		return SetNodeTransform{Node: n, Transform: tr, Label: "random"}
	case 19:
		return AddVariantEdit("v")
	case 20:
		if len(d.Variants) == 0 {
			return nil
		}
		return RemoveVariantEdit(r.Intn(len(d.Variants)))
	case 21:
		if len(d.Variants) == 0 {
			return nil
		}
		return SetVariantMaterialEdit(PrimitiveRef{0, 0}, r.Intn(len(d.Variants)), r.Intn(3)-1)
	}
	return nil
}
