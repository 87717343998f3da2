package compare

import (
	"time"

	"github.com/plumbhq/plumb"

	"github.com/plumbhq/plumb/metric"
)

// Judged is a comparison with what is decided from it: the patch coverage
// (with a change), the issue classes (when both sides have an analysis; else
// NoIssueData says why not) and the gate's outcome. The API's comparison and
// the web's pull-request page both come from Judge.
type Judged struct {
	Data        *Comparison
	Patch       *Patch
	Issues      IssueSets
	NoIssueData string
	Gate        GateResult
}

// HeadPaths are the paths a change leaves at its head (its deleted files
// are not): the paths whose hits a comparison loads.
func (c *Change) HeadPaths() []string {
	if c == nil {
		return nil
	}
	var paths []string
	for _, f := range c.Files {
		if f.Status != "deleted" {
			paths = append(paths, f.Path)
		}
	}
	return paths
}

// CoveragePercent is a side's coverage as a percentage (nil with nothing
// coverable).
func CoveragePercent(c metric.Coverage) *float64 {
	return Coverage{Covered: c.Covered, Coverable: c.Covered + c.Missed}.Percent()
}

// Judge decides a loaded comparison: change may be nil (no patch coverage).
func Judge(data *Comparison, change *Change, g Gate) Judged {
	j := Judged{Data: data, NoIssueData: MissingIssueData(data.BaseSnapshot != nil, data.HeadSnapshot != nil)}
	in := GateInput{BaseCoverage: CoveragePercent(data.Base.Coverage), HeadCoverage: CoveragePercent(data.Head.Coverage), NoIssueData: j.NoIssueData}
	if j.NoIssueData == "" {
		j.Issues = ClassifyIssues(data.BaseIssues, data.HeadIssues)
		// The gate judges every open issue, whatever the filters.
		in.NewIssues = NewOpenIssues(data.BaseIssuesAll, data.HeadIssuesAll)
	}
	if change != nil {
		patch := PatchCoverage(change.Files, func(path string) []int64 { return data.HeadHits[path] })
		j.Patch = &patch
		in.Patch = &patch.Coverage
	}
	j.Gate = g.Evaluate(in)
	return j
}

// PullRequest is what the store knows of a pull request: from the changes
// CI uploads for it (number, branches, head, when), and, once code-host
// webhooks record them, its title, author and state ("" when unknown).
type PullRequest struct {
	Number     int
	Title      string
	Author     string
	State      string // open, closed or merged
	Branch     string // the head branch
	BaseBranch string
	// BaseCommitSHA is the base commit its latest upload named ("" when it
	// named only the base branch).
	BaseCommitSHA string
	HeadSHA       string // the head of its latest upload
	LastUpload    time.Time
	Uploads       int // the changes uploaded for it (one per head commit)
}

// Pull-request states, and the filter value for any of them.
const (
	PullOpen   = "open"
	PullClosed = "closed"
	PullMerged = "merged"
	PullAll    = "all"
)

// PullFilter picks pull requests: by state (one of PullStates, "" all),
// or one by its number (Number > 0), a page of them.
type PullFilter struct {
	State  string
	Number int
	Page   plumb.Page
}

// PullStates are the values of a pull-request list's state filter.
var PullStates = []string{PullOpen, PullClosed, PullMerged, PullAll}

// PullSummary is what the pull-request list shows of a pull request's
// comparison: its gate result and patch coverage for one head, computed
// against BaseSHA. Inputs names what the comparison read (the store's
// PullInputs); the summary holds while the same inputs do.
type PullSummary struct {
	Number  int
	HeadSHA string
	BaseSHA string
	Inputs  string
	Gate    string   // the gate's status
	Patch   Coverage // the changed lines' coverage (Coverable 0: none)
}

// Summary is a judged comparison's PullSummary for pull request number, head
// and base, read with inputs.
func (j *Judged) Summary(number int, base, head, inputs string) PullSummary {
	s := PullSummary{Number: number, HeadSHA: head, BaseSHA: base, Inputs: inputs, Gate: j.Gate.Status}
	if j.Patch != nil {
		s.Patch = j.Patch.Coverage
	}
	return s
}
