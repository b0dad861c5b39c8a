package report

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"physview/scene"
)

// corecheck holds the core-validation fixtures, one rule broken per file.
const corecheck = "../../scene/testdata/corecheck/"

// TestWriteSARIF checks the SARIF 2.1.0 log: one run, one result per
// finding with its rule, level, file and the line of its JSON pointer, in
// the order and with the codes of the Khronos layout.
func TestWriteSARIF(t *testing.T) {
	file := corecheck + "camera_zfar.gltf"
	results := Validate([]string{file, corecheck + "buffer_no_uri.gltf"}, scene.Load)
	var out bytes.Buffer
	if err := WriteSARIF(&out, results); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(out.Bytes(), &log); err != nil {
		t.Fatalf("not SARIF JSON: %v\n%s", err, out.String())
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || !strings.Contains(log.Schema, "sarif-2.1.0") {
		t.Fatalf("version %q, %d runs, schema %q", log.Version, len(log.Runs), log.Schema)
	}
	run := log.Runs[0]
	if len(run.Artifacts) != 2 {
		t.Errorf("%d artifacts, want 2", len(run.Artifacts))
	}
	rep := results[0].Khronos()
	var mine []sarifResult
	for _, r := range run.Results {
		if r.Locations[0].PhysicalLocation.ArtifactLocation.URI == file {
			mine = append(mine, r)
		}
	}
	if len(mine) != len(rep.Issues.Messages) || len(mine) == 0 {
		t.Fatalf("%d results for %s, the Khronos layout has %d messages", len(mine), file, len(rep.Issues.Messages))
	}
	text, _ := os.ReadFile(file)
	lines := strings.Split(string(text), "\n")
	for i, r := range mine {
		m := rep.Issues.Messages[i]
		if r.RuleID != m.Code || run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %d: rule %s (index %d), want %s", i, r.RuleID, r.RuleIndex, m.Code)
		}
		want := map[int]string{0: "error", 1: "warning", 2: "note", 3: "note"}[m.Severity]
		if r.Level != want {
			t.Errorf("result %d: level %s, want %s", i, r.Level, want)
		}
		if got := r.Locations[0].LogicalLocations[0].FullyQualifiedName; got != m.Pointer {
			t.Errorf("result %d: logical location %s, want %s", i, got, m.Pointer)
		}
		line := r.Locations[0].PhysicalLocation.Region.StartLine
		seg := m.Pointer[strings.LastIndex(m.Pointer, "/")+1:]
		if seg >= "0" && seg <= "9" {
			seg = "{" // an array element: its line opens the object
		} else {
			seg = `"` + seg + `"`
		}
		if line < 1 || line > len(lines) || !strings.Contains(lines[line-1], seg) {
			t.Errorf("result %d (%s): line %d does not hold key %q", i, m.Pointer, line, seg)
		}
	}
}

// TestPointerLine checks the JSON pointer to line lookup on keys, array
// elements, escaped keys and pointers past the document.
func TestPointerLine(t *testing.T) {
	doc := "{\n \"a\": {\n  \"b/c\": [\n   1,\n   {\"d\": 2}\n  ]\n },\n \"e\": 3\n}\n"
	cases := []struct {
		ptr  string
		line int
	}{
		{"", 1},
		{"/a", 2},
		{"/a/b~1c", 3},
		{"/a/b~1c/0", 4},
		{"/a/b~1c/1", 5},
		{"/a/b~1c/1/d", 5},
		{"/e", 8},
		{"/a/b~1c/7", 3}, // past the array: its key
		{"/zzz", 1},
	}
	for _, c := range cases {
		if got := pointerLine([]byte(doc), c.ptr); got != c.line {
			t.Errorf("pointerLine(%q) = %d, want %d", c.ptr, got, c.line)
		}
	}
	if got := pointerLine(nil, "/a"); got != 1 {
		t.Errorf("no text: line %d, want 1", got)
	}
}
