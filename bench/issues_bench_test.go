package bench

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/plumbhq/plumb/sqlstore"
)

// The 1,000,000-issue database is generated once and kept in
// $PLUMB_BENCH_DIR (default: the system temp folder) between runs.
// PLUMB_BENCH_ISSUES sets another size.

var issuesData benchDataset[IssuesFixture]

func issuesServer(b *testing.B) (http.Handler, IssuesFixture) {
	n := envInt("PLUMB_BENCH_ISSUES")
	if n == 0 {
		n = 1_000_000
	}
	h, _, fix, err := issuesData.load(fmt.Sprintf("issues-%d", n), func(ctx context.Context, db *sqlstore.DB, _ http.Handler) (IssuesFixture, error) {
		return GenerateIssues(ctx, db, n)
	})
	if err != nil {
		b.Fatal(err)
	}
	return h, fix
}

func get(b *testing.B, h http.Handler, fix IssuesFixture, path, accept string, w http.ResponseWriter) {
	r := httptest.NewRequest("GET", path, nil)
	r.Header.Set("Authorization", "Bearer "+fix.Token)
	if accept != "" {
		r.Header.Set("Accept", accept)
	}
	h.ServeHTTP(w, r)
}

// BenchmarkIssuesPage measures one filtered page of 100 issues at a shallow
// and a deep offset of the 1,000,000-issue project.
func BenchmarkIssuesPage(b *testing.B) {
	h, fix := issuesServer(b)
	for _, offset := range []int{0, 900_000} {
		b.Run(fmt.Sprintf("offset=%d", offset), func(b *testing.B) {
			path := fmt.Sprintf("/gh/%s/projects/%s/issues?status=open&level=high,medium,low,note&page[limit]=100&page[offset]=%d", fix.Workspace, fix.Project, offset)
			rec := httptest.NewRecorder()
			get(b, h, fix, path, "", rec) // warm the issue index
			if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"hasMore":true`) {
				b.Fatalf("warm-up: %d %.300s", rec.Code, rec.Body.String())
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				rec := httptest.NewRecorder()
				get(b, h, fix, path, "", rec)
				if rec.Code != 200 {
					b.Fatal(rec.Code)
				}
			}
		})
	}
}

type countingWriter struct {
	h     http.Header
	code  int
	bytes int64
	lines int64
}

func (w *countingWriter) Header() http.Header { return w.h }
func (w *countingWriter) WriteHeader(c int)   { w.code = c }
func (w *countingWriter) Write(p []byte) (int, error) {
	w.bytes += int64(len(p))
	w.lines += int64(bytes.Count(p, []byte{'\n'}))
	return len(p), nil
}

// BenchmarkIssuesExportNDJSON streams every open issue as NDJSON and reports
// rows per second.
func BenchmarkIssuesExportNDJSON(b *testing.B) {
	h, fix := issuesServer(b)
	path := fmt.Sprintf("/gh/%s/projects/%s/issues", fix.Workspace, fix.Project)
	b.ResetTimer()
	var rows int64
	for i := 0; i < b.N; i++ {
		w := &countingWriter{h: http.Header{}}
		get(b, h, fix, path, "application/x-ndjson", w)
		if w.code != 200 || w.lines < int64(fix.Issues)/2 {
			b.Fatalf("export: status %d, %d rows", w.code, w.lines)
		}
		rows += w.lines
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}
