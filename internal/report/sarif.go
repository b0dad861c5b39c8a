package report

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"physview/scene"
	cc "physview/scene/corecheck"
)

// SARIF 2.1.0 (OASIS), the layout GitHub code scanning and other CI systems
// read: one run, the rules that fired with their Khronos or physview
// description, one result per finding located by file, line (for .gltf
// text; the JSON pointer's key) and the JSON pointer as a logical location.

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool      sarifTool       `json:"tool"`
	Artifacts []sarifArtifact `json:"artifacts"`
	Results   []sarifResult   `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string       `json:"id"`
	ShortDescription     sarifMessage `json:"shortDescription"`
	DefaultConfiguration struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifArtifact struct {
	Location struct {
		URI string `json:"uri"`
	} `json:"location"`
}

type sarifArtifactLocation struct {
	URI   string `json:"uri"`
	Index int    `json:"index"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical  `json:"physicalLocation"`
	LogicalLocations []sarifLogical `json:"logicalLocations,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           sarifRegion           `json:"region"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

type sarifLogical struct {
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

// sarifLevel maps a severity to a SARIF level.
func sarifLevel(s scene.Severity) string {
	switch s {
	case scene.Error:
		return "error"
	case scene.Warning:
		return "warning"
	}
	return "note"
}

// ruleText is the one-line description of a code: the physview rule, or the
// Khronos code's name.
func ruleText(code string) string {
	for _, r := range scene.PhysicsRules {
		if r.Code == code {
			return r.Rule
		}
	}
	if cc.IsKhronosCode(code) {
		return "Khronos glTF-Validator rule " + code
	}
	return code
}

// WriteSARIF writes the validations as one SARIF 2.1.0 run, as indented
// JSON: the rules that fired, and one result per finding located by file,
// line (in .gltf text) and JSON pointer. A file that cannot be read is one
// error result, after those of the problems found before it stopped.
func WriteSARIF(w io.Writer, results []Validation) error {
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{Name: "physview validate", InformationURI: "https://github.com/KhronosGroup/glTF-Validator/blob/main/ISSUES.md"}}}
	run.Artifacts = []sarifArtifact{}
	run.Results = []sarifResult{}
	ruleIndex := map[string]int{}
	for ai, v := range results {
		uri := filepath.ToSlash(v.Path)
		var art sarifArtifact
		art.Location.URI = uri
		run.Artifacts = append(run.Artifacts, art)
		findings := v.Findings
		if v.Err != nil {
			findings = ErrorFindings(v.Err)
		}
		var text []byte
		if !strings.EqualFold(filepath.Ext(v.Path), ".glb") {
			text, _ = os.ReadFile(v.Path)
		}
		for _, f := range findings {
			i, ok := ruleIndex[f.Code]
			if !ok {
				i = len(run.Tool.Driver.Rules)
				ruleIndex[f.Code] = i
				r := sarifRule{ID: f.Code, ShortDescription: sarifMessage{Text: ruleText(f.Code)}}
				r.DefaultConfiguration.Level = sarifLevel(f.Severity)
				run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, r)
			}
			loc := sarifLocation{PhysicalLocation: sarifPhysical{
				ArtifactLocation: sarifArtifactLocation{URI: uri, Index: ai},
				Region:           sarifRegion{StartLine: pointerLine(text, f.Path)},
			}}
			if f.Path != "" {
				loc.LogicalLocations = []sarifLogical{{FullyQualifiedName: f.Path, Kind: "member"}}
			}
			run.Results = append(run.Results, sarifResult{
				RuleID: f.Code, RuleIndex: i, Level: sarifLevel(f.Severity),
				Message: sarifMessage{Text: f.Message}, Locations: []sarifLocation{loc},
			})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
}

// pointerLine returns the 1-based line where the value at JSON pointer ptr
// starts in the JSON text data (the line of its key or array element); the
// deepest existing parent's line when the pointer goes past the document,
// and 1 when data is not JSON text (a GLB) or ptr is the root.
func pointerLine(data []byte, ptr string) int {
	if len(data) == 0 || ptr == "" {
		return 1
	}
	var want []string
	for _, s := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		want = append(want, strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~"))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	best := int64(0)
	// walk reads one value at depth d; path[:d] matched want so far.
	var walk func(d int, matched bool) bool
	walk = func(d int, matched bool) bool {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		delim, isDelim := tok.(json.Delim)
		if !isDelim || (delim != '{' && delim != '[') {
			return true
		}
		for k := 0; dec.More(); k++ {
			start := dec.InputOffset()
			key := strconv.Itoa(k)
			if delim == '{' {
				t, err := dec.Token()
				if err != nil {
					return false
				}
				key, _ = t.(string)
			}
			hit := matched && d < len(want) && want[d] == key
			if hit {
				best = start
			}
			if !walk(d+1, hit) {
				return false
			}
		}
		_, err = dec.Token() // the closing delimiter
		return err == nil
	}
	walk(0, true)
	// Skip the separator and blanks before the key or element.
	for best < int64(len(data)) && slices.Contains([]byte(", \t\r\n:"), data[best]) {
		best++
	}
	return 1 + bytes.Count(data[:best], []byte("\n"))
}
