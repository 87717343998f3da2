package web_test

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/demo"
	"github.com/plumbhq/plumb/sqlstore"
	"github.com/plumbhq/plumb/web"
)

const demoPassword = "demo-password-1"

// demoSite is a site holding the demo dataset (generated as of the fake
// clock's now), with passwords for demo (admin of acme, member of globex, not
// in initech) and linus (a plain member of acme and globex).
func demoSite(t *testing.T) (*site, string) {
	t.Helper()
	s := newSite(t, web.Config{})
	token := sqlstore.NewTokenSecret()
	doc := demo.Generate(t0, token)
	if err := s.DB.ImportDocument(t.Context(), &doc); err != nil {
		t.Fatal(err)
	}
	if err := demo.PutPullRequests(t.Context(), &doc, s.DB); err != nil {
		t.Fatal(err)
	}
	for _, login := range []string{"demo", "linus"} {
		h, _ := web.HashPassword(demoPassword)
		if err := s.DB.SetPasswordHash(t.Context(), login, h); err != nil {
			t.Fatal(err)
		}
	}
	return s, token
}

// TestDemoPages runs the page tests on one site holding the demo dataset
// (importing it takes seconds); each subtest changes only what it checks.
func TestDemoPages(t *testing.T) {
	s, token := demoSite(t)
	for _, c := range []struct {
		name string
		fn   func(*testing.T, *site, string)
	}{
		{"Pages", demoPagesOfTheDemo}, {"Visibility", demoPagesVisibility}, {"ComponentForms", demoComponentForms},
		{"IssueDownloads", demoIssueDownloadsMatchTheAPI}, {"CoverageViewer", demoCoverageViewer},
		{"Badges", demoBadges}, {"UploadTokens", demoUploadTokensPage}, {"BuildPage", demoBuildPage},
		{"IssueLocationLinks", demoIssueLocationLinks}, {"PullRequests", demoPullRequests},
		{"IssueFilterCounts", demoIssueFilterCounts},
	} {
		t.Run(c.name, func(t *testing.T) { c.fn(t, s, token) })
	}
}

func demoPagesOfTheDemo(t *testing.T, s *site, token string) {
	b := s.browser(t)
	b.signIn("demo", demoPassword)
	const p = "/w/acme/web-shop"
	for _, c := range []struct {
		path     string
		contains []string
	}{
		{"/", []string{"acme", "globex"}},
		{"/w/acme", []string{"web-shop", "payments-api", "Line Coverage", "Maintainability"}},
		{"/w/acme/applications", []string{"Applications of acme"}},
		{p, []string{"Metrics", `class="spark"`, "Maintainability", `class="grade grade-`, "Latest builds", "coverage.svg"}},
		{p + "/metrics", []string{`class="chart"`, "Interval:", "whole project"}},
		{p + "/metrics?metric=LOC&interval=month&window=1y", []string{"Lines of Code", "Bucket ends", `aria-current="true" class="on">month`}},
		{p + "/metrics?component=API&interval=day&window=1m", []string{"component API"}},
		{p + "/issues", []string{"Apply filters", "issues.csv", "issues.ndjson"}},
		{p + "/issues?level=high&status=open,ignored", []string{`value="high" checked`, `value="ignored" checked`}},
		{p + "/builds", []string{"succeeded"}},
		{p + "/builds?status=failed", []string{"failed"}},
		{p + "/components", []string{"API", "New component", "Path globs"}},
		{p + "/coverage", []string{"Files with coverage at"}},
		{p + "/settings", []string{"Upload tokens", "Badges are public"}},
		{"/docs/api", []string{"listIssues", "page[limit]", "Schemas", `id="api-filter"`}},
	} {
		b.get(c.path).want(t, 200, c.contains...)
	}
	// Bad parameters answer 400 with the reason, as the API does.
	b.get(p+"/issues?level=urgent").want(t, 400, "level", "urgent")
	b.get(p+"/metrics?interval=year").want(t, 400, "interval")
	b.get(p+"/builds?status=bogus").want(t, 400, "bogus")
}

func demoPagesVisibility(t *testing.T, s *site, token string) {
	b := s.browser(t)
	b.signIn("demo", demoPassword)
	// demo is not in initech: every page of it answers 404, as the API does,
	// and so does a workspace that does not exist.
	for _, path := range []string{"/w/initech", "/w/initech/applications", "/w/initech/tps-reports", "/w/initech/tps-reports/metrics",
		"/w/initech/tps-reports/issues", "/w/initech/tps-reports/issues.csv", "/w/initech/tps-reports/builds",
		"/w/initech/tps-reports/coverage", "/w/initech/tps-reports/settings", "/w/nowhere", "/w/acme/no-such-project",
		"/w/acme/web-shop/builds/00000000-0000-0000-0000-000000000000", "/w/acme/web-shop/metrics?component=nope"} {
		b.get(path).want(t, http.StatusNotFound, "not a member of its workspace")
	}
	if st := b.post("/", "/w/initech/tps-reports/upload-tokens", url.Values{"name": {"x"}}).Status; st != 404 {
		t.Fatalf("upload token form on an invisible project: %d", st)
	}
	// A plain member sees the project, not its admin pages or forms.
	m := s.browser(t)
	m.signIn("linus", demoPassword)
	m.get("/w/acme/web-shop").want(t, 200)
	m.get("/w/acme/web-shop/settings").want(t, http.StatusForbidden, "admin role")
	m.get("/w/acme/web-shop/components").want(t, 200, "Project admins create")
	m.post("/w/acme/web-shop/components", "/w/acme/web-shop/components", url.Values{"name": {"X"}, "globs": {"x/*"}}).
		want(t, http.StatusForbidden, "admin role")
	m.post("/w/acme/web-shop", "/w/acme/web-shop/upload-tokens", url.Values{"name": {"x"}}).want(t, http.StatusForbidden)
	// Components not enabled: 403 with how to enable them.
	m.get("/w/acme/infra/components").want(t, http.StatusForbidden, "plumb project components acme/infra on")
}

func demoComponentForms(t *testing.T, s *site, token string) {
	b := s.browser(t)
	b.signIn("demo", demoPassword)
	const list = "/w/acme/web-shop/components"
	b.post(list, list, url.Values{"name": {""}, "globs": {""}}).want(t, 400, "Give the component a name", "at least one path glob")
	b.post(list, list, url.Values{"name": {"api"}, "globs": {"x/*"}}).want(t, http.StatusBadRequest, "already")
	p := b.post(list, list, url.Values{"name": {"Docs"}, "description": {"documentation"}, "globs": {"docs/*\n*.md"}})
	if p.Status != http.StatusSeeOther {
		t.Fatalf("create: %d %s", p.Status, p.Body)
	}
	c, err := s.DB.FindComponent(t.Context(), projectID(t, s, "acme", "web-shop"), "Docs")
	if err != nil || strings.Join(c.PathGlobs, "|") != "docs/*|*.md" || c.Description != "documentation" {
		t.Fatalf("created component %+v, %v", c, err)
	}
	b.get(list).want(t, 200, "Docs", "docs/*, *.md")
	edit := list + "/" + c.ID + "/edit"
	b.get(edit).want(t, 200, "Edit component Docs", "Delete this component")
	if p := b.post(edit, list+"/"+c.ID, url.Values{"name": {"Handbook"}, "globs": {"docs/*"}}); p.Status != http.StatusSeeOther {
		t.Fatalf("edit: %d %s", p.Status, p.Body)
	}
	if c2, _ := s.DB.FindComponent(t.Context(), c.ProjectID, c.ID); c2.Name != "Handbook" || len(c2.PathGlobs) != 1 {
		t.Fatalf("after edit: %+v", c2)
	}
	if p := b.post(edit, list+"/"+c.ID+"/delete", nil); p.Status != http.StatusSeeOther {
		t.Fatalf("delete: %d", p.Status)
	}
	if _, err := s.DB.FindComponent(t.Context(), c.ProjectID, c.ID); err == nil {
		t.Fatal("the component survived its deletion")
	}
	b.get(edit).want(t, http.StatusNotFound)
}

func projectID(t *testing.T, s *site, ws, key string) string {
	t.Helper()
	p, err := s.DB.FindProjectByKeys(t.Context(), ws, key)
	if err != nil {
		t.Fatal(err)
	}
	return p.ID
}

func demoIssueDownloadsMatchTheAPI(t *testing.T, s *site, token string) {
	b := s.browser(t)
	b.signIn("demo", demoPassword)
	q := "?level=high,medium&category=bug,vulnerability,style&status=open"
	page := b.get("/w/acme/web-shop/issues.csv" + q)
	page.want(t, 200)
	if ct := page.Header.Get("Content-Type"); ct != "text/csv; charset=utf-8" {
		t.Fatalf("Content-Type %q", ct)
	}
	req, _ := http.NewRequest("GET", s.URL+"/gh/acme/projects/web-shop/issues"+q, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "text/csv")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	want, _ := csv.NewReader(resp.Body).ReadAll()
	got, err := csv.NewReader(strings.NewReader(page.Body)).ReadAll()
	if err != nil || len(got) < 2 || len(got) != len(want) || strings.Join(got[0], ",") != strings.Join(want[0], ",") {
		t.Fatalf("page CSV has %d rows (err %v), the API's %d", len(got), err, len(want))
	}
	for i := range got {
		if strings.Join(got[i], "\x00") != strings.Join(want[i], "\x00") {
			t.Fatalf("row %d differs:\n%v\n%v", i, got[i], want[i])
		}
	}
	nd := b.get("/w/acme/web-shop/issues.ndjson" + q)
	lines := strings.Split(strings.TrimSpace(nd.Body), "\n")
	if len(lines) != len(got)-1 {
		t.Fatalf("NDJSON has %d lines, CSV %d rows", len(lines), len(got)-1)
	}
	var first map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil || first["id"] != got[1][0] {
		t.Fatalf("first NDJSON line %s", lines[0])
	}
	// The page lists the same first issue, with the filters kept checked.
	b.get("/w/acme/web-shop/issues"+q).want(t, 200, got[1][9])
}

func demoCoverageViewer(t *testing.T, s *site, token string) {
	b := s.browser(t)
	b.signIn("demo", demoPassword)
	list := b.get("/w/acme/web-shop/coverage")
	list.want(t, 200)
	i := strings.Index(list.Body, `<ul class="plain files"><li><a href="`)
	if i < 0 {
		t.Fatalf("no file list:\n%s", list.Body)
	}
	rest := list.Body[i+len(`<ul class="plain files"><li><a href="`):]
	// The list links each file's page at the reference.
	filePage := strings.ReplaceAll(rest[:strings.Index(rest, `"`)], "&amp;", "&")
	u, _ := url.Parse(filePage)
	path, ok := strings.CutPrefix(u.Path, "/w/acme/web-shop/files/")
	if !ok || u.Query().Get("ref") == "" {
		t.Fatalf("the file list links %s, not a file page at the reference", filePage)
	}
	b.get(filePage).want(t, 200, `id="L1"`)
	link := "/w/acme/web-shop/coverage?" + url.Values{"ref": {u.Query().Get("ref")}, "path": {path}}.Encode()
	p := b.get(link)
	p.want(t, 200, "covered, ", "missed of", `id="L1"`, "Coverage tag:")
	// The figures agree with the API's file coverage for the same question.
	tags, files, err := s.DB.FileCoverage(t.Context(), projectID(t, s, "acme", "web-shop"), "refs/heads/main", path)
	if err != nil || len(files) == 0 {
		t.Fatal(err)
	}
	var covered, missed int
	for _, h := range files[0].Hits {
		if h > 0 {
			covered++
		} else if h == 0 {
			missed++
		}
	}
	p.want(t, 200, files[0].Tag, `class="miss"`)
	if !strings.Contains(p.Body, strings.Join([]string{strconv.Itoa(covered), " covered, ", strconv.Itoa(missed), " missed of ", strconv.Itoa(len(files[0].Hits))}, "")) {
		t.Fatalf("counts %d/%d/%d not on the page", covered, missed, len(files[0].Hits))
	}
	if len(tags) > 1 {
		b.get(link+"&tag="+url.QueryEscape(files[len(files)-1].Tag)).want(t, 200, `class="on" aria-current="true">`+files[len(files)-1].Tag)
	}
	// By commit SHA too; an unknown reference is a 404 that says why.
	b.get("/w/acme/web-shop/coverage?ref=refs/heads/nope&path="+url.QueryEscape(path)).want(t, 404, "No coverage here")
}

func demoBadges(t *testing.T, s *site, token string) {
	anon := s.browser(t)
	const badge = "/gh/acme/projects/web-shop/coverage.svg"
	// Private by default: 404 to anyone, as for a project that does not exist,
	// with the API's error body (badges share the API's paths).
	notFound := `{"errors":[{"status":"404","title":"Not Found","detail":"No badge here: the project does not exist or its badges are not public."}]}`
	for _, path := range []string{badge, "/gh/acme/projects/nope/coverage.svg"} {
		p := anon.get(path)
		p.want(t, 404, notFound)
		if p.Header.Get("Content-Type") != "application/json" {
			t.Fatalf("%s: Content-Type %q", path, p.Header.Get("Content-Type"))
		}
	}
	anon.do("DELETE", badge, nil).want(t, 405, `"status":"405"`, "allowed: GET, HEAD.")
	nosniff := func(p page, what string) {
		t.Helper()
		if got := p.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options %q, want nosniff", what, got)
		}
	}
	nosniff(anon.get(badge), "a 404 badge")
	// A signed-in member sees them (the project pages show them).
	b := s.browser(t)
	b.signIn("demo", demoPassword)
	p := b.get(badge)
	p.want(t, 200, "<svg", "coverage", "%")
	nosniff(p, "an SVG badge")
	nosniff(b.get("/gh/acme/projects/web-shop/coverage.json"), "a JSON badge")
	if p.Header.Get("Content-Type") != "image/svg+xml" {
		t.Fatalf("Content-Type %q", p.Header.Get("Content-Type"))
	}
	b.get("/gh/initech/projects/tps-reports/coverage.svg").want(t, 404)
	// An admin makes them public: then anyone sees every badge.
	b.post("/w/acme/web-shop/settings", "/w/acme/web-shop/badges", url.Values{"public": {"on"}})
	for _, name := range []string{"coverage.svg", "coverage-rating.svg", "maintainability.svg", "security.svg", "issues.svg"} {
		anon.get("/gh/acme/projects/web-shop/"+name).want(t, 200, "<svg", `role="img"`)
	}
	j := anon.get("/gh/acme/projects/web-shop/maintainability.json")
	var shield struct {
		SchemaVersion int
		Label         string
		Message       string
	}
	if err := json.Unmarshal([]byte(j.Body), &shield); err != nil || shield.SchemaVersion != 1 || !strings.Contains("ABCDF", shield.Message) {
		t.Fatalf("shields endpoint: %s", j.Body)
	}
	// Other API paths under the project are still the API's.
	if st := s.apiGet(t, "/gh/acme/projects/web-shop/issues", "", nil); st != http.StatusUnauthorized {
		t.Fatalf("API path answered %d", st)
	}
	b.post("/w/acme/web-shop/settings", "/w/acme/web-shop/badges", url.Values{})
	anon.get(badge).want(t, 404)
}

func demoUploadTokensPage(t *testing.T, s *site, token string) {
	b := s.browser(t)
	b.signIn("demo", demoPassword)
	const settings = "/w/acme/web-shop/settings"
	b.post(settings, "/w/acme/web-shop/upload-tokens", url.Values{"name": {""}}).want(t, 400, "Give the upload token a name")
	// Post/redirect/get: 303 to the settings page, which shows it once.
	created := b.post(settings, "/w/acme/web-shop/upload-tokens", url.Values{"name": {"CI"}})
	created.want(t, http.StatusSeeOther)
	if loc := created.Header.Get("Location"); loc != settings || strings.Contains(created.Body, sqlstore.UploadTokenPrefix) {
		t.Fatalf("after creating: Location %q, body %s", loc, created.Body)
	}
	p := b.get(settings)
	p.want(t, 200, "shown only once", sqlstore.UploadTokenPrefix)
	i := strings.Index(p.Body, `id="new-upload-token" class="secret">`)
	secret := p.Body[i+len(`id="new-upload-token" class="secret">`):]
	secret = secret[:strings.Index(secret, "<")]
	ut, err := s.DB.AuthenticateUpload(t.Context(), secret)
	if err != nil || ut.Name != "CI" {
		t.Fatalf("the shown upload token does not authenticate: %v", err)
	}
	if strings.Contains(b.get(settings).Body, secret) {
		t.Fatal("a reload shows the upload token again")
	}
	// The flash is the project's: another project's settings page does not
	// take it.
	b.post(settings, "/w/acme/web-shop/upload-tokens", url.Values{"name": {"CI 2"}}).want(t, http.StatusSeeOther)
	b.get("/w/acme/payments-api/settings").want(t, 200)
	b.get(settings).want(t, 200, "shown only once")
	b.post(settings, "/w/acme/web-shop/upload-tokens/"+ut.ID+"/revoke", nil)
	if _, err := s.DB.AuthenticateUpload(t.Context(), secret); err == nil {
		t.Fatal("a revoked upload token still authenticates")
	}
}

// A build's page shows the build (it answered 500 for every build: the
// template called a pointer method on a value).
func demoBuildPage(t *testing.T, s *site, token string) {
	b := s.browser(t)
	b.signIn("demo", demoPassword)
	var build plumb.Build
	err := s.DB.EachBuild(t.Context(), projectID(t, s, "acme", "web-shop"), plumb.BuildFilter{Status: "succeeded", Page: plumb.Page{Limit: 1}},
		func(x plumb.Build) error { build = x; return nil })
	if err != nil || build.ID == "" {
		t.Fatalf("no succeeded build in the demo: %v", err)
	}
	took := (time.Duration(*build.ExecutionSeconds()) * time.Second).String()
	b.get("/w/acme/web-shop/builds/"+build.ID).want(t, 200, "Build "+build.ID[:8], build.CommitSHA, "<dt>Execution</dt><dd>"+took+"</dd>")
}

var issueLocationRE = regexp.MustCompile(`<td>(?:<a href="([^"]+)">([^<]+)</a>|<span class="path">([^<]+)</span>)</td>`)

// Every issue location links to its line on the file page, at the commit
// of the analysis listed; the link answers 200 and shows the issue there.
func demoIssueLocationLinks(t *testing.T, s *site, token string) {
	b := s.browser(t)
	b.signIn("demo", demoPassword)
	for _, project := range []string{"billing-worker", "web-shop", "infra"} {
		p := b.get("/w/acme/" + project + "/issues")
		p.want(t, 200)
		linked := 0
		for _, m := range issueLocationRE.FindAllStringSubmatch(p.Body, -1) {
			if m[1] == "" {
				t.Errorf("%s: %s has no link to its file page", project, m[3])
				continue
			}
			linked++
			href := html.UnescapeString(m[1])
			if !strings.Contains(href, "/w/acme/"+project+"/files/") || !strings.Contains(href, "?ref=") {
				t.Errorf("%s: the link %s is not a file page at a commit", project, href)
			}
			page := b.get(href)
			page.want(t, 200)
			if _, anchor, ok := strings.Cut(href, "#"); ok && !strings.Contains(page.Body, `id="`+anchor+`"`) {
				t.Errorf("%s: %s has no line %s", project, href, anchor)
			}
		}
		t.Logf("%s: %d locations linked", project, linked)
		if linked == 0 {
			t.Fatalf("%s: no issue location on the page", project)
		}
	}
}

// /favicon.ico is the site's icon, to anyone, cached for a day.
func TestFavicon(t *testing.T) {
	s := newSite(t, web.Config{})
	p := s.browser(t).get("/favicon.ico")
	p.want(t, 200)
	if ct, cc := p.Header.Get("Content-Type"), p.Header.Get("Cache-Control"); ct != "image/x-icon" || cc != "public, max-age=86400" {
		t.Fatalf("Content-Type %q, Cache-Control %q", ct, cc)
	}
	if !strings.HasPrefix(p.Body, "\x00\x00\x01\x00") || len(p.Body) < 100 {
		t.Fatalf("not an icon: % x", p.Body[:min(len(p.Body), 16)])
	}
}

// The issue browser's counts: beside each value of a filter, the issues
// passing the other filters (what checking that value would add), so each
// fieldset's counts leave out its own filter and keep the others.
func demoIssueFilterCounts(t *testing.T, s *site, token string) {
	ctx := t.Context()
	p, err := s.DB.FindProjectByKeys(ctx, "acme", "web-shop")
	if err != nil {
		t.Fatal(err)
	}
	chosen := plumb.IssueFilter{Categories: []string{"bug"}, Levels: []string{"high"}, Statuses: []string{"open"}}
	counts := func(off func(f *plumb.IssueFilter)) plumb.IssueCounts {
		f := chosen
		off(&f)
		c, err := s.DB.IssueCounts(ctx, p.ID, f)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	byCategory := counts(func(f *plumb.IssueFilter) { f.Categories = nil }).ByCategory
	byLevel := counts(func(f *plumb.IssueFilter) { f.Levels = nil }).ByLevel
	byStatus := counts(func(f *plumb.IssueFilter) { f.Statuses = nil }).ByStatus
	if byLevel["medium"] == 0 || byCategory["bug"] == 0 || byStatus["open"] == 0 {
		t.Fatalf("the demo lacks the issues this test needs: %v %v %v", byCategory, byLevel, byStatus)
	}
	b := s.browser(t)
	b.signIn("demo", demoPassword)
	page := b.get("/w/acme/web-shop/issues?category=bug&level=high&status=open")
	page.want(t, 200)
	for _, c := range []struct {
		name, value string
		n           int
	}{
		{"category", "bug", byCategory["bug"]}, {"category", "vulnerability", byCategory["vulnerability"]},
		{"level", "high", byLevel["high"]}, {"level", "medium", byLevel["medium"]},
		{"status", "open", byStatus["open"]}, {"status", "ignored", byStatus["ignored"]},
	} {
		i := strings.Index(page.Body, fmt.Sprintf(`name="%s" value="%s" `, c.name, c.value))
		if i < 0 {
			t.Fatalf("no %s=%s box", c.name, c.value)
		}
		got := page.Body[i : i+strings.Index(page.Body[i:], "</label>")]
		if !strings.HasSuffix(got, fmt.Sprintf(`(%d)</span>`, c.n)) {
			t.Errorf("%s=%s shows %q, want the count %d (its own filter off, the others on)", c.name, c.value, got, c.n)
		}
	}
}
