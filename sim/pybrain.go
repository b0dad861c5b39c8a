package sim

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

var (
	passGroup = regexp.MustCompile(`\(([^)]*)\)|\[([^\]]*)\]`)
	passName  = regexp.MustCompile(`'([^']*)'|"([^"]*)"`)
)

// pyBrainPassPairs reads the pass pairs PyBrain's ODE environment keeps in
// a trailing XML comment of its XODE files ("<passpairs>" followed by
// tuples of body names): the bodies of one tuple never collide with each
// other, which PyBrain relies on where parts overlap (octacrawl's legs and
// its two crossed body boxes). It is not XODE, so it is read from the file
// the document came from, when that is an .xode file.
func (s *Sim) pyBrainPassPairs() {
	s.pass = map[int]uint64{}
	path := s.Doc.Path
	if !strings.EqualFold(filepath.Ext(path), ".xode") {
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return
	}
	text := string(data)
	i := strings.LastIndex(text, "<passpairs>")
	if i < 0 || !strings.Contains(text[:i], "</xode>") {
		return
	}
	section := text[i+len("<passpairs>"):]
	if j := strings.Index(section, "<"); j >= 0 {
		section = section[:j]
	}
	byName := map[string]int{}
	for bi, b := range s.Bodies {
		byName[b.Name] = bi
	}
	groups := 0
	for _, g := range passGroup.FindAllStringSubmatch(section, -1) {
		if groups >= 64 {
			s.warnf("more than 64 PyBrain pass groups: the rest are ignored")
			break
		}
		bit := uint64(1) << groups
		used := false
		for _, n := range passName.FindAllStringSubmatch(g[1]+g[2], -1) {
			if bi, ok := byName[n[1]+n[2]]; ok {
				s.pass[bi] |= bit
				used = true
			}
		}
		if used {
			groups++
		}
	}
	if groups > 0 {
		what := "groups of bodies that do not collide with each other"
		if groups == 1 {
			what = "group of bodies that do not collide with each other"
		}
		s.warnf("PyBrain pass pairs read from the file's trailing comment: %d %s", groups, what)
	}
}
