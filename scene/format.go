package scene

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Format is a file format other than glTF that a codec package reads into
// the model and writes from it (G4MF, say). The codec registers it from its
// init function, so whoever imports the codec can open and save its files
// through FormatFor without naming the package (as image.RegisterFormat does
// for images).
type Format struct {
	// Name is shown to the user ("G4MF").
	Name string
	// Exts are the file name endings, lower case with the dot (".g4tf").
	Exts []string
	// Load reads a file into a document; problems the user can still look
	// at are findings of the document.
	Load func(path string) (*Document, error)
	// Save writes the document and returns what the format could not carry.
	Save func(d *Document, path string) (warnings []string, err error)
}

var (
	formatsMu sync.RWMutex
	formats   []Format
)

// RegisterFormat makes f available to FormatFor. A later registration of an
// ending replaces an earlier one.
func RegisterFormat(f Format) {
	formatsMu.Lock()
	defer formatsMu.Unlock()
	formats = append([]Format{f}, formats...)
}

// FormatFor returns the registered format whose ending path has
// (case-insensitively); ok is false for glTF and unknown endings.
func FormatFor(path string) (f Format, ok bool) {
	ext := strings.ToLower(filepath.Ext(path))
	formatsMu.RLock()
	defer formatsMu.RUnlock()
	for _, f := range formats {
		if slices.Contains(f.Exts, ext) {
			return f, true
		}
	}
	return Format{}, false
}

// GLTFFormat is glTF itself (.gltf and .glb), read and written by this
// package; Formats lists it first.
var GLTFFormat = Format{
	Name: "glTF",
	Exts: []string{".gltf", ".glb"},
	Load: Load,
	Save: func(d *Document, path string) ([]string, error) {
		err := d.Save(path)
		return d.SaveWarnings(), err
	},
}

// Formats lists every file format the model opens: glTF first, then the
// registered ones in the order of their names. The file choosers' filters,
// the in-window browser and drag-and-drop all read it.
func Formats() []Format {
	formatsMu.RLock()
	defer formatsMu.RUnlock()
	out := []Format{GLTFFormat}
	seen := map[string]bool{".gltf": true, ".glb": true}
	rest := slices.Clone(formats)
	slices.SortStableFunc(rest, func(a, b Format) int { return strings.Compare(a.Name, b.Name) })
	for _, f := range rest {
		var exts []string
		for _, e := range f.Exts {
			if !seen[e] {
				seen[e] = true
				exts = append(exts, e)
			}
		}
		if len(exts) > 0 {
			f.Exts = exts
			out = append(out, f)
		}
	}
	return out
}

// Extensions lists the file endings of every format, in Formats' order.
func Extensions() []string {
	var out []string
	for _, f := range Formats() {
		out = append(out, f.Exts...)
	}
	return out
}

// FormatOf returns the format a file ending (of path) belongs to, glTF
// included; ok is false for an ending no format has.
func FormatOf(path string) (Format, bool) {
	ext := strings.ToLower(filepath.Ext(path))
	for _, f := range Formats() {
		if slices.Contains(f.Exts, ext) {
			return f, true
		}
	}
	return Format{}, false
}
