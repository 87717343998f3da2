package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/plumbhq/plumb/analyze"
	"github.com/plumbhq/plumb/analyze/history"
	"github.com/plumbhq/plumb/client"
	"github.com/plumbhq/plumb/client/uploadbody"
	"github.com/plumbhq/plumb/gitrepo"
)

// historyFlags turn plumb analyze into a history backfill (docs/analyze.md,
// "History backfill").
type historyFlags struct {
	History string `name:"history" placeholder:"DURATION" help:"Analyse the branch's past instead of the checkout: one commit per --every period over DURATION back from now (90d, 26w, 6m, 1y), read from git, each uploaded at its commit time; commits the server already has an analysis of are skipped."`
	Since   string `name:"since" placeholder:"DATE" help:"As --history, from DATE (2025-01-01, or RFC 3339) to now."`
	Every   string `name:"every" placeholder:"PERIOD" help:"With --history or --since: day, week (Monday to Sunday) or month, in UTC; the last commit of each is analysed (default: week)."`
}

func (h historyFlags) on() bool { return h.History != "" || h.Since != "" }

// window is the first instant of the history to analyse and the period
// (history.Window); a bad value is a usage error.
func (h historyFlags) window(now time.Time) (time.Time, string, error) {
	start, every, err := history.Window(h.History, h.Since, h.Every, now)
	if err != nil {
		return start, "", usageError{err.Error()}
	}
	return start, every, nil
}

// historyNow is the clock of the history window.
var historyNow = time.Now

// runAnalyzeHistory analyses past commits of a branch from git and uploads
// (or writes, or prints) one analysis per commit, oldest first, skipping
// those already done (history.Run); it checks the flags and prints.
func runAnalyzeHistory(ctx context.Context, e *runEnv, c *analyzeCmd) error {
	now := historyNow().UTC().Truncate(time.Second)
	start, every, err := c.History.window(now)
	if err != nil {
		return err
	}
	for flag, v := range map[string]string{"--commit": c.Commit.Commit, "--tag": c.Commit.Tag, "--pr": c.Commit.PR, "--analyzed-at": c.AnalyzedAt} {
		if v != "" {
			return usageError{fmt.Sprintf("%s does not go with --history or --since: each commit is analysed at its commit time on the branch", flag)}
		}
	}
	if len(c.SARIF) > 0 {
		return usageError{"--sarif does not go with --history or --since: a SARIF file belongs to one commit"}
	}
	if c.Out == "-" {
		return usageError{"with --history or --since, --out names a directory for one file per commit"}
	}
	job := history.Job{Dir: c.Dir, Branch: strings.TrimPrefix(strings.TrimSpace(c.Commit.Branch), "refs/heads/"),
		Start: start, Now: now, Every: every, Exclude: c.Exclude, Out: c.Out}
	if c.Out == "" && c.Format != "table" {
		cl, err := c.Conn.client(e.getenv, e.stderr)
		if err != nil {
			return err
		}
		job.Server = historyServer{cl, c}
	}
	r := &historyReport{e: e, table: c.Format == "table", start: start, every: every}
	plan, analysed, err := history.Run(ctx, job, r)
	if err == nil && len(plan.Commits) == 0 {
		fmt.Fprintf(e.stderr, "no commit of %s\n", r.what(plan))
		return nil
	}
	switch err := err.(type) {
	case nil:
	case *history.NotInRepositoryError:
		return usageError{fmt.Sprintf("%s is not in a git repository: --history reads the history from git (%v)", c.Dir, err)}
	case *history.NoDefaultBranchError:
		return usageError{"could not tell the default branch (no origin/HEAD, and HEAD is detached): pass --branch"}
	case *history.NoBranchError:
		return usageError{fmt.Sprintf("no branch %s in this repository (neither refs/heads/%[1]s nor refs/remotes/origin/%[1]s): git fetch origin %[1]s, or pass --branch", err.Branch)}
	case *history.ConfigError:
		return usageError{fmt.Sprintf("%s at %s: %v", err.Path, short(err.Commit), err.Err)}
	case *history.AnalysisError:
		return usageError{fmt.Sprintf("analysis of %s: %v", short(err.Commit), err.Err)}
	case *history.OutputError:
		return usageError{err.Error()}
	default:
		return err
	}
	summary, verb := e.stdout, "analysed and uploaded"
	switch {
	case c.Out != "":
		verb = "analysed and written to " + c.Out
	case r.table:
		summary, verb = e.stderr, "analysed"
	}
	fmt.Fprintf(summary, "history of %s: %d commits, %d %s, %d already analysed before\n", plan.Branch, len(plan.Commits), analysed, verb, len(plan.Commits)-analysed)
	return nil
}

// historyServer is the project a backfill uploads to (history.Server),
// each request bounded by --timeout.
type historyServer struct {
	cl *client.Project
	c  *analyzeCmd
}

func (s historyServer) Analysed(ctx context.Context, branch string, shas []string) (string, []string, error) {
	ctx, cancel := s.c.Conn.withTimeout(ctx)
	defer cancel()
	answer, err := s.cl.AnalysedCommits(ctx, branch, shas)
	if err != nil {
		return "", nil, callError(err)
	}
	have := make([]string, len(answer.Data))
	for i, k := range answer.Data {
		have[i] = k.CommitSHA
	}
	return answer.DefaultBranch, have, nil
}

func (s historyServer) Upload(ctx context.Context, c gitrepo.Commit, doc analyze.Document) (bool, error) {
	ctx, cancel := s.c.Conn.withTimeout(ctx)
	defer cancel()
	out, err := s.cl.UploadAnalysis(ctx, client.Content{Name: "analysis of " + short(c.SHA), Write: uploadbody.Document(doc, nil)}, s.c.Paths.mapping())
	return out.History, callError(err)
}

// historyReport prints a backfill's progress on stderr and, with --format
// table, one line per commit on stdout (history.Reporter).
type historyReport struct {
	e     *runEnv
	table bool
	start time.Time
	every string
}

func (r *historyReport) what(p history.Plan) string {
	return fmt.Sprintf("%s from %s, the last commit of each %s", p.Branch, r.start.Format(time.DateOnly), r.every)
}

func (r *historyReport) NotDefault(branch, def string) {
	fmt.Fprintf(r.e.stderr, "note: %s is not the project's default branch (%s): its analyses do not enter the metric history\n", branch, def)
}

func (r *historyReport) Shallow(branch string, oldest time.Time) {
	fmt.Fprintf(r.e.stderr, "warning: this clone is shallow: %s's history here starts on %s; git fetch --unshallow for the rest\n", branch, oldest.Format(time.DateOnly))
}

func (r *historyReport) Planned(p history.Plan, done int) {
	fmt.Fprintf(r.e.stderr, "history of %s: %d commits, %d already analysed\n", r.what(p), len(p.Commits), done)
	if r.table {
		fmt.Fprintf(r.e.stdout, "%-10s  %-12s  %6s  %8s  %8s  %10s  %10s  %6s\n", "Date", "Commit", "Files", "Lines", "Code", "Complexity", "Duplicated", "Issues")
	}
}

// head is a commit's line prefix: "[ 3/52] 2025-03-09 0123456789ab".
func (r *historyReport) head(p history.Plan, i int) string {
	width := len(strconv.Itoa(len(p.Commits)))
	return fmt.Sprintf("[%*d/%d] %s %s", width, i+1, len(p.Commits), p.Commits[i].Time.Format(time.DateOnly), short(p.Commits[i].SHA))
}

func (r *historyReport) Skipped(p history.Plan, i int) {
	fmt.Fprintf(r.e.stderr, "%s: already analysed, skipped\n", r.head(p, i))
}

func (r *historyReport) Analysed(p history.Plan, s history.Step) {
	res, c := s.Result, s.Commit
	for _, sk := range res.Skipped {
		fmt.Fprintf(r.e.stderr, "%s: skipped %s: %s\n", r.head(p, s.Index), sk.Path, sk.Reason)
	}
	if r.table {
		lines, code, cx, dup := 0, 0, 0, 0
		for _, f := range res.Files {
			lines, code, cx, dup = lines+f.Lines, code+f.Code, cx+f.Complexity, dup+min(f.DuplicatedLines, f.Lines)
		}
		fmt.Fprintf(r.e.stdout, "%-10s  %-12s  %6d  %8d  %8d  %10d  %10d  %6d\n", c.Time.Format(time.DateOnly), short(c.SHA), len(res.Files), lines, code, cx, dup, len(res.Issues))
	}
	outcome := ""
	if s.Wrote != "" {
		outcome = ", wrote " + s.Wrote
	}
	if s.Uploaded {
		outcome = ", uploaded"
		if !s.InHistory {
			outcome += " (not in the metric history: not the default branch)"
		}
	}
	fmt.Fprintf(r.e.stderr, "%s: %d files (%d read), %d issues%s (%.1fs)\n", r.head(p, s.Index), len(res.Files), s.Read, len(res.Issues), outcome, time.Since(s.Began).Seconds())
}
