package plumb

import (
	"cmp"
	"strings"
)

// Issue categories, levels and statuses as the spec lists them.
var (
	IssueCategories = []string{"bug", "vulnerability", "structure", "duplication", "security_hotspot",
		"performance", "documentation", "type_check", "style", "anti_pattern", "accessibility",
		"dead_code", "lint", "secret", "dependency_alert"}
	IssueLevels   = []string{"high", "medium", "low", "note", "fmt"}
	IssueStatuses = []string{"open", "ignored"}
	// SecurityCategories are the categories counted by the SECI metric.
	SecurityCategories = []string{"vulnerability", "security_hotspot", "secret", "dependency_alert"}
)

// IsSecurityCategory reports whether issues of category c count as security issues.
func IsSecurityCategory(c string) bool {
	for _, s := range SecurityCategories {
		if s == c {
			return true
		}
	}
	return false
}

// Issue is one finding of an analysis tool in a snapshot.
type Issue struct {
	ID               string
	ProjectID        string
	SnapshotID       string
	Fingerprint      string
	Tool             string
	RuleKey          string
	Message          string
	Category         string
	Level            string
	Status           string
	DocumentationURL string
	Path             string
	StartLine        *int
	EndLine          *int
}

// IssueFilter selects issues of a project's current snapshot. Values within a
// field combine with OR, fields with AND. Empty fields do not filter.
type IssueFilter struct {
	Categories []string
	Levels     []string
	Statuses   []string
	Tools      []string
	Page       Page
}

// Page is an offset page. Limit 0 means "every row" (exports).
type Page struct {
	Offset int
	Limit  int
}

// Contains reports whether list holds s.
func Contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// CompareIssueOrder orders issues for listing: by file path, then start line
// (an issue without one first), then rule key, then fingerprint.
func CompareIssueOrder(pathA string, lineA *int, ruleA, fpA string, pathB string, lineB *int, ruleB, fpB string) int {
	line := func(p *int) int {
		if p == nil {
			return 0
		}
		return *p
	}
	return cmp.Or(strings.Compare(pathA, pathB), cmp.Compare(line(lineA), line(lineB)),
		strings.Compare(ruleA, ruleB), strings.Compare(fpA, fpB))
}

// IssueCounts counts a project's current issues that pass a filter, in
// total and by each attribute. Categories, levels and statuses list every
// value (0 included); tools only those with issues.
type IssueCounts struct {
	Total      int
	ByCategory map[string]int
	ByLevel    map[string]int
	ByStatus   map[string]int
	ByTool     map[string]int
}

// NewIssueCounts returns zero counts with every category, level and status.
func NewIssueCounts() IssueCounts {
	c := IssueCounts{ByCategory: map[string]int{}, ByLevel: map[string]int{}, ByStatus: map[string]int{}, ByTool: map[string]int{}}
	for _, set := range []struct {
		m      map[string]int
		values []string
	}{{c.ByCategory, IssueCategories}, {c.ByLevel, IssueLevels}, {c.ByStatus, IssueStatuses}} {
		for _, v := range set.values {
			set.m[v] = 0
		}
	}
	return c
}
