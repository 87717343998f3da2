package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// loadResult is one request made by the load generator.
type loadResult struct {
	path  string
	start time.Time
	resp  response
	err   error
}

// driverText are fragments of database-driver and network errors that must
// never reach a client.
var driverText = []string{"pgconn", "pgx", "dial", "SQLSTATE", "connection refused", "broken pipe", "EOF",
	"FATAL", "57P0", "127.0.0.1", "terminating connection", "the database system is"}

// TestPostgresRestartUnderLoad restarts PostgreSQL while requests are
// running against one replica: every request answers 200 or a 503 with the
// spec's error body and a generic detail, none takes longer than 6 seconds,
// /readyz answers 503 during the outage, and the replica serves again
// within 10 seconds of the database returning, without a restart.
func TestPostgresRestartUnderLoad(t *testing.T) {
	t.Parallel()
	pg := startPostgres(t)
	ten := setUp(t, pg.dsn(), "load")
	secret := ten.Tokens["load"].Secret
	// A high limit: this test is about the database, not the quota.
	srv := startServer(t, "plumb", "--database", pg.dsn(), "--rate-limit", "10000000")
	// Reads, a CSV export and a write (a component replaced with itself:
	// a transaction that locks the project row).
	components := fmt.Sprintf("/gh/%s/projects/%s/components", ten.Workspace, ten.Project)
	const componentBody = `{"name":"Load","pathGlobs":["**"]}`
	mustCall(t, http.StatusCreated, "POST", srv.base+components, secret, componentBody)
	type request struct {
		method, path, body string
		header             http.Header
	}
	requests := []request{
		{"GET", "/workspaces", "", nil},
		{"GET", fmt.Sprintf("/gh/%s/projects/%s/issues?page[limit]=10", ten.Workspace, ten.Project), "", nil},
		{"GET", components, "", http.Header{"Accept": {"text/csv"}}},
		{"PUT", components + "/Load", componentBody, nil},
	}
	for _, rq := range requests {
		r, err := callWith(rq.method, srv.base+rq.path, secret, rq.body, rq.header)
		if err != nil || r.Status != http.StatusOK {
			t.Fatalf("%s %s: %v, status %d: %s", rq.method, rq.path, err, r.Status, r.Body)
		}
	}

	var (
		mu      sync.Mutex
		results []loadResult
	)
	ctx, stopLoad := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; ctx.Err() == nil; i++ {
				rq := requests[(g+i)%len(requests)]
				start := time.Now()
				r, err := callWith(rq.method, srv.base+rq.path, secret, rq.body, rq.header)
				mu.Lock()
				results = append(results, loadResult{path: rq.method + " " + rq.path, start: start, resp: r, err: err})
				mu.Unlock()
				time.Sleep(5 * time.Millisecond)
			}
		}(g)
	}
	defer func() { stopLoad(); wg.Wait() }()

	time.Sleep(time.Second)
	pg.stop(t)
	downAt := time.Now()
	t.Logf("PostgreSQL stopped")

	// /readyz answers 503 with the error body while the database is down.
	var ready response
	if !waitFor(3*time.Second, func() bool {
		r, err := call("GET", srv.base+"/readyz", "", "")
		ready = r
		return err == nil && r.Status == http.StatusServiceUnavailable
	}) {
		t.Errorf("/readyz during the outage: status %d, body %s; want 503", ready.Status, ready.Body)
	} else {
		if err := checkErrorBody(ready, http.StatusServiceUnavailable); err != nil {
			t.Errorf("/readyz during the outage: %v", err)
		}
		if ready.Duration > 4*time.Second {
			t.Errorf("/readyz took %v during the outage", ready.Duration)
		}
	}

	time.Sleep(time.Until(downAt.Add(2 * time.Second)))
	pg.start(t)
	upAt := time.Now()
	t.Logf("PostgreSQL started again after %v", upAt.Sub(downAt).Round(time.Millisecond))

	// The replica serves again by itself.
	var recoveredAt time.Time
	if !waitFor(10*time.Second, func() bool {
		r, err := call("GET", srv.base+requests[0].path, secret, "")
		if err == nil && r.Status == http.StatusOK {
			recoveredAt = time.Now()
			return true
		}
		return false
	}) {
		t.Fatalf("requests did not answer 200 within 10 s of PostgreSQL returning")
	}
	t.Logf("serving again %v after PostgreSQL returned", recoveredAt.Sub(upAt).Round(time.Millisecond))
	time.Sleep(2 * time.Second)
	stopLoad()
	wg.Wait()

	srv.ready(t, " after the outage")

	// Every response during the whole run.
	var ok, unavailable, late, okAfter int
	var slowest time.Duration
	statuses := map[string]int{}
	for _, res := range results {
		if res.resp.Duration > slowest {
			slowest = res.resp.Duration
		}
		if res.err != nil {
			statuses["transport error"]++
			t.Errorf("%s at %s: %v after %v", res.path, res.start.Format("15:04:05.000"), res.err, res.resp.Duration)
			continue
		}
		statuses[strconv.Itoa(res.resp.Status)]++
		if res.resp.Duration > 6*time.Second {
			t.Errorf("%s at %s took %v", res.path, res.start.Format("15:04:05.000"), res.resp.Duration)
		}
		switch res.resp.Status {
		case http.StatusOK:
			ok++
			if res.start.After(recoveredAt.Add(time.Second)) {
				okAfter++
			}
		case http.StatusServiceUnavailable:
			unavailable++
			if err := checkErrorBody(res.resp, http.StatusServiceUnavailable); err != nil {
				t.Errorf("%s: 503 %v", res.path, err)
			}
			for _, s := range driverText {
				if strings.Contains(string(res.resp.Body), s) {
					t.Errorf("%s: 503 body shows driver text %q: %s", res.path, s, res.resp.Body)
				}
			}
			// The first 200 seen by the probe marks the recovery; allow
			// a second for requests that had already picked a broken
			// pooled connection.
			if res.start.After(recoveredAt.Add(time.Second)) {
				late++
			}
		default:
			t.Errorf("%s at %s: status %d, want 200 or 503; body %s", res.path, res.start.Format("15:04:05.000"), res.resp.Status, res.resp.Body)
		}
	}
	t.Logf("%d requests: %v; slowest %v", len(results), statuses, slowest.Round(time.Millisecond))
	if unavailable == 0 {
		t.Errorf("no request answered 503: the load did not see the outage")
	}
	if late > 0 {
		t.Errorf("%d requests started more than a second after the replica served again still answered 503", late)
	}
	if ok == 0 || okAfter == 0 {
		t.Errorf("%d requests answered 200, %d of them after the recovery", ok, okAfter)
	}
	if n := srv.count(`level=ERROR`); n > 0 {
		t.Errorf("the server logged %d errors; a database outage should log warnings", n)
	}
}
