// Package testcorpus finds the shared test corpus (../shared/corpus beside
// the repository) for tests, and skips them with a message when it is absent.
// The corpus is read in place and never copied into the repository.
package testcorpus

import (
	"encoding/json"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Root returns the module's root folder (where go.mod is).
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = parent
	}
}

// Dir returns the corpus folder, or skips the test when it is absent.
func Dir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(Root(t), "..", "shared", "corpus")
	if _, err := os.Stat(filepath.Join(dir, "MANIFEST.tsv")); err != nil {
		t.Skipf("shared corpus not found at %s: skipping corpus tests", dir)
	}
	return dir
}

// File returns the path of a corpus file given relative to the corpus root,
// or skips the test when the corpus or the file is absent.
func File(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(Dir(t), filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		t.Skipf("corpus file %s not found: skipping", rel)
	}
	return p
}

// Models returns every file under the corpus (outside specs/) whose name
// ends in one of exts, sorted, as paths relative to the corpus root. A .gltf
// whose external buffer was not copied into the corpus (some sample models
// lost their .bin on the way) is left out with a logged line: opening it
// fails rightly, and says so, but it tests nothing else.
func Models(t testing.TB, exts ...string) []string {
	t.Helper()
	dir := Dir(t)
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() && rel == "specs" {
			return filepath.SkipDir
		}
		for _, e := range exts {
			if !d.IsDir() && strings.EqualFold(filepath.Ext(p), e) {
				if missing := MissingBuffer(p); missing != "" {
					t.Logf("corpus file %s: its buffer %s is not in the corpus: left out", filepath.ToSlash(rel), missing)
					continue
				}
				out = append(out, filepath.ToSlash(rel))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// MissingBuffer returns the relative URI of the first external buffer of the
// .gltf file at path that does not exist beside it, or "" (also for a .glb,
// a file that does not parse, or buffers that are data URIs or remote).
func MissingBuffer(path string) string {
	if !strings.EqualFold(filepath.Ext(path), ".gltf") {
		return ""
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	var doc struct {
		Buffers []struct {
			URI string `json:"uri"`
		} `json:"buffers"`
	}
	if json.Unmarshal(raw, &doc) != nil {
		return ""
	}
	for _, b := range doc.Buffers {
		if b.URI == "" || strings.HasPrefix(b.URI, "data:") || strings.Contains(b.URI, "://") {
			continue
		}
		name, err := url.PathUnescape(b.URI)
		if err != nil {
			name = b.URI
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(path), filepath.FromSlash(name))); err != nil {
			return b.URI
		}
	}
	return ""
}
