package compare

import (
	"reflect"
	"strings"
	"testing"

	"github.com/plumbhq/plumb"
)

// failingInput fails every condition of the default gate: patch coverage
// 25 %, total coverage down 5 points, a new high issue that is also a
// vulnerability.
func failingInput() GateInput {
	base, head := 80.0, 75.0
	return GateInput{
		Patch:        &Coverage{Covered: 1, Coverable: 4},
		BaseCoverage: &base, HeadCoverage: &head,
		NewIssues: []plumb.Issue{{Level: "high", Category: "vulnerability"}},
	}
}

func statuses(r GateResult) (out []string) {
	for _, c := range r.Conditions {
		out = append(out, c.Condition+"="+c.Status+"/"+map[bool]string{false: "blocking", true: "advisory"}[c.Advisory])
	}
	return out
}

func TestGateAdvisoryConditionsDoNotFail(t *testing.T) {
	cases := []struct {
		name     string
		advisory []string
		status   string
		summary  string
		conds    []string
	}{
		{"all blocking", nil, GateFailed, "Quality gate failed: 4 of 4 conditions",
			[]string{"patch_coverage=failed/blocking", "coverage_drop=failed/blocking", "new_issues=failed/blocking", "new_security_issues=failed/blocking"}},
		{"two advisory", []string{"coverageDrop", "newSecurityIssues"}, GateFailed, "Quality gate failed: 2 of 2 conditions (and 2 advisory conditions failed)",
			[]string{"patch_coverage=failed/blocking", "coverage_drop=failed/advisory", "new_issues=failed/blocking", "new_security_issues=failed/advisory"}},
		{"all advisory", []string{"patchCoverage", "coverageDrop", "newIssues", "newSecurityIssues"}, GatePassed, "Quality gate passed (4 advisory conditions failed)",
			[]string{"patch_coverage=failed/advisory", "coverage_drop=failed/advisory", "new_issues=failed/advisory", "new_security_issues=failed/advisory"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := DefaultGate()
			g.Advisory = tc.advisory
			if p := g.Validate(); len(p) > 0 {
				t.Fatalf("Validate: %v", p)
			}
			r := g.Evaluate(failingInput())
			if r.Status != tc.status {
				t.Errorf("status %q, want %q", r.Status, tc.status)
			}
			if got := statuses(r); !reflect.DeepEqual(got, tc.conds) {
				t.Errorf("conditions %v, want %v", got, tc.conds)
			}
			if got := r.Summary(); got != tc.summary {
				t.Errorf("summary %q, want %q", got, tc.summary)
			}
		})
	}
}

func TestGateAdvisoryPassingAndNoData(t *testing.T) {
	g := DefaultGate()
	g.Advisory = []string{"patchCoverage"}
	// An advisory condition that passes, or has no data, is just shown.
	base, head := 80.0, 80.0
	r := g.Evaluate(GateInput{Patch: &Coverage{Covered: 4, Coverable: 4}, BaseCoverage: &base, HeadCoverage: &head})
	if r.Status != GatePassed || r.Summary() != "Quality gate passed" {
		t.Fatalf("got %s / %q", r.Status, r.Summary())
	}
	if b, a := r.Failed(); b != 0 || a != 0 {
		t.Fatalf("Failed() = %d, %d", b, a)
	}
	r = g.Evaluate(GateInput{})
	if c := r.Conditions[0]; c.Status != ConditionNoData || !c.Advisory {
		t.Fatalf("patch condition without data: %+v", c)
	}
	if r.Status != GatePassed {
		t.Fatalf("status %s", r.Status)
	}
}

func TestGateValidateAdvisory(t *testing.T) {
	g := DefaultGate()
	g.CoverageDrop = nil
	g.Advisory = []string{"patchCoverage", "patch_coverage", "coverageDrop", "patchCoverage"}
	got := strings.Join(g.Validate(), "\n")
	for _, want := range []string{
		`advisory names "patch_coverage", which is not a condition`,
		"advisory names coverageDrop, which is off",
		"advisory names patchCoverage twice",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("Validate() = %q, want it to say %q", got, want)
		}
	}
	if n := len(g.Validate()); n != 3 {
		t.Errorf("%d problems, want 3: %q", n, got)
	}
}
