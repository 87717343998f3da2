package e2e

import (
	"bytes"
	"context"
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
		// go test puts its own toolchain's bin first on PATH.
		goTool := "go"
		if p, err := exec.LookPath("go"); err == nil {
			goTool = p
		}
		binaryPath = filepath.Join(tmpRoot, "plumb")
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, goTool, "build", "-o", binaryPath, "github.com/plumbhq/plumb/cmd/plumb")
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build ./cmd/plumb: %v\n%s", err, out)
		}
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

// childEnv is the environment of the processes the tests start: the test's
// own, without any PLUMB_* variable (the tests pass flags).
func childEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PLUMB_") {
			env = append(env, kv)
		}
	}
	return env
}

// syncBuffer is a bytes.Buffer safe for a process's writer goroutine and the
// test reading it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("free port: %v", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// plumbCmd runs one plumb command (an administration command, say) to
// completion and returns its standard output.
func plumbCmd(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, plumbBinary(t), args...)
	cmd.Env = childEnv()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("plumb %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
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
	name   string
	cmd    *exec.Cmd
	stderr *syncBuffer
	base   string // http://127.0.0.1:port
	exited chan struct{}
	err    error // the process's exit, once exited is closed

	stopOnce sync.Once
}

var listening = regexp.MustCompile(`msg="plumb listening" addr=(\S+)`)

// startServer starts "plumb serve" on a free loopback port with the given
// flags, waits until /healthz answers, and stops it (checking for a graceful
// exit) when t ends. Its log is shown when t fails.
func startServer(t *testing.T, name string, flags ...string) *server {
	t.Helper()
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--log-level", "info"}, flags...)
	cmd := exec.Command(plumbBinary(t), args...)
	cmd.Env = childEnv()
	s := &server{name: name, cmd: cmd, stderr: &syncBuffer{}, exited: make(chan struct{})}
	cmd.Stdout = s.stderr
	cmd.Stderr = s.stderr
	dieWithTest(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: start plumb serve: %v", name, err)
	}
	go func() {
		s.err = cmd.Wait()
		close(s.exited)
	}()
	t.Cleanup(func() {
		s.stop(t)
		if t.Failed() {
			t.Logf("log of %s:\n%s", name, s.stderr.String())
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for s.base == "" {
		if m := listening.FindStringSubmatch(s.stderr.String()); m != nil {
			s.base = "http://" + m[1]
			break
		}
		select {
		case <-s.exited:
			t.Fatalf("%s: plumb serve exited before listening (%v):\n%s", name, s.err, s.stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: plumb serve did not listen within 30 s:\n%s", name, s.stderr.String())
		}
	}
	for {
		resp, err := http.Get(s.base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: /healthz did not answer 200 within 30 s (%v)", name, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop sends SIGTERM and checks that the server exits 0 within 15 seconds
// (it is killed otherwise).
func (s *server) stop(t *testing.T) {
	t.Helper()
	s.stopOnce.Do(func() {
		select {
		case <-s.exited:
			t.Errorf("%s: plumb serve exited by itself: %v", s.name, s.err)
			return
		default:
		}
		if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Errorf("%s: SIGTERM: %v", s.name, err)
		}
		select {
		case <-s.exited:
			if s.err != nil {
				t.Errorf("%s: plumb serve did not exit cleanly after SIGTERM: %v", s.name, s.err)
			} else if !strings.Contains(s.stderr.String(), `msg=stopped`) {
				t.Errorf("%s: plumb serve exited without logging \"stopped\"", s.name)
			}
		case <-time.After(15 * time.Second):
			_ = s.cmd.Process.Kill()
			<-s.exited
			t.Errorf("%s: plumb serve did not exit within 15 s of SIGTERM; killed", s.name)
		}
	})
}

// lines returns the server's log lines for which keep is true.
func (s *server) lines(keep func(line string) bool) []string {
	var out []string
	for _, line := range strings.Split(s.stderr.String(), "\n") {
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
	port   int
	cmd    *exec.Cmd
	log    *syncBuffer
	exited chan struct{}
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
		port = freePort(t)
	}
	r := &redisServer{port: port, log: &syncBuffer{}, exited: make(chan struct{})}
	r.cmd = exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--daemonize", "no", "--dir", t.TempDir())
	r.cmd.Stdout, r.cmd.Stderr = r.log, r.log
	dieWithTest(r.cmd)
	if err := r.cmd.Start(); err != nil {
		t.Fatalf("start redis-server: %v", err)
	}
	go func() { _ = r.cmd.Wait(); close(r.exited) }()
	t.Cleanup(func() {
		r.kill()
		if t.Failed() {
			t.Logf("log of redis-server on port %d:\n%s", port, r.log.String())
		}
	})
	if !waitFor(10*time.Second, func() bool { return redisPing(port) == nil }) {
		t.Fatalf("redis-server on port %d does not answer PING: %v\n%s", port, redisPing(port), r.log.String())
	}
	return r
}

func (r *redisServer) url(db int) string { return fmt.Sprintf("redis://127.0.0.1:%d/%d", r.port, db) }

// kill stops redis-server at once (SIGKILL), as a crash would.
func (r *redisServer) kill() {
	select {
	case <-r.exited:
		return
	default:
	}
	_ = r.cmd.Process.Kill()
	<-r.exited
}

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
