package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/plumbhq/plumb/internal/proctest"
	"github.com/plumbhq/plumb/internal/testtool"
)

// The variables naming the shared test servers (as in CI).
const (
	postgresEnv = "PLUMB_TEST_POSTGRES_URL"
	redisEnv    = "PLUMB_TEST_REDIS_URL"
)

var (
	tmpRoot    string // removed after the tests
	buildOnce  sync.Once
	binaryPath string
	buildErr   error
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "plumb-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	tmpRoot = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// plumbBinary builds ./cmd/plumb once per test run and returns its path.
func plumbBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		binaryPath = filepath.Join(tmpRoot, "plumb")
		buildErr = proctest.BuildPlumb(binaryPath)
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binaryPath
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// plumbCmd runs one plumb command (an administration command, say) to
// completion and returns its standard output.
func plumbCmd(t *testing.T, args ...string) string {
	t.Helper()
	return proctest.Run(t, 30*time.Second, plumbBinary(t), args...)
}

// tenant is what the administration commands set up: a user who is admin of
// workspace acme with project acme/web (Components enabled), and tokens.
type tenant struct {
	Workspace, Project string
	Tokens             map[string]token // by name
}

type token struct{ ID, Secret string }

var tokenLine = regexp.MustCompile(`created token (\S+) \(([^)]+)\); it is shown only now:\n(\S+)`)

// setUp creates the tenant through the CLI on the database dsn, with one
// token per name.
func setUp(t *testing.T, dsn string, tokenNames ...string) tenant {
	t.Helper()
	db := "--database=" + dsn
	plumbCmd(t, "user", "create", "alice", "--name", "Alice Example", db)
	ten := tenant{Workspace: "acme", Project: "web", Tokens: map[string]token{}}
	for _, name := range tokenNames {
		out := plumbCmd(t, "token", "create", "alice", "--name", name, db)
		m := tokenLine.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("plumb token create: unexpected output %q", out)
		}
		ten.Tokens[name] = token{ID: m[2], Secret: m[3]}
	}
	plumbCmd(t, "workspace", "create", ten.Workspace, db)
	plumbCmd(t, "member", "add", ten.Workspace, "alice", "--role", "admin", db)
	plumbCmd(t, "project", "create", ten.Workspace+"/"+ten.Project, "--components", db)
	return ten
}

// server is one running "plumb serve" process.
type server struct {
	*proctest.Process
	name string
	base string // http://127.0.0.1:port

	stopOnce sync.Once
}

// startServer starts "plumb serve" on a free loopback port with the given
// flags, waits until /healthz answers, and stops it (checking for a graceful
// exit) when t ends. Its log is shown when t fails.
func startServer(t *testing.T, name string, flags ...string) *server {
	t.Helper()
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--log-level", "info"}, flags...)
	cmd := exec.Command(plumbBinary(t), args...)
	cmd.Env = proctest.Env()
	proctest.DieWithTest(cmd)
	p, err := proctest.Start(name, cmd)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	s := &server{Process: p, name: name}
	t.Cleanup(func() {
		s.stop(t)
		if t.Failed() {
			t.Logf("log of %s:\n%s", name, s.Log.String())
		}
	})
	m, err := p.WaitLog(proctest.Listening, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	s.base = "http://" + m[1]
	if err := p.WaitHTTP(s.base+"/healthz", 30*time.Second); err != nil {
		t.Fatal(err)
	}
	return s
}

// stop sends SIGTERM and checks that the server exits 0 within 15 seconds
// (it is killed otherwise).
func (s *server) stop(t *testing.T) {
	t.Helper()
	s.stopOnce.Do(func() {
		if s.Exited() {
			t.Errorf("%s: plumb serve exited by itself: %v", s.name, s.Err)
			return
		}
		err := s.Stop(syscall.SIGTERM, 15*time.Second)
		switch {
		case errors.Is(err, proctest.ErrKilled):
			t.Errorf("%s: plumb serve did not exit within 15 s of SIGTERM; killed", s.name)
		case err != nil:
			t.Errorf("%s: plumb serve did not exit cleanly after SIGTERM: %v", s.name, err)
		case !strings.Contains(s.Log.String(), `msg=stopped`):
			t.Errorf("%s: plumb serve exited without logging \"stopped\"", s.name)
		}
	})
}

// lines returns the server's log lines for which keep is true.
func (s *server) lines(keep func(line string) bool) []string {
	var out []string
	for _, line := range strings.Split(s.Log.String(), "\n") {
		if line != "" && keep(line) {
			out = append(out, line)
		}
	}
	return out
}

// count is the number of log lines of the server containing sub.
func (s *server) count(sub string) int {
	return len(s.lines(func(line string) bool { return strings.Contains(line, sub) }))
}

// waitCount waits up to two seconds (the log reaches the test through a
// pipe) for n log lines containing sub, and returns the count it saw last.
func (s *server) waitCount(sub string, n int) int {
	var got int
	waitFor(2*time.Second, func() bool { got = s.count(sub); return got >= n })
	return got
}

var client = &http.Client{
	Timeout:   15 * time.Second,
	Transport: &http.Transport{MaxIdleConnsPerHost: 32, Proxy: nil},
}

// response is a whole HTTP response.
type response struct {
	Status   int
	Header   http.Header
	Body     []byte
	Duration time.Duration
}

// call sends one request (body, if any, as JSON) with the token's secret.
func call(method, url, secret, body string) (response, error) {
	return callWith(method, url, secret, body, nil)
}

// callWith is call with more request headers.
func callWith(method, url, secret, body string, header http.Header) (response, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return response{}, err
	}
	if secret != "" {
		req.Header.Set("Authorization", "Bearer "+secret)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header[k] = v
	}
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return response{Duration: time.Since(start)}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return response{Status: resp.StatusCode, Header: resp.Header, Body: b, Duration: time.Since(start)}, err
}

// mustCall is call that fails the test on a transport error or a status other
// than want.
func mustCall(t *testing.T, want int, method, url, secret, body string) response {
	t.Helper()
	r, err := call(method, url, secret, body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	if r.Status != want {
		t.Fatalf("%s %s: status %d, want %d; body %s", method, url, r.Status, want, r.Body)
	}
	return r
}

// decode unmarshals a JSON body into v, failing the test otherwise.
func decode(t *testing.T, r response, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("body %q: %v", r.Body, err)
	}
}

// errorDoc is the spec's error body.
type errorDoc struct {
	Errors []struct {
		Status string `json:"status"`
		Title  string `json:"title"`
		Detail string `json:"detail"`
	} `json:"errors"`
}

// checkErrorBody reports what is wrong with r as an error response of the
// given status: JSON, with at least one error object carrying the status, the
// reason phrase and a detail.
func checkErrorBody(r response, status int) error {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return fmt.Errorf("Content-Type %q, want application/json", ct)
	}
	var doc errorDoc
	dec := json.NewDecoder(bytes.NewReader(r.Body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return fmt.Errorf("error body %q: %v", r.Body, err)
	}
	if len(doc.Errors) == 0 {
		return fmt.Errorf("error body %q has no error object", r.Body)
	}
	for _, e := range doc.Errors {
		if e.Status != strconv.Itoa(status) || e.Title != http.StatusText(status) || e.Detail == "" {
			return fmt.Errorf("error object %+v, want status %q, title %q and a detail", e, strconv.Itoa(status), http.StatusText(status))
		}
	}
	return nil
}

// rateHeaders are the five x-ratelimit-* headers of a response.
type rateHeaders struct {
	Limit, Remaining, Used int
	Reset                  int64
}

func parseRateHeaders(r response) (rateHeaders, error) {
	var h rateHeaders
	if got := r.Header.Get("x-ratelimit-resource"); got != "core" {
		return h, fmt.Errorf("x-ratelimit-resource %q, want core", got)
	}
	for _, f := range []struct {
		name string
		dst  *int
	}{{"x-ratelimit-limit", &h.Limit}, {"x-ratelimit-remaining", &h.Remaining}, {"x-ratelimit-used", &h.Used}} {
		n, err := strconv.Atoi(r.Header.Get(f.name))
		if err != nil {
			return h, fmt.Errorf("%s %q: %v", f.name, r.Header.Get(f.name), err)
		}
		*f.dst = n
	}
	n, err := strconv.ParseInt(r.Header.Get("x-ratelimit-reset"), 10, 64)
	if err != nil {
		return h, fmt.Errorf("x-ratelimit-reset %q: %v", r.Header.Get("x-ratelimit-reset"), err)
	}
	h.Reset = n
	if h.Remaining != h.Limit-h.Used && !(h.Used >= h.Limit && h.Remaining == 0) {
		return h, fmt.Errorf("rate-limit headers %+v do not add up", h)
	}
	return h, nil
}

func mustRateHeaders(t *testing.T, r response) rateHeaders {
	t.Helper()
	h, err := parseRateHeaders(r)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// readyDoc is the body of a 200 from /readyz.
type readyDoc struct {
	Status string            `json:"status"`
	Checks map[string]string `json:"checks"`
}

// ready is the server's /readyz, which must answer 200 with the status
// ready and the database ok (the test stops otherwise); when names the
// moment for the failure.
func (s *server) ready(t *testing.T, when string) readyDoc {
	t.Helper()
	r := mustCall(t, http.StatusOK, "GET", s.base+"/readyz", "", "")
	var d readyDoc
	decode(t, r, &d)
	if d.Status != "ready" || d.Checks["database"] != "ok" {
		t.Fatalf("%s /readyz%s: %s", s.name, when, r.Body)
	}
	return d
}

// waitFor polls cond every 50 ms until it is true or d has passed, and
// reports whether it became true.
func waitFor(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// redisServer is a throwaway redis-server on a loopback port, without
// persistence.
type redisServer struct {
	*proctest.Process
	port int
}

// redisServerPath returns the redis-server binary, or ends t with
// testtool.Missing.
func redisServerPath(t *testing.T) string {
	t.Helper()
	return testtool.Need(t, "redis-server", "install Redis (apt-get install -y redis-server) to run this test")
}

// startRedis starts redis-server on port (0: a free one) and waits until it
// answers PING. It is killed when t ends.
func startRedis(t *testing.T, port int) *redisServer {
	t.Helper()
	bin := redisServerPath(t)
	if port == 0 {
		port = proctest.FreePort(t)
	}
	cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--daemonize", "no", "--dir", t.TempDir())
	proctest.DieWithTest(cmd)
	p, err := proctest.Start("redis-server", cmd)
	if err != nil {
		t.Fatal(err)
	}
	r := &redisServer{Process: p, port: port}
	t.Cleanup(func() {
		r.Kill()
		if t.Failed() {
			t.Logf("log of redis-server on port %d:\n%s", port, r.Log.String())
		}
	})
	if !waitFor(10*time.Second, func() bool { return redisPing(port) == nil }) {
		t.Fatalf("redis-server on port %d does not answer PING: %v\n%s", port, redisPing(port), r.Log.String())
	}
	return r
}

func (r *redisServer) url(db int) string { return fmt.Sprintf("redis://127.0.0.1:%d/%d", r.port, db) }

// redisPing sends PING to the Redis on port.
func redisPing(port int) error {
	c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return err
	}
	buf := make([]byte, 16)
	n, err := c.Read(buf)
	if err != nil {
		return err
	}
	if !strings.HasPrefix(string(buf[:n]), "+PONG") {
		return errors.New("unexpected answer " + strconv.Quote(string(buf[:n])))
	}
	return nil
}
