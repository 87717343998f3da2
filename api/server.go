// Package api serves Plumb's public v1 REST API over HTTP.
package api

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/codehost"
	"github.com/plumbhq/plumb/ratelimit"
)

// Config holds the server's settings.
type Config struct {
	MaxBodyBytes   int64 // request bodies above this answer 413
	MaxUploadBytes int64 // ingestion uploads (reports) above this answer 413
	// RequestTimeout bounds the time to the start of a response (0: none).
	RequestTimeout time.Duration
	// BaseURL is the public base URL of Link and Location headers. Empty,
	// links name the address the connection reached, unless TrustHost.
	BaseURL string
	// TrustHost builds links, when no BaseURL is set, from the request's
	// Host and X-Forwarded-Proto: only for a server whose proxy sets or
	// checks both, since any client can send any Host.
	TrustHost bool
	// UploadIdleTimeout bounds the wait for the next bytes of a request's
	// body, an upload's report or a JSON object (default 30 seconds): a
	// client that stalls its body answers 408. SpoolDir holds the received
	// reports while they are parsed (default: the system's temporary
	// folder).
	UploadIdleTimeout time.Duration
	SpoolDir          string
	// AuthFailureLimit is how many failed token lookups (unknown or revoked
	// tokens) one client address may cause per hour before its further
	// failures answer 429 instead of 401 (default 100). A valid token is
	// never refused by this limit (docs/api.md, "Rate limit").
	AuthFailureLimit int
	// AuthFailures counts the failed token lookups per client address: a
	// limiter of AuthFailureLimit requests per window, shared by the
	// replicas (Redis) or not. Default: an in-process one.
	AuthFailures ratelimit.Limiter
	// GitHubApp, when set, publishes to GitHub projects connected without
	// a token with the App's installation tokens, check runs included;
	// GitHubWebhookSecret verifies the deliveries of POST /hooks/github
	// (empty: that route answers 404). docs/pull-requests.md.
	GitHubApp           *codehost.App
	GitHubWebhookSecret string
}

// Server is the HTTP API. Build it with NewServer.
type Server struct {
	store       Store
	limiter     ratelimit.Limiter
	log         *slog.Logger
	cfg         Config
	now         func() time.Time
	router      router
	readyChecks []readyCheck
	// authFailures counts failed token lookups per client address;
	// refused remembers the secrets (as hashes) known never to authenticate.
	authFailures ratelimit.Limiter
	refused      refusedTokens
	// deliveries tracks the code-host deliveries under way (codehost.go);
	// deliveryLocks serialises those of one pull request.
	deliveries    sync.WaitGroup
	deliveryMu    sync.Mutex
	deliveryLocks map[string]*deliveryLock
}

// NewServer returns the API handler with every dependency given explicitly.
func NewServer(store Store, limiter ratelimit.Limiter, log *slog.Logger, cfg Config) *Server {
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = 1 << 20
	}
	if cfg.MaxUploadBytes <= 0 {
		cfg.MaxUploadBytes = 2 << 30
	}
	if cfg.UploadIdleTimeout <= 0 {
		cfg.UploadIdleTimeout = 30 * time.Second
	}
	if cfg.AuthFailureLimit <= 0 {
		cfg.AuthFailureLimit = 100
	}
	s := &Server{store: store, limiter: limiter, log: log, cfg: cfg, now: time.Now}
	s.authFailures = cfg.AuthFailures
	if s.authFailures == nil {
		s.authFailures = ratelimit.NewMemory(cfg.AuthFailureLimit, func() time.Time { return s.now() })
	}
	s.routes()
	return s
}

// SetClock replaces the server's clock (time.Now by default), which dates
// queue times and the Retry-After header. Tests set a fake clock, shared with
// the store and the rate limiter, before serving the first request.
func (s *Server) SetClock(now func() time.Time) { s.now = now }

// call is what a handler knows about its request once it is authorised.
type call struct {
	upload *plumb.UploadToken // set when an upload token authenticated an ingestion request
	user   plumb.User
	token  plumb.Token
	params pathParams
	format format
	query  *query
}

type ctxKey int

const requestIDKey ctxKey = 0

func requestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey).(string)
	return id
}

func newRequestID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// pathMinLength is the spec's minimum length of each path parameter.
var pathMinLength = map[string]int{
	"owner": 3, "project": 3, "build": 3, "component": 1, "application": 1, "uploadToken": 1, "pull": 1,
}

var pathParamName = map[string]string{
	"owner": "ownerKeyOrId", "project": "projectKeyOrId", "build": "buildId",
	"component": "componentIdOrName", "application": "applicationIdOrName",
	"uploadToken": "uploadTokenId", "pull": "pullRequestNumber", "upload": "uploadId",
}

// ServeHTTP checks, in the contract's order: route and method, authentication,
// rate limit, path parameters; handlers then check visibility, permission and
// the rest of the request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := s.now()
	id := r.Header.Get("X-Request-Id")
	if id == "" || len(id) > 64 || strings.IndexFunc(id, func(r rune) bool { return r <= ' ' || r > '~' }) >= 0 {
		id = newRequestID()
	}
	ctx, cancel := context.WithCancelCause(context.WithValue(r.Context(), requestIDKey, id))
	defer cancel(nil)
	r = r.WithContext(ctx)
	w.Header().Set("X-Request-Id", id)
	closeIfAmbiguous(w, r)
	sw := &statusWriter{ResponseWriter: w}
	// A request whose response has not started within the request timeout
	// is cancelled and answers 503 (a database that stopped answering must
	// not hold requests forever). Once a response streams, it may run on.
	// Ingestion requests are bounded too; only the transfer of a report's
	// body stops the clock (see requestClock).
	if s.cfg.RequestTimeout > 0 {
		clock := &requestClock{d: s.cfg.RequestTimeout}
		clock.timer = time.AfterFunc(s.cfg.RequestTimeout, func() {
			if !sw.started.Load() {
				cancel(errRequestTimeout)
			}
		})
		defer clock.timer.Stop()
		ctx = context.WithValue(ctx, requestClockKey, clock)
		r = r.WithContext(ctx)
	}
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			err := fmt.Errorf("panic: %v", v)
			if !sw.wrote {
				s.writeError(sw, r, err)
			} else {
				s.log.Error("panic after response started", "request_id", id, "error", err)
			}
		}
		s.log.LogAttrs(r.Context(), slog.LevelInfo, "request", slog.String("request_id", id), slog.String("method", r.Method),
			slog.String("path", r.URL.Path), slog.Int("status", sw.status), slog.Duration("duration", s.now().Sub(start)))
	}()
	if err := s.serve(sw, r); err != nil {
		var stall *stalledBody
		switch {
		case errors.As(err, &stall):
			// The client's doing, not the server's strain: a 408, and the
			// connection closed (the rest of the body may still come).
			s.log.Info("client stalled its request body", "request_id", id, "path", r.URL.Path, "detail", stall.err.Details[0])
			w.Header().Set("Connection", "close")
		case context.Cause(ctx) == errRequestTimeout:
			s.log.Warn("request timed out", "request_id", id, "path", r.URL.Path, "error", err)
			err = plumb.Errorf(plumb.EUNAVAILABLE, "The request took longer than %s; the service is under strain. Retry in a few seconds.", s.cfg.RequestTimeout)
		case ctx.Err() != nil && plumb.ErrorCode(err) != plumb.ETIMEOUT:
			// The client went away: nothing to answer (and no default 200:
			// the connection is dropped), and nothing to alarm about.
			s.log.Info("client closed the request", "request_id", id, "path", r.URL.Path)
			panic(http.ErrAbortHandler)
		}
		if sw.wrote {
			// The response is under way (a stream): cut the connection so the
			// client sees an incomplete response rather than a short one.
			s.log.Error("stream failed", "request_id", id, "error", err)
			panic(http.ErrAbortHandler)
		}
		s.writeError(sw, r, err)
	}
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) error {
	rt, params, allowed, err := s.router.match(r.Method, r.URL.EscapedPath())
	if err != nil {
		return err
	}
	if rt == nil {
		// Route errors come first; an authenticated caller still gets (and
		// spends) its rate-limit headers.
		if _, tok, ok := s.optionalAuth(r); ok {
			if _, _, err := s.countRequest(w, r, tok); err != nil {
				// The route error is the answer; a failing limiter only
				// costs this response its rate-limit headers.
				s.log.Error("rate limit unavailable", "request_id", requestID(r.Context()), "error", err)
			}
		}
		if len(allowed) > 0 {
			w.Header().Set("Allow", strings.Join(allowed, ", "))
			return plumb.Errorf(plumb.EMETHOD, "Method %s is not allowed on %s; allowed: %s.", r.Method, r.URL.Path, strings.Join(allowed, ", "))
		}
		return plumb.Errorf(plumb.ENOTFOUND, "No endpoint at %s %s.", r.Method, r.URL.Path)
	}
	c := &call{params: params}
	if rt.ownAuth {
		// The handler authenticates the request (qltycoverage.go).
	} else if rt.public {
		if _, tok, ok := s.optionalAuth(r); ok {
			if st, err := s.limiter.Peek(r.Context(), tok.ID); err == nil {
				setRateHeaders(w.Header(), st)
			}
		}
	} else {
		var tok plumb.Token
		var err error
		if rt.ingest {
			tok, err = s.authenticateIngest(r, c)
		} else {
			c.user, tok, err = s.authenticate(r)
		}
		if err != nil {
			return err
		}
		c.token = tok
		if r.URL.Path == "/rate_limit" {
			st, err := s.limiter.Peek(r.Context(), tok.ID)
			if err != nil {
				return err
			}
			setRateHeaders(w.Header(), st)
		} else {
			st, ok, err := s.countRequest(w, r, tok)
			if err != nil {
				return err
			}
			if !ok {
				retry := int(st.Reset.Sub(s.now()).Seconds() + 0.999)
				if retry < 1 {
					retry = 1
				}
				w.Header().Set("Retry-After", strconv.Itoa(retry))
				return plumb.Errorf(plumb.ERATELIMIT, "The rate limit of %d requests per hour is used up; it resets at %s (in %d seconds).",
					st.Limit, st.Reset.UTC().Format(time.RFC3339), retry)
			}
		}
	}
	var problems []string
	for _, seg := range rt.segments {
		if !strings.HasPrefix(seg, "{") {
			continue
		}
		name := seg[1 : len(seg)-1]
		if badText(params[name]) {
			// No identifier holds such text: refused before any lookup.
			problems = append(problems, textProblem("Path parameter "+pathParamName[name], params[name]))
			continue
		}
		if min := pathMinLength[name]; utf8.RuneCountInString(params[name]) < min {
			problems = append(problems, fmt.Sprintf("Path parameter %s must be at least %d character(s) long, got %q.", pathParamName[name], min, params[name]))
		}
	}
	if err := plumb.Invalid(problems); err != nil {
		return err
	}
	c.query = parseQuery(r.URL.RawQuery)
	// Several Accept fields are one comma-separated list (RFC 9110 §5.3).
	f, err := negotiate(strings.Join(r.Header.Values("Accept"), ", "), rt.formats)
	if err != nil {
		return err
	}
	c.format = f
	if rt.ingest && r.Header.Get("Idempotency-Key") != "" && r.Body != nil {
		// A keyed request remembers the SHA-256 of its body as sent, so a
		// retry with other content is refused rather than replayed.
		r.Body = &hashingBody{ReadCloser: r.Body, sum: sha256.New()}
	}
	return rt.handle(w, r, c)
}

// authenticate reads the bearer token. A missing, malformed, unknown or
// revoked token is a 401.
func (s *Server) authenticate(r *http.Request) (u plumb.User, tok plumb.Token, err error) {
	secret, err := bearerSecret(r)
	if err != nil {
		return plumb.User{}, plumb.Token{}, err
	}
	err = s.lookupToken(r, secret, func() error {
		u, tok, err = s.store.Authenticate(r.Context(), secret)
		return err
	})
	return u, tok, err
}

// lookupToken runs one token lookup for the request's client address. The
// failure limit throttles failures, never credentials: a valid token is
// looked up and let through whatever its address did before (behind a proxy
// or NAT one address is everyone). A failed lookup (an unknown or revoked
// token) is counted for the address; once the address has caused
// AuthFailureLimit of them in its hour, its failures answer 429 instead of
// 401 until the hour ends, and a secret already known never to
// authenticate answers so before any lookup.
func (s *Server) lookupToken(r *http.Request, secret string, lookup func() error) error {
	ctx := r.Context()
	addr := s.clientAddr(r)
	hash := plumb.HashToken(secret)
	if detail, ok := s.refused.find(hash, s.now()); ok {
		// Known to fail: no lookup. Counted like any failure.
		return s.failedLookup(ctx, addr, plumb.Errorf(plumb.EUNAUTHORIZED, "%s", detail))
	}
	err := lookup()
	if plumb.ErrorCode(err) != plumb.EUNAUTHORIZED {
		return err // a valid token, or a failure of ours (503, 500)
	}
	if errors.Is(err, plumb.ErrTokenUnknown) {
		s.refused.add(hash, strings.Join(plumb.ErrorDetails(err), " "), s.now())
	}
	return s.failedLookup(ctx, addr, err)
}

// failedLookup counts a failed token lookup for addr: the lookup's own 401
// while the address has failures left in its hour, 429 once it has none.
func (s *Server) failedLookup(ctx context.Context, addr string, refusal error) error {
	st, ok, err := s.authFailures.Take(ctx, addr)
	if err != nil || ok {
		// A limiter that cannot count leaves the answer the lookup's.
		return refusal
	}
	retry := int(st.Reset.Sub(s.now()).Seconds() + 0.999)
	if retry < 1 {
		retry = 1
	}
	return &retryAfterError{after: retry, limit: st, err: plumb.Errorf(plumb.ERATELIMIT,
		"Too many requests with unknown or revoked tokens came from this address (%d in an hour); retry at %s (in %d seconds). "+
			"A valid token is not limited by this.",
		st.Limit, st.Reset.UTC().Format(time.RFC3339), retry)}
}

// refusedTokens remembers, for a while, the hashes of token secrets that
// failed a lookup as unknown or revoked (which no later request can make
// valid), so that a client repeating one costs no lookup. It holds at most
// refusedTokensMax entries.
type refusedTokens struct {
	mu      sync.Mutex
	entries map[string]refusedToken // by hash
}

type refusedToken struct {
	detail string    // the lookup's answer
	until  time.Time // when it is forgotten
}

const (
	refusedTokensMax = 10000
	refusedTokensTTL = 10 * time.Minute
)

func (c *refusedTokens) find(hash string, now time.Time) (detail string, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[hash]
	return e.detail, ok && now.Before(e.until)
}

func (c *refusedTokens) add(hash, detail string, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[string]refusedToken{}
	}
	if len(c.entries) >= refusedTokensMax {
		for h, e := range c.entries {
			if !now.Before(e.until) {
				delete(c.entries, h)
			}
		}
		if len(c.entries) >= refusedTokensMax {
			clear(c.entries) // a flood of fresh secrets: start again
		}
	}
	c.entries[hash] = refusedToken{detail: detail, until: now.Add(refusedTokensTTL)}
}

// retryAfterError is an error whose response carries Retry-After.
type retryAfterError struct {
	err   *plumb.Error
	after int
	// limit, when set, is the window refused, shown in x-ratelimit-*
	// headers with the resource "auth" (failed token lookups).
	limit ratelimit.Status
}

func (e *retryAfterError) Error() string { return e.err.Error() }
func (e *retryAfterError) Unwrap() error { return e.err }

// clientAddr is the address a request came from: the connection's peer, or,
// with TrustHost (a proxy in front), the last X-Forwarded-For entry, which
// that proxy added.
func (s *Server) clientAddr(r *http.Request) string {
	if s.cfg.TrustHost {
		if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
			last := xff[len(xff)-1]
			if i := strings.LastIndexByte(last, ','); i >= 0 {
				last = last[i+1:]
			}
			if a := strings.TrimSpace(last); a != "" {
				return a
			}
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// bearerSecret reads the token of an "Authorization: Bearer <token>" header,
// or of HTTP Basic authentication with the token as the user name and an
// empty password ("curl -u <token>:"), as the original service accepts.
func bearerSecret(r *http.Request) (string, error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return "", plumb.Errorf(plumb.EUNAUTHORIZED, "This endpoint needs an API token: send the header \"Authorization: Bearer <token>\", or use HTTP Basic authentication with the token as the user name and an empty password.")
	}
	scheme, secret, ok := strings.Cut(strings.TrimSpace(h), " ")
	secret = strings.TrimSpace(secret)
	if ok && strings.EqualFold(scheme, "Basic") {
		return basicSecret(secret)
	}
	if !ok || !strings.EqualFold(scheme, "Bearer") || secret == "" || strings.ContainsAny(secret, " \t") {
		return "", plumb.Errorf(plumb.EUNAUTHORIZED, "The Authorization header is malformed: expected \"Bearer <token>\" or \"Basic <base64 of token:>\".")
	}
	return secret, nil
}

// basicSecret reads the token from the credentials of HTTP Basic
// authentication: base64 of "<token>:", the password empty.
func basicSecret(cred string) (string, error) {
	raw, err := base64.StdEncoding.DecodeString(cred)
	if err != nil {
		return "", plumb.Errorf(plumb.EUNAUTHORIZED, "The Authorization header is malformed: Basic credentials must be the base64 encoding of \"<token>:\".")
	}
	user, pass, ok := strings.Cut(string(raw), ":")
	switch {
	case !ok || user == "" || strings.ContainsAny(user, " \t"):
		return "", plumb.Errorf(plumb.EUNAUTHORIZED, "The Authorization header is malformed: Basic credentials must be the base64 encoding of \"<token>:\", the API token as the user name.")
	case pass != "":
		return "", plumb.Errorf(plumb.EUNAUTHORIZED, "HTTP Basic authentication takes the API token as the user name and an empty password (curl -u <token>:); no password is accepted.")
	}
	return user, nil
}

// authenticateIngest accepts, on the ingestion endpoints, a user token or a
// project-scoped upload token (c.upload is then set; the rate limit counts
// per upload token).
func (s *Server) authenticateIngest(r *http.Request, c *call) (plumb.Token, error) {
	secret, err := bearerSecret(r)
	if err != nil {
		return plumb.Token{}, err
	}
	if strings.HasPrefix(secret, plumb.UploadTokenPrefix) {
		var ut plumb.UploadToken
		if err := s.lookupToken(r, secret, func() (err error) {
			ut, err = s.store.AuthenticateUpload(r.Context(), secret)
			return err
		}); err != nil {
			return plumb.Token{}, err
		}
		c.upload = &ut
		// Every upload token of a project spends one quota, the project's:
		// minting tokens does not multiply it.
		return plumb.Token{ID: uploadQuotaKey(ut.ProjectID), Name: ut.Name}, nil
	}
	var tok plumb.Token
	err = s.lookupToken(r, secret, func() (err error) {
		c.user, tok, err = s.store.Authenticate(r.Context(), secret)
		return err
	})
	return tok, err
}

// uploadQuotaKey is the rate-limit key of a project's upload tokens.
func uploadQuotaKey(projectID string) string { return "project-uploads:" + projectID }

// optionalAuth authenticates a request if it carries a valid token: a user
// token or an upload token (so the router's 404 and 405, which answer before
// a route decides which tokens it takes, carry an upload token's rate-limit
// headers as its uploads do).
func (s *Server) optionalAuth(r *http.Request) (plumb.User, plumb.Token, bool) {
	if r.Header.Get("Authorization") == "" {
		return plumb.User{}, plumb.Token{}, false
	}
	var c call
	tok, err := s.authenticateIngest(r, &c)
	return c.user, tok, err == nil
}

// countRequest spends one request of the token's quota and sets the headers.
func (s *Server) countRequest(w http.ResponseWriter, r *http.Request, tok plumb.Token) (ratelimit.Status, bool, error) {
	st, ok, err := s.limiter.Take(r.Context(), tok.ID)
	if err != nil {
		return st, false, err
	}
	setRateHeaders(w.Header(), st)
	return st, ok, nil
}

func setRateHeaders(h http.Header, st ratelimit.Status) {
	h.Set("x-ratelimit-limit", strconv.Itoa(st.Limit))
	h.Set("x-ratelimit-remaining", strconv.Itoa(st.Remaining))
	h.Set("x-ratelimit-used", strconv.Itoa(st.Used))
	h.Set("x-ratelimit-reset", strconv.FormatInt(st.Reset.Unix(), 10))
	h.Set("x-ratelimit-resource", "core")
}

// statusWriter remembers whether (and with what status) a response started.
type statusWriter struct {
	http.ResponseWriter
	status  int
	wrote   bool
	started atomic.Bool // wrote, readable by the request-timeout timer
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote {
		w.status, w.wrote = code, true
		w.started.Store(true)
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.status, w.wrote = http.StatusOK, true
		w.started.Store(true)
	}
	return w.ResponseWriter.Write(b)
}

var errRequestTimeout = errors.New("request timeout")

const requestClockKey ctxKey = 1

// requestClock is a request's timeout. An upload stops it while its report
// arrives (bounded instead by the upload limit and the idle-read timeout)
// and restarts it, with time added for the report's size, for the parse and
// the write that follow.
type requestClock struct {
	d     time.Duration
	timer *time.Timer
}

// pauseClock stops the request's clock; the returned function restarts it
// with the full timeout plus extra.
func pauseClock(ctx context.Context) (resume func(extra time.Duration)) {
	c, _ := ctx.Value(requestClockKey).(*requestClock)
	if c == nil {
		return func(time.Duration) {}
	}
	c.timer.Stop()
	return func(extra time.Duration) { c.timer.Reset(c.d + extra) }
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// listResponse is the JSON envelope of a paginated list.
type listResponse[T any] struct {
	Data []T      `json:"data"`
	Meta listMeta `json:"meta"`
}

type listMeta struct {
	HasMore bool `json:"hasMore"`
}

// serveList answers a paginated list in the negotiated format. each runs the
// query for a page (Limit 0: every row). JSON and explicitly paged streams
// fetch one row more than asked to learn hasMore; streams without page[limit]
// export every row in constant memory.
func serveList[T any](s *Server, w http.ResponseWriter, r *http.Request, c *call, each func(p plumb.Page, fn func(T) error) error) error {
	defLimit := 20
	if c.format != formatJSON {
		defLimit = 0
	}
	page, limitGiven := c.query.page(defLimit)
	if err := c.query.err(); err != nil {
		return err
	}
	rowType := reflect.TypeOf((*T)(nil)).Elem()
	if c.format != formatJSON && !limitGiven {
		rw := newRowWriter(w, c.format)
		if err := each(page, func(v T) error { return rw.write(v) }); err != nil {
			return err
		}
		return rw.finish(rowType)
	}
	rows := make([]T, 0, page.Limit+1)
	ask := plumb.Page{Offset: page.Offset, Limit: page.Limit + 1}
	if err := each(ask, func(v T) error { rows = append(rows, v); return nil }); err != nil {
		return err
	}
	hasMore := len(rows) > page.Limit
	if hasMore {
		rows = rows[:page.Limit]
	}
	s.setLinks(w, r, page, hasMore)
	if c.format == formatJSON {
		return writeJSON(w, http.StatusOK, listResponse[T]{Data: rows, Meta: listMeta{HasMore: hasMore}})
	}
	rw := newRowWriter(w, c.format)
	for _, v := range rows {
		if err := rw.write(v); err != nil {
			return err
		}
	}
	return rw.finish(rowType)
}

// setLinks sets the RFC 8288 Link header for the next and previous pages.
func (s *Server) setLinks(w http.ResponseWriter, r *http.Request, p plumb.Page, hasMore bool) {
	var links []string
	link := func(offset int, rel string) {
		q := r.URL.Query()
		q.Set("page[limit]", strconv.Itoa(p.Limit))
		q.Set("page[offset]", strconv.Itoa(offset))
		links = append(links, fmt.Sprintf(`<%s%s?%s>; rel="%s"`, s.baseURL(r), r.URL.EscapedPath(), q.Encode(), rel))
	}
	if hasMore {
		link(p.Offset+p.Limit, "next")
	}
	if p.Offset > 0 {
		prev := p.Offset - p.Limit
		if prev < 0 {
			prev = 0
		}
		link(prev, "prev")
	}
	if len(links) > 0 {
		w.Header().Set("Link", strings.Join(links, ", "))
	}
}

func (s *Server) baseURL(r *http.Request) string {
	return PublicBaseURL(r, s.cfg.BaseURL, s.cfg.TrustHost)
}

// PublicBaseURL is the address links and pages name: the configured base
// URL; else, with trustHost, the request's Host and X-Forwarded-Proto; else
// the address the connection reached, which no client can choose (an
// arbitrary Host is never reflected). The web pages use the same rule.
func PublicBaseURL(r *http.Request, baseURL string, trustHost bool) string {
	if baseURL != "" {
		return strings.TrimRight(baseURL, "/")
	}
	if !trustHost {
		if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
			scheme := "http"
			if r.TLS != nil {
				scheme = "https"
			}
			return scheme + "://" + a.String()
		}
		return ""
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if p := r.Header.Get("X-Forwarded-Proto"); p == "http" || p == "https" {
		scheme = p
	}
	return scheme + "://" + r.Host
}

// errNotFoundf is a shorthand for a 404 with a detail.
func errNotFoundf(format string, args ...any) error {
	return plumb.Errorf(plumb.ENOTFOUND, format, args...)
}
