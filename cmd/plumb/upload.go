package main

// The CI commands: plumb upload coverage|sarif|analysis and plumb build
// start|status|finish send reports and build states to a running server's
// ingestion endpoints (/ingest/gh/{workspace}/projects/{project}/…).

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/plumbhq/plumb/api/apiv1"
	"github.com/plumbhq/plumb/cienv"
	"github.com/plumbhq/plumb/client"
	"github.com/plumbhq/plumb/client/uploadbody"
	"github.com/plumbhq/plumb/ingest/coverage"
)

// commitFlags name the commit a report or build is about; each defaults to
// what the CI or git says.
type commitFlags struct {
	Commit string `name:"commit" commit:"" placeholder:"SHA" help:"Commit SHA (default: detected)."`
	Branch string `name:"branch" commit:"" placeholder:"BRANCH" help:"Branch (default: detected)."`
	Tag    string `name:"tag" commit:"" placeholder:"TAG" help:"Git tag (default: detected)."`
	PR     string `name:"pr" commit:"" placeholder:"N" help:"Pull request number (default: detected)."`
}

// resolve detects the commit, branch, tag and pull request, lets the flags
// override them (cienv.Override), and checks that there is a commit.
func (o *commitFlags) resolve(getenv func(string) string) (cienv.Info, error) {
	info, err := cienv.Override(cienv.Detect(getenv, ciGitDir), cienv.Given{Commit: o.Commit, Branch: o.Branch, Tag: o.Tag, PR: o.PR})
	if err != nil {
		return info, usageError{err.Error()}
	}
	return info, nil
}

// needBranch is the usage error for a command that needs the branch.
func needBranch(info cienv.Info, what string) error {
	if info.Branch != "" {
		return nil
	}
	return usageError{fmt.Sprintf("could not tell the branch of commit %s, which %s needs: pass --branch", short(info.Commit), what)}
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// onRef describes where a commit is: " on main", " (tag v1.2)".
func onRef(branch, tag string) string {
	var s string
	if branch != "" {
		s = " on " + branch
	}
	if tag != "" {
		s += " (tag " + tag + ")"
	}
	return s
}

func checkAnalyzedAt(s string) error { return checkTimeFlag("--analyzed-at", s) }

// checkTimeFlag checks an optional RFC 3339 date-time flag.
func checkTimeFlag(flag, s string) error {
	if s == "" {
		return nil
	}
	if _, err := time.Parse(time.RFC3339, s); err != nil {
		return usageError{fmt.Sprintf("%s must be an RFC 3339 date-time such as 2026-03-01T12:00:00Z, got %q", flag, s)}
	}
	return nil
}

// startUpload checks an upload's time flag and makes its client; in opens
// the command's files (its Cleanup, deferred whatever the error, removes
// what it copied from stdin).
func startUpload(e *runEnv, o *connFlags, timeFlag, at string) (in *uploadbody.Inputs, cl *client.Project, err error) {
	in = &uploadbody.Inputs{Stdin: e.stdin}
	if err := checkTimeFlag(timeFlag, at); err != nil {
		return in, nil, err
	}
	cl, err = o.client(e.getenv, e.stderr)
	return in, cl, err
}

// Run sends one coverage report.
func (c *uploadCoverageCmd) Run(e *runEnv) error {
	o, getenv, stderr, stdout := &c.Conn, e.getenv, e.stderr, e.stdout
	in, cl, err := startUpload(e, o, "--uploaded-at", c.UploadedAt)
	defer in.Cleanup()
	if err != nil {
		return err
	}
	file, err := in.Open(c.File, "coverage report")
	if err != nil {
		return err
	}
	info, err := c.Commit.resolve(getenv)
	if err != nil {
		return err
	}
	module := c.ModulePath
	if module == "" {
		// Go cover profiles name files by import path: the module path of
		// the go.mod in the working directory makes them repository-relative.
		module = coverage.ModulePathOf("go.mod")
	}
	report, err := file.Content()
	if err != nil {
		return err
	}
	ctx, cancel := o.withTimeout(e.ctx)
	defer cancel()
	res, err := cl.UploadCoverage(ctx, report, client.CoverageOptions{CommitSHA: info.Commit, Branch: info.Branch, Tag: info.Tag,
		CoverageTag: c.CoverageTag, UploadedAt: c.UploadedAt, PullRequestNumber: info.PullRequest, Format: c.Format,
		StripPrefix: c.StripPrefix, AddPrefix: c.AddPrefix, ModulePath: module})
	if err != nil {
		return callError(err)
	}
	pct := ""
	if all := res.CoveredLines + res.MissedLines; all > 0 {
		pct = fmt.Sprintf(" (%.1f%%)", 100*float64(res.CoveredLines)/float64(all))
	}
	fmt.Fprintf(stdout, "uploaded %s: %d files, %d covered / %d missed lines%s, format %s, commit %s%s\n",
		file.Name, res.Files, res.CoveredLines, res.MissedLines, pct, res.Format, short(res.CommitSHA), onRef(res.Branch, res.Tag))
	if c.Source {
		sendReportSources(ctx, e, cl, info.Commit, report, c, module)
	}
	sendChange(ctx, cl, info, c.Change, stderr)
	return nil
}

// describe is the summary line of a SARIF or analysis upload. Only the
// default branch has a current state and a history (history is true for
// every default-branch snapshot): a snapshot of another branch (a pull
// request's, a feature branch's) is neither, whatever came before it.
func describe(s apiv1.Snapshot) string {
	cur := ""
	switch {
	case !s.Current && s.History:
		cur = "; a later analysis of the branch stays current, this one joins the history at its time"
	case !s.Current:
		cur = "; not the default branch: kept for pull requests and comparisons, the project's current state unchanged"
	}
	return fmt.Sprintf("%d issues, commit %s on %s, analysed at %s%s%s%s", s.Issues, short(s.CommitSHA), s.Branch, s.AnalyzedAt, cur,
		toolCounts("; kept from the commit's earlier upload", s.Kept), toolCounts("; replaced", s.Replaced))
}

// toolCounts writes "label: 3 issues of gosec, 1 of staticcheck" (tools in
// name order), or nothing for none.
func toolCounts(label string, m map[string]int) string {
	if len(m) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(label + ": ")
	for i, tool := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b.WriteString(", ")
		}
		unit := "issues"
		if m[tool] == 1 {
			unit = "issue"
		}
		fmt.Fprintf(&b, "%d %s of %s", m[tool], unit, tool)
	}
	return b.String()
}

// pathFlags are the path-mapping flags of SARIF and analysis uploads.
type pathFlags struct {
	StripPrefix string `name:"strip-prefix" placeholder:"PREFIX" help:"Prefix removed from paths."`
	AddPrefix   string `name:"add-prefix" placeholder:"PREFIX" help:"Prefix added to paths."`
	RepoRoot    string `name:"repo-root" placeholder:"DIR" help:"Checkout directory that absolute SARIF paths are relative to."`
}

func (p *pathFlags) mapping() client.PathMapping {
	return client.PathMapping{StripPrefix: p.StripPrefix, AddPrefix: p.AddPrefix, RepoRoot: p.RepoRoot}
}

// Run sends SARIF files, one upload each.
func (c *uploadSARIFCmd) Run(e *runEnv) error {
	getenv, stdout := e.getenv, e.stdout
	in, cl, err := startUpload(e, &c.Conn, "--analyzed-at", c.AnalyzedAt)
	defer in.Cleanup()
	if err != nil {
		return err
	}
	var files []uploadbody.File
	for _, p := range c.Files {
		f, err := in.Open(p, "SARIF file")
		if err != nil {
			return err
		}
		files = append(files, f)
	}
	info, err := c.Commit.resolve(getenv)
	if err != nil {
		return err
	}
	if err := needBranch(info, "a SARIF upload"); err != nil {
		return err
	}
	ctx, cancel := c.Conn.withTimeout(e.ctx)
	defer cancel()
	for _, f := range files {
		sarif, err := f.Content()
		if err != nil {
			return err
		}
		res, err := cl.UploadSARIF(ctx, sarif, client.SARIFOptions{CommitSHA: info.Commit, Branch: info.Branch, AnalyzedAt: c.AnalyzedAt, Paths: c.Paths.mapping()})
		if err != nil {
			return callError(err)
		}
		fmt.Fprintf(stdout, "uploaded %s: %s\n", f.Name, describe(res))
	}
	return nil
}

// Run sends an analysis: the stats file and SARIF files in one
// streamed document.
func (c *uploadAnalysisCmd) Run(e *runEnv) error {
	o, getenv, stderr, stdout := &c.Conn, e.getenv, e.stderr, e.stdout
	in, cl, err := startUpload(e, o, "--analyzed-at", c.AnalyzedAt)
	defer in.Cleanup()
	if err != nil {
		return err
	}
	files, err := in.OpenAnalysis(c.Stats, c.SARIF)
	if err != nil {
		return err
	}
	info, err := c.Commit.resolve(getenv)
	if err != nil {
		return err
	}
	if err := needBranch(info, "an analysis upload"); err != nil {
		return err
	}
	head := uploadbody.Head{CommitSHA: info.Commit, Branch: info.Branch, AnalyzedAt: c.AnalyzedAt, FullTree: c.FullTree}
	ctx, cancel := o.withTimeout(e.ctx)
	defer cancel()
	res, err := cl.UploadAnalysis(ctx, files.Content(head), c.Paths.mapping())
	if err != nil {
		return callError(err)
	}
	fmt.Fprintf(stdout, "uploaded analysis: %d files, %d removed, %d SARIF file(s), %s\n", files.Files, files.Removed, len(files.SARIF), describe(res))
	sendChange(ctx, cl, info, c.Change, stderr)
	return nil
}

// Run creates a build and prints only its id.
func (c *buildStartCmd) Run(e *runEnv) error {
	o, getenv, stderr, stdout := &c.Conn, e.getenv, e.stderr, e.stdout
	body := client.NewBuild{Type: c.Type, Status: c.Status, CommitMessage: c.Message, Source: c.Source, CommitterLogin: c.Committer}
	if body.Status == "" {
		body.Status = "running" // the job that starts the build is running
	}
	cl, err := o.client(getenv, stderr)
	if err != nil {
		return err
	}
	info, err := c.Commit.resolve(getenv)
	if err != nil {
		return err
	}
	if err := needBranch(info, "a build"); err != nil {
		return err
	}
	body.BranchName, body.CommitSHA, body.PullRequestNumber = info.Branch, info.Commit, info.PullRequest
	if body.CommitMessage == "" {
		body.CommitMessage = cienv.CommitMessage(getenv, ciGitDir, info.Commit)
	}
	ctx, cancel := o.withTimeout(e.ctx)
	defer cancel()
	// Creating a build is not idempotent: the client retries it only when
	// it surely did not happen.
	b, err := cl.StartBuild(ctx, body)
	if err != nil {
		return callError(err)
	}
	if b.ID == "" {
		return &exitError{exitGaveUp, "the new build: the server's answer has no build id"}
	}
	fmt.Fprintln(stdout, b.ID)
	return nil
}

var finalStatuses = []string{"succeeded", "failed", "skipped", "rejected"}

// buildStatus reports a build's status; finish (final) takes only the final
// statuses and makes one of --exit-code.
func buildStatus(ctx context.Context, e *runEnv, c *buildStatusCmd, final bool) error {
	o, getenv, stderr, stdout := &c.Conn, e.getenv, e.stderr, e.stdout
	status, reason, exitArg := c.Status, c.Reason, c.ExitCode
	verb, shape := "status", "ID --status running|starting|… [--reason R]"
	if final {
		verb, shape = "finish", "ID --status succeeded|failed|skipped|rejected [--exit-code N] [--reason R]"
	}
	if strings.TrimSpace(c.ID) == "" {
		return usageError{fmt.Sprintf("usage: plumb build %s %s", verb, shape)}
	}
	var body client.BuildStatus
	if exitArg != "" {
		n, err := strconv.Atoi(exitArg)
		if err != nil {
			return usageError{fmt.Sprintf("--exit-code must be an integer, got %q", exitArg)}
		}
		body.ExitCode = &n
	}
	if status == "" && final && body.ExitCode != nil {
		status = "failed"
		if *body.ExitCode == 0 {
			status = "succeeded"
		}
	}
	switch {
	case status == "":
		return usageError{fmt.Sprintf("usage: plumb build %s %s", verb, shape)}
	case final && !slices.Contains(finalStatuses, status):
		return usageError{fmt.Sprintf("build finish takes --status %s, got %q", strings.Join(finalStatuses, ", "), status)}
	}
	body.Status = status
	if reason != "" {
		body.StatusReason = &reason
	}
	cl, err := o.client(getenv, stderr)
	if err != nil {
		return err
	}
	ctx, cancel := o.withTimeout(ctx)
	defer cancel()
	id := strings.TrimSpace(c.ID)
	set := cl.SetBuildStatus
	if final {
		set = cl.FinishBuild // from running: build start --status submitted, or a job that never said it was running
	}
	b, err := set(ctx, id, body)
	if err != nil {
		return callError(err)
	}
	fmt.Fprintf(stdout, "build %s is %s\n", firstOf(b.ID, id), firstOf(b.Status, status))
	return nil
}
