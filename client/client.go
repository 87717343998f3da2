// Package client is Plumb's Go API client: it uploads coverage reports,
// SARIF files and analyses, reports builds, sends a pull request's change,
// asks for the quality gate, manages upload tokens and reads the token's
// user, workspaces and projects, through a Plumb server's HTTP API.
//
// Make a client with the server's URL and a token, then call its methods;
// the ingestion endpoints (uploads, builds, changes, the gate, upload
// tokens) belong to one project:
//
//	c, err := client.New("https://plumb.example.com", os.Getenv("PLUMB_TOKEN"))
//	if err != nil { … }
//	report, err := client.File("cover.out")
//	if err != nil { … }
//	up, err := c.Project("acme", "web").UploadCoverage(ctx, report, client.CoverageOptions{CommitSHA: sha, Branch: "main"})
//
// The results are the API's own objects, defined once in package
// [github.com/plumbhq/plumb/api/apiv1] and written by the server from the
// same types.
//
// # Retries
//
// A call is retried, with the same Idempotency-Key on every attempt, on
// network errors, 429 Too Many Requests and 503 Service Unavailable (after
// the Retry-After the server gives, else after an exponential back-off with
// jitter), and on 502 and 504 when repeating it is harmless. Uploads are
// retry-safe: the server stores their Idempotency-Key and answers a repeat
// with the first answer. Creating a build or an upload token is not: it is
// retried only when the attempt surely did not reach the server. The
// context's deadline bounds a call with its retries; [WithTimeout] sets one
// per call. [WithRetries] sets how many retries a call may make.
//
// # Errors
//
// A refusal of the server (any answer other than 2xx that is not retried) is
// an [*Error] carrying the status and the API's error body. A failure to
// read an upload's content on this side is a [*ContentError]. Any other
// error means the call failed without an answer to act on: the retries were
// used up, the deadline passed (errors.Is(err, context.DeadlineExceeded)),
// or the network failed in a way that is not safe to retry. The token never
// appears in an error's text.
//
// The package imports no part of the server: not api, sqlstore or web.
package client

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/plumbhq/plumb/api/apiv1"

	"github.com/plumbhq/plumb/internal/wait"
)

// Client calls one Plumb server with one token. It is safe for concurrent
// use; its options are set once, by [New].
type Client struct {
	base      string // the server's URL, without a trailing slash
	token     string
	http      *http.Client
	retries   int
	timeout   time.Duration
	backoff   func(retry int) time.Duration
	sleep     func(ctx context.Context, d time.Duration) error
	onRetry   func(Retry)
	progress  func(Progress)
	userAgent string
}

// Option configures a [Client] made by [New].
type Option func(*Client)

// WithHTTPClient sends the requests with h instead of a client of the
// package's own. The package's own follows no redirect (a redirect would
// send an upload elsewhere): it reports one as an [*Error].
func WithHTTPClient(h *http.Client) Option { return func(c *Client) { c.http = h } }

// WithRetries sets how many times a call is retried after its first
// attempt (default 3; 0: never).
func WithRetries(n int) Option { return func(c *Client) { c.retries = n } }

// WithTimeout bounds each call, its retries and their waits included, by d
// (default: no bound but the context's).
func WithTimeout(d time.Duration) Option { return func(c *Client) { c.timeout = d } }

// WithBackoff sets the wait before retry n (1 for the first retry) when the
// server does not give one in Retry-After. The default is
// Exponential(time.Second, 30*time.Second, nil).
func WithBackoff(f func(retry int) time.Duration) Option { return func(c *Client) { c.backoff = f } }

// WithSleep replaces the wait between attempts: f must wait d or until ctx
// ends, and return ctx.Err() in the latter case. Tests use it to record the
// waits instead of sleeping.
func WithSleep(f func(ctx context.Context, d time.Duration) error) Option {
	return func(c *Client) { c.sleep = f }
}

// WithRetryNotify calls f before each retry's wait, for a log line.
func WithRetryNotify(f func(Retry)) Option { return func(c *Client) { c.onRetry = f } }

// WithProgress calls f as an upload's content is sent: once when an
// attempt starts (Sent 0), as the content is read, and once when the attempt
// is over (Done). A retry starts again from 0. f is called from one
// goroutine at a time.
func WithProgress(f func(Progress)) Option { return func(c *Client) { c.progress = f } }

// WithUserAgent sets the User-Agent header (default "plumb-go-client"). It
// also starts the Idempotency-Keys the client makes.
func WithUserAgent(ua string) Option { return func(c *Client) { c.userAgent = ua } }

// Retry tells a [WithRetryNotify] function of a retry to come.
type Retry struct {
	Op      string        // what is being asked: "coverage report cover.out"
	Problem string        // why the attempt failed: "503 Service Unavailable: busy"
	Wait    time.Duration // the wait before the retry
	Retry   int           // 1 for the first retry
	Retries int           // the most retries the call may make
}

// Progress tells a [WithProgress] function how far an upload's content is.
type Progress struct {
	Name  string // the content's name (Content.Name)
	Sent  int64  // bytes of the content read so far, before compression
	Total int64  // the content's size (Content.Size); 0 when unknown
	Done  bool   // the attempt is over, sent or not
}

// ErrBaseURL is the error of [New] for a server URL that is not an http or
// https URL with a host, or that has a query or a fragment.
var ErrBaseURL = errors.New("client: the server URL must be an http(s) URL such as https://plumb.example.com, without query or fragment")

// ErrToken is the error of [New] for an empty token or one holding spaces or
// control characters.
var ErrToken = errors.New("client: the token is empty or holds spaces or control characters")

// New returns a client of the server at baseURL (its root: "https://plumb.example.com",
// or a path prefix the server is served under), sending token as a bearer
// token.
func New(baseURL, token string, opts ...Option) (*Client, error) {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, ErrBaseURL
	}
	token = strings.TrimSpace(token)
	if token == "" || strings.IndexFunc(token, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0 {
		return nil, ErrToken
	}
	c := &Client{
		base:    strings.TrimRight(u.String(), "/"),
		token:   token,
		retries: 3,
		http: &http.Client{
			Transport: http.DefaultTransport.(*http.Transport).Clone(),
			// A redirect would resend the upload elsewhere; say so instead.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		backoff:   Exponential(time.Second, 30*time.Second, nil),
		sleep:     wait.Sleep,
		userAgent: "plumb-go-client",
	}
	for _, o := range opts {
		o(c)
	}
	if c.retries < 0 {
		return nil, fmt.Errorf("client: retries must be 0 or more, got %d", c.retries)
	}
	if c.timeout < 0 {
		return nil, fmt.Errorf("client: the timeout must be 0 (none) or positive, got %s", c.timeout)
	}
	return c, nil
}

// Error is the server's refusal of a call: an answer that is not 2xx and
// that the client does not retry (or no longer retries: see the package
// doc). A 3xx is an Error too, since the client follows no redirect.
type Error struct {
	Op         string              // what was asked: "coverage report cover.out"
	StatusCode int                 // the HTTP status
	Errors     []apiv1.ErrorObject // the API's error body; empty when the body was not one
	Location   string              // the Location header of a redirect
}

// Error says what was refused and why: "the server refused coverage report
// cover.out: 400 Bad Request: Query parameter format has the unknown value
// "lcov2".".
func (e *Error) Error() string {
	st := e.StatusCode
	switch {
	case st >= 300 && st < 400:
		return fmt.Sprintf("%s: the server answered %d %s, redirecting to %q", e.Op, st, http.StatusText(st), e.Location)
	case st < 500:
		return fmt.Sprintf("the server refused %s: %s", e.Op, e.Problem())
	}
	return fmt.Sprintf("%s failed on the server: %s", e.Op, e.Problem())
}

// Problem is the status and the details of the error body:
// "404 Not Found: Project "web" was not found.".
func (e *Error) Problem() string {
	msg := fmt.Sprintf("%d %s", e.StatusCode, http.StatusText(e.StatusCode))
	var details []string
	for _, o := range e.Errors {
		if d := cmp.Or(strings.TrimSpace(o.Detail), strings.TrimSpace(o.Title)); d != "" {
			details = append(details, d)
		}
	}
	if len(details) > 0 {
		return msg + ": " + strings.Join(details, "; ")
	}
	return msg
}

// ContentError is a failure to produce an upload's content on this side (a
// file that cannot be read): the server stored nothing.
type ContentError struct {
	Op  string // the call: "coverage report cover.out"
	Err error
}

// Error says what could not be read and why.
func (e *ContentError) Error() string { return fmt.Sprintf("reading %s: %v", e.Op, e.Err) }

// Unwrap returns the cause.
func (e *ContentError) Unwrap() error { return e.Err }

// Exponential returns a back-off: the wait before retry n is base·2ⁿ⁻¹,
// capped at most, with jitter over its upper half (jitter returns a number
// in [0, 1); nil is math/rand/v2's Float64).
func Exponential(base, most time.Duration, jitter func() float64) func(retry int) time.Duration {
	if jitter == nil {
		jitter = randFloat
	}
	return func(n int) time.Duration {
		d := most
		if n < 16 {
			d = min(base<<(max(n, 1)-1), most)
		}
		return d/2 + time.Duration(jitter()*float64(d/2))
	}
}

// idempotencyKey makes a key for the attempts of one call.
func (c *Client) idempotencyKey() string { return c.userAgent + "-" + rand.Text() }
