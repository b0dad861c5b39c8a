// Package recent keeps the list of files the viewer opened last, with the
// camera and the active material variant of each, in
// $XDG_CONFIG_HOME/physview/recent.json (~/.config/physview when
// XDG_CONFIG_HOME is unset).
package recent

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Max is how many files the list keeps.
const Max = 10

// Camera is an orbit camera as the viewer's renderer keeps it: it looks at
// Target from Distance away, turned by Yaw about +Y and tilted by Pitch
// (radians); Radius is the size of what was framed and FovY the vertical
// field of view (radians).
type Camera struct {
	Target   [3]float64 `json:"target"`
	Distance float64    `json:"distance"`
	Yaw      float64    `json:"yaw"`
	Pitch    float64    `json:"pitch"`
	FovY     float64    `json:"fovY"`
	Radius   float64    `json:"radius"`
}

// Entry is one recent file.
type Entry struct {
	// Path is absolute.
	Path string `json:"path"`
	// Camera is the view when the file was last left, nil if unknown.
	Camera *Camera `json:"camera,omitempty"`
	// Variant is the name of the active material variant, "" for the
	// default materials. A name, not an index, so it survives re-exports
	// that reorder variants.
	Variant string `json:"variant,omitempty"`
	// Opened is when the file was last opened.
	Opened time.Time `json:"opened"`
}

// Exists reports whether the entry's file is still there.
func (e Entry) Exists() bool {
	st, err := os.Stat(e.Path)
	return err == nil && !st.IsDir()
}

// Layout is the window's size and the width the user dragged its side
// panel to, kept so the next start looks the same.
type Layout struct {
	Width      int     `json:"width"`
	Height     int     `json:"height"`
	PanelWidth float32 `json:"panelWidth,omitempty"`
}

// List is the recent files, most recent first, and the window's layout.
type List struct {
	Entries []Entry `json:"files"`
	Window  *Layout `json:"window,omitempty"`
	path    string
}

// DefaultPath is where the list is kept: $XDG_CONFIG_HOME/physview/recent.json,
// or ~/.config/physview/recent.json.
func DefaultPath() (string, error) {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("recent: no config folder: %w", err)
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "physview", "recent.json"), nil
}

// Load reads the list at path. A missing file is an empty list; a broken
// one is an error naming it (with an empty list, so the caller can go on).
func Load(path string) (*List, error) {
	l := &List{path: path}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return l, nil
	}
	if err != nil {
		return l, fmt.Errorf("recent: %w", err)
	}
	if err := json.Unmarshal(data, l); err != nil {
		l.Entries = nil
		return l, fmt.Errorf("recent: %s: %w", path, err)
	}
	if len(l.Entries) > Max {
		l.Entries = l.Entries[:Max]
	}
	return l, nil
}

// Path is the file the list is saved to.
func (l *List) Path() string { return l.path }

// Find returns the entry for file, if listed.
func (l *List) Find(file string) (Entry, bool) {
	abs := absPath(file)
	for _, e := range l.Entries {
		if e.Path == abs {
			return e, true
		}
	}
	return Entry{}, false
}

// Touch moves file to the top of the list (adding it when new, dropping
// the oldest beyond Max), keeping its saved camera and variant.
func (l *List) Touch(file string, now time.Time) {
	abs := absPath(file)
	e := Entry{Path: abs}
	if old, ok := l.Find(abs); ok {
		e = old
	}
	e.Opened = now
	l.remove(abs)
	l.Entries = append([]Entry{e}, l.Entries...)
	if len(l.Entries) > Max {
		l.Entries = l.Entries[:Max]
	}
}

// Remember stores the camera and variant for file, when it is listed.
func (l *List) Remember(file string, cam Camera, variant string) {
	abs := absPath(file)
	for i := range l.Entries {
		if l.Entries[i].Path == abs {
			c := cam
			l.Entries[i].Camera = &c
			l.Entries[i].Variant = variant
		}
	}
}

func (l *List) remove(abs string) {
	out := l.Entries[:0]
	for _, e := range l.Entries {
		if e.Path != abs {
			out = append(out, e)
		}
	}
	l.Entries = out
}

// Save writes the list to its file, creating the folder, through a
// temporary file and a rename so a crash never leaves half a list.
func (l *List) Save() error {
	if l.path == "" {
		return errors.New("recent: no file to save the list to")
	}
	data, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return fmt.Errorf("recent: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(l.path), 0o755); err != nil {
		return fmt.Errorf("recent: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(l.path), ".recent-*.json")
	if err != nil {
		return fmt.Errorf("recent: %w", err)
	}
	_, werr := tmp.Write(append(data, '\n'))
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), l.path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("recent: save %s: %w", l.path, werr)
	}
	return nil
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}
