package history

import (
	"context"
	"fmt"
	"time"

	"github.com/plumbhq/plumb/analyze"
	"github.com/plumbhq/plumb/gitrepo"
)

// NoBranchError: the repository has neither refs/heads/Branch nor
// refs/remotes/origin/Branch.
type NoBranchError struct{ Branch string }

func (e *NoBranchError) Error() string { return "no branch " + e.Branch + " in this repository" }

// Plan is what a backfill analyses: the last commit of each period of a
// branch's first-parent history within the window, oldest first, and the
// analysis settings of the branch's tip.
type Plan struct {
	Branch  string
	Commits []gitrepo.Commit
	Config  analyze.Config // read only when there are commits to analyse
	// Cut is set when the clone is shallow and its history of the branch
	// starts inside the window, at Oldest: the earlier periods are missing.
	Cut    bool
	Oldest time.Time
}

// Plan picks the commits of branch to analyse from start to now, one per
// period (Pick). A missing branch is a *NoBranchError; a tip whose settings
// do not parse a *ConfigError.
func (r *Repo) Plan(ctx context.Context, branch string, start, now time.Time, every string) (Plan, error) {
	p := Plan{Branch: branch}
	tip := r.Tip(ctx, branch)
	if tip == "" {
		return p, &NoBranchError{Branch: branch}
	}
	all, err := r.FirstParents(ctx, tip)
	if err != nil {
		return p, err
	}
	p.Commits = Pick(all, start, now, every)
	if len(all) > 0 && all[len(all)-1].Time.After(start) && r.Shallow(ctx) {
		p.Cut, p.Oldest = true, all[len(all)-1].Time
	}
	if len(p.Commits) == 0 {
		return p, nil
	}
	p.Config, err = r.Config(tip)
	return p, err
}

// Step is one commit of a backfill, analysed.
type Step struct {
	Index  int // in Plan.Commits
	Commit gitrepo.Commit
	Result *analyze.Result
	Read   int       // the files read from git; the others were unchanged since a commit analysed before
	Began  time.Time // when its analysis began

	// Set by Run: the file the analysis was written to, whether it was
	// uploaded, and whether the server took it into the metric history.
	Wrote               string
	Uploaded, InHistory bool
}

// AnalysisError is the failure of a commit's analysis.
type AnalysisError struct {
	Commit string
	Err    error
}

func (e *AnalysisError) Error() string { return fmt.Sprintf("analysis of %s: %v", e.Commit, e.Err) }
func (e *AnalysisError) Unwrap() error { return e.Err }

// Backfill analyses the plan's commits oldest first with the excludes,
// leaving out those done reports (skipped is told of each, by its index),
// and hands every analysis to each, which uploads or writes it. It stops at
// the first error, its own (an *AnalysisError, or the context's) or each's,
// and returns how many commits each took.
func (r *Repo) Backfill(ctx context.Context, p Plan, exclude []string, done func(sha string) bool, skipped func(i int), each func(Step) error) (analysed int, err error) {
	for i, c := range p.Commits {
		if done(c.SHA) {
			skipped(i)
			continue
		}
		s := Step{Index: i, Commit: c, Began: time.Now()}
		files, err := r.Files(ctx, c.SHA)
		if err != nil {
			return analysed, err
		}
		s.Result, s.Read, err = r.Analyze(ctx, files, &p.Config, exclude)
		if err != nil {
			if ctx.Err() != nil {
				return analysed, ctx.Err()
			}
			return analysed, &AnalysisError{Commit: c.SHA, Err: err}
		}
		if err := each(s); err != nil {
			return analysed, err
		}
		analysed++
	}
	return analysed, nil
}
