package web

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/sqlstore"
)

// sessionCookie holds the session's secret; the store keeps only its
// SHA-256. The cookie is HttpOnly, SameSite=Lax, and Secure whenever the site
// is served over HTTPS.
const sessionCookie = "plumb_session"

func newSecret() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// csrfFor derives a session's form token from its secret: forms carry it,
// and a POST whose token does not match its session cookie is refused.
func csrfFor(secret string) string {
	sum := sha256.Sum256([]byte("plumb-csrf\x00" + secret))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

func validCSRF(want, got string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(want), []byte(got)) == 1
}

func (s *Server) secure(r *http.Request) bool {
	return r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" || strings.HasPrefix(s.cfg.BaseURL, "https://")
}

func (s *Server) setCookie(w http.ResponseWriter, r *http.Request, name, value string, maxAge time.Duration) {
	c := &http.Cookie{Name: name, Value: value, Path: "/", HttpOnly: true, Secure: s.secure(r), SameSite: http.SameSiteLaxMode}
	if maxAge < 0 {
		c.MaxAge = -1
	} else {
		c.MaxAge = int(maxAge / time.Second)
	}
	http.SetCookie(w, c)
}

// signedIn reads the session cookie: the view of a signed-in user, or false.
func (s *Server) signedIn(w http.ResponseWriter, r *http.Request) (*view, bool) {
	c, err := r.Cookie(sessionCookie)
	if err != nil || c.Value == "" {
		return &view{}, false
	}
	u, _, err := s.store.SessionUser(r.Context(), plumb.HashToken(c.Value))
	if err != nil {
		if plumb.ErrorCode(err) != plumb.EUNAUTHORIZED {
			s.log.Error("session lookup failed", "error", err)
		}
		s.setCookie(w, r, sessionCookie, "", -1)
		return &view{}, false
	}
	return &view{User: &u, CSRF: csrfFor(c.Value)}, true
}

// startSession signs a user in: a new session, its cookie, and a redirect.
func (s *Server) startSession(w http.ResponseWriter, r *http.Request, u plumb.User, method, next string) {
	secret := newSecret()
	if _, err := s.store.CreateSession(r.Context(), u.ID, plumb.HashToken(secret), method, r.UserAgent(), s.cfg.SessionTTL); err != nil {
		s.log.Error("create session", "error", err)
		s.renderError(w, r, http.StatusInternalServerError, "Signing in failed on our side; try again in a moment.")
		return
	}
	s.setCookie(w, r, sessionCookie, secret, s.cfg.SessionTTL)
	s.log.Info("signed in", "user", u.Login, "method", method)
	http.Redirect(w, r, localPath(next), http.StatusSeeOther)
}

// localPath keeps a redirect target on this site: a path starting with one
// slash, or "/".
func localPath(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/\\") || strings.ContainsAny(next, "\r\n") {
		return "/"
	}
	return next
}

type loginData struct {
	Login, Next, Error string
	OIDC               bool
	OIDCName           string
}

func (s *Server) handleLoginForm(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.signedIn(w, r); ok {
		http.Redirect(w, r, localPath(r.URL.Query().Get("next")), http.StatusSeeOther)
		return
	}
	s.renderLogin(w, r, http.StatusOK, loginData{Next: r.URL.Query().Get("next")})
}

func (s *Server) renderLogin(w http.ResponseWriter, r *http.Request, status int, d loginData) {
	d.OIDC = s.oidc != nil
	if d.OIDC {
		d.OIDCName = s.cfg.OIDC.displayName()
	}
	s.render(w, r, status, "login", &view{Title: "Sign in", Data: d})
}

// clientAddr is the address a sign-in attempt counts against.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// handleLogin checks a login and password. Failed attempts are counted per
// login and per client address (fixed one-hour windows); once either is
// used up, sign-in answers 429 until the window ends, right or wrong.
func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		s.renderLogin(w, r, http.StatusBadRequest, loginData{Error: "The form could not be read."})
		return
	}
	login := strings.TrimSpace(r.PostForm.Get("login"))
	pw := r.PostForm.Get("password")
	d := loginData{Login: login, Next: r.PostForm.Get("next")}
	if login == "" || pw == "" {
		d.Error = "Enter your login and your password."
		s.renderLogin(w, r, http.StatusBadRequest, d)
		return
	}
	ctx := r.Context()
	loginKey, addrKey := "login:"+strings.ToLower(login), "addr:"+clientAddr(r)
	stL, _ := s.byLogin.Peek(ctx, loginKey)
	stA, _ := s.byAddr.Peek(ctx, addrKey)
	if stL.Remaining == 0 || stA.Remaining == 0 {
		reset := stL.Reset
		if stA.Remaining == 0 && stA.Reset.After(reset) {
			reset = stA.Reset
		}
		wait := reset.Sub(s.now()).Round(time.Minute)
		if wait < time.Minute {
			wait = time.Minute
		}
		w.Header().Set("Retry-After", fmt.Sprint(int(reset.Sub(s.now()).Seconds())+1))
		d.Error = fmt.Sprintf("Too many failed sign-ins. Try again in %s.", wait)
		s.renderLogin(w, r, http.StatusTooManyRequests, d)
		return
	}
	u, hash, err := s.store.PasswordHash(ctx, login)
	ok := false
	if err == nil && hash != "" {
		ok, _ = VerifyPassword(hash, pw)
	} else {
		// Same work for an unknown login as for a wrong password.
		_, _ = VerifyPassword(dummyHash, pw)
		if err != nil && plumb.ErrorCode(err) != plumb.ENOTFOUND {
			s.log.Error("sign-in lookup failed", "error", err)
		}
	}
	if !ok {
		_, _, _ = s.byLogin.Take(ctx, loginKey)
		_, _, _ = s.byAddr.Take(ctx, addrKey)
		s.log.Info("sign-in refused", "addr", clientAddr(r))
		d.Error = "The login or the password is wrong."
		s.renderLogin(w, r, http.StatusUnauthorized, d)
		return
	}
	s.startSession(w, r, u, "password", d.Next)
}

// handleLogout ends the session of the cookie. It is a POST from a form
// (cross-origin protection applies); its CSRF token is checked too.
func (s *Server) handleLogout(w http.ResponseWriter, r *http.Request) {
	c, err := r.Cookie(sessionCookie)
	if err == nil && c.Value != "" {
		_ = r.ParseForm()
		if !validCSRF(csrfFor(c.Value), r.PostForm.Get("csrf")) {
			s.renderError(w, r, http.StatusForbidden, "The form's security token is missing or stale. Reload the page and sign out again.")
			return
		}
		if err := s.store.RevokeSessionHash(r.Context(), plumb.HashToken(c.Value)); err != nil {
			s.log.Error("sign out", "error", err)
		}
	}
	s.setCookie(w, r, sessionCookie, "", -1)
	http.Redirect(w, r, "/login", http.StatusSeeOther)
}

type sessionsData struct {
	Sessions []sqlstore.Session
	Now      time.Time
}

func (s *Server) handleSessions(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	list, err := s.store.ListSessions(r.Context(), v.User.ID)
	if err != nil {
		return "", err
	}
	v.Title = "Sessions"
	v.Crumbs = []crumb{{"Settings", "/settings/tokens"}, {"Sessions", ""}}
	v.Data = sessionsData{Sessions: list, Now: s.now()}
	return "sessions", nil
}

func (s *Server) handleRevokeSession(w http.ResponseWriter, r *http.Request, v *view) (string, error) {
	if err := s.store.RevokeSession(r.Context(), v.User.ID, r.PathValue("id")); err != nil {
		return "", err
	}
	http.Redirect(w, r, "/settings/sessions", http.StatusSeeOther)
	return "", nil
}
