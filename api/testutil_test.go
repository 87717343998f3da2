package api_test

// The shared HTTP test harness of the api package. Tests talk HTTP to the real
// server (api.NewServer over a real SQLite store in t.TempDir()), with a fake
// clock shared by the store, the rate limiter and the server.
//
// Every response a test receives through do (or get) is checked against the
// OpenAPI document (openapi.Document) with openapitest, and against the
// contract's cross-cutting rules (error body shape, WWW-Authenticate on 401,
// Allow on 405, Retry-After on 429, the five x-ratelimit-* headers on every
// response to a request with a valid token). A test therefore only asserts
// what is particular to it.
//
// API (keep it stable; other test files use it):
//
//	ts := newTestServer(t, withRateLimit(10), withConfig(api.Config{...}),
//	                    withLimiter(l))
//	ts.URL, ts.DB, ts.API, ts.Clock (a testclock.Clock: Now, Advance, Set; starts
//	at t0), ts.Logs (the server's log)
//	fixtures:  ts.user, ts.token, ts.tokenFor, ts.revoke, ts.workspace,
//	           ts.member, ts.project, ts.projectAdmin, ts.setApplications,
//	           ts.setComponents, ts.application, ts.applicationProject,
//	           ts.snapshot, ts.build
//	requests:  ts.do(t, method, path, token, headers, body) *resp
//	           ts.get(t, path, token, headers...) *resp
//	           ts.checkResponse(t, req, r) for a request built by hand
//	responses: r.Status, r.Header, r.Body, r.json(t), r.details(t),
//	           r.links(t) (Link rel → URL), r.wantStatus(t, code),
//	           r.wantJSON(t, code, want), r.wantError(t, code, substrings...)
//	helpers:   hdr(k, v, ...), jsonBody, assertJSON, mustJSON, mustUnmarshal,
//	           dataOf, ndjsonLines, csvRecords, rateLimitOf, headerStatus,
//	           tsf, ptr, t0
//	world:     w := newWorld(t, opts...) builds the usual cast (below).

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/routers"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api"
	"github.com/plumbhq/plumb/internal/proctest"
	"github.com/plumbhq/plumb/internal/testclock"
	"github.com/plumbhq/plumb/openapi"
	"github.com/plumbhq/plumb/openapi/openapitest"
	"github.com/plumbhq/plumb/ratelimit"
	"github.com/plumbhq/plumb/sqlstore"
	"github.com/plumbhq/plumb/sqlstore/sqltest"
)

// t0 is the fake clock's start: a Monday, whole seconds, UTC.
var t0 = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

// serverConfig collects the options of newTestServer.
type serverConfig struct {
	rateLimit int
	cfg       api.Config
	limiter   ratelimit.Limiter
	store     sqlstore.Options
	dsn       string           // an existing database (another server on it)
	clock     *testclock.Clock // the server's clock (default: a new one at t0)
}

// serverOption configures newTestServer.
type serverOption func(*serverConfig)

// withRateLimit sets the per-token quota of the in-memory limiter (default 5000).
func withRateLimit(n int) serverOption { return func(c *serverConfig) { c.rateLimit = n } }

// withConfig sets the server's api.Config (body limit, base URL).
func withConfig(cfg api.Config) serverOption { return func(c *serverConfig) { c.cfg = cfg } }

// withStore sets the store's options (staged-write chunks and hook).
func withStore(o sqlstore.Options) serverOption { return func(c *serverConfig) { c.store = o } }

// onDatabase starts the server on an existing database (as a second
// replica, or a server started after another stopped) with its own clock.
func onDatabase(dsn string, clock *testclock.Clock) serverOption {
	return func(c *serverConfig) { c.dsn, c.clock = dsn, clock }
}

// withLimiter replaces the in-memory limiter (e.g. with a failing one); the
// harness then does not check the x-ratelimit-* headers.
func withLimiter(l ratelimit.Limiter) serverOption { return func(c *serverConfig) { c.limiter = l } }

// testServer is a running API server over a fresh SQLite database.
type testServer struct {
	URL   string
	DSN   string // the database's URL, for tests that break it on purpose
	DB    *sqlstore.DB
	API   *api.Server
	Clock *testclock.Clock
	Logs  *proctest.Log

	srv       *httptest.Server
	validator *openapitest.Validator

	ownLimiter bool // the harness's limiter: the rate-limit headers are checked

	mu   sync.Mutex
	live map[string]bool // secrets of valid (created, not revoked) tokens
	ids  map[string]string
}

var (
	validatorOnce sync.Once
	validator     *openapitest.Validator
	validatorErr  string
)

func sharedValidator(t testing.TB) *openapitest.Validator {
	t.Helper()
	validatorOnce.Do(func() {
		ft := &fatalRecorder{}
		func() {
			defer func() { _ = recover() }()
			validator = openapitest.New(ft, openapi.Document())
		}()
		validatorErr = ft.msg
	})
	if validator == nil {
		t.Fatalf("the OpenAPI document cannot be loaded: %s", validatorErr)
	}
	return validator
}

// fatalRecorder is a testing.TB that records a Fatalf from openapitest.New
// (called once for every test of the package).
type fatalRecorder struct {
	testing.TB
	msg string
}

func (f *fatalRecorder) Helper() {}
func (f *fatalRecorder) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	panic(f.msg)
}

// TestMain runs the whole suite once per database backend (see sqltest).
func TestMain(m *testing.M) { os.Exit(sqltest.Run(m)) }

// newTestServer starts the API over a new database of the current backend
// (a SQLite file in t.TempDir(), or a PostgreSQL schema).
// Everything is closed when the test ends.
func newTestServer(t *testing.T, opts ...serverOption) *testServer {
	t.Helper()
	c := serverConfig{rateLimit: 5000}
	for _, o := range opts {
		o(&c)
	}
	clock := c.clock
	if clock == nil {
		clock = testclock.New(t0)
	}
	ctx := context.Background()
	dsn := c.dsn
	if dsn == "" {
		dsn = sqltest.DSN(t)
	}
	c.store.Now = clock.Now
	db, err := sqlstore.Open(ctx, dsn, c.store)
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	limiter := c.limiter
	if limiter == nil {
		limiter = ratelimit.NewMemory(c.rateLimit, clock.Now)
	}
	logs := &proctest.Log{}
	s := api.NewServer(db, limiter, slog.New(slog.NewTextHandler(logs, nil)), c.cfg)
	s.SetClock(clock.Now)
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return &testServer{URL: srv.URL, DSN: dsn, DB: db, API: s, Clock: clock, Logs: logs, srv: srv,
		validator: sharedValidator(t), ownLimiter: c.limiter == nil, live: map[string]bool{}, ids: map[string]string{}}
}

// ---- fixtures ----

func check(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("fixture: %v", err)
	}
}

// user creates a user with the given login.
func (ts *testServer) user(t testing.TB, login string) plumb.User {
	t.Helper()
	v, err := ts.DB.CreateUser(context.Background(), login, strings.ToUpper(login[:1])+login[1:])
	check(t, err)
	return v
}

// token creates a token for an existing user and returns its secret.
func (ts *testServer) token(t testing.TB, login string) string {
	t.Helper()
	_, secret := ts.tokenFor(t, login)
	return secret
}

// tokenFor creates a token for an existing user and returns it with its secret.
func (ts *testServer) tokenFor(t testing.TB, login string) (plumb.Token, string) {
	t.Helper()
	tok, secret, err := ts.DB.CreateToken(context.Background(), login, "test")
	check(t, err)
	ts.mu.Lock()
	ts.live[secret] = true
	ts.ids[tok.ID] = secret
	ts.mu.Unlock()
	return tok, secret
}

// revoke revokes a token by id.
func (ts *testServer) revoke(t testing.TB, tokenID string) {
	t.Helper()
	check(t, ts.DB.RevokeToken(context.Background(), tokenID))
	ts.mu.Lock()
	delete(ts.live, ts.ids[tokenID])
	ts.mu.Unlock()
}

// workspace creates a workspace.
func (ts *testServer) workspace(t testing.TB, in plumb.WorkspaceInput) plumb.Workspace {
	t.Helper()
	v, err := ts.DB.CreateWorkspace(context.Background(), in)
	check(t, err)
	return v
}

// member adds a user to a workspace with a role (plumb.RoleMember, plumb.RoleAdmin).
func (ts *testServer) member(t testing.TB, workspace, login, role string) {
	t.Helper()
	check(t, ts.DB.AddMember(context.Background(), workspace, login, role))
}

// project creates a project (default branch "main" unless given).
func (ts *testServer) project(t testing.TB, in plumb.ProjectInput) plumb.Project {
	t.Helper()
	v, err := ts.DB.CreateProject(context.Background(), in)
	check(t, err)
	return v
}

// projectAdmin makes a user admin of the project "workspace/project".
func (ts *testServer) projectAdmin(t testing.TB, ref, login string) {
	t.Helper()
	check(t, ts.DB.AddProjectAdmin(context.Background(), ref, login))
}

func (ts *testServer) setApplications(t testing.TB, workspace string, on bool) {
	t.Helper()
	check(t, ts.DB.SetApplicationsEnabled(context.Background(), workspace, on))
}

func (ts *testServer) setComponents(t testing.TB, ref string, on bool) {
	t.Helper()
	check(t, ts.DB.SetComponentsEnabled(context.Background(), ref, on))
}

// application creates an application in a workspace (by id).
func (ts *testServer) application(t testing.TB, workspaceID, name, description string) plumb.Application {
	t.Helper()
	v, err := ts.DB.CreateApplication(context.Background(), workspaceID, name, description)
	check(t, err)
	return v
}

// applicationProject puts a project into an application.
func (ts *testServer) applicationProject(t testing.TB, workspace, application, project string) {
	t.Helper()
	check(t, ts.DB.AddApplicationProject(context.Background(), workspace, application, project))
}

// snapshot stores an analysis; on the default branch it becomes the current one.
func (ts *testServer) snapshot(t testing.TB, in plumb.SnapshotInput) plumb.Snapshot {
	t.Helper()
	v, err := ts.DB.AddSnapshot(context.Background(), in)
	check(t, err)
	return v
}

// build stores a build.
func (ts *testServer) build(t testing.TB, b plumb.Build) plumb.Build {
	t.Helper()
	v, err := ts.DB.AddBuild(context.Background(), b)
	check(t, err)
	return v
}

// ---- the usual cast ----

// world is the cast most tests need:
//   - alice (token Alice): member of acme, a workspace with Applications
//     enabled and the projects web and api.
//   - bob (token Bob): admin of globex (Applications enabled, project vault),
//     which alice cannot see; bob is not a member of acme.
type world struct {
	*testServer
	Alice, Bob   string // token secrets
	AliceToken   plumb.Token
	Acme, Globex plumb.Workspace
	Web, API     plumb.Project
	Vault        plumb.Project
}

func newWorld(t *testing.T, opts ...serverOption) *world {
	t.Helper()
	ts := newTestServer(t, opts...)
	w := &world{testServer: ts}
	ts.user(t, "alice")
	ts.user(t, "bob")
	w.AliceToken, w.Alice = ts.tokenFor(t, "alice")
	w.Bob = ts.token(t, "bob")
	w.Acme = ts.workspace(t, plumb.WorkspaceInput{Key: "acme", ApplicationsEnabled: true})
	w.Globex = ts.workspace(t, plumb.WorkspaceInput{Key: "globex", ApplicationsEnabled: true})
	ts.member(t, "acme", "alice", plumb.RoleMember)
	ts.member(t, "globex", "bob", plumb.RoleAdmin)
	w.Web = ts.project(t, plumb.ProjectInput{Workspace: "acme", Key: "web"})
	w.API = ts.project(t, plumb.ProjectInput{Workspace: "acme", Key: "api"})
	w.Vault = ts.project(t, plumb.ProjectInput{Workspace: "globex", Key: "vault"})
	return w
}

// ---- requests ----

// resp is one HTTP response, read in full.
type resp struct {
	Status int
	Header http.Header
	Body   []byte

	method, path string
}

func (r *resp) String() string {
	return fmt.Sprintf("%s %s → %d %s", r.method, r.path, r.Status, truncate(string(r.Body), 600))
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// hdr builds a header map from name/value pairs.
func hdr(kv ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// jsonBody is the Content-Type header of a JSON request body.
var jsonBody = map[string]string{"Content-Type": "application/json"}

// get sends a GET with an optional header map.
func (ts *testServer) get(t testing.TB, path, token string, headers ...map[string]string) *resp {
	t.Helper()
	h := map[string]string{}
	for _, m := range headers {
		for k, v := range m {
			h[k] = v
		}
	}
	return ts.do(t, http.MethodGet, path, token, h, "")
}

// do sends a request and returns the response, read in full. path is
// relative to the server ("/workspaces?page[limit]=2") or an absolute URL of
// the server (a Link target). token, when not empty, is sent as
// "Authorization: Bearer <token>"; headers may override Authorization. body,
// when not empty, is sent as is (set its Content-Type in headers).
//
// The response is checked against the OpenAPI document and the contract's
// cross-cutting rules; problems fail the test (t.Errorf) but do not stop it.
func (ts *testServer) do(t testing.TB, method, path, token string, headers map[string]string, body string) *resp {
	t.Helper()
	url := path
	if !strings.HasPrefix(path, "http://") && !strings.HasPrefix(path, "https://") {
		url = ts.URL + path
	}
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatalf("new request %s %s: %v", method, path, err)
	}
	return ts.send(t, req, path, token, headers)
}

// send sends req (for path, as errors name it) with token and headers as
// do does, reads the response in full and checks it.
func (ts *testServer) send(t testing.TB, req *http.Request, path, token string, headers map[string]string) *resp {
	t.Helper()
	method := req.Method
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := ts.srv.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, path, err)
	}
	r := &resp{Status: res.StatusCode, Header: res.Header, Body: b, method: method, path: path}
	ts.checkResponse(t, req, r)
	return r
}

// operational are the endpoints outside the v1 description.
func operational(path string) bool { return path == "/healthz" || path == "/readyz" }

// checkResponse applies the document and the contract's cross-cutting rules.
func (ts *testServer) checkResponse(t testing.TB, req *http.Request, r *resp) {
	t.Helper()
	err := ts.validator.Validate(req, r.Status, r.Header, r.Body)
	switch {
	case err == nil:
	case errors.Is(err, routers.ErrPathNotFound) || errors.Is(err, routers.ErrMethodNotAllowed):
		// Not an operation of the document: only the router's 404/405 and
		// the operational endpoints answer such requests.
		if !(r.Status == http.StatusNotFound || r.Status == http.StatusMethodNotAllowed || operational(req.URL.Path) || req.URL.Path == "/hooks/github") {
			t.Errorf("undocumented request answered %d (want a router 404/405): %s", r.Status, r)
		}
	default:
		t.Errorf("response does not match the OpenAPI document: %v\n%s", err, r)
	}

	if r.Status >= 400 && !operational(req.URL.Path) && req.Method != http.MethodHead {
		checkErrorBody(t, r)
	}
	switch r.Status {
	case http.StatusUnauthorized:
		if v := r.Header.Get("WWW-Authenticate"); !strings.HasPrefix(v, "Bearer") {
			t.Errorf("401 without WWW-Authenticate: Bearer (got %q): %s", v, r)
		}
	case http.StatusMethodNotAllowed:
		if r.Header.Get("Allow") == "" {
			t.Errorf("405 without Allow: %s", r)
		}
	case http.StatusTooManyRequests:
		if n, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || n < 1 {
			t.Errorf("429 with Retry-After %q, want whole seconds ≥ 1: %s", r.Header.Get("Retry-After"), r)
		}
	}

	ts.mu.Lock()
	scheme, secret, _ := strings.Cut(req.Header.Get("Authorization"), " ")
	valid := strings.EqualFold(scheme, "Bearer") && ts.live[secret]
	ts.mu.Unlock()
	if req.Header.Get("Authorization") == "" {
		for _, h := range rateLimitHeaders {
			if v := r.Header.Get(h); v != "" {
				t.Errorf("response to a request without a token carries %s: %q: %s", h, v, r)
			}
		}
	} else if valid && ts.ownLimiter && r.Status != http.StatusInternalServerError {
		checkRateLimitHeaders(t, r)
	}
}

var rateLimitHeaders = []string{"x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-used", "x-ratelimit-reset", "x-ratelimit-resource"}

// checkRateLimitHeaders checks the five x-ratelimit-* headers of a response
// to a request with a valid token.
func checkRateLimitHeaders(t testing.TB, r *resp) {
	t.Helper()
	n := map[string]int64{}
	for _, h := range rateLimitHeaders[:4] {
		v := r.Header.Get(h)
		x, err := strconv.ParseInt(v, 10, 64)
		if err != nil || x < 0 {
			t.Errorf("%s is %q, want a non-negative integer: %s", h, v, r)
		}
		n[h] = x
	}
	if v := r.Header.Get("x-ratelimit-resource"); v != "core" {
		t.Errorf("x-ratelimit-resource is %q, want core: %s", v, r)
	}
	if n["x-ratelimit-used"]+n["x-ratelimit-remaining"] != n["x-ratelimit-limit"] {
		t.Errorf("x-ratelimit-used + remaining != limit (%v): %s", n, r)
	}
}

// checkErrorBody checks the contract's error body: JSON,
// {"errors":[{"status","title","detail"}]} with exactly those members,
// status the code as a string, title the reason phrase, a detail.
func checkErrorBody(t testing.TB, r *resp) {
	t.Helper()
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("error response with Content-Type %q, want application/json: %s", ct, r)
	}
	var body map[string]any
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Errorf("error body is not a JSON object: %v: %s", err, r)
		return
	}
	errs, ok := body["errors"].([]any)
	if len(body) != 1 || !ok || len(errs) == 0 {
		t.Errorf(`error body is not {"errors":[...]} with at least one error: %s`, r)
		return
	}
	for _, e := range errs {
		o, ok := e.(map[string]any)
		if !ok || len(o) != 3 {
			t.Errorf("error object %v does not have exactly status, title and detail: %s", e, r)
			continue
		}
		if o["status"] != strconv.Itoa(r.Status) {
			t.Errorf("error object status is %v, want %q: %s", o["status"], strconv.Itoa(r.Status), r)
		}
		if o["title"] != http.StatusText(r.Status) {
			t.Errorf("error object title is %v, want %q: %s", o["title"], http.StatusText(r.Status), r)
		}
		if d, _ := o["detail"].(string); strings.TrimSpace(d) == "" {
			t.Errorf("error object without a detail: %s", r)
		}
	}
}

// ---- assertions ----

// json parses the body as JSON.
func (r *resp) json(t testing.TB) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(r.Body, &v); err != nil {
		t.Fatalf("body is not JSON: %v: %s", err, r)
	}
	return v
}

// details returns the detail of each error object of an error body.
func (r *resp) details(t testing.TB) []string {
	t.Helper()
	var body struct {
		Errors []struct{ Detail string } `json:"errors"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatalf("error body is not JSON: %v: %s", err, r)
	}
	out := make([]string, len(body.Errors))
	for i, e := range body.Errors {
		out[i] = e.Detail
	}
	return out
}

// wantStatus fails the test unless the response has the status.
func (r *resp) wantStatus(t testing.TB, status int) *resp {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d: %s", r.Status, status, r)
	}
	return r
}

// wantJSON checks the status and that the body equals want (JSON text,
// compared parsed, so formatting and member order do not matter).
func (r *resp) wantJSON(t testing.TB, status int, want string) *resp {
	t.Helper()
	r.wantStatus(t, status)
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	assertJSON(t, r.Body, want)
	return r
}

// wantError checks an error response: the status and, when substrings are
// given, one error object per substring whose detail contains it (in any
// order: each substring claims a different error object).
func (r *resp) wantError(t testing.TB, status int, detailSubstrings ...string) *resp {
	t.Helper()
	r.wantStatus(t, status)
	if len(detailSubstrings) == 0 {
		return r
	}
	d := r.details(t)
	if len(d) != len(detailSubstrings) {
		t.Fatalf("%d error objects, want %d (%q): %s", len(d), len(detailSubstrings), detailSubstrings, r)
	}
	used := make([]bool, len(d))
	for _, s := range detailSubstrings {
		found := false
		for i := range d {
			if !used[i] && strings.Contains(d[i], s) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			t.Errorf("no error detail contains %q: %q", s, d)
		}
	}
	return r
}

// assertJSON compares JSON documents parsed.
func assertJSON(t testing.TB, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("got invalid JSON: %v: %s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want is invalid JSON: %v: %s", err, want)
	}
	if !reflect.DeepEqual(g, w) {
		gb, _ := json.MarshalIndent(g, "", "  ")
		wb, _ := json.MarshalIndent(w, "", "  ")
		t.Errorf("JSON body differs\n got: %s\nwant: %s", gb, wb)
	}
}

// mustJSON marshals v (for building expected bodies).
func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// ndjsonLines parses an NDJSON body into its values.
func ndjsonLines(t testing.TB, body []byte) []any {
	t.Helper()
	out := []any{}
	if len(body) > 0 && body[len(body)-1] != '\n' {
		t.Errorf("NDJSON body does not end with a newline: %q", truncate(string(body), 200))
	}
	for _, line := range strings.Split(strings.TrimSuffix(string(body), "\n"), "\n") {
		if line == "" && len(body) == 0 {
			continue
		}
		var v any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("NDJSON line %q: %v", line, err)
		}
		out = append(out, v)
	}
	return out
}

// dataOf returns the data array of a JSON list body.
func dataOf(t testing.TB, r *resp) []any {
	t.Helper()
	m, ok := r.json(t).(map[string]any)
	if !ok {
		t.Fatalf("body is not an object: %s", r)
	}
	d, ok := m["data"].([]any)
	if !ok {
		t.Fatalf("body has no data array: %s", r)
	}
	return d
}

// tsf formats a time as the API does.
func tsf(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func ptr[T any](v T) *T { return &v }

// links parses the response's RFC 8288 Link header into rel → URL.
func (r *resp) links(t testing.TB) map[string]string {
	t.Helper()
	out := map[string]string{}
	h := r.Header.Get("Link")
	if h == "" {
		return out
	}
	for _, part := range strings.Split(h, ",") {
		part = strings.TrimSpace(part)
		m := linkPattern.FindStringSubmatch(part)
		if m == nil {
			t.Fatalf("malformed Link header part %q in %q", part, h)
		}
		if _, dup := out[m[2]]; dup {
			t.Errorf("Link header has rel=%q twice: %q", m[2], h)
		}
		out[m[2]] = m[1]
	}
	return out
}

var linkPattern = regexp.MustCompile(`^<([^>]*)>\s*;\s*rel="([a-z]+)"$`)

// csvRecords parses a CSV body (RFC 4180: every record with the header's
// number of fields, CRLF line ends).
func csvRecords(t testing.TB, body []byte) [][]string {
	t.Helper()
	if len(body) > 0 && !bytes.HasSuffix(body, []byte("\r\n")) {
		t.Errorf("CSV body does not end with CRLF: %q", truncate(string(body), 200))
	}
	recs, err := csv.NewReader(bytes.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatalf("malformed CSV: %v: %q", err, truncate(string(body), 600))
	}
	return recs
}

// rateLimit is the core resource of GET /rate_limit.
type rateLimit struct {
	Limit, Used, Remaining int
	Reset                  int64
}

// headerStatus reads the x-ratelimit-* headers of a response.
func headerStatus(t testing.TB, r *resp) rateLimit {
	t.Helper()
	n := func(h string) int64 {
		v, err := strconv.ParseInt(r.Header.Get(h), 10, 64)
		if err != nil {
			t.Fatalf("%s %q: %s", h, r.Header.Get(h), r)
		}
		return v
	}
	return rateLimit{Limit: int(n("x-ratelimit-limit")), Used: int(n("x-ratelimit-used")),
		Remaining: int(n("x-ratelimit-remaining")), Reset: n("x-ratelimit-reset")}
}

// rateLimitOf reads a token's status from GET /rate_limit, checking that
// the body agrees with the response's own x-ratelimit-* headers.
func rateLimitOf(t testing.TB, ts *testServer, token string) rateLimit {
	t.Helper()
	r := ts.get(t, "/rate_limit", token).wantStatus(t, http.StatusOK)
	var body struct {
		Resources struct{ Core rateLimit }
	}
	mustUnmarshal(t, r.Body, &body)
	if h := headerStatus(t, r); h != body.Resources.Core {
		t.Errorf("/rate_limit body %+v disagrees with its headers %+v", body.Resources.Core, h)
	}
	return body.Resources.Core
}

// mustUnmarshal parses JSON into v.
func mustUnmarshal(t testing.TB, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("JSON %q: %v", truncate(string(b), 300), err)
	}
}
