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

// GroupFigures sums, for each side, the issue figures of its open issues
// over each group of paths (a component's globs: in[g] says whether a path
// belongs to group g): out[side][g] is IssueFigures(sides[side], in[g]).
// Each distinct path's groups are decided once, for every side.
func GroupFigures(sides [][]plumb.Issue, in []func(path string) bool) [][]metric.FileStats {
	out := make([][]metric.FileStats, len(sides))
	for s := range out {
		out[s] = make([]metric.FileStats, len(in))
	}
	if len(in) == 0 {
		return out
	}
	groups := map[string][]int32{}
	for s, issues := range sides {
		var last string // issues come grouped by path: the last one's groups
		var g []int32
		have := false
		for i := range issues {
			is := &issues[i]
			if is.Status != "open" {
				continue
			}
			if !have || is.Path != last {
				var known bool
				if g, known = groups[is.Path]; !known {
					for n, member := range in {
						if member(is.Path) {
							g = append(g, int32(n))
						}
					}
					groups[is.Path] = g
				}
				last, have = is.Path, true
			}
			if len(g) == 0 {
				continue
			}
			lv, _ := metric.ParseLevel(is.Level)
			for _, n := range g {
				out[s][n].AddOpenIssue(lv, is.Category)
			}
		}
	}
	return out
}

// WithIssueFigures returns t with its issue figures replaced by f's; its
// files, lines, complexity, duplication and coverage stay as they are.
func WithIssueFigures(t metric.Totals, f metric.FileStats) metric.Totals {
	t.Stats.OpenIssues, t.Stats.RemediationMinutes, t.Stats.SecurityIssues = f.OpenIssues, f.RemediationMinutes, f.SecurityIssues
	return t
}
