package web_test

// Sign-in security (issue 19, items 20-23): where sign-in leads (`next`),
// the sign-in limits under parallel attempts and across replicas, the limits'
// rule at its boundaries, and a disabled user's sign-in.

import (
	"encoding/base64"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plumbhq/plumb/internal/proctest"
	"github.com/plumbhq/plumb/internal/testclock"
	"github.com/plumbhq/plumb/sqlstore/sqltest"
	"github.com/plumbhq/plumb/web"
)

// Where sign-in leads. Each target is tried everywhere a `next` is used: the
// sign-in form's GET with a session, its POST, the form it renders, single
// sign-on (started with it, or slipped into the sign-on cookie), and
// sign-out, which always leads to /login.
var (
	nextAccepted = []string{
		"/",
		"/settings/tokens",
		"/settings/sessions/",
		"/w/acme/web-shop/issues?level=error&page=2",
		"/w/acme/web-shop/coverage?path=src%2Fmy%20file.go&ref=feature%2Fx",
		"/w/acme/web-shop/components/My%20Component/edit",
		"/w/acme/web-shop/metrics#coverage",
		"/w/caf%C3%A9",
		"/w/acme/x..y/.hidden",
	}
	nextRefused = []string{
		"", "evil.example", "#x", "?next=/", ".", "./x", "../x",
		// Another host, as url.Parse or a browser reads it.
		"//evil.example", "///evil.example", "//evil.example/x", "https://evil.example", "HTTPS://evil.example/",
		"http:evil.example", "http:/evil.example", "javascript:alert(1)", "JaVaScRiPt:alert(1)", "data:text/html,x",
		"/\\evil.example", "\\/evil.example", "\\\\evil.example", "/\\/evil.example",
		// Characters browsers drop or strip, as written.
		"/\t/evil.example", "/\t\\evil.example", "/\n/evil.example", "/\r\n/evil.example", "\t//evil.example",
		" /evil.example", "/evil.example ", "/ /evil.example", "/\x00/evil.example", "/\x0b/evil.example",
		"/\x1f/evil.example", "/\x7f/evil.example",
		"/\u00a0/evil.example", "/\u3000/evil.example", "/\u2028/evil.example", "/\u200b/evil.example",
		"/\ufeff/evil.example", "/\u202e/evil.example", "/\uff0f/evil.example", "/é",
		// The same, percent-encoded (once, twice, three times).
		"/%09/evil.example", "/%09%5cevil.example", "/%5cevil.example", "/%5C%5Cevil.example",
		"/%2f%2fevil.example", "/%2F/evil.example", "/%2f/evil.example", "/%252f%252fevil.example",
		"/%25252f%25252fevil.example", "/%2525252fevil.example", "/%0d%0a/evil.example",
		"/x%0d%0aSet-Cookie:%20a=b", "/x?a=%0d%0aSet-Cookie:a", "/x?a=%09", "/x#%0a", "/%00", "/%7f/evil.example",
		"/%c2%a0/evil.example", "/%e3%80%80/evil.example", "/%e2%80%8b/evil.example", "/%e2%80%ae/evil.example",
		"/%ff", "/%zz", "/x?q=100%", "/%2509/evil.example", "/%255c/evil.example",
		// Dot segments, which a browser resolves before it reads the path.
		"/.//evil.example", "/./evil.example", "/../evil.example", "/x/..//evil.example", "/x/.", "/x/..",
		"/%2e/%2fevil.example", "/%2e%2e/evil.example", "/%2E//evil.example", "/x/%252e%252e",
		// Too long.
		"/" + strings.Repeat("a", 3000),
	}
)

var nextFieldRE = regexp.MustCompile(`name="next" value="([^"]*)"`)

func TestSignInNextRedirects(t *testing.T) {
	provider := newIDP(t)
	s := newSite(t, web.Config{OIDC: web.OIDCConfig{Issuer: provider.URL, ClientID: clientID, ClientSecret: clientSecret, CreateUsers: true}})
	s.person(t, "ada", "lovelace-1815")
	signedIn := s.browser(t)
	signedIn.signIn("ada", "lovelace-1815").want(t, http.StatusSeeOther)
	ada := map[string]any{"sub": "u-1", "preferred_username": "grace"}

	location := func(p page) string {
		t.Helper()
		if p.Status != http.StatusSeeOther {
			t.Fatalf("status %d, want 303; body:\n%.1000s", p.Status, p.Body)
		}
		return p.Header.Get("Location")
	}
	try := func(next, want string) {
		t.Helper()
		// The sign-in form with a session leads on at once.
		if got := location(signedIn.get("/login?next=" + url.QueryEscape(next))); got != want {
			t.Errorf("GET /login?next=%q with a session: Location %q, want %q", next, got, want)
		}
		// Without one it carries next in its form, or nothing.
		form := s.browser(t).get("/login?next=" + url.QueryEscape(next))
		wantField := next
		if want != next {
			wantField = ""
		}
		if m := nextFieldRE.FindStringSubmatch(form.Body); m == nil || html.UnescapeString(m[1]) != wantField {
			t.Errorf("GET /login?next=%q: the form's next is %q, want %q", next, m, wantField)
		}
		// A password sign-in.
		b := s.browser(t)
		p := b.do("POST", "/login", url.Values{"login": {"ada"}, "password": {"lovelace-1815"}, "next": {next}})
		if got := location(p); got != want {
			t.Errorf("POST /login next=%q: Location %q, want %q", next, got, want)
		}
		// Sign-out leads to the sign-in form, whatever it is given.
		p = b.do("POST", "/logout?next="+url.QueryEscape(next), url.Values{"csrf": {b.csrf("/settings/tokens")}, "next": {next}})
		if got := location(p); got != "/login" {
			t.Errorf("POST /logout next=%q: Location %q, want /login", next, got)
		}
		// Single sign-on started with next.
		if got := location(oidcSignIn(t, s.browser(t), provider, ada, next)); got != want {
			t.Errorf("OIDC sign-in with next=%q: Location %q, want %q", next, got, want)
		}
		// Single sign-on whose cookie was given next behind the server's back:
		// the callback checks it again.
		if got := location(oidcTampered(t, s, provider, ada, next)); got != want {
			t.Errorf("OIDC callback with next=%q in its cookie: Location %q, want %q", next, got, want)
		}
	}
	for _, next := range nextAccepted {
		try(next, next)
	}
	for _, next := range nextRefused {
		try(next, "/")
	}
}

// oidcTampered starts single sign-on with next "/", replaces the next in the
// sign-on cookie by next, and finishes the sign-on.
func oidcTampered(t *testing.T, s *site, provider *idp, claims map[string]any, next string) page {
	t.Helper()
	b := s.browser(t)
	provider.mu.Lock()
	provider.person = claims
	provider.mu.Unlock()
	start := b.get("/auth/oidc?next=/")
	u, _ := url.Parse(s.URL)
	var cookie *http.Cookie
	for _, c := range b.Jar.Cookies(u) {
		if c.Name == "plumb_oidc" {
			cookie = c
		}
	}
	parts := strings.Split(cookie.Value, ".")
	if len(parts) != 4 {
		t.Fatalf("sign-on cookie %q", cookie.Value)
	}
	parts[3] = base64.RawURLEncoding.EncodeToString([]byte(next))
	b.Jar.SetCookies(u, []*http.Cookie{{Name: "plumb_oidc", Value: strings.Join(parts, "."), Path: "/"}})
	return b.get(providerAnswer(t, start.Header.Get("Location")).RequestURI())
}

// 31 sign-ins at once, 30 wrong and one right, on one server and on two
// servers sharing one database: no more wrong passwords are checked than
// the limit allows (5 from one address to one login); all the others are
// refused with 429 before any hashing, the right one too unless it was
// among the first five.
func TestSignInParallelAttempts(t *testing.T) {
	for _, replicas := range []int{1, 2} {
		t.Run(fmt.Sprintf("%d servers", replicas), func(t *testing.T) {
			clk := testclock.New(t0)
			dsn := sqltest.DSN(t)
			var sites []*site
			for i := 0; i < replicas; i++ {
				sites = append(sites, replica(t, web.Config{}, dsn, clk, io.Discard))
			}
			sites[0].person(t, "ada", "lovelace-1815")
			statuses := make([]int, 31)
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i := range statuses {
				wg.Add(1)
				go func() {
					defer wg.Done()
					pw := "wrong-password"
					if i == 15 {
						pw = "lovelace-1815"
					}
					form := url.Values{"login": {"ada"}, "password": {pw}}
					<-start
					resp, err := noRedirects.PostForm(sites[i%replicas].URL+"/login", form)
					if err != nil {
						t.Error(err)
						return
					}
					resp.Body.Close()
					statuses[i] = resp.StatusCode
				}()
			}
			close(start)
			wg.Wait()
			count := map[int]int{}
			for _, st := range statuses {
				count[st]++
			}
			wrong, right, refused := count[http.StatusUnauthorized], count[http.StatusSeeOther], count[http.StatusTooManyRequests]
			if wrong+right+refused != 31 || wrong > 5 || wrong < 4 || wrong+right < 5 || (right == 1) != (statuses[15] == http.StatusSeeOther) {
				t.Fatalf("statuses %v: %d wrong passwords checked, %d signed in, %d refused; want at most 5 checked and the rest refused",
					statuses, wrong, right, refused)
			}
			list, _ := sites[0].DB.ListSessions(t.Context(), mustUser(t, sites[0], "ada"))
			if len(list) != right {
				t.Fatalf("%d sessions after %d sign-ins", len(list), right)
			}
			// The delay runs on every server: one second, then the right
			// password signs in.
			b := sites[replicas-1].browser(t)
			b.signIn("ada", "lovelace-1815").want(t, http.StatusTooManyRequests, "Try again in 1 second.")
			clk.Advance(time.Second)
			b.signIn("ada", "lovelace-1815").want(t, http.StatusSeeOther)
		})
	}
}

var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// from sends a sign-in from a client address (the server trusts
// X-Forwarded-For, as behind a proxy).
func (b *browser) from(addr, login, password string) page {
	b.t.Helper()
	return b.do("POST", "/login", url.Values{"login": {login}, "password": {password}, "next": {"/"}}, "X-Forwarded-For", addr)
}

func (p page) refused(t *testing.T, retryAfter string) {
	t.Helper()
	p.want(t, http.StatusTooManyRequests, "Too many failed sign-ins.")
	if got := p.Header.Get("Retry-After"); got != retryAfter {
		t.Fatalf("Retry-After %q, want %q", got, retryAfter)
	}
}

// The rule of docs/web.md ("Sign-in limits") at its boundaries, with 2 free
// failures per login and address (so 8 per login, 40 per address).
func TestSignInLimits(t *testing.T) {
	s := newSite(t, web.Config{LoginAttempts: 2, TrustHost: true})
	s.person(t, "ada", "lovelace-1815")
	s.person(t, "bob", "builder-2000")
	s.person(t, "carol", "carol-password")
	const right, wrong = "lovelace-1815", "a wrong one"
	b := s.browser(t)
	ms := time.Millisecond

	// One address, one login: two failures are free; then 1 s, 2 s, 4 s…
	// A refused attempt is not checked, even with the right password.
	b.from("10.0.0.1", "ada", wrong).want(t, http.StatusUnauthorized, "The login or the password is wrong.")
	b.from("10.0.0.1", "ada", wrong).want(t, http.StatusUnauthorized)
	b.from("10.0.0.1", "ada", right).refused(t, "1")
	s.Clock.Advance(999 * ms)
	b.from("10.0.0.1", "ada", right).refused(t, "1")
	s.Clock.Advance(1 * ms)
	b.from("10.0.0.1", "ada", wrong).want(t, http.StatusUnauthorized)
	b.from("10.0.0.1", "ada", right).refused(t, "2")
	s.Clock.Advance(2 * time.Second)
	b.from("10.0.0.1", "ada", wrong).want(t, http.StatusUnauthorized)
	p := b.from("10.0.0.1", "ada", right)
	p.refused(t, "4")
	p.want(t, http.StatusTooManyRequests, "Try again in 4 seconds.")
	// The login is folded as sign-in folds it: ADA is ada.
	b.from("10.0.0.1", "ADA", right).refused(t, "4")
	b.from("10.0.0.1", " Ada ", wrong).refused(t, "4")
	// Another address of the same login is not held back: its owner signs in.
	b.from("10.0.0.2", "ada", right).want(t, http.StatusSeeOther)

	// The login alone, from anywhere: 8 failures free (4 so far, the right
	// password gave its attempt back), then a delay for every address it has
	// not signed in from...
	for _, addr := range []string{"10.0.1.1", "10.0.1.1", "10.0.1.2", "2001:db8::1"} {
		b.from(addr, "ada", wrong).want(t, http.StatusUnauthorized)
	}
	// ... IPv6 counts by /64: 2001:db8::2 is the same client as 2001:db8::1.
	b.from("2001:db8::2", "ada", wrong).refused(t, "1")
	b.from("10.0.1.3", "ada", right).refused(t, "1")
	// ... but not for the address it signed in from.
	b.from("10.0.0.2", "ada", right).want(t, http.StatusSeeOther)
	s.Clock.Advance(time.Second)
	b.from("10.0.1.3", "ada", right).want(t, http.StatusSeeOther)

	// The address alone, for any login: 40 failures free, then a delay for
	// every login that has not signed in from it.
	b.from("10.0.2.1", "bob", "builder-2000").want(t, http.StatusSeeOther)
	for i := 0; i < 40; i++ {
		b.from("10.0.2.1", fmt.Sprintf("user%d", i/2), wrong).want(t, http.StatusUnauthorized)
	}
	b.from("10.0.2.1", "carol", "carol-password").refused(t, "1")
	b.from("10.0.2.1", "bob", "builder-2000").want(t, http.StatusSeeOther)
	b.from("10.0.2.2", "carol", "carol-password").want(t, http.StatusSeeOther)

	// A day without an attempt: the counters start again. The last attempt
	// counted from 10.0.0.1 was a second ago; a millisecond short of a day
	// after it, its count goes on (a 5th failure: 8 s).
	s.Clock.Advance(24*time.Hour - time.Second - time.Millisecond)
	b.from("10.0.0.1", "ada", wrong).want(t, http.StatusUnauthorized)
	b.from("10.0.0.1", "ada", right).refused(t, "8")
	s.Clock.Advance(24 * time.Hour)
	b.from("10.0.0.1", "ada", wrong).want(t, http.StatusUnauthorized)
	b.from("10.0.0.1", "ada", wrong).want(t, http.StatusUnauthorized)
	b.from("10.0.0.1", "ada", right).refused(t, "1")
}

// A disabled user's right password answers exactly as a wrong one: 401 with
// the same page, no session, no ERROR log line, and it counts as a failure.
func TestDisabledUserSignIn(t *testing.T) {
	p := newIDP(t)
	logs := &proctest.Log{}
	s := replica(t, web.Config{LoginAttempts: 3, OIDC: web.OIDCConfig{Issuer: p.URL, ClientID: clientID, ClientSecret: clientSecret}},
		sqltest.DSN(t), testclock.New(t0), logs)
	s.person(t, "ada", "lovelace-1815")
	ctx := t.Context()
	if err := s.DB.SetUserEmail(ctx, "ada", "ada@example.org"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB.SetUserDisabled(ctx, "ada", true); err != nil {
		t.Fatal(err)
	}
	b := s.browser(t)
	wrongPage := b.signIn("ada", "not her password")
	rightPage := b.signIn("ada", "lovelace-1815")
	wrongPage.want(t, http.StatusUnauthorized, "The login or the password is wrong.")
	if rightPage.Status != wrongPage.Status || rightPage.Body != wrongPage.Body {
		t.Fatalf("right password: %d\n%s\nwrong password: %d\n%s", rightPage.Status, rightPage.Body, wrongPage.Status, wrongPage.Body)
	}
	for _, p := range []page{wrongPage, rightPage} {
		if c := p.Header.Get("Set-Cookie"); strings.Contains(c, "plumb_session=") && !strings.Contains(c, "plumb_session=;") {
			t.Fatalf("a refused sign-in set a session cookie: %q", c)
		}
	}
	// It counted: the third refused attempt closes the door, right or wrong.
	b.signIn("ada", "lovelace-1815").want(t, http.StatusUnauthorized)
	b.signIn("ada", "lovelace-1815").refused(t, "1")

	// Single sign-on of a disabled user is refused too (403), without an error.
	oidcSignIn(t, s.browser(t), p, map[string]any{"sub": "a-1", "email": "ada@example.org", "email_verified": true}, "/").
		want(t, http.StatusForbidden, "your Plumb account is disabled")

	if list, _ := s.DB.ListSessions(ctx, mustUser(t, s, "ada")); len(list) != 0 {
		t.Fatalf("a disabled user has %d sessions", len(list))
	}
	if out := logs.String(); strings.Contains(out, "level=ERROR") || !strings.Contains(out, "sign-in refused") {
		t.Fatalf("log:\n%s", out)
	}
}
