package compare

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/plumbhq/plumb"
)

// validateCodeQuality checks a report against the rules of GitLab's
// documentation of the Code Quality report format: a JSON array of objects,
// each with a description, a check_name, a fingerprint unique in the report,
// a severity among info, minor, major, critical and blocker, a
// location.path relative to the repository (no leading "./" or "/") and a
// location.lines.begin line number.
func validateCodeQuality(raw []byte) []string {
	var entries []map[string]any
	if err := json.Unmarshal(raw, &entries); err != nil {
		return []string{"not a JSON array of objects: " + err.Error()}
	}
	if entries == nil {
		return []string{"null instead of an array"}
	}
	var problems []string
	fingerprints := map[string]bool{}
	for i, e := range entries {
		bad := func(format string, args ...any) {
			problems = append(problems, fmt.Sprintf("entry %d: ", i)+fmt.Sprintf(format, args...))
		}
		for _, f := range []string{"description", "check_name", "fingerprint", "severity"} {
			if s, ok := e[f].(string); !ok || s == "" {
				bad("%s must be a non-empty string, got %v", f, e[f])
			}
		}
		if fp, _ := e["fingerprint"].(string); fingerprints[fp] {
			bad("fingerprint %q repeated", fp)
		} else {
			fingerprints[fp] = true
		}
		if sev, _ := e["severity"].(string); !slices.Contains([]string{"info", "minor", "major", "critical", "blocker"}, sev) {
			bad("severity %q is not one of info, minor, major, critical, blocker", sev)
		}
		loc, ok := e["location"].(map[string]any)
		if !ok {
			bad("location must be an object")
			continue
		}
		if p, _ := loc["path"].(string); p == "" || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "/") {
			bad("location.path %q must be a path relative to the repository", p)
		}
		lines, _ := loc["lines"].(map[string]any)
		if b, ok := lines["begin"].(float64); !ok || b < 1 || b != float64(int(b)) {
			bad("location.lines.begin must be a line number, got %v", lines["begin"])
		}
	}
	return problems
}

func TestValidateCodeQualityCatchesBreaches(t *testing.T) {
	for _, bad := range []string{
		`null`, `{}`,
		`[{"check_name":"r","fingerprint":"a","severity":"minor","location":{"path":"a.go","lines":{"begin":1}}}]`,
		`[{"description":"d","check_name":"r","fingerprint":"a","severity":"warning","location":{"path":"a.go","lines":{"begin":1}}}]`,
		`[{"description":"d","check_name":"r","fingerprint":"a","severity":"minor","location":{"path":"./a.go","lines":{"begin":1}}}]`,
		`[{"description":"d","check_name":"r","fingerprint":"a","severity":"minor","location":{"path":"a.go","lines":{"begin":0}}}]`,
		`[{"description":"d","check_name":"r","fingerprint":"a","severity":"minor","location":{"path":"a.go","lines":{"begin":1}}},
		  {"description":"d","check_name":"r","fingerprint":"a","severity":"minor","location":{"path":"b.go","lines":{"begin":1}}}]`,
	} {
		if len(validateCodeQuality([]byte(bad))) == 0 {
			t.Errorf("the validator accepted %s", bad)
		}
	}
}

func TestCodeQualityReport(t *testing.T) {
	line := func(n int) *int { return &n }
	issues := []plumb.Issue{
		{Fingerprint: "fp-high", Tool: "gosec", RuleKey: "G101", Message: "Hard-coded credentials", Level: "high", Path: "cmd/main.go", StartLine: line(12)},
		{Fingerprint: "fp-medium", Tool: "staticcheck", RuleKey: "SA4006", Message: "Unused value", Level: "medium", Path: "./pkg/a.go", StartLine: line(3)},
		{Fingerprint: "fp-low", Tool: "revive", RuleKey: "exported", Message: "Missing comment", Level: "low", Path: "pkg/b.go"},
		{Fingerprint: "fp-note", Tool: "lint", RuleKey: "N1", Level: "note", Path: "docs/x.md", StartLine: line(1)},
		{Fingerprint: "fp-fmt", Tool: "gofmt", RuleKey: "fmt", Message: "Not formatted", Level: "fmt", Path: "pkg/c.go", StartLine: line(1)},
		{Fingerprint: "fp-high", Tool: "gosec", RuleKey: "G101", Message: "Hard-coded credentials", Level: "high", Path: "cmd/main.go", StartLine: line(40)},
		{Fingerprint: "fp-nopath", Tool: "deps", RuleKey: "CVE", Message: "Project-wide", Level: "high"},
	}
	var buf bytes.Buffer
	if err := WriteCodeQuality(&buf, issues); err != nil {
		t.Fatal(err)
	}
	if problems := validateCodeQuality(buf.Bytes()); len(problems) > 0 {
		t.Fatalf("the report breaks GitLab's format:\n%s\n%s", strings.Join(problems, "\n"), buf.String())
	}
	got := CodeQuality(issues)
	var summary []string
	for _, cq := range got {
		summary = append(summary, fmt.Sprintf("%s %s %s:%d %q", cq.Severity, cq.CheckName, cq.Location.Path, cq.Location.Lines.Begin, cq.Description))
	}
	want := []string{
		`critical gosec:G101 cmd/main.go:12 "Hard-coded credentials"`,
		`major staticcheck:SA4006 pkg/a.go:3 "Unused value"`,
		`minor revive:exported pkg/b.go:1 "Missing comment"`,
		`info lint:N1 docs/x.md:1 "lint:N1"`,
		`info gofmt:fmt pkg/c.go:1 "Not formatted"`,
		`critical gosec:G101 cmd/main.go:40 "Hard-coded credentials"`,
	}
	if strings.Join(summary, "\n") != strings.Join(want, "\n") {
		t.Errorf("report:\n%s\nwant\n%s", strings.Join(summary, "\n"), strings.Join(want, "\n"))
	}
	// Stable: the same issue has the same fingerprint in the next report.
	again := CodeQuality(issues[1:2])
	if again[0].Fingerprint != got[1].Fingerprint || len(got[1].Fingerprint) != 32 {
		t.Errorf("fingerprint %q then %q, want the same MD5", got[1].Fingerprint, again[0].Fingerprint)
	}
	// No issue: an empty array, which GitLab reads as no finding.
	buf.Reset()
	if err := WriteCodeQuality(&buf, nil); err != nil || strings.TrimSpace(buf.String()) != "[]" {
		t.Errorf("empty report %q, %v", buf.String(), err)
	}
}
