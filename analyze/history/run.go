package history

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/plumbhq/plumb/analyze"
	"github.com/plumbhq/plumb/gitrepo"
)

// Server is the Plumb project a backfill uploads to.
type Server interface {
	// Analysed answers the project's default branch and which of shas (at
	// most MaxAsk; none to learn only the default branch) have an analysis
	// on branch ("" for the default branch).
	Analysed(ctx context.Context, branch string, shas []string) (defaultBranch string, have []string, err error)
	// Upload sends the analysis of c and says whether it entered the
	// metric history (only the default branch's analyses do).
	Upload(ctx context.Context, c gitrepo.Commit, doc analyze.Document) (inHistory bool, err error)
}

// Reporter is told how a backfill goes, in this order: NotDefault (when
// the branch is not the server's default branch), Shallow (when the
// clone's history starts inside the window), Planned, then Skipped or
// Analysed for each planned commit, oldest first.
type Reporter interface {
	NotDefault(branch, defaultBranch string)
	Shallow(branch string, oldest time.Time)
	Planned(p Plan, done int) // not called when the window holds no commit
	Skipped(p Plan, i int)    // commit i was analysed before
	Analysed(p Plan, s Step)
}

// Job is a backfill of one branch, for Run.
type Job struct {
	Dir        string // the checkout (or a directory of it) whose repository is read
	Branch     string // "": the server's default branch, or without a server the repository's
	Start, Now time.Time
	Every      string // day, week or month (Window)
	Exclude    []string
	Out        string // a directory to write each analysis into (File), or ""
	Server     Server // nil: nothing asked or uploaded
}

// NoDefaultBranchError: without a server or --branch, the repository does
// not say its default branch (no origin/HEAD, and HEAD is detached).
type NoDefaultBranchError struct{}

func (*NoDefaultBranchError) Error() string { return "could not tell the default branch" }

// OutputError is the failure to make the output directory or to write a
// commit's file in it.
type OutputError struct {
	Op, Path string // Op is "make" or "write"
	Err      error
}

func (e *OutputError) Error() string { return fmt.Sprintf("cannot %s %s: %v", e.Op, e.Path, e.Err) }
func (e *OutputError) Unwrap() error { return e.Err }

// Run backfills j.Branch: it plans the commits (Repo.Plan), leaves out
// those the server or j.Out has already (Plan.Done), and analyses the others
// oldest first (Repo.Backfill), writing each into j.Out and uploading it to
// j.Server. It returns the plan and how many commits it analysed; the
// errors of Server pass through unchanged. Errors: *NotInRepositoryError,
// *NoDefaultBranchError, *NoBranchError, *ConfigError, *AnalysisError,
// *OutputError.
func Run(ctx context.Context, j Job, r Reporter) (Plan, int, error) {
	repo, err := Open(ctx, j.Dir)
	if err != nil {
		return Plan{}, 0, err
	}
	defer repo.Close()
	branch := j.Branch
	if j.Server != nil {
		def, _, err := j.Server.Analysed(ctx, branch, nil)
		if err != nil {
			return Plan{}, 0, err
		}
		if branch == "" {
			branch = def
		} else if branch != def {
			r.NotDefault(branch, def)
		}
	} else if branch == "" {
		if branch = repo.DefaultBranch(ctx); branch == "" {
			return Plan{}, 0, &NoDefaultBranchError{}
		}
	}
	plan, err := repo.Plan(ctx, branch, j.Start, j.Now, j.Every)
	if _, ok := errors.AsType[*NoBranchError](err); ok {
		return plan, 0, err
	}
	if plan.Cut {
		r.Shallow(branch, plan.Oldest)
	}
	if err != nil || len(plan.Commits) == 0 {
		return plan, 0, err
	}

	var known func([]string) ([]string, error)
	if j.Server != nil {
		known = func(shas []string) ([]string, error) {
			_, have, err := j.Server.Analysed(ctx, branch, shas)
			return have, err
		}
	}
	if j.Out != "" {
		if err := os.MkdirAll(j.Out, 0o755); err != nil {
			return plan, 0, &OutputError{"make", j.Out, err}
		}
	}
	done, err := plan.Done(known, j.Out)
	if err != nil {
		return plan, 0, err
	}
	r.Planned(plan, len(done))
	skipped := func(i int) { r.Skipped(plan, i) }
	analysed, err := repo.Backfill(ctx, plan, j.Exclude, func(sha string) bool { return done[sha] }, skipped, func(s Step) error {
		doc := s.Result.Document(s.Commit.SHA, branch, s.Commit.Time.Format(time.RFC3339))
		if j.Out != "" {
			s.Wrote = File(j.Out, s.Commit)
			err := WriteFile(s.Wrote, func(w io.Writer) error {
				b, err := json.Marshal(doc)
				if err == nil {
					_, err = w.Write(b)
				}
				return err
			})
			if err != nil {
				return &OutputError{"write", s.Wrote, err}
			}
		}
		if j.Server != nil {
			var err error
			if s.InHistory, err = j.Server.Upload(ctx, s.Commit, doc); err != nil {
				return err
			}
			s.Uploaded = true
		}
		r.Analysed(plan, s)
		return nil
	})
	return plan, analysed, err
}
