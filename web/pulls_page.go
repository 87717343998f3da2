package web

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/compare"
	"github.com/plumbhq/plumb/metric"
)

// One pull request's page: the gate with each condition, total and patch
// coverage, the metric deltas, the new and fixed issues, the annotated diff
// (pulls_diff.go) and what fed the comparison (uploads and builds).

// maxPullBuilds is how many of the project's latest builds are searched
// for the pull request's.
const maxPullBuilds = 200

type pullData struct {
	*scope
	PR       compare.PullRequest
	Head     string
	Base     string
	NoBase   string
	Gate     *compare.GateResult
	BasePct  string
	HeadPct  string
	Delta    string
	Patch    string // patch coverage, "" when nothing changed is coverable
	PatchOf  string // "n of m changed lines covered"
	Metrics  []metricDelta
	NoIssues string // why issues are not compared
	New      []issueLink
	Fixed    []issueLink
	Files    []diffFile
	Builds   []plumb.Build
	Tags     []string // the head's coverage tags
	Carried  []string // tags carried forward from the base
	Analysis *plumb.Snapshot
}

type metricDelta struct {
	Name, Base, Head, Delta string
	Better, Worse           bool
}

type issueLink struct {
	plumb.Issue
	URL string // the issue's line on its file page ("" without a place)
}

func (s *Server) handlePull(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	sc, err := s.projectOf(r, v, "")
	if err != nil {
		return "", err
	}
	n, err := strconv.Atoi(r.PathValue("pull"))
	if err != nil || n < 1 || strconv.Itoa(n) != r.PathValue("pull") {
		return "", plumb.Errorf(plumb.ENOTFOUND, "No pull request %q.", r.PathValue("pull"))
	}
	ctx := r.Context()
	prs, err := s.store.PullRequests(ctx, sc.Project.ID, compare.PullFilter{Number: n})
	if err != nil {
		return "", err
	}
	if len(prs) == 0 {
		return "", plumb.Errorf(plumb.ENOTFOUND, "Pull request #%d has no upload in this project.", n)
	}
	pc, err := s.pullComparison(ctx, sc.Project.ID, n)
	if err != nil {
		return "", err
	}
	d := pullData{scope: sc, PR: prs[0], Head: pc.Change.CommitSHA, Base: pc.Base, NoBase: pc.NoBase}
	v.Crumbs = append(v.Crumbs, crumb{"Pull requests", sc.URL + "/pulls"}, crumb{"#" + strconv.Itoa(n), ""})
	v.Title = "#" + strconv.Itoa(n) + " · " + sc.WS.Key + "/" + sc.Project.Key
	err = s.store.EachBuild(ctx, sc.Project.ID, plumb.BuildFilter{Page: plumb.Page{Limit: maxPullBuilds}}, func(b plumb.Build) error {
		if b.CommitSHA == d.Head || (b.PullRequestNumber != nil && *b.PullRequestNumber == n) {
			d.Builds = append(d.Builds, b)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	if j := pc.J; j != nil {
		d.fill(j)
		var newIssues []plumb.Issue
		if j.NoIssueData == "" {
			newIssues = j.Issues.New
		}
		if d.Files, err = s.diffFiles(r, sc, d.Head, pc.Change.Files, j, newIssues); err != nil {
			return "", err
		}
		slices.SortStableFunc(d.Files, func(a, b diffFile) int {
			if a.Missed != b.Missed {
				return int(b.Missed - a.Missed)
			}
			if a.Path < b.Path {
				return -1
			}
			return 1
		})
	}
	v.Data = &d
	return "pull", nil
}

// fill sets the figures of a judged comparison.
func (d *pullData) fill(j *compare.Judged) {
	data := j.Data
	d.Gate = &j.Gate
	d.Tags, d.Carried, d.Analysis = data.Head.Tags, data.Head.Carried, data.HeadSnapshot
	pct := func(c metric.Coverage) string {
		if c.Covered+c.Missed == 0 {
			return ""
		}
		return percent(c.Covered, c.Covered+c.Missed)
	}
	d.BasePct, d.HeadPct = pct(data.Base.Coverage), pct(data.Head.Coverage)
	if b, h := compare.CoveragePercent(data.Base.Coverage), compare.CoveragePercent(data.Head.Coverage); b != nil && h != nil {
		d.Delta = strconv.FormatFloat(*h-*b, 'f', 2, 64)
		if *h >= *b {
			d.Delta = "+" + d.Delta
		}
	}
	if p := j.Patch; p != nil && p.Coverage.Coverable > 0 {
		d.Patch = percent(p.Coverage.Covered, p.Coverage.Coverable)
		d.PatchOf = strconv.FormatInt(p.Coverage.Covered, 10) + " of " + strconv.FormatInt(p.Coverage.Coverable, 10) + " coverable changed lines covered"
	}
	if m := data.Metrics; m != nil {
		base, head := cards(m.Base, metric.ScopeProject, nil), cards(m.Head, metric.ScopeProject, nil)
		for i, bc := range base {
			md := metricDelta{Name: bc.Name, Base: bc.Display, Head: "–", Delta: "–"}
			if data.HeadSnapshot != nil || bc.Category == metric.CategoryCoverage {
				md.Head = head[i].Display
				delta := metric.SeriesValue(bc.Key, m.Head, metric.ScopeProject) - metric.SeriesValue(bc.Key, m.Base, metric.ScopeProject)
				if delta != 0 {
					md.Delta = strconv.FormatFloat(delta, 'f', -1, 64)
					if delta > 0 {
						md.Delta = "+" + md.Delta
					}
					def, _ := metric.Lookup(bc.Key, metric.ScopeProject)
					md.Better = (delta > 0) != def.Inverted
					md.Worse = !md.Better
				} else {
					md.Delta = "0"
				}
			}
			d.Metrics = append(d.Metrics, md)
		}
	}
	d.NoIssues = j.NoIssueData
	link := func(is []plumb.Issue, ref string) []issueLink {
		out := make([]issueLink, 0, len(is))
		for _, x := range is {
			il := issueLink{Issue: x}
			if x.Path != "" {
				line := 0
				if x.StartLine != nil {
					line = *x.StartLine
				}
				il.URL = fileURL(d.URL, x.Path, ref, line)
			}
			out = append(out, il)
		}
		return out
	}
	if j.NoIssueData == "" {
		d.New, d.Fixed = link(j.Issues.New, d.Head), link(j.Issues.Fixed, d.Base)
	}
}
