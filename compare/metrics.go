package compare

import (
	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/metric"
)

// The rule of a comparison's issue metrics (docs/pull-requests.md): on each
// side, the figures that come from issues (open issues, remediation minutes,
// security issues per level: ISS, SECI, SEC, TDR and MNT) are summed from
// that side's open issues, the very issues the comparison's lists classify,
// wherever they are located. So, over a set of paths (the project, or a
// component's globs), the head's open issues minus the base's are the new
// open issues minus the fixed ones: ISS's delta is always new − fixed.

// IssueFigures sums the issue figures of the open issues whose path in
// accepts (nil: every issue).
func IssueFigures(issues []plumb.Issue, in func(path string) bool) metric.FileStats {
	var f metric.FileStats
	for i := range issues {
		is := &issues[i]
		if is.Status != "open" || in != nil && !in(is.Path) {
			continue
		}
		lv, _ := metric.ParseLevel(is.Level)
		f.AddOpenIssue(lv, is.Category)
	}
	return f
}

// WithIssueFigures returns t with its issue figures replaced by those of
// issues (see IssueFigures); its files, lines, complexity, duplication and
// coverage stay as they are.
func WithIssueFigures(t metric.Totals, issues []plumb.Issue, in func(path string) bool) metric.Totals {
	f := IssueFigures(issues, in)
	t.Stats.OpenIssues, t.Stats.RemediationMinutes, t.Stats.SecurityIssues = f.OpenIssues, f.RemediationMinutes, f.SecurityIssues
	return t
}
