package khr_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"physview/scene"
	_ "physview/scene/dialects" // OMI too, for the change to OMI
)

// TestDialectsOfTheCodec: a KHR file on glTF 2.0 and a glTF 2.1 file with
// core shapes are read by this package's codec with their own defaults,
// say where their shapes live, save unedited byte for byte, and a change to
// OMI and its undo give the file back.
func TestDialectsOfTheCodec(t *testing.T) {
	for _, tc := range []struct {
		file    string
		dialect scene.PhysicsDialect
		// capsule is shape 0's height and radii: an omitted value is the
		// KHR_implicit_shapes release candidate's default (0.5, 0.25) or
		// the glTF 2.1 one (1, 0.5).
		capsule [3]float64
		source  string
		params  string
		bvShape int // node 1's bounding volume shape, -1 for none
	}{
		{"khr20.gltf", scene.DialectKHR, [3]float64{0.5, 0.25, 0.25}, "khr",
			`{"height":0.5,"radiusBottom":0.25,"radiusTop":0.25}`, -1},
		{"core21.gltf", scene.DialectGLTF21, [3]float64{1, 0.5, 0.5}, "gltf2.1",
			`{"height":1,"radiusBottom":0.5,"radiusTop":0.5}`, 1},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("testdata", tc.file)
			orig, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			d, err := scene.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := d.PhysicsDialect(); got != tc.dialect {
				t.Fatalf("dialect %v, want %v", got, tc.dialect)
			}
			if len(d.Shapes) != 2 {
				t.Fatalf("%d shapes, want 2", len(d.Shapes))
			}
			s := d.Shapes[0]
			if got := [3]float64{s.Height, s.RadiusTop, s.RadiusBottom}; got != tc.capsule {
				t.Errorf("capsule height and radii %v, want %v", got, tc.capsule)
			}
			source, typ, params := d.ShapeForm(0)
			var compact bytes.Buffer
			if err := jsonCompact(&compact, params); err != nil {
				t.Fatal(err)
			}
			if source != tc.source || typ != "capsule" || compact.String() != tc.params {
				t.Errorf("ShapeForm(0) = %s %s %s, want %s capsule %s", source, typ, compact.String(), tc.source, tc.params)
			}
			bv := -1
			if b := d.Nodes[1].BoundingVolume; b != nil {
				bv = b.Shape
				if b.Translation != [3]float64{0, 1, 0} {
					t.Errorf("bounding volume translation %v, want [0 1 0]", b.Translation)
				}
			}
			if bv != tc.bvShape {
				t.Errorf("node 1's bounding volume shape %d, want %d", bv, tc.bvShape)
			}
			for _, f := range d.Validate() {
				if f.Severity == scene.Error {
					t.Errorf("finding %s %s: %s", f.Code, f.Path, f.Message)
				}
			}
			save := func() []byte {
				t.Helper()
				out, err := d.Encode(filepath.Join(t.TempDir(), tc.file))
				if err != nil {
					t.Fatal(err)
				}
				return out[0].Data
			}
			if got := save(); !bytes.Equal(got, orig) {
				t.Errorf("unedited save changed the file:\n%s", got)
			}
			var h scene.History
			if _, err := h.Do(d, scene.ChangePhysicsDialect{To: scene.DialectOMI}); err != nil {
				t.Fatal(err)
			}
			omi := save()
			if d.PhysicsDialect() != scene.DialectOMI || !bytes.Contains(omi, []byte(scene.ExtShape)) || bytes.Contains(omi, []byte(scene.ExtKHRBodies)) {
				t.Errorf("saved as OMI (%v):\n%s", d.PhysicsDialect(), omi)
			}
			if _, ok := h.Undo(d); !ok {
				t.Fatal("nothing to undo")
			}
			if d.PhysicsDialect() != tc.dialect {
				t.Errorf("dialect after undo %v, want %v", d.PhysicsDialect(), tc.dialect)
			}
			if got := save(); !bytes.Equal(got, orig) {
				t.Errorf("save after undo differs from the file:\n%s", got)
			}
		})
	}
}

func jsonCompact(b *bytes.Buffer, raw []byte) error { return json.Compact(b, raw) }
