package main

// The connection to a server: the flags of the commands that call one, the
// client (package client) they make, and how its errors become exit
// statuses and messages that name the flags to check.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/plumbhq/plumb/cienv"
	"github.com/plumbhq/plumb/client"
	"github.com/plumbhq/plumb/internal/progress"
	"golang.org/x/term"
)

// Exit statuses of the commands that call a server (usage errors are 2).
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

// Hooks that tests replace.
var (
	stderrIsTerminal = isTerminal
	ciGitDir         = "" // where detection runs git; "" is the current directory
	// testClientOptions are added to every client's options (tests make
	// the retries sleep-free with them).
	testClientOptions []client.Option
)

// connFlags are the flags that reach a project's ingestion endpoints:
// server, token, project, --timeout and --retries.
type connFlags struct {
	URL     string        `name:"url" placeholder:"URL" default:"http://127.0.0.1:8080" penv:"PLUMB_URL" help:"Server URL (default ${default})."`
	Token   string        `name:"token" placeholder:"TOKEN" penv:"PLUMB_TOKEN" help:"A project admin's API token or the project's upload token (plbu_…); required."`
	Project string        `name:"project" placeholder:"WORKSPACE/PROJECT" penv:"PLUMB_PROJECT" help:"The project; required."`
	Timeout time.Duration `name:"timeout" placeholder:"DURATION" default:"10m" help:"Longest ${timeoutScope=the command} may take, retries included; 0: no limit (default ${default})."`
	Retries int           `name:"retries" placeholder:"N" default:"5" help:"Retries on network errors, 429 (after Retry-After) and 502/503/504, with exponential back-off; every retry sends the same Idempotency-Key (default ${default})."`
}

// client checks the connection flags and returns a client of the project.
func (o *connFlags) client(getenv func(string) string, stderr io.Writer) (*client.Project, error) {
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
	cl, err := newClient(o.URL, o.Token, o.Retries, o.Timeout, getenv, stderr)
	if err != nil {
		return nil, err
	}
	return cl.Project(ws, proj), nil
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

// newClient checks the server URL, retries and timeout flags, and returns a
// client that notes its retries on stderr and draws progress bars there on
// a terminal. (--timeout is applied by the commands, to the context: it
// bounds the command, or each request of analyze.)
func newClient(rawURL, token string, retries int, timeout time.Duration, getenv func(string) string, stderr io.Writer) (*client.Client, error) {
	if retries < 0 {
		return nil, usageError{fmt.Sprintf("--retries must be 0 or more, got %d", retries)}
	}
	if timeout < 0 {
		return nil, usageError{fmt.Sprintf("--timeout must be 0 (no limit) or a positive duration such as 10m, got %s", timeout)}
	}
	opts := []client.Option{
		client.WithRetries(retries),
		client.WithUserAgent("plumb-cli"),
		client.WithRetryNotify(func(r client.Retry) {
			fmt.Fprintf(stderr, "plumb: %s: %s; retrying in %s (retry %d of %d)\n", r.Op, r.Problem, r.Wait.Round(100*time.Millisecond), r.Retry, r.Retries)
		}),
	}
	if showProgress(getenv, stderr) {
		opts = append(opts, client.WithProgress(progress.Uploads(stderr)))
	}
	cl, err := client.New(rawURL, token, append(opts, testClientOptions...)...)
	switch {
	case errors.Is(err, client.ErrBaseURL):
		shown := "an invalid URL"
		if u, err := url.Parse(strings.TrimSpace(rawURL)); err == nil {
			shown = fmt.Sprintf("%q", u.Redacted())
		}
		return nil, usageError{fmt.Sprintf("--url (PLUMB_URL) must be the server's http(s) URL such as https://plumb.example.com, got %s", shown)}
	case err != nil:
		return nil, usageError{err.Error()}
	}
	return cl, nil
}

// callError is a client's error as the CLI reports it: its exit status,
// and the flags to check.
func callError(err error) error {
	var content *client.ContentError
	var refusal *client.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &content):
		return usageError{err.Error()}
	case errors.As(err, &refusal):
		switch st := refusal.StatusCode; {
		case st >= 300 && st < 400:
			return &exitError{exitRefused, err.Error() + "; set --url (PLUMB_URL) to the final address"}
		case st < 500:
			return &exitError{exitRefused, err.Error() + hint(st)}
		}
	case errors.Is(err, context.DeadlineExceeded):
		return &exitError{exitGaveUp, err.Error() + " (--timeout)"}
	}
	return &exitError{exitGaveUp, err.Error()}
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

// showProgress says whether progress may be drawn on stderr: a terminal,
// not a dumb one, outside CI (whose logs would keep every frame).
func showProgress(getenv func(string) string, stderr io.Writer) bool {
	inCI := getenv("CI") != "" || cienv.DetectEnv(getenv).Provider != ""
	return stderrIsTerminal(stderr) && !inCI && getenv("TERM") != "dumb"
}

// isTerminal: w is a terminal (not merely a character device such as
// /dev/null, which would swallow every frame of a progress bar).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
