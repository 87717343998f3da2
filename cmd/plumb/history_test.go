package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// A bad history window is a usage error (history.Window's tests have the
// rules).
func TestHistoryWindowUsage(t *testing.T) {
	now := time.Date(2026, 3, 15, 10, 30, 0, 0, time.UTC)
	for _, bad := range []historyFlags{{History: "1h"}, {History: "1y", Since: "2025-01-01"}, {History: "1y", Every: "year"}} {
		if _, _, err := bad.window(now); exitCode(err) != 2 {
			t.Errorf("%+v: err %v, want a usage error", bad, err)
		}
	}
}

// Flags that name one commit do not go with a history; a history needs git.
func TestAnalyzeHistoryUsage(t *testing.T) {
	withGitDir(t, t.TempDir())
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--history", "1y", "--commit", shaA}, "--commit does not go with --history"},
		{[]string{"--since", "2025-01-01", "--analyzed-at", "2025-01-01T00:00:00Z"}, "--analyzed-at does not go with --history"},
		{[]string{"--history", "1y", "--sarif", "x.sarif"}, "--sarif does not go with --history"},
		{[]string{"--history", "1y", "--out", "-"}, "--out names a directory"},
		{[]string{"--every", "week"}, "--every goes with --history or --since"},
		{[]string{"--history", "1y", "--format", "table", t.TempDir()}, "is not in a git repository"},
		{[]string{"--history", "1 fortnight"}, "--history takes a number of days, weeks, months or years"},
	} {
		var out, errb bytes.Buffer
		err := run(context.Background(), append([]string{"analyze"}, c.args...), envOf(nil), strings.NewReader(""), &out, &errb)
		if exitCode(err) != 2 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want a usage error saying %q", c.args, err, c.want)
		}
	}
}

// A history printed as a table: one line per period's last commit, read
// from git, with the files below the directory given.
func TestAnalyzeHistoryTable(t *testing.T) {
	dir, git := gitRepo(t)
	git("commit", "-q", "--allow-empty", "-m", "second")
	head := git("rev-parse", "HEAD")
	var out, errb bytes.Buffer
	err := run(context.Background(), []string{"analyze", "--history", "1w", "--every", "day", "--format", "table", dir}, envOf(nil), strings.NewReader(""), &out, &errb)
	if err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "Date") || !strings.Contains(lines[1], short(head)) || !strings.Contains(errb.String(), "history of main: 1 commits, 1 analysed") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", out.String(), errb.String())
	}
}
