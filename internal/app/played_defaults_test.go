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

// TestDefaultsPlayedShown: more than MaxDefaultsShown lines are cut, with
// a last line counting the rest.
func TestDefaultsPlayedShown(t *testing.T) {
	var lines []string
	for i := range 12 {
		lines = append(lines, strings.Repeat("x", i+1))
	}
	got := DefaultsPlayedShown(lines)
	if len(got) != 11 || got[9] != "xxxxxxxxxx" || got[10] != "and 2 more values of the wrong type play as defaults (viewer validate lists them all)" {
		t.Errorf("%q", got)
	}
	if got := DefaultsPlayedShown(lines[:3]); !slices.Equal(got, lines[:3]) {
		t.Errorf("%q, want the 3 lines", got)
	}
	if len(lines) != 12 || lines[10] != "xxxxxxxxxxx" {
		t.Error("the caller's lines were changed")
	}
}
