package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/plumbhq/plumb/source"
)

// TestSettingsSources: a project admin turns the project's sources off on
// its settings page (confirmed first: the kept sources are deleted) and on
// again; a member who is not an admin cannot, nor can an outsider; the
// form needs its CSRF token.
func TestSettingsSources(t *testing.T) {
	f := filesSite(t, nil, nil, nil)
	ctx := t.Context()
	f.person(t, "root", filesPassword)
	if err := f.DB.AddMember(ctx, "oss", "root", "admin"); err != nil {
		t.Fatal(err)
	}
	const settings, action = "/w/oss/plumb/settings", "/w/oss/plumb/sources"
	kept := func() string {
		src, err := f.DB.FileSource(ctx, f.ProjectID, filesCommit, "cmd/main.go")
		if err != nil {
			t.Fatal(err)
		}
		return src.State
	}

	// Roles: a member gets the 403 of the other settings, an outsider a 404;
	// the sources stay.
	ada := f.browser(t)
	ada.signIn("ada", filesPassword)
	ada.get(settings).want(t, http.StatusForbidden, "admin role")
	eve := f.browser(t)
	eve.signIn("eve", filesPassword)
	eve.get(settings).want(t, http.StatusNotFound)

	b := f.browser(t)
	b.signIn("root", filesPassword)
	b.get(settings).want(t, 200, `name="keep" checked`, "Keep sources")
	csrf := b.csrf(settings)
	for _, who := range []*browser{ada, eve} {
		if p := who.do("POST", action, url.Values{"csrf": {csrf}, "confirm": {"yes"}}); p.Status < 400 || p.Status >= 500 {
			t.Errorf("a non-admin's post: status %d, want a 4xx", p.Status)
		}
	}
	// Without the CSRF token: refused.
	if p := b.do("POST", action, url.Values{"confirm": {"yes"}}); p.Status < 400 || p.Status >= 500 {
		t.Errorf("without CSRF: status %d, want a 4xx", p.Status)
	}
	if st := kept(); st != string(source.StateOK) {
		t.Fatalf("after refused posts the source is %s", st)
	}

	// Unchecked: the page asks first, and nothing is deleted yet.
	b.post(settings, action, url.Values{}).want(t, 200, "Turn sources off?", `name="confirm" value="yes"`, "Delete the sources and turn them off")
	if st := kept(); st != string(source.StateOK) {
		t.Fatalf("before the confirmation the source is %s", st)
	}
	// Confirmed: deleted, said once, and the box unchecked.
	b.post(settings, action, url.Values{"confirm": {"yes"}}).want(t, http.StatusSeeOther)
	if st := kept(); st != string(source.StateDisabled) {
		t.Fatalf("after turning off the source is %s", st)
	}
	p := b.get(settings)
	p.want(t, 200, "Sources are turned off: 1 commits&#39; sources and 2 contents were deleted.")
	if strings.Contains(p.Body, `name="keep" checked`) {
		t.Error("the box is still checked")
	}
	b.get("/w/oss/plumb/files/cmd/main.go").want(t, 200, "does not keep sources")
	// On again: sources are taken again (none comes back).
	b.post(settings, action, url.Values{"keep": {"on"}}).want(t, http.StatusSeeOther)
	b.get(settings).want(t, 200, `name="keep" checked`)
	if st := kept(); st != string(source.StateAbsent) {
		t.Fatalf("after turning on again the source is %s", st)
	}
}
