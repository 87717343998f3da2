package web_test

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/codehost"
	"github.com/plumbhq/plumb/web"
)

// The file tree and the file page (web/files*.go) on a real store: one
// project with an analysis, two coverage tags, kept sources and issues at
// lines, read by a member; an outsider gets 404.

const (
	filesCommit   = "1111111111111111111111111111111111111111"
	filesPassword = "files-password-1"
	mainGo        = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfor i := 0; i < 3; i++ {\n\t\tif i > 1 {\n\t\t\tfmt.Println(i)\n\t\t}\n\t}\n}\n"
)

type filesFixture struct {
	*site
	ProjectID string
}

func line(n int) *int { return &n }

// filesSite: ada is a member of oss (project plumb), eve of another
// workspace only.
func filesSite(t testing.TB, extra []plumb.FileFigures, extraIssues []plumb.Issue, extraSources map[string]string) *filesFixture {
	t.Helper()
	ctx := context.Background()
	s := newSite(t, web.Config{})
	for _, login := range []string{"ada", "eve"} {
		s.person(t, login, filesPassword)
	}
	for ws, login := range map[string]string{"oss": "ada", "other": "eve"} {
		if _, err := s.DB.CreateWorkspace(ctx, plumb.WorkspaceInput{Key: ws}); err != nil {
			t.Fatal(err)
		}
		if err := s.DB.AddMember(ctx, ws, login, "member"); err != nil {
			t.Fatal(err)
		}
	}
	p, err := s.DB.CreateProject(ctx, plumb.ProjectInput{Workspace: "oss", Key: "plumb", DefaultBranch: "main", ComponentsEnabled: true})
	if err != nil {
		t.Fatal(err)
	}
	files := append([]plumb.FileFigures{
		{Path: "cmd/main.go", Lines: 11, LOC: 9, Complexity: 3},
		{Path: "internal/store/db.go", Lines: 40, LOC: 30, Complexity: 12, DuplicatedLines: 6},
		{Path: "README.md", Lines: 5, LOC: 0},
	}, extra...)
	issues := append([]plumb.Issue{
		{Tool: "staticcheck", RuleKey: "SA4006", Message: "the loop prints <i> only once", Category: "bug", Level: "high", Status: "open", Path: "cmd/main.go", StartLine: line(8), EndLine: line(8), Fingerprint: "f1"},
		{Tool: "revive", RuleKey: "exported", Message: "quiet finding", Category: "style", Level: "low", Status: "ignored", Path: "cmd/main.go", StartLine: line(8), Fingerprint: "f2"},
		{Tool: "gosec", RuleKey: "G101", Message: "whole-file finding", Category: "vulnerability", Level: "medium", Status: "open", Path: "internal/store/db.go", Fingerprint: "f3"},
	}, extraIssues...)
	if _, err := s.DB.AddSnapshot(ctx, plumb.SnapshotInput{ProjectID: p.ID, Branch: "main", CommitSHA: filesCommit, AnalyzedAt: t0,
		Files: files, FullTree: true, Issues: issues, KeepStatus: true,
		// main.go's loop (lines 6-10) is copied in db.go; db.go has a copy within itself too.
		Clones: []plumb.Clone{
			{A: plumb.ClonePlace{Path: "cmd/main.go", StartLine: 6, EndLine: 10}, B: plumb.ClonePlace{Path: "internal/store/db.go", StartLine: 12, EndLine: 16}, Lines: 5},
			{A: plumb.ClonePlace{Path: "internal/store/db.go", StartLine: 20, EndLine: 22}, B: plumb.ClonePlace{Path: "internal/store/db.go", StartLine: 30, EndLine: 32}, Lines: 3},
		}}); err != nil {
		t.Fatal(err)
	}
	for tag, hits := range map[string][]int64{"unit": {-1, -1, -1, -1, 1, 1, 3, 0, -1, -1, -1}, "e2e": {-1, -1, -1, -1, 1, 1, 1, 0, -1, -1, -1}} {
		if _, err := s.DB.AddCoverage(ctx, plumb.CoverageInput{ProjectID: p.ID, CommitSHA: filesCommit, Branch: "main", CoverageTag: tag, UploadedAt: t0,
			Files: []plumb.CoverageFile{{Path: "cmd/main.go", Hits: hits}, {Path: "internal/store/db.go", Hits: []int64{1, 0, 0, 1}}}}); err != nil {
			t.Fatal(err)
		}
	}
	srcs := map[string]string{"cmd/main.go": mainGo, "README.md": "# plumb\n"}
	for k, v := range extraSources {
		srcs[k] = v
	}
	_, err = s.DB.PutSources(ctx, p.ID, filesCommit, "upload", func(put func(string, io.Reader) error) error {
		for path, text := range srcs {
			if err := put(path, bytes.NewReader([]byte(text))); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return &filesFixture{site: s, ProjectID: p.ID}
}

func TestFilePages(t *testing.T) {
	f := filesSite(t, nil, nil, nil)
	b := f.browser(t)
	b.signIn("ada", filesPassword)
	const proj = "/w/oss/plumb"

	t.Run("Tree", func(t *testing.T) {
		root := b.get(proj + "/files")
		root.want(t, 200, `href="/w/oss/plumb/files/cmd/">cmd/</a>`, `href="/w/oss/plumb/files/internal/">internal/</a>`,
			`href="/w/oss/plumb/files/README.md">README.md</a>`, "3 files")
		// Directories first, then files; by lines of code the bigger first.
		if strings.Index(root.Body, ">cmd/<") > strings.Index(root.Body, ">README.md<") {
			t.Error("a file is listed before a directory")
		}
		byLOC := b.get(proj + "/files?sort=loc")
		byLOC.want(t, 200)
		if strings.Index(byLOC.Body, ">internal/<") > strings.Index(byLOC.Body, ">cmd/<") {
			t.Error("sort=loc does not put internal/ (30 lines of code) before cmd/ (9)")
		}
		// internal/ sums its file: 30 LOC, 12 complexity, 1 open issue, 2 of 4 lines covered.
		if !strings.Contains(byLOC.Body, `<td class="num">30</td>`) || !strings.Contains(byLOC.Body, "50%") {
			t.Errorf("internal/'s figures are not on the root:\n%s", byLOC.Body)
		}
		b.get(proj+"/files/cmd/").want(t, 200, `href="/w/oss/plumb/files/cmd/main.go">main.go</a>`, `<a href="/w/oss/plumb/files">Files</a>`)
		b.get(proj+"/files?sort=size").want(t, 400, "sort must be one of")
		b.get(proj+"/files/nope/").want(t, 404)
		if _, err := f.DB.CreateComponent(t.Context(), plumb.Component{ProjectID: f.ProjectID, Name: "cli", PathGlobs: []string{"cmd/*"}, CreatorID: "ada"}); err != nil {
			t.Fatal(err)
		}
		comp := b.get(proj + "/files?component=cli")
		comp.want(t, 200, ">cmd/<")
		if strings.Contains(comp.Body, ">internal/<") {
			t.Error("the component filter keeps internal/")
		}
	})

	t.Run("File", func(t *testing.T) {
		p := b.get(proj + "/files/cmd/main.go")
		p.want(t, 200,
			`<span class="k">func</span>`, // highlighted from the analyzer's tokens (web/highlight)
			`id="L7" class="hit"><td class="ln dup"><a href="#L7">7</a></td><td class="cov">4×</td>`, // the union: 3 + 1 hits; in a duplicated block
			`id="L8" class="miss"`,
			"the loop prints &lt;i&gt; only once", "SA4006", // the issue under its line, escaped
			"<details><summary>1 ignored</summary>", "quiet finding",
			`<span class="cc" title="cognitive complexity">complexity 3</span> main`,
			`<a href="#L8">First missed line ↓</a>`, `<a href="#L8">First issue ↓</a>`,
			"Line coverage</dt><dd>75%", "1 open, 1 ignored",
			`class="on" aria-current="true">all tags</a>`)
		if strings.Contains(p.Body, "<i>") {
			t.Error("an issue message is not escaped")
		}
		// One tag: its own hits.
		b.get(proj+"/files/cmd/main.go?tag=unit").want(t, 200, `<td class="cov">3×</td>`, `class="on" aria-current="true">unit</a>`)
		b.get(proj+"/files/cmd/main.go?tag=nope").want(t, 404)
		// By ref: the branch, the SHA, a prefix; an unknown one is a 404.
		for _, ref := range []string{"main", "refs/heads/main", filesCommit, filesCommit[:8]} {
			b.get(proj+"/files/cmd/main.go?ref="+ref).want(t, 200, `id="L8" class="miss"`)
		}
		b.get(proj+"/files/cmd/main.go?ref=nope").want(t, 404)
		b.get(proj+"/files?ref=nope").want(t, 404)
		// No source: the figures, coverage and issues, and why there is no source.
		b.get(proj+"/files/internal/store/db.go").want(t, 200, "none was uploaded for this commit", "whole-file finding",
			`id="L2" class="miss"`)
		t.Run("Clones", func(t *testing.T) {
			// The duplicated block: a note above its first line linking to
			// the other copy at its line, a gutter mark on each of its lines.
			p := b.get(proj + "/files/cmd/main.go")
			p.want(t, 200, `Duplicated block, lines 6–10 (5 lines): also at <a href="/w/oss/plumb/files/internal/store/db.go#L12">internal/store/db.go, lines 12–16</a>`,
				`id="L6" class="hit"><td class="ln dup">`, `id="L10"><td class="ln dup">`, `id="L11"><td class="ln">`, `id="L5" class="hit"><td class="ln">`,
				"<dt>Duplicated blocks</dt><dd>1</dd>")
			// The ref the page was opened at is carried to the other copy.
			b.get(proj+"/files/cmd/main.go?ref="+filesCommit).want(t, 200, `href="/w/oss/plumb/files/internal/store/db.go?ref=`+filesCommit+`#L12"`)
			// Without source the lines are still listed and marked; a copy
			// in the same file links within the page.
			db := b.get(proj + "/files/internal/store/db.go")
			db.want(t, 200, `also at <a href="/w/oss/plumb/files/cmd/main.go#L6">cmd/main.go, lines 6–10</a>`,
				`also at <a href="#L30">this file, lines 30–32</a>`, `also at <a href="#L20">this file, lines 20–22</a>`,
				`id="L32"><td class="ln dup">`, "3 duplicated blocks marked")
			if strings.Contains(db.Body, "did not say where the copies are") {
				t.Error("the page says the copies are unknown")
			}
		})
		// No coverage, but source.
		b.get(proj+"/files/README.md").want(t, 200, "no coverage report names it", "# plumb")
		// Not a file of the commit.
		b.get(proj+"/files/cmd/other.go").want(t, 404)
	})

	t.Run("BadInput", func(t *testing.T) {
		for _, path := range []string{"cmd/%2e%2e/cmd/main.go", "cmd/main%00.go", "cmd/%ff.go"} {
			p := b.get(proj + "/files/" + path)
			if p.Status < 400 || p.Status >= 500 {
				t.Errorf("%s: status %d, want a 4xx", path, p.Status)
			}
		}
	})

	t.Run("Outsider", func(t *testing.T) {
		eve := f.browser(t)
		eve.signIn("eve", filesPassword)
		for _, path := range []string{"/files", "/files/cmd/", "/files/cmd/main.go", "/issues"} {
			p := eve.get(proj + path)
			p.want(t, 404)
			if strings.Contains(p.Body, "fmt.Println") || strings.Contains(p.Body, "SA4006") {
				t.Errorf("%s: the outsider's 404 shows the source or an issue", path)
			}
		}
		anon := f.browser(t)
		if p := anon.get(proj + "/files/cmd/main.go"); p.Status != 303 {
			t.Errorf("signed out: status %d, want 303 to sign-in", p.Status)
		}
	})

	t.Run("IssueBrowser", func(t *testing.T) {
		p := b.get(proj + "/issues?status=open&status=ignored")
		link := `href="/w/oss/plumb/files/cmd/main.go?ref=` + filesCommit + `#L8"`
		p.want(t, 200, link, "<span class=\"at\">   8  \t\t\tfmt.Println(i)</span>", "of 3</caption>",
			`value="high" > high <span class="muted">(1)</span>`, "staticcheck (1)")
		// The link leads to the line.
		b.get(proj+"/files/cmd/main.go?ref="+filesCommit).want(t, 200, `id="L8" class="miss"`, "SA4006")
		// Per-filter counts: with level=high, the other levels still count.
		b.get(proj+"/issues?level=high").want(t, 200, "of 1</caption>", `value="medium" > medium <span class="muted">(1)</span>`)
	})
}

// fakeGitHub answers GitHub's contents API
// (https://docs.github.com/en/rest/repos/contents) for acme/plumb at
// filesCommit: type "file", base64 content, size and the blob's sha; 404
// {"message":"Not Found"} for any other file; with limitedUntil set, the
// rate-limit refusal (403, X-RateLimit-Remaining: 0, X-RateLimit-Reset).
func fakeGitHub(t *testing.T, files map[string]string, limitedUntil int64, calls *atomic.Int64) codehost.Target {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		if limitedUntil != 0 {
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(limitedUntil, 10))
			w.WriteHeader(403)
			json.NewEncoder(w).Encode(map[string]string{"message": "API rate limit exceeded"})
			return
		}
		name, _ := strings.CutPrefix(r.URL.Path, "/repos/acme/plumb/contents/")
		content, ok := files[name]
		if !ok || r.URL.Query().Get("ref") != filesCommit {
			w.WriteHeader(404)
			json.NewEncoder(w).Encode(map[string]string{"message": "Not Found"})
			return
		}
		sum := sha1.Sum([]byte(fmt.Sprintf("blob %d\x00%s", len(content), content)))
		json.NewEncoder(w).Encode(map[string]any{"type": "file", "encoding": "base64", "size": len(content), "path": name,
			"sha": hex.EncodeToString(sum[:]), "content": base64.StdEncoding.EncodeToString([]byte(content))})
	}))
	t.Cleanup(srv.Close)
	return codehost.Target{Kind: codehost.GitHub, BaseURL: srv.URL, Repository: "acme/plumb", Token: "tok-secret"}
}

// TestFilesFetchSource: a file page whose source was not uploaded fetches
// it from the project's code host on first view, shows it and says where
// it came from; a failure shows the figures and why, without asking the
// host again on the next view.
func TestFilesFetchSource(t *testing.T) {
	const proj = "/w/oss/plumb"
	dbGo := "package store\n\n// DB is the store.\ntype DB struct{}\n"
	t.Run("Fetched", func(t *testing.T) {
		f := filesSite(t, nil, nil, nil)
		var calls atomic.Int64
		if err := f.DB.PutCodeHost(t.Context(), f.ProjectID, fakeGitHub(t, map[string]string{"internal/store/db.go": dbGo}, 0, &calls), t0); err != nil {
			t.Fatal(err)
		}
		b := f.browser(t)
		b.signIn("ada", filesPassword)
		for range 2 {
			p := b.get(proj + "/files/internal/store/db.go")
			p.want(t, 200, `<span class="k">type</span>`, "This source was fetched from GitHub at 1111111 on first view", "whole-file finding")
			if strings.Contains(p.Body, "none was uploaded") || strings.Contains(p.Body, "tok-secret") {
				t.Errorf("the fetched page says no source, or shows the token:\n%s", p.Body)
			}
		}
		if n := calls.Load(); n != 1 {
			t.Errorf("%d calls to GitHub for two views, want 1", n)
		}
		// A path the commit has no figures, coverage or issues of is a 404,
		// fetched from nowhere.
		b.get(proj+"/files/cmd/other.go").want(t, 404)
		// An uploaded source says nothing of a fetch, and asks nothing.
		b.get(proj+"/files/cmd/main.go").want(t, 200, "fmt")
		if p := b.get(proj + "/files/cmd/main.go"); strings.Contains(p.Body, "fetched from") || calls.Load() != 1 {
			t.Errorf("an uploaded source: %d calls, body mentions a fetch: %v", calls.Load(), strings.Contains(p.Body, "fetched from"))
		}
	})
	t.Run("Failed", func(t *testing.T) {
		for _, c := range []struct {
			limited int64
			why     string
		}{{0, "GitHub has no such file at this commit"}, {time.Now().Add(time.Hour).Unix(), "GitHub&#39;s rate limit is reached"}} {
			f := filesSite(t, nil, nil, nil)
			var calls atomic.Int64
			if err := f.DB.PutCodeHost(t.Context(), f.ProjectID, fakeGitHub(t, nil, c.limited, &calls), t0); err != nil {
				t.Fatal(err)
			}
			b := f.browser(t)
			b.signIn("ada", filesPassword)
			for range 2 {
				b.get(proj+"/files/internal/store/db.go").want(t, 200, "fetching it from GitHub failed: "+c.why, "Plumb tries again after",
					"whole-file finding", `id="L2" class="miss"`)
			}
			if n := calls.Load(); n != 1 {
				t.Errorf("%s: %d calls to GitHub for two views, want 1", c.why, n)
			}
		}
	})
}

// A file's history charts: the metrics page with ?file=, linked from the
// file page, charting the file alone (its figures at each default-branch
// analysis, its coverage at each default-branch upload naming it).
func TestFileHistoryPage(t *testing.T) {
	f := filesSite(t, nil, nil, nil)
	ctx := context.Background()
	week := t0.AddDate(0, 0, 7)
	if _, err := f.DB.AddSnapshot(ctx, plumb.SnapshotInput{ProjectID: f.ProjectID, Branch: "main", CommitSHA: strings.Repeat("2", 40), AnalyzedAt: week,
		Files: []plumb.FileFigures{{Path: "cmd/main.go", Lines: 14, LOC: 12, Complexity: 5}}}); err != nil {
		t.Fatal(err)
	}
	f.Clock.Set(week.Add(24 * time.Hour))
	b := f.browser(t)
	b.signIn("ada", filesPassword)
	const proj = "/w/oss/plumb"
	b.get(proj+"/files/cmd/main.go").want(t, 200, `href="/w/oss/plumb/metrics?file=cmd%2Fmain.go">This file's history</a>`)
	all := b.get(proj + "/metrics?file=cmd%2Fmain.go&window=1m")
	all.want(t, 200, "Metrics of file <code>cmd/main.go</code> in oss/plumb", "Cognitive Complexity", "Line Coverage",
		`<a href="/w/oss/plumb/files/cmd/main.go">cmd/main.go</a> alone`)
	if strings.Contains(all.Body, "(FILES") {
		t.Error("a file's history charts the number of files")
	}
	// The complexity of each week: 3 at the first analysis, 5 at the second.
	cx := b.get(proj + "/metrics?file=cmd/main.go&window=1m&interval=week&metric=CMPLX")
	cx.want(t, 200, "<td>3</td>", "<td>5</td>")
	if strings.Contains(cx.Body, "<td>12</td>") {
		t.Error("the whole project's complexity (3 + 12 in the first week) is charted instead of the file's")
	}
	// Coverage: 3 of 4 coverable lines in both tags together.
	b.get(proj+"/metrics?file=cmd/main.go&window=1m&metric=LCOV").want(t, 200, "<td>75%</td>")

	// A file no default-branch analysis or coverage has: empty charts that say why.
	b.get(proj+"/metrics?file=cmd/nope.go").want(t, 200, "No analysis or coverage upload of the default branch has this file")
	b.get(proj+"/metrics?file=../etc/passwd").want(t, 400, "..")
	b.get(proj+"/metrics?file=cmd/main.go&component=cli").want(t, 404) // no such component: checked first
	if _, err := f.DB.CreateComponent(ctx, plumb.Component{ProjectID: f.ProjectID, Name: "cli", PathGlobs: []string{"cmd/*"}, CreatorID: "ada"}); err != nil {
		t.Fatal(err)
	}
	b.get(proj+"/metrics?file=cmd/main.go&component=cli").want(t, 400, "not both")
	// An outsider sees nothing of it.
	eve := f.browser(t)
	eve.signIn("eve", filesPassword)
	eve.get(proj+"/metrics?file=cmd/main.go").want(t, 404)
}

// Partial lines on the file page: a covered line with some branch not run
// has its own mark, says its figures in words, counts in the header, is a
// stop of the "next missed" links, and follows the coverage-tag switcher
// (each tag's figures, or the union's, merged by maximum).
func TestFilePagePartialLines(t *testing.T) {
	const src = "package pkg\n\nfunc F(a, b bool) int {\n\tif a {\n\t\treturn 1\n\t}\n"
	f := filesSite(t, nil, nil, map[string]string{"pkg/cond.go": src})
	lb := func(line, total, covered int) plumb.LineBranches {
		return plumb.LineBranches{Line: line, Total: total, Covered: covered}
	}
	for tag, file := range map[string]plumb.CoverageFile{
		"unit": {Path: "pkg/cond.go", Hits: []int64{-1, 2, 2, 0, 1, -1}, Branches: []plumb.LineBranches{lb(2, 2, 1), lb(3, 4, 4), lb(5, 2, 1)}},
		"e2e":  {Path: "pkg/cond.go", Hits: []int64{-1, 1, 1, 0, -1, -1}, Branches: []plumb.LineBranches{lb(2, 2, 2), lb(3, 4, 1)}},
	} {
		if _, err := f.DB.AddCoverage(context.Background(), plumb.CoverageInput{ProjectID: f.ProjectID, CommitSHA: filesCommit, Branch: "main",
			CoverageTag: tag, UploadedAt: t0, Files: []plumb.CoverageFile{file}}); err != nil {
			t.Fatal(err)
		}
	}
	b := f.browser(t)
	b.signIn("ada", filesPassword)
	const page = "/w/oss/plumb/files/pkg/cond.go"
	cell := func(hits string, covered, total string) string {
		words := "partial: " + covered + " of " + total + " branches"
		return `<td class="cov">` + hits + `× <span class="br" title="` + words + `" aria-hidden="true">◐ ` + covered + "/" + total +
			`</span><span class="sr-only">, ` + words + `</span>`
	}

	// The union: line 2 ran both branches (e2e), line 3 all four (unit);
	// only line 5 is partial.
	union := b.get(page)
	union.want(t, 200,
		"3 covered, 1 of them partially, 1 missed",
		`<a href="#L4">First missed or partial line ↓</a>`,
		`id="L2" class="hit"`, `id="L3" class="hit"`,
		`id="L4" class="miss"><td class="ln"><a href="#L4">4</a></td><td class="cov"><a class="next" href="#L5" title="next missed or partial line">missed ↓</a>`,
		`id="L5" class="part"><td class="ln"><a href="#L5">5</a></td>`+cell("1", "1", "2")+`</td>`,
		`<span class="part">partial: some branches not run</span>`)

	// One tag: its own figures.
	unit := b.get(page + "?tag=unit")
	unit.want(t, 200,
		"3 covered, 2 of them partially, 1 missed",
		`<a href="#L2">First missed or partial line ↓</a>`,
		`id="L2" class="part"><td class="ln"><a href="#L2">2</a></td>`+cell("2", "1", "2")+` <a class="next" href="#L4" title="next missed or partial line">↓</a></td>`,
		`id="L3" class="hit"`, `id="L5" class="part"`)
	e2e := b.get(page + "?tag=e2e")
	e2e.want(t, 200, "2 covered, 1 of them partially, 1 missed", `id="L2" class="hit"`,
		`id="L3" class="part"><td class="ln"><a href="#L3">3</a></td>`+cell("1", "1", "4"))

	// A file without branch figures shows no partial line and no legend for
	// it (cmd/main.go of the fixture).
	plain := b.get("/w/oss/plumb/files/cmd/main.go")
	plain.want(t, 200, "First missed line ↓")
	if strings.Contains(plain.Body, `class="part"`) || strings.Contains(plain.Body, "of them partially") {
		t.Error("a file without branch figures shows partial lines")
	}
}
