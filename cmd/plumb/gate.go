package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api/apiv1"
	"github.com/plumbhq/plumb/client"
	"github.com/plumbhq/plumb/compare"
)

type gateCmd struct {
	Conn connFlags `embed:""`
	Head string    `name:"head" placeholder:"REF" help:"The head commit or branch (default: the commit detected, as for uploads)."`
	Base string    `name:"base" placeholder:"REF" help:"The base commit or branch (default: the base named by the head's uploaded change)."`
	// --format gitlab-codequality writes the head's new issues as GitLab's
	// Code Quality report (compare/codequality.go) instead of the table.
	Format string `name:"format" enum:"table,gitlab-codequality" default:"table" help:"table, or gitlab-codequality: the head's new issues as GitLab's Code Quality report (JSON) on standard output (default ${default})."`
}

// Run asks the server for the gate's outcome and prints it as a table.
func (c *gateCmd) Run(e *runEnv) error {
	cl, err := c.Conn.client(e.getenv, e.stderr)
	if err != nil {
		return err
	}
	q := client.GateQuery{Head: strings.TrimSpace(c.Head), Base: strings.TrimSpace(c.Base)}
	if q.Head == "" {
		info, err := (&commitFlags{}).resolve(e.getenv)
		if err != nil {
			return err
		}
		// the change uploaded for this pull request names the base
		q.Head, q.PullRequestNumber = info.Commit, info.PullRequest
	}
	ctx, cancel := c.Conn.withTimeout(e.ctx)
	defer cancel()
	st, err := cl.Gate(ctx, q)
	if err != nil {
		return callError(err)
	}
	if c.Format == "gitlab-codequality" {
		if err := writeCodeQuality(e, st); err != nil {
			return err
		}
	} else if err := printGate(e, st); err != nil {
		return err
	}
	if st.Status != "passed" {
		return &exitError{exitRefused, "the quality gate failed"}
	}
	return nil
}

// writeCodeQuality writes the head's new issues as GitLab's Code Quality
// report; while the issues are not compared (a side has no analysis), an
// empty one, and a note on standard error.
func writeCodeQuality(e *runEnv, st apiv1.GateStatus) error {
	if st.NewIssues == nil {
		fmt.Fprintln(e.stderr, "plumb: the issues are not compared yet (a side has no analysis): the Code Quality report is empty")
	}
	issues := make([]plumb.Issue, len(st.NewIssues))
	for i, is := range st.NewIssues {
		issues[i] = plumb.Issue{Fingerprint: is.Fingerprint, Tool: is.Tool, RuleKey: is.RuleKey, Message: is.Message, Category: is.Category,
			Level: is.Level, Status: is.Status, Path: is.Location.Path, StartLine: is.Location.StartLine, EndLine: is.Location.EndLine}
	}
	return compare.WriteCodeQuality(e.stdout, issues)
}

// printGate prints the gate's outcome as a table.
func printGate(e *runEnv, st apiv1.GateStatus) error {
	fmt.Fprintf(e.stdout, "Quality gate: %s (head %s against base %s)\n\n", strings.ToUpper(st.Status), short(st.HeadCommitSHA), short(st.BaseCommitSHA))
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CONDITION\tTHRESHOLD\tACTUAL\tSTATUS")
	for _, cond := range st.Conditions {
		status := strings.ReplaceAll(cond.Status, "_", " ")
		if cond.Advisory {
			status += " (advisory)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", cond.Condition, cond.Threshold, cond.Actual, status)
	}
	return tw.Flush()
}
