package main

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// usageVerbs lists the subcommands the usage text names ("  viewer VERB").
func usageVerbs() []string {
	seen := map[string]bool{}
	var verbs []string
	for _, m := range regexp.MustCompile(`(?m)^  viewer ([a-z][a-z-]*)`).FindAllStringSubmatch(usage, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			verbs = append(verbs, m[1])
		}
	}
	sort.Strings(verbs)
	return verbs
}

// verbSection returns the part of the reference under the "## " heading
// that names `viewer VERB`, up to the next such heading ("" if none).
func verbSection(doc, verb string) string {
	parts := strings.Split("\n"+doc, "\n## ")
	for _, p := range parts[1:] {
		head, _, _ := strings.Cut(p, "\n")
		if regexp.MustCompile("`viewer " + regexp.QuoteMeta(verb) + "[ `]").MatchString(head) {
			return p
		}
	}
	return ""
}

// flagNamed reports whether text writes the flag as -NAME.
func flagNamed(text, name string) bool {
	return regexp.MustCompile(`(^|[\s\[|(` + "`" + `])-` + regexp.QuoteMeta(name) + `\b`).MatchString(text)
}

// TestCLIReference keeps docs/cli.md in step with the code: every verb the
// usage text names has a "## `viewer VERB ...`" section there, and every
// flag each verb's flag set defines is written in that section as -NAME.
func TestCLIReference(t *testing.T) {
	ref, err := os.ReadFile(filepath.Join("..", "..", "docs", "cli.md"))
	if err != nil {
		t.Fatalf("the CLI reference: %v", err)
	}
	doc := string(ref)
	verbs := usageVerbs()
	if len(verbs) < 8 {
		t.Fatalf("usage names %d verbs (%v): the pattern no longer matches it", len(verbs), verbs)
	}
	var sets []*flag.FlagSet
	flagSetMade = func(fs *flag.FlagSet) { sets = append(sets, fs) }
	defer func() { flagSetMade = nil }()
	for _, verb := range verbs {
		section := verbSection(doc, verb)
		if section == "" {
			t.Errorf("docs/cli.md has no section headed `viewer %s`", verb)
		}
		sets = sets[:0]
		// -h stops each verb at its flag parsing, after every flag is defined.
		var out strings.Builder
		captureStdout(t, func() int { return run([]string{verb, "-h"}, io.Discard, io.Discard) }, &out)
		if len(sets) == 0 {
			continue // a verb without flags
		}
		for _, fs := range sets {
			fs.VisitAll(func(f *flag.Flag) {
				if !flagNamed(section, f.Name) {
					t.Errorf("docs/cli.md does not document `viewer %s -%s` (%s)", verb, f.Name, f.Usage)
				}
			})
		}
	}
}

// TestCLIReferenceCatchesAMissingFlag shows that the checks above can
// fail: a flag named only in another verb's section is not found.
func TestCLIReferenceCatchesAMissingFlag(t *testing.T) {
	ref, err := os.ReadFile(filepath.Join("..", "..", "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(ref)
	if !flagNamed(verbSection(doc, "convert"), "physics") {
		t.Error("convert's section does not name -physics")
	}
	if flagNamed(verbSection(doc, "convert"), "joints") {
		t.Error("convert's section names -joints, which only screenshot has")
	}
	if verbSection(doc, "uninstall-desktop") == "" || verbSection(doc, "no-such-verb") != "" {
		t.Error("verbSection finds the wrong sections")
	}
}

// TestVerbHelp: `viewer VERB -h` prints that verb's flags on stdout and
// exits 0, for every verb with flags.
func TestVerbHelp(t *testing.T) {
	for _, verb := range usageVerbs() {
		var sets []*flag.FlagSet
		flagSetMade = func(fs *flag.FlagSet) { sets = append(sets, fs) }
		var out, errOut strings.Builder
		code := captureStdout(t, func() int { return run([]string{verb, "-h"}, &out, &errOut) }, &out)
		flagSetMade = nil
		if len(sets) == 0 {
			continue
		}
		if code != 0 {
			t.Errorf("viewer %s -h: exit %d, want 0 (stderr %q)", verb, code, errOut.String())
		}
		sets[0].VisitAll(func(f *flag.Flag) {
			if !strings.Contains(out.String(), "-"+f.Name) {
				t.Errorf("viewer %s -h does not list -%s:\n%s", verb, f.Name, out.String())
			}
		})
	}
}

// captureStdout runs f with os.Stdout going into out as well as w.
func captureStdout(t *testing.T, f func() int, out *strings.Builder) int {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	done := make(chan struct{})
	go func() {
		b, _ := io.ReadAll(r)
		out.Write(b)
		close(done)
	}()
	code := f()
	os.Stdout = old
	w.Close()
	<-done
	return code
}
