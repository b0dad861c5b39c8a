package ui

import (
	"testing"

	"physview/internal/app"
)

// TestPromptButton: each button names its Alt key (the bare letters do
// nothing, issue 31) and has an id of its own.
func TestPromptButton(t *testing.T) {
	p := &app.Prompt{Choices: []string{"Overwrite", "Save as...", "Reload and lose mine", "Cancel"}}
	want := []string{"Overwrite (Alt+O)##0", "Save as... (Alt+S)##1", "Reload and lose mine (Alt+R)##2", "Cancel (Alt+C)##3"}
	for i, w := range want {
		if got := PromptButton(p, i); got != w {
			t.Errorf("button %d: %q, want %q", i, got, w)
		}
	}
	if letterKey('s') == letterKey('d') || letterKey('.') != 0 {
		t.Error("letterKey")
	}
}
