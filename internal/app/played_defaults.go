package app

import (
	"fmt"

	"physview/scene"
)

// DefaultsPlayed returns one line per physics value of the wrong JSON type
// in d that a simulation plays as its default instead (a sphere's
// "radius": "big" plays as 0.5): the place in the file, the value found
// and what is used instead. Validate reports them as TYPE_MISMATCH; a
// simulation must not play them without a word.
func DefaultsPlayed(d *scene.Document) []string {
	var lines []string
	for _, f := range d.PlayedDefaults() {
		lines = append(lines, scene.PointerPlace(f.Path)+" "+f.Message)
	}
	return lines
}

// DefaultsPlayedNote is the window's note when Play starts on values of
// the wrong type: the file's name and the first of them, the rest in the
// Play tab's notes.
func DefaultsPlayedNote(file string, lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	more := ""
	if len(lines) > 1 {
		more = fmt.Sprintf(" (and %d more in the Play tab)", len(lines)-1)
	}
	return file + " plays a default: " + lines[0] + more
}
