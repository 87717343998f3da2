package web_test

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb/api"
	"github.com/plumbhq/plumb/bench"
	"github.com/plumbhq/plumb/compare"
	"github.com/plumbhq/plumb/internal/testclock"
	"github.com/plumbhq/plumb/ratelimit"
	"github.com/plumbhq/plumb/web"
)

// Benchmarks of the pull-request pages (issue 22's targets,
// docs/benchmarks.md): the page of a pull request touching 2,000 of
// 100,000 files under 300 ms of server time, the list with 1,000 pull
// requests under 50 ms (the list shows the figures its rows' comparisons
// kept; the first view makes and keeps them). Each iteration is one signed-in request through the
// whole site. PLUMB_BENCH_COMPARE_FILES and PLUMB_BENCH_COMPARE_CHANGED set
// smaller sizes for the page (the project is generated in the benchmark,
// through the API, as bench.GenerateCompare does for the API's).

func benchEnv(name string) int {
	n, _ := strconv.Atoi(os.Getenv(name))
	return n
}

func BenchmarkPullPage(b *testing.B) {
	o := bench.CompareOptions{Files: benchEnv("PLUMB_BENCH_COMPARE_FILES"), Changed: benchEnv("PLUMB_BENCH_COMPARE_CHANGED")}
	// The project is generated once into $PLUMB_BENCH_DIR (the same dataset
	// as bench's BenchmarkComparePullRequest) and reused by later runs.
	ds, fresh, err := bench.OpenDataset(b.Context(), os.Getenv("PLUMB_BENCH_DIR"), fmt.Sprintf("compare-%d-%d", o.Files, o.Changed))
	if err != nil {
		b.Fatal(err)
	}
	clk := testclock.New(time.Now())
	s := replica(b, web.Config{}, ds.DSN, clk, io.Discard)
	var fix bench.CompareFixture
	if fresh {
		a := api.NewServer(s.DB, ratelimit.NewMemory(1<<30, time.Now), slog.New(slog.NewTextHandler(io.Discard, nil)), api.Config{})
		start := time.Now()
		if fix, err = bench.GenerateCompare(b.Context(), s.DB, a, o); err != nil {
			b.Fatal(err)
		}
		b.Logf("generated %d files, %d changed, in %s", fix.Files, fix.Changed, time.Since(start).Round(time.Second))
		raw, _ := json.Marshal(fix)
		if err := os.WriteFile(ds.Meta, raw, 0o600); err != nil {
			b.Fatal(err)
		}
	} else {
		raw, err := os.ReadFile(ds.Meta)
		if err == nil {
			err = json.Unmarshal(raw, &fix)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	if err := web.SetUserPassword(b.Context(), s.DB, "bench", filesPassword); err != nil {
		b.Fatal(err)
	}
	// The comparison keeps the sums it makes while the components are
	// unchanged since: on the clock of the view, after their creation.
	clk.Set(time.Now())
	br := s.browser(b)
	br.signIn("bench", filesPassword)
	path := fmt.Sprintf("/w/%s/%s/pulls/%d", fix.Workspace, fix.Project, fix.PullRequest)
	t := time.Now()
	p := br.get(path)
	b.Logf("first view (the comparison read from the database): %s", time.Since(t).Round(time.Millisecond))
	if p.Status != 200 || strings.Count(p.Body, `<section class="diff-file">`) < fix.Changed/2 {
		b.Fatalf("status %d; %d changed files shown", p.Status, strings.Count(p.Body, `<section class="diff-file">`))
	}
	b.ReportMetric(float64(len(p.Body))/1e6, "MB/page")
	b.ResetTimer()
	for b.Loop() {
		if br.get(path).Status != 200 {
			b.Fatal("not 200")
		}
	}
}

func BenchmarkPullList(b *testing.B) {
	f := pullSite(b)
	ctx := b.Context()
	for n := 100; n < 1100; n++ {
		sha := fmt.Sprintf("%040x", n)
		ch := compare.Change{CommitSHA: sha, Branch: "feature-" + strconv.Itoa(n), BaseCommitSHA: pullBase, BaseBranch: "main", PullRequestNumber: &n,
			Files: []compare.FileChange{{Path: "shop/total.go", Status: "modified", AddedLines: []compare.LineRange{{Start: 3, End: 6}}}}}
		if err := f.DB.PutChange(ctx, f.ProjectID, ch, t0.Add(time.Duration(n)*time.Second)); err != nil {
			b.Fatal(err)
		}
	}
	br := f.browser(b)
	br.signIn("ada", filesPassword)
	start := time.Now()
	p := br.get("/w/oss/plumb/pulls")
	b.Logf("first view (25 comparisons made and kept): %s", time.Since(start).Round(time.Millisecond))
	if p.Status != 200 || !strings.Contains(p.Body, `href="/w/oss/plumb/pulls/1099"`) || !strings.Contains(p.Body, `rel="next"`) {
		b.Fatalf("status %d; the list lacks the newest pull request or a next page", p.Status)
	}
	for b.Loop() {
		if br.get("/w/oss/plumb/pulls").Status != 200 {
			b.Fatal("not 200")
		}
	}
}
