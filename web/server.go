// Package web serves Plumb's pages for people: sign-in, the API token
// settings page, dashboards of workspaces and projects, the HTML API
// reference and the badges. It runs in the same binary as the API, on the
// same store and the same visibility rules: a page of a workspace the user is
// not a member of answers 404, as the API does. Pages are rendered on the
// server with html/template; templates, styles and the little JavaScript there
// is are embedded. A session cookie never authenticates an API call.
package web

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"github.com/plumbhq/plumb/codehost"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api"
)

//go:embed templates static
var assets embed.FS

// Config holds the web's settings.
type Config struct {
	// BaseURL is the public address of the server (for OIDC redirects and
	// the addresses shown on pages); empty: taken from each request.
	BaseURL string
	// TrustHost: without BaseURL, addresses come from the request's Host
	// (only behind a proxy that sets it), as for the API (--trust-host).
	TrustHost bool
	// SessionTTL is how long a session lasts after sign-in (default 14 days).
	SessionTTL time.Duration
	// LoginAttempts is the number of failed sign-ins from one address to one
	// login before each further one delays the next (default 5); the login
	// alone gets 4× as many, the address alone 20× (signin_limits.go).
	LoginAttempts int
	// OIDC configures single sign-on; zero: password sign-in only.
	OIDC OIDCConfig
	// GitHubApp is the server's GitHub App, if any: a GitHub connection
	// may then go without a token (settings_project.go), as on the API.
	GitHubApp *codehost.App
	// CodeHost is the client of the settings' "test connection" (a zero
	// Client: http.DefaultClient).
	CodeHost codehost.Client
}

// Server serves the pages. Build it with New and put it in front of the API
// with Mount.
type Server struct {
	store   Store
	log     *slog.Logger
	cfg     Config
	now     func() time.Time
	mux     *routeMux
	pages   map[string]*template.Template
	pruneMu sync.Mutex // guards pruned
	pruned  time.Time  // when the sign-in counters were last pruned
	cop     *http.CrossOriginProtection
	oidc    *oidcClient
	// rendered and trees keep what the file pages make (files_cache.go).
	rendered *lruCache[renderKey, *renderedSource]
	trees    *lruCache[treeKey, []plumb.TreeFile]
}

// New returns the web server with every dependency given explicitly.
func New(store Store, log *slog.Logger, cfg Config) (*Server, error) {
	if cfg.SessionTTL <= 0 {
		cfg.SessionTTL = 14 * 24 * time.Hour
	}
	if cfg.LoginAttempts <= 0 {
		cfg.LoginAttempts = 5
	}
	s := &Server{store: store, log: log, cfg: cfg, now: time.Now, mux: &routeMux{ServeMux: http.NewServeMux()}, cop: http.NewCrossOriginProtection(),
		rendered: newLRU[renderKey](renderCacheBytes, renderedSize), trees: newLRU[treeKey](treeCacheBytes, treeSize)}
	s.cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.renderError(w, r, http.StatusForbidden, "This form was sent from another site, so it was refused (cross-site request forgery protection). Reload the page and send it again.")
	}))
	if err := s.parseTemplates(); err != nil {
		return nil, err
	}
	if cfg.OIDC.Issuer != "" {
		o, err := newOIDCClient(context.Background(), cfg.OIDC)
		if err != nil {
			return nil, err
		}
		s.oidc = o
	}
	s.routes()
	return s, nil
}

// SetClock replaces the server's clock (tests share a fake one with the store).
func (s *Server) SetClock(now func() time.Time) { s.now = now }

// Mount returns the handler of the whole site: the web's pages and badges,
// and api for every other request.
func (s *Server) Mount(api http.Handler) http.Handler {
	web := s.cop.Handler(securityHeaders(s.mux))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if badgeRequest(r.URL.Path) {
			s.handleBadge(w, r)
			return
		}
		if _, pattern := s.mux.Handler(r); pattern != "" {
			web.ServeHTTP(w, r)
			return
		}
		api.ServeHTTP(w, r)
	})
}

// Handler is the web alone (no API behind it), for tests.
func (s *Server) Handler() http.Handler { return s.Mount(http.NotFoundHandler()) }

func securityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "same-origin")
		hd.Set("X-Frame-Options", "DENY")
		h.ServeHTTP(w, r)
	})
}

// routes is the web's whole route table. Every path here is outside the
// API's (which lives under /workspaces, /gh/, /ingest/, /user, /rate_limit…).
func (s *Server) routes() {
	m := s.mux
	static, _ := fs.Sub(assets, "static")
	m.Handle("GET /static/", http.StripPrefix("/static/", cacheFor(http.FileServerFS(static))))
	m.HandleFunc("GET /favicon.ico", handleFavicon)

	m.HandleFunc("GET /{$}", s.page(s.handleHome))
	m.HandleFunc("GET /login", s.handleLoginForm)
	m.HandleFunc("POST /login", s.handleLogin)
	m.HandleFunc("POST /logout", s.handleLogout)
	m.HandleFunc("GET /auth/oidc", s.handleOIDCStart)
	m.HandleFunc("GET /auth/oidc/callback", s.handleOIDCCallback)

	m.HandleFunc("GET /settings/tokens", s.page(s.handleTokens))
	m.HandleFunc("POST /settings/tokens", s.form(s.handleCreateToken))
	m.HandleFunc("POST /settings/tokens/{id}/revoke", s.form(s.handleRevokeToken))
	m.HandleFunc("GET /settings/sessions", s.page(s.handleSessions))
	m.HandleFunc("POST /settings/sessions/{id}/revoke", s.form(s.handleRevokeSession))

	m.HandleFunc("GET /docs/api", s.handleAPIDocs)

	const project = "/w/{ws}/{project}"
	m.HandleFunc("GET /w/{ws}", s.page(s.handleWorkspace))
	m.HandleFunc("GET /w/{ws}/applications", s.page(s.handleApplications))
	m.HandleFunc("GET "+project, s.page(s.handleProject))
	m.HandleFunc("GET "+project+"/metrics", s.page(s.handleMetrics))
	m.HandleFunc("GET "+project+"/issues", s.page(s.handleIssues))
	m.HandleFunc("GET "+project+"/issues.csv", s.page(s.handleIssuesExport("csv")))
	m.HandleFunc("GET "+project+"/issues.ndjson", s.page(s.handleIssuesExport("ndjson")))
	m.HandleFunc("GET "+project+"/builds", s.page(s.handleBuilds))
	m.HandleFunc("GET "+project+"/builds/{build}", s.page(s.handleBuild))
	m.HandleFunc("GET "+project+"/pulls", s.page(s.handlePulls))
	m.HandleFunc("GET "+project+"/pulls/{pull}", s.page(s.handlePull))
	m.HandleFunc("GET "+project+"/components", s.page(s.handleComponents))
	m.HandleFunc("POST "+project+"/components", s.form(s.handleCreateComponent))
	m.HandleFunc("GET "+project+"/components/{component}/edit", s.page(s.handleEditComponent))
	m.HandleFunc("POST "+project+"/components/{component}", s.form(s.handleUpdateComponent))
	m.HandleFunc("POST "+project+"/components/{component}/delete", s.form(s.handleDeleteComponent))
	m.HandleFunc("GET "+project+"/coverage", s.page(s.handleCoverage))
	m.HandleFunc("GET "+project+"/files", s.page(s.handleFiles))
	m.HandleFunc("GET "+project+"/files/{path...}", s.page(s.handleFiles))
	m.HandleFunc("GET "+project+"/settings", s.page(s.handleProjectSettings))
	m.HandleFunc("POST "+project+"/upload-tokens", s.form(s.handleCreateUploadToken))
	m.HandleFunc("POST "+project+"/upload-tokens/{id}/revoke", s.form(s.handleRevokeUploadToken))
	m.HandleFunc("POST "+project+"/badges", s.form(s.handleBadgeSwitch))
	m.HandleFunc("POST "+project+"/sources", s.form(s.handleSourcesSwitch))
	s.projectSettingsRoutes(project)
}

// routeMux is a ServeMux that remembers its patterns, so tests can check
// that every page kind is reached (web/crawl_test.go).
type routeMux struct {
	*http.ServeMux
	patterns []string
}

func (m *routeMux) Handle(pattern string, h http.Handler) {
	m.patterns = append(m.patterns, pattern)
	m.ServeMux.Handle(pattern, h)
}

func (m *routeMux) HandleFunc(pattern string, h func(http.ResponseWriter, *http.Request)) {
	m.Handle(pattern, http.HandlerFunc(h))
}

func cacheFor(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=3600")
		h.ServeHTTP(w, r)
	})
}

// handleFavicon serves the site's icon at the address browsers ask for
// (web/static/favicon.ico, a day in caches).
func handleFavicon(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "image/x-icon")
	w.Header().Set("Cache-Control", "public, max-age=86400")
	http.ServeFileFS(w, r, assets, "static/favicon.ico")
}

// view is what every page template receives.
type view struct {
	Title  string
	User   *plumb.User
	CSRF   string
	Crumbs []crumb
	Path   string // the request's path and query: the page's permalink
	Flash  string
	Data   any
}

type crumb struct{ Label, URL string }

// pageFunc serves a page for a signed-in user; it fills v and names the
// template, or returns an error (rendered as an error page).
type pageFunc func(w http.ResponseWriter, r *http.Request, v *view) (string, error)

// page wraps a GET page: it needs a session (else it redirects to sign-in)
// and renders the template the handler names.
func (s *Server) page(fn pageFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v, ok := s.signedIn(w, r)
		if !ok {
			http.Redirect(w, r, "/login?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
			return
		}
		s.finish(w, r, v, fn)
	}
}

// form wraps a POST: it needs a session and the form's CSRF token (on top
// of the cross-origin check every unsafe request passes).
func (s *Server) form(fn pageFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v, ok := s.signedIn(w, r)
		if !ok {
			s.renderError(w, r, http.StatusUnauthorized, "Your session has ended. Sign in again, then send the form again.")
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
		if err := r.ParseForm(); err != nil {
			s.renderError(w, r, http.StatusBadRequest, "The form could not be read.")
			return
		}
		if !validCSRF(v.CSRF, r.PostForm.Get("csrf")) {
			s.renderError(w, r, http.StatusForbidden, "The form's security token is missing or stale (cross-site request forgery protection). Reload the page and send it again.")
			return
		}
		s.finish(w, r, v, fn)
	}
}

// finish runs a page handler and renders its template or its error.
func (s *Server) finish(w http.ResponseWriter, r *http.Request, v *view, fn pageFunc) {
	name, err := fn(w, r, v)
	if err != nil {
		s.fail(w, r, v, err)
		return
	}
	if name != "" {
		s.render(w, r, http.StatusOK, name, v)
	}
}

// fail renders an application error as a page with the API's status.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, v *view, err error) {
	status := http.StatusInternalServerError
	msg := "Something went wrong on our side; it has been logged. Try again in a moment."
	switch plumb.ErrorCode(err) {
	case plumb.ENOTFOUND:
		status, msg = http.StatusNotFound, "There is nothing here, or you are not a member of its workspace."
	case plumb.EFORBIDDEN:
		status, msg = http.StatusForbidden, strings.Join(plumb.ErrorDetails(err), " ")
	case plumb.EINVALID, plumb.ECONFLICT:
		status, msg = http.StatusBadRequest, strings.Join(plumb.ErrorDetails(err), " ")
		if plumb.ErrorCode(err) == plumb.ECONFLICT {
			status = http.StatusConflict
		}
	default:
		if errors.Is(err, context.Canceled) {
			return
		}
		s.log.Error("web page failed", "path", r.URL.Path, "error", err)
	}
	v.Title = http.StatusText(status)
	v.Data = msg
	s.render(w, r, status, "error", v)
}

func (s *Server) renderError(w http.ResponseWriter, r *http.Request, status int, msg string) {
	s.render(w, r, status, "error", &view{Title: http.StatusText(status), Data: msg, Path: r.URL.RequestURI()})
}

// render executes a page template into a buffer first, so a template error
// is a clean 500 rather than half a page.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, name string, v *view) {
	if v.Path == "" {
		v.Path = r.URL.RequestURI()
	}
	t := s.pages[name]
	var buf bytes.Buffer
	if t == nil {
		s.log.Error("no such page template", "name", name)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	if err := t.ExecuteTemplate(&buf, "layout", v); err != nil {
		s.log.Error("render page", "name", name, "error", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// baseURL is the address pages name, by the API's rule (api.PublicBaseURL):
// never an arbitrary Host header unless the operator trusts it.
func (s *Server) baseURL(r *http.Request) string {
	return api.PublicBaseURL(r, s.cfg.BaseURL, s.cfg.TrustHost)
}
