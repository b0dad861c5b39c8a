package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

// GitRevFile makes the file a "REV:path" argument names (git's notation,
// as `git show` takes it) readable: it writes the file at that revision,
// and for a .gltf the buffers and images it names beside it, into a new
// temporary folder, and returns the written file and a cleanup. A spec
// that names an existing file, or has no colon, is returned as it is.
func GitRevFile(spec string) (file string, cleanup func(), err error) {
	noop := func() {}
	if _, err := os.Stat(spec); err == nil {
		return spec, noop, nil
	}
	rev, p, ok := strings.Cut(spec, ":")
	if !ok || p == "" {
		return spec, noop, nil
	}
	if _, err := exec.LookPath("git"); err != nil {
		return "", noop, fmt.Errorf("%s: no such file, and git (to read a revision) is not installed", spec)
	}
	// A path given relative to the working folder ("./x.glb") is what
	// git show takes as such; a bare one is from the repository's top.
	data, err := gitShow(rev, p)
	if err != nil {
		return "", noop, err
	}
	dir, err := os.MkdirTemp("", "physview-rev-")
	if err != nil {
		return "", noop, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	file = filepath.Join(dir, path.Base(filepath.ToSlash(p)))
	if err := os.WriteFile(file, data, 0o644); err != nil {
		cleanup()
		return "", noop, err
	}
	if strings.EqualFold(path.Ext(p), ".gltf") {
		for _, uri := range externalURIs(data) {
			res, err := gitShow(rev, path.Join(path.Dir(filepath.ToSlash(p)), uri))
			if err != nil {
				continue // the load reports the missing file
			}
			out := filepath.Join(dir, filepath.FromSlash(uri))
			if os.MkdirAll(filepath.Dir(out), 0o755) == nil {
				os.WriteFile(out, res, 0o644)
			}
		}
	}
	return file, cleanup, nil
}

func gitShow(rev, p string) ([]byte, error) {
	var stderr bytes.Buffer
	cmd := exec.Command("git", "show", rev+":"+p)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s:%s: git show: %s", rev, p, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// externalURIs lists the relative file URIs of a .gltf's buffers and
// images (unescaped), those inside its folder only.
func externalURIs(data []byte) []string {
	var doc struct {
		Buffers []struct{ URI string } `json:"buffers"`
		Images  []struct{ URI string } `json:"images"`
	}
	if json.Unmarshal(data, &doc) != nil {
		return nil
	}
	var out []string
	add := func(u string) {
		if u == "" || strings.HasPrefix(u, "data:") || strings.Contains(u, "://") {
			return
		}
		if un, err := url.PathUnescape(u); err == nil {
			u = un
		}
		if filepath.IsLocal(filepath.FromSlash(u)) {
			out = append(out, u)
		}
	}
	for _, b := range doc.Buffers {
		add(b.URI)
	}
	for _, im := range doc.Images {
		add(im.URI)
	}
	return out
}
