// Package portal asks the desktop's own file chooser for a file through the
// xdg-desktop-portal FileChooser D-Bus interface
// (org.freedesktop.portal.FileChooser, version 1 or later), the dialog that
// GNOME, KDE and sandboxed apps show.
//
// A call sends OpenFile or SaveFile, which answers at once with a Request
// object path; the chosen file arrives later in that Request's Response
// signal. The match for the signal is added before the call, on the path the
// portal will use (it is predictable from the connection's unique name and
// the handle_token), so a fast answer is never lost.
package portal

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/godbus/dbus/v5"
)

// D-Bus names of the portal.
const (
	BusName       = "org.freedesktop.portal.Desktop"
	ObjectPath    = dbus.ObjectPath("/org/freedesktop/portal/desktop")
	Interface     = "org.freedesktop.portal.FileChooser"
	RequestIface  = "org.freedesktop.portal.Request"
	responseEvent = RequestIface + ".Response"
)

// ErrCancelled is returned when the user closed the dialog without
// choosing.
var ErrCancelled = errors.New("portal: the file chooser was cancelled")

// ErrUnavailable is returned when no session bus or no portal is there
// (a bare X server, CI); callers fall back to their own browser.
var ErrUnavailable = errors.New("portal: no desktop file chooser portal on the session bus")

// Filter is one entry of the chooser's file type list, for example
// {"glTF scenes", []string{"*.gltf", "*.glb"}}.
type Filter struct {
	Name     string
	Patterns []string
}

// dbusFilter is the portal's (sa(us)) form: (name, [(0 glob | 1 MIME, text)]).
type dbusFilter struct {
	Name  string
	Rules []dbusRule
}

type dbusRule struct {
	Kind    uint32
	Pattern string
}

func (f Filter) dbus() dbusFilter {
	df := dbusFilter{Name: f.Name}
	for _, p := range f.Patterns {
		kind := uint32(0)
		if strings.Contains(p, "/") && !strings.Contains(p, "*") {
			kind = 1 // a MIME type such as model/gltf-binary
		}
		df.Rules = append(df.Rules, dbusRule{kind, p})
	}
	return df
}

// Chooser talks to the portal over one session bus connection.
type Chooser struct {
	conn *dbus.Conn
	// Parent identifies the window the dialog belongs to ("x11:1e00004"),
	// or "" for none.
	Parent string
}

var tokenSeq atomic.Uint64

// New connects to the session bus named by DBUS_SESSION_BUS_ADDRESS (or
// $XDG_RUNTIME_DIR/bus) and checks that the portal is there, giving up when
// ctx ends. It never starts a bus of its own.
func New(ctx context.Context) (*Chooser, error) {
	addr := os.Getenv("DBUS_SESSION_BUS_ADDRESS")
	if addr == "" {
		if rt := os.Getenv("XDG_RUNTIME_DIR"); rt != "" {
			if _, err := os.Stat(filepath.Join(rt, "bus")); err == nil {
				addr = "unix:path=" + filepath.Join(rt, "bus")
			}
		}
	}
	if addr == "" {
		return nil, fmt.Errorf("%w (no session bus address)", ErrUnavailable)
	}
	// Not dbus.WithContext(ctx): that would close the connection when ctx
	// ends, and the chooser outlives the start-up check.
	conn, err := dbus.Connect(addr)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	c := &Chooser{conn: conn}
	if err := c.check(ctx); err != nil {
		conn.Close()
		return nil, err
	}
	return c, nil
}

// check reads the FileChooser interface's version property: that starts the
// portal when it is D-Bus activatable and fails when there is none.
func (c *Chooser) check(ctx context.Context) error {
	var v dbus.Variant
	err := c.conn.Object(BusName, ObjectPath).CallWithContext(ctx, "org.freedesktop.DBus.Properties.Get", 0, Interface, "version").Store(&v)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return nil
}

// Close closes the bus connection.
func (c *Chooser) Close() error { return c.conn.Close() }

// OpenFile shows the desktop's open dialog and returns the chosen file's
// path. It blocks until the user answers or ctx ends; call it off the UI
// thread.
func (c *Chooser) OpenFile(ctx context.Context, title string, filters []Filter) (string, error) {
	return c.ask(ctx, "OpenFile", title, filters, nil)
}

// SaveFile shows the desktop's save dialog, suggesting the file name name
// in folder (either may be empty), and returns the chosen path.
func (c *Chooser) SaveFile(ctx context.Context, title, folder, name string, filters []Filter) (string, error) {
	extra := map[string]dbus.Variant{}
	if name != "" {
		extra["current_name"] = dbus.MakeVariant(name)
	}
	if folder != "" {
		// A byte string ending in NUL, as the portal documents.
		extra["current_folder"] = dbus.MakeVariant(append([]byte(folder), 0))
	}
	return c.ask(ctx, "SaveFile", title, filters, extra)
}

func (c *Chooser) ask(ctx context.Context, method, title string, filters []Filter, extra map[string]dbus.Variant) (string, error) {
	token := "physview" + strconv.FormatUint(tokenSeq.Add(1), 10) + "_" + strconv.FormatInt(time.Now().UnixNano()%1e9, 10)
	sender := strings.ReplaceAll(strings.TrimPrefix(c.conn.Names()[0], ":"), ".", "_")
	want := dbus.ObjectPath("/org/freedesktop/portal/desktop/request/" + sender + "/" + token)

	signals := make(chan *dbus.Signal, 4)
	c.conn.Signal(signals)
	defer c.conn.RemoveSignal(signals)
	match := []dbus.MatchOption{dbus.WithMatchInterface(RequestIface), dbus.WithMatchMember("Response"), dbus.WithMatchObjectPath(want)}
	if err := c.conn.AddMatchSignalContext(ctx, match...); err != nil {
		return "", fmt.Errorf("portal: %s: watch the answer: %w", method, err)
	}
	defer c.conn.RemoveMatchSignal(match...)

	opts := map[string]dbus.Variant{
		"handle_token": dbus.MakeVariant(token),
		"modal":        dbus.MakeVariant(true),
	}
	if len(filters) > 0 {
		var fs []dbusFilter
		for _, f := range filters {
			fs = append(fs, f.dbus())
		}
		opts["filters"] = dbus.MakeVariant(fs)
		opts["current_filter"] = dbus.MakeVariant(fs[0])
	}
	for k, v := range extra {
		opts[k] = v
	}
	var handle dbus.ObjectPath
	err := c.conn.Object(BusName, ObjectPath).CallWithContext(ctx, Interface+"."+method, 0, c.Parent, title, opts).Store(&handle)
	if err != nil {
		return "", fmt.Errorf("portal: %s: %w", method, err)
	}
	if handle != want {
		// An old portal (before version 0.9) picks its own path.
		match2 := []dbus.MatchOption{dbus.WithMatchInterface(RequestIface), dbus.WithMatchMember("Response"), dbus.WithMatchObjectPath(handle)}
		if err := c.conn.AddMatchSignalContext(ctx, match2...); err != nil {
			return "", fmt.Errorf("portal: %s: watch the answer: %w", method, err)
		}
		defer c.conn.RemoveMatchSignal(match2...)
	}
	for {
		select {
		case <-ctx.Done():
			// Close the dialog; the answer no longer matters. Go, not
			// Call: godbus's Call with no reply expected never returns
			// when the connection is closed (Dialogs.Close does both).
			c.conn.Object(BusName, handle).Go(RequestIface+".Close", dbus.FlagNoReplyExpected, nil)
			return "", fmt.Errorf("portal: %s: %w", method, ctx.Err())
		case s, ok := <-signals:
			if !ok {
				return "", fmt.Errorf("portal: %s: the session bus connection closed", method)
			}
			if s.Name != responseEvent || (s.Path != handle && s.Path != want) {
				continue
			}
			return parseResponse(method, s.Body)
		}
	}
}

// parseResponse reads Response(u response, a{sv} results): 0 chosen,
// 1 cancelled, 2 failed; results["uris"] holds file:// URIs.
func parseResponse(method string, body []any) (string, error) {
	if len(body) != 2 {
		return "", fmt.Errorf("portal: %s: a Response with %d values, want 2", method, len(body))
	}
	code, ok := body[0].(uint32)
	if !ok {
		return "", fmt.Errorf("portal: %s: a Response code of type %T", method, body[0])
	}
	switch code {
	case 0:
	case 1:
		return "", ErrCancelled
	default:
		return "", fmt.Errorf("portal: %s: the file chooser failed (response %d)", method, code)
	}
	results, _ := body[1].(map[string]dbus.Variant)
	uris, _ := results["uris"].Value().([]string)
	if len(uris) == 0 {
		return "", fmt.Errorf("portal: %s: the answer names no file", method)
	}
	return PathFromURI(uris[0])
}

// PathFromURI turns a file:// URI into a local path.
func PathFromURI(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("portal: uri %q: %w", uri, err)
	}
	if u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") {
		return "", fmt.Errorf("portal: %q is not a local file", uri)
	}
	return u.Path, nil
}
