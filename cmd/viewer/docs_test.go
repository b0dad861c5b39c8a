package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeForNewcomers keeps README.md one screen for a newcomer: at most
// 150 lines, the two commands (install and run the demo; run the tests) as
// its first commands, the same test command .ci/run runs, and every page
// under docs/ linked from it.
func TestReadmeForNewcomers(t *testing.T) {
	root := filepath.Join("..", "..")
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	if n := strings.Count(readme, "\n"); n > 150 {
		t.Errorf("README.md has %d lines, want at most 150 (reference belongs in docs/)", n)
	}
	var commands []string
	for _, l := range strings.Split(readme, "\n") {
		if strings.HasPrefix(l, "    ") && strings.TrimSpace(l) != "" {
			commands = append(commands, strings.TrimSpace(l))
		}
	}
	want := []string{"bash .ci/install-deps && go run ./cmd/viewer", "bash .ci/test"}
	if len(commands) < 2 || commands[0] != want[0] || commands[1] != want[1] {
		t.Errorf("README's first commands are %q, want %q", commands, want)
	}
	run, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(run), "bash .ci/test") {
		t.Error(".ci/run does not run the README's test command")
	}
	pages, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if len(pages) < 8 {
		t.Fatalf("docs/ has %d pages", len(pages))
	}
	for _, p := range pages {
		if !strings.Contains(readme, "(docs/"+filepath.Base(p)+")") {
			t.Errorf("README.md does not link docs/%s", filepath.Base(p))
		}
	}
}

// TestDocsLinks: every relative link in README.md and docs/ names a file
// that exists, and every docs page starts with a title and a sentence on
// what it is for.
func TestDocsLinks(t *testing.T) {
	root := filepath.Join("..", "..")
	files, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files = append(files, filepath.Join(root, "README.md"))
	link := regexp.MustCompile(`\]\(([^)#:]+)(#[^)]*)?\)`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			target := filepath.Join(filepath.Dir(f), m[1])
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s links %s, which does not exist", filepath.Base(f), m[1])
			}
		}
		if filepath.Base(f) == "README.md" {
			continue
		}
		lines := strings.SplitN(string(b), "\n", 4)
		if len(lines) < 3 || !strings.HasPrefix(lines[0], "# ") || lines[1] != "" || strings.TrimSpace(lines[2]) == "" || strings.HasPrefix(lines[2], "#") {
			t.Errorf("docs/%s does not start with a title and a sentence on what it is for", filepath.Base(f))
		}
	}
}
