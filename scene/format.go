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
