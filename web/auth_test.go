package web_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb/web"
)

// SetUserPassword keeps the rules and stores a hash that verifies.
func TestSetUserPassword(t *testing.T) {
	s := newSite(t, web.Config{})
	s.person(t, "ada", "")
	ctx := context.Background()
	if err := web.SetUserPassword(ctx, s.DB, "ada", "short"); err == nil || !strings.Contains(err.Error(), "at least 8") {
		t.Errorf("a short password: %v", err)
	}
	if err := web.SetUserPassword(ctx, s.DB, "nobody", "lovelace-1815"); err == nil {
		t.Error("the password of a user that does not exist was set")
	}
	if err := web.SetUserPassword(ctx, s.DB, "ada", "lovelace-1815"); err != nil {
		t.Fatal(err)
	}
	_, hash, err := s.DB.PasswordHash(ctx, "ada")
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := web.VerifyPassword(hash, "lovelace-1815"); !ok || err != nil {
		t.Errorf("the stored hash does not verify: %v, %v", ok, err)
	}
}

func TestPasswordHash(t *testing.T) {
	h, err := web.HashPassword("correct horse")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") || strings.Contains(h, "correct horse") {
		t.Fatalf("hash %q is not an argon2id PHC string", h)
	}
	h2, _ := web.HashPassword("correct horse")
	if h == h2 {
		t.Fatal("two hashes of one password are equal: no salt")
	}
	for pw, want := range map[string]bool{"correct horse": true, "correct horsE": false, "": false} {
		if ok, err := web.VerifyPassword(h, pw); ok != want || err != nil {
			t.Errorf("VerifyPassword(%q) = %v, %v; want %v", pw, ok, err, want)
		}
	}
	for _, bad := range []string{"", "$2a$10$abc", "$argon2id$v=19$m=0,t=1,p=1$AA$AA"} {
		if ok, err := web.VerifyPassword(bad, "x"); ok || err == nil {
			t.Errorf("VerifyPassword of hash %q = %v, %v; want a refusal with an error", bad, ok, err)
		}
	}
	if _, err := web.HashPassword("short"); err == nil {
		t.Error("a 5-character password was accepted")
	}
}

func TestSignInAndOut(t *testing.T) {
	s := newSite(t, web.Config{})
	s.person(t, "ada", "lovelace-1815")
	b := s.browser(t)

	// Signed out: pages redirect to the sign-in form, keeping the address.
	p := b.get("/settings/tokens")
	if p.Status != http.StatusSeeOther || p.Header.Get("Location") != "/login?next=%2Fsettings%2Ftokens" {
		t.Fatalf("signed-out page: %d %q", p.Status, p.Header.Get("Location"))
	}
	b.get("/login").want(t, 200, `name="login"`, `type="password"`)

	b.signIn("ada", "wrong password").want(t, http.StatusUnauthorized, "The login or the password is wrong.")
	b.signIn("nobody", "lovelace-1815").want(t, http.StatusUnauthorized, "The login or the password is wrong.")
	b.do("POST", "/login", url.Values{"login": {"ada"}}).want(t, http.StatusBadRequest, "Enter your login and your password.")

	p = b.do("POST", "/login", url.Values{"login": {"ADA"}, "password": {"lovelace-1815"}, "next": {"/settings/sessions"}})
	if p.Status != http.StatusSeeOther || p.Header.Get("Location") != "/settings/sessions" {
		t.Fatalf("sign-in: %d %q", p.Status, p.Header.Get("Location"))
	}
	cookie := p.Header.Get("Set-Cookie")
	for _, attr := range []string{"plumb_session=", "Path=/", "HttpOnly", "SameSite=Lax", "Max-Age=1209600"} {
		if !strings.Contains(cookie, attr) {
			t.Errorf("session cookie %q lacks %s", cookie, attr)
		}
	}
	// The session's secret is not what the store keeps.
	secret := strings.TrimPrefix(strings.Split(cookie, ";")[0], "plumb_session=")
	list, err := s.DB.ListSessions(t.Context(), mustUser(t, s, "ada"))
	if err != nil || len(list) != 1 || list[0].Method != "password" {
		t.Fatalf("sessions %+v, %v", list, err)
	}
	if strings.Contains(list[0].ID, secret) {
		t.Fatal("the session id is its secret")
	}
	b.get("/settings/sessions").want(t, 200, "Sign out ada", "password")
	// An open redirect is refused: next stays on this site.
	p = b.do("POST", "/login", url.Values{"login": {"ada"}, "password": {"lovelace-1815"}, "next": {"//evil.example/x"}})
	if p.Header.Get("Location") != "/" {
		t.Fatalf("next=//evil.example redirected to %q", p.Header.Get("Location"))
	}
	secret = strings.TrimPrefix(strings.Split(p.Header.Get("Set-Cookie"), ";")[0], "plumb_session=")

	// Sign-out needs the form's token, then ends the session server-side.
	b.do("POST", "/logout", url.Values{}).want(t, http.StatusForbidden)
	csrf := b.csrf("/settings/tokens")
	p = b.do("POST", "/logout", url.Values{"csrf": {csrf}})
	if p.Status != http.StatusSeeOther {
		t.Fatalf("sign-out: %d", p.Status)
	}
	// Replaying the old cookie does not work: the session is revoked.
	old := s.browser(t)
	u, _ := url.Parse(s.URL)
	old.Jar.SetCookies(u, []*http.Cookie{{Name: "plumb_session", Value: secret}})
	if p := old.get("/settings/tokens"); p.Status != http.StatusSeeOther {
		t.Fatalf("a signed-out session still opens pages: %d", p.Status)
	}
}

func mustUser(t *testing.T, s *site, login string) string {
	t.Helper()
	u, err := s.DB.FindUser(t.Context(), login)
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

func TestLoginRateLimit(t *testing.T) {
	s := newSite(t, web.Config{LoginAttempts: 3})
	s.person(t, "ada", "lovelace-1815")
	b := s.browser(t)
	for i := 0; i < 3; i++ {
		b.signIn("ada", "guess").want(t, http.StatusUnauthorized)
	}
	// Used up: even the right password is refused until the delay ends, a
	// second after the third failure (TestSignInLimits has the whole rule).
	p := b.signIn("ada", "lovelace-1815")
	p.want(t, http.StatusTooManyRequests, "Too many failed sign-ins")
	if p.Header.Get("Retry-After") != "1" {
		t.Errorf("429 with Retry-After %q, want 1", p.Header.Get("Retry-After"))
	}
	s.Clock.Advance(time.Second)
	if p := b.signIn("ada", "lovelace-1815"); p.Status != http.StatusSeeOther {
		t.Fatalf("after the delay: %d", p.Status)
	}
}

func TestCSRFProtection(t *testing.T) {
	s := newSite(t, web.Config{})
	s.person(t, "ada", "lovelace-1815")
	b := s.browser(t)
	b.signIn("ada", "lovelace-1815")
	// No token, a wrong token: refused, nothing created.
	b.do("POST", "/settings/tokens", url.Values{"name": {"x"}}).want(t, http.StatusForbidden, "security token")
	b.do("POST", "/settings/tokens", url.Values{"name": {"x"}, "csrf": {"forged"}}).want(t, http.StatusForbidden)
	// A cross-site form (the browser says so) is refused before the token is read.
	csrf := b.csrf("/settings/tokens")
	b.do("POST", "/settings/tokens", url.Values{"name": {"x"}, "csrf": {csrf}}, "Sec-Fetch-Site", "cross-site").
		want(t, http.StatusForbidden, "another site")
	b.do("POST", "/settings/tokens", url.Values{"name": {"x"}, "csrf": {csrf}}, "Origin", "https://evil.example").
		want(t, http.StatusForbidden)
	// Another session's token does not fit this session.
	other := s.browser(t)
	other.signIn("ada", "lovelace-1815")
	b.do("POST", "/settings/tokens", url.Values{"name": {"x"}, "csrf": {other.csrf("/settings/tokens")}}).want(t, http.StatusForbidden)
	if toks, _ := s.DB.ListTokens(t.Context(), "ada"); len(toks) != 0 {
		t.Fatalf("refused forms created %d tokens", len(toks))
	}
	b.do("POST", "/settings/tokens", url.Values{"name": {"x"}, "csrf": {csrf}}, "Sec-Fetch-Site", "same-origin").want(t, http.StatusSeeOther)
}

var secretRE = regexp.MustCompile(`id="new-token" class="secret">(plb_[A-Za-z0-9]+)<`)

func TestTokenSettingsPage(t *testing.T) {
	s := newSite(t, web.Config{})
	s.person(t, "ada", "lovelace-1815")
	b := s.browser(t)
	b.signIn("ada", "lovelace-1815")
	b.get("/settings/tokens").want(t, 200, "No token yet")
	b.post("/settings/tokens", "/settings/tokens", url.Values{"name": {"  "}}).want(t, http.StatusBadRequest, "Give the token a name")

	// Post/redirect/get: the form answers 303 (a reload re-sends nothing),
	// the page it leads to shows the secret once.
	created := b.post("/settings/tokens", "/settings/tokens", url.Values{"name": {"laptop"}})
	created.want(t, http.StatusSeeOther)
	if loc := created.Header.Get("Location"); loc != "/settings/tokens" {
		t.Fatalf("redirected to %q", loc)
	}
	if strings.Contains(created.Body, "plb_") {
		t.Fatal("the redirect carries the secret")
	}
	p := b.get("/settings/tokens")
	p.want(t, 200, "copy it now", "laptop")
	m := secretRE.FindStringSubmatch(p.Body)
	if m == nil {
		t.Fatalf("no secret on the page:\n%s", p.Body)
	}
	secret := m[1]
	// Shown once: a reload does not show it again.
	if strings.Contains(b.get("/settings/tokens").Body, secret) {
		t.Fatal("the token's secret is shown again")
	}
	// The token works on the API, and its use shows on the page.
	if st := s.apiGet(t, "/workspaces", secret, nil); st != 200 {
		t.Fatalf("API with the new token: %d", st)
	}
	// The session cookie never authenticates an API call.
	if st := s.apiGet(t, "/workspaces", "", b.Jar); st != http.StatusUnauthorized {
		t.Fatalf("API with only the session cookie: %d, want 401", st)
	}
	toks, _ := s.DB.ListTokens(t.Context(), "ada")
	if len(toks) != 1 || toks[0].LastUsedAt == nil {
		t.Fatalf("tokens %+v: want one, used", toks)
	}
	// Revoke: the API refuses it at once.
	b.post("/settings/tokens", "/settings/tokens/"+toks[0].ID+"/revoke", nil)
	if st := s.apiGet(t, "/workspaces", secret, nil); st != http.StatusUnauthorized {
		t.Fatalf("API with the revoked token: %d", st)
	}
	b.get("/settings/tokens").want(t, 200, "revoked")
	// Another user's token cannot be revoked from this session.
	s.person(t, "bob", "builder-2000")
	bt, _, _ := s.DB.CreateToken(t.Context(), "bob", "bob's")
	b.post("/settings/tokens", "/settings/tokens/"+bt.ID+"/revoke", nil).want(t, http.StatusNotFound)
}

func TestSessionExpiryAndRevocation(t *testing.T) {
	s := newSite(t, web.Config{SessionTTL: 2 * time.Hour})
	s.person(t, "ada", "lovelace-1815")
	a, b := s.browser(t), s.browser(t)
	a.signIn("ada", "lovelace-1815")
	b.signIn("ada", "lovelace-1815")
	a.get("/settings/sessions").want(t, 200)

	// Revoke b's session from a's sessions page.
	list, _ := s.DB.ListSessions(t.Context(), mustUser(t, s, "ada"))
	if len(list) != 2 {
		t.Fatalf("%d sessions, want 2", len(list))
	}
	bID := list[0].ID // newest first: b signed in last
	a.post("/settings/sessions", "/settings/sessions/"+bID+"/revoke", nil)
	if p := b.get("/settings/tokens"); p.Status != http.StatusSeeOther {
		t.Fatalf("revoked session: %d, want a redirect to sign-in", p.Status)
	}
	// A form sent from the revoked session is refused.
	b.do("POST", "/settings/tokens", url.Values{"name": {"x"}}).want(t, http.StatusUnauthorized)

	// Expiry: two hours after sign-in the session ends.
	s.Clock.Advance(119 * time.Minute)
	a.get("/settings/tokens").want(t, 200)
	s.Clock.Advance(2 * time.Minute)
	if p := a.get("/settings/tokens"); p.Status != http.StatusSeeOther {
		t.Fatalf("expired session: %d", p.Status)
	}
}

// Pages name the server by the API's rule (api.PublicBaseURL): without a base
// URL, the address the connection reached, never an arbitrary Host header,
// unless the operator trusts it (--trust-host).
func TestPagesNeverReflectHost(t *testing.T) {
	for _, trust := range []bool{false, true} {
		s := newSite(t, web.Config{TrustHost: trust})
		s.person(t, "ada", "lovelace-1815")
		b := s.browser(t)
		if p := b.signIn("ada", "lovelace-1815"); p.Status != http.StatusSeeOther {
			t.Fatalf("sign-in: %d %s", p.Status, p.Body)
		}
		// A token made on the tokens page is shown (on the page the form
		// redirects to) with a curl line naming the server.
		form := url.Values{"name": {"ci"}, "csrf": {b.csrf("/settings/tokens")}}
		send := func(method string, body io.Reader) (*http.Response, string) {
			req, err := http.NewRequest(method, s.URL+"/settings/tokens", body)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Host = "evil.example"
			for _, c := range b.Jar.Cookies(req.URL) {
				req.AddCookie(c)
			}
			resp, err := http.DefaultTransport.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			return resp, string(raw)
		}
		if resp, _ := send("POST", strings.NewReader(form.Encode())); resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/settings/tokens" {
			t.Fatalf("trust %v: status %d %s", trust, resp.StatusCode, resp.Header.Get("Location"))
		}
		resp, body := send("GET", nil)
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, `id="new-token"`) {
			t.Fatalf("trust %v: status %d %s", trust, resp.StatusCode, body)
		}
		if got := strings.Contains(body, "evil.example"); got != trust {
			t.Errorf("trust %v: page names the request's Host: %v", trust, got)
		}
		if !trust && !strings.Contains(body, s.URL) {
			t.Errorf("page does not name the address the connection reached (%s)", s.URL)
		}
	}
}
