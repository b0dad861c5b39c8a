// Command viewer opens glTF files with OMI or KHR physics, gravity and
// joint extensions and KHR_materials_variants in a window, and inspects,
// validates, converts, renders (screenshot), simulates and edits them from
// the command line: `viewer help` lists the commands and their flags.
//
// Exit status 2 means the input could not be read at all; 3 means viewer
// itself failed (a bug: a recovered panic, also one on a worker goroutine,
// which package guard raises again on the waiting one), so scripts can
// tell the two apart. A crash that cannot be recovered (a Go runtime fatal
// error) ends the process with SIGABRT, never with 2.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"physview/internal/guard"
	"physview/scene"
)

// exitError carries an exit status with its message.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }

func fail(code int, format string, args ...any) error {
	return &exitError{code, fmt.Errorf(format, args...)}
}

// exitInternal is the status of a failure of viewer itself.
const exitInternal = 3

func main() {
	setCrashMode()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// setCrashMode makes a crash the runtime cannot hand back (a fatal error,
// a panic on another goroutine) end the process with SIGABRT instead of
// Go's exit status 2, which means "cannot read the input" here.
func setCrashMode() { debug.SetTraceback("crash") }

// dispatchFunc runs a command line (a variable so tests can make it fail).
var dispatchFunc = dispatch

// run executes one command line and returns the exit status; a panic is
// recovered and reported as an internal error (exitInternal).
func run(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			stack := debug.Stack()
			if p, ok := r.(*guard.Panic); ok {
				stack = p.Stack // raised again from a worker: where it began
			}
			fmt.Fprintf(stderr, "viewer: internal error (a bug, please report it): %v\n%s", r, stack)
			code = exitInternal
		}
	}()
	err := dispatchFunc(args, stdout, stderr)
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil && ee.err.Error() != "" {
			fmt.Fprintln(stderr, "viewer:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "viewer:", err)
	return 2
}

const usage = `usage:
  viewer [FILE]                 open FILE (.gltf, .glb, .xode, .g4tf, .g4b) in the window; no FILE opens the demo scene
  viewer inspect [-json] FILE   summary: counts, variants, shapes, bodies, gravity, joints, findings
  viewer validate FILE          list findings; exit status 1 when any is an error
  viewer validate [-json | -format text|json|sarif] FILE|DIR...
                                -json: the report in the Khronos glTF-Validator layout; -format sarif:
                                SARIF 2.1.0 for CI code scanning; several files or
                                folders: checked on all cores, one summary line each; exit 2 if any cannot
                                be read, else 1 if any has errors
  viewer convert [-physics omi|khr|gltf2.1] IN OUT
                                write IN as OUT (.gltf, .glb, .xode, .g4tf or .g4b); glTF physics in the
                                dialect it was read in (OMI, KHR or glTF 2.1 core shapes), or the one -physics names
  viewer screenshot [-o out.png] [-size 1280x720] [-variant NAME] [-camera N]
                    [-env studio|soft-room|outdoor|file] [-exposure EV] [-background plain|blurred|environment] FILE
                                render one frame without a window (EGL, no X server needed)
  viewer install-desktop [-exec PATH]
                                desktop entry, icon and .gltf/.glb associations in the XDG folders
  viewer uninstall-desktop      remove them again
  viewer simulate [-t SECONDS] [-dt STEP] [-json] [-hash-every N] [-record OUT.csv|OUT.json]
                  [-o OUT.gltf [-bake [-rate HZ] [-tolerance M] [-strip-physics]]] FILE
                                play the physics (ODE) for -t seconds (default 1) in steps of -dt
                                (default 1/240 s) and print each dynamic body's final pose, each joint's
                                angle or position and the state's hash; -record writes every step, -bake
                                an animation of the run
  viewer simulate -engine ode|bullet ...
                                the same in the engine named (default ode)
  viewer simulate -compare [-threshold M] [-t SECONDS] [-json] FILE
                                play FILE in ODE and Bullet and compare every dynamic body's trajectory;
                                exit status 1 when one parts by more than M metres (default 0.05)
  viewer edit [-o OUT] FILE COMMAND...
                                apply each COMMAND as one undoable edit and save once (to OUT with -o):
                                fit NODE box|sphere|capsule|cylinder|convex|trimesh, shape NODE KEY=VALUE...,
                                motion NODE static|kinematic|dynamic [mass=M], rename NODE NEW,
                                gravity X,Y,Z, remove-collider NODE, joint A B|world TYPE [axis= pivot= limit=],
                                joint-limit A [AXIS] MIN,MAX, joint-drive A velocity=V|position=P, remove-joint A,
                                retarget-joint A B|world;
                                NODE is a name or an index; angles in degrees (docs/joints.md)
` + diffUsage + `
XODE support: XODE 1.0r23 +retain
`

func dispatch(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return runWindow("")
	}
	switch args[0] {
	case "inspect":
		return cmdInspect(args[1:], stdout)
	case "validate":
		return cmdValidateFiles(args[1:], stdout)
	case "convert":
		return cmdConvert(args[1:], stdout)
	case "screenshot":
		return cmdScreenshot(args[1:], stdout, stderr)
	case "install-desktop":
		return cmdInstallDesktop(args[1:], stdout)
	case "uninstall-desktop":
		return cmdUninstallDesktop(args[1:], stdout)
	case "simulate":
		return cmdSimulate(args[1:], stdout, stderr)
	case "edit":
		return cmdEdit(args[1:], stdout)
	case "diff":
		return cmdDiff(args[1:], stdout)
	case "compare":
		return cmdCompare(args[1:])
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	if len(args) == 1 && !strings.HasPrefix(args[0], "-") && (isModelFile(args[0]) || fileExists(args[0])) {
		return runWindow(args[0])
	}
	fmt.Fprint(stderr, usage)
	return fail(2, "unknown command %q", args[0])
}

func isModelFile(p string) bool {
	_, ok := scene.FormatOf(p)
	return ok
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// flagSetMade, when set (by TestCLIReference), sees every flag set a
// subcommand makes, so the reference in docs/cli.md can be checked
// against the flags the code really has.
var flagSetMade func(*flag.FlagSet)

func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if flagSetMade != nil {
		flagSetMade(fs)
	}
	return fs
}

// verbHelp prints a verb's flags for `viewer VERB -h` and ends with
// status 0 (asking for help is not a wrong command line).
func verbHelp(fs *flag.FlagSet) error {
	fmt.Fprintf(os.Stdout, "usage of viewer %s (every verb: viewer help; docs/cli.md):\n", fs.Name())
	fs.SetOutput(os.Stdout)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	return &exitError{0, errors.New("")}
}

func parseFlags(fs *flag.FlagSet, args []string, nargs int, what string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return verbHelp(fs)
		}
		return fail(2, "%s: %v\n%s", fs.Name(), err, usage)
	}
	if fs.NArg() != nargs {
		return fail(2, "%s needs %s\n%s", fs.Name(), what, usage)
	}
	return nil
}
