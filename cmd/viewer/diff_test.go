package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const diffFixtures = "../../scene/diff/testdata/"

// diffPair copies the diff fixture to a folder as a.gltf and b.gltf (with
// its texture) and returns both; edit applies a `viewer edit` command line
// to b.
func diffPair(t *testing.T, edit ...string) (a, b string) {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"base.gltf", "paint.png"} {
		data, err := os.ReadFile(diffFixtures + f)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), data, 0o644)
	}
	a, b = filepath.Join(dir, "base.gltf"), filepath.Join(dir, "b.gltf")
	data, _ := os.ReadFile(a)
	os.WriteFile(b, data, 0o644)
	if len(edit) > 0 {
		if code, _, errOut := runCLI(append([]string{"edit", b}, edit...)...); code != 0 {
			t.Fatalf("edit: exit %d: %s", code, errOut)
		}
	}
	return a, b
}

// TestDiffCommand checks the exit statuses (0 equal, 1 different, 2
// unreadable), the text and JSON reports of a changed mass, SARIF and
// -textconv.
func TestDiffCommand(t *testing.T) {
	a, b := diffPair(t, "motion", "Crate", "dynamic", "mass=5")
	code, out, errOut := runCLI("diff", a, a)
	if code != 0 || !strings.HasSuffix(out, "equal\n") {
		t.Errorf("same file: exit %d, %q %s", code, out, errOut)
	}
	code, out, _ = runCLI("diff", a, b)
	want := "physics changed \"Crate\": mass 2 → 5 kg\n    A,B /nodes/1/extensions/OMI_physics_body/motion/mass\n1 change\n"
	if code != 1 || !strings.HasSuffix(out, want) {
		t.Errorf("mass: exit %d, got\n%s\nwant the end\n%s", code, out, want)
	}
	code, out, _ = runCLI("diff", "-json", a, b)
	var r struct {
		Equal   bool
		Changes []struct{ Category, Kind, PointerA, PointerB, Node, Summary string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 1 {
		t.Fatalf("-json: exit %d, %v\n%s", code, err, out)
	}
	if r.Equal || len(r.Changes) != 1 || r.Changes[0].Category != "physics" || r.Changes[0].Kind != "changed" || r.Changes[0].Node != "Crate" ||
		r.Changes[0].PointerB != "/nodes/1/extensions/OMI_physics_body/motion/mass" || r.Changes[0].Summary != "mass 2 → 5 kg" {
		t.Errorf("-json: %+v", r)
	}
	code, out, _ = runCLI("diff", "-format", "sarif", a, b)
	var log struct {
		Version string
		Runs    []struct {
			Results []struct{ RuleID, Level string }
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil || code != 1 || log.Version != "2.1.0" || len(log.Runs) != 1 ||
		len(log.Runs[0].Results) != 1 || log.Runs[0].Results[0].RuleID != "physics/changed" {
		t.Errorf("sarif: exit %d, %v, %+v", code, err, log)
	}
	if code, _, errOut := runCLI("diff", a, filepath.Join(t.TempDir(), "none.glb")); code != 2 || !strings.Contains(errOut, "none.glb") {
		t.Errorf("missing file: exit %d, %s", code, errOut)
	}
	if code, _, _ := runCLI("diff", a); code != 2 {
		t.Errorf("one file: exit %d, want 2", code)
	}
	code, out, _ = runCLI("diff", "-textconv", b)
	if code != 0 || !strings.Contains(out, "node /Root/Crate mesh \"Box\" translation [0, 2, 0]\n  motion dynamic, mass 5 kg") {
		t.Errorf("-textconv: exit %d\n%s", code, out)
	}
}

// git runs git in dir with the test binary standing in for viewer.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PHYSVIEW_RUN_MAIN=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_PAGER=cat")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// TestDiffGit sets up a temporary repository the way docs/diff.md says
// (.gitattributes "*.glb diff=physview", diff.physview.textconv and
// diff.physview.command) and checks that git diff of a .glb commit
// prints physview's report, and that viewer diff reads REV:path.
func TestDiffGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	a, _ := diffPair(t)
	glb := filepath.Join(dir, "crate.glb")
	if code, _, errOut := runCLI("convert", a, glb); code != 0 {
		t.Fatalf("convert: %s", errOut)
	}
	viewer := "'" + os.Args[0] + "'"
	git(t, dir, "init", "-q")
	os.WriteFile(filepath.Join(dir, ".gitattributes"), []byte("*.glb diff=physview\n*.gltf diff=physview\n"), 0o644)
	git(t, dir, "config", "diff.physview.textconv", viewer+" diff -textconv")
	git(t, dir, "add", ".")
	git(t, dir, "commit", "-qm", "crate")
	if code, _, errOut := runCLI("edit", glb, "motion", "Crate", "dynamic", "mass=5"); code != 0 {
		t.Fatalf("edit: %s", errOut)
	}
	git(t, dir, "commit", "-qam", "heavier crate")

	out := git(t, dir, "diff", "HEAD~1", "HEAD")
	for _, line := range []string{"-  motion dynamic, mass 2 kg", "+  motion dynamic, mass 5 kg"} {
		if !strings.Contains(out, line+",") {
			t.Errorf("textconv: git diff lacks %q:\n%s", line, out)
		}
	}
	git(t, dir, "config", "diff.physview.command", viewer+" diff")
	out = git(t, dir, "diff", "HEAD~1", "HEAD")
	if !strings.Contains(out, "physview diff crate.glb\n--- a/crate.glb\n+++ b/crate.glb\nphysics changed \"Crate\": mass 2 → 5 kg\n") {
		t.Errorf("external diff: git diff printed\n%s", out)
	}

	cmd := exec.Command(os.Args[0], "diff", "HEAD~1:crate.glb", "HEAD:crate.glb")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PHYSVIEW_RUN_MAIN=1")
	b, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(b), "mass 2 → 5 kg") {
		t.Errorf("REV:path: %v\n%s", err, b)
	}
}
