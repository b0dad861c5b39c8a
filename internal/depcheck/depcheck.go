// Package depcheck lets a package's tests assert what it must not link
// (GL, the GUI, the simulation), through `go list -deps`.
package depcheck

import (
	"os/exec"
	"strings"
	"testing"
)

// Forbid fails t when the package in the current directory depends on any
// of bad or a package below one of them; what names the package in the
// messages.
func Forbid(t testing.TB, what string, bad ...string) {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps listed only %d packages", len(deps))
	}
	for _, p := range deps {
		for _, b := range bad {
			if p == b || strings.HasPrefix(p, b+"/") {
				t.Errorf("%s depends on %s", what, p)
			}
		}
	}
}
