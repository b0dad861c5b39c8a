package main

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"physview/sim/ode"
)

// TestPanicExitStatus: a panic inside a command is reported as an internal
// error with exit status 3, not 2 ("cannot read the file").
func TestPanicExitStatus(t *testing.T) {
	saved := dispatchFunc
	defer func() { dispatchFunc = saved }()
	dispatchFunc = func([]string, io.Writer, io.Writer) error {
		var m map[string]int
		m["boom"]++ // a nil map write: a runtime panic
		return nil
	}
	code, _, errOut := runCLI("inspect", "whatever.gltf")
	if code != exitInternal || code == 2 {
		t.Errorf("exit %d, want %d", code, exitInternal)
	}
	if !strings.Contains(errOut, "viewer: internal error") || !strings.Contains(errOut, "assignment to entry in nil map") {
		t.Errorf("stderr does not report the internal error:\n%s", errOut)
	}
}

// TestCrashNotStatus2: a panic the command cannot recover (on another
// goroutine) ends the process by SIGABRT, not with Go's status 2. The test
// runs itself as the crashing child.
func TestCrashNotStatus2(t *testing.T) {
	if os.Getenv("VIEWER_CRASH_CHILD") == "1" {
		setCrashMode()
		go func() { panic("a crash on another goroutine") }()
		time.Sleep(10 * time.Second)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestCrashNotStatus2$")
	cmd.Env = append(os.Environ(), "VIEWER_CRASH_CHILD=1", "GOTRACEBACK=")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("the child did not fail: %v\n%s", err, out)
	}
	ws := ee.Sys().(syscall.WaitStatus)
	if ws.Exited() && ws.ExitStatus() == 2 {
		t.Fatalf("the crash exited with status 2:\n%s", out)
	}
	if !ws.Signaled() || ws.Signal() != syscall.SIGABRT {
		t.Errorf("child ended with %v, want SIGABRT", ws)
	}
	if !strings.Contains(string(out), "a crash on another goroutine") {
		t.Errorf("the crash message is missing:\n%.2000s", out)
	}
}

// TestSimulateHostile: each hostile physics value of issue 24 is refused
// with exit status 1 and a message naming the node and the value; the
// process does not abort.
func TestSimulateHostile(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"sim_hostile_velocity.gltf", `node "ball" (node 0): linear velocity [1e+30 0 0]`},
		{"sim_hostile_translation.gltf", `node "ball" (node 0): position (1e+10, 0, 0) is more than 1e+06 m`},
		{"sim_hostile_scale.gltf", `node "ball" (node 0): world scale 1e+30`},
		{"sim_hostile_box0.gltf", `node "floor" (node 1): collider shape 1 is invalid: box size x`},
		{"sim_hostile_capsule.gltf", `node "ball" (node 0): collider shape 0 is invalid: capsule`},
	} {
		code, out, errOut := runCLI("simulate", "-json", "testdata/"+tc.file)
		if code != 1 {
			t.Errorf("%s: exit %d, want 1\n%s", tc.file, code, errOut)
		}
		if !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: stderr %q lacks %q", tc.file, errOut, tc.want)
		}
		if out != "" {
			t.Errorf("%s: stdout %q, want nothing", tc.file, out)
		}
		// validate flags the same file with an error.
		if code, out, _ := runCLI("validate", "testdata/"+tc.file); code != 1 || !strings.Contains(out, "error") {
			t.Errorf("validate %s: exit %d, want 1 with an error finding:\n%s", tc.file, code, out)
		}
	}
}

// TestSimulateConvexOffsetJSON: a convex collider whose hull does not
// contain its node's origin leaves `simulate -json`'s stdout pure JSON
// (ODE used to print hundreds of warnings there).
func TestSimulateConvexOffsetJSON(t *testing.T) {
	var code int
	var out, errOut string
	// ODE's convex checks print with fprintf(stdout): watch file descriptor
	// 1 itself, not only the writer the command is given.
	fd1 := captureFD1(t, func() {
		code, out, errOut = runCLI("simulate", "-json", "-t", "0.5", "testdata/sim_convex_offset.gltf")
	})
	if fd1 != "" {
		t.Errorf("something wrote on the process's stdout:\n%.500s", fd1)
	}
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got simOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%.500s", err, out)
	}
	if len(got.Bodies) != 1 {
		t.Errorf("bodies %+v, want the ball", got.Bodies)
	}
}

// captureFD1 runs f with file descriptor 1 going to a pipe and returns
// what was written there.
func captureFD1(t *testing.T, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved, err := syscall.Dup(1)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Dup2(int(w.Fd()), 1); err != nil {
		t.Fatal(err)
	}
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	f()
	ode.FlushStdout()
	syscall.Dup2(saved, 1)
	syscall.Close(saved)
	w.Close()
	out := <-done
	r.Close()
	return out
}

// TestSimulateDroppedContacts: 300 spheres at one point exceed the
// contact budget; simulate says so on stderr and stdout stays JSON.
func TestSimulateDroppedContacts(t *testing.T) {
	var nodes []string
	var roots []string
	nodes = append(nodes, `{"name": "floor", "translation": [0, -0.5, 0], "extensions": {"OMI_physics_body": {"collider": {"shape": 1}}}}`)
	roots = append(roots, "0")
	for i := 0; i < 300; i++ {
		nodes = append(nodes, `{"name": "b", "translation": [0, 1, 0], "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}, "collider": {"shape": 0}}}}`)
		roots = append(roots, strconv.Itoa(i+1))
	}
	doc := `{"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body"],
	"extensions": {"OMI_physics_shape": {"shapes": [{"type": "sphere", "sphere": {"radius": 0.25}}, {"type": "box", "box": {"size": [20, 1, 20]}}]}},
	"scene": 0, "scenes": [{"nodes": [` + strings.Join(roots, ",") + `]}], "nodes": [` + strings.Join(nodes, ",") + `]}`
	p := filepath.Join(t.TempDir(), "pile.gltf")
	if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI("simulate", "-json", "-t", "0.05", p)
	if code != 0 && code != 1 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "made too many contacts") {
		t.Errorf("stderr lacks the dropped contacts note:\n%s", errOut)
	}
	var got simOutput
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Errorf("stdout is not JSON: %v", err)
	}
}
