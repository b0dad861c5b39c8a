package scene

import (
	"slices"

	"physview/scene/corecheck"
)

// The bounds on a document's findings: a hostile file can make one rule
// fire millions of times (50 million ANIMATION_DUPLICATE_TARGETS pairs from
// 10,000 channels on one target), which no reader can use and which would
// cost gigabytes to hold. Beyond the bounds a finding is only counted
// (Omitted), and reports say "and N more".
const (
	// MaxFindingsPerCode is how many findings of one code are kept.
	MaxFindingsPerCode = corecheck.MaxFindingsPerCode
	// MaxFindings is how many findings are kept in all.
	MaxFindings = 10_000
)

// Omitted counts the findings of one code past the bounds.
type Omitted struct {
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	Count    int      `json:"count"`
}

// Omitted returns the findings past MaxFindingsPerCode of their code or
// past MaxFindings in all, counted by code, in order of code.
func (d *Document) Omitted() []Omitted { return d.omitted }

// boundFindings returns fs (sorted) without exact repeats and within the
// bounds, and what it left out, merged with the counts in more (what the
// core checks left out before making the findings).
func boundFindings(fs []Finding, more map[string]corecheck.Omitted) ([]Finding, []Omitted) {
	type key struct {
		code string
		sev  Severity
	}
	counts := map[key]int{}
	for code, o := range more {
		counts[key{code, o.Severity}] += o.Count
	}
	perCode := map[string]int{}
	var seen map[Finding]bool
	if len(fs) > 1 {
		seen = make(map[Finding]bool, len(fs))
	}
	kept := fs[:0:0]
	for _, f := range fs {
		if seen[f] {
			continue // the same words at the same place: said once
		}
		if seen != nil {
			seen[f] = true
		}
		if perCode[f.Code] >= MaxFindingsPerCode || len(kept) >= MaxFindings {
			counts[key{f.Code, f.Severity}]++
			continue
		}
		perCode[f.Code]++
		kept = append(kept, f)
	}
	var out []Omitted
	for k, n := range counts {
		out = append(out, Omitted{k.code, k.sev, n})
	}
	slices.SortFunc(out, func(a, b Omitted) int {
		if a.Code != b.Code {
			if a.Code < b.Code {
				return -1
			}
			return 1
		}
		return int(b.Severity) - int(a.Severity)
	})
	return kept, out
}

// CountWithOmitted is CountBySeverity of fs plus the omitted findings.
func CountWithOmitted(fs []Finding, omitted []Omitted) map[Severity]int {
	m := CountBySeverity(fs)
	for _, o := range omitted {
		m[o.Severity] += o.Count
	}
	return m
}
