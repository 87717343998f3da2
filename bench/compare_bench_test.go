package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/plumbhq/plumb/sqlstore"
)

// The pull request project (100,000 files, a pull request touching 2,000 of
// them, 20,000 issues) is generated once into $PLUMB_BENCH_DIR and reused.
// PLUMB_BENCH_COMPARE_FILES and PLUMB_BENCH_COMPARE_CHANGED set smaller
// sizes.

var compareData benchDataset[CompareFixture]

func compareServer(b *testing.B) (http.Handler, CompareFixture) {
	o := CompareOptions{Files: envInt("PLUMB_BENCH_COMPARE_FILES"), Changed: envInt("PLUMB_BENCH_COMPARE_CHANGED")}
	h, _, fix, err := compareData.load(fmt.Sprintf("compare-%d-%d", o.Files, o.Changed), func(ctx context.Context, db *sqlstore.DB, h http.Handler) (CompareFixture, error) {
		return GenerateCompare(ctx, db, h, o)
	})
	if err != nil {
		b.Fatal(err)
	}
	return h, fix
}

// BenchmarkComparePullRequest answers GET …/pulls/{n}: totals of both sides,
// patch coverage of the touched files, issues new/fixed/unchanged, metrics
// of the project and its components, and the gate.
func BenchmarkComparePullRequest(b *testing.B) {
	h, fix := compareServer(b)
	checkCompare(b, h, fix)
	benchGetP50(b, h, fix.Token, fmt.Sprintf("/gh/bench/projects/pulls/pulls/%d", fix.PullRequest))
}

// BenchmarkCompareMarkdown is the same comparison as the Markdown comment.
func BenchmarkCompareMarkdown(b *testing.B) {
	h, fix := compareServer(b)
	benchGetP50(b, h, fix.Token, fmt.Sprintf("/gh/bench/projects/pulls/compare?base=%s&head=%s&format=markdown", fix.Base, fix.Head))
}

// checkCompare makes sure the benchmark measures a whole answer: the patch
// has every touched file but the deleted ones, and the issues moved.
func checkCompare(b *testing.B, h http.Handler, fix CompareFixture) {
	r := httptest.NewRequest("GET", fmt.Sprintf("/gh/bench/projects/pulls/pulls/%d", fix.PullRequest), nil)
	r.Header.Set("Authorization", "Bearer "+fix.Token)
	rec := httptest.NewRecorder()
	start := time.Now()
	h.ServeHTTP(rec, r)
	b.Logf("first request of the process (issues read from the database): %s", time.Since(start).Round(time.Millisecond))
	var out struct {
		Patch struct {
			Files []json.RawMessage `json:"files"`
		} `json:"patch"`
		Issues struct {
			New   struct{ Count int } `json:"new"`
			Fixed struct{ Count int } `json:"fixed"`
		} `json:"issues"`
	}
	if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &out) != nil {
		b.Fatalf("pulls: %d %.300s", rec.Code, rec.Body.String())
	}
	if len(out.Patch.Files) < fix.Changed*9/10 || out.Issues.New.Count == 0 || out.Issues.Fixed.Count == 0 {
		b.Fatalf("pulls: %d patch files of %d changed, %d new, %d fixed issues", len(out.Patch.Files), fix.Changed, out.Issues.New.Count, out.Issues.Fixed.Count)
	}
	b.Logf("%d bytes, %d patch files", rec.Body.Len(), len(out.Patch.Files))
}
