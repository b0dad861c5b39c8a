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

// MaxDefaultsShown is how many DefaultsPlayed lines the window's notes and
// simulate's stderr list; the rest are counted (a hostile file can have
// one on each of 20,000 nodes, which validate lists).
const MaxDefaultsShown = 10

// DefaultsPlayedShown is lines cut to MaxDefaultsShown, with a last line
// saying how many more there are.
func DefaultsPlayedShown(lines []string) []string {
	if len(lines) <= MaxDefaultsShown {
		return lines
	}
	return append(lines[:MaxDefaultsShown:MaxDefaultsShown], fmt.Sprintf("and %d more values of the wrong type play as defaults (viewer validate lists them all)", len(lines)-MaxDefaultsShown))
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
