package sim

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"physview/scene"
)

// TestDegenerateShapesPlay: in a KHR file a shape with a size of 0 is
// valid (degenerate: an info in validate and in the Khronos physics
// validator), so the scene plays in every engine with that size at
// MinShapeSize, said in a note: a ball lands on a floor box of height 0 and
// on a disc (a cylinder of height 0), and a point ball (radius 0) lands on
// a ground box. A negative size is still refused. A shape of a type
// physview does not know (a warning) is left out, said in a note.
func TestDegenerateShapesPlay(t *testing.T) {
	const ground = `{"type": "box", "box": {"size": [10, 1, 10]}}`
	const ball = `{"type": "sphere", "sphere": {"radius": 0.5}}`
	tests := []struct {
		name           string
		floor, dropped string
		floorY, dropY  float64
		wantY, tol     float64
		note, refused  string
		speed          float64 // at the end: 0 at rest, g·t falling
	}{
		{"floor box of height 0", `{"type": "box", "box": {"size": [10, 0, 10]}}`, ball, 0, 2, 0.5 + MinShapeSize/2, 0.002,
			"shape 0 (box 10 x 0 x 10) is degenerate: its sizes of 0 are played as 0.001 m", "", 0},
		{"disc: cylinder of height 0", `{"type": "cylinder", "cylinder": {"height": 0, "radiusTop": 3, "radiusBottom": 3}}`, ball, 0, 2, 0.5 + MinShapeSize/2, 0.002,
			"shape 0 (cylinder of height 0, radii 3 and 3) is degenerate", "", 0},
		{"point ball", ground, `{"type": "sphere", "sphere": {"radius": 0}}`, -0.5, 1, MinShapeSize, 0.002,
			"shape 1 (sphere of radius 0) is degenerate", "", 0},
		{"negative radius", ground, `{"type": "sphere", "sphere": {"radius": -1}}`, -0.5, 1, 0, 0,
			"", `node "dropped" (node 1): collider shape 1 is invalid: sphere radius must be greater than 0 (got -1)`, 0},
		// A type an extension may define (a warning in validate): the
		// collider is left out, so the ball falls through the ground.
		{"unknown type", ground, `{"type": "torus", "torus": {"radius": 1}}`, -0.5, 1, 1 - 9.80665*2, 0.05,
			"shape 1 has a type physview does not know: the colliders and triggers that use it are left out", "", 9.80665 * 2},
	}
	for _, eng := range Engines {
		for _, tc := range tests {
			t.Run(eng+"/"+tc.name, func(t *testing.T) {
				doc := fmt.Sprintf(`{"asset": {"version": "2.0"}, "extensionsUsed": ["KHR_implicit_shapes", "KHR_physics_rigid_bodies"],
"extensions": {"KHR_implicit_shapes": {"shapes": [%s, %s]}},
"scene": 0, "scenes": [{"nodes": [0, 1]}],
"nodes": [
 {"name": "floor", "translation": [0, %g, 0], "extensions": {"KHR_physics_rigid_bodies": {"collider": {"geometry": {"shape": 0}}}}},
 {"name": "dropped", "translation": [0, %g, 0], "extensions": {"KHR_physics_rigid_bodies": {"motion": {"mass": 1}, "collider": {"geometry": {"shape": 1}}}}}
]}`, tc.floor, tc.dropped, tc.floorY, tc.dropY)
				d, err := scene.Decode([]byte(doc), nil)
				if err != nil {
					t.Fatal(err)
				}
				s, err := New(d, Options{Engine: eng})
				if tc.refused != "" {
					if err == nil || !strings.Contains(err.Error(), tc.refused) {
						if s != nil {
							s.Close()
						}
						t.Fatalf("New: %v, want %q", err, tc.refused)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				if w := strings.Join(s.Warnings, "\n"); !strings.Contains(w, tc.note) {
					t.Errorf("warnings %q, want %q", w, tc.note)
				}
				if err := s.Run(2); err != nil {
					t.Fatal(err)
				}
				b := s.Bodies[0]
				if y := b.Position[1]; y < tc.wantY-tc.tol || y > tc.wantY+tc.tol {
					t.Errorf("%s rests at y = %.4f, want %.4f within %g m", b.Name, y, tc.wantY, tc.tol)
				}
				if v := b.LinearVelocity.Len(); math.Abs(v-tc.speed) > 0.05 {
					t.Errorf("%s moves at %.3f m/s after 2 s, want %.3f", b.Name, v, tc.speed)
				}
			})
		}
	}
}
