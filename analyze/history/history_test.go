package history

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb/analyze"
	"github.com/plumbhq/plumb/gitrepo"
	"github.com/plumbhq/plumb/internal/testtool"
)

// The last commit of each UTC period, weeks from Monday, within the window,
// oldest first; on equal times the newer in the history wins.
func TestPickCommits(t *testing.T) {
	at := func(s string) time.Time { t, _ := time.Parse(time.RFC3339, s); return t }
	commits := []gitrepo.Commit{ // newest first, as git log lists them
		{SHA: "g", Time: at("2025-03-17T00:00:00Z")}, // Monday: week 3
		{SHA: "f", Time: at("2025-03-16T23:59:59Z")}, // Sunday: week 2
		{SHA: "e", Time: at("2025-03-16T23:59:59Z")}, // same time, older in the history
		{SHA: "d", Time: at("2025-03-10T08:00:00Z")},
		{SHA: "c", Time: at("2025-03-09T10:00:00Z")}, // week 1's last
		{SHA: "b", Time: at("2025-03-03T00:00:00Z")},
		{SHA: "a", Time: at("2025-03-02T23:00:00Z")}, // before the window
	}
	pick := func(every string, start, now time.Time) string {
		var s []string
		for _, c := range Pick(commits, start, now, every) {
			s = append(s, c.SHA)
		}
		return strings.Join(s, ",")
	}
	if got := pick("week", at("2025-03-03T00:00:00Z"), at("2026-01-01T00:00:00Z")); got != "c,f,g" {
		t.Errorf("weekly: %s", got)
	}
	if got := pick("day", at("2025-03-03T00:00:00Z"), at("2026-01-01T00:00:00Z")); got != "b,c,d,f,g" {
		t.Errorf("daily: %s", got)
	}
	if got := pick("month", at("2025-01-01T00:00:00Z"), at("2025-03-16T12:00:00Z")); got != "d" {
		t.Errorf("monthly, until the 16th at noon: %s", got)
	}
}

// A repository's past commits are read from its objects, below the
// checkout's directory, whatever the work tree holds; a file unchanged
// since the commit analysed before is not read again.
func TestRepo(t *testing.T) {
	ctx := context.Background()
	dir, git := testtool.GitRepo(t)
	write := func(name, body string) {
		t.Helper()
		testtool.WriteFiles(t, dir, map[string]string{name: body})
	}
	write("src/main.go", "package main\n\nfunc main() {\n\tif true {\n\t\tprintln()\n\t}\n}\n")
	write("src/util.go", "package main\n\nfunc util() {}\n")
	git("add", ".")
	git("commit", "-q", "-m", "second")
	second := git("rev-parse", "HEAD")
	write("src/util.go", "package main\n\n// util does nothing.\nfunc util() {}\n")
	write("src/"+analyze.ConfigFile, "exclude: [\"\n")
	git("add", ".")
	git("commit", "-q", "-m", "third")
	third := git("rev-parse", "HEAD")
	write("src/main.go", "not committed") // the work tree is not read

	r, err := Open(ctx, filepath.Join(dir, "src"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if b := r.DefaultBranch(ctx); b != "main" {
		t.Errorf("default branch %q", b)
	}
	if tip := r.Tip(ctx, "main"); tip != third {
		t.Errorf("tip %q, want %s", tip, third)
	}
	if tip := r.Tip(ctx, "nope"); tip != "" {
		t.Errorf("tip of a missing branch: %q", tip)
	}
	all, err := r.FirstParents(ctx, third)
	if err != nil || len(all) != 3 || all[0].SHA != third || all[1].SHA != second {
		t.Fatalf("first parents %v, %v", all, err)
	}
	if r.Shallow(ctx) {
		t.Error("a full clone is not shallow")
	}
	if cfg, err := r.Config(second); err != nil || len(cfg.Exclude) != 0 {
		t.Errorf("no config at %s: %+v, %v", second, cfg, err)
	}
	if _, err := r.Config(third); err == nil {
		t.Error("a broken config parses")
	} else if ce, ok := errors.AsType[*ConfigError](err); !ok || ce.Path != "src/"+analyze.ConfigFile || ce.Commit != third {
		t.Errorf("config error %#v", err)
	}

	analyse := func(commit string) (map[string]int, int) {
		t.Helper()
		files, err := r.Files(ctx, commit)
		if err != nil {
			t.Fatal(err)
		}
		res, read, err := r.Analyze(ctx, files, &analyze.Config{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		lines := map[string]int{}
		for _, f := range res.Files {
			lines[f.Path] = f.Lines
		}
		return lines, read
	}
	if lines, read := analyse(second); len(lines) != 2 || lines["main.go"] != 7 || lines["util.go"] != 3 || read != 2 {
		t.Errorf("second: %v, %d read", lines, read)
	}
	if lines, read := analyse(third); lines["main.go"] != 7 || lines["util.go"] != 4 || read != 2 {
		t.Errorf("third: %v, %d read, want util.go and the new config file alone read", lines, read)
	}
	first, _ := analyse(all[2].SHA)
	if len(first) != 0 {
		t.Errorf("the first commit has no file below src/: %v", first)
	}

	_, err = Open(ctx, t.TempDir())
	if _, ok := errors.AsType[*NotInRepositoryError](err); !ok || !strings.Contains(err.Error(), "git") {
		t.Errorf("outside a repository: %v", err)
	}
}
