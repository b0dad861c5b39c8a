package report

import (
	"testing"

	"physview/internal/depcheck"
)

// TestNoGLGUIOrSim keeps the reports free of GL, giu, imgui and the
// simulation, so a tool that only validates or inspects links none of them.
func TestNoGLGUIOrSim(t *testing.T) {
	depcheck.Forbid(t, "internal/report", "github.com/go-gl/gl", "github.com/AllenDang/giu", "github.com/AllenDang/cimgui-go", "physview/render", "physview/ui", "physview/sim", "physview/internal/app")
}
