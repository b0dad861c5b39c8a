package app

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"physview/scene"
	_ "physview/scene/g4mf" // registers G4MF
	_ "physview/scene/xode" // registers XODE
)

// OpenDocument reads a file of any registered format (glTF when the
// ending is none of theirs).
func OpenDocument(path string) (*scene.Document, error) {
	if f, ok := scene.FormatFor(path); ok {
		return f.Load(path)
	}
	return scene.Load(path)
}

// OpenForView is OpenDocument for showing or playing a file (screenshot,
// simulate): a file that requires an extension the viewer cannot honour is
// refused with a *scene.UnsupportedError naming it, as the window does.
func OpenForView(path string) (*scene.Document, error) {
	d, err := OpenDocument(path)
	if err != nil {
		return nil, err
	}
	if err := d.CheckRequired(); err != nil {
		return nil, err
	}
	return d, nil
}

// CheckOpenable says why path is not a file the viewer opens (its ending
// is none of the registered formats'), nil when it is one.
func CheckOpenable(path string) error {
	if _, ok := scene.FormatOf(path); ok {
		return nil
	}
	return fmt.Errorf("%s: not a file the viewer opens (the types are %s)", filepath.Base(path), strings.Join(scene.Extensions(), ", "))
}

// looksLikeModel reports whether a file whose ending is none of the
// viewer's starts as one of its formats does: a GLB's magic, a JSON
// object (glTF) or XML (XODE). A model saved without an ending opens; a
// text file gets CheckOpenable's message.
func looksLikeModel(path string) bool {
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return true // let the load say what is wrong with it (never block on a FIFO here)
	}
	f, err := os.Open(path)
	if err != nil {
		return true // let the load say what is wrong with it
	}
	defer f.Close()
	head := make([]byte, 64)
	n, _ := io.ReadFull(f, head)
	head = bytes.TrimLeft(head[:n], "\ufeff \t\r\n")
	return bytes.HasPrefix(head, []byte("glTF")) || bytes.HasPrefix(head, []byte("{")) || bytes.HasPrefix(head, []byte("<"))
}

// SaveDocument writes d to path in the format its ending names (glTF for
// .gltf and .glb) and returns what the format could not hold.
func SaveDocument(d *scene.Document, path string) ([]string, error) {
	if f, ok := scene.FormatFor(path); ok {
		return f.Save(d, path)
	}
	return scene.GLTFFormat.Save(d, path)
}

// FormatName names d's format for the status bar: "GLB" or "glTF" for
// glTF files, a registered format's name, "built-in demo" for a document
// with no file.
func FormatName(d *scene.Document) string {
	if d == nil {
		return ""
	}
	if d.Path == "" {
		return "built-in demo"
	}
	if f, ok := scene.FormatFor(d.Path); ok {
		return f.Name
	}
	switch strings.ToLower(filepath.Ext(d.Path)) {
	case ".glb":
		return "GLB"
	case ".gltf":
		return "glTF"
	}
	if d.IsGLB() {
		return "GLB"
	}
	return "glTF"
}
