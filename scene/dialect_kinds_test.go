package scene

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
)

// motionFieldsNotCompared are the Motion fields the round trip leaves at
// their defaults: the type is the fixture's, Extra is the file's own keys,
// and an infinite inertia has no OMI form (a written [0, 0, 0] is computed
// there), so it is checked by the conversion tests instead.
var motionFieldsNotCompared = map[string]bool{"Type": true, "Extra": true, "InertiaInfinite": true}

// checkEveryMotionField fails when m leaves a Motion field at its default,
// so a field added to Motion must be given a value here and then survive
// every dialect.
func checkEveryMotionField(t *testing.T, m Motion) {
	t.Helper()
	def := reflect.ValueOf(DefaultMotion(m.Type))
	v := reflect.ValueOf(m)
	for i := range v.NumField() {
		name := v.Type().Field(i).Name
		if !motionFieldsNotCompared[name] && reflect.DeepEqual(v.Field(i).Interface(), def.Field(i).Interface()) {
			t.Fatalf("Motion.%s keeps its default in this test: give it a value, so every dialect is shown to keep it", name)
		}
	}
}

// TestDialectsKeepEveryKind: every shape kind the model knows, with
// values other than any dialect's defaults, and every motion field, comes
// back the same from a save in each dialect (OMI, KHR, glTF 2.1). A new
// kind or body field a dialect forgets fails here.
func TestDialectsKeepEveryKind(t *testing.T) {
	dir, err := filepath.Abs(dialectFixtures)
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range ShapeTypes() {
		s := DefaultShape(typ)
		if k := kindOf(typ); k.fromExtents != nil {
			k.fromExtents(&s, [3]float64{0.3, 0.4, 0.7})
		}
		switch typ {
		case ShapeConvex, ShapeTrimesh:
			s.Mesh = 0
		case ShapePlane:
			s.Size = [3]float64{2, 0, 3}
		case ShapeHeightmap:
			s.Size, s.Heights = [3]float64{2, 0, 2}, []float64{0, 0.1, 0.2, 0.3}
		case ShapeRay:
			s.Length = 2.5
		}
		for _, to := range []PhysicsDialect{DialectOMI, DialectKHR, DialectGLTF21} {
			t.Run(typ.String()+" as "+to.String(), func(t *testing.T) {
				d := mustLoad(t, dialectFixtures+"scene_gltf21.gltf")
				d.Shapes[2] = s // node 2's collider
				d.Nodes[2].Body.Collider.PhysicsMaterial, d.Nodes[2].Body.Collider.CollisionFilter = 0, 1
				wantMaterials, wantFilters := mustJSON(d.PhysicsMaterials), mustJSON(d.CollisionFilters)
				m := d.Nodes[1].Body.Motion
				m.Mass, m.CenterOfMass, m.InertiaDiagonal = 3, [3]float64{0.1, 0.2, 0.3}, [3]float64{1, 2, 3}
				m.InertiaOrientation = [4]float64{0, 0.6, 0, 0.8}
				m.LinearVelocity, m.AngularVelocity, m.GravityFactor = [3]float64{1, 0, 0}, [3]float64{0, 1, 0}, 0.5
				want := *m
				checkEveryMotionField(t, want)
				d.SetPhysicsDialect(to)
				back := encodeAs(t, d, dir)
				if back.Nodes[1].Body == nil || back.Nodes[1].Body.Motion == nil || back.Nodes[2].Body == nil {
					t.Fatalf("the %s save lost its bodies (is the dialect's package registered? scene/dialects_test.go links them)", to)
				}
				c := back.Nodes[2].Body.Collider
				if c == nil || c.Shape < 0 || c.Shape >= len(back.Shapes) {
					t.Fatalf("node 2 lost its collider: %+v", c)
				}
				var a, b bytes.Buffer
				_ = json.Compact(&a, s.encode())
				_ = json.Compact(&b, back.Shapes[c.Shape].encode())
				if a.String() != b.String() {
					t.Errorf("shape changed:\n got %s\nwant %s", b.String(), a.String())
				}
				if c.PhysicsMaterial != 0 || c.CollisionFilter != 1 {
					t.Errorf("node 2's collider has physics material %d and collision filter %d, want 0 and 1", c.PhysicsMaterial, c.CollisionFilter)
				}
				if gm, gf := mustJSON(back.PhysicsMaterials), mustJSON(back.CollisionFilters); !bytes.Equal(gm, wantMaterials) || !bytes.Equal(gf, wantFilters) {
					t.Errorf("materials or filters changed:\n got %s %s\nwant %s %s", gm, gf, wantMaterials, wantFilters)
				}
				got := *back.Nodes[1].Body.Motion
				got.Extra, want.Extra = nil, nil
				if gj, wj := mustJSON(got), mustJSON(want); !bytes.Equal(gj, wj) {
					t.Errorf("motion changed:\n got %s\nwant %s", gj, wj)
				}
			})
		}
	}
}
