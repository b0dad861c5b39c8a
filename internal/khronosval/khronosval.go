// Package khronosval runs the Khronos glTF-Validator (the npm package
// gltf-validator, under node) for tests and benchmarks that compare with it.
// The package is installed outside the repository (see docs/validation.md "Validation
// codes"); tests skip when node or the package is absent.
package khronosval

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Report is the part of a Khronos report the comparisons read.
type Report struct {
	File      string    `json:"file"`
	NumErrors int       `json:"numErrors"`
	Messages  []Message `json:"messages"`
	// Err is set when the validator failed on the file.
	Err string `json:"err,omitempty"`
}

// Message is one issue of a report: code, severity (0 error, 1 warning,
// 2 info, 3 hint) and JSON pointer, or for a problem with a GLB
// container's structure its byte offset.
type Message struct {
	Code     string `json:"code"`
	Severity int    `json:"severity"`
	Pointer  string `json:"pointer"`
	Offset   *int64 `json:"offset,omitempty"`
}

// script validates each file named on the command line, with its external
// resources read from beside it, and writes one JSON line per file.
const script = `
const fs = require('fs'), path = require('path');
const validator = require(process.env.GLTF_VALIDATOR);
(async () => {
  for (const f of process.argv.slice(2)) {
    try {
      const r = await validator.validateBytes(new Uint8Array(fs.readFileSync(f)), {
        uri: path.basename(f), maxIssues: 0,
        externalResourceFunction: (u) => new Promise((ok, bad) => {
          fs.readFile(path.join(path.dirname(f), decodeURIComponent(u)), (e, d) => e ? bad(e.toString()) : ok(new Uint8Array(d)));
        }),
      });
      console.log(JSON.stringify({file: f, numErrors: r.issues.numErrors,
        messages: r.issues.messages.map(m => ({code: m.code, severity: m.severity, pointer: m.pointer, offset: m.offset}))}));
    } catch (e) {
      console.log(JSON.stringify({file: f, err: String(e)}));
    }
  }
})();
`

// Dir returns the gltf-validator package folder: $PHYSVIEW_GLTF_VALIDATOR,
// or node_modules/gltf-validator under physview/npm/validator in the user's
// cache folder (where .ci/install-deps installs it), or under npm/validator
// beside the repository or one folder higher. It skips the test when node
// or the package is absent.
func Dir(t testing.TB, root string) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not found: skipping the comparison with the Khronos validator")
	}
	dir := os.Getenv("PHYSVIEW_GLTF_VALIDATOR")
	if dir == "" {
		// Where .ci/install-deps puts it, then an npm folder beside the
		// repository (or beside a worktree's parent).
		var candidates []string
		if c, err := os.UserCacheDir(); err == nil {
			candidates = append(candidates, filepath.Join(c, "physview", "npm", "validator"))
		}
		candidates = append(candidates, filepath.Join(root, "..", "npm", "validator"), filepath.Join(root, "..", "..", "npm", "validator"))
		for _, c := range candidates {
			dir = filepath.Join(c, "node_modules", "gltf-validator")
			if _, err := os.Stat(filepath.Join(dir, "package.json")); err == nil {
				break
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "package.json")); err != nil {
		t.Skipf("gltf-validator not found at %s (npm install gltf-validator there, or set PHYSVIEW_GLTF_VALIDATOR): skipping", dir)
	}
	abs, _ := filepath.Abs(dir)
	return abs
}

// Command returns the node command that validates files with the package
// in dir, writing its script into tmp.
func Command(dir, tmp string, files []string) (*exec.Cmd, error) {
	js := filepath.Join(tmp, "khronos-validate.js")
	if err := os.WriteFile(js, []byte(script), 0o644); err != nil {
		return nil, fmt.Errorf("khronosval: %w", err)
	}
	cmd := exec.Command("node", append([]string{js}, files...)...)
	cmd.Env = append(os.Environ(), "GLTF_VALIDATOR="+dir)
	return cmd, nil
}

// Run validates files with the Khronos validator in dir and returns the
// reports by file.
func Run(dir, tmp string, files []string) (map[string]Report, error) {
	cmd, err := Command(dir, tmp, files)
	if err != nil {
		return nil, err
	}
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("khronosval: node: %w", err)
	}
	reps := map[string]Report{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var r Report
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("khronosval: %v in %q", err, sc.Text())
		}
		reps[r.File] = r
	}
	return reps, nil
}
