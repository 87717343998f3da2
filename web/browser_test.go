package web_test

// End-to-end in a real browser: Debian's chromium driven by chromedp, against
// the real site on the demo dataset. Screenshots of each main page go to
// web/e2e-out/ (gitignored; PLUMB_E2E_OUT overrides). Without chromium the
// test skips and says how to install it; CI (.ci/run) installs it.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/internal/testtool"

	"github.com/plumbhq/plumb/sqlstore/sqltest"
)

func chromiumPath() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// needChromium returns chromium's path for the browser test named what,
// which runs once (on SQLite) and not in -short mode; without chromium it
// skips saying what to install, or fails under CI=true.
func needChromium(t *testing.T, what, whyOnce string) string {
	t.Helper()
	if testing.Short() {
		t.Skip(what + " skipped in -short mode")
	}
	if sqltest.Backend != "sqlite" {
		t.Skip("the " + what + " runs once, on SQLite (" + whyOnce + ")")
	}
	chrome := chromiumPath()
	if chrome == "" {
		testtool.Missing(t, "no chromium found: install it (Debian: apt-get install -y chromium) to run the %s; .ci/run does", what)
	}
	return chrome
}

// chromeContext starts a headless chromium (the binary chrome) with a
// 1280×900 window for the test, closed when the test ends, and returns the
// context of its first tab.
func chromeContext(t *testing.T, chrome string) context.Context {
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chrome), chromedp.Flag("headless", true),
		chromedp.NoSandbox, chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-gpu", true),
		chromedp.WindowSize(1280, 900))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelA)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	return ctx
}

// e2eOut is the browser tests' screenshot folder: $PLUMB_E2E_OUT, else
// web/e2e-out.
func e2eOut(t *testing.T) string {
	out := os.Getenv("PLUMB_E2E_OUT")
	if out == "" {
		out = "e2e-out"
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	return out
}

// saveShot is an action that saves the screenshot take makes as
// out/name.png.
func saveShot(out, name string, take chromedp.Action[[]byte]) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		buf, err := take(ctx, tg)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(out, name+".png"), buf, 0o644)
	})
}

// stepRunner runs a named step's actions in the tab ctx within 45 seconds,
// failing the test when one fails.
func stepRunner(t *testing.T, ctx context.Context) func(step string, actions ...chromedp.Action[chromedp.Void]) {
	return func(step string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		sctx, cancel := context.WithTimeout(ctx, 45*time.Second)
		defer cancel()
		if err := chromedp.Do(sctx, actions...); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
	}
}

func TestBrowserEndToEnd(t *testing.T) {
	chrome := needChromium(t, "browser test", "the pages' store code is tested on both backends")
	out := e2eOut(t)
	s, _ := demoSite(t)

	ctx := chromeContext(t, chrome)

	type act = chromedp.Action[chromedp.Void]
	shot := func(name string) act { return saveShot(out, name, chromedp.FullScreenshot(100)) } // 100: PNG
	run := stepRunner(t, ctx)
	eval := func(expr string) int {
		t.Helper()
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return n
	}
	id := func(s string) chromedp.ID { return chromedp.ID(s) }
	xp := func(s string) chromedp.Search { return chromedp.Search(s) }
	u := s.URL

	if err := chromedp.Do(ctx); err != nil { // starts the browser, with no timeout
		t.Fatal(err)
	}
	// Sign in.
	run("sign in", chromedp.Navigate(u+"/login"), chromedp.WaitVisible(id("login")), shot("login"),
		chromedp.SendKeys(id("login"), "demo"), chromedp.SendKeys(id("password"), demoPassword),
		chromedp.Submit(id("password")), chromedp.WaitVisible(xp(`//h1[text()="Your workspaces"]`)), shot("workspaces"))

	// Create an API token and use it against the API.
	run("create a token", chromedp.Navigate(u+"/settings/tokens"), chromedp.WaitVisible(id("token-name")),
		chromedp.SendKeys(id("token-name"), "browser test"), chromedp.Click(id("create-token")),
		chromedp.WaitVisible(id("new-token")), shot("tokens"))
	secret, err := chromedp.Run(ctx, chromedp.Text(id("new-token")))
	if err != nil || !strings.HasPrefix(secret, "plb_") {
		t.Fatalf("token on the page: %q, %v", secret, err)
	}
	if st := s.apiGet(t, "/gh/acme/projects/web-shop/issues", secret, nil); st != http.StatusOK {
		t.Fatalf("the token made in the browser answers %d on the API", st)
	}

	// Workspace, project overview (also at a phone's width), a chart.
	run("project pages", chromedp.Navigate(u+"/w/acme"), chromedp.WaitVisible(css("table")), shot("workspace"),
		chromedp.Click(xp(`//a[text()="web-shop"]`)), chromedp.WaitVisible(css(".metrics")), shot("project"),
		chromedp.EmulateViewport(390, 844), chromedp.Reload(), chromedp.WaitVisible(css(".metrics")), shot("project-phone"),
		chromedp.EmulateViewport(1280, 900),
		chromedp.Click(xp(`//a[span[@class="name" and text()="Lines of Code"]]`)), chromedp.WaitVisible(css("svg.chart")),
		chromedp.Click(xp(`//a[text()="month"]`)), chromedp.WaitVisible(xp(`//a[@class="on" and text()="month"]`)), shot("chart"))
	if n := eval(`document.querySelectorAll("svg.chart circle").length`); n == 0 {
		t.Fatal("the chart has no points")
	}

	// The coverage viewer: the first file of the list.
	// The coverage viewer: the first file of the list opens its file page.
	run("coverage viewer", chromedp.Navigate(u+"/w/acme/web-shop/coverage"), chromedp.WaitVisible(css(".files")), shot("coverage-files"),
		chromedp.Click(css(".files li:first-child a")), chromedp.WaitVisible(css("table.code")), shot("coverage-file"))
	if n := eval(`document.querySelectorAll("table.code tr[id]").length`); n < 2 {
		t.Fatalf("the file page shows %d lines", n)
	}
	t.Logf("file page: %d missed lines marked", eval(`document.querySelectorAll("table.code tr.miss").length`))

	browseFiles(t, s, run, eval, shot)

	// Filter issues by level.
	run("filter issues", chromedp.Navigate(u+"/w/acme/web-shop/issues"), chromedp.WaitVisible(id("apply-filters")),
		chromedp.Click(css(`input[name="level"][value="high"]`)), chromedp.Click(id("apply-filters")),
		chromedp.WaitVisible(xp(`//a[text()="Clear"]`)), shot("issues"))
	loc, _ := chromedp.Run(ctx, chromedp.Location())
	levels, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("table.issues .level")).map(e => e.textContent)`))
	if err != nil || !strings.Contains(loc, "level=high") || len(levels) == 0 {
		t.Fatalf("after filtering: %s, levels %v, %v", loc, levels, err)
	}
	for _, l := range levels {
		if l != "high" {
			t.Fatalf("filtered list shows a %q issue", l)
		}
	}

	// Create a component.
	run("create a component", chromedp.Navigate(u+"/w/acme/web-shop/components"), chromedp.WaitVisible(id("c-name")),
		chromedp.SendKeys(id("c-name"), "Browser made"), chromedp.SendKeys(id("c-globs"), "src/*"),
		chromedp.Submit(id("c-name")), chromedp.WaitVisible(xp(`//a[text()="Browser made"]`)), shot("components"))
	if _, err := s.DB.FindComponent(t.Context(), projectID(t, s, "acme", "web-shop"), "Browser made"); err != nil {
		t.Fatalf("the component made in the browser: %v", err)
	}

	browsePulls(t, u, out, run, eval, shot)

	// Builds and the API reference with its filter.
	run("builds and API reference", chromedp.Navigate(u+"/w/acme/web-shop/builds"), chromedp.WaitVisible(css("table")), shot("builds"),
		chromedp.Navigate(u+"/docs/api"), chromedp.WaitVisible(id("api-filter")),
		chromedp.SendKeys(id("api-filter"), "coverage"), shot("api-reference"))
	visible, total := eval(`document.querySelectorAll("article.op:not([hidden])").length`), eval(`document.querySelectorAll("article.op").length`)
	if visible == 0 || visible >= total {
		t.Fatalf("API filter shows %d of %d operations", visible, total)
	}
}

// axeVersion is the axe-core (npm) that checks the pages' accessibility.
const axeVersion = "4.14.1"

// axeSource returns axe-core's script, installing it once from the npm
// registry into the user's cache folder; the test skips, saying what to
// install, when npm or the registry is out of reach.
func axeSource(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("npm"); err != nil {
		testtool.Missing(t, "npm is not installed: the accessibility test installs axe-core@%s with it (Debian: apt-get install -y npm)", axeVersion)
	}
	dir := filepath.Join(testtool.CacheDir(), "axe-core-"+axeVersion)
	script := filepath.Join(dir, "node_modules", "axe-core", "axe.min.js")
	if _, err := os.Stat(script); err != nil {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		install := exec.Command("npm", "install", "--no-audit", "--no-fund", "--loglevel=error", "--prefix", dir, "axe-core@"+axeVersion)
		if out, err := install.CombinedOutput(); err != nil {
			testtool.Missing(t, "npm install axe-core@%s failed (no npm registry?): %v\n%s", axeVersion, err, out)
		}
	}
	src, err := os.ReadFile(script)
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

type axeViolation struct {
	ID, Impact, Help string
	Nodes            []string
}

// TestAccessibility runs axe-core in chromium over one page of every kind
// the crawler reaches on the demo as its admin (web/crawl_test.go), plus
// the sign-in page and an error page, and requires no violation at all
// (every rule axe runs by default: WCAG 2.x A and AA and its best
// practices).
func TestAccessibility(t *testing.T) {
	chrome := needChromium(t, "accessibility test", "the pages do not depend on the backend")
	axe := axeSource(t)
	s, _ := demoSite(t)
	b := s.browser(t)
	b.signIn("demo", demoPassword)
	var urls []string
	for _, p := range kindsOf(crawl(t, b, "", "/")) {
		if strings.HasPrefix(p.Pattern, "GET ") {
			urls = append(urls, p.URL)
		}
	}
	if len(urls) < 15 {
		t.Fatalf("the crawl found %d page kinds", len(urls))
	}
	urls = append(urls, "/w/acme/no-such-project") // the error page

	ctx := chromeContext(t, chrome)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	check := func(path string) {
		t.Helper()
		sctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		defer cancel()
		if err := chromedp.Do(sctx, chromedp.Navigate(s.URL+path)); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if _, err := chromedp.Run(sctx, chromedp.Evaluate[bool](axe+"\n;true")); err != nil {
			t.Fatalf("%s: loading axe-core: %v", path, err)
		}
		out, err := chromedp.Run(sctx, chromedp.Evaluate[string](`axe.run(document, {resultTypes: ["violations"]}).then(r => JSON.stringify(
			r.violations.map(v => ({id: v.id, impact: v.impact || "", help: v.help, nodes: v.nodes.slice(0, 5).map(n => n.target.join(" "))}))))`,
			chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s: running axe-core: %v", path, err)
		}
		var vs []axeViolation
		if err := json.Unmarshal([]byte(out), &vs); err != nil {
			t.Fatalf("%s: %v: %s", path, err, out)
		}
		for _, v := range vs {
			t.Errorf("%s: axe %s (%s): %s, at %v", path, v.ID, v.Impact, v.Help, v.Nodes)
		}
	}
	check("/login")
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.ID("login"), "demo"), chromedp.SendKeys(chromedp.ID("password"), demoPassword),
		chromedp.Submit(chromedp.ID("password")), chromedp.WaitVisible(chromedp.Search(`//h1[text()="Your workspaces"]`))); err != nil {
		t.Fatalf("sign in: %v", err)
	}
	for _, u := range urls {
		check(u)
	}
	t.Logf("axe-core %s: %d pages checked", axeVersion, len(urls)+1)
}

// browseFiles: the file tree, a directory, a file's page with highlighted
// source, covered and missed lines and an inline issue, and an issue of
// the browser followed to its line. The demo keeps no source: the test
// keeps one for the file of an issue that has coverage, a comment per line.
func browseFiles(t *testing.T, s *site, run func(string, ...chromedp.Action[chromedp.Void]), eval func(string) int, shot func(string) chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx := t.Context()
	pid := projectID(t, s, "acme", "web-shop")
	at, err := s.DB.FilesAt(ctx, pid, "refs/heads/main")
	if err != nil {
		t.Fatal(err)
	}
	var target plumb.Issue
	var hits []int64
	err = s.DB.EachIssue(ctx, pid, plumb.IssueFilter{Statuses: []string{"open"}}, func(is plumb.Issue) error {
		if target.Path != "" || is.StartLine == nil {
			return nil
		}
		_, files, err := s.DB.FileCoverage(ctx, pid, at.SHA, is.Path)
		if err == nil && len(files[0].Hits) >= *is.StartLine && slices.Contains(files[0].Hits, 0) && slices.ContainsFunc(files[0].Hits, func(h int64) bool { return h > 0 }) {
			target, hits = is, files[0].Hits
		}
		return nil
	})
	if err != nil || target.Path == "" {
		t.Fatalf("no open issue at a line of a file with covered and missed lines in web-shop: %v", err)
	}
	var text strings.Builder
	for i := range len(hits) {
		fmt.Fprintf(&text, "// line %d of %s\n", i+1, target.Path)
	}
	_, err = s.DB.PutSources(ctx, pid, at.SHA, "upload", func(put func(string, io.Reader) error) error {
		return put(target.Path, strings.NewReader(text.String()))
	})
	if err != nil {
		t.Fatal(err)
	}
	u := s.URL
	dir, _, _ := strings.Cut(target.Path, "/")
	run("file tree", chromedp.Navigate(u+"/w/acme/web-shop/files"), chromedp.WaitVisible(css("table.tree")), shot("files-tree"),
		chromedp.Click(chromedp.Search(`//table[@class="tree"]//a[text()="`+dir+`/"]`)), chromedp.WaitVisible(chromedp.Search(`//h1/code[text()="`+dir+`/"]`)), shot("files-dir"))
	line := strconv.Itoa(*target.StartLine)
	run("issue to its line", chromedp.Navigate(u+"/w/acme/web-shop/issues"), chromedp.WaitVisible(css("table.issues")),
		chromedp.Click(chromedp.Search(`//table[contains(@class,"issues")]//a[contains(@href, "/files/`+target.Path+`?") and contains(@href, "#L`+line+`")]`)),
		chromedp.WaitVisible(css("table.code tr#L"+line)), shot("file-page"))
	if n := eval(`document.querySelectorAll("table.code td.src span.c1, table.code td.src span.c").length`); n == 0 {
		t.Error("the source is not highlighted")
	}
	if eval(`document.querySelectorAll("table.code tr.hit").length`) == 0 || eval(`document.querySelectorAll("table.code tr.miss").length`) == 0 {
		t.Error("the file page marks no covered or no missed line")
	}
	if eval(`document.querySelectorAll("table.code tr.line-issues li").length`) == 0 {
		t.Error("no issue under its line")
	}
	if eval(`location.hash === "#L`+line+`" && document.querySelector("tr:target") !== null ? 1 : 0`) != 1 {
		t.Error("the issue's link does not land on its line")
	}
}

// browsePulls goes from the project's tabs to its pull requests, to the
// failing one's page: the gate, the diff with covered and missed changed
// lines, a new issue under its line, folded unchanged lines that open.
func browsePulls(t *testing.T, u, out string, run func(string, ...chromedp.Action[chromedp.Void]), eval func(string) int, shot func(string) chromedp.Action[chromedp.Void]) {
	t.Helper()
	run("pull requests", chromedp.Navigate(u+"/w/acme/web-shop"), chromedp.WaitVisible(css(".metrics")),
		chromedp.Click(chromedp.Search(`//nav[@class="tabs"]/a[text()="Pull requests"]`)), chromedp.WaitVisible(css("table.pulls")), shot("pulls-list"),
		chromedp.Click(chromedp.Search(`//table[@class="pulls"]//a[text()="#41"]`)), chromedp.WaitVisible(css("table.diff")))
	if eval(`document.querySelectorAll("h2 .gate-failed").length`) != 1 {
		t.Error("#41's page does not show its failed gate")
	}
	if eval(`document.querySelectorAll("table.diff tr.changed.hit").length`) == 0 || eval(`document.querySelectorAll("table.diff tr.changed.miss").length`) == 0 {
		t.Error("the diff marks no covered or no missed changed line")
	}
	if eval(`document.querySelectorAll("table.diff tr.line-issues li").length`) == 0 {
		t.Error("no new issue under its line in the diff")
	}
	if eval(`document.querySelectorAll("table.diff td.src span").length`) == 0 {
		t.Error("the diff's source is not highlighted")
	}
	// The whole page, and for the docs 1,100 pixels of the diff around its
	// first new issue.
	y := eval(`Math.round(document.querySelector("table.diff tr.line-issues").getBoundingClientRect().top + window.scrollY)`)
	run("pull request page", shot("pull-page"), chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		buf, err := chromedp.FullScreenshot(100)(ctx, tg)
		if err != nil {
			return err
		}
		img, err := png.Decode(bytes.NewReader(buf))
		if err != nil {
			return err
		}
		b := img.Bounds()
		top := max(0, min(y-550, b.Dy()-1100))
		crop := img.(interface {
			SubImage(image.Rectangle) image.Image
		}).SubImage(image.Rect(0, top, b.Dx(), min(b.Dy(), top+1100)))
		var enc bytes.Buffer
		if err := png.Encode(&enc, crop); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(out, "pull-diff.png"), enc.Bytes(), 0o644)
	}))
}

func css(s string) chromedp.CSS { return chromedp.CSS(s) }

// TestBrowserProjectSettings: a project admin, in chromium, edits the
// quality gate (a threshold, a condition turned off), connects a code host
// (an httptest fake answering GET /repos/{owner}/{repo} as GitHub's REST API
// documents it) and tests the connection, reads the last webhook deliveries
// (the demo's), makes the badges public and creates a badge token; each
// step is checked in the store or over HTTP. A plain member can neither see
// nor post these settings. Screenshots: settings-gate.png,
// settings-code-host.png, settings-badge-token.png (docs/pull-requests.md).
func TestBrowserProjectSettings(t *testing.T) {
	chrome := needChromium(t, "settings browser test", "the settings' store code is tested on both backends")
	out := e2eOut(t)
	s, _ := demoSite(t)
	var asked []string
	github := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = append(asked, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
		if r.Method != "GET" || r.URL.Path != "/repos/acme/web-shop" || r.Header.Get("Authorization") != "Bearer ghp_browsertest1" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest"}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":1296269,"name":"web-shop","full_name":"acme/web-shop","private":true,"owner":{"login":"acme"}}`))
	}))
	t.Cleanup(github.Close)

	ctx := chromeContext(t, chrome)
	// shot saves the section sel of the page.
	shot := func(name, sel string) chromedp.Action[chromedp.Void] {
		return saveShot(out, name, chromedp.Screenshot(css(sel)))
	}
	run := stepRunner(t, ctx)
	text := func(sel string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Text(css(sel)))
		if err != nil {
			t.Fatalf("%s: %v", sel, err)
		}
		return v
	}
	u := s.URL
	const settings = "/w/acme/web-shop/settings"
	p := projectID(t, s, "acme", "web-shop")
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	run("sign in", chromedp.Navigate(u+"/login"), chromedp.WaitVisible(chromedp.ID("login")),
		chromedp.SendKeys(chromedp.ID("login"), "demo"), chromedp.SendKeys(chromedp.ID("password"), demoPassword),
		chromedp.Submit(chromedp.ID("password")), chromedp.WaitVisible(chromedp.Search(`//h1[text()="Your workspaces"]`)))

	// The gate: patch coverage at least 90 % and advisory, the coverage
	// drop no longer checked; new security issues stay advisory (the
	// demo's gate).
	gate := `form[action$="/gate"] `
	run("edit the gate", chromedp.Navigate(u+settings), chromedp.WaitVisible(css(gate+`input[name="patch"]`)),
		chromedp.SetValue(css(gate+`input[name="patch"]`), "90"), chromedp.Click(css(gate+`input[name="drop_on"]`)),
		chromedp.Click(css(gate+`input[name="patch_advisory"]`)),
		chromedp.Submit(css(gate+`input[name="patch"]`)), chromedp.WaitVisible(css(gate+`input[name="patch"][value="90"]`)))
	g, custom, err := s.DB.Gate(t.Context(), p)
	if err != nil || !custom || g.PatchCoverage == nil || *g.PatchCoverage != 90 || g.CoverageDrop != nil || g.NewIssues == nil ||
		!slices.Equal(g.Advisory, []string{"patchCoverage", "newSecurityIssues"}) {
		t.Fatalf("the gate saved from the browser: %+v (custom %v), %v", g, custom, err)
	}
	run("gate screenshot", shot("settings-gate", "#gate"))

	// The code host: the fake GitHub, a token, then "Test connection".
	host := `form[action$="/code-host"] `
	run("connect the code host", chromedp.SetValue(css("#ch-url"), github.URL), chromedp.SetValue(css("#ch-repo"), "acme/web-shop"),
		chromedp.SendKeys(css("#ch-token"), "ghp_browsertest1"), chromedp.Submit(css(host+"#ch-repo")),
		chromedp.WaitVisible(css(`#ch-url[value="`+github.URL+`"]`)),
		chromedp.Click(chromedp.Search(`//button[text()="Test connection"]`)), chromedp.WaitVisible(css(`#code-host p.created[role="status"]`)))
	if intro := text("#code-host p"); !strings.Contains(intro, "statuses and comment go.") {
		t.Errorf("the code host's introduction: %q", intro)
	}
	if got := text(`#code-host p.created[role="status"]`); !strings.Contains(got, "repository acme/web-shop is reachable") {
		t.Fatalf("test connection: %q", got)
	}
	if len(asked) != 1 || asked[0] != "GET /repos/acme/web-shop Bearer ghp_browsertest1" {
		t.Fatalf("the fake GitHub was asked %q", asked)
	}
	if st, found, err := s.DB.CodeHost(t.Context(), p); err != nil || !found || st.BaseURL != github.URL || st.Token != "ghp_browsertest1" {
		t.Fatalf("the code host saved: %+v, %v, %v", st, found, err)
	}
	// The demo's webhook deliveries, newest first, with their answers.
	deliveries, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("section[aria-labelledby=hd] tbody tr")).map(r => Array.from(r.cells).slice(1, 4).map(c => c.textContent).join(" "))`))
	if err != nil || len(deliveries) != 9 || deliveries[0] != "pull_request synchronize 204" || !slices.Contains(deliveries, "pull_request closed 204") {
		t.Fatalf("the deliveries shown: %q, %v", deliveries, err)
	}
	run("code host screenshot", shot("settings-code-host", "#code-host"), shot("settings-deliveries", "section[aria-labelledby=hd]"))

	// Badges public, then a badge token.
	run("badges public", chromedp.Click(css(`form[action$="/badges"] input[name="public"]`)), chromedp.Submit(css(`form[action$="/badges"] input[name="public"]`)),
		chromedp.WaitVisible(css(`form[action$="/badges"] input[name="public"][checked]`)))
	anon := s.browser(t)
	anon.get("/gh/acme/projects/web-shop/coverage.svg").want(t, 200, "<svg")
	run("badge token", chromedp.Click(chromedp.Search(`//button[text()="Create badge token"]`)), chromedp.WaitVisible(chromedp.ID("new-badge-token")),
		shot("settings-badge-token", "#badges"))
	secret := text("#new-badge-token")
	if ok, err := s.DB.BadgeTokenValid(t.Context(), p, secret); err != nil || !ok {
		t.Fatalf("the badge token shown (%d characters) is not the project's: %v", len(secret), err)
	}

	// A plain member of acme: the settings are not his to see or post.
	linus := s.browser(t)
	linus.signIn("linus", demoPassword)
	page := linus.get(settings)
	if page.Status == 200 && (strings.Contains(page.Body, `action="/w/acme/web-shop/gate"`) || strings.Contains(page.Body, "Test connection")) {
		t.Fatal("a plain member sees the gate or code-host forms")
	}
	for _, path := range []string{"/gate", "/code-host", "/code-host/test", "/badge-token", "/badges"} {
		linus.post("/w/acme/web-shop", "/w/acme/web-shop"+path, url.Values{"patch_on": {"on"}, "patch": {"1"}, "kind": {"github"}, "repository": {"x/y"}, "token": {"z"}}).want(t, 403)
	}
	if g2, _, _ := s.DB.Gate(t.Context(), p); g2.PatchCoverage == nil || *g2.PatchCoverage != 90 {
		t.Fatal("a plain member changed the gate")
	}
	if st, _, _ := s.DB.CodeHost(t.Context(), p); st.Repository != "acme/web-shop" || len(asked) != 1 {
		t.Fatal("a plain member changed or tested the connection")
	}
}
