// Package portaltest runs a private D-Bus session bus and a fake
// xdg-desktop-portal FileChooser on it, for tests of the portal client and
// of the viewer's dialogs. The fake answers every OpenFile and SaveFile with
// a fixed response and records what it was asked.
package portaltest

import (
	"bufio"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// D-Bus names the fake serves (those of the real portal).
const (
	busName    = "org.freedesktop.portal.Desktop"
	objectPath = dbus.ObjectPath("/org/freedesktop/portal/desktop")
	iface      = "org.freedesktop.portal.FileChooser"
)

// StartBus starts dbus-daemon --session on a socket of its own for the
// test, stops it at the end, and returns its address. The test is skipped
// when dbus-daemon is not installed.
func StartBus(t testing.TB) string {
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
		return addr
	case <-time.After(10 * time.Second):
		t.Fatal("dbus-daemon did not start within 10 s")
	}
	return ""
}

// Call is one request the fake received.
type Call struct {
	Method, Parent, Title string
	Options               map[string]dbus.Variant
}

// Fake is a FileChooser portal answering with Response and URIs.
type Fake struct {
	Conn     *dbus.Conn
	Response uint32
	URIs     []string
	// delay is how long the user takes to answer (20 ms when 0), in ns.
	delay atomic.Int64
	// Calls receives each request.
	Calls chan Call
}

func (f *Fake) answer(method string, sender dbus.Sender, parent, title string, options map[string]dbus.Variant) (dbus.ObjectPath, *dbus.Error) {
	token, _ := options["handle_token"].Value().(string)
	s := strings.ReplaceAll(strings.TrimPrefix(string(sender), ":"), ".", "_")
	handle := dbus.ObjectPath("/org/freedesktop/portal/desktop/request/" + s + "/" + token)
	select {
	case f.Calls <- Call{method, parent, title, options}:
	default:
	}
	delay := time.Duration(f.delay.Load())
	if delay == 0 {
		delay = 20 * time.Millisecond
	}
	go func() {
		// Answer after the reply, as the real portal does when the user clicks.
		time.Sleep(delay)
		f.Conn.Emit(handle, "org.freedesktop.portal.Request.Response", f.Response, map[string]dbus.Variant{"uris": dbus.MakeVariant(f.URIs)})
	}()
	return handle, nil
}

// SetDelay sets how long the user takes to answer the following dialogs
// (20 ms at first).
func (f *Fake) SetDelay(d time.Duration) { f.delay.Store(int64(d)) }

// OpenFile is the portal method.
func (f *Fake) OpenFile(sender dbus.Sender, parent, title string, options map[string]dbus.Variant) (dbus.ObjectPath, *dbus.Error) {
	return f.answer("OpenFile", sender, parent, title, options)
}

// SaveFile is the portal method.
func (f *Fake) SaveFile(sender dbus.Sender, parent, title string, options map[string]dbus.Variant) (dbus.ObjectPath, *dbus.Error) {
	return f.answer("SaveFile", sender, parent, title, options)
}

// props answers org.freedesktop.DBus.Properties.Get for the version.
type props struct{}

func (props) Get(in, name string) (dbus.Variant, *dbus.Error) {
	if in == iface && name == "version" {
		return dbus.MakeVariant(uint32(4)), nil
	}
	return dbus.Variant{}, dbus.MakeFailedError(errors.New("no such property"))
}

// Start puts a fake portal on the bus at addr that answers response
// (0 chosen, 1 cancelled, 2 failed) with uris. Close releases its name.
func Start(t testing.TB, addr string, response uint32, uris ...string) *Fake {
	t.Helper()
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	f := &Fake{Conn: conn, Response: response, URIs: uris, Calls: make(chan Call, 8)}
	if err := conn.Export(f, objectPath, iface); err != nil {
		t.Fatal(err)
	}
	if err := conn.Export(props{}, objectPath, "org.freedesktop.DBus.Properties"); err != nil {
		t.Fatal(err)
	}
	if r, err := conn.RequestName(busName, dbus.NameFlagDoNotQueue); err != nil || r != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("RequestName: %v %v", r, err)
	}
	return f
}

// Close gives up the portal's name, so another fake can take it.
func (f *Fake) Close() { f.Conn.ReleaseName(busName) }
