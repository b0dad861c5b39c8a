package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
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
			text, _ = cc.ReadRegular(v.Path)
		}
		ptrs := make([]string, len(findings))
		for i, f := range findings {
			ptrs[i] = f.Path
		}
		lines := pointerLines(text, ptrs) // one pass over the text for all
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
				Region:           sarifRegion{StartLine: lines[f.Path]},
			}}
			if f.Path != "" {
				loc.LogicalLocations = []sarifLogical{{FullyQualifiedName: f.Path, Kind: "member"}}
			}
			run.Results = append(run.Results, sarifResult{
				RuleID: f.Code, RuleIndex: i, Level: sarifLevel(f.Severity),
				Message: sarifMessage{Text: f.Message}, Locations: []sarifLocation{loc},
			})
		}
		// Past the bounds: one result per code says how many more.
		for _, o := range v.Omitted {
			i, ok := ruleIndex[o.Code]
			if !ok {
				continue // every omitted code has listed findings
			}
			run.Results = append(run.Results, sarifResult{
				RuleID: o.Code, RuleIndex: i, Level: sarifLevel(o.Severity),
				Message: sarifMessage{Text: fmt.Sprintf("and %d more %s findings not listed", o.Count, o.Code)},
				Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
					ArtifactLocation: sarifArtifactLocation{URI: uri, Index: ai},
					Region:           sarifRegion{StartLine: 1},
				}}},
			})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
}

// pointerLines returns pointerLine(data, p) for every p in ptrs, from one
// pass over data: the pointers' prefixes are looked up as the walk meets
// each key, so the work is linear in the text and the pointers, not their
// product (a file with 10,000 findings was re-read 10,000 times).
func pointerLines(data []byte, ptrs []string) map[string]int {
	out := make(map[string]int, len(ptrs))
	if len(data) == 0 {
		for _, p := range ptrs {
			out[p] = 1
		}
		return out
	}
	// Every prefix of every pointer, as its unescaped segments joined by
	// NUL (a byte no JSON key can hold unescaped).
	want := map[string]bool{"": true}
	segs := map[string][]string{}
	for _, p := range ptrs {
		if _, done := segs[p]; done || p == "" {
			continue
		}
		var ss []string
		for _, s := range strings.Split(strings.TrimPrefix(p, "/"), "/") {
			ss = append(ss, strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~"))
		}
		segs[p] = ss
		for k := 1; k <= len(ss); k++ {
			want[strings.Join(ss[:k], "\x00")] = true
		}
	}
	start := map[string]int64{}
	dec := json.NewDecoder(bytes.NewReader(data))
	// walk reads one value whose path is at (in want when matched).
	var walk func(at string, matched bool) bool
	walk = func(at string, matched bool) bool {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		delim, isDelim := tok.(json.Delim)
		if !isDelim || (delim != '{' && delim != '[') {
			return true
		}
		for k := 0; dec.More(); k++ {
			off := dec.InputOffset()
			key := ""
			if delim == '{' {
				t, err := dec.Token()
				if err != nil {
					return false
				}
				key, _ = t.(string)
			} else if matched {
				key = strconv.Itoa(k)
			}
			child, hit := "", false
			if matched {
				child = key
				if at != "" {
					child = at + "\x00" + key
				}
				if hit = want[child]; hit {
					start[child] = off // a repeated key: its last, as decoded
				}
			}
			if !walk(child, hit) {
				return false
			}
		}
		_, err = dec.Token() // the closing delimiter
		return err == nil
	}
	walk("", true)
	// The line of each offset, counting line breaks once in order.
	offs := make([]int64, 0, len(start))
	for _, o := range start {
		offs = append(offs, o)
	}
	slices.Sort(offs)
	lineAt := make(map[int64]int, len(offs))
	line, pos := 1, int64(0)
	for _, o := range offs {
		b := o
		// Skip the separator and blanks before the key or element.
		for b < int64(len(data)) && slices.Contains([]byte(", \t\r\n:"), data[b]) {
			b++
		}
		line += bytes.Count(data[pos:b], []byte("\n"))
		pos = b
		lineAt[o] = line
	}
	for _, p := range ptrs {
		ss := segs[p]
		out[p] = 1
		// The deepest prefix that exists in the text.
		for k := len(ss); k > 0; k-- {
			if o, ok := start[strings.Join(ss[:k], "\x00")]; ok {
				out[p] = lineAt[o]
				break
			}
		}
	}
	return out
}

// pointerLine returns the 1-based line where the value at JSON pointer ptr
// starts in the JSON text data (the line of its key or array element); the
// deepest existing parent's line when the pointer goes past the document,
// and 1 when data is not JSON text (a GLB) or ptr is the root.
func pointerLine(data []byte, ptr string) int {
	return pointerLines(data, []string{ptr})[ptr]
}
