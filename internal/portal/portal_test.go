package portal

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"physview/internal/portal/portaltest"
)

// startBus starts a private session bus and points DBUS_SESSION_BUS_ADDRESS at it.
func startBus(t *testing.T) string {
	addr := portaltest.StartBus(t)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	return addr
}

var gltfFilters = []Filter{
	{"glTF and XODE scenes", []string{"*.gltf", "*.glb", "*.xode"}},
	{"glTF binary", []string{"model/gltf-binary"}},
}

func TestOpenFile(t *testing.T) {
	addr := startBus(t)
	cases := []struct {
		name     string
		response uint32
		uris     []string
		want     string
		wantErr  error
	}{
		{"chosen", 0, []string{"file:///home/u/My%20Models/ship.glb"}, "/home/u/My Models/ship.glb", nil},
		{"cancelled", 1, nil, "", ErrCancelled},
		{"failed", 2, nil, "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := portaltest.Start(t, addr, c.response, c.uris...)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			ch, err := New(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer ch.Close()
			ch.Parent = "x11:1e00004"
			got, err := ch.OpenFile(ctx, "Open a scene", gltfFilters)
			switch {
			case c.wantErr != nil && !errors.Is(err, c.wantErr):
				t.Errorf("err = %v, want %v", err, c.wantErr)
			case c.name == "failed" && (err == nil || !strings.Contains(err.Error(), "response 2")):
				t.Errorf("err = %v, want a failure naming response 2", err)
			case got != c.want:
				t.Errorf("path = %q, want %q", got, c.want)
			}
			req := <-f.Calls
			if req.Method != "OpenFile" || req.Title != "Open a scene" || req.Parent != "x11:1e00004" {
				t.Errorf("call = %s(%q, %q)", req.Method, req.Parent, req.Title)
			}
			var fs []dbusFilter
			if err := dbus.Store([]any{req.Options["filters"].Value()}, &fs); err != nil {
				t.Fatalf("filters %v: %v", req.Options["filters"], err)
			}
			if len(fs) != 2 || fs[0].Name != "glTF and XODE scenes" || len(fs[0].Rules) != 3 || fs[0].Rules[1] != (dbusRule{0, "*.glb"}) || fs[1].Rules[0] != (dbusRule{1, "model/gltf-binary"}) {
				t.Errorf("filters = %+v", fs)
			}
			if m, _ := req.Options["modal"].Value().(bool); !m {
				t.Errorf("modal = %v", req.Options["modal"])
			}
			// Release the name for the next case's fake.
			f.Close()
		})
	}
}

func TestSaveFile(t *testing.T) {
	addr := startBus(t)
	f := portaltest.Start(t, addr, 0, "file:///tmp/out/scene.gltf")
	// The chooser outlives the context it was made with.
	newCtx, cancelNew := context.WithTimeout(context.Background(), 10*time.Second)
	ch, err := New(newCtx)
	cancelNew()
	if err != nil {
		t.Fatal(err)
	}
	defer ch.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	got, err := ch.SaveFile(ctx, "Save as", "/tmp/out", "scene.glb", gltfFilters[:1])
	if err != nil || got != "/tmp/out/scene.gltf" {
		t.Fatalf("SaveFile = %q, %v", got, err)
	}
	req := <-f.Calls
	name, _ := req.Options["current_name"].Value().(string)
	folder, _ := req.Options["current_folder"].Value().([]byte)
	if req.Method != "SaveFile" || name != "scene.glb" || string(folder) != "/tmp/out\x00" {
		t.Errorf("SaveFile options: name %q folder %q", name, folder)
	}
}

func TestNoPortal(t *testing.T) {
	startBus(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := New(ctx); !errors.Is(err, ErrUnavailable) {
		t.Errorf("a bus without a portal: err = %v, want ErrUnavailable", err)
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	if _, err := New(ctx); !errors.Is(err, ErrUnavailable) {
		t.Errorf("no bus: err = %v, want ErrUnavailable", err)
	}
}

func TestPathFromURI(t *testing.T) {
	cases := []struct{ uri, want string }{
		{"file:///a/b%23c.gltf", "/a/b#c.gltf"},
		{"file://localhost/x.glb", "/x.glb"},
		{"https://example.com/x.glb", ""},
	}
	for _, c := range cases {
		got, err := PathFromURI(c.uri)
		if got != c.want || (c.want == "") != (err != nil) {
			t.Errorf("PathFromURI(%q) = %q, %v", c.uri, got, err)
		}
	}
}

func TestMain(m *testing.M) {
	// Never talk to the developer's real session bus.
	os.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent")
	os.Exit(m.Run())
}
