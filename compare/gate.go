package compare

import (
	"fmt"
	"strconv"

	"github.com/plumbhq/plumb"
)

// Gate is a project's quality gate: the conditions a change must meet. A
// nil field is a condition turned off.
type Gate struct {
	// PatchCoverage is the least patch coverage, in percent.
	PatchCoverage *float64 `json:"patchCoverage"`
	// CoverageDrop is how many points total coverage may fall.
	CoverageDrop *float64 `json:"coverageDrop"`
	// NewIssues bounds the new issues of a level or worse.
	NewIssues *IssueBound `json:"newIssues"`
	// NewSecurityIssues bounds the new issues of the security categories.
	NewSecurityIssues *int `json:"newSecurityIssues"`
	// Advisory names the conditions (by their field names above) that are
	// evaluated and shown but do not fail the gate; the others block.
	Advisory []string `json:"advisory,omitempty"`
}

// GateConditions are the gate's conditions by their field names, in the
// order they are evaluated.
var GateConditions = []string{"patchCoverage", "coverageDrop", "newIssues", "newSecurityIssues"}

// on tells whether the condition named by its field name is turned on.
func (g Gate) on(name string) bool {
	switch name {
	case "patchCoverage":
		return g.PatchCoverage != nil
	case "coverageDrop":
		return g.CoverageDrop != nil
	case "newIssues":
		return g.NewIssues != nil
	case "newSecurityIssues":
		return g.NewSecurityIssues != nil
	}
	return false
}

// Blocking tells whether the condition named by its field name fails the
// gate when it fails (it is not advisory).
func (g Gate) Blocking(name string) bool { return !plumb.Contains(g.Advisory, name) }

// IssueBound: at most Max new issues of level Level or more severe.
type IssueBound struct {
	Level string `json:"level"`
	Max   int    `json:"max"`
}

// DefaultGate: patch coverage at least 80 %, total coverage down by at most
// one point, no new high-level issue, no new security issue.
func DefaultGate() Gate {
	pc, drop, sec := 80.0, 1.0, 0
	return Gate{PatchCoverage: &pc, CoverageDrop: &drop, NewIssues: &IssueBound{Level: "high", Max: 0}, NewSecurityIssues: &sec}
}

// Validate names every problem of a gate.
func (g Gate) Validate() []string {
	var p []string
	if g.PatchCoverage != nil && (*g.PatchCoverage < 0 || *g.PatchCoverage > 100) {
		p = append(p, fmt.Sprintf("patchCoverage must be a percentage from 0 to 100, got %v.", *g.PatchCoverage))
	}
	if g.CoverageDrop != nil && (*g.CoverageDrop < 0 || *g.CoverageDrop > 100) {
		p = append(p, fmt.Sprintf("coverageDrop must be from 0 to 100 points, got %v.", *g.CoverageDrop))
	}
	if b := g.NewIssues; b != nil {
		if !plumb.Contains(plumb.IssueLevels, b.Level) {
			p = append(p, fmt.Sprintf("newIssues.level must be one of high, medium, low, note, fmt, got %q.", b.Level))
		}
		if b.Max < 0 {
			p = append(p, fmt.Sprintf("newIssues.max must be 0 or more, got %d.", b.Max))
		}
	}
	if g.NewSecurityIssues != nil && *g.NewSecurityIssues < 0 {
		p = append(p, fmt.Sprintf("newSecurityIssues must be 0 or more, got %d.", *g.NewSecurityIssues))
	}
	seen := map[string]bool{}
	for _, name := range g.Advisory {
		switch {
		case !plumb.Contains(GateConditions, name):
			p = append(p, fmt.Sprintf("advisory names %q, which is not a condition; the conditions are patchCoverage, coverageDrop, newIssues and newSecurityIssues.", name))
		case seen[name]:
			p = append(p, fmt.Sprintf("advisory names %s twice.", name))
		case !g.on(name):
			p = append(p, fmt.Sprintf("advisory names %s, which is off: an advisory condition must be on.", name))
		}
		seen[name] = true
	}
	return p
}

// Condition states.
const (
	ConditionPassed  = "passed"
	ConditionFailed  = "failed"
	ConditionNoData  = "no_data" // nothing to judge: never fails the gate
	GatePassed       = "passed"
	GateFailed       = "failed"
	conditionPatch   = "patch_coverage"
	conditionDrop    = "coverage_drop"
	conditionNew     = "new_issues"
	conditionNewSecu = "new_security_issues"
)

// ConditionResult is one condition's outcome. An advisory condition is
// judged like the others but does not fail the gate (the zero value, and an
// answer from a server without advisory conditions, blocks).
type ConditionResult struct {
	Condition string `json:"condition"`
	Status    string `json:"status"`
	Threshold string `json:"threshold"`
	Actual    string `json:"actual"`
	Advisory  bool   `json:"advisory"`
}

// GateResult is a gate's outcome for a change.
type GateResult struct {
	Status     string            `json:"status"`
	Conditions []ConditionResult `json:"conditions"`
}

// Failed counts the failed conditions: those that block, and the advisory
// ones.
func (r GateResult) Failed() (blocking, advisory int) {
	for _, c := range r.Conditions {
		if c.Status != ConditionFailed {
			continue
		}
		if c.Advisory {
			advisory++
		} else {
			blocking++
		}
	}
	return blocking, advisory
}

// Summary is the gate's outcome in one line ("Quality gate failed: 1 of 4
// conditions", "Quality gate passed (1 advisory condition failed)").
func (r GateResult) Summary() string {
	blocking, advisory := r.Failed()
	if blocking > 0 {
		s := fmt.Sprintf("Quality gate failed: %d of %d conditions", blocking, r.blockingCount())
		if advisory > 0 {
			s += fmt.Sprintf(" (and %s)", advisoryFailed(advisory))
		}
		return s
	}
	s := "Quality gate passed"
	if advisory > 0 {
		s += fmt.Sprintf(" (%s)", advisoryFailed(advisory))
	}
	return s
}

func (r GateResult) blockingCount() int {
	n := 0
	for _, c := range r.Conditions {
		if !c.Advisory {
			n++
		}
	}
	return n
}

func advisoryFailed(n int) string {
	if n == 1 {
		return "1 advisory condition failed"
	}
	return fmt.Sprintf("%d advisory conditions failed", n)
}

// GateInput are the figures a gate judges.
type GateInput struct {
	Patch                      *Coverage // nil: no change uploaded
	BaseCoverage, HeadCoverage *float64  // percent, nil when unknown
	NewIssues                  []plumb.Issue
	// NoIssueData, when not empty, says why issues cannot be compared (a
	// side without analysis, see MissingIssueData): the issue conditions are
	// then no_data, whatever NewIssues holds.
	NoIssueData string
}

// fieldOf maps a condition's result name to its field name in the gate.
var fieldOf = map[string]string{conditionPatch: "patchCoverage", conditionDrop: "coverageDrop", conditionNew: "newIssues", conditionNewSecu: "newSecurityIssues"}

var levelRank = map[string]int{"fmt": 1, "note": 2, "low": 3, "medium": 4, "high": 5}

func pct(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) + "%" }

// Evaluate judges a change. Conditions without data (no patch lines, a side
// without coverage, a side without analysis for the issue conditions) do not
// fail the gate.
func (g Gate) Evaluate(in GateInput) GateResult {
	r := GateResult{Status: GatePassed, Conditions: []ConditionResult{}}
	add := func(c ConditionResult, ok bool) {
		c.Advisory = !g.Blocking(fieldOf[c.Condition])
		switch {
		case c.Status == ConditionNoData:
		case ok:
			c.Status = ConditionPassed
		default:
			c.Status = ConditionFailed
			if !c.Advisory {
				r.Status = GateFailed
			}
		}
		r.Conditions = append(r.Conditions, c)
	}
	if g.PatchCoverage != nil {
		c := ConditionResult{Condition: conditionPatch, Threshold: "≥ " + pct(*g.PatchCoverage), Actual: "no changed coverable line", Status: ConditionNoData}
		var p *float64
		if in.Patch != nil {
			p = in.Patch.Percent()
		}
		if p != nil {
			c.Status, c.Actual = "", fmt.Sprintf("%s (%d of %d lines)", pct(*p), in.Patch.Covered, in.Patch.Coverable)
		}
		add(c, p != nil && *p >= *g.PatchCoverage)
	}
	if g.CoverageDrop != nil {
		c := ConditionResult{Condition: conditionDrop, Threshold: "≤ " + strconv.FormatFloat(*g.CoverageDrop, 'f', 2, 64) + " points", Actual: "no coverage on one side", Status: ConditionNoData}
		var drop float64
		if in.BaseCoverage != nil && in.HeadCoverage != nil {
			drop = roundPoints(*in.BaseCoverage - *in.HeadCoverage)
			c.Status, c.Actual = "", fmt.Sprintf("%s → %s", pct(*in.BaseCoverage), pct(*in.HeadCoverage))
		}
		add(c, drop <= *g.CoverageDrop)
	}
	issues := func(c ConditionResult, count func(plumb.Issue) bool, max int) {
		if in.NoIssueData != "" {
			c.Status, c.Actual = ConditionNoData, in.NoIssueData
			add(c, false)
			return
		}
		n := 0
		for _, is := range in.NewIssues {
			if count(is) {
				n++
			}
		}
		c.Actual = strconv.Itoa(n)
		add(c, n <= max)
	}
	if b := g.NewIssues; b != nil {
		issues(ConditionResult{Condition: conditionNew, Threshold: fmt.Sprintf("≤ %d of level %s or worse", b.Max, b.Level)},
			func(is plumb.Issue) bool { return levelRank[is.Level] >= levelRank[b.Level] }, b.Max)
	}
	if g.NewSecurityIssues != nil {
		issues(ConditionResult{Condition: conditionNewSecu, Threshold: fmt.Sprintf("≤ %d", *g.NewSecurityIssues)},
			func(is plumb.Issue) bool { return plumb.IsSecurityCategory(is.Category) }, *g.NewSecurityIssues)
	}
	return r
}

func roundPoints(v float64) float64 {
	return float64(int64(v*100+0.5*sign(v))) / 100
}

func sign(v float64) float64 {
	if v < 0 {
		return -1
	}
	return 1
}
