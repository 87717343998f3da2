package web_test

// The crawler: signed in as a role, it follows every same-origin link from
// a start page breadth-first and records each answer, so a test can require
// that no page a person can reach answers an error (issue 19: every build
// page answered 500 and no test asked for one). Later pages are covered by
// the same crawl as soon as a page links to them; TestCrawlDemo fails when a
// GET route of the web is reached by no link.
//
// What it follows: <a href> (downloads too), <link href>, <img src>,
// <script src>, the Location of a 3xx, and each <form method="get"> as
// submitted with its current values. POST forms change state and are not
// links; sign-out is a POST form; /auth/ (single sign-on) is left alone.
// Every request carries the role's session cookie and its API token, so a
// link into the API (the build page's "API" link, /openapi.json) is checked
// as the same person would see it with their token.
//
// The bound: every distinct path is requested (so every workspace, project,
// build, component, badge), and every distinct combination of the query
// parameters that name what a page shows (identityParams: the coverage
// viewer's path and ref, a chart's metric and component, a list's offset:
// every coverage file, metric, component and page of every list). The
// other parameters (a chart's interval and window, the coverage viewer's
// tag, the lists' filters) only choose a view of the same data: a URL that differs from one already
// requested only in those is requested when it carries a value of such a
// parameter not yet seen on its kind of page (each interval, window and
// filter value is visited at least once per page kind, not for every
// metric of every component). The file tree and file pages are the
// exception for ref (fileViewParams): every path is requested, and every ref
// at least once, not every path at every ref (the demo's 200 files at 60
// commits would be 12,000 pages that differ only in their data). A file's
// history charts (the metrics page's file parameter, linked from every file
// page) are sampled (sampledParams): the first sampleSize files of each
// project, as every file's charts are the same code over another file's
// rows (TestFileHistoryPage checks the kinds of file one by one). On the demo
// this is about 2,000 requests for the admin; crawlLimit stops a crawl that
// grows without bound.

import (
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/plumbhq/plumb/web"
)

// identityParams are the query parameters whose values name what a page
// shows (see the bound above).
var identityParams = map[string]bool{"path": true, "ref": true, "metric": true, "component": true, "offset": true}

// fileViewParams are the identity parameters that only choose a view on the
// file tree and file pages (see the bound above).
var fileViewParams = map[string]map[string]bool{
	"GET /w/{ws}/{project}/files":           {"ref": true},
	"GET /w/{ws}/{project}/files/{path...}": {"ref": true},
}

// sampledParams are the parameters of which a crawl asks for sampleSize
// values per page path (see the bound above).
var sampledParams = map[string]string{"GET /w/{ws}/{project}/metrics": "file"}

const sampleSize = 3

// crawlLimit bounds one crawl's requests.
const crawlLimit = 20000

type crawled struct {
	URL     string // path and query
	Status  int
	Kind    string // "page" (HTML, its links followed), "download", "resource", "redirect"
	Pattern string // the web's route pattern; "badge" or "api" for the others
	From    string // the page that linked to it ("" for a start page)
}

type crawler struct {
	t       *testing.T
	site    *site
	b       *browser
	token   string
	out     []crawled
	keys    map[string]bool // path + identity parameters already requested
	vals    map[string]bool // pattern + parameter + value already requested
	samples map[string]int  // path + sampled parameter: values requested
	queue   []crawled
}

// crawl follows every same-origin link reachable from start (paths) as the
// browser b (signed in or not), sending token as the API credential, and
// returns every request made with its answer, in order.
func crawl(t *testing.T, b *browser, token string, start ...string) []crawled {
	t.Helper()
	c := &crawler{t: t, site: b.site, b: b, token: token, keys: map[string]bool{}, vals: map[string]bool{}, samples: map[string]int{}}
	for _, s := range start {
		c.enqueue(s, "", "page")
	}
	for len(c.queue) > 0 {
		if len(c.out) >= crawlLimit {
			t.Fatalf("the crawl passed %d requests: a page links to an unbounded set of addresses (last: %s)", crawlLimit, c.out[len(c.out)-1].URL)
		}
		next := c.queue[0]
		c.queue = c.queue[1:]
		c.fetch(next)
	}
	return c.out
}

// pattern names the handler of a path: the web's route pattern, "badge" or
// "api".
func (s *site) pattern(path string) string {
	r := httptest.NewRequest("GET", path, nil)
	if web := s.Web.Pattern(r); web != "" {
		return web
	}
	if isBadgePath(r.URL.Path) {
		return "badge"
	}
	return "api"
}

var badgePathRE = regexp.MustCompile(`^/gh/[^/]+/projects/[^/]+/[a-z-]+\.(svg|json)$`)

func isBadgePath(p string) bool { return badgePathRE.MatchString(p) }

// enqueue adds a link unless it leads off the site, changes state, or is a
// variant already requested (see the bound above).
func (c *crawler) enqueue(ref, from, kind string) {
	base, _ := url.Parse(c.site.URL + "/")
	if from != "" {
		base, _ = url.Parse(c.site.URL + from)
	}
	u, err := base.Parse(strings.TrimSpace(ref))
	if err != nil {
		c.t.Errorf("unparsable link %q on %s", ref, from)
		return
	}
	site, _ := url.Parse(c.site.URL)
	if u.Scheme != site.Scheme || u.Host != site.Host {
		return
	}
	if u.Path == "/logout" || strings.HasPrefix(u.Path, "/auth/") {
		return
	}
	u.Fragment, u.RawFragment = "", ""
	target := u.RequestURI()
	pattern := c.site.pattern(target)
	q := u.Query()
	if name, ok := sampledParams[pattern]; ok && q.Has(name) {
		k := u.Path + "\x00" + name
		if v := k + "\x00" + q.Get(name); c.samples[v] == 0 {
			if c.samples[k] >= sampleSize {
				return
			}
			c.samples[k]++
			c.samples[v] = 1
		}
	}
	var ident []string
	fresh := false
	for name, vs := range q {
		for _, v := range vs {
			if identityParams[name] && !fileViewParams[pattern][name] {
				ident = append(ident, name+"="+v)
			} else if k := pattern + "\x00" + name + "\x00" + v; !c.vals[k] {
				c.vals[k], fresh = true, true
			}
		}
	}
	sort.Strings(ident)
	key := u.Path + "?" + strings.Join(ident, "&")
	if c.keys[key] && !fresh {
		return
	}
	c.keys[key] = true
	c.queue = append(c.queue, crawled{URL: target, Kind: kind, Pattern: pattern, From: from})
}

func (c *crawler) fetch(p crawled) {
	req, err := http.NewRequest("GET", c.site.URL+p.URL, nil)
	if err != nil {
		c.t.Fatal(err)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.b.Do(req)
	if err != nil {
		c.t.Fatalf("GET %s: %v", p.URL, err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	p.Status = resp.StatusCode
	if p.Status >= 300 && p.Status < 400 {
		c.out = append(c.out, crawled{URL: p.URL, Status: p.Status, Kind: "redirect", Pattern: p.Pattern, From: p.From})
		if loc := resp.Header.Get("Location"); loc != "" {
			c.enqueue(loc, p.URL, "page")
		}
		return
	}
	c.out = append(c.out, p)
	if p.Kind != "page" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		return
	}
	for _, l := range pageLinks(string(body)) {
		c.enqueue(l.ref, p.URL, l.kind)
	}
}

type link struct{ ref, kind string }

var (
	tagRE  = regexp.MustCompile(`(?is)<(/?)(a|link|img|script|form|input|select|option)\b([^>]*)>`)
	attrRE = regexp.MustCompile(`(?s)([a-zA-Z][-a-zA-Z0-9_:]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>` + "`" + `]+)))?`)
)

func attrs(s string) map[string]string {
	m := map[string]string{}
	for _, a := range attrRE.FindAllStringSubmatch(s, -1) {
		m[strings.ToLower(a[1])] = html.UnescapeString(a[2] + a[3] + a[4])
	}
	return m
}

// pageLinks reads the links of a page (the templates write well-formed
// HTML with quoted attributes, which is what this reads).
func pageLinks(body string) []link {
	var out []link
	type form struct {
		action string
		q      url.Values
		get    bool
	}
	var f *form
	var sel string // the name of the open <select>
	var selFirst, selChosen *string
	closeSelect := func() {
		if f != nil && sel != "" {
			if selChosen != nil {
				f.q.Add(sel, *selChosen)
			} else if selFirst != nil {
				f.q.Add(sel, *selFirst)
			}
		}
		sel, selFirst, selChosen = "", nil, nil
	}
	for _, m := range tagRE.FindAllStringSubmatch(body, -1) {
		closing, tag, a := m[1] == "/", strings.ToLower(m[2]), attrs(m[3])
		switch {
		case tag == "a" && !closing:
			if h, ok := a["href"]; ok && !strings.HasPrefix(h, "mailto:") && !strings.HasPrefix(h, "javascript:") {
				kind := "page"
				if _, dl := a["download"]; dl {
					kind = "download"
				}
				out = append(out, link{h, kind})
			}
		case tag == "link" && !closing:
			if h, ok := a["href"]; ok {
				out = append(out, link{h, "resource"})
			}
		case (tag == "img" || tag == "script") && !closing:
			if src, ok := a["src"]; ok {
				out = append(out, link{src, "resource"})
			}
		case tag == "form" && !closing:
			f = &form{action: a["action"], q: url.Values{}, get: a["method"] == "" || strings.EqualFold(a["method"], "get")}
		case tag == "form" && closing:
			closeSelect()
			if f != nil && f.get {
				ref := f.action
				if ref == "" {
					ref = "."
				}
				if len(f.q) > 0 {
					ref += "?" + f.q.Encode()
				}
				out = append(out, link{ref, "page"})
			}
			f = nil
		case tag == "input" && !closing && f != nil:
			name := a["name"]
			if name == "" {
				continue
			}
			switch strings.ToLower(a["type"]) {
			case "submit", "button", "reset", "image", "file":
			case "checkbox", "radio":
				if _, on := a["checked"]; on {
					v, ok := a["value"]
					if !ok {
						v = "on"
					}
					f.q.Add(name, v)
				}
			default:
				f.q.Add(name, a["value"])
			}
		case tag == "select" && !closing:
			closeSelect()
			sel = a["name"]
		case tag == "select" && closing:
			closeSelect()
		case tag == "option" && !closing && sel != "":
			v := a["value"]
			if selFirst == nil {
				selFirst = &v
			}
			if _, on := a["selected"]; on {
				selChosen = &v
			}
		}
	}
	return out
}

// ok2xx3xx: the answer a reachable page must give.
func okStatus(st int) bool { return st >= 200 && st < 400 }

// requireReachable fails for every crawled address that did not answer
// 2xx or 3xx, naming the page that linked to it.
func requireReachable(t *testing.T, who string, pages []crawled) {
	t.Helper()
	bad := 0
	for _, p := range pages {
		if !okStatus(p.Status) {
			if bad++; bad <= 20 {
				t.Errorf("%s: GET %s answered %d (%s, linked from %s)", who, p.URL, p.Status, p.Pattern, p.From)
			}
		}
	}
	if bad > 20 {
		t.Errorf("%s: %d more addresses failed", who, bad-20)
	}
}

// requireEveryPageKind fails for each GET route of the web that no crawled
// request reached, except those in skip (pages only a signed-out browser or
// a single sign-on provider sees).
func requireEveryPageKind(t *testing.T, s *site, pages []crawled, skip ...string) {
	t.Helper()
	reached := map[string]bool{}
	for _, p := range pages {
		reached[p.Pattern] = true
	}
	for _, pat := range s.Web.Patterns() {
		if strings.HasPrefix(pat, "GET ") && !reached[pat] && !slices.Contains(skip, pat) {
			t.Errorf("no link reaches the web's %q: the crawl does not cover that page kind", pat)
		}
	}
}

// kindsOf returns one crawled address of each pattern (the first reached),
// for checks that run once per page kind.
func kindsOf(pages []crawled) []crawled {
	seen := map[string]bool{}
	var out []crawled
	for _, p := range pages {
		if !seen[p.Pattern] && okStatus(p.Status) && p.Kind == "page" {
			seen[p.Pattern] = true
			out = append(out, p)
		}
	}
	return out
}

// crawlAs signs login in with a new browser and crawls the site from "/".
func crawlAs(t *testing.T, s *site, login, password, token string) []crawled {
	t.Helper()
	b := s.browser(t)
	if st := b.signIn(login, password).Status; st != http.StatusSeeOther {
		t.Fatalf("sign-in of %s answered %d", login, st)
	}
	return crawl(t, b, token, "/")
}

// adminOnly are the pages a member who is not a project admin is refused
// (403, docs/web.md).
var adminOnly = map[string]bool{
	"GET /w/{ws}/{project}/settings":                    true,
	"GET /w/{ws}/{project}/components/{component}/edit": true,
}

var wsOfPath = regexp.MustCompile(`^/(?:w|gh|workspaces|ingest/gh)/([^/?]+)(?:/(?:projects/)?([^/?]+))?`)

// probe asks, as login, for addresses another role's crawl reached (one of
// each page kind of each project and workspace: the rights depend on
// nothing finer) and checks the answer the role's rights call for: 404 for anything of a
// workspace it is not a member of (as for one that does not exist), 403 for
// a project's admin pages when it is not the project's admin, 2xx or 3xx
// otherwise.
func probe(t *testing.T, s *site, login, password, token string, pages []crawled) {
	t.Helper()
	ctx := t.Context()
	u, err := s.DB.FindUser(ctx, login)
	if err != nil {
		t.Fatal(err)
	}
	b := s.browser(t)
	b.signIn(login, password)
	asked := 0
	sampled := map[string]bool{}
	for _, p := range pages {
		m := wsOfPath.FindStringSubmatch(p.URL)
		sample := p.Pattern
		if m != nil {
			sample += " " + m[0]
		}
		if p.Kind == "redirect" || sampled[sample] {
			continue
		}
		sampled[sample] = true
		want := "ok"
		if m != nil {
			wsKey, _ := url.PathUnescape(m[1])
			ws, _, err := s.DB.FindWorkspace(ctx, u.ID, wsKey)
			member := err == nil
			switch {
			case p.Pattern == "badge":
				pr, err := s.DB.FindProjectByKeys(ctx, wsKey, m[2])
				if err != nil {
					t.Fatal(err)
				}
				if public, _ := s.DB.BadgesPublic(ctx, pr.ID); !public && !member {
					want = "404"
				}
			case !member:
				want = "404"
			case adminOnly[p.Pattern]:
				key, _ := url.PathUnescape(m[2])
				pr, err := s.DB.FindProject(ctx, ws.ID, key)
				if err != nil {
					t.Fatal(err)
				}
				if admin, _ := s.DB.IsProjectAdmin(ctx, u.ID, pr); !admin {
					want = "403"
				}
			}
		}
		st := b.getWith(p.URL, token)
		asked++
		switch {
		case want == "ok" && okStatus(st), want == "404" && st == 404, want == "403" && st == 403:
		default:
			t.Errorf("%s: GET %s answered %d, want %s", login, p.URL, st, want)
		}
	}
	t.Logf("%s: %d addresses of the other role's crawl asked", login, asked)
}

// getWith answers the status of a GET with the browser's cookies and the
// API token.
func (b *browser) getWith(path, token string) int {
	b.t.Helper()
	req, _ := http.NewRequest("GET", b.site.URL+path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := b.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// TestCrawlDemo crawls the whole demo as each role: the admin (demo, admin
// of acme and member of globex), a plain member (linus, of acme and
// globex), an outsider of acme who is a member elsewhere (margaret: admin
// of globex, member of initech) and a user of no workspace. Every address
// each reaches answers 2xx or 3xx; every GET page kind of the web is
// reached; then each other role asks for every address the admin reached
// and gets 404 where it may not see and 403 on admin pages.
func TestCrawlDemo(t *testing.T) {
	s, demoToken := demoSite(t)
	ctx := t.Context()
	h, err := web.HashPassword(demoPassword)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.DB.SetPasswordHash(ctx, "margaret", h); err != nil {
		t.Fatal(err)
	}
	s.person(t, "nobody", demoPassword)
	tokens := map[string]string{"demo": demoToken}
	for _, login := range []string{"linus", "margaret", "nobody"} {
		_, secret, err := s.DB.CreateToken(ctx, login, "crawler")
		if err != nil {
			t.Fatal(err)
		}
		tokens[login] = secret
	}
	admin := crawlAs(t, s, "demo", demoPassword, tokens["demo"])
	requireReachable(t, "demo", admin)
	requireEveryPageKind(t, s, admin, "GET /login", "GET /auth/oidc", "GET /auth/oidc/callback")
	kinds := map[string]int{}
	for _, p := range admin {
		kinds[p.Pattern]++
	}
	t.Logf("demo: %d requests; per kind: %v", len(admin), kinds)
	for _, login := range []string{"linus", "margaret", "nobody"} {
		pages := crawlAs(t, s, login, demoPassword, tokens[login])
		requireReachable(t, login, pages)
		t.Logf("%s: %d requests", login, len(pages))
		probe(t, s, login, demoPassword, tokens[login], admin)
	}
}
