package portal

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"physview/internal/portal/portaltest"
)

// testDialogs are Dialogs whose wakes arrive on a channel and whose log
// lines are kept.
type testDialogs struct {
	*Dialogs
	woke chan struct{}
	logs []string
}

func newTestDialogs(t *testing.T) *testDialogs {
	td := &testDialogs{woke: make(chan struct{}, 8)}
	td.Dialogs = NewDialogs(func() { td.woke <- struct{}{} }, func(m string) { td.logs = append(td.logs, m) })
	t.Cleanup(td.Close)
	return td
}

// waitWake waits for the next wake, for at most 10 s.
func (td *testDialogs) waitWake(t *testing.T, what string) {
	t.Helper()
	select {
	case <-td.woke:
	case <-time.After(10 * time.Second):
		t.Fatalf("no wake within 10 s (%s)", what)
	}
}

func TestDialogs(t *testing.T) {
	addr := startBus(t)
	cases := []struct {
		name      string
		response  uint32
		uris      []string
		req       Request
		wantPath  string
		wantErr   string // a part of the error, "" for none
		wantReady bool   // the portal is still used afterwards
	}{
		{"open", 0, []string{"file:///m/ship%201.glb"},
			Request{Title: "Open a scene", Folder: "/m", Filters: gltfFilters}, "/m/ship 1.glb", "", true},
		{"save", 0, []string{"file:///tmp/out/scene.gltf"},
			Request{Save: true, Title: "Save the scene as", Folder: "/tmp/out", Name: "scene.glb", Filters: gltfFilters[:1]}, "/tmp/out/scene.gltf", "", true},
		{"cancelled", 1, nil, Request{Title: "Open a scene"}, "", "cancelled", true},
		{"failed", 2, nil, Request{Save: true, Title: "Save the scene as", Name: "a.glb"}, "", "response 2", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := portaltest.Start(t, addr, c.response, c.uris...)
			defer f.Close()
			d := newTestDialogs(t)
			if d.Ready() || d.Start(c.req) {
				t.Fatal("ready before the probe")
			}
			d.Probe(10 * time.Second)
			d.waitWake(t, "probe")
			if !d.Ready() {
				t.Fatal("the probe found no portal")
			}
			if len(d.logs) != 1 || d.logs[0] != "using the desktop's file chooser portal" {
				t.Errorf("log after the probe = %q", d.logs)
			}
			if !d.Start(c.req) || !d.Start(c.req) {
				t.Fatal("Start with a portal returned false")
			}
			if _, ok := d.Poll(); ok {
				t.Error("an answer before the portal answered")
			}
			d.waitWake(t, "answer")
			a, ok := d.Poll()
			if !ok {
				t.Fatal("no answer after the wake")
			}
			if a.Save != c.req.Save || a.Path != c.wantPath || (c.wantErr == "") != (a.Err == nil) ||
				(a.Err != nil && !strings.Contains(a.Err.Error(), c.wantErr)) {
				t.Errorf("answer = %+v, want path %q, error with %q", a, c.wantPath, c.wantErr)
			}
			if c.name == "cancelled" && !errors.Is(a.Err, ErrCancelled) {
				t.Errorf("cancelled: err = %v, want ErrCancelled", a.Err)
			}
			if _, ok := d.Poll(); ok {
				t.Error("a second answer to one dialog")
			}
			if d.Ready() != c.wantReady {
				t.Errorf("Ready after the answer = %v, want %v", d.Ready(), c.wantReady)
			}
			if wantLogs := map[bool]int{true: 1, false: 2}[c.wantReady]; len(d.logs) != wantLogs {
				t.Errorf("log = %q, want %d lines", d.logs, wantLogs)
			}

			call := <-f.Calls
			method := map[bool]string{false: "OpenFile", true: "SaveFile"}[c.req.Save]
			if call.Method != method || call.Title != c.req.Title {
				t.Errorf("call = %s %q, want %s %q", call.Method, call.Title, method, c.req.Title)
			}
			name, _ := call.Options["current_name"].Value().(string)
			folder, _ := call.Options["current_folder"].Value().([]byte)
			if c.req.Save && (name != c.req.Name || (c.req.Folder != "" && string(folder) != c.req.Folder+"\x00")) {
				t.Errorf("SaveFile name %q folder %q, want %q %q", name, folder, c.req.Name, c.req.Folder)
			}
			if !c.req.Save && (name != "" || folder != nil) {
				t.Errorf("OpenFile was given name %q folder %q", name, folder)
			}
			if _, has := call.Options["filters"]; has != (len(c.req.Filters) > 0) {
				t.Errorf("filters option %v for %d filters", call.Options["filters"], len(c.req.Filters))
			}
			// The second Start came while the dialog was open: dropped.
			select {
			case extra := <-f.Calls:
				t.Errorf("a second dialog was shown while one was open: %s", extra.Method)
			case <-time.After(100 * time.Millisecond):
			}
		})
	}
}

func TestDialogsNoPortal(t *testing.T) {
	startBus(t)
	// Never probed (the viewer's PHYSVIEW_NO_PORTAL): no portal, at once.
	d := newTestDialogs(t)
	if d.Ready() || d.Start(Request{Title: "Open a scene"}) {
		t.Error("Dialogs never probed took a dialog")
	}
	// A bus without a portal: the probe answers, with none.
	d = newTestDialogs(t)
	d.Probe(5 * time.Second)
	d.waitWake(t, "probe")
	if d.Ready() || d.Start(Request{Title: "Open a scene"}) {
		t.Error("Dialogs took a dialog with no portal on the bus")
	}
	if _, ok := d.Poll(); ok || len(d.logs) != 0 {
		t.Errorf("no portal: an answer, or log %q", d.logs)
	}
}

// TestDialogsCloseWhileOpen closes the Dialogs (the window closed) while
// the user has not answered: the dialog is given up at once.
func TestDialogsCloseWhileOpen(t *testing.T) {
	addr := startBus(t)
	f := portaltest.Start(t, addr, 0, "file:///m/late.glb")
	f.SetDelay(20 * time.Second)
	d := newTestDialogs(t)
	d.Probe(10 * time.Second)
	d.waitWake(t, "probe")
	if !d.Start(Request{Title: "Open a scene"}) {
		t.Fatal("no portal")
	}
	<-f.Calls
	start := time.Now()
	d.Close()
	d.waitWake(t, "the dialog's end")
	a, ok := d.Poll()
	if !ok || !errors.Is(a.Err, context.Canceled) || a.Path != "" {
		t.Errorf("after Close: answer %+v (%v), want context.Canceled", a, ok)
	}
	if waited := time.Since(start); waited > 5*time.Second {
		t.Errorf("the dialog ended %v after Close", waited)
	}
	if d.Ready() || d.Start(Request{Title: "Open a scene"}) {
		t.Error("closed Dialogs took a dialog")
	}
}
