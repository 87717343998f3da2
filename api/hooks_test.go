package api_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/plumbhq/plumb/api"
	"github.com/plumbhq/plumb/codehost"
	"github.com/plumbhq/plumb/internal/testclock"
)

const hookSecret = "webhook-s3cret"

func prEvent(repo, action, title string) string {
	return `{"action":"` + action + `","number":7,"repository":{"full_name":"` + repo + `"},
		"pull_request":{"number":7,"title":"` + title + `","state":"open","merged":false,"user":{"login":"ada"},
		"base":{"ref":"main"},"head":{"ref":"feature","sha":"` + headSHA + `"},"updated_at":"2026-03-02T10:00:00Z"}}`
}

func (w *world) hook(t *testing.T, event, delivery, body, sig string) *resp {
	t.Helper()
	h := hdr("Content-Type", "application/json", "X-GitHub-Event", event, "X-GitHub-Delivery", delivery)
	if sig != "" {
		h["X-Hub-Signature-256"] = sig
	}
	return w.do(t, "POST", "/hooks/github", "", h, body)
}

func hookWorld(t *testing.T) *world {
	w := newWorld(t, withConfig(api.Config{GitHubWebhookSecret: hookSecret}))
	w.projectAdmin(t, "acme/web", "alice")
	w.do(t, "PUT", "/gh/acme/projects/web/code-host", w.Alice, hdr("Content-Type", "application/json"),
		`{"kind": "github", "repository": "acme/web", "token": "ghp_x", "baseUrl": "http://127.0.0.1:1"}`).wantStatus(t, 200)
	return w
}

func TestHookSignatures(t *testing.T) {
	w := hookWorld(t)
	ctx := context.Background()
	body := prEvent("Acme/Web", "opened", "Faster cart")
	w.hook(t, "pull_request", "d-1", body, "").wantError(t, 401, "X-Hub-Signature-256 header is missing")
	w.hook(t, "pull_request", "d-1", body, codehost.Sign("other", []byte(body))).wantError(t, 401, "X-Hub-Signature-256 header is wrong")
	// Signed over another body: refused, and the body (not even JSON) unread.
	w.hook(t, "pull_request", "d-1", "{not json", codehost.Sign(hookSecret, []byte(body))).wantError(t, 401, "is wrong")
	if _, found, _ := w.DB.PullRequestInfo(ctx, w.Web.ID, 7); found {
		t.Fatal("a refused delivery stored its pull request")
	}
	if ds, _ := w.DB.HookDeliveries(ctx, w.Web.ID, 10); len(ds) != 0 {
		t.Fatalf("refused deliveries were recorded: %+v", ds)
	}

	r := w.hook(t, "pull_request", "d-1", body, codehost.Sign(hookSecret, []byte(body)))
	r.wantStatus(t, 204)
	p, found, err := w.DB.PullRequestInfo(ctx, w.Web.ID, 7)
	check(t, err)
	if !found || p.Title != "Faster cart" || p.HeadSHA != headSHA || p.Author != "ada" || p.BaseBranch != "main" || p.HeadBranch != "feature" {
		t.Fatalf("pull request kept: %+v, %v", p, found)
	}
	// The replay of d-1 (GitHub's "Redeliver"), here with an edited body
	// signed right: the same answer, nothing changed.
	edited := prEvent("acme/web", "edited", "Renamed")
	w.hook(t, "pull_request", "d-1", edited, codehost.Sign(hookSecret, []byte(edited))).wantStatus(t, 204)
	if p, _, _ := w.DB.PullRequestInfo(ctx, w.Web.ID, 7); p.Title != "Faster cart" {
		t.Errorf("the replay changed the title to %q", p.Title)
	}
	w.hook(t, "pull_request", "d-2", edited, codehost.Sign(hookSecret, []byte(edited))).wantStatus(t, 204)
	if p, _, _ := w.DB.PullRequestInfo(ctx, w.Web.ID, 7); p.Title != "Renamed" {
		t.Errorf("a new delivery did not change the title: %q", p.Title)
	}
	ds, err := w.DB.HookDeliveries(ctx, w.Web.ID, 10)
	check(t, err)
	if len(ds) != 2 || ds[0].Status != 204 || ds[0].Event != "pull_request" {
		t.Errorf("deliveries kept: %+v", ds)
	}
}

func TestHookEvents(t *testing.T) {
	w := hookWorld(t)
	ctx := context.Background()
	signed := func(event, id, body string) *resp {
		return w.hook(t, event, id, body, codehost.Sign(hookSecret, []byte(body)))
	}
	signed("ping", "p-1", `{"zen":"Design for failure.","hook_id":1}`).wantStatus(t, 204)
	signed("push", "u-1", `{"ref":"refs/heads/main"}`).wantStatus(t, 204)
	signed("pull_request", "u-2", `{"action":"labeled"}`).wantStatus(t, 204)
	signed("pull_request", "m-1", `{"action":"opened",`).wantError(t, 400, "cannot be read")
	signed("pull_request", "m-2", `{"action":"opened","repository":{"full_name":"acme/web"},"pull_request":{"number":"7"}}`).wantError(t, 400, "cannot be read")
	signed("pull_request", "", prEvent("acme/web", "opened", "x")).wantError(t, 400, "X-GitHub-Delivery")
	// An event for a repository no project is connected to: 404 naming it, nothing kept.
	signed("pull_request", "o-1", prEvent("acme/other", "opened", "x")).wantError(t, 404, `"acme/other"`)
	if ds, _ := w.DB.HookDeliveries(ctx, w.Web.ID, 10); len(ds) != 0 {
		t.Errorf("deliveries kept: %+v", ds)
	}
	// Form-encoded payloads are refused once the signature holds.
	form := "payload=%7B%7D"
	w.do(t, "POST", "/hooks/github", "", hdr("Content-Type", "application/x-www-form-urlencoded", "X-GitHub-Event", "pull_request",
		"X-GitHub-Delivery", "f-1", "X-Hub-Signature-256", codehost.Sign(hookSecret, []byte(form))), form).wantError(t, 415, "application/json")
	big := `{"action":"opened","pad":"` + strings.Repeat("x", 6<<20) + `"}`
	signed("pull_request", "b-1", big).wantError(t, 413, "larger than the limit")

	in := `{"action":"created","installation":{"id":31},"repositories":[{"full_name":"acme/web"}]}`
	signed("installation", "i-1", in).wantStatus(t, 204)
	if id, found, _ := w.DB.GitHubInstallation(ctx, "acme/web"); !found || id != 31 {
		t.Errorf("installation %d %v, want 31", id, found)
	}
	del := `{"action":"deleted","installation":{"id":31},"repositories":[{"full_name":"acme/web"}]}`
	signed("installation", "i-2", del).wantStatus(t, 204)
	if _, found, _ := w.DB.GitHubInstallation(ctx, "acme/web"); found {
		t.Error("the installation outlived its deletion")
	}
}

func TestHookWithoutSecretIsNotFound(t *testing.T) {
	w := newWorld(t)
	body := prEvent("acme/web", "opened", "x")
	w.hook(t, "pull_request", "d-1", body, codehost.Sign("", []byte(body))).wantError(t, 404, "no webhook secret")
}

// appGitHub is a fake GitHub for the App's deliveries: installation look-up
// and token (the JWT verified with the App's public key), statuses, the
// comment and check runs, each request recorded.
type appGitHub struct {
	mu       sync.Mutex
	pub      *rsa.PublicKey
	now      func() time.Time
	requests []string
	patches  []map[string]any
	rest     fakeGitHub // answers statuses and comments
}

func (f *appGitHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	auth := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	f.requests = append(f.requests, r.Method+" "+r.URL.Path)
	app := strings.HasSuffix(r.URL.Path, "/installation") || strings.HasPrefix(r.URL.Path, "/app/")
	if app {
		if _, err := jwt.Parse(auth, func(*jwt.Token) (any, error) { return f.pub, nil }, jwt.WithValidMethods([]string{"RS256"}), jwt.WithTimeFunc(f.now)); err != nil {
			http.Error(w, `{"message":"A JSON web token could not be decoded"}`, http.StatusUnauthorized)
			return
		}
	} else if auth != "ghs_install" {
		http.Error(w, `{"message":"Bad credentials"}`, http.StatusUnauthorized)
		return
	}
	switch {
	case r.URL.Path == "/repos/acme/web/installation":
		io.WriteString(w, `{"id": 5}`)
	case r.URL.Path == "/app/installations/5/access_tokens":
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"token":"ghs_install","expires_at":%q}`, f.now().Add(time.Hour).Format(time.RFC3339))
	case r.Method == http.MethodPost && r.URL.Path == "/repos/acme/web/check-runs":
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, `{"id": 900}`)
	case r.Method == http.MethodPatch && r.URL.Path == "/repos/acme/web/check-runs/900":
		var m map[string]any
		json.NewDecoder(r.Body).Decode(&m)
		f.patches = append(f.patches, m)
		io.WriteString(w, `{"id": 900}`)
	default: // statuses and the comment
		f.rest.ServeHTTP(w, r)
	}
}

// appWorld is the comparison fixture on a server with a GitHub App whose
// GitHub is a fake, and public base URL base.
func appWorld(t *testing.T, base string) (*world, *appGitHub, *httptest.Server) {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	check(t, err)
	clock := testclock.New(t0)
	gh := &appGitHub{pub: &key.PublicKey, now: clock.Now}
	srv := httptest.NewServer(gh)
	t.Cleanup(srv.Close)
	app := &codehost.App{ID: 1, Key: key, BaseURL: srv.URL, Now: clock.Now}
	return compareFixture(t, withConfig(api.Config{GitHubApp: app, BaseURL: base}), onDatabase("", clock)), gh, srv
}

// TestCheckRunThroughTheApp: a GitHub project connected without a token, on
// a server with a GitHub App, gets the statuses, the comment and a check
// run with installation tokens: created in progress, then completed with
// the gate's conclusion and annotations on the changed lines, the most
// severe first, linking to the pull request's page.
func TestCheckRunThroughTheApp(t *testing.T) {
	w, gh, srv := appWorld(t, "https://plumb.example.com")
	json := hdr("Content-Type", "application/json")
	w.do(t, "PUT", "/gh/acme/projects/web/code-host", w.Alice, json, `{"kind": "gitlab", "repository": "acme/web"}`).
		wantError(t, 400, "Field token is required")
	w.do(t, "PUT", "/gh/acme/projects/web/code-host", w.Alice, json, `{"kind": "github", "repository": "acme/web"}`).
		wantJSON(t, 200, `{"configured": true, "kind": "github", "baseUrl": "`+srv.URL+`", "repository": "acme/web", "lastDelivery": null}`)
	w.do(t, "POST", "/ingest/gh/acme/projects/web/changes", w.Alice, json, `{"commitSha": "`+headSHA+`", "branch": "feature",
		"baseCommitSha": "`+baseSHA+`", "pullRequestNumber": 7, "files": [{"path": "a.go", "status": "modified", "addedLines": [[2, 3], [5, 5]]},
		{"path": "new.go", "previousPath": "old.go", "status": "renamed", "addedLines": [[1, 1], [3, 3]]}]}`).wantStatus(t, 201)
	w.testServer.API.WaitDeliveries()

	gh.mu.Lock()
	defer gh.mu.Unlock()
	want := []string{
		"GET /repos/acme/web/installation", "POST /app/installations/5/access_tokens",
		"POST /repos/acme/web/check-runs",
		"POST /repos/acme/web/statuses/" + headSHA, "POST /repos/acme/web/statuses/" + headSHA,
		"GET /repos/acme/web/issues/7/comments", "POST /repos/acme/web/issues/7/comments",
		"PATCH /repos/acme/web/check-runs/900",
	}
	if strings.Join(gh.requests, "\n") != strings.Join(want, "\n") {
		t.Fatalf("requests:\n%s\nwant\n%s", strings.Join(gh.requests, "\n"), strings.Join(want, "\n"))
	}
	p := gh.patches[0]
	out := p["output"].(map[string]any)
	if p["status"] != "completed" || p["conclusion"] != "failure" || p["details_url"] != "https://plumb.example.com/w/acme/web/pulls/7" ||
		out["title"] != "Quality gate failed: 4 of 4 conditions" || !strings.Contains(out["summary"].(string), "Quality gate") {
		t.Errorf("completion: %v", p)
	}
	var got []string
	for _, a := range out["annotations"].([]any) {
		a := a.(map[string]any)
		got = append(got, fmt.Sprintf("%s %s:%v-%v %s", a["annotation_level"], a["path"], a["start_line"], a["end_line"], a["message"]))
	}
	wantA := []string{
		"failure a.go:3-3 m fp3",
		"warning a.go:3-3 Changed line 3 is not covered by tests.",
		"warning a.go:3-3 m fp4",
		"warning a.go:5-5 Changed line 5 is not covered by tests.",
		"warning new.go:1-1 Changed line 1 is not covered by tests.",
	}
	if strings.Join(got, "\n") != strings.Join(wantA, "\n") {
		t.Errorf("annotations:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantA, "\n"))
	}
	st, found, err := w.DB.CheckRun(context.Background(), w.Web.ID, headSHA)
	if err != nil || !found || !st.Completed || st.RunID != 900 || st.Sent != 5 {
		t.Errorf("check run kept: %+v %v %v", st, found, err)
	}
}

// TestCheckRunResumedAtStart: a check run a stopped server left in progress
// (its state kept: run 900, nothing sent) is completed by the next server's
// ResumeCheckRuns, on the same run.
func TestCheckRunResumedAtStart(t *testing.T) {
	w, gh, srv := appWorld(t, "https://plumb.example.com")
	ctx := context.Background()
	check(t, w.DB.PutCodeHost(ctx, w.Web.ID, codehost.Target{Kind: codehost.GitHub, BaseURL: srv.URL, Repository: "acme/web"}, t0))
	check(t, w.DB.PutCheckRun(ctx, w.Web.ID, headSHA, codehost.CheckState{RunID: 900, PullRequest: 7}, t0))
	check(t, w.testServer.API.ResumeCheckRuns(ctx))
	w.testServer.API.WaitDeliveries()
	st, _, err := w.DB.CheckRun(ctx, w.Web.ID, headSHA)
	check(t, err)
	gh.mu.Lock()
	defer gh.mu.Unlock()
	if !st.Completed || st.RunID != 900 || st.Sent != 5 || len(gh.patches) != 1 || gh.patches[0]["conclusion"] != "failure" {
		t.Errorf("state %+v, patches %v; want run 900 completed with its 5 annotations", st, gh.patches)
	}
	for _, r := range gh.requests {
		if r == "POST /repos/acme/web/check-runs" {
			t.Error("a new run was created instead of resuming run 900")
		}
	}
	if runs, err := w.DB.UnfinishedCheckRuns(ctx, 10); err != nil || len(runs) != 0 {
		t.Errorf("unfinished runs left: %+v, %v", runs, err)
	}
}

// TestCheckRunWithoutComparison: a head whose base has no upload yet gets
// its check run completed as neutral, saying why, not left in progress.
func TestCheckRunWithoutComparison(t *testing.T) {
	w, gh, _ := appWorld(t, "")
	json := hdr("Content-Type", "application/json")
	w.do(t, "PUT", "/gh/acme/projects/web/code-host", w.Alice, json, `{"kind": "github", "repository": "acme/web"}`).wantStatus(t, 200)
	unknownBase := strings.Repeat("9", 40)
	w.do(t, "POST", "/ingest/gh/acme/projects/web/changes", w.Alice, json, `{"commitSha": "`+headSHA+`", "branch": "feature",
		"baseCommitSha": "`+unknownBase+`", "pullRequestNumber": 7, "files": [{"path": "a.go", "status": "modified", "addedLines": [[2, 3]]}]}`).wantStatus(t, 201)
	w.testServer.API.WaitDeliveries()
	gh.mu.Lock()
	defer gh.mu.Unlock()
	if len(gh.patches) != 1 {
		t.Fatalf("patches %v, want the one completing the run", gh.patches)
	}
	p := gh.patches[0]
	out := p["output"].(map[string]any)
	if p["conclusion"] != "neutral" || out["title"] != "No comparison yet" || !strings.Contains(out["summary"].(string), unknownBase[:7]) {
		t.Errorf("completion %v", p)
	}
	if st, _, _ := w.DB.CheckRun(context.Background(), w.Web.ID, headSHA); !st.Completed {
		t.Errorf("run left in progress: %+v", st)
	}
}
