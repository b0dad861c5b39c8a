package corecheck

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hostileBase is a small valid document: a triangle mesh on a node, a
// buffer, views, accessors, a texture, an animation, a scene.
const hostileBase = `{"asset":{"version":"2.0"},
"buffers":[{"byteLength":44,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAABAAIAAAAAAAAAAACAPw=="}],
"bufferViews":[{"buffer":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":8}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]},
 {"bufferView":1,"componentType":5123,"count":3,"type":"SCALAR"}],
"images":[{"uri":"data:image/png;base64,iVBORw0KGgo="}],"samplers":[{}],"textures":[{"source":0,"sampler":0}],
"materials":[{}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":1,"material":0}]}],
"nodes":[{"mesh":0},{"name":"b"}],
"animations":[{"channels":[{"sampler":0,"target":{"node":1,"path":"translation"}}],"samplers":[{"input":1,"output":0}]}],
"scenes":[{"nodes":[0,1]}],"scene":0}`

// TestNullAndBadValues: issue 31. A null in place of an element of any
// top-level array or of primitives, an index of -1 or 0.5, is a finding at
// its pointer, and the typed document has no nil element and no such index
// (the link checks and every verb dereference them).
func TestNullAndBadValues(t *testing.T) {
	for _, tc := range []struct {
		old, new string
		code     string
		at       string
	}{
		{`"nodes":[{"mesh":0}`, `"nodes":[null`, "TYPE_MISMATCH", "/nodes/0"},
		{`"buffers":[{"byteLength":44,`, `"buffers":[null,{"byteLength":44,`, "TYPE_MISMATCH", "/buffers/0"},
		{`"bufferViews":[{"buffer":0,"byteLength":36}`, `"bufferViews":[null`, "TYPE_MISMATCH", "/bufferViews/0"},
		{`"accessors":[{"bufferView":0`, `"accessors":[null,{"bufferView":0`, "TYPE_MISMATCH", "/accessors/0"},
		{`"meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":1,"material":0}]}]`, `"meshes":[null]`, "TYPE_MISMATCH", "/meshes/0"},
		{`"primitives":[{"attributes"`, `"primitives":[null,{"attributes"`, "ARRAY_TYPE_MISMATCH", "/meshes/0/primitives"},
		{`"scenes":[{"nodes":[0,1]}]`, `"scenes":[null]`, "TYPE_MISMATCH", "/scenes/0"},
		{`"animations":[{"channels"`, `"animations":[null,{"channels"`, "TYPE_MISMATCH", "/animations/0"},
		{`"textures":[{"source":0,"sampler":0}]`, `"textures":[null]`, "TYPE_MISMATCH", "/textures/0"},
		{`"channels":[{"sampler"`, `"channels":[null,{"sampler"`, "ARRAY_TYPE_MISMATCH", "/animations/0/channels"},
		{`"POSITION":0`, `"POSITION":-1`, "INVALID_INDEX", "/meshes/0/primitives/0/attributes/POSITION"},
		{`"indices":1`, `"indices":0.5`, "TYPE_MISMATCH", "/meshes/0/primitives/0/indices"},
		{`"indices":1`, `"indices":null`, "TYPE_MISMATCH", "/meshes/0/primitives/0/indices"},
		{`"bufferView":1,`, `"bufferView":-1,`, "INVALID_INDEX", "/accessors/1/bufferView"},
	} {
		t.Run(tc.new, func(t *testing.T) {
			if !strings.Contains(hostileBase, tc.old) {
				t.Fatalf("fixture lacks %q", tc.old)
			}
			res, err := Decode([]byte(strings.Replace(hostileBase, tc.old, tc.new, 1)), nil, Options{})
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, f := range res.Findings {
				found = found || (f.Code == tc.code && f.Path == tc.at)
			}
			if !found {
				t.Errorf("no %s at %s in %v", tc.code, tc.at, res.Findings)
			}
			doc := res.GLTF
			for i, n := range doc.Nodes {
				if n == nil {
					t.Errorf("node %d is nil", i)
				}
			}
			for i, m := range doc.Meshes {
				if m == nil {
					t.Fatalf("mesh %d is nil", i)
				}
				for j, p := range m.Primitives {
					if p == nil {
						t.Fatalf("mesh %d primitive %d is nil", i, j)
					}
					if p.Indices != nil && *p.Indices < 0 {
						t.Errorf("indices %d reached the typed document", *p.Indices)
					}
					for k, a := range p.Attributes {
						if a < 0 {
							t.Errorf("%s %d reached the typed document", k, a)
						}
					}
				}
			}
			for i, a := range doc.Accessors {
				if a == nil {
					t.Errorf("accessor %d is nil", i)
				} else if a.BufferView != nil && *a.BufferView < 0 {
					t.Errorf("accessor %d: bufferView %d reached the typed document", i, *a.BufferView)
				}
			}
			for i, v := range doc.BufferViews {
				if v == nil {
					t.Errorf("buffer view %d is nil", i)
				}
			}
			for i, a := range doc.Animations {
				if a == nil {
					t.Fatalf("animation %d is nil", i)
				}
				for j, c := range a.Channels {
					if c == nil {
						t.Errorf("animation %d channel %d is nil", i, j)
					}
				}
			}
		})
	}
}

// TestFIFOResources: a named pipe as a buffer file, or reached through a
// symbolic link as an image, is refused by its mode: an IO_ERROR finding
// naming it within a second, never a read that blocks.
func TestFIFOResources(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := os.Symlink("pipe", filepath.Join(dir, "link.png")); err != nil {
		t.Fatal(err)
	}
	doc := `{"asset":{"version":"2.0"},"buffers":[{"byteLength":12,"uri":"pipe"}],"images":[{"uri":"link.png"}]}`
	start := time.Now()
	res, err := Decode([]byte(doc), os.DirFS(dir), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v, want under a second", d)
	}
	want := map[string]string{
		"/buffers/0/uri": "buffer file pipe is not read: not a regular file: it is a named pipe (FIFO)",
		"/images/0/uri":  "cannot read image link.png: not a regular file: it is a named pipe (FIFO)",
	}
	for _, f := range res.Findings {
		if w, ok := want[f.Path]; ok && f.Code == "IO_ERROR" && f.Message == w {
			delete(want, f.Path)
		}
	}
	for p, w := range want {
		t.Errorf("no IO_ERROR at %s saying %q: %v", p, w, res.Findings)
	}
	if why := res.MissingBuffers[0]; why != "its file pipe is a named pipe (FIFO)" {
		t.Errorf("missing buffer 0: %q", why)
	}
}
