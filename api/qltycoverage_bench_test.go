package api_test

// The qlty CLI's publish of a large report, end to end in one process: the
// replay client's POST /coverage and PUT of the zip to a server on SQLite.
// It reports the files stored per second and the peak Go heap in use while
// the PUT ran above the heap before it (the client's report and zip), with
// the collector run often (GOGC 5) so that the figure is live memory, not
// garbage awaiting collection. It stays flat as the report grows: the zip is
// spooled to disk and its members are parsed and stored a batch at a time.
// Run:
//
//	go test -run='^$' -bench=QltyPublish -benchtime=1x ./api/
import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api"
	"github.com/plumbhq/plumb/internal/testclock"
	"github.com/plumbhq/plumb/ratelimit"
	"github.com/plumbhq/plumb/sqlstore"
)

func BenchmarkQltyPublish(b *testing.B) {
	for _, files := range []int{25000, 100000, 400000} {
		b.Run(fmt.Sprintf("files=%d", files), func(b *testing.B) { benchQltyPublish(b, files) })
	}
}

func benchQltyPublish(b *testing.B, files int) {
	ctx := context.Background()
	clock := testclock.New(t0)
	db, err := sqlstore.Open(ctx, "sqlite:"+filepath.Join(b.TempDir(), "plumb.db"), sqlstore.Options{Now: clock.Now})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	s := api.NewServer(db, ratelimit.NewMemory(1<<20, clock.Now), slog.New(slog.NewTextHandler(io.Discard, nil)), api.Config{SpoolDir: b.TempDir()})
	s.SetClock(clock.Now)
	srv := httptest.NewServer(s)
	defer srv.Close()
	ts := &testServer{URL: srv.URL, DB: db, API: s, Clock: clock, srv: srv, validator: sharedValidator(b)}
	if _, err := db.CreateWorkspace(ctx, plumb.WorkspaceInput{Key: "acme"}); err != nil {
		b.Fatal(err)
	}
	if _, err := db.CreateProject(ctx, plumb.ProjectInput{Workspace: "acme", Key: "web"}); err != nil {
		b.Fatal(err)
	}
	_, token, err := db.CreateUploadToken(ctx, "acme/web", "bench", "cli")
	if err != nil {
		b.Fatal(err)
	}
	report := syntheticLCOV(0, files, 1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		sha := fmt.Sprintf("%040x", i+1)
		cli := &qltyCLI{ts: ts, token: token, env: githubEnv(sha)}
		opt := publishOptions{reports: map[string]string{"lcov.info": report}, order: []string{"lcov.info"}, stripPrefix: "/work/repo"}
		members, meta := cli.export(opt, clock.Now())
		zipBytes := zipMembers(b, members)
		var unzipped int
		for _, m := range members {
			unzipped += len(m)
		}
		members = nil
		prep := cli.postMetadata(b, "/coverage", meta)
		if prep.status != http.StatusCreated {
			b.Fatalf("POST /coverage: %s", prep)
		}
		target := prep.data(b)["coverage.zip"].(string)
		old := debug.SetGCPercent(5)
		runtime.GC()
		var base runtime.MemStats
		runtime.ReadMemStats(&base)
		var peak atomic.Uint64
		stop := make(chan struct{})
		sampled := make(chan struct{})
		go func() {
			defer close(sampled)
			var m runtime.MemStats
			for {
				runtime.ReadMemStats(&m)
				if m.HeapInuse > peak.Load() {
					peak.Store(m.HeapInuse)
				}
				select {
				case <-stop:
					return
				case <-time.After(5 * time.Millisecond):
				}
			}
		}()
		b.StartTimer()
		start := time.Now()
		a := cli.put(b, target, zipBytes)
		elapsed := time.Since(start)
		b.StopTimer()
		close(stop)
		<-sampled
		debug.SetGCPercent(old)
		if a.status != http.StatusOK || a.data(b)["files"] != float64(files) {
			b.Fatalf("PUT: %s", a)
		}
		b.ReportMetric(float64(files)/elapsed.Seconds(), "files/s")
		b.ReportMetric(float64(len(zipBytes))/(1<<20), "zip-MB")
		b.ReportMetric(float64(unzipped)/(1<<20), "unzipped-MB")
		b.ReportMetric(float64(peak.Load()-min(peak.Load(), base.HeapInuse))/(1<<20), "put-heap-MB")
		b.StartTimer()
	}
}
