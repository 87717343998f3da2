package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/plumbhq/plumb/analyze/history"
	"github.com/plumbhq/plumb/api/apiv1"
	"github.com/plumbhq/plumb/client"
	"github.com/plumbhq/plumb/client/uploadbody"
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
// those already done.
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
	upload := c.Out == "" && c.Format != "table"
	repo, err := history.Open(ctx, c.Dir)
	if err != nil {
		if _, ok := errors.AsType[*history.NotInRepositoryError](err); ok {
			return usageError{fmt.Sprintf("%s is not in a git repository: --history reads the history from git (%v)", c.Dir, err)}
		}
		return err
	}
	defer repo.Close()

	var cl *client.Project
	branch := strings.TrimPrefix(strings.TrimSpace(c.Commit.Branch), "refs/heads/")
	if upload {
		if cl, err = c.Conn.client(e.getenv, e.stderr); err != nil {
			return err
		}
		var known analysedCommits
		if err := askAnalysed(ctx, c, cl, branch, nil, &known); err != nil {
			return err
		}
		if branch == "" {
			branch = known.DefaultBranch
		} else if branch != known.DefaultBranch {
			fmt.Fprintf(e.stderr, "note: %s is not the project's default branch (%s): its analyses do not enter the metric history\n", branch, known.DefaultBranch)
		}
	} else if branch == "" {
		if branch = repo.DefaultBranch(ctx); branch == "" {
			return usageError{"could not tell the default branch (no origin/HEAD, and HEAD is detached): pass --branch"}
		}
	}
	plan, err := repo.Plan(ctx, branch, start, now, every)
	if _, ok := errors.AsType[*history.NoBranchError](err); ok {
		return usageError{fmt.Sprintf("no branch %s in this repository (neither refs/heads/%[1]s nor refs/remotes/origin/%[1]s): git fetch origin %[1]s, or pass --branch", branch)}
	}
	picks := plan.Commits
	if plan.Cut {
		fmt.Fprintf(e.stderr, "warning: this clone is shallow: %s's history here starts on %s; git fetch --unshallow for the rest\n",
			branch, plan.Oldest.Format(time.DateOnly))
	}
	what := fmt.Sprintf("%s from %s, the last commit of each %s", branch, start.Format(time.DateOnly), every)
	if err == nil && len(picks) == 0 {
		fmt.Fprintf(e.stderr, "no commit of %s\n", what)
		return nil
	}
	if ce, ok := errors.AsType[*history.ConfigError](err); ok {
		return usageError{fmt.Sprintf("%s at %s: %v", ce.Path, short(ce.Commit), ce.Err)}
	} else if err != nil {
		return err
	}

	var known func([]string) ([]string, error)
	if upload {
		known = func(shas []string) ([]string, error) {
			var answer analysedCommits
			if err := askAnalysed(ctx, c, cl, branch, shas, &answer); err != nil {
				return nil, err
			}
			have := make([]string, len(answer.Data))
			for i, k := range answer.Data {
				have[i] = k.CommitSHA
			}
			return have, nil
		}
	}
	if c.Out != "" {
		if err := os.MkdirAll(c.Out, 0o755); err != nil {
			return usageError{fmt.Sprintf("cannot make %s: %v", c.Out, err)}
		}
	}
	done, err := plan.Done(known, c.Out)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "history of %s: %d commits, %d already analysed\n", what, len(picks), len(done))

	table := c.Format == "table"
	if table {
		fmt.Fprintf(e.stdout, "%-10s  %-12s  %6s  %8s  %8s  %10s  %10s  %6s\n", "Date", "Commit", "Files", "Lines", "Code", "Complexity", "Duplicated", "Issues")
	}
	width := len(strconv.Itoa(len(picks)))
	head := func(i int) string {
		return fmt.Sprintf("[%*d/%d] %s %s", width, i+1, len(picks), picks[i].Time.Format(time.DateOnly), short(picks[i].SHA))
	}
	skipped := func(i int) { fmt.Fprintf(e.stderr, "%s: already analysed, skipped\n", head(i)) }
	analysed, err := repo.Backfill(ctx, plan, c.Exclude, func(sha string) bool { return done[sha] }, skipped, func(s history.Step) error {
		p, res := s.Commit, s.Result
		for _, sk := range res.Skipped {
			fmt.Fprintf(e.stderr, "%s: skipped %s: %s\n", head(s.Index), sk.Path, sk.Reason)
		}
		doc := res.Document(p.SHA, branch, p.Time.Format(time.RFC3339))
		outcome := ""
		if table {
			lines, code, cx, dup := 0, 0, 0, 0
			for _, f := range res.Files {
				lines, code, cx, dup = lines+f.Lines, code+f.Code, cx+f.Complexity, dup+min(f.DuplicatedLines, f.Lines)
			}
			fmt.Fprintf(e.stdout, "%-10s  %-12s  %6d  %8d  %8d  %10d  %10d  %6d\n", p.Time.Format(time.DateOnly), short(p.SHA), len(res.Files), lines, code, cx, dup, len(res.Issues))
		}
		if c.Out != "" {
			name := history.File(c.Out, p)
			if err := history.WriteFile(name, func(w io.Writer) error {
				return uploadbody.Document(doc, nil)(w, func(r io.Reader) io.Reader { return r })
			}); err != nil {
				return usageError{fmt.Sprintf("cannot write %s: %v", name, err)}
			}
			outcome = ", wrote " + name
		}
		if upload {
			rctx, cancel := c.Conn.withTimeout(ctx)
			out, err := cl.UploadAnalysis(rctx, client.Content{Name: "analysis of " + short(p.SHA), Write: uploadbody.Document(doc, nil)}, c.Paths.mapping())
			cancel()
			if err != nil {
				return callError(err)
			}
			outcome = ", uploaded"
			if !out.History {
				outcome += " (not in the metric history: not the default branch)"
			}
		}
		fmt.Fprintf(e.stderr, "%s: %d files (%d read), %d issues%s (%.1fs)\n", head(s.Index), len(res.Files), s.Read, len(res.Issues), outcome, time.Since(s.Began).Seconds())
		return nil
	})
	if ae, ok := errors.AsType[*history.AnalysisError](err); ok {
		return usageError{fmt.Sprintf("analysis of %s: %v", short(ae.Commit), ae.Err)}
	} else if err != nil {
		return err
	}
	summary := e.stdout
	if table {
		summary = e.stderr
	}
	verb := "analysed and uploaded"
	switch {
	case c.Out != "":
		verb = "analysed and written to " + c.Out
	case table:
		verb = "analysed"
	}
	fmt.Fprintf(summary, "history of %s: %d commits, %d %s, %d already analysed before\n", branch, len(picks), analysed, verb, len(picks)-analysed)
	return nil
}

// analysedCommits is the answer of GET …/analyses.
type analysedCommits = apiv1.AnalysedCommits

// askAnalysed asks the server which of shas have an analysis on branch (""
// for the default branch).
func askAnalysed(ctx context.Context, c *analyzeCmd, cl *client.Project, branch string, shas []string, out *analysedCommits) error {
	rctx, cancel := c.Conn.withTimeout(ctx)
	defer cancel()
	var err error
	*out, err = cl.AnalysedCommits(rctx, branch, shas)
	return callError(err)
}
