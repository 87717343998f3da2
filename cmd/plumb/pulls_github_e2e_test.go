package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plumbhq/plumb/internal/testtool"
)

// fakeGitHubHost is a GitHub API for one repository: commit statuses, and
// issue comments listed, created and edited.
type fakeGitHubHost struct {
	mu       sync.Mutex
	statuses []map[string]string
	comments []struct {
		ID   int64  `json:"id"`
		Body string `json:"body"`
	}
	edits int
}

func (f *fakeGitHubHost) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var in map[string]string
	json.NewDecoder(r.Body).Decode(&in)
	switch {
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/repos/acme/web/statuses/"):
		in["sha"] = strings.TrimPrefix(r.URL.Path, "/repos/acme/web/statuses/")
		f.statuses = append(f.statuses, in)
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, "{}")
	case r.Method == http.MethodGet && r.URL.Path == "/repos/acme/web/issues/7/comments":
		json.NewEncoder(w).Encode(f.comments)
	case r.Method == http.MethodPost && r.URL.Path == "/repos/acme/web/issues/7/comments":
		f.comments = append(f.comments, struct {
			ID   int64  `json:"id"`
			Body string `json:"body"`
		}{int64(len(f.comments) + 1), in["body"]})
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(f.comments[len(f.comments)-1])
	case r.Method == http.MethodPatch && strings.HasPrefix(r.URL.Path, "/repos/acme/web/issues/comments/"):
		for i := range f.comments {
			if fmt.Sprint(f.comments[i].ID) == strings.TrimPrefix(r.URL.Path, "/repos/acme/web/issues/comments/") {
				f.comments[i].Body = in["body"]
				f.edits++
			}
		}
		io.WriteString(w, "{}")
	default:
		http.Error(w, `{"message":"Not Found"}`, http.StatusNotFound)
	}
}

// waitFor polls until cond holds (the server delivers in the background).
func (f *fakeGitHubHost) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		f.mu.Lock()
		ok := cond()
		f.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the code host never saw %s", what)
		}
	}
}

// Issue 19 item 9, end to end: the GitHub Actions example of
// docs/pull-requests.md, word for word, on a pull request whose head has
// coverage but no analysis, while main was analysed (a push job running
// plumb analyze). The pull request's comparison, its comment on GitHub and
// plumb gate say the issues have no data, instead of calling every issue of
// main fixed; the analysis of the head, when it arrives, fills them in.
func TestGitHubActionsExampleWithoutAnalysis(t *testing.T) {
	goTool := testtool.Need(t, "go", "install Go (https://go.dev/dl) to run the example's go test")
	onBothBackends(t, func(t *testing.T, e *e2e) {
		gh := &fakeGitHubHost{}
		host := httptest.NewServer(gh)
		defer host.Close()
		req, _ := http.NewRequest(http.MethodPut, e.url+"/gh/acme/projects/web/code-host",
			strings.NewReader(`{"kind": "github", "repository": "acme/web", "token": "ghp_test", "baseUrl": "`+host.URL+`"}`))
		req.Header.Set("Authorization", "Bearer "+e.admin)
		req.Header.Set("Content-Type", "application/json")
		if res, err := e.client.Do(req); err != nil || res.StatusCode != 200 {
			t.Fatalf("code host: %v %v", res, err)
		}

		// The repository on GitHub: main, and a feature branch proposed
		// as pull request 7 (GitHub's refs/pull/7/merge merges it).
		up, git := gitRepo(t)
		write := fileWriter(t, up)
		write("go.mod", "module example.com/shop\n\ngo 1.22\n")
		write("shop.go", shopBase)
		write("shop_test.go", "package shop\n\nimport \"testing\"\n\nfunc TestPrice(t *testing.T) {\n\tif Price(2, 3) != 6 {\n\t\tt.Fatal(Price(2, 3))\n\t}\n}\n")
		base := commitAll(git, "shop")
		git("checkout", "-q", "-b", "feature")
		write("shop.go", shopBase+shopFeature)
		git("commit", "-q", "-am", "discount")
		head := git("rev-parse", "HEAD")
		git("checkout", "-q", "--detach", "main")
		git("merge", "-q", "--no-ff", "-m", "Merge "+head+" into "+base, "feature")
		git("update-ref", "refs/pull/7/merge", "HEAD")
		merge := git("rev-parse", "HEAD")
		git("checkout", "-q", "main")

		// actions/checkout with fetch-depth: 0, then the job's steps.
		checkout := func(ref string) string {
			dir := filepath.Join(t.TempDir(), "work")
			git("clone", "-q", up, dir)
			cmd := exec.Command("git", "-C", dir, "fetch", "-q", "origin", ref)
			cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("fetch %s: %v %s", ref, err, out)
			}
			cmd = exec.Command("git", "-C", dir, "checkout", "-q", "--detach", "FETCH_HEAD")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("checkout %s: %v %s", ref, err, out)
			}
			return dir
		}
		events := t.TempDir()
		step := func(dir string, env map[string]string, args ...string) (string, string, int) {
			t.Helper()
			t.Chdir(dir)
			ciGitDir = dir
			if args[0] == "go" {
				cmd := exec.Command(goTool, args[1:]...)
				cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOFLAGS=")
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
				}
				return string(out), "", 0
			}
			vars := map[string]string{"GITHUB_ACTIONS": "true", "CI": "true",
				"PLUMB_URL": e.url, "PLUMB_PROJECT": "acme/web", "PLUMB_TOKEN": e.upload}
			for k, v := range env {
				vars[k] = v
			}
			var out, errb bytes.Buffer
			err := run(context.Background(), args, envOf(vars), strings.NewReader(""), &out, &errb)
			code := 0
			if err != nil {
				code = exitCode(err)
				fmt.Fprintf(&errb, "plumb: %v\n", err)
			}
			return out.String(), errb.String(), code
		}
		must := func(dir string, env map[string]string, args ...string) string {
			t.Helper()
			out, errs, code := step(dir, env, args...)
			if code != 0 {
				t.Fatalf("%s: exit %d\n%s%s", strings.Join(args, " "), code, out, errs)
			}
			return out + errs
		}
		event := func(name, body string) string {
			p := filepath.Join(events, name)
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}

		// on: push to main, with plumb analyze besides the example's
		// steps: main has coverage and an analysis (one issue: Label
		// takes 8 parameters).
		push := map[string]string{"GITHUB_EVENT_NAME": "push", "GITHUB_SHA": base, "GITHUB_REF": "refs/heads/main", "GITHUB_REF_NAME": "main",
			"GITHUB_EVENT_PATH": event("push.json", `{"ref": "refs/heads/main", "after": "`+base+`"}`)}
		work := checkout("refs/heads/main")
		must(work, push, "go", "test", "-coverprofile=cover.out", "./...")
		must(work, push, "upload", "coverage", "cover.out", "--coverage-tag", "unit")
		must(work, push, "analyze")

		// on: pull_request, exactly the example: coverage, then the gate.
		pr := map[string]string{"GITHUB_EVENT_NAME": "pull_request", "GITHUB_SHA": merge, "GITHUB_REF": "refs/pull/7/merge",
			"GITHUB_HEAD_REF": "feature", "GITHUB_BASE_REF": "main", "GITHUB_EVENT_PATH": event("pr.json", `{"action": "synchronize", "number": 7,
					"pull_request": {"number": 7, "head": {"ref": "feature", "sha": "`+head+`"}, "base": {"ref": "main", "sha": "`+base+`"}}}`)}
		work = checkout("refs/pull/7/merge")
		must(work, pr, "go", "test", "-coverprofile=cover.out", "./...")
		if out := must(work, pr, "upload", "coverage", "cover.out", "--coverage-tag", "unit"); !strings.Contains(out, "sent the change against main") {
			t.Fatalf("the upload sent no change:\n%s", out)
		}
		out, errs, code := step(work, pr, "gate")
		if code != 1 || !strings.Contains(out, "(head "+short(head)+" against base "+short(base)+")") ||
			!regexp.MustCompile(`new_issues\s+≤ 0 of level high or worse\s+no analysis of the head commit yet\s+no data`).MatchString(out) ||
			!regexp.MustCompile(`new_security_issues\s+≤ 0\s+no analysis of the head commit yet\s+no data`).MatchString(out) {
			t.Fatalf("gate: exit %d\n%s%s", code, out, errs)
		}
		var cmp struct {
			Issues struct {
				Status string          `json:"status"`
				Detail *string         `json:"detail"`
				New    json.RawMessage `json:"new"`
				Fixed  json.RawMessage `json:"fixed"`
			} `json:"issues"`
		}
		if st := e.get(t, "/gh/acme/projects/web/pulls/7", &cmp); st != 200 || cmp.Issues.Status != "no_data" || string(cmp.Issues.Fixed) != "null" ||
			cmp.Issues.Detail == nil || *cmp.Issues.Detail != "no analysis of the head commit yet" {
			t.Fatalf("pulls/7: %d %+v", st, cmp.Issues)
		}
		gh.waitFor(t, "the pull request's comment", func() bool { return len(gh.comments) == 1 })
		gh.mu.Lock()
		comment := gh.comments[0].Body
		statuses := gh.statuses
		gh.mu.Unlock()
		if !strings.Contains(comment, "| Issues | | | no data: no analysis of the head commit yet") || strings.Contains(comment, "fixed") ||
			!strings.Contains(comment, "| new_issues | ≤ 0 of level high or worse | no analysis of the head commit yet | no_data |") {
			t.Errorf("comment:\n%s", comment)
		}
		for _, s := range statuses {
			if s["sha"] != head || s["target_url"] != e.url+"/w/acme/web/pulls/7" {
				t.Errorf("status %v: want the head %s with a link to its page", s, head)
			}
		}

		// A later step analyses the head: the comment is edited in
		// place with the issues compared (Join takes 9 parameters: a
		// new issue; Label's is unchanged).
		must(work, pr, "analyze")
		gh.waitFor(t, "the comment edited", func() bool {
			return gh.edits > 0 && strings.Contains(gh.comments[0].Body, "1 new, 0 fixed, 1 unchanged")
		})
		if n := len(gh.comments); n != 1 {
			t.Errorf("%d comments, want the one edited", n)
		}
		out, _, code = step(work, pr, "gate")
		if !regexp.MustCompile(`new_issues\s+≤ 0 of level high or worse\s+0\s+passed`).MatchString(out) || code != 1 {
			t.Errorf("gate after the head's analysis: exit %d\n%s", code, out)
		}
	})
}

const shopBase = `package shop

// Price is the price of n items at unit cents.
func Price(n, unit int) int {
	return n * unit
}

// Label joins the parts of a label.
func Label(a, b, c, d, e, f, g, h string) string {
	return a + b + c + d + e + f + g + h
}
`

const shopFeature = `
// Discount takes pct percent off p.
func Discount(p, pct int) int {
	if pct <= 0 {
		return p
	}
	return p - p*pct/100
}

// Join joins nine parts.
func Join(a, b, c, d, e, f, g, h, i string) string {
	return a + b + c + d + e + f + g + h + i
}
`

// The change belongs to one commit: --base and --no-change are refused with
// --history.
func TestAnalyzeHistoryRefusesTheChangeFlags(t *testing.T) {
	testHooks(t)
	for _, flag := range [][]string{{"--base", "main"}, {"--no-change"}} {
		var out, errb bytes.Buffer
		err := run(context.Background(), append([]string{"analyze", "--history", "1y"}, flag...), envOf(map[string]string{}), strings.NewReader(""), &out, &errb)
		if exitCode(err) != 2 || !strings.Contains(err.Error(), "--base and --no-change go with the analysis of one commit") {
			t.Errorf("analyze --history %v: %v", flag, err)
		}
	}
}
