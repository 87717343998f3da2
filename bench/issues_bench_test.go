package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/plumbhq/plumb/api"
	"github.com/plumbhq/plumb/ratelimit"
	"github.com/plumbhq/plumb/sqlstore"
)

// The 1,000,000-issue database is generated once and kept in
// $PLUMB_BENCH_DIR (default: the system temp folder) between runs.
// PLUMB_BENCH_ISSUES sets another size.

var (
	issuesOnce sync.Once
	issuesSrv  http.Handler
	issuesFix  IssuesFixture
	issuesErr  error
)

func issuesServer(b *testing.B) (http.Handler, IssuesFixture) {
	issuesOnce.Do(func() {
		n := 1_000_000
		if v := os.Getenv("PLUMB_BENCH_ISSUES"); v != "" {
			fmt.Sscan(v, &n)
		}
		ctx := context.Background()
		ds, fresh, err := OpenDataset(ctx, os.Getenv("PLUMB_BENCH_DIR"), fmt.Sprintf("issues-%d", n))
		if err != nil {
			issuesErr = err
			return
		}
		tokenFile := ds.Meta
		tok, _ := os.ReadFile(tokenFile)
		db, err := sqlstore.Open(ctx, ds.DSN, sqlstore.Options{})
		if err != nil {
			issuesErr = err
			return
		}
		if fresh {
			issuesFix, issuesErr = GenerateIssues(ctx, db, n)
			if issuesErr != nil {
				return
			}
			os.WriteFile(tokenFile, []byte(issuesFix.Token), 0o600)
		} else {
			issuesFix = IssuesFixture{Token: string(tok), Workspace: "bench", Project: "big", Issues: n}
		}
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		issuesSrv = api.NewServer(db, ratelimit.NewMemory(1<<30, nil), log, api.Config{})
	})
	if issuesErr != nil {
		b.Fatal(issuesErr)
	}
	return issuesSrv, issuesFix
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
