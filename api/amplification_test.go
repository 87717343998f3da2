package api_test

// Issue 19 item 18: a small request must not cost the server far more than
// its size. The measures are of memory (bytes allocated, the heap's peak),
// never of time:
//
//	go test -run='^$' -bench=HostileRequests -benchtime=5x ./api/
//
// reports, per request, B/op (bytes allocated while it is served, client
// included) and peak-heap-MB (the highest heap, live and garbage, above the
// heap before it, sampled every 100 µs). docs/benchmarks.md records them.

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api"
	"github.com/plumbhq/plumb/ratelimit"
	"github.com/plumbhq/plumb/sqlstore"
	"github.com/plumbhq/plumb/sqlstore/sqltest"
)

// hostileLCOV is 25 LCOV records of one line each, at the highest line a
// report may name (4,194,304): about 1 KB, 131 bytes gzipped.
func hostileLCOV() string {
	var b strings.Builder
	for i := 0; i < 25; i++ {
		fmt.Fprintf(&b, "SF:src/f%d.c\nDA:4194304,1\nend_of_record\n", i)
	}
	return b.String()
}

// hostileLevels is an issues query with 8,000 unknown level values (16 KB).
func hostileLevels() string {
	return "level=" + strings.TrimSuffix(strings.Repeat("x,", 8000), ",")
}

// distinctLevels is an issues query with 8,000 different unknown level
// values (48 KB).
func distinctLevels() string {
	v := make([]string, 8000)
	for i := range v {
		v[i] = fmt.Sprintf("l%d", i)
	}
	return "level=" + strings.Join(v, ",")
}

// hostileCase is one small request that used to cost the server much.
type hostileCase struct {
	name   string
	method string
	path   func(web string) string
	header map[string]string
	body   func(tb testing.TB) string
	status int
	// maxAlloc is the most bytes serving it may allocate (the fix's figures
	// are a few MB; before it, 800 MB and 30 MB).
	maxAlloc uint64
	// maxBody bounds the answer's size.
	maxBody int
}

func hostileCases() []hostileCase {
	return []hostileCase{
		{"lcov 25 files at line 4194304 (131 B gzip)", http.MethodPost,
			func(web string) string {
				return "/ingest/gh/acme/projects/" + web + "/coverage?commitSha=" + ingSha + "&branch=main"
			},
			map[string]string{"Content-Encoding": "gzip"}, func(tb testing.TB) string { return gzipped(tb, hostileLCOV()) },
			http.StatusCreated, 32 << 20, 1 << 10},
		{"issues query with 8000 bad levels (16 KB)", http.MethodGet,
			func(web string) string { return "/gh/acme/projects/" + web + "/issues?" + hostileLevels() }, nil, nil,
			http.StatusBadRequest, 4 << 20, 32 << 10},
		{"issues query with 8000 distinct bad levels (48 KB)", http.MethodGet,
			func(web string) string { return "/gh/acme/projects/" + web + "/issues?" + distinctLevels() }, nil, nil,
			http.StatusBadRequest, 8 << 20, 32 << 10},
	}
}

// A request with thousands of problems is answered the first
// plumb.MaxDetails of them and one error object counting the rest, on
// every kind of collection (query parameters, JSON fields).
func TestErrorObjectsCapped(t *testing.T) {
	w := newIngWorld(t)
	r := w.get(t, "/gh/acme/projects/web/issues?"+distinctLevels(), w.Alice).wantStatus(t, http.StatusBadRequest)
	d := r.details(t)
	if len(d) != plumb.MaxDetails+1 || !strings.Contains(d[0], `"l0"`) || !strings.Contains(d[99], `"l99"`) ||
		d[100] != "… and 7900 more problems (only the first 100 are listed)." {
		t.Errorf("%d error objects: %q … %q", len(d), d[0], d[len(d)-1])
	}
	// The same value 8,000 times is one problem.
	d = w.get(t, "/gh/acme/projects/web/issues?"+hostileLevels(), w.Alice).wantStatus(t, http.StatusBadRequest).details(t)
	if len(d) != 1 {
		t.Errorf("%d error objects for one bad value repeated: %q", len(d), d)
	}
	// A component with 3,000 bad globs: fields collected alike.
	w.setComponents(t, "acme/web", true)
	globs := strings.TrimSuffix(strings.Repeat(`"",`, 3000), ",")
	d = w.do(t, http.MethodPost, "/gh/acme/projects/web/components", w.Carol, jsonBody, `{"name":"x","pathGlobs":[`+globs+`]}`).
		wantStatus(t, http.StatusBadRequest).details(t)
	if len(d) != plumb.MaxDetails+1 || !strings.HasPrefix(d[100], "… and 2901 more problems") {
		t.Errorf("%d error objects for a component's bad globs: %q … %q", len(d), d[0], d[len(d)-1])
	}
}

// memoryOf serves one request and measures what it cost the process: bytes
// allocated and the heap's peak above its level before the request.
func memoryOf(tb testing.TB, client *http.Client, req func() *http.Request) (status int, body []byte, alloc, peak uint64) {
	tb.Helper()
	runtime.GC()
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	heap := func() uint64 {
		metrics.Read(samples)
		return samples[0].Value.Uint64()
	}
	base := heap()
	var top uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(100 * time.Microsecond)
		defer t.Stop()
		for {
			if h := heap(); h > top {
				top = h
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := client.Do(req())
	if err != nil {
		tb.Fatal(err)
	}
	body, err = io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		tb.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	close(stop)
	wg.Wait()
	if top > base {
		peak = top - base
	}
	return res.StatusCode, body, after.TotalAlloc - before.TotalAlloc, peak
}

// TestHostileRequestsStayCheap: the 131-byte gzip LCOV naming line
// 4,194,304 in 25 files, and an issues query with 8,000 bad levels, cost a
// few MB, not hundreds (allocations measured, no time).
func TestHostileRequestsStayCheap(t *testing.T) {
	w := newIngWorld(t)
	for _, c := range hostileCases() {
		t.Run(c.name, func(t *testing.T) {
			var body string
			if c.body != nil {
				body = c.body(t)
			}
			status, answer, alloc, peak := memoryOf(t, w.srv.Client(), func() *http.Request {
				req, _ := http.NewRequest(c.method, w.URL+c.path("web"), strings.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+w.Upload)
				if c.method == http.MethodGet {
					req.Header.Set("Authorization", "Bearer "+w.Alice)
				}
				for k, v := range c.header {
					req.Header.Set(k, v)
				}
				return req
			})
			t.Logf("%d bytes in, %d bytes out, %.1f MB allocated, heap peak +%.1f MB", len(body)+len(c.path("web")), len(answer),
				float64(alloc)/(1<<20), float64(peak)/(1<<20))
			if status != c.status {
				t.Fatalf("status %d, want %d: %.300s", status, c.status, answer)
			}
			if alloc > c.maxAlloc {
				t.Errorf("serving it allocated %.1f MB, want at most %.1f MB", float64(alloc)/(1<<20), float64(c.maxAlloc)/(1<<20))
			}
			if len(answer) > c.maxBody {
				t.Errorf("the answer is %d bytes, want at most %d", len(answer), c.maxBody)
			}
		})
	}
}

// BenchmarkHostileRequests reports the memory a small hostile request costs
// the server, per request (see the file comment).
func BenchmarkHostileRequests(b *testing.B) {
	ctx := context.Background()
	db, err := sqlstore.Open(ctx, sqltest.DSN(b), sqlstore.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	_, err = db.CreateUser(ctx, "alice", "Alice")
	check(b, err)
	_, alice, err := db.CreateToken(ctx, "alice", "bench")
	check(b, err)
	_, err = db.CreateWorkspace(ctx, plumb.WorkspaceInput{Key: "acme"})
	check(b, err)
	check(b, db.AddMember(ctx, "acme", "alice", plumb.RoleAdmin))
	s := api.NewServer(db, ratelimit.NewMemory(1<<30, nil), slog.New(slog.DiscardHandler), api.Config{})
	srv := httptest.NewServer(s)
	defer srv.Close()
	projects := 0
	for _, c := range hostileCases() {
		b.Run(c.name, func(b *testing.B) {
			var body string
			if c.body != nil {
				body = c.body(b)
			}
			var alloc, peak uint64
			n := 0
			for b.Loop() {
				// A project per request: every upload is a first one.
				projects++
				web := fmt.Sprintf("web%d", projects)
				_, err := db.CreateProject(ctx, plumb.ProjectInput{Workspace: "acme", Key: web})
				check(b, err)
				status, answer, a, p := memoryOf(b, srv.Client(), func() *http.Request {
					req, _ := http.NewRequest(c.method, srv.URL+c.path(web), strings.NewReader(body))
					req.Header.Set("Authorization", "Bearer "+alice)
					for k, v := range c.header {
						req.Header.Set(k, v)
					}
					return req
				})
				if status != c.status {
					b.Fatalf("status %d, want %d: %.300s", status, c.status, answer)
				}
				alloc += a
				peak = max(peak, p)
				n++
				b.ReportMetric(float64(len(answer)), "answer-bytes")
			}
			b.ReportMetric(float64(alloc)/float64(n)/(1<<20), "alloc-MB/op")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
		})
	}
}
