package compare

// The comparison of two commits: the store loads each side's rows
// (snapshots, issues, coverage per tag, stored totals, the files whose
// figures differ); the rules here decide what the sides are and what the
// comparison says (which coverage tags count and which are carried forward,
// which issues a filter keeps, the head's totals built from the base's).

import (
	"slices"
	"strings"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/metric"
)

// SideCoverage is the coverage of one side of a comparison.
type SideCoverage struct {
	Commit string
	// Tags are the coverage tags uploaded for the commit (or the one asked
	// for); Carried are the tags taken from the base because the head has
	// none of them (carry-forward, head side only).
	Tags, Carried []string
	Coverage      metric.Coverage
}

// Comparison holds what is known of a base and a head commit.
type Comparison struct {
	Base, Head SideCoverage
	// HeadHits are the head's merged hits of the changed paths that have
	// coverage.
	HeadHits map[string][]int64
	// BaseSnapshot and HeadSnapshot are the latest analyses of each commit
	// (nil when there is none), with their issues.
	BaseSnapshot, HeadSnapshot *plumb.Snapshot
	BaseIssues, HeadIssues     []plumb.Issue
	// BaseIssuesAll and HeadIssuesAll are every issue, unfiltered.
	BaseIssuesAll, HeadIssuesAll []plumb.Issue
	// Metrics are the project's and each component's totals on both sides
	// (nil when either commit has no default-branch analysis to start from).
	Metrics *MetricsComparison
}

// ComparisonOptions narrow a comparison.
type ComparisonOptions struct {
	CoverageTag string   // only this coverage tag ("" every tag)
	Paths       []string // the head paths whose hits are wanted
	Issues      plumb.IssueFilter
}

// MetricsComparison holds the metric inputs of both sides of a comparison.
type MetricsComparison struct {
	Base, Head metric.Totals
	Components []ComponentComparison
}

// ComponentComparison is one component's totals on both sides.
type ComponentComparison struct {
	ID, Name   string
	Base, Head metric.Totals
}

// CoverageTags decides which coverage tags each side counts: every tag
// uploaded for the commit, or only the one asked for (when the commit has
// it); the head also carries forward, from the base, each tag the head has
// no upload of.
func CoverageTags(baseTags, headTags []string, only string) (base, head, carried []string) {
	if only != "" {
		keep := func(tags []string) []string {
			if slices.Contains(tags, only) {
				return []string{only}
			}
			return nil
		}
		baseTags, headTags = keep(baseTags), keep(headTags)
	}
	for _, t := range baseTags {
		if !slices.Contains(headTags, t) {
			carried = append(carried, t)
		}
	}
	return baseTags, headTags, carried
}

// FilterIssues returns the issues the filter keeps: all of them (the same,
// shared slice) when it keeps every one, as the default filter (open) often
// does. Tools match without regard to case.
func FilterIssues(all []plumb.Issue, f plumb.IssueFilter) []plumb.Issue {
	first := -1 // the first issue left out
	for i := range all {
		if !IssueMatches(all[i], f) {
			first = i
			break
		}
	}
	if first < 0 {
		return all
	}
	out := append([]plumb.Issue(nil), all[:first]...)
	for i := first + 1; i < len(all); i++ {
		if IssueMatches(all[i], f) {
			out = append(out, all[i])
		}
	}
	return out
}

// IssueMatches says whether the filter keeps one issue.
func IssueMatches(is plumb.Issue, f plumb.IssueFilter) bool {
	in := func(vals []string, v string, fold bool) bool {
		if len(vals) == 0 {
			return true
		}
		for _, x := range vals {
			if x == v || fold && strings.EqualFold(x, v) {
				return true
			}
		}
		return false
	}
	return in(f.Categories, is.Category, false) && in(f.Levels, is.Level, false) && in(f.Statuses, is.Status, false) && in(f.Tools, is.Tool, true)
}

// HasMetrics says whether a comparison has metric totals: only when the base
// is a default-branch analysis, whose files' figures are the stored history.
func HasMetrics(base *plumb.Snapshot) bool { return base != nil && base.Measured }

// HeadFilesDiffer says whether the head's own file figures apply: a
// default-branch analysis other than the base's. For an analysis of another
// branch (whose per-file figures are not kept) the head's files are the
// base's.
func HeadFilesDiffer(head *plumb.Snapshot, sameSnapshot bool) bool {
	return head != nil && head.Measured && !sameSnapshot
}

// FileDelta is a file whose figures differ between the base's and the head's
// analyses: Old is nil for a file the head adds, New nil for one it removes.
// Components are the ids of the components the file belongs to.
type FileDelta struct {
	Old, New   *metric.FileStats
	Components map[string]bool
}

// MetricsInput is what the store loaded for the metric side of a comparison.
type MetricsInput struct {
	Base       metric.Totals         // the base's stored totals
	Components []ComponentComparison // each component with its Base totals
	Matchers   []metric.Matcher      // each component's path globs, by index
	Changes    []FileDelta           // the files whose figures the head changes
	// BaseIssues and HeadIssues are each side's every issue.
	BaseIssues, HeadIssues []plumb.Issue
	// BaseCoverage and HeadCoverage are the project's coverage on each side
	// (the head's with carry-forward); ComponentCoverage each component's
	// by id, base then head.
	BaseCoverage, HeadCoverage metric.Coverage
	ComponentCoverage          [2]map[string]metric.Coverage
}

// Metrics builds both sides' totals: the head's files are the base's with
// the head's changes applied; on both sides the issue figures come from that
// side's issues (the ones the comparison's lists classify, so the issue
// metrics' deltas agree with the lists); coverage is each commit's own.
func Metrics(in MetricsInput) *MetricsComparison {
	m := &MetricsComparison{Base: in.Base, Head: in.Base}
	comps := slices.Clone(in.Components)
	for i := range comps {
		comps[i].Head = comps[i].Base
	}
	apply := func(t *metric.Totals, c FileDelta) {
		if c.Old != nil {
			t.Sub(*c.Old)
		}
		if c.New != nil {
			t.Add(*c.New)
		}
	}
	for _, c := range in.Changes {
		apply(&m.Head, c)
		for i := range comps {
			if c.Components[comps[i].ID] {
				apply(&comps[i].Head, c)
			}
		}
	}
	m.Base = WithIssueFigures(m.Base, IssueFigures(in.BaseIssues, nil))
	m.Head = WithIssueFigures(m.Head, IssueFigures(in.HeadIssues, nil))
	member := make([]func(string) bool, len(comps))
	for i := range comps {
		member[i] = in.Matchers[i].Match
	}
	figs := GroupFigures([][]plumb.Issue{in.BaseIssues, in.HeadIssues}, member)
	for i := range comps {
		comps[i].Base = WithIssueFigures(comps[i].Base, figs[0][i])
		comps[i].Head = WithIssueFigures(comps[i].Head, figs[1][i])
		comps[i].Base.Coverage = in.ComponentCoverage[0][comps[i].ID]
		comps[i].Head.Coverage = in.ComponentCoverage[1][comps[i].ID]
	}
	m.Base.Coverage, m.Head.Coverage = in.BaseCoverage, in.HeadCoverage
	m.Components = comps
	return m
}
