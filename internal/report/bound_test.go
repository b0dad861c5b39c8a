package report

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"physview/scene"
)

// repeatedChannels writes a glTF file whose one animation has n channels
// that all target node 0's rotation (issue 31: every pair is an
// ANIMATION_DUPLICATE_TARGETS finding, n(n-1)/2 of them), and returns its
// path.
func repeatedChannels(t testing.TB, n int) string {
	var bin []byte
	for _, f := range []float32{0, 1, 0, 0, 0, 1, 0, 0.7071, 0, 0.7071} {
		bin = binary.LittleEndian.AppendUint32(bin, math.Float32bits(f))
	}
	channels := make([]string, n)
	for i := range channels {
		channels[i] = `{"sampler":0,"target":{"node":0,"path":"rotation"}}`
	}
	doc := fmt.Sprintf(`{"asset":{"version":"2.0"},
"buffers":[{"byteLength":40,"uri":"data:application/octet-stream;base64,%s"}],
"bufferViews":[{"buffer":0,"byteLength":8},{"buffer":0,"byteOffset":8,"byteLength":32}],
"accessors":[{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},
 {"bufferView":1,"componentType":5126,"count":2,"type":"VEC4"}],
"nodes":[{"name":"n"}],"scenes":[{"nodes":[0]}],"scene":0,
"animations":[{"samplers":[{"input":0,"output":1}],"channels":[
%s
]}]}`, base64.StdEncoding.EncodeToString(bin), strings.Join(channels, ",\n"))
	p := filepath.Join(t.TempDir(), fmt.Sprintf("channels%d.gltf", n))
	if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFindingsBounded: 3,000 channels on one target are 4,498,500 pairs;
// the report lists MaxFindingsPerCode of them and counts the rest, in
// every layout (text, Khronos JSON, SARIF), with the lines of the listed
// ones right.
func TestFindingsBounded(t *testing.T) {
	const n = 3000
	pairs := n * (n - 1) / 2
	res := Validate([]string{repeatedChannels(t, n)}, scene.Load)
	v := res[0]
	if v.Err != nil {
		t.Fatal(v.Err)
	}
	dups := 0
	for _, f := range v.Findings {
		if f.Code == "ANIMATION_DUPLICATE_TARGETS" {
			dups++
		}
	}
	if dups != scene.MaxFindingsPerCode {
		t.Errorf("%d duplicate-target findings listed, want %d", dups, scene.MaxFindingsPerCode)
	}
	want := []scene.Omitted{{Code: "ANIMATION_DUPLICATE_TARGETS", Severity: scene.Error, Count: pairs - scene.MaxFindingsPerCode}}
	if fmt.Sprint(v.Omitted) != fmt.Sprint(want) {
		t.Errorf("omitted %v, want %v", v.Omitted, want)
	}

	var text bytes.Buffer
	WriteFindings(&text, v.Path, v.Findings, v.Omitted...)
	for _, line := range []string{
		fmt.Sprintf("findings: %d errors, 0 warnings, 1 notes", pairs),
		fmt.Sprintf("  ... and %d more error ANIMATION_DUPLICATE_TARGETS findings not listed", pairs-scene.MaxFindingsPerCode),
	} {
		if !strings.Contains(text.String(), line+"\n") {
			t.Errorf("text report lacks %q", line)
		}
	}

	k := v.Khronos()
	if !k.Issues.Truncated || k.Issues.NumErrors != pairs || len(k.Issues.Messages) != scene.MaxFindingsPerCode+1 {
		t.Errorf("Khronos: truncated %v, %d errors, %d messages; want true, %d, %d", k.Issues.Truncated, k.Issues.NumErrors, len(k.Issues.Messages), pairs, scene.MaxFindingsPerCode+1)
	}

	var sarif bytes.Buffer
	if err := WriteSARIF(&sarif, res); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(sarif.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	rs := log.Runs[0].Results
	if len(rs) != scene.MaxFindingsPerCode+2 {
		t.Fatalf("%d SARIF results, want %d", len(rs), scene.MaxFindingsPerCode+2)
	}
	// Channel c starts on line 8+c (the text above): the first finding is
	// on channel 0.
	if got := rs[0].Locations[0].PhysicalLocation.Region.StartLine; got != 8 {
		t.Errorf("first finding on line %d, want 8", got)
	}
	if last := rs[len(rs)-1]; !strings.Contains(last.Message.Text, fmt.Sprintf("and %d more", pairs-scene.MaxFindingsPerCode)) {
		t.Errorf("last SARIF result %q, want the count of the others", last.Message.Text)
	}
}

// BenchmarkRepeatedChannels validates files of 1,000 and 10,000 repeated
// channels and writes their findings as text and SARIF; it reports the
// ratio of the times (10x the input: at most 12x the time when linear).
// go test -run '^$' -bench RepeatedChannels -benchtime 3x ./internal/report
func BenchmarkRepeatedChannels(b *testing.B) {
	small, large := repeatedChannels(b, 1000), repeatedChannels(b, 10000)
	run := func(p string) time.Duration {
		start := time.Now()
		res := Validate([]string{p}, scene.Load)
		var w bytes.Buffer
		WriteFindings(&w, p, res[0].Findings, res[0].Omitted...)
		if err := WriteSARIF(&w, res); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	var ts, tl time.Duration
	for b.Loop() {
		ts += run(small)
		tl += run(large)
	}
	b.ReportMetric(float64(ts.Microseconds())/float64(b.N)/1000, "ms/1k-channels")
	b.ReportMetric(float64(tl.Microseconds())/float64(b.N)/1000, "ms/10k-channels")
	b.ReportMetric(float64(tl)/float64(ts), "ratio")
}

// TestInspectJSONInfiniteBounds: bounds that overflowed to infinity are
// left out of inspect -json, which used to fail with "json: unsupported
// value: -Inf" naming no file.
func TestInspectJSONInfiniteBounds(t *testing.T) {
	r := Inspection{File: "x.gltf", Bounds: &Bounds{Min: [3]float64{math.Inf(-1), 0, 0}, Max: [3]float64{1, 1, 1}}}
	var out bytes.Buffer
	if err := r.WriteJSON(&out); err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(out.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if _, has := back["bounds"]; has || back["file"] != "x.gltf" {
		t.Errorf("bounds %v, file %v; want no bounds, x.gltf", back["bounds"], back["file"])
	}
	r.Bounds.Min[0] = -1
	out.Reset()
	if err := r.WriteJSON(&out); err != nil || !strings.Contains(out.String(), `"bounds"`) {
		t.Errorf("finite bounds: %v, %s", err, out.String())
	}
}
