package web_test

// A site that received the README's CI flow over HTTP, for a real
// repository: Plumb's own tree. Project oss/plumb (default branch main,
// components on) gets, as CI sends them: an upload token made with the
// admin's API token; for commit A on main (tagged v1.0) a build started
// and finished, the Go coverprofile of Plumb's metric package
// (ingest/coverage/testdata/go/metric.out), an analysis of the repository's
// own files made by package analyze as `plumb analyze --sarif
// staticcheck.sarif` makes it, and golangci-lint's SARIF
// (ingest/sarif/testdata); then commit B on branch feature/describe for
// pull request 7, with its coverage, its change and a failed build.

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/analyze"
	"github.com/plumbhq/plumb/web"
)

const (
	ciPassword = "ci-password-12"
	commitA    = "3f2c1e0d9b8a7f6e5d4c3b2a1f0e9d8c7b6a5f4e"
	commitB    = "b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7"
)

type ciFlow struct {
	*site
	AdminToken, MemberToken, OutsiderToken string
}

// ciFlowSite builds the site above: ada is admin of workspace oss, bob a
// member, eve a member of no workspace; each has a password and a token.
func ciFlowSite(t *testing.T) *ciFlow {
	t.Helper()
	ctx := t.Context()
	s := newSite(t, web.Config{})
	for _, login := range []string{"ada", "bob", "eve"} {
		s.person(t, login, ciPassword)
	}
	if _, err := s.DB.CreateWorkspace(ctx, plumb.WorkspaceInput{Key: "oss"}); err != nil {
		t.Fatal(err)
	}
	if err := s.DB.AddMember(ctx, "oss", "ada", "admin"); err != nil {
		t.Fatal(err)
	}
	if err := s.DB.AddMember(ctx, "oss", "bob", "member"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB.CreateProject(ctx, plumb.ProjectInput{Workspace: "oss", Key: "plumb", DefaultBranch: "main", ComponentsEnabled: true}); err != nil {
		t.Fatal(err)
	}
	f := &ciFlow{site: s}
	for login, dst := range map[string]*string{"ada": &f.AdminToken, "bob": &f.MemberToken, "eve": &f.OutsiderToken} {
		_, secret, err := s.DB.CreateToken(ctx, login, "laptop")
		if err != nil {
			t.Fatal(err)
		}
		*dst = secret
	}
	const ingest = "/ingest/gh/oss/projects/plumb"
	var ut struct{ Token string }
	f.send(t, "POST", ingest+"/upload-tokens", f.AdminToken, []byte(`{"name":"github-actions"}`), 201, &ut)
	ci := ut.Token

	// Commit A on main, tagged v1.0.
	var build struct{ ID string }
	f.send(t, "POST", ingest+"/builds", ci, []byte(`{"type":"analysis","branchName":"main","commitSha":"`+commitA+
		`","commitMessage":"metric: grades from the catalogue","source":"github_actions","committerLogin":"ada","status":"running"}`), 201, &build)
	q := url.Values{"commitSha": {commitA}, "branch": {"main"}, "tag": {"v1.0"}, "coverageTag": {"unit"}, "modulePath": {"github.com/plumbhq/plumb"}}
	f.send(t, "POST", ingest+"/coverage?"+q.Encode(), ci, readFixture(t, "../ingest/coverage/testdata/go/metric.out"), 201, nil)
	f.send(t, "POST", ingest+"/analyses", ci, analysisOfRepo(t, commitA, "main", readFixture(t, "../ingest/sarif/testdata/staticcheck.sarif")), 201, nil)
	q = url.Values{"commitSha": {commitA}, "branch": {"main"}, "repoRoot": {"/tmp/plumb-sarif-demo"}}
	f.send(t, "POST", ingest+"/sarif?"+q.Encode(), ci, readFixture(t, "../ingest/sarif/testdata/golangci-lint.sarif"), 201, nil)
	f.send(t, "POST", ingest+"/builds/"+build.ID+"/status", ci, []byte(`{"status":"succeeded","exitCode":0}`), 200, nil)

	// Commit B on a feature branch, for pull request 7: coverage, a failed build.
	f.send(t, "POST", ingest+"/builds", ci, []byte(`{"type":"analysis","branchName":"feature/describe","commitSha":"`+commitB+
		`","commitMessage":"metric: describe every key","source":"github_actions","pullRequestNumber":7,"status":"running"}`), 201, &build)
	q = url.Values{"commitSha": {commitB}, "branch": {"feature/describe"}, "pullRequestNumber": {"7"}, "coverageTag": {"unit"}, "modulePath": {"github.com/plumbhq/plumb"}}
	f.send(t, "POST", ingest+"/coverage?"+q.Encode(), ci, readFixture(t, "../ingest/coverage/testdata/go/metric.out"), 201, nil)
	// The change the upload computes with git for the pull request (its page).
	f.send(t, "POST", ingest+"/changes", ci, []byte(`{"commitSha":"`+commitB+`","branch":"feature/describe","baseCommitSha":"`+commitA+
		`","baseBranch":"main","pullRequestNumber":7,"files":[{"path":"metric/formula.go","status":"modified","addedLines":[[10,20]]}]}`), 201, nil)
	f.send(t, "POST", ingest+"/builds/"+build.ID+"/status", ci, []byte(`{"status":"failed","exitCode":1,"statusReason":"tests failed"}`), 200, nil)
	return f
}

func readFixture(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// analysisOfRepo analyses part of this repository (the metric package with
// its tests, the module files and the Dockerfile: code with and without
// coverage) as `plumb analyze` does, and returns the upload body with the
// extra SARIF logs.
func analysisOfRepo(t *testing.T, commit, branch string, sarif ...[]byte) []byte {
	t.Helper()
	files := []string{"go.mod", "go.sum", "deploy/Dockerfile"}
	metricGo, err := filepath.Glob("../metric/*.go")
	if err != nil || len(metricGo) == 0 {
		t.Fatalf("no metric/*.go: %v", err)
	}
	for _, f := range metricGo {
		files = append(files, "metric/"+filepath.Base(f))
	}
	res, err := analyze.Run(t.Context(), analyze.Options{Dir: "..", Files: files,
		Read: func(rel string) ([]byte, error) { return os.ReadFile(filepath.Join("..", filepath.FromSlash(rel))) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) < 5 {
		t.Fatalf("the analysis measured %d files", len(res.Files))
	}
	extra := make([]json.RawMessage, len(sarif))
	for i, s := range sarif {
		extra[i] = s
	}
	body, err := json.Marshal(res.Document(commit, branch, "", extra...))
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// send calls the API and checks the status; into, when not nil, receives
// the JSON answer.
func (f *ciFlow) send(t *testing.T, method, path, token string, body []byte, want int, into any) {
	t.Helper()
	req, err := http.NewRequest(method, f.URL+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if bytes.HasPrefix(bytes.TrimSpace(body), []byte("{")) {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		t.Fatalf("%s %s: %d, want %d: %s", method, strings.SplitN(path, "?", 2)[0], resp.StatusCode, want, raw)
	}
	if into != nil {
		if err := json.Unmarshal(raw, into); err != nil {
			t.Fatalf("%s %s: %v: %s", method, path, err, raw)
		}
	}
}

// TestCrawlCIFlow crawls the site that received the CI flow as its admin
// (after making a component in the browser, as a person would), a member
// and an outsider: every address answers 2xx or 3xx, every page kind is
// reached, and the others get 404 (outsider) or 403 (member, admin pages)
// for the admin's addresses.
func TestCrawlCIFlow(t *testing.T) {
	f := ciFlowSite(t)
	b := f.browser(t)
	b.signIn("ada", ciPassword)
	const comps = "/w/oss/plumb/components"
	if st := b.post(comps, comps, url.Values{"name": {"metric"}, "globs": {"metric/*"}}).Status; st != http.StatusSeeOther {
		t.Fatalf("creating a component answered %d", st)
	}
	// The issues of the three tools are there; every location links its
	// line on the file page, with coverage or not (staticcheck's
	// store/store.go has none).
	linked, plain := map[string]bool{}, map[string]bool{}
	for _, status := range []string{"open", "open&offset=50", "open&offset=100"} {
		p := b.get("/w/oss/plumb/issues?status=" + status)
		p.want(t, 200)
		for _, m := range issueLocationRE.FindAllStringSubmatch(p.Body, -1) {
			if m[1] == "" {
				plain[m[3]] = true
				continue
			}
			linked[m[2]] = true
			if !strings.HasPrefix(m[1], "/w/oss/plumb/files/") {
				t.Errorf("%s links %s, not its file page", m[2], m[1])
			}
		}
	}
	if !linked["store/store.go:13"] || len(plain) > 0 {
		t.Fatalf("issue locations: linked %v, not linked %v", linked, plain)
	}
	t.Logf("issue locations linked %v; not linked %v", linked, plain)
	admin := crawl(t, b, f.AdminToken, "/")
	requireReachable(t, "ada", admin)
	requireEveryPageKind(t, f.site, admin, "GET /login", "GET /auth/oidc", "GET /auth/oidc/callback")
	t.Logf("ada: %d requests", len(admin))
	for login, token := range map[string]string{"bob": f.MemberToken, "eve": f.OutsiderToken} {
		pages := crawlAs(t, f.site, login, ciPassword, token)
		requireReachable(t, login, pages)
		probe(t, f.site, login, ciPassword, token, admin)
	}
}

// The coverage viewer takes the reference forms people type, by the one
// rule of docs/web.md (branch before tag); the API keeps the contract's.
func TestCoverageViewerReferenceForms(t *testing.T) {
	f := ciFlowSite(t)
	// A tag with the name of the feature branch, on another commit.
	const commitC = "c0ffee0000000000000000000000000000000001"
	q := url.Values{"commitSha": {commitC}, "tag": {"feature/describe"}, "coverageTag": {"unit"}, "modulePath": {"github.com/plumbhq/plumb"}}
	f.send(t, "POST", "/ingest/gh/oss/projects/plumb/coverage?"+q.Encode(), f.AdminToken, readFixture(t, "../ingest/coverage/testdata/go/metric.out"), 201, nil)
	b := f.browser(t)
	b.signIn("bob", ciPassword)
	const viewer = "/w/oss/plumb/coverage?ref="
	for _, c := range []struct{ typed, label, sha string }{
		{"", "branch main", commitA},
		{"main", "branch main", commitA},
		{"refs/heads/main", "branch main", commitA},
		{"feature/describe", "branch feature/describe", commitB}, // the branch, not the tag
		{"refs/heads/feature/describe", "branch feature/describe", commitB},
		{"refs/tags/feature/describe", "tag feature/describe", commitC},
		{"v1.0", "tag v1.0", commitA},
		{"refs/tags/v1.0", "tag v1.0", commitA},
		{"refs/pull/7", "pull request #7", commitB},
		{"refs/pull/7/merge", "pull request #7", commitB},
		{commitC[:7], "", commitC},
		{strings.ToUpper(commitB), "", commitB},
	} {
		p := b.get(viewer + url.QueryEscape(c.typed))
		heading := "Files with coverage at commit <code>" + c.sha[:10] + "</code>"
		if c.label != "" {
			heading = "Files with coverage at " + c.label + ", commit <code>" + c.sha[:10] + "</code>"
		}
		p.want(t, 200, heading, "metric/catalogue.go")
		// The file links name the resolved reference.
		if !strings.Contains(p.Body, "ref="+url.QueryEscape(resolvedFor(c.label, c.typed))) {
			t.Errorf("%q: the file links do not carry the resolved reference:\n%.3000s", c.typed, p.Body)
		}
		b.get(viewer+url.QueryEscape(c.typed)+"&path=metric/catalogue.go").want(t, 200, "covered, ", `id="L1"`)
	}
	b.get(viewer+"nope&path=metric/catalogue.go").want(t, 404, "No branch or tag &#34;nope&#34; has coverage")
	b.get(viewer+"abc1234").want(t, 200, "No branch, tag or commit &#34;abc1234&#34; has coverage")
	// The API keeps the contract: a bare branch name is no reference there.
	api := "/gh/oss/projects/plumb/coverage/file?path=metric/catalogue.go&reference="
	if st := f.apiGet(t, api+"feature/describe", f.MemberToken, nil); st != http.StatusNotFound {
		t.Errorf("the API took a bare branch name: %d", st)
	}
	if st := f.apiGet(t, api+url.QueryEscape("refs/heads/feature/describe"), f.MemberToken, nil); st != http.StatusOK {
		t.Errorf("the API refused refs/heads/feature/describe: %d", st)
	}
}

// resolvedFor is the reference a label stands for ("branch x" is
// refs/heads/x…).
func resolvedFor(label, typed string) string {
	kind, name, _ := strings.Cut(label, " ")
	switch kind {
	case "branch":
		return "refs/heads/" + name
	case "tag":
		return "refs/tags/" + name
	case "pull":
		return "refs/pull/" + strings.TrimPrefix(name, "request #")
	}
	return strings.ToLower(typed)
}
