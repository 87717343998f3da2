package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/web"
)

// sessionHash is the stored hash of a browser's session.
func (b *browser) sessionHash() string {
	u, _ := url.Parse(b.site.URL)
	for _, c := range b.Jar.Cookies(u) {
		if c.Name == "plumb_session" {
			return plumb.HashToken(c.Value)
		}
	}
	b.t.Fatal("no session cookie")
	return ""
}

// A new token's secret waits for the redirect's page in its own session
// only, sealed (the database row holds no readable secret), for ten minutes
// at most.
func TestNewTokenFlash(t *testing.T) {
	s := newSite(t, web.Config{})
	s.person(t, "ada", "lovelace-1815")
	b, other := s.browser(t), s.browser(t)
	b.signIn("ada", "lovelace-1815")
	other.signIn("ada", "lovelace-1815")

	b.post("/settings/tokens", "/settings/tokens", url.Values{"name": {"one"}}).want(t, http.StatusSeeOther)
	// Another browser of the same user does not see it.
	if p := other.get("/settings/tokens"); strings.Contains(p.Body, `id="new-token"`) {
		t.Fatal("another session shows the new token")
	}
	// What the database holds is sealed: not the secret, and taking it
	// removes it (the page then has nothing to show).
	stored, err := s.DB.TakeSessionFlash(t.Context(), b.sessionHash(), "api-token")
	if err != nil || stored == "" || strings.Contains(stored, "plb_") {
		t.Fatalf("stored flash %q, %v", stored, err)
	}
	if p := b.get("/settings/tokens"); strings.Contains(p.Body, `id="new-token"`) {
		t.Fatal("a taken flash is shown")
	}
	// Not shown after ten minutes.
	b.post("/settings/tokens", "/settings/tokens", url.Values{"name": {"two"}}).want(t, http.StatusSeeOther)
	s.Clock.Advance(11 * time.Minute)
	if p := b.get("/settings/tokens"); strings.Contains(p.Body, `id="new-token"`) || !strings.Contains(p.Body, "two") {
		t.Fatalf("after eleven minutes:\n%s", p.Body)
	}
	// Within them, it is.
	b.post("/settings/tokens", "/settings/tokens", url.Values{"name": {"three"}}).want(t, http.StatusSeeOther)
	s.Clock.Advance(9 * time.Minute)
	b.get("/settings/tokens").want(t, 200, `id="new-token"`)
}
