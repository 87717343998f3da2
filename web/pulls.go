package web

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/compare"
)

// The pull-request pages: the list of a project's pull requests (what the
// uploads for them say, with each one's gate result and patch coverage),
// and one pull request's comparison with its annotated diff
// (pulls_diff.go). The comparison is the API's (GET …/pulls/{n}): the same
// store reads, decided by compare.Judge.

const pullsPerPage = 25

// pullsInParallel is how many of the list's comparisons run at once.
const pullsInParallel = 4

// pullRow is a pull request as the list shows it.
type pullRow struct {
	compare.PullRequest
	URL   string
	Gate  string // the gate's status, "" when there is nothing to compare
	Patch string // patch coverage, "" when unknown
}

type pullsData struct {
	*scope
	Pulls      []pullRow
	State      string
	States     []stateLink
	Offset     int
	Prev, Next string
}

type stateLink struct {
	Name, URL string
	Current   bool
}

func (s *Server) handlePulls(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	sc, err := s.projectOf(r, v, "Pull requests")
	if err != nil {
		return "", err
	}
	q := r.URL.Query()
	d := pullsData{scope: sc, State: q.Get("state")}
	if d.State == "" {
		d.State = compare.PullOpen
	}
	if !plumb.Contains(compare.PullStates, d.State) {
		return "", plumb.Errorf(plumb.EINVALID, "Query parameter state has the unknown value %q; it takes one of %s.", d.State, strings.Join(compare.PullStates, ", "))
	}
	if d.Offset, err = pageOffset(q); err != nil {
		return "", err
	}
	page := func(state string, offset int) string {
		nq := url.Values{"state": {state}}
		if offset > 0 {
			nq.Set("offset", strconv.Itoa(offset))
		}
		return sc.URL + "/pulls?" + nq.Encode()
	}
	for _, st := range compare.PullStates {
		d.States = append(d.States, stateLink{Name: st, URL: page(st, 0), Current: st == d.State})
	}
	ctx := r.Context()
	prs, err := s.store.PullRequests(ctx, sc.Project.ID, compare.PullFilter{State: d.State, Page: plumb.Page{Offset: d.Offset, Limit: pullsPerPage + 1}})
	if err != nil {
		return "", err
	}
	prs, d.Prev, d.Next = onePage(prs, d.Offset, pullsPerPage, func(offset int) string { return page(d.State, offset) })
	d.Pulls = make([]pullRow, len(prs))
	errs := make([]error, len(prs))
	// Each row's figures are the ones kept for its inputs; the rows whose
	// figures are missing or stale are compared now (and kept), a few at a
	// time.
	var wg sync.WaitGroup
	sem := make(chan struct{}, pullsInParallel)
	for i, pr := range prs {
		d.Pulls[i] = pullRow{PullRequest: pr, URL: sc.URL + "/pulls/" + strconv.Itoa(pr.Number)}
		wg.Add(1)
		sem <- struct{}{}
		go func(row *pullRow) {
			defer func() { <-sem; wg.Done() }()
			errs[i] = s.pullRowSummary(ctx, sc.Project.ID, row)
		}(&d.Pulls[i])
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return "", err
	}
	v.Data = d
	return "pulls", nil
}

// pullRowSummary fills a list row's gate result and patch coverage: the
// summary kept for the comparison's current inputs, else the comparison made
// now (which keeps its summary). A row whose base has no data has neither.
func (s *Server) pullRowSummary(ctx context.Context, projectID string, row *pullRow) error {
	base, err := s.store.ResolveCommit(ctx, projectID, baseRef(row.BaseCommitSHA, row.BaseBranch))
	if plumb.ErrorCode(err) == plumb.ENOTFOUND {
		return nil
	} else if err != nil {
		return err
	}
	sum, _, found, err := s.store.CurrentPullSummary(ctx, projectID, row.Number, base, row.HeadSHA)
	if err != nil {
		return err
	}
	if !found {
		pc, err := s.pullComparison(ctx, projectID, row.Number)
		if err != nil || pc.J == nil {
			return err
		}
		sum = pc.Summary
	}
	row.Gate = sum.Gate
	if sum.Patch.Coverable > 0 {
		row.Patch = percent(sum.Patch.Covered, sum.Patch.Coverable)
	}
	return nil
}

// baseRef is the reference of a pull request's base: the commit its upload
// named, else its base branch's head.
func baseRef(commit, branch string) string {
	if commit != "" {
		return commit
	}
	return "refs/heads/" + branch
}

// pullComparison is a pull request's latest change and its comparison
// against its base.
type pullComparison struct {
	Change compare.Change
	Base   string
	// NoBase says why there is no comparison (J nil): the base names no
	// commit Plumb has data of.
	NoBase string
	J      *compare.Judged
	// Summary is J's, as kept for the list.
	Summary compare.PullSummary
}

// pullComparison compares a pull request's latest upload with its base, as
// the API's GET …/pulls/{n} does (open issues, every coverage tag).
func (s *Server) pullComparison(ctx context.Context, projectID string, n int) (*pullComparison, error) {
	ch, err := s.store.FindPullRequest(ctx, projectID, n)
	if err != nil {
		return nil, err
	}
	pc := &pullComparison{Change: ch}
	ref := baseRef(ch.BaseCommitSHA, ch.BaseBranch)
	if pc.Base, err = s.store.ResolveCommit(ctx, projectID, ref); err != nil {
		if plumb.ErrorCode(err) != plumb.ENOTFOUND {
			return nil, err
		}
		pc.NoBase = "The base " + strings.TrimPrefix(ref, "refs/heads/") + " has no coverage or analysis in Plumb yet, so there is nothing to compare the head with: upload the base branch's coverage or analysis."
		return pc, nil
	}
	// The inputs are read first: what lands during the comparison makes the
	// kept summary stale, never wrong.
	inputs, err := s.store.PullInputs(ctx, projectID, n, pc.Base, ch.CommitSHA)
	if err != nil {
		return nil, err
	}
	data, err := s.store.LoadComparison(ctx, projectID, pc.Base, ch.CommitSHA,
		compare.ComparisonOptions{Paths: ch.HeadPaths(), Issues: plumb.IssueFilter{Statuses: []string{"open"}}})
	if err != nil {
		return nil, err
	}
	gate, _, err := s.store.Gate(ctx, projectID)
	if err != nil {
		return nil, err
	}
	j := compare.Judge(data, &ch, gate)
	pc.J = &j
	pc.Summary = j.Summary(n, pc.Base, ch.CommitSHA, inputs)
	return pc, s.store.KeepPullSummary(ctx, projectID, pc.Summary)
}
