package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"text/tabwriter"
)

type gateCmd struct {
	Conn connFlags `embed:""`
	Head string    `name:"head" placeholder:"REF" help:"The head commit or branch (default: the commit detected, as for uploads)."`
	Base string    `name:"base" placeholder:"REF" help:"The base commit or branch (default: the base named by the head's uploaded change)."`
}

func (gateCmd) Help() string {
	return `Evaluates the project's quality gate for the current commit against its base
and prints each condition. Run it after the uploads of a pull request: the
change they sent names the base.

Examples:

    plumb upload coverage cover.out && plumb gate
    plumb gate --head feature/x --base main

Exit status: 0 the gate passed; 1 it failed (or the server refused the
request); 2 usage error; 3 the server could not be reached.`
}

func (c *gateCmd) Run(e *runEnv) error { return runGate(e.ctx, e, c) }

type gateStatus struct {
	Status        string   `json:"status"`
	BaseCommitSHA string   `json:"baseCommitSha"`
	HeadCommitSHA string   `json:"headCommitSha"`
	PatchCoverage *float64 `json:"patchCoverage"`
	CoverageDelta *float64 `json:"coverageDelta"`
	Conditions    []struct {
		Condition string `json:"condition"`
		Status    string `json:"status"`
		Threshold string `json:"threshold"`
		Actual    string `json:"actual"`
	} `json:"conditions"`
}

// runGate asks the server for the gate's outcome and prints it as a table.
func runGate(ctx context.Context, e *runEnv, c *gateCmd) error {
	cl, err := c.Conn.client(e.getenv, e.stderr)
	if err != nil {
		return err
	}
	head := strings.TrimSpace(c.Head)
	q := url.Values{}
	if head == "" {
		info, err := (&commitFlags{}).resolve(e.getenv)
		if err != nil {
			return err
		}
		head = info.Commit
		if info.PullRequest > 0 {
			// the change uploaded for this pull request names the base
			q.Set("pullRequestNumber", strconv.Itoa(info.PullRequest))
		}
	}
	q.Set("head", head)
	setIf(q, "base", strings.TrimSpace(c.Base))
	ctx, cancel := c.Conn.withTimeout(ctx)
	defer cancel()
	var st gateStatus
	if err := cl.do(ctx, &request{method: http.MethodGet, what: "the quality gate", endpoint: "/gate", query: q, retrySafe: true}, &st); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "Quality gate: %s (head %s against base %s)\n\n", strings.ToUpper(st.Status), short(st.HeadCommitSHA), short(st.BaseCommitSHA))
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CONDITION\tTHRESHOLD\tACTUAL\tSTATUS")
	for _, cond := range st.Conditions {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", cond.Condition, cond.Threshold, cond.Actual, strings.ReplaceAll(cond.Status, "_", " "))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if st.Status != "passed" {
		return &exitError{exitRefused, "the quality gate failed"}
	}
	return nil
}
