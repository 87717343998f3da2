package client

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

const testToken = "plbu_s3cretTOKENvalue0123456789"

// reply is one scripted answer of the fake server.
type reply struct {
	status int
	header map[string]string
	body   string
}

func errorReply(status int, detail string) reply {
	return reply{status: status, body: fmt.Sprintf(`{"errors":[{"status":"%d","title":%q,"detail":%q}]}`, status, http.StatusText(status), detail)}
}

// received is one request the fake server got, its body gunzipped.
type received struct {
	method, path, query string
	header              http.Header
	body                string
}

// fake answers with its replies in turn, the last one repeating.
type fake struct {
	*httptest.Server
	mu      sync.Mutex
	got     []received
	replies []reply
}

func newFake(t *testing.T, replies ...reply) *fake {
	f := &fake{replies: replies}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body io.Reader = r.Body
		if r.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(r.Body)
			if err != nil { // a body cut short (TestProgressAndContentError)
				w.WriteHeader(http.StatusBadRequest)
				return
			}
			body = zr
		}
		b, _ := io.ReadAll(body)
		f.mu.Lock()
		f.got = append(f.got, received{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Clone(), string(b)})
		rep := f.replies[0]
		if len(f.replies) > 1 {
			f.replies = f.replies[1:]
		}
		f.mu.Unlock()
		for k, v := range rep.header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(rep.status)
		io.WriteString(w, rep.body)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fake) requests() []received {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]received(nil), f.got...)
}

// newTestClient is a client of f whose waits are recorded, not slept, and
// whose back-off has no jitter (the full wait).
func newTestClient(t *testing.T, url string, opts ...Option) (*Client, *[]time.Duration) {
	t.Helper()
	var waits []time.Duration
	opts = append([]Option{
		WithSleep(func(ctx context.Context, d time.Duration) error { waits = append(waits, d); return ctx.Err() }),
		WithBackoff(Exponential(time.Second, 30*time.Second, func() float64 { return 1 })),
	}, opts...)
	c, err := New(url, testToken, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c, &waits
}

const coverageOK = `{"id":"u1","commitSha":"1111111","branch":"main","format":"lcov","files":3,"coveredLines":90,"missedLines":10}`

var options = CoverageOptions{CommitSHA: "1111111", Branch: "main", CoverageTag: "unit", PullRequestNumber: 7}

// An upload goes to the project's endpoint with its options as the query,
// the token as a bearer token, the content gzip-compressed and an
// Idempotency-Key; the answer is the API's object.
func TestUploadCoverage(t *testing.T) {
	f := newFake(t, reply{status: 201, body: coverageOK})
	c, _ := newTestClient(t, f.URL+"/", WithUserAgent("my-ci"))
	res, err := c.Project("my ws", "web").UploadCoverage(context.Background(), Bytes("lcov.info", []byte("SF:a.js\n")), options)
	if err != nil {
		t.Fatal(err)
	}
	if res.ID != "u1" || res.CoveredLines != 90 || res.Files != 3 {
		t.Errorf("result %+v", res)
	}
	r := f.requests()[0]
	if r.method != "POST" || r.path != "/ingest/gh/my ws/projects/web/coverage" ||
		r.query != "branch=main&commitSha=1111111&coverageTag=unit&pullRequestNumber=7" {
		t.Errorf("request %s %s?%s", r.method, r.path, r.query)
	}
	if r.header.Get("Authorization") != "Bearer "+testToken || r.header.Get("User-Agent") != "my-ci" ||
		!strings.HasPrefix(r.header.Get("Idempotency-Key"), "my-ci-") || r.body != "SF:a.js\n" {
		t.Errorf("headers %v, body %q", r.header, r.body)
	}
}

// A 503 and a 502 are retried after the back-off, with the same
// Idempotency-Key and body; each retry is announced.
func TestRetriesKeepTheKey(t *testing.T) {
	f := newFake(t, errorReply(503, "busy"), errorReply(502, "bad gateway"), reply{status: 201, body: coverageOK})
	var notes []Retry
	c, waits := newTestClient(t, f.URL, WithRetries(5), WithRetryNotify(func(r Retry) { notes = append(notes, r) }))
	if _, err := c.Project("acme", "web").UploadCoverage(context.Background(), Bytes("r", []byte("report")), options); err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	for i, r := range reqs {
		if r.header.Get("Idempotency-Key") != reqs[0].header.Get("Idempotency-Key") || r.body != "report" {
			t.Errorf("attempt %d: key %q, body %q", i+1, r.header.Get("Idempotency-Key"), r.body)
		}
	}
	if fmt.Sprint(*waits) != fmt.Sprint([]time.Duration{time.Second, 2 * time.Second}) {
		t.Errorf("waits %v", *waits)
	}
	want := Retry{Op: "coverage report r", Problem: "503 Service Unavailable: busy", Wait: time.Second, Retry: 1, Retries: 5}
	if len(notes) != 2 || notes[0] != want {
		t.Errorf("notes %+v, want first %+v", notes, want)
	}
}

// Back-off doubles from base up to the cap, with jitter over its upper half.
func TestExponential(t *testing.T) {
	full := Exponential(time.Second, 30*time.Second, func() float64 { return 1 })
	for n, want := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 3: 4 * time.Second, 5: 16 * time.Second, 6: 30 * time.Second, 40: 30 * time.Second} {
		if got := full(n); got != want {
			t.Errorf("backoff(%d) = %v, want %v", n, got, want)
		}
	}
	if got := Exponential(time.Second, 30*time.Second, func() float64 { return 0 })(3); got != 2*time.Second {
		t.Errorf("backoff(3) with no jitter = %v, want 2s", got)
	}
	for range 100 {
		if d := Exponential(time.Second, 30*time.Second, nil)(2); d < time.Second || d > 2*time.Second {
			t.Fatalf("backoff(2) = %v, outside [1s, 2s]", d)
		}
	}
}

// A 429's Retry-After sets the wait, capped at a minute; one beyond the
// deadline gives up at once, as a deadline error.
func TestRetryAfter(t *testing.T) {
	limited := func(after string) reply {
		r := errorReply(429, "slow down")
		r.header = map[string]string{"Retry-After": after}
		return r
	}
	f := newFake(t, limited("7"), limited("3600"), reply{status: 201, body: coverageOK})
	c, waits := newTestClient(t, f.URL)
	if _, err := c.Project("acme", "web").UploadCoverage(context.Background(), Bytes("r", []byte("x")), options); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(*waits) != fmt.Sprint([]time.Duration{7 * time.Second, time.Minute}) {
		t.Errorf("waits %v", *waits)
	}

	f = newFake(t, limited("50"))
	c, waits = newTestClient(t, f.URL, WithTimeout(20*time.Second))
	_, err := c.Project("acme", "web").UploadCoverage(context.Background(), Bytes("r", []byte("x")), options)
	if !errors.Is(err, context.DeadlineExceeded) || len(*waits) != 0 || len(f.requests()) != 1 {
		t.Errorf("Retry-After past the deadline: %v after %d requests, waits %v", err, len(f.requests()), *waits)
	}
}

// After the retries the call gives up with the last problem, which is no
// *Error (the server did not refuse).
func TestGiveUp(t *testing.T) {
	f := newFake(t, errorReply(503, "still down"))
	c, waits := newTestClient(t, f.URL, WithRetries(2))
	_, err := c.Project("acme", "web").UploadCoverage(context.Background(), Bytes("r", []byte("x")), options)
	var e *Error
	if err == nil || errors.As(err, &e) || !strings.Contains(err.Error(), "gave up on coverage report r after 3 attempt(s): 503 Service Unavailable: still down") {
		t.Errorf("error %v", err)
	}
	if len(f.requests()) != 3 || len(*waits) != 2 {
		t.Errorf("%d requests, waits %v", len(f.requests()), *waits)
	}
}

// A refusal is an *Error with the API's error body, not retried; the token
// never appears in it. A redirect is one too, with its Location.
func TestRefusal(t *testing.T) {
	f := newFake(t, reply{status: 400, body: `{"errors":[{"status":"400","title":"Bad Request","detail":"Format lcov2 is unknown to ` + testToken + `."},{"status":"400","title":"Bad Request","detail":"Another."}]}`})
	c, _ := newTestClient(t, f.URL)
	_, err := c.Project("acme", "web").UploadCoverage(context.Background(), Bytes("r", []byte("x")), options)
	var e *Error
	if !errors.As(err, &e) || e.StatusCode != 400 || len(e.Errors) != 2 || e.Errors[1].Detail != "Another." {
		t.Fatalf("error %#v", err)
	}
	if want := "the server refused coverage report r: 400 Bad Request: Format lcov2 is unknown to [token].; Another."; err.Error() != want {
		t.Errorf("error\n got %q\nwant %q", err, want)
	}
	if len(f.requests()) != 1 {
		t.Errorf("a refusal was retried")
	}

	f = newFake(t, errorReply(500, "request id r1"))
	c, _ = newTestClient(t, f.URL)
	_, err = c.User(context.Background())
	if !errors.As(err, &e) || e.StatusCode != 500 || err.Error() != "the token's user failed on the server: 500 Internal Server Error: request id r1" {
		t.Errorf("500: %v", err)
	}

	f = newFake(t, reply{status: 301, header: map[string]string{"Location": "https://plumb.example/user"}})
	c, _ = newTestClient(t, f.URL)
	_, err = c.User(context.Background())
	if !errors.As(err, &e) || e.Location != "https://plumb.example/user" || len(f.requests()) != 1 {
		t.Errorf("redirect: %v", err)
	}
}

// After an attempt whose fate is unknown (a proxy's 504), a 409 means that
// attempt is still running under the same key: retried. Without one, a 409
// is a refusal.
func TestConflictAfterUnknownOutcome(t *testing.T) {
	f := newFake(t, errorReply(504, "upstream timed out"), errorReply(409, "in progress"), reply{status: 201, body: coverageOK})
	c, _ := newTestClient(t, f.URL)
	if _, err := c.Project("acme", "web").UploadCoverage(context.Background(), Bytes("r", []byte("x")), options); err != nil || len(f.requests()) != 3 {
		t.Errorf("%v after %d requests", err, len(f.requests()))
	}
	f = newFake(t, errorReply(409, "conflict"))
	c, _ = newTestClient(t, f.URL)
	_, err := c.Project("acme", "web").UploadCoverage(context.Background(), Bytes("r", []byte("x")), options)
	var e *Error
	if !errors.As(err, &e) || e.StatusCode != 409 || len(f.requests()) != 1 {
		t.Errorf("plain 409: %v after %d requests", err, len(f.requests()))
	}
}

// A build start is not retry-safe: it carries no Idempotency-Key and a 502
// (the server may have acted) is not retried; a refused connection is.
func TestCreateIsNotRepeated(t *testing.T) {
	f := newFake(t, errorReply(502, "bad gateway"))
	c, _ := newTestClient(t, f.URL)
	_, err := c.Project("acme", "web").StartBuild(context.Background(), NewBuild{Type: "analysis", BranchName: "main", CommitSHA: "1111111"})
	if err == nil || len(f.requests()) != 1 || f.requests()[0].header.Get("Idempotency-Key") != "" {
		t.Errorf("%v after %d requests", err, len(f.requests()))
	}
	if got := f.requests()[0].body; got != `{"type":"analysis","branchName":"main","commitSha":"1111111"}` {
		t.Errorf("body %s", got)
	}

	f.Close()
	c, waits := newTestClient(t, f.URL, WithRetries(1))
	if _, err = c.Project("acme", "web").StartBuild(context.Background(), NewBuild{Type: "analysis"}); err == nil || len(*waits) != 1 {
		t.Errorf("refused connection: %v, waits %v", err, *waits)
	}
}

// Progress is reported from 0 to the content's size, then Done, per
// attempt; a failure to read the content is a *ContentError, not retried.
func TestProgressAndContentError(t *testing.T) {
	f := newFake(t, errorReply(503, "busy"), reply{status: 201, body: coverageOK})
	var seen []Progress
	c, _ := newTestClient(t, f.URL, WithProgress(func(p Progress) { seen = append(seen, p) }))
	big := bytes.Repeat([]byte("DA:1,1\n"), 100_000)
	if _, err := c.Project("acme", "web").UploadCoverage(context.Background(), Bytes("big.info", big), options); err != nil {
		t.Fatal(err)
	}
	size := int64(len(big))
	starts, dones := 0, 0
	var last int64
	for _, p := range seen {
		if p.Name != "big.info" || p.Total != size || p.Sent > size {
			t.Fatalf("report %+v", p)
		}
		switch {
		case p.Done:
			dones++
			if p.Sent != size {
				t.Errorf("done at %d of %d", p.Sent, size)
			}
		case p.Sent == 0:
			starts++
		case p.Sent < last:
			t.Errorf("progress went back: %d after %d", p.Sent, last)
		}
		last = p.Sent
	}
	if starts != 2 || dones != 2 {
		t.Errorf("%d starts and %d ends, want 2 each (two attempts)", starts, dones)
	}

	broken := Content{Name: "gone.info", Write: func(io.Writer, func(io.Reader) io.Reader) error { return errors.New("disk on fire") }}
	_, err := c.Project("acme", "web").UploadCoverage(context.Background(), broken, options)
	var ce *ContentError
	if !errors.As(err, &ce) || err.Error() != "reading coverage report gone.info: disk on fire" {
		t.Errorf("error %v", err)
	}
}

// Lists are read to the end, 100 elements a page.
func TestListsReadEveryPage(t *testing.T) {
	f := newFake(t, reply{status: 200, body: `{"data":[{"key":"a"},{"key":"b"}],"meta":{"hasMore":true}}`},
		reply{status: 200, body: `{"data":[{"key":"c"}],"meta":{"hasMore":false}}`})
	c, _ := newTestClient(t, f.URL)
	ws, err := c.Workspaces(context.Background())
	if err != nil || len(ws) != 3 || ws[2].Key != "c" {
		t.Fatalf("%+v, %v", ws, err)
	}
	if q := f.requests()[1].query; q != "page%5Blimit%5D=100&page%5Boffset%5D=2" {
		t.Errorf("second page query %s", q)
	}
}

// New refuses what cannot reach a server.
func TestNewRefuses(t *testing.T) {
	for _, u := range []string{"localhost:8080", "ftp://x", "https://x/?a=1", "https://x/#f", ""} {
		if _, err := New(u, testToken); !errors.Is(err, ErrBaseURL) {
			t.Errorf("New(%q): %v", u, err)
		}
	}
	for _, tok := range []string{"", "  ", "a b"} {
		if _, err := New("https://x", tok); !errors.Is(err, ErrToken) {
			t.Errorf("token %q: %v", tok, err)
		}
	}
	if _, err := New("https://x", testToken, WithRetries(-1)); err == nil {
		t.Error("negative retries accepted")
	}
}
