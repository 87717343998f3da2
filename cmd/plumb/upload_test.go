package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plumbhq/plumb/api/apiv1"
	"github.com/plumbhq/plumb/client"
	"github.com/plumbhq/plumb/ingest/analysis"
	"github.com/plumbhq/plumb/internal/progress"
)

const testToken = "plbu_s3cretTOKENvalue0123456789"

// fakeRequest is one request the fake server received, its body gunzipped.
type fakeRequest struct {
	Method, Path string
	Query        url.Values
	Header       http.Header
	Body         []byte
}

type fakeReply struct {
	status int
	header map[string]string
	body   string
}

// fakeIngest records requests and answers them with its replies in turn,
// the last one repeating.
type fakeIngest struct {
	*httptest.Server
	mu      sync.Mutex
	reqs    []fakeRequest
	replies []fakeReply
	t       *testing.T
}

func newFakeIngest(t *testing.T, replies ...fakeReply) *fakeIngest {
	f := &fakeIngest{replies: replies, t: t}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeIngest) serve(w http.ResponseWriter, r *http.Request) {
	var body io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			f.t.Errorf("body is not gzip: %v", err)
			http.Error(w, "bad gzip", 400)
			return
		}
		body = zr
	}
	b, err := io.ReadAll(body)
	if err != nil {
		f.t.Errorf("reading the body: %v", err)
	}
	f.mu.Lock()
	f.reqs = append(f.reqs, fakeRequest{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Header: r.Header.Clone(), Body: b})
	rep := fakeReply{status: 500, body: `{"errors":[{"status":"500","title":"Internal Server Error","detail":"no reply scripted"}]}`}
	if len(f.replies) > 0 {
		rep = f.replies[0]
		if len(f.replies) > 1 {
			f.replies = f.replies[1:]
		}
	}
	f.mu.Unlock()
	for k, v := range rep.header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(rep.status)
	io.WriteString(w, rep.body)
}

func (f *fakeIngest) requests() []fakeRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]fakeRequest(nil), f.reqs...)
}

func errorReply(status int, detail string) fakeReply {
	return fakeReply{status: status, body: fmt.Sprintf(`{"errors":[{"status":"%d","title":%q,"detail":%q}]}`, status, http.StatusText(status), detail)}
}

var coverageOK = fakeReply{status: 201, body: `{"id":"u1","commitSha":"` + shaA + `","branch":"main","tag":"","coverageTag":"unit","format":"lcov","files":3,"coveredLines":90,"missedLines":10}`}

// cliResult is what one run of the command line gave.
type cliResult struct {
	stdout, stderr string
	err            error
	code           int
	sleeps         []time.Duration
}

// testHooks makes retries sleep-free (recording the waits), jitter-free
// (the full back-off), and detection blind to the surrounding checkout.
func testHooks(t *testing.T) *[]time.Duration {
	t.Helper()
	var sleeps []time.Duration
	oldOpts, oldTerm, oldGit := testClientOptions, stderrIsTerminal, ciGitDir
	testClientOptions = []client.Option{
		client.WithSleep(func(ctx context.Context, d time.Duration) error { sleeps = append(sleeps, d); return ctx.Err() }),
		client.WithBackoff(client.Exponential(time.Second, 30*time.Second, func() float64 { return 1 })),
	}
	stderrIsTerminal = func(io.Writer) bool { return false }
	ciGitDir = t.TempDir()
	t.Cleanup(func() { testClientOptions, stderrIsTerminal, ciGitDir = oldOpts, oldTerm, oldGit })
	return &sleeps
}

// runCLI runs plumb with args, the fake's URL, the test token and project
// acme/web in the environment, plus env.
func runCLI(t *testing.T, srv *fakeIngest, env map[string]string, stdin string, args ...string) cliResult {
	t.Helper()
	sleeps := testHooks(t)
	vars := map[string]string{"PLUMB_TOKEN": testToken, "PLUMB_PROJECT": "acme/web"}
	if srv != nil {
		vars["PLUMB_URL"] = srv.URL
	}
	for k, v := range env {
		vars[k] = v
	}
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), args, envOf(vars), strings.NewReader(stdin), &stdout, &stderr)
	res := cliResult{stdout: stdout.String(), stderr: stderr.String(), err: err, sleeps: *sleeps}
	if err != nil {
		res.code = exitCode(err)
	}
	for _, s := range []string{res.stdout, res.stderr, fmt.Sprint(err)} {
		if strings.Contains(s, testToken) {
			t.Errorf("the token appears in the output: %q", s)
		}
	}
	return res
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const lcov = "TN:\nSF:src/a.js\nDA:1,1\nDA:2,0\nend_of_record\n"

var ghPush = map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SHA": shaA, "GITHUB_REF": "refs/heads/main"}

// A coverage upload goes to the project's coverage endpoint with the
// detected commit and branch and the flags as query parameters, the token
// as a bearer token and the report gzip-compressed; the summary is one line.
func TestUploadCoverage(t *testing.T) {
	srv := newFakeIngest(t, coverageOK)
	report := writeFile(t, "lcov.info", lcov)
	res := runCLI(t, srv, ghPush, "", "upload", "coverage", report, "--coverage-tag", "unit", "--format", "lcov",
		"--strip-prefix", "/build/", "--add-prefix", "web/", "--module-path", "example.com/m")
	if res.err != nil {
		t.Fatalf("upload: %v\nstderr: %s", res.err, res.stderr)
	}
	reqs := srv.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	r := reqs[0]
	if r.Method != "POST" || r.Path != "/ingest/gh/acme/projects/web/coverage" {
		t.Errorf("request %s %s", r.Method, r.Path)
	}
	want := url.Values{"commitSha": {shaA}, "branch": {"main"}, "coverageTag": {"unit"}, "format": {"lcov"},
		"stripPrefix": {"/build/"}, "addPrefix": {"web/"}, "modulePath": {"example.com/m"}}
	if fmt.Sprint(r.Query) != fmt.Sprint(want) {
		t.Errorf("query\n got %v\nwant %v", r.Query, want)
	}
	if got := r.Header.Get("Authorization"); got != "Bearer "+testToken {
		t.Errorf("Authorization %q", got)
	}
	if r.Header.Get("Content-Encoding") != "gzip" || string(r.Body) != lcov {
		t.Errorf("body (Content-Encoding %q) decodes to %q, want the report", r.Header.Get("Content-Encoding"), r.Body)
	}
	if k := r.Header.Get("Idempotency-Key"); len(k) < 20 || len(k) > 200 {
		t.Errorf("Idempotency-Key %q", k)
	}
	wantOut := "uploaded " + report + ": 3 files, 90 covered / 10 missed lines (90.0%), format lcov, commit 111111111111 on main\n"
	if res.stdout != wantOut {
		t.Errorf("stdout\n got %q\nwant %q", res.stdout, wantOut)
	}
	if res.stderr != "" {
		t.Errorf("stderr %q, want nothing", res.stderr)
	}
}

// Flags win over CI detection; a project's parts are escaped in the path.
func TestUploadFlagsOverrideDetection(t *testing.T) {
	srv := newFakeIngest(t, coverageOK)
	report := writeFile(t, "cover.out", "mode: set\nx.go:1.1,2.2 1 1\n")
	env := map[string]string{"CIRCLECI": "true", "CIRCLE_SHA1": shaA, "CIRCLE_BRANCH": "ci-branch", "CIRCLE_TAG": "v1",
		"PLUMB_PROJECT": "my ws/web app"}
	res := runCLI(t, srv, env, "", "upload", "coverage", "--commit", shaB, "--branch", "flag-branch", "--tag", "v2", report)
	if res.err != nil {
		t.Fatal(res.err)
	}
	r := srv.requests()[0]
	if r.Path != "/ingest/gh/my ws/projects/web app/coverage" {
		t.Errorf("path %q", r.Path)
	}
	if r.Query.Get("commitSha") != shaB || r.Query.Get("branch") != "flag-branch" || r.Query.Get("tag") != "v2" {
		t.Errorf("query %v", r.Query)
	}
}

// '-' reads the report from stdin, buffered to a temporary file that every
// attempt re-reads and that is removed afterwards.
func TestUploadCoverageFromStdinRetried(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	srv := newFakeIngest(t, errorReply(503, "The database is unavailable; retry in a few seconds."), coverageOK)
	res := runCLI(t, srv, ghPush, lcov, "upload", "coverage", "-")
	if res.err != nil {
		t.Fatal(res.err)
	}
	reqs := srv.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	for i, r := range reqs {
		if string(r.Body) != lcov {
			t.Errorf("attempt %d sent %q", i+1, r.Body)
		}
	}
	if !strings.HasPrefix(res.stdout, "uploaded stdin: ") {
		t.Errorf("stdout %q", res.stdout)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// A 503 is retried after the back-off, with the same Idempotency-Key and the
// same body; the retry is reported on stderr.
func TestRetryOn503ThenSuccess(t *testing.T) {
	srv := newFakeIngest(t, errorReply(503, "busy"), errorReply(502, "bad gateway"), coverageOK)
	report := writeFile(t, "lcov.info", lcov)
	res := runCLI(t, srv, ghPush, "", "upload", "coverage", report)
	if res.err != nil {
		t.Fatalf("%v\n%s", res.err, res.stderr)
	}
	reqs := srv.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	key := reqs[0].Header.Get("Idempotency-Key")
	for i, r := range reqs {
		if got := r.Header.Get("Idempotency-Key"); got != key {
			t.Errorf("attempt %d: Idempotency-Key %q, want %q", i+1, got, key)
		}
		if string(r.Body) != lcov || r.Query.Encode() != reqs[0].Query.Encode() {
			t.Errorf("attempt %d differs: %q %v", i+1, r.Body, r.Query)
		}
	}
	if want := []time.Duration{time.Second, 2 * time.Second}; fmt.Sprint(res.sleeps) != fmt.Sprint(want) {
		t.Errorf("waits %v, want %v", res.sleeps, want)
	}
	if !strings.Contains(res.stderr, "503 Service Unavailable: busy; retrying in 1s (retry 1 of 5)") {
		t.Errorf("stderr %q", res.stderr)
	}
}

// After an attempt whose fate is unknown (here a proxy's 504), a 409 means
// the first attempt is still running under the same Idempotency-Key: wait
// and retry. Without such an attempt a 409 is a refusal.
func TestConflictAfterUnknownOutcomeIsRetried(t *testing.T) {
	report := writeFile(t, "lcov.info", lcov)
	srv := newFakeIngest(t, errorReply(504, "upstream timed out"),
		errorReply(409, `An upload with Idempotency-Key "k" is still in progress; retry later.`), coverageOK)
	res := runCLI(t, srv, ghPush, "", "upload", "coverage", report)
	if res.err != nil || len(srv.requests()) != 3 {
		t.Errorf("%v after %d requests", res.err, len(srv.requests()))
	}
	srv = newFakeIngest(t, errorReply(409, "conflict"))
	res = runCLI(t, srv, ghPush, "", "upload", "coverage", report)
	if res.code != 1 || len(srv.requests()) != 1 {
		t.Errorf("plain 409: exit %d after %d requests", res.code, len(srv.requests()))
	}
}

// A 429's Retry-After sets the wait, capped at a minute.
func TestRetryAfterHonoured(t *testing.T) {
	limited := func(after string) fakeReply {
		r := errorReply(429, "The rate limit of 5000 requests per hour is used up.")
		r.header = map[string]string{"Retry-After": after}
		return r
	}
	srv := newFakeIngest(t, limited("7"), limited("3600"), coverageOK)
	report := writeFile(t, "lcov.info", lcov)
	res := runCLI(t, srv, ghPush, "", "upload", "coverage", report)
	if res.err != nil {
		t.Fatal(res.err)
	}
	if want := []time.Duration{7 * time.Second, time.Minute}; fmt.Sprint(res.sleeps) != fmt.Sprint(want) {
		t.Errorf("waits %v, want %v", res.sleeps, want)
	}
	if n := len(srv.requests()); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
}

// After --retries retries the command gives up with exit status 3; a
// Retry-After beyond --timeout gives up at once.
func TestGiveUpAfterRetries(t *testing.T) {
	srv := newFakeIngest(t, errorReply(503, "still down"))
	report := writeFile(t, "lcov.info", lcov)
	res := runCLI(t, srv, ghPush, "", "upload", "coverage", report, "--retries", "2")
	if res.code != 3 {
		t.Fatalf("exit %d (%v), want 3", res.code, res.err)
	}
	if n := len(srv.requests()); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
	if len(res.sleeps) != 2 {
		t.Errorf("waits %v, want 2", res.sleeps)
	}
	if !strings.Contains(res.err.Error(), "gave up") || !strings.Contains(res.err.Error(), "still down") {
		t.Errorf("error %q", res.err)
	}

	limited := errorReply(429, "slow down")
	limited.header = map[string]string{"Retry-After": "50"}
	srv = newFakeIngest(t, limited)
	res = runCLI(t, srv, ghPush, "", "upload", "coverage", report, "--timeout", "20s")
	if res.code != 3 || len(srv.requests()) != 1 || len(res.sleeps) != 0 {
		t.Errorf("Retry-After past the timeout: exit %d, %d requests, waits %v", res.code, len(srv.requests()), res.sleeps)
	}
}

// Network errors are retried, then give up with exit status 3.
func TestNetworkErrorGivesUp(t *testing.T) {
	srv := newFakeIngest(t)
	srv.Close()
	report := writeFile(t, "lcov.info", lcov)
	res := runCLI(t, srv, ghPush, "", "upload", "coverage", report, "--retries", "1")
	if res.code != 3 || len(res.sleeps) != 1 {
		t.Errorf("exit %d (%v), waits %v; want 3 after one retry", res.code, res.err, res.sleeps)
	}
}

// A 4xx is a refusal: exit status 1, the server's details in the message,
// no retry. A 500 is a server error: exit status 3, no retry.
func TestServerRefusal(t *testing.T) {
	report := writeFile(t, "lcov.info", lcov)
	srv := newFakeIngest(t, fakeReply{status: 400, body: `{"errors":[{"status":"400","title":"Bad Request","detail":"Query parameter format has the unknown value \"lcov2\"."},` +
		`{"status":"400","title":"Bad Request","detail":"Another problem."}]}`})
	res := runCLI(t, srv, ghPush, "", "upload", "coverage", report, "--format", "lcov2")
	if res.code != 1 {
		t.Fatalf("exit %d (%v), want 1", res.code, res.err)
	}
	want := `the server refused coverage report ` + report + `: 400 Bad Request: Query parameter format has the unknown value "lcov2".; Another problem.`
	if res.err.Error() != want {
		t.Errorf("error\n got %q\nwant %q", res.err, want)
	}
	if len(srv.requests()) != 1 || len(res.sleeps) != 0 {
		t.Errorf("a refusal was retried")
	}

	srv = newFakeIngest(t, errorReply(404, `Project "web" was not found.`))
	res = runCLI(t, srv, ghPush, "", "upload", "coverage", report)
	if res.code != 1 || !strings.Contains(res.err.Error(), "check --project and --url") {
		t.Errorf("404: exit %d, %v", res.code, res.err)
	}

	srv = newFakeIngest(t, errorReply(500, "An unexpected error occurred. The server logged it with request id r1."))
	res = runCLI(t, srv, ghPush, "", "upload", "coverage", report)
	if res.code != 3 || len(srv.requests()) != 1 || !strings.Contains(res.err.Error(), "request id r1") {
		t.Errorf("500: exit %d, %d requests, %v", res.code, len(srv.requests()), res.err)
	}

	srv = newFakeIngest(t, fakeReply{status: 301, header: map[string]string{"Location": "https://plumb.example/ingest"}})
	res = runCLI(t, srv, ghPush, "", "upload", "coverage", report)
	if res.code != 1 || !strings.Contains(res.err.Error(), "https://plumb.example/ingest") || len(srv.requests()) != 1 {
		t.Errorf("redirect: exit %d, %v", res.code, res.err)
	}
}

// The token is never printed, even when a server echoes it back.
func TestTokenNeverPrinted(t *testing.T) {
	report := writeFile(t, "lcov.info", lcov)
	srv := newFakeIngest(t, errorReply(503, "token "+testToken+" is busy"), errorReply(401, "The token "+testToken+" is not valid."))
	res := runCLI(t, srv, ghPush, "", "upload", "coverage", report) // runCLI fails the test on any trace of the token
	if res.code != 1 || !strings.Contains(res.err.Error(), "[token]") || !strings.Contains(res.err.Error(), "PLUMB_TOKEN") {
		t.Errorf("exit %d, %v", res.code, res.err)
	}
	if !strings.Contains(res.stderr, "token [token] is busy") {
		t.Errorf("stderr %q", res.stderr)
	}
	runCLI(t, srv, map[string]string{"PLUMB_PROJECT": "nope"}, "", "upload", "coverage", report, "--token", testToken)
	runCLI(t, srv, map[string]string{"PLUMB_URL": "ftp://x"}, "", "upload", "coverage", report)
	runCLI(t, srv, ghPush, "", "build", "start", "--type", "analysis", "--token", testToken+" x")
}

// Bad command lines, a missing token or project, and unreadable or empty
// files are usage errors (exit status 2) that send nothing.
func TestUploadUsageErrors(t *testing.T) {
	srv := newFakeIngest(t, coverageOK)
	report := writeFile(t, "lcov.info", lcov)
	empty := writeFile(t, "empty.info", "")
	badStats := writeFile(t, "stats.json", `{"files":[{"path":"a.go","lines":1,"colour":"red"}]}`)
	badSARIF := writeFile(t, "bad.sarif", `{"runs":[}`)
	goodStats := writeFile(t, "good.json", `[{"path":"a.go","lines":1}]`)
	cases := []struct {
		name string
		env  map[string]string
		args []string
	}{
		{"no subcommand", nil, []string{"upload"}},
		{"unknown subcommand", nil, []string{"upload", "junit", report}},
		{"no file", nil, []string{"upload", "coverage"}},
		{"two files", nil, []string{"upload", "coverage", report, report}},
		{"unknown flag", nil, []string{"upload", "coverage", report, "--colour"}},
		{"no token", map[string]string{"PLUMB_TOKEN": ""}, []string{"upload", "coverage", report}},
		{"no project", map[string]string{"PLUMB_PROJECT": ""}, []string{"upload", "coverage", report}},
		{"bad project", nil, []string{"upload", "coverage", report, "--project", "acme"}},
		{"bad url", nil, []string{"upload", "coverage", report, "--url", "localhost:8080"}},
		{"negative retries", nil, []string{"upload", "coverage", report, "--retries", "-1"}},
		{"missing file", nil, []string{"upload", "coverage", filepath.Join(t.TempDir(), "nope.info")}},
		{"directory", nil, []string{"upload", "coverage", t.TempDir()}},
		{"empty file", nil, []string{"upload", "coverage", empty}},
		{"empty stdin", nil, []string{"upload", "coverage", "-"}},
		{"no commit", map[string]string{"GITHUB_SHA": ""}, []string{"upload", "coverage", report}},
		{"sarif without branch", map[string]string{"GITHUB_REF": "refs/tags/v1"}, []string{"upload", "sarif", report}},
		{"sarif bad time", nil, []string{"upload", "sarif", report, "--analyzed-at", "yesterday"}},
		{"analysis without stats", nil, []string{"upload", "analysis"}},
		{"analysis unknown stats field", nil, []string{"upload", "analysis", "--stats", badStats}},
		{"analysis broken SARIF", nil, []string{"upload", "analysis", "--stats", goodStats, "--sarif", badSARIF}},
		{"analysis full-tree value apart", nil, []string{"upload", "analysis", "--stats", goodStats, "--full-tree", "false"}},
		{"build no verb", nil, []string{"build"}},
		{"build start without type", nil, []string{"build", "start"}},
		{"build finish without status", nil, []string{"build", "finish", "b1"}},
		{"build finish with a running status", nil, []string{"build", "finish", "b1", "--status", "running"}},
		{"build finish bad exit code", nil, []string{"build", "finish", "b1", "--exit-code", "x"}},
		{"build status without id", nil, []string{"build", "status", "--status", "running"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := map[string]string{}
			for k, v := range ghPush {
				env[k] = v
			}
			for k, v := range c.env {
				env[k] = v
			}
			res := runCLI(t, srv, env, "", c.args...)
			if res.code != 2 {
				t.Errorf("exit %d (%v), want 2", res.code, res.err)
			}
		})
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("usage errors sent %d requests", n)
	}
}

// isTerminal: a character device that is not a terminal (/dev/null, where a
// redirected stderr often goes), a file and a writer that is not a file are
// not terminals.
func TestIsTerminalNotDevNull(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for name, w := range map[string]io.Writer{"/dev/null": null, "a file": file, "a buffer": &strings.Builder{}} {
		if isTerminal(w) {
			t.Errorf("%s is taken for a terminal", name)
		}
	}
}

// The progress bar is drawn on stderr only when it is a terminal, and never
// in CI or on a dumb terminal even then.
func TestProgressBarOnlyOnATerminal(t *testing.T) {
	big := strings.Repeat("DA:1,1\n", (progress.MinBytes*3/2)/7)
	report := writeFile(t, "big.info", "SF:a.js\n"+big+"end_of_record\n")
	for _, c := range progressCases {
		t.Run(c.name, func(t *testing.T) {
			srv := newFakeIngest(t, coverageOK)
			args := []string{"upload", "coverage", report, "--commit", shaA}
			testHooks(t)
			stderrIsTerminal = func(io.Writer) bool { return c.terminal }
			vars := map[string]string{"PLUMB_TOKEN": testToken, "PLUMB_PROJECT": "acme/web", "PLUMB_URL": srv.URL}
			for k, v := range c.env {
				vars[k] = v
			}
			var stdout, stderr bytes.Buffer
			if err := run(context.Background(), args, envOf(vars), nil, &stdout, &stderr); err != nil {
				t.Fatal(err)
			}
			drawn := strings.Contains(stderr.String(), "\r")
			if drawn != c.want {
				t.Errorf("progress bar drawn: %v, want %v; stderr %q", drawn, c.want, stderr.String())
			}
			if c.want && !strings.Contains(stderr.String(), "100%  1.5 MiB / 1.5 MiB") {
				t.Errorf("final progress line missing: %q", stderr.String())
			}
			if strings.Contains(stdout.String(), "\r") {
				t.Errorf("progress on stdout")
			}
		})
	}
	// A small file has no bar, even on a terminal.
	srv := newFakeIngest(t, coverageOK)
	testHooks(t)
	stderrIsTerminal = func(io.Writer) bool { return true }
	var stderr bytes.Buffer
	small := writeFile(t, "small.info", lcov)
	vars := map[string]string{"PLUMB_TOKEN": testToken, "PLUMB_PROJECT": "acme/web", "PLUMB_URL": srv.URL}
	if err := run(context.Background(), []string{"upload", "coverage", small, "--commit", shaA}, envOf(vars), nil, io.Discard, &stderr); err != nil || stderr.Len() != 0 {
		t.Errorf("small file: %v, stderr %q", err, stderr.String())
	}
}

var snapshotOK = fakeReply{status: 201, body: `{"id":"s1","commitSha":"` + shaA + `","branch":"main","analyzedAt":"2026-03-01T12:00:00Z","issues":4,"current":true}`}

// Each SARIF file is its own upload, with its own Idempotency-Key.
func TestUploadSARIF(t *testing.T) {
	srv := newFakeIngest(t, snapshotOK)
	a := writeFile(t, "a.sarif", `{"version":"2.1.0","runs":[]}`)
	b := writeFile(t, "b.sarif", `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}}}]}`)
	res := runCLI(t, srv, ghPush, "", "upload", "sarif", a, b, "--analyzed-at", "2026-03-01T12:00:00Z", "--repo-root", "/src", "--strip-prefix", "x/")
	if res.err != nil {
		t.Fatal(res.err)
	}
	reqs := srv.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	for i, f := range []string{a, b} {
		r := reqs[i]
		content, _ := os.ReadFile(f)
		if r.Path != "/ingest/gh/acme/projects/web/sarif" || !bytes.Equal(r.Body, content) {
			t.Errorf("request %d: %s %q", i, r.Path, r.Body)
		}
		want := url.Values{"commitSha": {shaA}, "branch": {"main"}, "analyzedAt": {"2026-03-01T12:00:00Z"}, "repoRoot": {"/src"}, "stripPrefix": {"x/"}}
		if fmt.Sprint(r.Query) != fmt.Sprint(want) {
			t.Errorf("request %d query %v", i, r.Query)
		}
	}
	if reqs[0].Header.Get("Idempotency-Key") == reqs[1].Header.Get("Idempotency-Key") {
		t.Error("two files share an Idempotency-Key")
	}
	if lines := strings.Split(strings.TrimSpace(res.stdout), "\n"); len(lines) != 2 || !strings.Contains(lines[1], "4 issues, commit 111111111111 on main") {
		t.Errorf("stdout %q", res.stdout)
	}
}

// An analysis is one JSON document: the commit, the stats file's lists (in
// either shape) and the SARIF files, sent gzip-compressed as JSON.
func TestUploadAnalysis(t *testing.T) {
	sarif := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"lint"}},"results":[]}]}`
	sarifFile := writeFile(t, "lint.sarif", "\xef\xbb\xbf"+sarif+"\n")
	for _, c := range []struct {
		name, stats string
		files       int
		removed     []string
	}{
		{"object", `{"removed":["old.go"],"files":[{"path":"a.go","lines":10,"loc":8,"complexity":2,"duplicatedLines":0},{"path":"b.go","lines":5}]}`, 2, []string{"old.go"}},
		{"array", `[{"path":"a.go","lines":10,"loc":8,"complexity":2,"duplicatedLines":0}]`, 1, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := newFakeIngest(t, snapshotOK)
			stats := writeFile(t, "stats.json", c.stats)
			res := runCLI(t, srv, ghPush, "", "upload", "analysis", "--stats", stats, "--sarif", sarifFile, "--sarif", sarifFile,
				"--full-tree=false", "--analyzed-at", "2026-03-01T12:00:00Z", "--strip-prefix", "src/")
			if res.err != nil {
				t.Fatalf("%v\n%s", res.err, res.stderr)
			}
			r := srv.requests()[0]
			if r.Path != "/ingest/gh/acme/projects/web/analyses" || r.Header.Get("Content-Type") != "application/json" ||
				r.Header.Get("Content-Encoding") != "gzip" || r.Query.Get("stripPrefix") != "src/" {
				t.Errorf("request %s %v %v", r.Path, r.Header, r.Query)
			}
			var got struct {
				CommitSHA  string            `json:"commitSha"`
				Branch     string            `json:"branch"`
				AnalyzedAt string            `json:"analyzedAt"`
				FullTree   *bool             `json:"fullTree"`
				Files      []analysis.File   `json:"files"`
				Removed    []string          `json:"removed"`
				SARIF      []json.RawMessage `json:"sarif"`
			}
			dec := json.NewDecoder(bytes.NewReader(r.Body))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&got); err != nil {
				t.Fatalf("body %s: %v", r.Body, err)
			}
			if got.CommitSHA != shaA || got.Branch != "main" || got.AnalyzedAt != "2026-03-01T12:00:00Z" || got.FullTree == nil || *got.FullTree {
				t.Errorf("head %+v", got)
			}
			if len(got.Files) != c.files || got.Files[0] != (analysis.File{Path: "a.go", Lines: 10, LOC: 8, Complexity: 2}) || fmt.Sprint(got.Removed) != fmt.Sprint(c.removed) {
				t.Errorf("files %+v removed %v", got.Files, got.Removed)
			}
			if len(got.SARIF) != 2 || string(got.SARIF[0]) != sarif {
				t.Errorf("sarif %s", got.SARIF)
			}
			if !strings.HasPrefix(res.stdout, fmt.Sprintf("uploaded analysis: %d files, %d removed, 2 SARIF file(s), 4 issues", c.files, len(c.removed))) {
				t.Errorf("stdout %q", res.stdout)
			}
		})
	}
}

var buildOK = fakeReply{status: 201, body: `{"id":"8f14e45f","type":"analysis","status":"submitted","branchName":"fix-bug","commitSha":"` + shaA + `"}`}

// build start prints the build id and nothing else; the pull request comes
// from the CI environment.
func TestBuildStartPrintsOnlyTheID(t *testing.T) {
	srv := newFakeIngest(t, buildOK)
	env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_SHA": shaA, "GITHUB_REF": "refs/pull/42/merge", "GITHUB_HEAD_REF": "fix-bug"}
	res := runCLI(t, srv, env, "", "build", "start", "--type", "analysis", "--message", "Fix the bug", "--committer", "octo", "--status", "running")
	if res.err != nil {
		t.Fatal(res.err)
	}
	if res.stdout != "8f14e45f\n" || res.stderr != "" {
		t.Errorf("stdout %q stderr %q, want only the id", res.stdout, res.stderr)
	}
	r := srv.requests()[0]
	if r.Path != "/ingest/gh/acme/projects/web/builds" || r.Header.Get("Content-Type") != "application/json" {
		t.Errorf("request %s %q", r.Path, r.Header.Get("Content-Type"))
	}
	var body map[string]any
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"type": "analysis", "branchName": "fix-bug", "commitSha": shaA, "commitMessage": "Fix the bug",
		"committerLogin": "octo", "pullRequestNumber": float64(42), "status": "running"}
	if fmt.Sprint(body) != fmt.Sprint(want) {
		t.Errorf("body\n got %v\nwant %v", body, want)
	}
}

// Creating a build is retried only when it surely did not happen: after a
// 503, not after a connection lost once the request was sent.
func TestBuildStartRetries(t *testing.T) {
	srv := newFakeIngest(t, errorReply(503, "busy"), buildOK)
	res := runCLI(t, srv, ghPush, "", "build", "start", "--type", "analysis")
	if res.err != nil || res.stdout != "8f14e45f\n" || len(srv.requests()) != 2 {
		t.Errorf("after a 503: %v, stdout %q, %d requests", res.err, res.stdout, len(srv.requests()))
	}

	var calls atomic.Int32
	drop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		io.ReadAll(r.Body)
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	defer drop.Close()
	res = runCLI(t, nil, map[string]string{"PLUMB_URL": drop.URL, "BUILDKITE": "true", "BUILDKITE_COMMIT": shaA, "BUILDKITE_BRANCH": "main"}, "",
		"build", "start", "--type", "analysis")
	if res.code != 3 || calls.Load() != 1 || !strings.Contains(res.err.Error(), "not retried") {
		t.Errorf("lost connection: exit %d, %d calls, %v", res.code, calls.Load(), res.err)
	}
	// An upload in the same situation is retried: its Idempotency-Key
	// makes a repeat harmless.
	report := writeFile(t, "lcov.info", lcov)
	res = runCLI(t, nil, map[string]string{"PLUMB_URL": drop.URL, "BUILDKITE": "true", "BUILDKITE_COMMIT": shaA, "BUILDKITE_BRANCH": "main"}, "",
		"upload", "coverage", report, "--retries", "1")
	if res.code != 3 || calls.Load() != 3 {
		t.Errorf("upload on a lost connection: exit %d, %d calls (want 1 + 2)", res.code, calls.Load())
	}
}

// build status and finish post the new status; an impossible transition
// (409) is a refusal.
func TestBuildStatusAndFinish(t *testing.T) {
	srv := newFakeIngest(t, fakeReply{status: 200, body: `{"id":"b1","status":"running"}`}, fakeReply{status: 200, body: `{"id":"b1","status":"failed"}`},
		errorReply(409, "Build b1 has ended (failed); its status can no longer change."),
		errorReply(409, "Build b1 has ended (failed); its status can no longer change."))
	res := runCLI(t, srv, nil, "", "build", "status", "b1", "--status", "running", "--reason", "picked up")
	if res.err != nil || res.stdout != "build b1 is running\n" {
		t.Errorf("status: %v, %q", res.err, res.stdout)
	}
	res = runCLI(t, srv, nil, "", "build", "finish", "b1", "--exit-code", "2")
	if res.err != nil || res.stdout != "build b1 is failed\n" {
		t.Errorf("finish: %v, %q", res.err, res.stdout)
	}
	res = runCLI(t, srv, nil, "", "build", "finish", "b1", "--status", "succeeded")
	if res.code != 1 || !strings.Contains(res.err.Error(), "409 Conflict: Build b1 has ended") {
		t.Errorf("conflict: exit %d, %v", res.code, res.err)
	}
	reqs := srv.requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	// Succeeding goes through running (a no-op for a running build; the 409
	// of an ended one is left to the final report).
	for i, want := range []string{`{"status":"running","statusReason":"picked up"}`, `{"status":"failed","exitCode":2}`, `{"status":"running"}`, `{"status":"succeeded"}`} {
		if reqs[i].Path != "/ingest/gh/acme/projects/web/builds/b1/status" || string(reqs[i].Body) != want {
			t.Errorf("request %d: %s %s, want %s", i, reqs[i].Path, reqs[i].Body, want)
		}
	}
}

// The pull request (--pr here; detected in CI otherwise) goes with the
// coverage upload, so refs/pull/<n> finds its commit.
func TestUploadCoverageSendsPullRequest(t *testing.T) {
	srv := newFakeIngest(t, coverageOK)
	report := writeFile(t, "lcov.info", lcov)
	res := runCLI(t, srv, ghPush, "", "upload", "coverage", report, "--pr", "42")
	if res.err != nil {
		t.Fatalf("upload: %v\nstderr: %s", res.err, res.stderr)
	}
	reqs := srv.requests()
	if len(reqs) != 1 || reqs[0].Query.Get("pullRequestNumber") != "42" {
		t.Fatalf("requests %+v, want one with pullRequestNumber=42", reqs)
	}
}

// The summary of an upload says what became of the snapshot: current, in the
// default branch's history behind a later one, or on another branch (where
// no later analysis is involved: issue 19 item 8).
func TestSnapshotResultDescribe(t *testing.T) {
	for _, c := range []struct {
		res  apiv1.Snapshot
		want string
	}{
		{apiv1.Snapshot{Issues: 3, CommitSHA: shaA, Branch: "main", AnalyzedAt: "2026-03-01T12:00:00Z", Current: true, History: true},
			"3 issues, commit 111111111111 on main, analysed at 2026-03-01T12:00:00Z"},
		{apiv1.Snapshot{Issues: 3, CommitSHA: shaA, Branch: "main", AnalyzedAt: "2026-03-01T12:00:00Z", History: true},
			"3 issues, commit 111111111111 on main, analysed at 2026-03-01T12:00:00Z; a later analysis of the branch stays current, this one joins the history at its time"},
		{apiv1.Snapshot{Issues: 1, CommitSHA: shaA, Branch: "fix-bug", AnalyzedAt: "2026-03-01T12:00:00Z"},
			"1 issues, commit 111111111111 on fix-bug, analysed at 2026-03-01T12:00:00Z; not the default branch: kept for pull requests and comparisons, the project's current state unchanged"},
	} {
		if got := describe(c.res); got != c.want {
			t.Errorf("%+v:\n got %s\nwant %s", c.res, got, c.want)
		}
	}
}
