package web_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api"
	"github.com/plumbhq/plumb/codehost"
	"github.com/plumbhq/plumb/compare"
	"github.com/plumbhq/plumb/internal/proctest"
	"github.com/plumbhq/plumb/ratelimit"
	"github.com/plumbhq/plumb/web"
)

// settingsSite is a site whose web and API log into logs, with workspace
// oss holding project lib: ada administers it, bob is a member.
func settingsSite(t *testing.T) (s *site, logs *proctest.Log) {
	t.Helper()
	s = newSite(t, web.Config{})
	logs = &proctest.Log{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	a := api.NewServer(s.DB, ratelimit.NewMemory(5000, s.Clock.Now), log, api.Config{})
	a.SetClock(s.Clock.Now)
	w, err := web.New(s.DB, log, web.Config{})
	if err != nil {
		t.Fatal(err)
	}
	w.SetClock(s.Clock.Now)
	ts := httptest.NewServer(w.Mount(a))
	t.Cleanup(ts.Close)
	s.URL, s.Web = ts.URL, w
	ctx := context.Background()
	s.person(t, "ada", "lovelace-1815")
	s.person(t, "bob", "babbage-1791")
	if _, err := s.DB.CreateWorkspace(ctx, plumb.WorkspaceInput{Key: "oss"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB.CreateProject(ctx, plumb.ProjectInput{Workspace: "oss", Key: "lib"}); err != nil {
		t.Fatal(err)
	}
	for login, role := range map[string]string{"ada": "admin", "bob": "member"} {
		if err := s.DB.AddMember(ctx, "oss", login, role); err != nil {
			t.Fatal(err)
		}
	}
	return s, logs
}

// settingsPeople is settingsSite with ada's and bob's browsers signed in,
// and project oss/lib.
func settingsPeople(t *testing.T) (s *site, ada, bob *browser, p plumb.Project) {
	t.Helper()
	s, _ = settingsSite(t)
	ada, bob = s.browser(t), s.browser(t)
	ada.signIn("ada", "lovelace-1815")
	bob.signIn("bob", "babbage-1791")
	p, err := s.DB.FindProjectByKeys(context.Background(), "oss", "lib")
	if err != nil {
		t.Fatal(err)
	}
	return s, ada, bob, p
}

var badgeTokenRE = regexp.MustCompile(`id="new-badge-token" class="secret">(plbb_[A-Za-z0-9_-]+)<`)

// A private project's badges answer to a request carrying its badge token;
// a wrong, replaced or revoked token is answered as anyone: 404. Only
// project admins manage it, and the token never reaches the logs.
func TestSettingsBadgeToken(t *testing.T) {
	s, logs := settingsSite(t)
	const settings, badge = "/w/oss/lib/settings", "/gh/oss/projects/lib/coverage.svg"
	ada, bob, anon := s.browser(t), s.browser(t), s.browser(t)
	ada.signIn("ada", "lovelace-1815")
	bob.signIn("bob", "babbage-1791")

	anon.get(badge).want(t, 404)
	ada.get(settings).want(t, 200, "No badge token.", "Create badge token")
	// Revoking when there is none: a clear message, nothing changes.
	ada.post(settings, "/w/oss/lib/badge-token/revoke", nil).want(t, 400, "This project has no badge token to revoke.")

	ada.post(settings, "/w/oss/lib/badge-token", nil).want(t, http.StatusSeeOther)
	p := ada.get(settings)
	m := badgeTokenRE.FindStringSubmatch(p.Body)
	if m == nil {
		t.Fatalf("the new badge token is not shown:\n%s", p.Body)
	}
	first := m[1]
	p.want(t, 200, badge+"?token="+first, "Revoke badge token")
	// Shown once.
	if p := ada.get(settings); strings.Contains(p.Body, first) || !strings.Contains(p.Body, "A badge token exists") {
		t.Fatalf("the badge token is shown again:\n%s", p.Body)
	}

	anon.get(badge+"?token="+url.QueryEscape(first)).want(t, 200, "<svg")
	anon.get("/gh/oss/projects/lib/issues.json?token="+url.QueryEscape(first)).want(t, 200, `"schemaVersion":1`)
	anon.get(badge+"?token="+url.QueryEscape(first+"x")).want(t, 404)
	anon.get(badge+"?token=").want(t, 404)

	// A member who is not an admin may not create or revoke it.
	bob.post("/w/oss/lib", "/w/oss/lib/badge-token", nil).want(t, 403)
	bob.post("/w/oss/lib", "/w/oss/lib/badge-token/revoke", nil).want(t, 403)
	anon.get(badge+"?token="+url.QueryEscape(first)).want(t, 200)

	// Regenerating replaces it.
	ada.post(settings, "/w/oss/lib/badge-token", nil).want(t, http.StatusSeeOther)
	second := badgeTokenRE.FindStringSubmatch(ada.get(settings).Body)[1]
	anon.get(badge+"?token="+url.QueryEscape(first)).want(t, 404)
	anon.get(badge+"?token="+url.QueryEscape(second)).want(t, 200)

	// Revoked: 404 again.
	ada.post(settings, "/w/oss/lib/badge-token/revoke", nil).want(t, http.StatusSeeOther)
	anon.get(badge+"?token="+url.QueryEscape(second)).want(t, 404)
	ada.get(settings).want(t, 200, "No badge token.")

	// The badge and other requests were logged, never with the token.
	anon.get("/gh/oss/projects/lib/nope?token=" + url.QueryEscape(second))
	if l := logs.String(); strings.Contains(l, first) || strings.Contains(l, second) || strings.Contains(l, "plbb_") {
		t.Fatalf("a badge token reached the logs:\n%s", l)
	}
}

// The gate's form: saved as the API would save it; a bad threshold is
// refused with a message and nothing stored; a member who is not an admin
// is refused.
func TestSettingsGateForm(t *testing.T) {
	s, ada, bob, p := settingsPeople(t)
	ctx := context.Background()
	const settings = "/w/oss/lib/settings"
	ada.get(settings).want(t, 200, "uses the default gate", `name="patch" value="80"`)

	form := url.Values{"patch_on": {"on"}, "patch": {"85.5"}, "drop": {"2"}, "issues_on": {"on"}, "issues_level": {"medium"},
		"issues_max": {"3"}, "security_on": {"on"}, "security": {"0"}}
	ada.post(settings, "/w/oss/lib/gate", form).want(t, http.StatusSeeOther)
	g, custom, err := s.DB.Gate(ctx, p.ID)
	if err != nil || !custom || g.PatchCoverage == nil || *g.PatchCoverage != 85.5 || g.CoverageDrop != nil ||
		g.NewIssues == nil || *g.NewIssues != (compare.IssueBound{Level: "medium", Max: 3}) || g.NewSecurityIssues == nil || *g.NewSecurityIssues != 0 {
		t.Fatalf("stored gate %+v (custom %v), %v", g, custom, err)
	}
	ada.get(settings).want(t, 200, "has its own gate", `name="patch" value="85.5"`, `<option selected>medium</option>`)

	for _, c := range []struct {
		set  url.Values
		want string
	}{
		{url.Values{"patch": {"120"}}, "patchCoverage must be a percentage from 0 to 100, got 120."},
		{url.Values{"patch": {"lots"}}, "Patch coverage must be a number, got &#34;lots&#34;."},
		{url.Values{"issues_level": {"urgent"}}, "newIssues.level must be one of high, medium, low, note, fmt"},
		{url.Values{"issues_max": {"-1"}}, "newIssues.max must be 0 or more, got -1."},
		{url.Values{"security": {"1.5"}}, "New security issues must be a whole number"},
	} {
		bad := url.Values{}
		for k, v := range form {
			bad[k] = v
		}
		for k, v := range c.set {
			bad[k] = v
		}
		ada.post(settings, "/w/oss/lib/gate", bad).want(t, 400, "The gate was not saved", c.want)
		if after, _, _ := s.DB.Gate(ctx, p.ID); *after.PatchCoverage != 85.5 || after.NewIssues.Level != "medium" {
			t.Fatalf("a refused form changed the gate: %+v", after)
		}
	}
	// Advisory boxes: kept for conditions that are on, ignored for one
	// turned off (coverage drop), shown checked again.
	adv := url.Values{"security_advisory": {"on"}, "drop_advisory": {"on"}}
	for k, v := range form {
		adv[k] = v
	}
	ada.post(settings, "/w/oss/lib/gate", adv).want(t, http.StatusSeeOther)
	if g, _, _ := s.DB.Gate(ctx, p.ID); !slices.Equal(g.Advisory, []string{"newSecurityIssues"}) {
		t.Fatalf("advisory stored %q, want [newSecurityIssues]", g.Advisory)
	}
	ada.get(settings).want(t, 200, `name="security_advisory" aria-label="New security issues is advisory" checked`, `name="patch_advisory" aria-label="Patch coverage is advisory" >`)
	bob.post("/w/oss/lib", "/w/oss/lib/gate", url.Values{}).want(t, 403)
	if after, _, _ := s.DB.Gate(ctx, p.ID); after.PatchCoverage == nil {
		t.Fatal("a member's form changed the gate")
	}
	bob.get(settings).want(t, 403)
}

// The settings page lists the project's last webhook deliveries.
func TestSettingsDeliveries(t *testing.T) {
	s, _ := settingsSite(t)
	ctx := context.Background()
	p, err := s.DB.FindProjectByKeys(ctx, "oss", "lib")
	if err != nil {
		t.Fatal(err)
	}
	ada := s.browser(t)
	ada.signIn("ada", "lovelace-1815")
	ada.get("/w/oss/lib/settings").want(t, 200, "No webhook delivery for this project yet")
	if err := s.DB.PutCodeHost(ctx, p.ID, codehost.Target{Kind: codehost.GitHub, BaseURL: "https://api.github.com", Repository: "oss/lib", Token: "ghp_x"}, t0); err != nil {
		t.Fatal(err)
	}
	d := codehost.HookDelivery{ID: "d-42", Event: "pull_request", Action: "opened", Repository: "oss/lib", At: t0,
		PullRequest: &codehost.PullRequest{Number: 7, Title: "Cart", Author: "ada", BaseBranch: "main", HeadBranch: "cart",
			HeadSHA: "0123456789abcdef0123456789abcdef01234567", State: "open"}}
	if _, err := s.DB.ApplyHook(ctx, d, 204, 202); err != nil {
		t.Fatal(err)
	}
	ada.get("/w/oss/lib/settings").want(t, 200, "<td>pull_request</td><td>opened</td><td>204</td><td><code>d-42</code></td>")
}

// The code-host form: saved under the API's rules, the token never shown
// back (empty keeps it), bad input refused with nothing stored, a member
// refused; "test connection" shows the host's answer.
func TestSettingsCodeHostForm(t *testing.T) {
	s, ada, bob, p := settingsPeople(t)
	ctx := context.Background()
	const settings = "/w/oss/lib/settings"
	var gotAuth string
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth = r.Header.Get("Authorization")
		if r.URL.Path != "/repos/oss/lib" || gotAuth != "Bearer ghp_secret1" {
			http.Error(w, `{"message":"Bad credentials"}`, http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"full_name":"oss/lib"}`))
	}))
	t.Cleanup(host.Close)

	ada.get(settings).want(t, 200, "Save connection", "none stored")
	ada.post(settings, "/w/oss/lib/code-host", url.Values{"kind": {"github"}, "repository": {"oss/lib"}, "base_url": {host.URL},
		"token": {"ghp_secret1"}}).want(t, http.StatusSeeOther)
	stored, found, err := s.DB.CodeHost(ctx, p.ID)
	if err != nil || !found || stored.Token != "ghp_secret1" || stored.BaseURL != host.URL || stored.Repository != "oss/lib" {
		t.Fatalf("stored %+v, %v, %v", stored, found, err)
	}
	page := ada.get(settings)
	page.want(t, 200, `value="oss/lib"`, "stored — leave empty to keep", "Test connection")
	if strings.Contains(page.Body, "ghp_secret1") {
		t.Fatal("the settings page shows the token")
	}
	ada.post(settings, "/w/oss/lib/code-host/test", nil).want(t, 200, "repository oss/lib is reachable")

	// An empty token keeps the stored one.
	ada.post(settings, "/w/oss/lib/code-host", url.Values{"kind": {"github"}, "repository": {"oss/lib"}, "base_url": {host.URL}}).want(t, http.StatusSeeOther)
	if st, _, _ := s.DB.CodeHost(ctx, p.ID); st.Token != "ghp_secret1" {
		t.Fatalf("the token changed to %q", st.Token)
	}

	for _, c := range []struct {
		form url.Values
		want string
	}{
		{url.Values{"kind": {"github"}, "repository": {"just-a-name"}}, "repository must be OWNER/NAME for GitHub, got &#34;just-a-name&#34;."},
		{url.Values{"kind": {"gitlab"}, "repository": {"oss/lib"}}, "token is required"},
		{url.Values{"kind": {"bitbucket"}, "repository": {"oss/lib"}, "token": {"x"}}, "kind must be github or gitlab"},
		{url.Values{"kind": {"github"}, "repository": {"oss/lib"}, "base_url": {"ftp://x"}}, "baseUrl must be an http or https URL"},
		{url.Values{"kind": {"github"}, "repository": {"oss/lib"}, "token": {"two words"}}, "token must not contain spaces"},
		{url.Values{"kind": {"github"}, "repository": {""}}, "repository must be 1 to 500 characters"},
	} {
		ada.post(settings, "/w/oss/lib/code-host", c.form).want(t, 400, "The connection was not saved", c.want)
		if st, _, _ := s.DB.CodeHost(ctx, p.ID); st != stored {
			t.Fatalf("a refused form changed the connection: %+v", st)
		}
	}

	// The host's refusal is shown as it answered.
	if err := s.DB.PutCodeHost(ctx, p.ID, codehost.Target{Kind: codehost.GitHub, BaseURL: host.URL, Repository: "oss/lib", Token: "ghp_wrong"}, t0); err != nil {
		t.Fatal(err)
	}
	ada.post(settings, "/w/oss/lib/code-host/test", nil).want(t, 200, "answered 401 Unauthorized", "Bad credentials")
	if gotAuth != "Bearer ghp_wrong" {
		t.Fatalf("the test sent %q", gotAuth)
	}

	bob.post("/w/oss/lib", "/w/oss/lib/code-host", url.Values{"kind": {"github"}, "repository": {"bob/lib"}, "token": {"x"}}).want(t, 403)
	bob.post("/w/oss/lib", "/w/oss/lib/code-host/test", nil).want(t, 403)
	if st, _, _ := s.DB.CodeHost(ctx, p.ID); st.Repository != "oss/lib" {
		t.Fatal("a member changed the connection")
	}
}
