package codehost

import (
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// FetchReason says why a file could not be fetched from a code host. It is
// an error itself, so that errors.Is(err, FetchNotFound) classifies a
// *FetchError.
type FetchReason string

// The reasons a fetch fails.
const (
	FetchNotFound     FetchReason = "not_found"    // no such file at that commit (404), or not a file
	FetchRateLimited  FetchReason = "rate_limited" // the host's rate limit is reached (403/429): FetchError.Reset says until when
	FetchUnauthorized FetchReason = "unauthorized" // the token is refused (401) or may not read the repository (403)
	FetchTooLarge     FetchReason = "too_large"    // the file is over the per-file cap: its content is not read
	FetchMismatch     FetchReason = "mismatch"     // the content is not the blob the host named: refused
	FetchFailed       FetchReason = "failed"       // anything else: the network, a 5xx, an answer that cannot be read
)

func (r FetchReason) Error() string { return string(r) }

// FetchError is a file that could not be fetched from a code host, and why.
// Its message names the host, the path and the commit, never the token or
// any of the file's content.
type FetchError struct {
	Reason FetchReason
	Kind   string // github or gitlab
	Path   string
	Commit string
	Status int       // the host's HTTP status, 0 when there was none
	Reset  time.Time // FetchRateLimited: when the host takes calls again (zero: it did not say)
	Size   int64     // FetchTooLarge: the file's length in bytes when the host said it (0: not said)
	Max    int64     // FetchTooLarge: the cap it is over
	Err    error     // the cause: an *HTTPError, a network or decoding error; nil when none
}

func (e *FetchError) Error() string {
	host := "GitHub"
	if e.Kind == GitLab {
		host = "GitLab"
	}
	msg := fmt.Sprintf("fetch %s at %s from %s: ", e.Path, e.Commit, host)
	switch e.Reason {
	case FetchNotFound:
		msg += "not found"
	case FetchRateLimited:
		msg += "rate limited"
		if !e.Reset.IsZero() {
			msg += " until " + e.Reset.UTC().Format(time.RFC3339)
		}
	case FetchUnauthorized:
		msg += "the token is refused"
	case FetchTooLarge:
		msg += "too large"
		if e.Size > 0 {
			msg += fmt.Sprintf(" (%d bytes, the cap is %d)", e.Size, e.Max)
		} else {
			msg += fmt.Sprintf(" (over the cap of %d bytes)", e.Max)
		}
	case FetchMismatch:
		msg += "the content is not the blob the host named"
	default:
		msg += "failed"
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap gives the reason and the cause, for errors.Is and errors.As.
func (e *FetchError) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Reason}
	}
	return []error{e.Reason, e.Err}
}

// githubInlineMax is the largest file GitHub's contents API answers with its
// content: a larger one (up to 100 MB) comes with an empty content and
// encoding "none", and is read from the git blobs API.
const githubInlineMax = 1 << 20

// FetchFile reads the file at path (repository-relative, slash-separated) in
// commit from the code host t names, holding at most about twice maxSize in
// memory: GitHub's contents API (GET /repos/{owner}/{repo}/contents/{path}
// ?ref={commit}) and, for a file over 1 MB, its git blobs API; GitLab's
// repository files API (GET /api/v4/projects/{id}/repository/files/{path}
// ?ref={commit}). A file over maxSize bytes is refused as FetchTooLarge. The
// content is checked against the git blob id the host gave (the SHA-1 of
// "blob <length>\x00" followed by the content, or its SHA-256 in a SHA-256
// repository): a mismatch is refused as FetchMismatch. Every failure is a
// *FetchError.
func (c *Client) FetchFile(ctx context.Context, t Target, commit, path string, maxSize int64) ([]byte, error) {
	fail := func(reason FetchReason, err error) *FetchError {
		return &FetchError{Reason: reason, Kind: t.Kind, Path: path, Commit: commit, Max: maxSize, Err: err}
	}
	switch {
	case t.Kind != GitHub && t.Kind != GitLab:
		return nil, fail(FetchFailed, fmt.Errorf("unknown code host kind %q", t.Kind))
	case !fetchablePath(path):
		return nil, fail(FetchFailed, errors.New("not a repository-relative file path"))
	case strings.TrimSpace(commit) == "" || strings.ContainsAny(commit, "\x00\n"):
		return nil, fail(FetchFailed, errors.New("no commit"))
	case maxSize <= 0:
		return nil, fail(FetchFailed, errors.New("no per-file cap"))
	}
	// A redirect is followed on the configured host only: GitLab's token is
	// a header Go's client would forward anywhere.
	hc := *c.httpClient()
	hc.CheckRedirect = stayOn(c.base(t), hc.CheckRedirect)
	c = &Client{HTTP: &hc}
	var f hostFile
	var err error
	if t.Kind == GitHub {
		f, err = c.githubFile(ctx, t, commit, path, maxSize)
	} else {
		f, err = c.gitlabFile(ctx, t, commit, path, maxSize)
	}
	if err != nil {
		var fe *FetchError
		if errors.As(err, &fe) {
			fe.Kind, fe.Path, fe.Commit, fe.Max = t.Kind, path, commit, maxSize
			return nil, fe
		}
		return nil, fail(FetchFailed, err)
	}
	if int64(len(f.content)) > maxSize {
		e := fail(FetchTooLarge, nil)
		e.Size = int64(len(f.content))
		return nil, e
	}
	if id := gitBlobID(f.content, len(f.blobID)); id == "" || !strings.EqualFold(id, f.blobID) {
		return nil, fail(FetchMismatch, fmt.Errorf("the host named blob %q, the content is blob %q", f.blobID, id))
	}
	return f.content, nil
}

// stayOn is a CheckRedirect that refuses a redirect off base's scheme and
// host, then applies next (Go's default policy when nil).
func stayOn(base string, next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		b, err := url.Parse(base)
		if err != nil || req.URL.Scheme != b.Scheme || req.URL.Host != b.Host {
			return fmt.Errorf("a redirect off %s is not followed", base)
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
}

// hostFile is a file as a host answered it: its decoded content and the
// blob id the host named.
type hostFile struct {
	content []byte
	blobID  string
}

// fetchablePath reports whether p is a path a fetch may ask for:
// repository-relative, slash-separated, without empty, "." or ".." elements,
// NUL or invalid UTF-8 (what would let a path escape the repository or the
// URL). The store checks its own, stricter rules.
func fetchablePath(p string) bool {
	if p == "" || !utf8.ValidString(p) || strings.ContainsRune(p, 0) {
		return false
	}
	for _, el := range strings.Split(p, "/") {
		if el == "" || el == "." || el == ".." {
			return false
		}
	}
	return true
}

// gitBlobID is git's object id of content as a blob: the hex SHA-1 (40
// digits) or, for a SHA-256 repository, SHA-256 (64 digits) of
// "blob <length>\x00" followed by the content. It is "" for another length.
func gitBlobID(content []byte, digits int) string {
	header := []byte("blob " + strconv.Itoa(len(content)) + "\x00")
	switch digits {
	case 40:
		h := sha1.New()
		h.Write(header)
		h.Write(content)
		return hex.EncodeToString(h.Sum(nil))
	case 64:
		h := sha256.New()
		h.Write(header)
		h.Write(content)
		return hex.EncodeToString(h.Sum(nil))
	}
	return ""
}

// escapeSegments escapes each slash-separated element of p for a URL path,
// keeping the slashes: GitHub takes a path as it is in the repository.
func escapeSegments(p string) string {
	els := strings.Split(p, "/")
	for i, el := range els {
		els[i] = url.PathEscape(el)
	}
	return strings.Join(els, "/")
}

// answerBound is the largest JSON answer read for a file of at most limit
// bytes: its base64 (with a newline every 60 characters, as GitHub writes
// it) and room for the other fields. A longer answer is a larger file.
func answerBound(limit int64) int64 {
	limit = min(limit, 1<<40)
	return (limit+2)/3*4*61/60 + 64<<10
}

// githubContent is the part of a GitHub contents or blobs answer read here.
type githubContent struct {
	Type     string `json:"type"` // contents only: file, dir, symlink, submodule
	Encoding string `json:"encoding"`
	Size     int64  `json:"size"`
	SHA      string `json:"sha"`
	Content  string `json:"content"`
}

func (c *Client) githubFile(ctx context.Context, t Target, commit, path string, limit int64) (hostFile, error) {
	repo := c.base(t) + "/repos/" + escapeSegments(t.Repository)
	u := repo + "/contents/" + escapeSegments(path) + "?ref=" + url.QueryEscape(commit)
	raw, err := c.fetchJSON(ctx, t, u, answerBound(min(limit, githubInlineMax)))
	if err != nil {
		return hostFile{}, err
	}
	if b := bytes.TrimSpace(raw); len(b) > 0 && b[0] == '[' {
		return hostFile{}, &FetchError{Reason: FetchNotFound, Err: errors.New("a directory, not a file")}
	}
	var fc githubContent
	if err := json.Unmarshal(raw, &fc); err != nil {
		return hostFile{}, fmt.Errorf("GET %s: %w", u, err)
	}
	if fc.Type != "" && fc.Type != "file" {
		return hostFile{}, &FetchError{Reason: FetchNotFound, Err: fmt.Errorf("a %s, not a file", fc.Type)}
	}
	if fc.Size > limit {
		return hostFile{}, &FetchError{Reason: FetchTooLarge, Size: fc.Size}
	}
	if fc.Encoding == "none" || (fc.Content == "" && fc.Size > 0) {
		// Over 1 MB: the contents API leaves the content out; the blob has it.
		if !validSHA(fc.SHA) {
			return hostFile{}, fmt.Errorf("GET %s: no blob sha for a file of %d bytes", u, fc.Size)
		}
		blobURL := repo + "/git/blobs/" + fc.SHA
		if raw, err = c.fetchJSON(ctx, t, blobURL, answerBound(limit)); err != nil {
			return hostFile{}, err
		}
		var blob githubContent
		if err := json.Unmarshal(raw, &blob); err != nil {
			return hostFile{}, fmt.Errorf("GET %s: %w", blobURL, err)
		}
		if blob.Size > limit {
			return hostFile{}, &FetchError{Reason: FetchTooLarge, Size: blob.Size}
		}
		fc.Encoding, fc.Content = blob.Encoding, blob.Content
		if blob.SHA != "" && !strings.EqualFold(blob.SHA, fc.SHA) {
			return hostFile{}, &FetchError{Reason: FetchMismatch, Err: fmt.Errorf("asked for blob %s, got %s", fc.SHA, blob.SHA)}
		}
		u = blobURL
	}
	content, err := decodeContent(fc.Encoding, fc.Content)
	if err != nil {
		return hostFile{}, fmt.Errorf("GET %s: %w", u, err)
	}
	return hostFile{content: content, blobID: fc.SHA}, nil
}

// gitlabContent is the part of a GitLab repository files answer read here.
type gitlabContent struct {
	Size     int64  `json:"size"`
	Encoding string `json:"encoding"`
	Content  string `json:"content"`
	BlobID   string `json:"blob_id"`
}

func (c *Client) gitlabFile(ctx context.Context, t Target, commit, path string, limit int64) (hostFile, error) {
	// The whole path is one URL-encoded parameter: its slashes too.
	u := c.gitlabProject(t) + "/repository/files/" + url.PathEscape(path) + "?ref=" + url.QueryEscape(commit)
	raw, err := c.fetchJSON(ctx, t, u, answerBound(limit))
	if err != nil {
		return hostFile{}, err
	}
	var fc gitlabContent
	if err := json.Unmarshal(raw, &fc); err != nil {
		return hostFile{}, fmt.Errorf("GET %s: %w", u, err)
	}
	if fc.Size > limit {
		return hostFile{}, &FetchError{Reason: FetchTooLarge, Size: fc.Size}
	}
	content, err := decodeContent(fc.Encoding, fc.Content)
	if err != nil {
		return hostFile{}, fmt.Errorf("GET %s: %w", u, err)
	}
	return hostFile{content: content, blobID: fc.BlobID}, nil
}

func validSHA(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// decodeContent decodes an answer's content: base64 (whose line breaks the
// decoder skips), or, as GitLab may answer, text.
func decodeContent(encoding, content string) ([]byte, error) {
	switch encoding {
	case "base64":
		b, err := base64.StdEncoding.DecodeString(content)
		if err != nil {
			return nil, fmt.Errorf("the content is not base64: %w", err)
		}
		return b, nil
	case "text", "utf-8":
		return []byte(content), nil
	}
	return nil, fmt.Errorf("unknown content encoding %q", encoding)
}

// fetchJSON GETs u and returns its 2xx answer, of at most bound bytes (a
// longer one is FetchTooLarge: only a file's content makes it long). A
// refusal is a *FetchError with its reason.
func (c *Client) fetchJSON(ctx context.Context, t Target, u string, bound int64) ([]byte, error) {
	res, err := c.send(ctx, t, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode/100 != 2 {
		data, _ := io.ReadAll(io.LimitReader(res.Body, 4<<10))
		he := &HTTPError{Method: http.MethodGet, URL: u, Status: res.StatusCode, Body: truncate(strings.TrimSpace(string(data)), 300)}
		return nil, refusal(he, res.Header, time.Now())
	}
	data, err := io.ReadAll(io.LimitReader(res.Body, bound+1))
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", u, err)
	}
	if int64(len(data)) > bound {
		return nil, &FetchError{Reason: FetchTooLarge, Status: res.StatusCode}
	}
	return data, nil
}

// refusal classifies a host's refusal. Both hosts answer a reached rate
// limit with 429, or 403 with the remaining count at 0 (GitHub's
// x-ratelimit-remaining, GitLab's RateLimit-Remaining) or a Retry-After;
// GitHub's secondary limits say so in the message. The time to wait is
// Retry-After (seconds or an HTTP date) when given, else the reset time
// (x-ratelimit-reset, RateLimit-Reset: Unix seconds).
func refusal(he *HTTPError, h http.Header, now time.Time) *FetchError {
	e := &FetchError{Reason: FetchFailed, Status: he.Status, Err: he}
	limited := he.Status == http.StatusTooManyRequests ||
		he.Status == http.StatusForbidden && (h.Get("Retry-After") != "" ||
			h.Get("X-RateLimit-Remaining") == "0" || h.Get("RateLimit-Remaining") == "0" ||
			strings.Contains(strings.ToLower(he.Body), "rate limit"))
	switch {
	case limited:
		e.Reason, e.Reset = FetchRateLimited, resetTime(h, now)
	case he.Status == http.StatusNotFound:
		e.Reason = FetchNotFound
	case he.Status == http.StatusUnauthorized || he.Status == http.StatusForbidden:
		e.Reason = FetchUnauthorized
	}
	return e
}

func resetTime(h http.Header, now time.Time) time.Time {
	if ra := strings.TrimSpace(h.Get("Retry-After")); ra != "" {
		if s, err := strconv.ParseInt(ra, 10, 64); err == nil && s >= 0 {
			return now.Add(time.Duration(s) * time.Second)
		}
		if at, err := http.ParseTime(ra); err == nil {
			return at
		}
	}
	for _, name := range []string{"X-RateLimit-Reset", "RateLimit-Reset"} {
		if s, err := strconv.ParseInt(strings.TrimSpace(h.Get(name)), 10, 64); err == nil && s > 0 {
			return time.Unix(s, 0)
		}
	}
	return time.Time{}
}
