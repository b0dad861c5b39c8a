package ui

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestFitLines wraps at spaces within the room given (here 10 characters
// of a fixed-width font), breaks a word longer than a line, and cuts with
// "..." what does not fit in the lines allowed.
func TestFitLines(t *testing.T) {
	fits := func(l string) bool { return utf8.RuneCountInString(l) <= 10 }
	for _, c := range []struct {
		text  string
		lines int
		want  string
	}{
		{"saved a.glb", 2, "saved\na.glb"},
		{"short", 2, "short"},
		{"one two three four", 2, "one two\nthree four"},
		{"one two three four five six", 2, "one two\nthree f..."},
		{"/tmp/nu/work/broken.gltf: bad", 3, "/tmp/nu/wo\nrk/broken.\ngltf: bad"},
		{"line one\nline two\nline three", 2, "line one\nline tw..."},
		{"größe ändern nötig", 2, "größe\nändern..."},
	} {
		got := fitLines(c.text, c.lines, fits)
		if got != c.want {
			t.Errorf("fitLines(%q, %d) = %q, want %q", c.text, c.lines, got, c.want)
		}
		for _, l := range strings.Split(got, "\n") {
			if !fits(l) {
				t.Errorf("fitLines(%q): line %q is too wide", c.text, l)
			}
		}
	}
}
