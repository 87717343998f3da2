package client

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	mathrand "math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/plumbhq/plumb/api/apiv1"
)

// retryAfterCap is the longest wait a Retry-After header may ask for.
const retryAfterCap = 60 * time.Second

var randFloat = mathrand.Float64

// request is one call; do sends it, retrying as needed.
type request struct {
	method      string // POST when empty
	op          string // for messages: "coverage report cov.out"
	path        string // below the server's URL: "/ingest/gh/acme/projects/web/coverage"
	query       url.Values
	contentType string
	data        []byte   // a small body sent as is, or
	content     *Content // a body streamed through a pipe, gzip-compressed
	// retrySafe: sending the request again is harmless, even when an
	// earlier attempt may have reached the server (the server keeps the
	// Idempotency-Key of uploads; a build status report is a no-op when
	// repeated). A request that is not retry-safe is retried only when it
	// surely did not take effect.
	retrySafe bool
	// keyed: the server stores the Idempotency-Key, so a 409 after an
	// attempt with an unknown outcome means that attempt is still running.
	keyed bool
	// accept is the media type asked for (application/json when empty);
	// with another, out is a *[]byte that takes the body as it is, up to
	// maxBody bytes (1 MiB when 0).
	accept  string
	maxBody int64
}

// result is the outcome of one attempt.
type result struct {
	status int
	header http.Header
	body   []byte
	err    error // the request did not complete (network)
	local  error // producing the content failed
}

// sendError marks a failure to write the request body (the transport went
// away), as opposed to a failure to produce the content.
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
// back-off, and decodes a 2xx JSON answer into out. Every attempt carries
// the same Idempotency-Key.
func (c *Client) do(ctx context.Context, r *request, out any) error {
	ctx, cancel := c.bound(ctx)
	defer cancel()
	key := c.idempotencyKey()
	target := c.base + r.path
	if len(r.query) > 0 {
		target += "?" + r.query.Encode()
	}
	ambiguous := false // an earlier attempt may have reached the server
	for attempt := 1; ; attempt++ {
		res := c.attempt(ctx, r, target, key)
		if res.local != nil {
			return &ContentError{Op: r.op, Err: errors.New(c.redact(res.local.Error()))}
		}
		if err := ctx.Err(); err != nil {
			return stopped(r, err)
		}
		var problem string
		wait := time.Duration(-1) // -1: back off
		switch st := res.status; {
		case res.err != nil:
			problem = res.err.Error()
			if !r.retrySafe && !isDialError(res.err) {
				return fmt.Errorf("%s failed: %s; not retried, since the server may have acted on it", r.op, c.redact(problem))
			}
			ambiguous = true
		case st >= 200 && st < 300:
			if raw, ok := out.(*[]byte); ok {
				*raw = res.body
				return nil
			}
			if out != nil {
				if err := json.Unmarshal(res.body, out); err != nil {
					return fmt.Errorf("%s: the server answered %d with a body that is not the expected JSON: %v", r.op, st, err)
				}
			}
			return nil
		case st == http.StatusTooManyRequests, st == http.StatusServiceUnavailable,
			r.retrySafe && (st == http.StatusBadGateway || st == http.StatusGatewayTimeout),
			st == http.StatusConflict && r.keyed && ambiguous:
			problem = c.refusal(r, res).Problem()
			wait = retryAfter(res.header)
			if st == http.StatusBadGateway || st == http.StatusGatewayTimeout {
				ambiguous = true // a proxy gave up; the server may still be at it
			}
		default:
			return c.refusal(r, res)
		}
		if attempt > c.retries {
			return fmt.Errorf("gave up on %s after %d attempt(s): %s", r.op, attempt, c.redact(problem))
		}
		if wait < 0 {
			wait = c.backoff(attempt)
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			return &stopError{fmt.Sprintf("gave up on %s: %s, and the next try (in %s) would pass the deadline", r.op, c.redact(problem), wait.Round(time.Second)), context.DeadlineExceeded}
		}
		if c.onRetry != nil {
			c.onRetry(Retry{Op: r.op, Problem: c.redact(problem), Wait: wait, Retry: attempt, Retries: c.retries})
		}
		if err := c.sleep(ctx, wait); err != nil {
			return stopped(r, err)
		}
	}
}

// bound applies WithTimeout's bound to a call.
func (c *Client) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if c.timeout > 0 {
		return context.WithTimeout(ctx, c.timeout)
	}
	return ctx, func() {}
}

// refusal is the *Error of an answer, its texts without the token.
func (c *Client) refusal(r *request, res result) *Error {
	e := &Error{Op: r.op, StatusCode: res.status, Location: res.header.Get("Location")}
	var body apiv1.ErrorBody
	if json.Unmarshal(res.body, &body) == nil {
		for _, o := range body.Errors {
			o.Title, o.Detail = c.redact(o.Title), c.redact(o.Detail)
			e.Errors = append(e.Errors, o)
		}
	}
	return e
}

func stopped(r *request, err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return &stopError{r.op + ": timed out", err}
	}
	return &stopError{r.op + ": interrupted", err}
}

// stopError is a call stopped by its context: its text says so without the
// context's own words, and it unwraps to the context's error.
type stopError struct {
	msg string
	err error
}

func (e *stopError) Error() string { return e.msg }
func (e *stopError) Unwrap() error { return e.err }

// redact removes the token from a message, should the server or a library
// ever echo it.
func (c *Client) redact(s string) string {
	if len(c.token) >= 8 {
		s = strings.ReplaceAll(s, c.token, "[token]")
	}
	return s
}

// attempt sends r once.
func (c *Client) attempt(ctx context.Context, r *request, target, key string) result {
	var body io.Reader
	var pr *io.PipeReader
	var done chan struct{}
	var local error
	var sent int64 // content bytes read, for the progress reports
	switch {
	case r.content != nil:
		c.report(Progress{Name: r.content.Name, Total: r.content.Size})
		var pw *io.PipeWriter
		pr, pw = io.Pipe()
		done = make(chan struct{})
		go func() {
			defer close(done)
			err := c.writeContent(pw, r.content, &sent)
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
	method := r.method
	if method == "" {
		method = http.MethodPost
	}
	req, err := http.NewRequestWithContext(ctx, method, target, body)
	if err != nil {
		if pr != nil {
			pr.CloseWithError(errAttemptOver)
			<-done
			c.report(Progress{Name: r.content.Name, Total: r.content.Size, Done: true})
		}
		return result{err: err}
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	accept := r.accept
	if accept == "" {
		accept = "application/json"
	}
	req.Header.Set("Accept", accept)
	req.Header.Set("User-Agent", c.userAgent)
	if r.retrySafe {
		// Not on a request that is not retry-safe: the server ignores the
		// key there, and Go's transport would take it as leave to replay.
		req.Header.Set("Idempotency-Key", key)
	}
	if r.contentType != "" {
		req.Header.Set("Content-Type", r.contentType)
	}
	if r.content != nil {
		req.Header.Set("Content-Encoding", "gzip")
	}
	var res result
	resp, err := c.http.Do(req)
	if err != nil {
		res.err = err
	} else {
		res.status, res.header = resp.StatusCode, resp.Header
		limit := r.maxBody
		if limit == 0 {
			limit = 1 << 20
		}
		res.body, err = io.ReadAll(io.LimitReader(resp.Body, limit))
		resp.Body.Close()
		if err != nil {
			res = result{err: fmt.Errorf("reading the answer: %w", err)}
		}
	}
	if pr != nil {
		pr.CloseWithError(errAttemptOver) // stops the writer if the server answered early
		<-done
		res.local = local
		c.report(Progress{Name: r.content.Name, Total: r.content.Size, Sent: sent, Done: true})
	}
	return res
}

func (c *Client) report(p Progress) {
	if c.progress != nil {
		c.progress(p)
	}
}

// writeContent writes the content gzip-compressed, counting the bytes it
// reads for the progress reports.
func (c *Client) writeContent(pw io.Writer, ct *Content, sent *int64) error {
	// The fastest level: reports are repetitive text that compresses well
	// anyway, and CPU time would otherwise bound the upload.
	zw, _ := gzip.NewWriterLevel(sendWriter{pw}, gzip.BestSpeed)
	read := func(rd io.Reader) io.Reader { return &countReader{r: rd, c: c, ct: ct, sent: sent} }
	if err := ct.Write(zw, read); err != nil {
		return err
	}
	return zw.Close()
}

type countReader struct {
	r    io.Reader
	c    *Client
	ct   *Content
	sent *int64
}

func (r *countReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if n > 0 {
		*r.sent += int64(n)
		r.c.report(Progress{Name: r.ct.Name, Total: r.ct.Size, Sent: *r.sent})
	}
	return n, err
}

func isDialError(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
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
