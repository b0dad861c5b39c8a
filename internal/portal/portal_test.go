package portal

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// startBus starts a private session bus (dbus-daemon --session) for one
// test and points DBUS_SESSION_BUS_ADDRESS at it.
func startBus(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		t.Skip("dbus-daemon is not installed (apt-get install dbus; .ci/install-deps does)")
	}
	sock := filepath.Join(t.TempDir(), "bus")
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1", "--address=unix:path="+sock)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	})
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(out).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case addr := <-line:
		if addr == "" {
			t.Fatal("dbus-daemon printed no address")
		}
		t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
		return addr
	case <-time.After(10 * time.Second):
		t.Fatal("dbus-daemon did not start within 10 s")
	}
	return ""
}

// fakeChooser is a FileChooser portal that answers every request with
// response and uris, and records what it was asked.
type fakeChooser struct {
	conn     *dbus.Conn
	response uint32
	uris     []string
	calls    chan call
}

type call struct {
	method, parent, title string
	options               map[string]dbus.Variant
}

func (f *fakeChooser) answer(method string, sender dbus.Sender, parent, title string, options map[string]dbus.Variant) (dbus.ObjectPath, *dbus.Error) {
	token, _ := options["handle_token"].Value().(string)
	s := strings.ReplaceAll(strings.TrimPrefix(string(sender), ":"), ".", "_")
	handle := dbus.ObjectPath("/org/freedesktop/portal/desktop/request/" + s + "/" + token)
	f.calls <- call{method, parent, title, options}
	go func() {
		// Answer after the reply, as the real portal does when the user clicks.
		time.Sleep(20 * time.Millisecond)
		f.conn.Emit(handle, responseEvent, f.response, map[string]dbus.Variant{"uris": dbus.MakeVariant(f.uris)})
	}()
	return handle, nil
}

func (f *fakeChooser) OpenFile(sender dbus.Sender, parent, title string, options map[string]dbus.Variant) (dbus.ObjectPath, *dbus.Error) {
	return f.answer("OpenFile", sender, parent, title, options)
}

func (f *fakeChooser) SaveFile(sender dbus.Sender, parent, title string, options map[string]dbus.Variant) (dbus.ObjectPath, *dbus.Error) {
	return f.answer("SaveFile", sender, parent, title, options)
}

// props answers org.freedesktop.DBus.Properties.Get for the version.
type props struct{}

func (props) Get(iface, name string) (dbus.Variant, *dbus.Error) {
	if iface == Interface && name == "version" {
		return dbus.MakeVariant(uint32(4)), nil
	}
	return dbus.Variant{}, dbus.MakeFailedError(errors.New("no such property"))
}

func startFake(t *testing.T, addr string, response uint32, uris ...string) *fakeChooser {
	t.Helper()
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	f := &fakeChooser{conn: conn, response: response, uris: uris, calls: make(chan call, 4)}
	if err := conn.Export(f, ObjectPath, Interface); err != nil {
		t.Fatal(err)
	}
	if err := conn.Export(props{}, ObjectPath, "org.freedesktop.DBus.Properties"); err != nil {
		t.Fatal(err)
	}
	if r, err := conn.RequestName(BusName, dbus.NameFlagDoNotQueue); err != nil || r != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("RequestName: %v %v", r, err)
	}
	return f
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
			f := startFake(t, addr, c.response, c.uris...)
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
			req := <-f.calls
			if req.method != "OpenFile" || req.title != "Open a scene" || req.parent != "x11:1e00004" {
				t.Errorf("call = %s(%q, %q)", req.method, req.parent, req.title)
			}
			var fs []dbusFilter
			if err := dbus.Store([]any{req.options["filters"].Value()}, &fs); err != nil {
				t.Fatalf("filters %v: %v", req.options["filters"], err)
			}
			if len(fs) != 2 || fs[0].Name != "glTF and XODE scenes" || len(fs[0].Rules) != 3 || fs[0].Rules[1] != (dbusRule{0, "*.glb"}) || fs[1].Rules[0] != (dbusRule{1, "model/gltf-binary"}) {
				t.Errorf("filters = %+v", fs)
			}
			if m, _ := req.options["modal"].Value().(bool); !m {
				t.Errorf("modal = %v", req.options["modal"])
			}
			// Release the name for the next case's fake.
			f.conn.ReleaseName(BusName)
		})
	}
}

func TestSaveFile(t *testing.T) {
	addr := startBus(t)
	f := startFake(t, addr, 0, "file:///tmp/out/scene.gltf")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ch, err := New(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer ch.Close()
	got, err := ch.SaveFile(ctx, "Save as", "/tmp/out", "scene.glb", gltfFilters[:1])
	if err != nil || got != "/tmp/out/scene.gltf" {
		t.Fatalf("SaveFile = %q, %v", got, err)
	}
	req := <-f.calls
	name, _ := req.options["current_name"].Value().(string)
	folder, _ := req.options["current_folder"].Value().([]byte)
	if req.method != "SaveFile" || name != "scene.glb" || string(folder) != "/tmp/out\x00" {
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
