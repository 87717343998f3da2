package web_test

// The web's HTTP test harness: the real site (web.Mount over api.NewServer)
// on a real store of the current backend (sqltest: SQLite, and PostgreSQL
// when PLUMB_TEST_POSTGRES_URL is set), with a fake clock shared by the
// store, the API and the web. Browsers are http.Clients with a cookie jar
// that do not follow redirects, so each answer is seen as sent.

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb/api"
	"github.com/plumbhq/plumb/internal/testclock"
	"github.com/plumbhq/plumb/ratelimit"
	"github.com/plumbhq/plumb/sqlstore"
	"github.com/plumbhq/plumb/sqlstore/sqltest"
	"github.com/plumbhq/plumb/web"
)

func TestMain(m *testing.M) { os.Exit(sqltest.Run(m)) }

var t0 = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

type site struct {
	URL   string
	DB    *sqlstore.DB
	Clock *testclock.Clock
	Web   *web.Server
}

func newSite(t testing.TB, cfg web.Config) *site {
	t.Helper()
	return replica(t, cfg, sqltest.DSN(t), testclock.New(t0), io.Discard)
}

// replica starts the site (web and API) on the database at dsn with the
// clock clk, logging to logs: several replicas on one dsn share one
// database, as they do behind a load balancer.
func replica(t testing.TB, cfg web.Config, dsn string, clk *testclock.Clock, logs io.Writer) *site {
	t.Helper()
	db, err := sqlstore.Open(context.Background(), dsn, sqlstore.Options{Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	log := slog.New(slog.NewTextHandler(logs, nil))
	a := api.NewServer(db, ratelimit.NewMemory(5000, clk.Now), log, api.Config{})
	a.SetClock(clk.Now)
	w, err := web.New(db, log, cfg)
	if err != nil {
		t.Fatal(err)
	}
	w.SetClock(clk.Now)
	ts := httptest.NewServer(w.Mount(a))
	t.Cleanup(ts.Close)
	return &site{URL: ts.URL, DB: db, Clock: clk, Web: w}
}

// person creates a user with a password.
func (s *site) person(t testing.TB, login, password string) {
	t.Helper()
	ctx := context.Background()
	if _, err := s.DB.CreateUser(ctx, login, strings.ToUpper(login[:1])+login[1:]); err != nil {
		t.Fatal(err)
	}
	if password != "" {
		if err := web.SetUserPassword(ctx, s.DB, login, password); err != nil {
			t.Fatal(err)
		}
	}
}

type browser struct {
	*http.Client
	site *site
	t    testing.TB
}

func (s *site) browser(t testing.TB) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{Client: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
		site: s, t: t}
}

type page struct {
	Status int
	Header http.Header
	Body   string
}

func (b *browser) do(method, path string, form url.Values, headers ...string) page {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, b.site.URL+path, body)
	if err != nil {
		b.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := b.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return page{Status: resp.StatusCode, Header: resp.Header, Body: string(raw)}
}

func (b *browser) get(path string, headers ...string) page { return b.do("GET", path, nil, headers...) }

// post sends a form with the CSRF token of the page at from.
func (b *browser) post(from, path string, form url.Values) page {
	b.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	form.Set("csrf", b.csrf(from))
	return b.do("POST", path, form)
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func (b *browser) csrf(from string) string {
	b.t.Helper()
	p := b.get(from)
	m := csrfRE.FindStringSubmatch(p.Body)
	if m == nil {
		b.t.Fatalf("no CSRF token on %s (status %d)", from, p.Status)
	}
	return m[1]
}

func (b *browser) signIn(login, password string) page {
	b.t.Helper()
	return b.do("POST", "/login", url.Values{"login": {login}, "password": {password}, "next": {"/"}})
}

func (p page) want(t *testing.T, status int, contains ...string) {
	t.Helper()
	if p.Status != status {
		t.Fatalf("status %d, want %d; body:\n%.2000s", p.Status, status, p.Body)
	}
	for _, c := range contains {
		if !strings.Contains(p.Body, c) {
			t.Fatalf("body lacks %q:\n%.3000s", c, p.Body)
		}
	}
}

// apiGet calls the API with a bearer token (or none) and an optional cookie
// jar's cookies.
func (s *site) apiGet(t *testing.T, path, token string, jar http.CookieJar) int {
	t.Helper()
	req, _ := http.NewRequest("GET", s.URL+path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	c := &http.Client{Jar: jar}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
