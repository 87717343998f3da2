package web

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
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

// startSession signs a user in: a new session, its cookie, and a redirect to
// next (by localPath's rule). A user disabled meanwhile is an EUNAUTHORIZED
// error, with nothing written, for the caller to refuse the sign-in as it
// refuses any other.
func (s *Server) startSession(w http.ResponseWriter, r *http.Request, u plumb.User, method, next string) error {
	secret := newSecret()
	if _, err := s.store.CreateSession(r.Context(), u.ID, plumb.HashToken(secret), method, r.UserAgent(), s.cfg.SessionTTL); err != nil {
		if plumb.ErrorCode(err) == plumb.EUNAUTHORIZED {
			return err
		}
		s.log.Error("create session", "error", err)
		s.renderError(w, r, http.StatusInternalServerError, "Signing in failed on our side; try again in a moment.")
		return nil
	}
	s.setCookie(w, r, sessionCookie, secret, s.cfg.SessionTTL)
	s.log.Info("signed in", "user", u.Login, "method", method)
	http.Redirect(w, r, localPath(next), http.StatusSeeOther)
	return nil
}

type loginData struct {
	Login, Next, Error string
	OIDC               bool
	OIDCName           string
}

func (s *Server) handleLoginForm(w http.ResponseWriter, r *http.Request) {
	next := r.URL.Query().Get("next")
	if _, ok := s.signedIn(w, r); ok {
		http.Redirect(w, r, localPath(next), http.StatusSeeOther)
		return
	}
	if !isLocalPath(next) {
		next = ""
	}
	s.renderLogin(w, r, http.StatusOK, loginData{Next: next})
}

func (s *Server) renderLogin(w http.ResponseWriter, r *http.Request, status int, d loginData) {
	d.OIDC = s.oidc != nil
	if d.OIDC {
		d.OIDCName = s.cfg.OIDC.displayName()
	}
	s.render(w, r, status, "login", &view{Title: "Sign in", Data: d})
}

// refusedSignIn is the one answer to every refused password: a wrong one, an
// unknown login, a login without a password, a disabled user.
const refusedSignIn = "The login or the password is wrong."

// handleLogin checks a login and password, within the sign-in limits
// (signin_limits.go): the attempt is counted before the password is hashed,
// and refused with 429 while a delay runs, right password or not. Every
// refused password answers the same 401 after the same work (a hash is
// checked even for an unknown login or a disabled user), and logs no error.
func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		s.renderLogin(w, r, http.StatusBadRequest, loginData{Error: "The form could not be read."})
		return
	}
	login := strings.TrimSpace(r.PostForm.Get("login"))
	pw := r.PostForm.Get("password")
	d := loginData{Login: login, Next: r.PostForm.Get("next")}
	if !isLocalPath(d.Next) {
		d.Next = ""
	}
	if login == "" || pw == "" {
		d.Error = "Enter your login and your password."
		s.renderLogin(w, r, http.StatusBadRequest, d)
		return
	}
	ctx := r.Context()
	addr := s.clientAddr(r)
	attempt := s.loginAttempt(login, addr)
	defer s.pruneLoginThrottle(r)
	res, err := s.store.ReserveLoginAttempt(ctx, attempt)
	if err != nil {
		s.log.Error("sign-in limits", "error", err)
		s.renderError(w, r, http.StatusInternalServerError, "Signing in failed on our side; try again in a moment.")
		return
	}
	if res.Wait > 0 {
		w.Header().Set("Retry-After", fmt.Sprint(int((res.Wait+time.Second-1)/time.Second)))
		d.Error = "Too many failed sign-ins. Try again in " + waitText(res.Wait) + "."
		s.renderLogin(w, r, http.StatusTooManyRequests, d)
		return
	}
	cred, err := s.store.SignInCredentials(ctx, login)
	if err != nil && plumb.ErrorCode(err) != plumb.ENOTFOUND {
		s.log.Error("sign-in lookup failed", "error", err)
		s.renderError(w, r, http.StatusInternalServerError, "Signing in failed on our side; try again in a moment.")
		return
	}
	ok := false
	if err == nil && cred.Hash != "" {
		ok, _ = VerifyPassword(cred.Hash, pw)
	} else {
		// The same work for an unknown login, or one without a password, as
		// for a wrong password; it never signs anyone in.
		_, _ = VerifyPassword(dummyHash(), pw)
	}
	refuse := func() {
		s.log.Info("sign-in refused", "addr", addr)
		d.Error = refusedSignIn
		s.renderLogin(w, r, http.StatusUnauthorized, d)
	}
	if !ok || cred.Disabled {
		refuse()
		return
	}
	if err := s.startSession(w, r, cred.User, "password", d.Next); err != nil {
		refuse()
		return
	}
	if err := s.store.LoginSucceeded(ctx, attempt, res); err != nil {
		s.log.Warn("sign-in limits: record a sign-in", "error", err)
	}
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
	Sessions []plumb.Session
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
