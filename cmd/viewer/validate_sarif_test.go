package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestValidateSARIF checks the command: -format sarif writes a SARIF 2.1.0
// log with one artifact per file and exits 1 when a file has errors; an
// unknown format or -json with sarif exits 2.
func TestValidateSARIF(t *testing.T) {
	code, out, errOut := runCLI("validate", "-format", "sarif", corecheck+"camera_zfar.gltf", corecheck+"buffer_no_uri.gltf")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (errors): %s", code, errOut)
	}
	var log struct {
		Version string
		Runs    []struct {
			Artifacts []any
			Results   []struct{ RuleID string }
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatalf("not SARIF JSON: %v\n%s", err, out)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Artifacts) != 2 {
		t.Fatalf("log %+v", log)
	}
	if !slices.ContainsFunc(log.Runs[0].Results, func(r struct{ RuleID string }) bool { return r.RuleID == "CAMERA_ZFAR_LEQUAL_ZNEAR" }) {
		t.Errorf("no CAMERA_ZFAR_LEQUAL_ZNEAR result: %+v", log.Runs[0].Results)
	}
	for _, args := range [][]string{{"-format", "yaml"}, {"-json", "-format", "sarif"}} {
		code, _, errOut := runCLI(append(append([]string{"validate"}, args...), corecheck+"camera_zfar.gltf")...)
		if code != 2 || !strings.Contains(errOut, "-format") {
			t.Errorf("%v: exit %d, %s", args, code, errOut)
		}
	}
}
