package main

// The CI client: plumb upload coverage|sarif|analysis and plumb build
// start|status|finish send reports and build states to a running server's
// ingestion endpoints (/ingest/gh/{workspace}/projects/{project}/…).

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	mathrand "math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/plumbhq/plumb/cienv"
	"github.com/plumbhq/plumb/ingest/analysis"
)

// Exit statuses of the upload and build commands (usage errors are 2).
const (
	exitRefused = 1 // the server refused the request (4xx other than 429)
	exitGaveUp  = 3 // retries used up, timed out, network failure or server error (5xx)
)

// exitError is a failure with its own exit status.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }
func (e *exitError) ExitCode() int { return e.code }

const (
	retryBase     = time.Second      // first back-off
	retryCap      = 30 * time.Second // longest back-off
	retryAfterCap = 60 * time.Second // longest wait a Retry-After header may ask for
	// Files at least this large get a progress bar (on a terminal only).
	progressMinBytes = 1 << 20
)

// Hooks that tests replace.
var (
	stderrIsTerminal = isTerminal
	retrySleep       = sleepContext
	retryJitter      = mathrand.Float64
	ciGitDir         = "" // where detection runs git; "" is the current directory
)

// showProgress says whether progress may be drawn on stderr: a terminal,
// not a dumb one, outside CI (whose logs would keep every frame).
func showProgress(getenv func(string) string, stderr io.Writer) bool {
	inCI := getenv("CI") != "" || cienv.DetectEnv(getenv).Provider != ""
	return stderrIsTerminal(stderr) && !inCI && getenv("TERM") != "dumb"
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// connFlags are the flags that reach a project's ingestion endpoints:
// server, token, project, --timeout and --retries.
type connFlags struct {
	URL     string        `name:"url" placeholder:"URL" default:"http://127.0.0.1:8080" penv:"PLUMB_URL" help:"Server URL (default ${default})."`
	Token   string        `name:"token" placeholder:"TOKEN" penv:"PLUMB_TOKEN" help:"A project admin's API token or the project's upload token (plbu_…); required."`
	Project string        `name:"project" placeholder:"WORKSPACE/PROJECT" penv:"PLUMB_PROJECT" help:"The project; required."`
	Timeout time.Duration `name:"timeout" placeholder:"DURATION" default:"10m" help:"Longest ${timeoutScope=the command} may take, retries included; 0: no limit (default ${default})."`
	Retries int           `name:"retries" placeholder:"N" default:"5" help:"Retries on network errors, 429 (after Retry-After) and 502/503/504, with exponential back-off; every retry sends the same Idempotency-Key (default ${default})."`
}

// commitFlags name the commit a report or build is about; each defaults to
// what the CI or git says.
type commitFlags struct {
	Commit string `name:"commit" commit:"" placeholder:"SHA" help:"Commit SHA (default: detected)."`
	Branch string `name:"branch" commit:"" placeholder:"BRANCH" help:"Branch (default: detected)."`
	Tag    string `name:"tag" commit:"" placeholder:"TAG" help:"Git tag (default: detected)."`
	PR     string `name:"pr" commit:"" placeholder:"N" help:"Pull request number (default: detected)."`
}

// client checks the connection flags and returns a client for the project.
func (o *connFlags) client(getenv func(string) string, stderr io.Writer) (*client, error) {
	if err := checkToken(o.Token, "a project admin's API token or the project's upload token"); err != nil {
		return nil, err
	}
	ws, proj, ok := strings.Cut(strings.TrimSpace(o.Project), "/")
	if !ok || ws == "" || proj == "" || strings.Contains(proj, "/") {
		if o.Project == "" {
			return nil, usageError{"no project: set PLUMB_PROJECT (or pass --project) to WORKSPACE/PROJECT"}
		}
		return nil, usageError{fmt.Sprintf("name the project as WORKSPACE/PROJECT, got %q", o.Project)}
	}
	return newClient(o.URL, o.Token, o.Retries, o.Timeout, "/ingest/gh/"+url.PathEscape(ws)+"/projects/"+url.PathEscape(proj), getenv, stderr)
}

// checkToken refuses an empty token or one with spaces; what says which
// token the command needs.
func checkToken(token, what string) error {
	token = strings.TrimSpace(token)
	if token == "" {
		return usageError{"no token: set PLUMB_TOKEN (or pass --token) to " + what}
	}
	if strings.IndexFunc(token, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0 {
		return usageError{"the token contains spaces or control characters; check PLUMB_TOKEN or --token"}
	}
	return nil
}

// newClient checks the server URL, retries and timeout, and returns a client
// whose requests go below the server's URL + path.
func newClient(rawURL, token string, retries int, timeout time.Duration, path string, getenv func(string) string, stderr io.Writer) (*client, error) {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		shown := "an invalid URL"
		if err == nil {
			shown = fmt.Sprintf("%q", u.Redacted())
		}
		return nil, usageError{fmt.Sprintf("--url (PLUMB_URL) must be the server's http(s) URL such as https://plumb.example.com, got %s", shown)}
	}
	if retries < 0 {
		return nil, usageError{fmt.Sprintf("--retries must be 0 or more, got %d", retries)}
	}
	if timeout < 0 {
		return nil, usageError{fmt.Sprintf("--timeout must be 0 (no limit) or a positive duration such as 10m, got %s", timeout)}
	}
	return &client{
		base:    strings.TrimRight(u.String(), "/") + path,
		token:   strings.TrimSpace(token),
		retries: retries,
		http: &http.Client{
			Transport: http.DefaultTransport.(*http.Transport).Clone(),
			// A redirect would resend the upload elsewhere; say so instead.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		stderr:   stderr,
		progress: showProgress(getenv, stderr),
	}, nil
}

// withTimeout applies --timeout to ctx.
func (o *connFlags) withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return withTimeout(ctx, o.Timeout)
}

// withTimeout bounds ctx by a --timeout value; 0 is no limit.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d == 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d)
}

// resolve detects the commit, branch, tag and pull request, lets the flags
// override them, and checks that there is a commit.
func (o *commitFlags) resolve(getenv func(string) string) (cienv.Info, error) {
	info := cienv.Detect(getenv, ciGitDir)
	if c := strings.TrimSpace(o.Commit); c != "" {
		if !cienv.SameCommit(c, info.Commit) {
			info.Tag = "" // the detected tag names another commit
		}
		info.Commit = c
	}
	if o.Branch != "" {
		info.Branch = strings.TrimPrefix(o.Branch, "refs/heads/")
	}
	if o.Tag != "" {
		info.Tag = strings.TrimPrefix(o.Tag, "refs/tags/")
	}
	if o.PR != "" {
		n := cienv.PullRequestNumber(strings.TrimPrefix(o.PR, "#"))
		if n == 0 {
			return info, usageError{fmt.Sprintf("--pr must be a pull request number, got %q", o.PR)}
		}
		info.PullRequest = n
	}
	if info.Commit == "" {
		return info, usageError{"could not tell which commit this is: pass --commit, or run in a git checkout or on a supported CI (GitHub Actions, GitLab CI, CircleCI, Buildkite, Jenkins, Azure Pipelines, Bitbucket Pipelines, Travis CI, Drone, Woodpecker)"}
	}
	if len(info.Commit) < 7 || len(info.Commit) > 64 || strings.Trim(strings.ToLower(info.Commit), "0123456789abcdef") != "" {
		return info, usageError{fmt.Sprintf("the commit must be a SHA of 7 to 64 hex digits, got %q", info.Commit)}
	}
	info.Commit = strings.ToLower(info.Commit)
	return info, nil
}

// needBranch is the usage error for a command that needs the branch.
func needBranch(info cienv.Info, what string) error {
	if info.Branch != "" {
		return nil
	}
	return usageError{fmt.Sprintf("could not tell the branch of commit %s, which %s needs: pass --branch", short(info.Commit), what)}
}

// client sends requests to one project's ingestion endpoints, with retries.
type client struct {
	base     string
	token    string
	retries  int
	http     *http.Client
	stderr   io.Writer
	progress bool // draw progress bars on stderr
}

// bodyFunc writes a request body, once per attempt. It reads its files
// through src, which counts the bytes for the progress bar.
type bodyFunc func(w io.Writer, src func(io.Reader) io.Reader) error

// request is one logical call; do sends it, retrying as needed.
type request struct {
	method      string // POST when empty
	what        string // for messages: "coverage report cov.out"
	endpoint    string // below the project: "/coverage"
	query       url.Values
	contentType string
	data        []byte   // a small body sent as is, or
	body        bodyFunc // a body streamed through a pipe
	gzip        bool     // compress the streamed body
	total       int64    // bytes body reads from files, for the progress bar
	label       string   // the progress bar's label
	// retrySafe: sending the request again is harmless, even when an
	// earlier attempt may have reached the server (the server keeps the
	// Idempotency-Key of uploads; a build status report is a no-op when
	// repeated). A request that is not retry-safe is retried only when it
	// surely did not take effect.
	retrySafe bool
	// keyed: the server stores the Idempotency-Key, so a 409 after an
	// attempt with an unknown outcome means that attempt is still running.
	keyed bool
}

// result is the outcome of one attempt.
type result struct {
	status int
	header http.Header
	body   []byte
	err    error // the request did not complete (network)
	local  error // reading the files to send failed
}

// sendError marks a failure to write the request body (the transport went
// away), as opposed to a failure to read the files.
type sendError struct{ err error }

func (e *sendError) Error() string { return e.err.Error() }
func (e *sendError) Unwrap() error { return e.err }

type sendWriter struct{ w io.Writer }

func (s sendWriter) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	if err != nil {
		err = &sendError{err}
	}
	return n, err
}

var errAttemptOver = errors.New("attempt over")

// do sends r, retrying on network errors, 429 and 502/503/504 with
// exponential back-off and jitter, and decodes a 2xx JSON answer into out.
// Every attempt carries the same Idempotency-Key.
func (c *client) do(ctx context.Context, r *request, out any) error {
	key := "plumb-cli-" + rand.Text()
	target := c.base + r.endpoint
	if len(r.query) > 0 {
		target += "?" + r.query.Encode()
	}
	ambiguous := false // an earlier attempt may have reached the server
	for attempt := 1; ; attempt++ {
		res := c.attempt(ctx, r, target, key)
		if res.local != nil {
			return usageError{c.redact(fmt.Sprintf("reading %s: %v", r.what, res.local))}
		}
		if err := ctx.Err(); err != nil {
			return c.stopped(r, err)
		}
		var problem string
		wait := time.Duration(-1) // -1: back off exponentially
		switch st := res.status; {
		case res.err != nil:
			problem = res.err.Error()
			if !r.retrySafe && !isDialError(res.err) {
				return &exitError{exitGaveUp, c.redact(fmt.Sprintf("%s failed: %s; not retried, since the server may have acted on it", r.what, problem))}
			}
			ambiguous = true
		case st >= 200 && st < 300:
			if out != nil {
				if err := json.Unmarshal(res.body, out); err != nil {
					return &exitError{exitGaveUp, fmt.Sprintf("%s: the server answered %d with a body that is not the expected JSON: %v", r.what, st, err)}
				}
			}
			return nil
		case st == http.StatusTooManyRequests, st == http.StatusServiceUnavailable,
			r.retrySafe && (st == http.StatusBadGateway || st == http.StatusGatewayTimeout),
			st == http.StatusConflict && r.keyed && ambiguous:
			problem = serverProblem(st, res.body)
			wait = retryAfter(res.header)
			if st == http.StatusBadGateway || st == http.StatusGatewayTimeout {
				ambiguous = true // a proxy gave up; the server may still be at it
			}
		case st >= 300 && st < 400:
			return &exitError{exitRefused, fmt.Sprintf("%s: the server answered %d %s, redirecting to %q; set --url (PLUMB_URL) to the final address",
				r.what, st, http.StatusText(st), res.header.Get("Location"))}
		case st < 500:
			return &exitError{exitRefused, c.redact(fmt.Sprintf("the server refused %s: %s%s", r.what, serverProblem(st, res.body), hint(st)))}
		default:
			return &exitError{exitGaveUp, c.redact(fmt.Sprintf("%s failed on the server: %s", r.what, serverProblem(st, res.body)))}
		}
		if attempt > c.retries {
			return &exitError{exitGaveUp, c.redact(fmt.Sprintf("gave up on %s after %d attempt(s): %s", r.what, attempt, problem))}
		}
		if wait < 0 {
			wait = backoff(attempt)
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			return &exitError{exitGaveUp, c.redact(fmt.Sprintf("gave up on %s: %s, and the next try (in %s) would pass --timeout", r.what, problem, wait.Round(time.Second)))}
		}
		fmt.Fprintf(c.stderr, "plumb: %s: %s; retrying in %s (retry %d of %d)\n", r.what, c.redact(problem), wait.Round(100*time.Millisecond), attempt, c.retries)
		if err := retrySleep(ctx, wait); err != nil {
			return c.stopped(r, err)
		}
	}
}

func (c *client) stopped(r *request, err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return &exitError{exitGaveUp, fmt.Sprintf("%s: timed out (--timeout)", r.what)}
	}
	return &exitError{exitGaveUp, fmt.Sprintf("%s: interrupted", r.what)}
}

// redact removes the token from a message, should the server or a library
// ever echo it.
func (c *client) redact(s string) string {
	if len(c.token) >= 8 {
		s = strings.ReplaceAll(s, c.token, "[token]")
	}
	return s
}

// attempt sends r once.
func (c *client) attempt(ctx context.Context, r *request, target, key string) result {
	var body io.Reader
	var pr *io.PipeReader
	var done chan struct{}
	var local error
	var bar *progressBar
	switch {
	case r.body != nil:
		if c.progress && r.total >= progressMinBytes {
			bar = newProgressBar(c.stderr, r.label, r.total)
		}
		var pw *io.PipeWriter
		pr, pw = io.Pipe()
		done = make(chan struct{})
		go func() {
			defer close(done)
			err := writeBody(pw, r, bar)
			var se *sendError
			if err != nil && !errors.As(err, &se) {
				local = err
			}
			pw.CloseWithError(err)
		}()
		body = pr
	case r.data != nil:
		body = bytes.NewReader(r.data)
	}
	req, err := http.NewRequestWithContext(ctx, firstOf(r.method, http.MethodPost), target, body)
	if err != nil {
		if pr != nil {
			pr.CloseWithError(errAttemptOver)
			<-done
		}
		return result{err: err}
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "plumb-cli")
	if r.retrySafe {
		// Not on a request that is not retry-safe: the server ignores the
		// key there, and Go's transport would take it as leave to replay.
		req.Header.Set("Idempotency-Key", key)
	}
	if r.contentType != "" {
		req.Header.Set("Content-Type", r.contentType)
	}
	if r.gzip {
		req.Header.Set("Content-Encoding", "gzip")
	}
	var res result
	resp, err := c.http.Do(req)
	if err != nil {
		res.err = err
	} else {
		res.status, res.header = resp.StatusCode, resp.Header
		res.body, err = io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		if err != nil {
			res = result{err: fmt.Errorf("reading the answer: %w", err)}
		}
	}
	if pr != nil {
		pr.CloseWithError(errAttemptOver) // stops the writer if the server answered early
		<-done
		res.local = local
	}
	if bar != nil {
		bar.finish()
	}
	return res
}

func writeBody(pw io.Writer, r *request, bar *progressBar) error {
	var w io.Writer = sendWriter{pw}
	var zw *gzip.Writer
	if r.gzip {
		// The fastest level: reports are repetitive text that compresses
		// well anyway, and CPU time would otherwise bound the upload.
		zw, _ = gzip.NewWriterLevel(w, gzip.BestSpeed)
		w = zw
	}
	src := func(rd io.Reader) io.Reader { return &countReader{r: rd, bar: bar} }
	if err := r.body(w, src); err != nil {
		return err
	}
	if zw != nil {
		return zw.Close()
	}
	return nil
}

type countReader struct {
	r   io.Reader
	bar *progressBar
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if n > 0 && c.bar != nil {
		c.bar.add(n)
	}
	return n, err
}

func isDialError(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// backoff is the wait before retry n (1-based): exponential from retryBase,
// capped at retryCap, with jitter over its upper half.
func backoff(n int) time.Duration {
	d := retryCap
	if n < 16 {
		d = min(retryBase<<(n-1), retryCap)
	}
	return d/2 + time.Duration(retryJitter()*float64(d/2))
}

// retryAfter reads a Retry-After header (seconds or an HTTP date), capped at
// retryAfterCap; -1 when there is none.
func retryAfter(h http.Header) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return -1
	}
	var d time.Duration
	if n, err := strconv.Atoi(v); err == nil {
		d = time.Duration(max(n, 0)) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = max(time.Until(t), 0)
	} else {
		return -1
	}
	return min(d, retryAfterCap)
}

// serverProblem is an error answer as text: the status and the details of
// the JSON error body.
func serverProblem(status int, body []byte) string {
	msg := fmt.Sprintf("%d %s", status, http.StatusText(status))
	var eb struct {
		Errors []struct {
			Title  string `json:"title"`
			Detail string `json:"detail"`
		} `json:"errors"`
	}
	if json.Unmarshal(body, &eb) == nil {
		var details []string
		for _, e := range eb.Errors {
			if d := firstOf(strings.TrimSpace(e.Detail), strings.TrimSpace(e.Title)); d != "" {
				details = append(details, d)
			}
		}
		if len(details) > 0 {
			return msg + ": " + strings.Join(details, "; ")
		}
	}
	return msg
}

func hint(status int) string {
	switch status {
	case http.StatusUnauthorized:
		return " (check the token in PLUMB_TOKEN or --token)"
	case http.StatusNotFound:
		return " (check --project and --url)"
	}
	return ""
}

// progressBar draws "label [=====     ] 42%  4.2 MiB / 10.0 MiB  1.3 MiB/s"
// on one terminal line.
type progressBar struct {
	w            io.Writer
	label        string
	total, sent  int64
	start, drawn time.Time
	width        int
}

func newProgressBar(w io.Writer, label string, total int64) *progressBar {
	now := time.Now()
	p := &progressBar{w: w, label: label, total: total, start: now}
	p.draw(now)
	return p
}

func (p *progressBar) add(n int) {
	p.sent += int64(n)
	if now := time.Now(); now.Sub(p.drawn) >= 150*time.Millisecond || p.sent >= p.total {
		p.draw(now)
	}
}

func (p *progressBar) finish() {
	p.draw(time.Now())
	fmt.Fprintln(p.w)
}

func (p *progressBar) draw(now time.Time) {
	p.drawn = now
	frac := 1.0
	if p.total > 0 {
		frac = min(1, float64(p.sent)/float64(p.total))
	}
	const width = 30
	fill := int(frac * width)
	rate := float64(p.sent) / max(now.Sub(p.start).Seconds(), 1e-3)
	line := fmt.Sprintf("%s [%s%s] %3.0f%%  %s / %s  %s/s", p.label, strings.Repeat("=", fill), strings.Repeat(" ", width-fill),
		frac*100, humanBytes(float64(p.sent)), humanBytes(float64(p.total)), humanBytes(rate))
	pad := ""
	if len(line) < p.width {
		pad = strings.Repeat(" ", p.width-len(line))
	}
	p.width = len(line)
	fmt.Fprint(p.w, "\r"+line+pad)
}

func humanBytes(n float64) string {
	if n < 1024 {
		return fmt.Sprintf("%.0f B", n)
	}
	const units = "KMGTP"
	i := -1
	for n >= 1024 && i < len(units)-1 {
		n /= 1024
		i++
	}
	return fmt.Sprintf("%.1f %ciB", n, units[i])
}

// inputs opens the files named on the command line. "-" (stdin) and other
// streams that cannot be read twice, such as pipes, are first copied to a
// temporary file, so that every attempt re-reads the same bytes.
type inputs struct {
	stdin     io.Reader
	usedStdin bool
	temps     []string
}

type inputFile struct {
	path, name string
	size       int64
}

func (in *inputs) open(arg, what string) (inputFile, error) {
	if arg == "-" {
		if in.usedStdin {
			return inputFile{}, usageError{"stdin ('-') can be read only once"}
		}
		in.usedStdin = true
		if in.stdin == nil {
			return inputFile{}, usageError{"no stdin to read"}
		}
		return in.spool(in.stdin, "stdin", what)
	}
	f, err := os.Open(arg)
	if err != nil {
		return inputFile{}, usageError{fmt.Sprintf("cannot read the %s: %v", what, err)}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return inputFile{}, usageError{fmt.Sprintf("cannot read the %s: %v", what, err)}
	}
	if st.IsDir() {
		return inputFile{}, usageError{fmt.Sprintf("the %s %s is a directory", what, arg)}
	}
	if !st.Mode().IsRegular() {
		return in.spool(f, arg, what)
	}
	if st.Size() == 0 {
		return inputFile{}, usageError{fmt.Sprintf("the %s %s is empty", what, arg)}
	}
	return inputFile{path: arg, name: arg, size: st.Size()}, nil
}

func (in *inputs) spool(r io.Reader, name, what string) (inputFile, error) {
	tmp, err := os.CreateTemp("", "plumb-upload-*")
	if err != nil {
		return inputFile{}, usageError{fmt.Sprintf("buffering the %s from %s: %v", what, name, err)}
	}
	in.temps = append(in.temps, tmp.Name())
	n, err := io.Copy(tmp, r)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return inputFile{}, usageError{fmt.Sprintf("buffering the %s from %s: %v", what, name, err)}
	}
	if n == 0 {
		return inputFile{}, usageError{fmt.Sprintf("the %s from %s is empty", what, name)}
	}
	return inputFile{path: tmp.Name(), name: name, size: n}, nil
}

func (in *inputs) cleanup() {
	for _, p := range in.temps {
		os.Remove(p)
	}
}

// fileBody streams a file as it is.
func fileBody(path string) bodyFunc {
	return func(w io.Writer, src func(io.Reader) io.Reader) error {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.CopyBuffer(w, src(f), make([]byte, 64<<10))
		return err
	}
}

func setIf(q url.Values, name, value string) {
	if value != "" {
		q.Set(name, value)
	}
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

// onRef describes where a commit is: " on main", " (tag v1.2)".
func onRef(branch, tag string) string {
	var s string
	if branch != "" {
		s = " on " + branch
	}
	if tag != "" {
		s += " (tag " + tag + ")"
	}
	return s
}

func checkAnalyzedAt(s string) error { return checkTimeFlag("--analyzed-at", s) }

// checkTimeFlag checks an optional RFC 3339 date-time flag.
func checkTimeFlag(flag, s string) error {
	if s == "" {
		return nil
	}
	if _, err := time.Parse(time.RFC3339, s); err != nil {
		return usageError{fmt.Sprintf("%s must be an RFC 3339 date-time such as 2026-03-01T12:00:00Z, got %q", flag, s)}
	}
	return nil
}

type coverageResult struct {
	ID           string `json:"id"`
	CommitSHA    string `json:"commitSha"`
	Branch       string `json:"branch"`
	Tag          string `json:"tag"`
	CoverageTag  string `json:"coverageTag"`
	Format       string `json:"format"`
	Files        int    `json:"files"`
	CoveredLines int64  `json:"coveredLines"`
	MissedLines  int64  `json:"missedLines"`
}

// uploadCoverage sends one coverage report.
func uploadCoverage(ctx context.Context, e *runEnv, c *uploadCoverageCmd) error {
	o, getenv, stderr, stdout := &c.Conn, e.getenv, e.stderr, e.stdout
	in := &inputs{stdin: e.stdin}
	defer in.cleanup()
	if err := checkTimeFlag("--uploaded-at", c.UploadedAt); err != nil {
		return err
	}
	cl, err := o.client(getenv, stderr)
	if err != nil {
		return err
	}
	file, err := in.open(c.File, "coverage report")
	if err != nil {
		return err
	}
	info, err := c.Commit.resolve(getenv)
	if err != nil {
		return err
	}
	q := url.Values{}
	q.Set("commitSha", info.Commit)
	setIf(q, "branch", info.Branch)
	setIf(q, "tag", info.Tag)
	setIf(q, "coverageTag", c.CoverageTag)
	setIf(q, "uploadedAt", c.UploadedAt)
	if info.PullRequest > 0 {
		q.Set("pullRequestNumber", strconv.Itoa(info.PullRequest))
	}
	setIf(q, "format", c.Format)
	setIf(q, "stripPrefix", c.StripPrefix)
	setIf(q, "addPrefix", c.AddPrefix)
	module := c.ModulePath
	if module == "" {
		// Go cover profiles name files by import path: the module path of
		// the go.mod in the working directory makes them repository-relative.
		module = goModulePath("go.mod")
	}
	setIf(q, "modulePath", module)
	ctx, cancel := o.withTimeout(ctx)
	defer cancel()
	var res coverageResult
	err = cl.do(ctx, &request{what: "coverage report " + file.name, endpoint: "/coverage", query: q, contentType: "application/octet-stream",
		body: fileBody(file.path), gzip: true, total: file.size, label: file.name, retrySafe: true, keyed: true}, &res)
	if err != nil {
		return err
	}
	pct := ""
	if all := res.CoveredLines + res.MissedLines; all > 0 {
		pct = fmt.Sprintf(" (%.1f%%)", 100*float64(res.CoveredLines)/float64(all))
	}
	fmt.Fprintf(stdout, "uploaded %s: %d files, %d covered / %d missed lines%s, format %s, commit %s%s\n",
		file.name, res.Files, res.CoveredLines, res.MissedLines, pct, res.Format, short(res.CommitSHA), onRef(res.Branch, res.Tag))
	sendChange(ctx, cl, info, c.Change, stderr)
	return nil
}

type snapshotResult struct {
	ID         string         `json:"id"`
	CommitSHA  string         `json:"commitSha"`
	Branch     string         `json:"branch"`
	AnalyzedAt string         `json:"analyzedAt"`
	Issues     int            `json:"issues"`
	Current    bool           `json:"current"`
	History    bool           `json:"history"`
	Kept       map[string]int `json:"keptIssues"`
	Replaced   map[string]int `json:"replacedIssues"`
}

// describe is the summary line of a SARIF or analysis upload. Only the
// default branch has a current state and a history (history is true for
// every default-branch snapshot): a snapshot of another branch (a pull
// request's, a feature branch's) is neither, whatever came before it.
func (s snapshotResult) describe() string {
	cur := ""
	switch {
	case !s.Current && s.History:
		cur = "; a later analysis of the branch stays current, this one joins the history at its time"
	case !s.Current:
		cur = "; not the default branch: kept for pull requests and comparisons, the project's current state unchanged"
	}
	return fmt.Sprintf("%d issues, commit %s on %s, analysed at %s%s%s%s", s.Issues, short(s.CommitSHA), s.Branch, s.AnalyzedAt, cur,
		toolCounts("; kept from the commit's earlier upload", s.Kept), toolCounts("; replaced", s.Replaced))
}

// toolCounts writes "label: 3 issues of gosec, 1 of staticcheck" (tools in
// name order), or nothing for none.
func toolCounts(label string, m map[string]int) string {
	if len(m) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(label + ": ")
	for i, tool := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b.WriteString(", ")
		}
		unit := "issues"
		if m[tool] == 1 {
			unit = "issue"
		}
		fmt.Fprintf(&b, "%d %s of %s", m[tool], unit, tool)
	}
	return b.String()
}

// pathFlags are the path-mapping flags of SARIF and analysis uploads.
type pathFlags struct {
	StripPrefix string `name:"strip-prefix" placeholder:"PREFIX" help:"Prefix removed from paths."`
	AddPrefix   string `name:"add-prefix" placeholder:"PREFIX" help:"Prefix added to paths."`
	RepoRoot    string `name:"repo-root" placeholder:"DIR" help:"Checkout directory that absolute SARIF paths are relative to."`
}

func (p *pathFlags) set(q url.Values) {
	setIf(q, "stripPrefix", p.StripPrefix)
	setIf(q, "addPrefix", p.AddPrefix)
	setIf(q, "repoRoot", p.RepoRoot)
}

// uploadSARIF sends SARIF files, one upload each.
func uploadSARIF(ctx context.Context, e *runEnv, c *uploadSARIFCmd) error {
	o, getenv, stderr, stdout := &c.Conn, e.getenv, e.stderr, e.stdout
	in := &inputs{stdin: e.stdin}
	defer in.cleanup()
	if err := checkAnalyzedAt(c.AnalyzedAt); err != nil {
		return err
	}
	cl, err := o.client(getenv, stderr)
	if err != nil {
		return err
	}
	var files []inputFile
	for _, p := range c.Files {
		f, err := in.open(p, "SARIF file")
		if err != nil {
			return err
		}
		files = append(files, f)
	}
	info, err := c.Commit.resolve(getenv)
	if err != nil {
		return err
	}
	if err := needBranch(info, "a SARIF upload"); err != nil {
		return err
	}
	q := url.Values{}
	q.Set("commitSha", info.Commit)
	q.Set("branch", info.Branch)
	setIf(q, "analyzedAt", c.AnalyzedAt)
	c.Paths.set(q)
	ctx, cancel := o.withTimeout(ctx)
	defer cancel()
	for _, f := range files {
		var res snapshotResult
		err := cl.do(ctx, &request{what: "SARIF file " + f.name, endpoint: "/sarif", query: q, contentType: "application/json",
			body: fileBody(f.path), gzip: true, total: f.size, label: f.name, retrySafe: true, keyed: true}, &res)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "uploaded %s: %s\n", f.name, res.describe())
	}
	return nil
}

// checkSARIF reads a SARIF file as a stream of JSON tokens: it must be one
// JSON object and nothing more.
func checkSARIF(r io.Reader) error {
	dec := json.NewDecoder(skipBOM(r))
	t, err := dec.Token()
	if err != nil {
		return fmt.Errorf("not JSON: %v", err)
	}
	if t != json.Delim('{') {
		return errors.New("not a SARIF document: it must be a JSON object")
	}
	for depth := 1; depth > 0; {
		t, err := dec.Token()
		if err != nil {
			return fmt.Errorf("not JSON: %v", err)
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("unexpected data after the JSON document")
	}
	return nil
}

// skipBOM drops a leading UTF-8 byte order mark.
func skipBOM(r io.Reader) io.Reader {
	br := bufio.NewReaderSize(r, 64<<10)
	if b, err := br.Peek(3); err == nil && bytes.Equal(b, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
	}
	return br
}

func checkFile(f inputFile, what string, check func(io.Reader) error) error {
	rd, err := os.Open(f.path)
	if err != nil {
		return usageError{fmt.Sprintf("cannot read the %s: %v", what, err)}
	}
	defer rd.Close()
	if err := check(rd); err != nil {
		return usageError{fmt.Sprintf("the %s %s: %v", what, f.name, err)}
	}
	return nil
}

type analysisHead struct {
	CommitSHA  string `json:"commitSha"`
	Branch     string `json:"branch"`
	AnalyzedAt string `json:"analyzedAt,omitempty"`
	FullTree   bool   `json:"fullTree"`
}

// analysisBody streams the analysis JSON: the head fields, the stats file's
// lists re-encoded element by element, and the SARIF files as they are.
func analysisBody(head analysisHead, stats string, sarifs []string) bodyFunc {
	return func(w io.Writer, src func(io.Reader) io.Reader) error {
		bw := bufio.NewWriterSize(w, 64<<10)
		b, err := json.Marshal(head)
		if err != nil {
			return err
		}
		bw.Write(b[:len(b)-1]) // without the closing brace
		f, err := os.Open(stats)
		if err != nil {
			return err
		}
		defer f.Close()
		n := 0
		item := func(v any) error {
			if n > 0 {
				bw.WriteByte(',')
			}
			n++
			b, err := json.Marshal(v)
			if err != nil {
				return err
			}
			_, err = bw.Write(b)
			return err
		}
		err = analysis.ReadStats(skipBOM(src(f)), analysis.Handler{
			List:    func(list string) error { n = 0; _, err := fmt.Fprintf(bw, ",%q:[", list); return err },
			File:    func(_ int, sf analysis.File) error { return item(sf) },
			Removed: func(_ int, p string) error { return item(p) },
			End:     func(string) error { return bw.WriteByte(']') },
		})
		if err != nil {
			return fmt.Errorf("%s: %w", stats, err)
		}
		bw.WriteString(`,"sarif":[`)
		if err := copySARIF(bw, sarifs, false, src); err != nil {
			return err
		}
		bw.WriteString("]}")
		return bw.Flush()
	}
}

// copySARIF writes SARIF files as they are, comma-separated (after a comma
// too when more says the list already has elements).
func copySARIF(bw *bufio.Writer, paths []string, more bool, src func(io.Reader) io.Reader) error {
	for i, p := range paths {
		if i > 0 || more {
			bw.WriteByte(',')
		}
		sf, err := os.Open(p)
		if err != nil {
			return err
		}
		_, err = io.Copy(bw, skipBOM(src(sf)))
		sf.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// uploadAnalysis sends an analysis: the stats file and SARIF files in one
// streamed document.
func uploadAnalysis(ctx context.Context, e *runEnv, c *uploadAnalysisCmd) error {
	o, getenv, stderr, stdout := &c.Conn, e.getenv, e.stderr, e.stdout
	in := &inputs{stdin: e.stdin}
	defer in.cleanup()
	if err := checkAnalyzedAt(c.AnalyzedAt); err != nil {
		return err
	}
	cl, err := o.client(getenv, stderr)
	if err != nil {
		return err
	}
	stats, err := in.open(c.Stats, "stats file")
	if err != nil {
		return err
	}
	nfiles, nremoved := 0, 0
	count := analysis.Handler{
		File:    func(int, analysis.File) error { nfiles++; return nil },
		Removed: func(int, string) error { nremoved++; return nil },
	}
	if err := checkFile(stats, "stats file", func(r io.Reader) error { return analysis.ReadStats(skipBOM(r), count) }); err != nil {
		return err
	}
	total := stats.size
	var sarifPaths []string
	for _, a := range c.SARIF {
		f, err := in.open(a, "SARIF file")
		if err != nil {
			return err
		}
		if err := checkFile(f, "SARIF file", checkSARIF); err != nil {
			return err
		}
		sarifPaths = append(sarifPaths, f.path)
		total += f.size
	}
	info, err := c.Commit.resolve(getenv)
	if err != nil {
		return err
	}
	if err := needBranch(info, "an analysis upload"); err != nil {
		return err
	}
	q := url.Values{}
	c.Paths.set(q)
	head := analysisHead{CommitSHA: info.Commit, Branch: info.Branch, AnalyzedAt: c.AnalyzedAt, FullTree: c.FullTree}
	ctx, cancel := o.withTimeout(ctx)
	defer cancel()
	var res snapshotResult
	err = cl.do(ctx, &request{what: "analysis", endpoint: "/analyses", query: q, contentType: "application/json",
		body: analysisBody(head, stats.path, sarifPaths), gzip: true, total: total, label: "analysis", retrySafe: true, keyed: true}, &res)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "uploaded analysis: %d files, %d removed, %d SARIF file(s), %s\n", nfiles, nremoved, len(sarifPaths), res.describe())
	sendChange(ctx, cl, info, c.Change, stderr)
	return nil
}

type buildResult struct {
	ID     string `json:"id"`
	Type   string `json:"type"`
	Status string `json:"status"`
}

// buildStart creates a build and prints only its id.
func buildStart(ctx context.Context, e *runEnv, c *buildStartCmd) error {
	o, getenv, stderr, stdout := &c.Conn, e.getenv, e.stderr, e.stdout
	var body struct {
		Type              string `json:"type"`
		BranchName        string `json:"branchName"`
		CommitSHA         string `json:"commitSha"`
		CommitMessage     string `json:"commitMessage,omitempty"`
		Source            string `json:"source,omitempty"`
		PullRequestNumber int    `json:"pullRequestNumber,omitempty"`
		CommitterLogin    string `json:"committerLogin,omitempty"`
		Status            string `json:"status,omitempty"`
	}
	body.Type, body.Status, body.CommitMessage, body.Source, body.CommitterLogin = c.Type, c.Status, c.Message, c.Source, c.Committer
	if body.Status == "" {
		body.Status = "running" // the job that starts the build is running
	}
	cl, err := o.client(getenv, stderr)
	if err != nil {
		return err
	}
	info, err := c.Commit.resolve(getenv)
	if err != nil {
		return err
	}
	if err := needBranch(info, "a build"); err != nil {
		return err
	}
	body.BranchName, body.CommitSHA, body.PullRequestNumber = info.Branch, info.Commit, info.PullRequest
	if body.CommitMessage == "" {
		body.CommitMessage = cienv.CommitMessage(getenv, ciGitDir, info.Commit)
	}
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	ctx, cancel := o.withTimeout(ctx)
	defer cancel()
	var b buildResult
	// Creating a build is not idempotent: it is retried only when it surely
	// did not happen (see request.retrySafe).
	if err := cl.do(ctx, &request{what: "the new build", endpoint: "/builds", contentType: "application/json", data: data}, &b); err != nil {
		return err
	}
	if b.ID == "" {
		return &exitError{exitGaveUp, "the new build: the server's answer has no build id"}
	}
	fmt.Fprintln(stdout, b.ID)
	return nil
}

var finalStatuses = []string{"succeeded", "failed", "skipped", "rejected"}

// buildStatus reports a build's status; finish (final) takes only the final
// statuses and makes one of --exit-code.
func buildStatus(ctx context.Context, e *runEnv, c *buildStatusCmd, final bool) error {
	o, getenv, stderr, stdout := &c.Conn, e.getenv, e.stderr, e.stdout
	status, reason, exitArg := c.Status, c.Reason, c.ExitCode
	verb, shape := "status", "ID --status running|starting|… [--reason R]"
	if final {
		verb, shape = "finish", "ID --status succeeded|failed|skipped|rejected [--exit-code N] [--reason R]"
	}
	if strings.TrimSpace(c.ID) == "" {
		return usageError{fmt.Sprintf("usage: plumb build %s %s", verb, shape)}
	}
	var body struct {
		Status       string  `json:"status"`
		StatusReason *string `json:"statusReason,omitempty"`
		ExitCode     *int    `json:"exitCode,omitempty"`
	}
	if exitArg != "" {
		n, err := strconv.Atoi(exitArg)
		if err != nil {
			return usageError{fmt.Sprintf("--exit-code must be an integer, got %q", exitArg)}
		}
		body.ExitCode = &n
	}
	if status == "" && final && body.ExitCode != nil {
		status = "failed"
		if *body.ExitCode == 0 {
			status = "succeeded"
		}
	}
	switch {
	case status == "":
		return usageError{fmt.Sprintf("usage: plumb build %s %s", verb, shape)}
	case final && !slices.Contains(finalStatuses, status):
		return usageError{fmt.Sprintf("build finish takes --status %s, got %q", strings.Join(finalStatuses, ", "), status)}
	}
	body.Status = status
	if reason != "" {
		body.StatusReason = &reason
	}
	cl, err := o.client(getenv, stderr)
	if err != nil {
		return err
	}
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	ctx, cancel := o.withTimeout(ctx)
	defer cancel()
	id := strings.TrimSpace(c.ID)
	endpoint := "/builds/" + url.PathEscape(id) + "/status"
	if final && status == "succeeded" {
		// A build succeeds from running: one still submitted or starting
		// (build start --status submitted, or a job that never said it was
		// running) is moved to running first. A build already running
		// takes this as a no-op; one that has ended answers 409, and the
		// final report below gives the answer (a no-op if it is the same).
		run := []byte(`{"status":"running"}`)
		err := cl.do(ctx, &request{what: "the status report of build " + id, endpoint: endpoint, contentType: "application/json", data: run, retrySafe: true}, nil)
		if err != nil && !isConflict(err) {
			return err
		}
	}
	var b buildResult
	// Reporting the status a build already has changes nothing, so a
	// repeat is safe.
	if err := cl.do(ctx, &request{what: "the status report of build " + id, endpoint: endpoint,
		contentType: "application/json", data: data, retrySafe: true}, &b); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "build %s is %s\n", firstOf(b.ID, id), firstOf(b.Status, status))
	return nil
}

// isConflict tells whether the server refused a request with 409 Conflict.
func isConflict(err error) bool {
	var e *exitError
	return errors.As(err, &e) && e.code == exitRefused && strings.Contains(e.msg, "409 Conflict")
}

// goModulePath returns the module path declared by a go.mod file, or "" when
// there is no such file or line.
func goModulePath(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}
