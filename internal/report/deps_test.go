package report

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoGLGUIOrSim keeps the reports free of GL, giu, imgui and the
// simulation, so a tool that only validates or inspects links none of them.
func TestNoGLGUIOrSim(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps listed only %d packages", len(deps))
	}
	for _, p := range deps {
		for _, bad := range []string{"github.com/go-gl/gl", "github.com/AllenDang/giu", "github.com/AllenDang/cimgui-go", "physview/render", "physview/ui", "physview/sim", "physview/internal/app"} {
			if p == bad || strings.HasPrefix(p, bad+"/") {
				t.Errorf("internal/report depends on %s", p)
			}
		}
	}
}
