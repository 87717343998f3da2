// Package codehost tells a code host about a change: commit statuses (the
// quality gate, patch coverage) and one pull request comment kept up to date
// in place, on GitHub (and GitHub Enterprise) and GitLab (and self-managed
// GitLab), over their plain REST APIs (docs/pull-requests.md); GitHub's
// check runs with annotations through a GitHub App (app.go, checks.go) and
// the App's webhooks (hooks.go); and it reads a file at a commit from them,
// for a file page without an uploaded source (source.go, docs/sources.md).
package codehost

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/plumbhq/plumb/internal/wait"
)

// Kinds of code host.
const (
	GitHub = "github"
	GitLab = "gitlab"
)

// Marker is the hidden line that identifies Plumb's own comment, so each push
// updates it instead of adding another.
const Marker = "<!-- plumb:pull-request-summary -->"

// Target is where a project's statuses and comment go.
type Target struct {
	Kind       string // github or gitlab
	BaseURL    string // https://api.github.com, https://ghe.example/api/v3, https://gitlab.example.com
	Repository string // owner/name (GitHub) or a project path or id (GitLab)
	Token      string
}

// Status is one commit status.
type Status struct {
	Context     string // e.g. plumb/quality-gate
	State       string // success, failure, pending, error
	Description string
	TargetURL   string
}

// Delivery is what to publish for a head commit.
type Delivery struct {
	CommitSHA   string
	PullRequest int // 0: statuses only
	Statuses    []Status
	Comment     string // Markdown; the marker is added
}

// Client publishes deliveries.
type Client struct {
	HTTP *http.Client
	// Now and Sleep are the clock and the wait of rate-limit answers
	// (time.Now and a timer by default; tests replace them).
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// Publish sends the statuses, then creates or updates the comment. It
// returns the comment's id.
func (c *Client) Publish(ctx context.Context, t Target, d Delivery) (commentID string, err error) {
	switch t.Kind {
	case GitHub, GitLab:
	default:
		return "", fmt.Errorf("unknown code host kind %q", t.Kind)
	}
	for _, s := range d.Statuses {
		if err := c.status(ctx, t, d.CommitSHA, s); err != nil {
			return "", err
		}
	}
	if d.PullRequest == 0 || d.Comment == "" {
		return "", nil
	}
	return c.comment(ctx, t, d.PullRequest, Marker+"\n"+d.Comment)
}

func (c *Client) base(t Target) string { return strings.TrimRight(t.BaseURL, "/") }

func (c *Client) gitlabProject(t Target) string {
	return c.base(t) + "/api/v4/projects/" + url.PathEscape(t.Repository)
}

// gitlabState maps a commit state to GitLab's names.
func gitlabState(s string) string {
	switch s {
	case "failure", "error":
		return "failed"
	case "pending":
		return "pending"
	}
	return "success"
}

func (c *Client) status(ctx context.Context, t Target, sha string, s Status) error {
	if t.Kind == GitHub {
		body := map[string]string{"state": s.State, "context": s.Context, "description": truncate(s.Description, 140)}
		if s.TargetURL != "" {
			body["target_url"] = s.TargetURL
		}
		return c.call(ctx, t, http.MethodPost, c.base(t)+"/repos/"+t.Repository+"/statuses/"+sha, body, nil)
	}
	body := map[string]string{"state": gitlabState(s.State), "name": s.Context, "description": truncate(s.Description, 255)}
	if s.TargetURL != "" {
		body["target_url"] = s.TargetURL
	}
	return c.call(ctx, t, http.MethodPost, c.gitlabProject(t)+"/statuses/"+sha, body, nil)
}

type note struct {
	ID   int64  `json:"id"`
	Body string `json:"body"`
}

// maxCommentPages bounds the pages of comments read to find Plumb's own
// (100 comments a page): past them, a new comment is written.
const maxCommentPages = 100

// comment finds Plumb's comment by its marker, reading every page of the
// pull request's comments (GitHub) or notes (GitLab), and edits it, or
// creates it.
func (c *Client) comment(ctx context.Context, t Target, pr int, body string) (string, error) {
	var list, create string
	var editURL func(id int64) string
	method := http.MethodPatch
	if t.Kind == GitHub {
		list = c.base(t) + "/repos/" + t.Repository + "/issues/" + strconv.Itoa(pr) + "/comments?per_page=100"
		create = c.base(t) + "/repos/" + t.Repository + "/issues/" + strconv.Itoa(pr) + "/comments"
		editURL = func(id int64) string {
			return c.base(t) + "/repos/" + t.Repository + "/issues/comments/" + strconv.FormatInt(id, 10)
		}
	} else {
		notes := c.gitlabProject(t) + "/merge_requests/" + strconv.Itoa(pr) + "/notes"
		list, create = notes+"?per_page=100&sort=asc", notes
		editURL = func(id int64) string { return notes + "/" + strconv.FormatInt(id, 10) }
		method = http.MethodPut
	}
	payload := map[string]string{"body": body}
	seen := map[string]bool{}
	for page := 0; list != "" && page < maxCommentPages && !seen[list]; page++ {
		seen[list] = true
		var existing []note
		h, err := c.do(ctx, t, http.MethodGet, list, nil, &existing)
		if err != nil {
			return "", err
		}
		for _, n := range existing {
			if strings.Contains(n.Body, Marker) {
				if n.Body == body {
					return strconv.FormatInt(n.ID, 10), nil // unchanged: no edit
				}
				return strconv.FormatInt(n.ID, 10), c.call(ctx, t, method, editURL(n.ID), payload, nil)
			}
		}
		if list, err = c.nextPage(t, list, h); err != nil {
			return "", err
		}
	}
	var created note
	if err := c.call(ctx, t, http.MethodPost, create, payload, &created); err != nil {
		return "", err
	}
	return strconv.FormatInt(created.ID, 10), nil
}

// nextPage is the address of the page after the one at u, "" after the
// last: GitHub names it in the Link header (rel="next"), GitLab gives its
// number in X-Next-Page. A next page on another host is refused: the token
// goes only to the configured host.
func (c *Client) nextPage(t Target, u string, h http.Header) (string, error) {
	if t.Kind == GitLab {
		n := strings.TrimSpace(h.Get("X-Next-Page"))
		if n == "" {
			return "", nil
		}
		if v, err := strconv.Atoi(n); err != nil || v < 1 {
			return "", fmt.Errorf("GET %s: unreadable X-Next-Page %q", u, n)
		}
		next, err := url.Parse(u)
		if err != nil {
			return "", err
		}
		q := next.Query()
		q.Set("page", n)
		next.RawQuery = q.Encode()
		return next.String(), nil
	}
	next := linkNext(h.Values("Link"))
	if next == "" {
		return "", nil
	}
	nu, err := url.Parse(next)
	if err == nil && !nu.IsAbs() {
		var cur *url.URL
		if cur, err = url.Parse(u); err == nil {
			nu = cur.ResolveReference(nu)
		}
	}
	base, berr := url.Parse(c.base(t))
	if err != nil || berr != nil || nu.Scheme != base.Scheme || nu.Host != base.Host {
		return "", fmt.Errorf("GET %s: the next page of comments (Link rel=\"next\") is not on %s: %q", u, c.base(t), next)
	}
	return nu.String(), nil
}

// linkNext returns the target of the rel="next" link of RFC 8288 Link
// header values, "" when there is none.
func linkNext(values []string) string {
	for _, v := range values {
		for {
			start := strings.IndexByte(v, '<')
			if start < 0 {
				break
			}
			end := strings.IndexByte(v[start:], '>')
			if end < 0 {
				break
			}
			target := v[start+1 : start+end]
			v = v[start+end+1:]
			params := v // up to the next link-value
			if i := strings.IndexByte(v, '<'); i >= 0 {
				params = v[:i]
			}
			for _, p := range strings.Split(params, ";") {
				name, val, ok := strings.Cut(p, "=")
				if !ok || !strings.EqualFold(strings.TrimSpace(name), "rel") {
					continue
				}
				val = strings.Trim(strings.TrimSuffix(strings.TrimSpace(val), ","), `"`)
				for _, rel := range strings.Fields(val) {
					if strings.EqualFold(rel, "next") {
						return target
					}
				}
			}
		}
	}
	return ""
}

// HTTPError is a code host's refusal.
type HTTPError struct {
	Method, URL string
	Status      int
	Body        string
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("%s %s: %d %s", e.Method, e.URL, e.Status, e.Body)
}

// Retryable reports whether an error may go away on its own: network
// failures, 429 and 5xx.
func Retryable(err error) bool {
	if he, ok := err.(*HTTPError); ok {
		return he.Status == http.StatusTooManyRequests || he.Status >= 500
	}
	return err != nil
}

func (c *Client) call(ctx context.Context, t Target, method, u string, in, out any) error {
	_, err := c.do(ctx, t, method, u, in, out)
	return err
}

// do sends one request and decodes a 2xx answer's JSON into out; it returns
// the answer's headers. A rate-limit answer (429, or 403 with Retry-After or
// no requests remaining) that says when to come back is waited out and the
// request sent again, up to maxRateWaits times.
func (c *Client) do(ctx context.Context, t Target, method, u string, in, out any) (http.Header, error) {
	var payload []byte
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return nil, err
		}
		payload = b
	}
	for waits := 0; ; waits++ {
		var body io.Reader
		if payload != nil {
			body = bytes.NewReader(payload)
		}
		res, err := c.send(ctx, t, method, u, body)
		if err != nil {
			return nil, err
		}
		data, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
		res.Body.Close()
		if res.StatusCode/100 == 2 {
			if out != nil {
				return res.Header, json.Unmarshal(data, out)
			}
			return res.Header, nil
		}
		// The URL has no secret (tokens go in headers); the body is the
		// host's error message, cut short.
		he := &HTTPError{Method: method, URL: u, Status: res.StatusCode, Body: truncate(strings.TrimSpace(string(data)), 300)}
		r := refusal(he, res.Header, c.clock())
		if r.Reason != FetchRateLimited || r.Reset.IsZero() || waits == maxRateWaits {
			return res.Header, he
		}
		wait := min(max(r.Reset.Sub(c.clock()), time.Second), maxRateWait)
		if err := c.sleep(ctx, wait); err != nil {
			return res.Header, fmt.Errorf("%w; waiting %s for the rate limit: %w", he, wait, err)
		}
	}
}

// maxRateWaits bounds the rate-limit waits of one request; maxRateWait, each.
const (
	maxRateWaits = 10
	maxRateWait  = time.Hour
)

func (c *Client) clock() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// sleep waits d, or until ctx ends.
func (c *Client) sleep(ctx context.Context, d time.Duration) error {
	if c.Sleep != nil {
		return c.Sleep(ctx, d)
	}
	return wait.Sleep(ctx, d)
}

// send sends one request with the headers the code host expects (its
// authentication, its API version) and returns the answer, whatever its
// status; the caller closes its body.
func (c *Client) send(ctx context.Context, t Target, method, u string, body io.Reader) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if t.Kind == GitHub {
		req.Header.Set("Accept", "application/vnd.github+json")
		req.Header.Set("Authorization", "Bearer "+t.Token)
		req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	} else {
		req.Header.Set("PRIVATE-TOKEN", t.Token)
	}
	req.Header.Set("User-Agent", "plumb")
	return c.httpClient().Do(req)
}

func (c *Client) httpClient() *http.Client {
	if c.HTTP == nil {
		return &http.Client{Timeout: 30 * time.Second}
	}
	return c.HTTP
}

func truncate(s string, n int) string {
	if len([]rune(s)) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// Result is the outcome of a delivery with retries.
type Result struct {
	State     string // delivered or failed
	Attempts  int
	Detail    string // the last error, for people
	CommentID string
}

// Deliver publishes with up to attempts tries, waiting backoff(n) after the
// n-th failure when it may go away on its own.
func (c *Client) Deliver(ctx context.Context, t Target, d Delivery, attempts int, backoff func(n int) time.Duration) Result {
	var r Result
	for r.Attempts < max(attempts, 1) {
		r.Attempts++
		id, err := c.Publish(ctx, t, d)
		if err == nil {
			return Result{State: "delivered", Attempts: r.Attempts, CommentID: id}
		}
		r.State, r.Detail = "failed", err.Error()
		if !Retryable(err) || r.Attempts == attempts {
			break
		}
		if err := c.sleep(ctx, backoff(r.Attempts)); err != nil {
			r.Detail += "; " + err.Error()
			return r
		}
	}
	return r
}
