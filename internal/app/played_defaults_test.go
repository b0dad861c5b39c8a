package app

import (
	"slices"
	"strings"
	"testing"
)

// TestPlayTellsDefaultsPlayed: Play on a file with a physics value of the
// wrong type says, in the message line and first in the Play tab's notes,
// where it is and what plays instead, in each dialect; after an edit of
// that value the note is gone (the edit is what plays), and undoing the
// edit brings it back.
func TestPlayTellsDefaultsPlayed(t *testing.T) {
	for _, tc := range []struct {
		file, edit, note string
	}{
		{"khr.gltf", "Ball radius=0.7",
			`extensions.KHR_implicit_shapes.shapes[1].sphere.radius must be a number, found "big"; 0.5 is used instead`},
		{"core21.gltf", "Pill height=2",
			`shapes[1].capsule.height must be a number, found "tall"; 1 is used instead`},
	} {
		t.Run(tc.file, func(t *testing.T) {
			s, _ := open(t, "testdata/mismatch/"+tc.file)
			if !s.StepPlay(1) {
				t.Fatalf("Play did not step: %s", s.Play.Error)
			}
			if want := "played a default: " + tc.note; len(s.Play.Notes) == 0 || s.Play.Notes[0] != want {
				t.Errorf("notes %q, want first %q", s.Play.Notes, want)
			}
			m, _, ok := s.Message()
			if want := tc.file + " plays a default: " + tc.note; !ok || m.Text != want || !m.Error {
				t.Errorf("message %+v, want the error %q", m, want)
			}
			s.Do(PlayReset{})
			if err := s.RunCommand(append([]string{"shape"}, strings.Fields(tc.edit)...)); err != nil {
				t.Fatal(err)
			}
			if got := DefaultsPlayed(s.Doc); len(got) != 0 {
				t.Errorf("after the edit: %q, want none", got)
			}
			s.Do(Undo{})
			if got := DefaultsPlayed(s.Doc); !slices.Equal(got, []string{tc.note}) {
				t.Errorf("after undo: %q, want %q", got, tc.note)
			}
		})
	}
}
