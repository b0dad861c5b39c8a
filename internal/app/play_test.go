package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writePile writes n dynamic spheres all at one point over a floor.
func writePile(t testing.TB, dir string, n int, motion string) string {
	t.Helper()
	nodes := []string{`{"name": "floor", "translation": [0, -0.5, 0], "extensions": {"OMI_physics_body": {"collider": {"shape": 1}}}}`}
	roots := []string{"0"}
	for i := 0; i < n; i++ {
		nodes = append(nodes, fmt.Sprintf(`{"name": "b%d", "translation": [0, 1, 0], "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"%s}, "collider": {"shape": 0}}}}`, i, motion))
		roots = append(roots, fmt.Sprint(i+1))
	}
	doc := fmt.Sprintf(`{"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body"],
	"extensions": {"OMI_physics_shape": {"shapes": [{"type": "sphere", "sphere": {"radius": 0.25}}, {"type": "box", "box": {"size": [20, 1, 20]}}]}},
	"scene": 0, "scenes": [{"nodes": [%s]}], "nodes": [%s]}`, strings.Join(roots, ","), strings.Join(nodes, ","))
	p := filepath.Join(dir, "pile.gltf")
	if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPlayReportsDroppedContacts: 300 spheres at one point make more
// contacts than a step's budget; the Play tab's state says contacts were
// dropped, and the simulation goes on.
func TestPlayReportsDroppedContacts(t *testing.T) {
	s, _ := open(t, writePile(t, t.TempDir(), 300, ""))
	if !s.StepPlay(3) {
		t.Fatalf("Play did not step: %s", s.Play.Error)
	}
	if s.Play.Error != "" {
		t.Fatalf("error %q", s.Play.Error)
	}
	if !strings.Contains(s.Play.Dropped, "contacts dropped in") {
		t.Errorf("Dropped = %q, want the dropped contacts reported", s.Play.Dropped)
	}
}

// TestPlayRefusesHostileValues: a scene with a velocity of 1e30 does not
// play: the Play tab shows the error naming the node, and the session (and
// its document) stay as they were.
func TestPlayRefusesHostileValues(t *testing.T) {
	s, _ := open(t, writePile(t, t.TempDir(), 1, `, "linearVelocity": [1e30, 0, 0]`))
	if s.StepPlay(1) {
		t.Fatal("a scene with a velocity of 1e30 played")
	}
	if !strings.Contains(s.Play.Error, `node "b0" (node 1): linear velocity [1e+30 0 0]`) {
		t.Errorf("Error = %q, want one naming b0 and the velocity", s.Play.Error)
	}
	if s.Play.Running() {
		t.Error("a simulation is running")
	}
}

// TestStepPlayTakesEveryStep: StepPlay(n) takes all n steps however long
// they take (a loaded machine), while a frame of Play (PlayFrame) stops
// after the step budget, so that the window stays responsive.
func TestStepPlayTakesEveryStep(t *testing.T) {
	old := stepBudget
	stepBudget = time.Nanosecond // every step is over budget
	defer func() { stepBudget = old }()
	for _, tc := range []struct {
		name string
		step func(s *Session)
		want int
	}{
		{"StepPlay(30)", func(s *Session) { s.StepPlay(30) }, 30},
		{"a frame of Play, 0.1 s late", func(s *Session) {
			s.Play.Playing = true
			now := time.Now()
			s.PlayFrame(now)
			s.PlayFrame(now.Add(100 * time.Millisecond))
		}, 1},
	} {
		s, _ := open(t, writePile(t, t.TempDir(), 2, ""))
		tc.step(s)
		if s.Play.Sim == nil {
			t.Fatalf("%s: Play did not start: %q", tc.name, s.Play.Error)
		}
		if got := s.Play.Sim.Steps; got != tc.want {
			t.Errorf("%s: %d steps, want %d", tc.name, got, tc.want)
		}
	}
}
