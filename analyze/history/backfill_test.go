package history

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/plumbhq/plumb/internal/testtool"
)

// A backfill plans the last commit of each period, analyses them oldest
// first, leaves out those done and stops at its caller's first error.
func TestBackfill(t *testing.T) {
	ctx := context.Background()
	t.Setenv("GIT_COMMITTER_DATE", "2025-03-03T10:00:00Z")
	dir, git := testtool.GitRepo(t)
	commit := func(at, name, body string) string {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Setenv("GIT_COMMITTER_DATE", at)
		git("add", ".")
		git("commit", "-q", "-m", name)
		return git("rev-parse", "HEAD")
	}
	first := git("rev-parse", "HEAD")
	commit("2025-03-04T09:00:00Z", "b.go", "package b\n")
	second := commit("2025-03-04T18:00:00Z", "b.go", "package b\n\nfunc B() {}\n") // the day's last
	third := commit("2025-03-10T08:00:00Z", "c.go", "package b\n\nfunc C() {}\n")

	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	at := func(s string) time.Time { t, _ := time.Parse(time.RFC3339, s); return t }
	if _, err := r.Plan(ctx, "nope", at("2025-03-01T00:00:00Z"), at("2025-04-01T00:00:00Z"), "day"); !errors.As(err, new(*NoBranchError)) {
		t.Fatalf("a missing branch: %v", err)
	}
	if p, err := r.Plan(ctx, "main", at("2025-04-01T00:00:00Z"), at("2025-05-01T00:00:00Z"), "day"); err != nil || len(p.Commits) != 0 || p.Cut {
		t.Fatalf("a window after the last commit: %+v %v", p, err)
	}
	plan, err := r.Plan(ctx, "main", at("2025-03-01T00:00:00Z"), at("2025-04-01T00:00:00Z"), "day")
	if err != nil {
		t.Fatal(err)
	}
	var shas []string
	for _, c := range plan.Commits {
		shas = append(shas, c.SHA)
	}
	if !slices.Equal(shas, []string{first, second, third}) || plan.Cut || plan.Branch != "main" {
		t.Fatalf("plan %v (cut %v), want %v", shas, plan.Cut, []string{first, second, third})
	}

	var skipped []int
	files := map[string][]string{}
	done := func(sha string) bool { return sha == second }
	n, err := r.Backfill(ctx, plan, nil, done, func(i int) { skipped = append(skipped, i) }, func(s Step) error {
		if s.Commit != plan.Commits[s.Index] || s.Began.IsZero() {
			t.Errorf("step %+v", s)
		}
		for _, f := range s.Result.Files {
			files[s.Commit.SHA] = append(files[s.Commit.SHA], f.Path)
		}
		return nil
	})
	if err != nil || n != 2 || !slices.Equal(skipped, []int{1}) {
		t.Fatalf("backfill: %d analysed, skipped %v, %v", n, skipped, err)
	}
	if !slices.Equal(files[first], []string{"a.txt"}) || !slices.Equal(files[third], []string{"a.txt", "b.go", "c.go"}) || files[second] != nil {
		t.Fatalf("files analysed: %v", files)
	}

	stop := errors.New("upload refused")
	calls := 0
	n, err = r.Backfill(ctx, plan, nil, func(string) bool { return false }, func(int) {}, func(Step) error { calls++; return stop })
	if !errors.Is(err, stop) || n != 0 || calls != 1 {
		t.Fatalf("a failing step: %d analysed, %d calls, %v", n, calls, err)
	}
}
