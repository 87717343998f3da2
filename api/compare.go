package api

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api/apiv1"
	"github.com/plumbhq/plumb/compare"
	"github.com/plumbhq/plumb/metric"
)

// compareFormats: the comparison as JSON or its Markdown summary; one of its
// issue lists (issues=new|fixed|unchanged) as NDJSON or CSV.
var compareFormats = []format{formatJSON, formatNDJSON, formatCSV, formatMarkdown}

// maxListedIssues bounds each issue list in the JSON comparison; the full
// lists are the NDJSON and CSV forms.
const maxListedIssues = 100

func (s *Server) handleCompare(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.project(r.Context(), c)
	if err != nil {
		return err
	}
	base, head, change, err := s.queryComparison(r.Context(), c, p, false)
	if err != nil {
		return err
	}
	return s.serveComparison(w, r, c, p, base, head, change, nil)
}

// queryComparison resolves the head and base query parameters (and, with
// pull, pullRequestNumber).
func (s *Server) queryComparison(ctx context.Context, c *call, p plumb.Project, pull bool) (base, head string, change *compare.Change, err error) {
	headRef := c.query.required("head", 1)
	baseRef, _ := c.query.single("base")
	pr := 0
	if pull {
		if v, ok := c.query.single("pullRequestNumber"); ok {
			if n, err := strconv.Atoi(v); err != nil || n < 1 || strconv.Itoa(n) != v {
				c.query.fail("Query parameter pullRequestNumber must be a positive integer, got %q.", v)
			} else {
				pr = n
			}
		}
	}
	if err := c.query.err(); err != nil {
		return "", "", nil, err
	}
	return s.resolveComparison(ctx, p, headRef, baseRef, pr)
}

// resolveComparison resolves a head and a base reference; without a base,
// the one the head's uploaded change names: its change for pull request pr
// (else its change without one), or with pr 0 its latest.
func (s *Server) resolveComparison(ctx context.Context, p plumb.Project, headRef, baseRef string, pr int) (base, head string, change *compare.Change, err error) {
	head, err = s.store.ResolveCommit(ctx, p.ID, headRef)
	if err != nil {
		return "", "", nil, err
	}
	var ch compare.Change
	var found bool
	if pr > 0 {
		ch, found, err = s.store.FindPullRequestChange(ctx, p.ID, head, pr)
	} else {
		ch, found, err = s.store.FindChange(ctx, p.ID, head)
	}
	if err != nil {
		return "", "", nil, err
	}
	if baseRef == "" {
		if !found || (ch.BaseCommitSHA == "" && ch.BaseBranch == "") {
			return "", "", nil, plumb.Invalid([]string{fmt.Sprintf("Query parameter base is required: no upload for commit %s named its base.", head)})
		}
		baseRef = ch.BaseCommitSHA
		if baseRef == "" {
			baseRef = "refs/heads/" + ch.BaseBranch
		}
	}
	if base, err = s.store.ResolveCommit(ctx, p.ID, baseRef); err != nil {
		return "", "", nil, err
	}
	if found {
		change = &ch
	}
	return base, head, change, nil
}

func (s *Server) handlePullRequest(w http.ResponseWriter, r *http.Request, c *call) error {
	p, err := s.project(r.Context(), c)
	if err != nil {
		return err
	}
	n, err := strconv.Atoi(c.params["pull"])
	if err != nil || n < 1 {
		return plumb.Invalid([]string{fmt.Sprintf("Path parameter pullRequestNumber must be a positive integer, got %q.", c.params["pull"])})
	}
	ch, err := s.store.FindPullRequest(r.Context(), p.ID, n)
	if err != nil {
		return err
	}
	baseRef := ch.BaseCommitSHA
	if baseRef == "" {
		baseRef = "refs/heads/" + ch.BaseBranch
	}
	base, err := s.store.ResolveCommit(r.Context(), p.ID, baseRef)
	if err != nil {
		return err
	}
	pr := &pullRequestView{Number: n, Branch: ch.Branch, BaseBranch: ch.BaseBranch}
	return s.serveComparison(w, r, c, p, base, ch.CommitSHA, &ch, pr)
}

// CompareOptions are a comparison's query parameters.
type CompareOptions struct {
	CoverageTag string
	Issues      plumb.IssueFilter
}

// Compare computes the comparison of two commits of a project (also used by
// the quality gate and the code-host statuses).
func (s *Server) Compare(ctx context.Context, p plumb.Project, base, head string, change *compare.Change, o CompareOptions) (*Comparison, error) {
	if len(o.Issues.Statuses) == 0 {
		o.Issues.Statuses = []string{"open"}
	}
	// A pull request's comparison over every coverage tag is what the web's
	// pull-request list shows: its summary is kept (the issue filters change
	// only the lists, not the gate or the patch coverage).
	var inputs string
	keep := change != nil && change.PullRequestNumber != nil && o.CoverageTag == "" && change.CommitSHA == head
	if keep {
		var err error
		if inputs, err = s.store.PullInputs(ctx, p.ID, *change.PullRequestNumber, base, head); err != nil {
			return nil, err
		}
	}
	data, err := s.store.LoadComparison(ctx, p.ID, base, head, compare.ComparisonOptions{CoverageTag: o.CoverageTag, Paths: change.HeadPaths(), Issues: o.Issues})
	if err != nil {
		return nil, err
	}
	gate, _, err := s.store.Gate(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	j := compare.Judge(data, change, gate)
	if keep {
		if err := s.store.KeepPullSummary(ctx, p.ID, j.Summary(*change.PullRequestNumber, base, head, inputs)); err != nil {
			return nil, err
		}
	}
	return &Comparison{data: data, patch: j.Patch, issues: j.Issues, noIssueData: j.NoIssueData, Gate: j.Gate}, nil
}

// Comparison is a computed comparison.
type Comparison struct {
	data   *compare.Comparison
	patch  *compare.Patch
	issues compare.IssueSets
	// noIssueData says why issues are not compared ("" when they are).
	noIssueData string
	// Gate is the project's quality gate's outcome.
	Gate compare.GateResult
}

func (s *Server) serveComparison(w http.ResponseWriter, r *http.Request, c *call, p plumb.Project, base, head string, change *compare.Change, pr *pullRequestView) error {
	q := c.query
	o := CompareOptions{Issues: plumb.IssueFilter{
		Categories: q.enumList("category", plumb.IssueCategories),
		Levels:     q.enumList("level", plumb.IssueLevels),
		Statuses:   q.enumList("status", plumb.IssueStatuses),
		Tools:      dedupe(q.list("tool")),
	}}
	o.CoverageTag, _ = q.single("coverageTag")
	class := compare.IssueNew
	if v, ok := q.single("issues"); ok {
		switch compare.IssueClass(v) {
		case compare.IssueNew, compare.IssueFixed, compare.IssueUnchanged:
			class = compare.IssueClass(v)
		default:
			q.fail("Query parameter issues must be one of new, fixed, unchanged, got %q.", v)
		}
	}
	if v, ok := q.single("format"); ok {
		switch v {
		case "markdown":
			c.format = formatMarkdown
		case "json":
			c.format = formatJSON
		default:
			q.fail("Query parameter format must be json or markdown, got %q.", v)
		}
	}
	if err := q.err(); err != nil {
		return err
	}
	cmp, err := s.Compare(r.Context(), p, base, head, change, o)
	if err != nil {
		return err
	}
	view := cmp.View(pr)
	switch c.format {
	case formatMarkdown:
		w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		_, err := w.Write([]byte(view.Markdown()))
		return err
	case formatCSV, formatNDJSON:
		if cmp.noIssueData != "" {
			return plumb.Errorf(plumb.ECONFLICT, "The issues of head %s and base %s are not compared: %s. They are once both commits have an analysis (plumb analyze, plumb upload analysis or plumb upload sarif).",
				head, base, cmp.noIssueData)
		}
		rw := newRowWriter(w, c.format)
		for _, is := range cmp.issues.Of(class) {
			if err := rw.write(newIssueView(is)); err != nil {
				return err
			}
		}
		return rw.finish(reflect.TypeOf(issueView{}))
	}
	return writeJSON(w, http.StatusOK, view)
}

type pullRequestView struct {
	Number     int    `json:"number"`
	Branch     string `json:"branch"`
	BaseBranch string `json:"baseBranch"`
}

type coverageFigures struct {
	Covered   int64    `json:"covered"`
	Coverable int64    `json:"coverable"`
	Percent   *float64 `json:"percent"`
}

func figures(c compare.Coverage) coverageFigures {
	return coverageFigures{c.Covered, c.Coverable, c.Percent()}
}

type analysisView struct {
	SnapshotID string `json:"snapshotId"`
	Branch     string `json:"branch"`
	AnalyzedAt string `json:"analyzedAt"`
}

type sideView struct {
	CommitSHA          string          `json:"commitSha"`
	Coverage           coverageFigures `json:"coverage"`
	CoverageTags       []string        `json:"coverageTags"`
	CarriedForwardTags []string        `json:"carriedForwardTags"`
	Analysis           *analysisView   `json:"analysis"`
}

type patchFileView struct {
	Path           string   `json:"path"`
	PreviousPath   *string  `json:"previousPath"`
	Status         string   `json:"status"`
	HasCoverage    bool     `json:"hasCoverage"`
	Covered        int64    `json:"covered"`
	Coverable      int64    `json:"coverable"`
	Percent        *float64 `json:"percent"`
	UncoveredLines [][2]int `json:"uncoveredLines"`
}

type patchView struct {
	ChangedFiles int             `json:"changedFiles"`
	ChangedLines int64           `json:"changedLines"`
	Covered      int64           `json:"covered"`
	Coverable    int64           `json:"coverable"`
	Percent      *float64        `json:"percent"`
	Files        []patchFileView `json:"files"`
}

type issueClassView struct {
	Count int         `json:"count"`
	Data  []issueView `json:"data"`
}

// issuesCompareView: the issue classes, or, with status no_data (a side
// without analysis), null classes and the reason in detail.
type issuesCompareView struct {
	Status    string          `json:"status"`
	Detail    *string         `json:"detail"`
	New       *issueClassView `json:"new"`
	Fixed     *issueClassView `json:"fixed"`
	Unchanged *issueClassView `json:"unchanged"`
}

// Statuses of a comparison's issues.
const (
	issuesCompared = "compared"
	issuesNoData   = compare.ConditionNoData
)

type metricDeltaView struct {
	Key       string           `json:"key"`
	Name      string           `json:"name"`
	ValueType metric.ValueType `json:"valueType"`
	Inverted  bool             `json:"inverted"`
	Base      any              `json:"base"`
	Head      any              `json:"head"`
	Delta     *float64         `json:"delta"`
}

type componentDeltaView struct {
	ID      string            `json:"id"`
	Name    string            `json:"name"`
	Metrics []metricDeltaView `json:"metrics"`
}

type metricsCompareView struct {
	Project    []metricDeltaView    `json:"project"`
	Components []componentDeltaView `json:"components"`
}

// ComparisonView is the JSON form of a comparison.
type ComparisonView struct {
	PullRequest   *pullRequestView    `json:"pullRequest"`
	Base          sideView            `json:"base"`
	Head          sideView            `json:"head"`
	CoverageDelta *float64            `json:"coverageDelta"`
	Patch         *patchView          `json:"patch"`
	Issues        issuesCompareView   `json:"issues"`
	Metrics       *metricsCompareView `json:"metrics"`
	Gate          compare.GateResult  `json:"gate"`
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// metricDeltas lists the metrics of both sides. Without an analysis of the
// head, only its coverage metrics are known: the others are null.
func metricDeltas(base, head metric.Totals, scope metric.Scope, headAnalysed bool) []metricDeltaView {
	bv, hv := metric.Values(base, scope), metric.Values(head, scope)
	out := make([]metricDeltaView, len(bv))
	for i := range bv {
		out[i] = metricDeltaView{Key: bv[i].Key, Name: bv[i].Name, ValueType: bv[i].ValueType, Inverted: bv[i].Inverted, Base: bv[i].Value}
		if headAnalysed || bv[i].Category == metric.CategoryCoverage {
			d := round2(metric.SeriesValue(bv[i].Key, head, scope) - metric.SeriesValue(bv[i].Key, base, scope))
			out[i].Head, out[i].Delta = hv[i].Value, &d
		}
	}
	return out
}

// View gives the comparison its JSON form.
func (cmp *Comparison) View(pr *pullRequestView) ComparisonView {
	d := cmp.data
	side := func(sc compare.SideCoverage, snap *plumb.Snapshot) sideView {
		v := sideView{CommitSHA: sc.Commit, CoverageTags: nonNil(sc.Tags), CarriedForwardTags: nonNil(sc.Carried),
			Coverage: figures(compare.Coverage{Covered: sc.Coverage.Covered, Coverable: sc.Coverage.Covered + sc.Coverage.Missed})}
		if snap != nil {
			v.Analysis = &analysisView{SnapshotID: snap.ID, Branch: snap.Branch, AnalyzedAt: snap.AnalyzedAt.UTC().Format(time.RFC3339)}
		}
		return v
	}
	v := ComparisonView{PullRequest: pr, Base: side(d.Base, d.BaseSnapshot), Head: side(d.Head, d.HeadSnapshot), Gate: cmp.Gate}
	if b, h := v.Base.Coverage.Percent, v.Head.Coverage.Percent; b != nil && h != nil {
		delta := round2(*h - *b)
		v.CoverageDelta = &delta
	}
	if p := cmp.patch; p != nil {
		pv := &patchView{ChangedLines: p.ChangedLines, Covered: p.Coverage.Covered, Coverable: p.Coverage.Coverable,
			Percent: p.Coverage.Percent(), Files: []patchFileView{}, ChangedFiles: len(p.Files)}
		for _, f := range p.Files {
			fv := patchFileView{Path: f.Path, Status: f.Status, HasCoverage: f.HasCoverage, Covered: f.Coverage.Covered,
				Coverable: f.Coverage.Coverable, Percent: f.Coverage.Percent(), UncoveredLines: [][2]int{}}
			if f.PreviousPath != "" {
				prev := f.PreviousPath
				fv.PreviousPath = &prev
			}
			for _, r := range f.Uncovered {
				fv.UncoveredLines = append(fv.UncoveredLines, [2]int{r.Start, r.End})
			}
			pv.Files = append(pv.Files, fv)
		}
		v.Patch = pv
	}
	list := func(is []plumb.Issue, withData bool) *issueClassView {
		cv := &issueClassView{Count: len(is), Data: []issueView{}}
		if withData {
			for i, x := range is {
				if i == maxListedIssues {
					break
				}
				cv.Data = append(cv.Data, newIssueView(x))
			}
		}
		return cv
	}
	if cmp.noIssueData != "" {
		detail := cmp.noIssueData
		v.Issues = issuesCompareView{Status: issuesNoData, Detail: &detail}
	} else {
		v.Issues = issuesCompareView{Status: issuesCompared, New: list(cmp.issues.New, true), Fixed: list(cmp.issues.Fixed, true), Unchanged: list(cmp.issues.Unchanged, false)}
	}
	if m := d.Metrics; m != nil {
		analysed := d.HeadSnapshot != nil
		mv := &metricsCompareView{Project: metricDeltas(m.Base, m.Head, metric.ScopeProject, analysed), Components: []componentDeltaView{}}
		for _, c := range m.Components {
			mv.Components = append(mv.Components, componentDeltaView{ID: c.ID, Name: c.Name, Metrics: metricDeltas(c.Base, c.Head, metric.ScopeComponent, analysed)})
		}
		v.Metrics = mv
	}
	return v
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Markdown renders the comparison's summary for a pull request comment.
func (v ComparisonView) Markdown() string {
	var b strings.Builder
	pct := func(p *float64) string {
		if p == nil {
			return "–"
		}
		return strconv.FormatFloat(*p, 'f', 2, 64) + "%"
	}
	short := func(sha string) string { return sha[:min(7, len(sha))] }
	if v.PullRequest != nil {
		fmt.Fprintf(&b, "## Plumb: pull request #%d\n\n", v.PullRequest.Number)
	} else {
		b.WriteString("## Plumb: comparison\n\n")
	}
	gate := "**" + v.Gate.Status + "**"
	if _, advisory := v.Gate.Failed(); advisory > 0 {
		gate += fmt.Sprintf(" (%d advisory failed)", advisory)
	}
	fmt.Fprintf(&b, "Head `%s` against base `%s`. Quality gate: %s.\n\n", short(v.Head.CommitSHA), short(v.Base.CommitSHA), gate)
	b.WriteString("| | Base | Head | Change |\n|---|---:|---:|---:|\n")
	delta := "–"
	if v.CoverageDelta != nil {
		delta = fmt.Sprintf("%+.2f", *v.CoverageDelta)
	}
	fmt.Fprintf(&b, "| Total coverage | %s | %s | %s |\n", pct(v.Base.Coverage.Percent), pct(v.Head.Coverage.Percent), delta)
	if v.Patch != nil {
		fmt.Fprintf(&b, "| Patch coverage | | %s | %d of %d changed lines covered |\n", pct(v.Patch.Percent), v.Patch.Covered, v.Patch.Coverable)
	}
	if v.Issues.Status == issuesNoData {
		fmt.Fprintf(&b, "| Issues | | | no data: %s (compared once both commits have an analysis) |\n", *v.Issues.Detail)
	} else {
		fmt.Fprintf(&b, "| Issues | | | %d new, %d fixed, %d unchanged |\n", v.Issues.New.Count, v.Issues.Fixed.Count, v.Issues.Unchanged.Count)
	}
	if len(v.Gate.Conditions) > 0 {
		b.WriteString("\n| Condition | Threshold | Actual | |\n|---|---|---|---|\n")
		for _, c := range v.Gate.Conditions {
			status := c.Status
			if c.Advisory {
				status += " (advisory)"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", c.Condition, c.Threshold, c.Actual, status)
		}
	}
	if len(v.Head.CarriedForwardTags) > 0 {
		fmt.Fprintf(&b, "\nCoverage carried forward from the base for: %s.\n", strings.Join(v.Head.CarriedForwardTags, ", "))
	}
	if v.Patch != nil {
		var missing []patchFileView
		for _, f := range v.Patch.Files {
			if len(f.UncoveredLines) > 0 {
				missing = append(missing, f)
			}
		}
		if len(missing) > 0 {
			b.WriteString("\n### Changed lines not covered\n\n| File | Patch coverage | Lines |\n|---|---:|---|\n")
			for i, f := range missing {
				if i == 50 {
					fmt.Fprintf(&b, "| … %d more files | | |\n", len(missing)-50)
					break
				}
				var rs []string
				for _, r := range f.UncoveredLines {
					if r[0] == r[1] {
						rs = append(rs, strconv.Itoa(r[0]))
					} else {
						rs = append(rs, fmt.Sprintf("%d-%d", r[0], r[1]))
					}
				}
				fmt.Fprintf(&b, "| `%s` | %s | %s |\n", mdEscape(f.Path), pct(f.Percent), strings.Join(rs, ", "))
			}
		}
	}
	if v.Issues.New != nil && len(v.Issues.New.Data) > 0 {
		b.WriteString("\n### New issues\n\n| Level | Rule | Location | Message |\n|---|---|---|---|\n")
		for _, is := range v.Issues.New.Data {
			loc := is.Location.Path
			if is.Location.StartLine != nil {
				loc += ":" + strconv.Itoa(*is.Location.StartLine)
			}
			fmt.Fprintf(&b, "| %s | %s | `%s` | %s |\n", is.Level, mdEscape(is.RuleKey), mdEscape(loc), mdEscape(is.Message))
		}
		if v.Issues.New.Count > len(v.Issues.New.Data) {
			fmt.Fprintf(&b, "\n… and %d more.\n", v.Issues.New.Count-len(v.Issues.New.Data))
		}
	}
	return b.String()
}

// mdEscape keeps a value inside one Markdown table cell.
func mdEscape(s string) string {
	r := strings.NewReplacer("|", "\\|", "\n", " ", "\r", " ", "`", "'", "<", "&lt;", ">", "&gt;")
	return r.Replace(s)
}

// handleUploadChange records what a head commit changes against its base
// (sent by `plumb upload` and `plumb analyze` in a pull request).
func (s *Server) handleUploadChange(w http.ResponseWriter, r *http.Request, c *call) error {
	p, f, err := s.ingestFields(w, r, c)
	if err != nil {
		return err
	}
	var ch compare.Change
	ch.CommitSHA, _ = f.str("commitSha", true, 7, 64)
	ch.Branch, _ = f.str("branch", false, 0, 500)
	ch.BaseCommitSHA, _ = f.str("baseCommitSha", false, 7, 64)
	ch.BaseBranch, _ = f.str("baseBranch", false, 0, 500)
	ch.CommitSHA, ch.BaseCommitSHA = strings.ToLower(ch.CommitSHA), strings.ToLower(ch.BaseCommitSHA)
	for name, v := range map[string]string{"commitSha": ch.CommitSHA, "baseCommitSha": ch.BaseCommitSHA} {
		if v != "" && strings.Trim(v, "0123456789abcdef") != "" {
			f.fail("Field %s must be a hexadecimal commit SHA.", name)
		}
	}
	if ch.BaseCommitSHA == "" && ch.BaseBranch == "" {
		f.fail("Field baseCommitSha or baseBranch is required.")
	}
	if raw, ok := f.obj["pullRequestNumber"]; ok && string(raw) != "null" {
		var n int
		if err := json.Unmarshal(raw, &n); err != nil || n < 1 {
			f.fail("Field pullRequestNumber must be a positive integer.")
		} else {
			ch.PullRequestNumber = &n
		}
	}
	raw, ok := f.obj["files"]
	if !ok || string(raw) == "null" {
		f.fail("Field files is required (an empty array for a change without files).")
	} else {
		var files []struct {
			Path         string   `json:"path"`
			PreviousPath string   `json:"previousPath"`
			Status       string   `json:"status"`
			AddedLines   [][2]int `json:"addedLines"`
		}
		if err := json.Unmarshal(raw, &files); err != nil {
			f.fail("Field files must be an array of {path, previousPath, status, addedLines: [[start, end], …]}: %v.", err)
		}
		for _, x := range files {
			fc := compare.FileChange{Path: x.Path, PreviousPath: x.PreviousPath, Status: x.Status}
			for _, r := range x.AddedLines {
				fc.AddedLines = append(fc.AddedLines, compare.LineRange{Start: r[0], End: r[1]})
			}
			ch.Files = append(ch.Files, fc)
		}
		for _, problem := range ch.Validate() {
			f.fail("Field %s", problem)
		}
	}
	if err := f.err(); err != nil {
		return err
	}
	if err := s.store.PutChange(r.Context(), p.ID, ch, s.now()); err != nil {
		return err
	}
	pr := 0
	if ch.PullRequestNumber != nil {
		pr = *ch.PullRequestNumber
	}
	s.notifyCodeHost(r, p, ch.CommitSHA, pr)
	lines := 0
	for _, fc := range ch.Files {
		for _, r := range fc.AddedLines {
			lines += r.End - r.Start + 1
		}
	}
	return writeJSON(w, http.StatusCreated, apiv1.ChangeReceived{CommitSHA: ch.CommitSHA, Files: len(ch.Files), ChangedLines: lines})
}
