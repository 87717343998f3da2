package api_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// A fake GitHub: records each request, answers comments with a list or a
// created comment, and statuses with 201 (or everything with status).
type fakeGitHub struct {
	mu       sync.Mutex
	requests []string
	status   int
}

func (f *fakeGitHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	body, _ := io.ReadAll(r.Body)
	line := r.Method + " " + r.URL.RequestURI() + " [" + r.Header.Get("Authorization") + "]"
	if len(body) > 0 {
		line += " " + string(body)
	}
	f.requests = append(f.requests, line)
	switch {
	case f.status != 0:
		http.Error(w, `{"message":"Bad credentials"}`, f.status)
	case r.Method == http.MethodGet:
		io.WriteString(w, `[]`)
	default:
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, `{"id": 42, "body": ""}`)
	}
}

func TestCodeHostDeliveries(t *testing.T) {
	w := compareFixture(t)
	gh := &fakeGitHub{}
	srv := httptest.NewServer(gh)
	defer srv.Close()
	json := hdr("Content-Type", "application/json")
	w.get(t, "/gh/acme/projects/web/code-host", w.Alice).wantJSON(t, 200,
		`{"configured": false, "kind": null, "baseUrl": null, "repository": null, "lastDelivery": null}`)
	w.do(t, "PUT", "/gh/acme/projects/web/code-host", w.Alice, json, `{"kind": "bitbucket", "repository": "acme", "token": "a b", "baseUrl": "ftp://x"}`).
		wantError(t, 400, "kind must be github or gitlab", "baseUrl must be an http or https URL", "token must not contain spaces")
	w.do(t, "PUT", "/gh/acme/projects/web/code-host", w.Alice, json, `{"kind": "github", "repository": "acme/web", "token": "ghp_secret", "baseUrl": "`+srv.URL+`/api/v3"}`).
		wantJSON(t, 200, `{"configured": true, "kind": "github", "baseUrl": "`+srv.URL+`/api/v3", "repository": "acme/web", "lastDelivery": null}`)
	w.user(t, "carol")
	w.member(t, "acme", "carol", "member")
	w.get(t, "/gh/acme/projects/web/code-host", w.token(t, "carol")).wantError(t, 403, "project admin")

	change := `{"commitSha": "` + headSHA + `", "branch": "feature", "baseCommitSha": "` + baseSHA + `", "pullRequestNumber": 7,
		"files": [{"path": "a.go", "status": "modified", "addedLines": [[2, 3], [5, 5]]}, {"path": "new.go", "previousPath": "old.go", "status": "renamed", "addedLines": [[1, 1], [3, 3]]}]}`
	w.do(t, "POST", "/ingest/gh/acme/projects/web/changes", w.Alice, json, change).wantStatus(t, 201)
	w.testServer.API.WaitDeliveries()
	status := "POST /api/v3/repos/acme/web/statuses/" + headSHA + " [Bearer ghp_secret] "
	// The Details link: the web's page of the pull request, at the address
	// the upload reached (no --base-url here).
	details := `"target_url":"` + w.URL + `/w/acme/web/pulls/7"`
	want := []string{
		status + `{"context":"plumb/quality-gate","description":"Quality gate failed: 4 of 4 conditions","state":"failure",` + details + `}`,
		status + `{"context":"plumb/patch-coverage","description":"40.00% (2 of 5 lines) covered (threshold ≥ 80.00%)","state":"failure",` + details + `}`,
		"GET /api/v3/repos/acme/web/issues/7/comments?per_page=100 [Bearer ghp_secret]",
	}
	gh.mu.Lock()
	got := gh.requests
	gh.requests = nil
	gh.mu.Unlock()
	if len(got) != 4 || strings.Join(got[:3], "\n") != strings.Join(want, "\n") {
		t.Fatalf("requests:\n%s\nwant:\n%s\n+ the comment", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.HasPrefix(got[3], "POST /api/v3/repos/acme/web/issues/7/comments [Bearer ghp_secret] {\"body\":\"\\u003c!-- plumb:pull-request-summary --\\u003e\\n## Plumb: pull request #7") {
		t.Errorf("comment request: %s", got[3])
	}
	w.get(t, "/gh/acme/projects/web/code-host", w.Alice).wantJSON(t, 200, `{"configured": true, "kind": "github", "baseUrl": "`+srv.URL+`/api/v3",
		"repository": "acme/web", "lastDelivery": {"commitSha": "`+headSHA+`", "state": "delivered", "attempts": 1, "detail": "", "at": "`+tsf(w.Clock.Now())+`"}}`)

	// A refusing host: the upload still succeeds; the failure is recorded
	// and logged, the token nowhere.
	gh.status = http.StatusUnauthorized
	w.do(t, "POST", "/ingest/gh/acme/projects/web/changes", w.Alice, json, change).wantStatus(t, 201)
	w.testServer.API.WaitDeliveries()
	r := w.get(t, "/gh/acme/projects/web/code-host", w.Alice).wantStatus(t, 200)
	last := r.json(t).(map[string]any)["lastDelivery"].(map[string]any)
	if last["state"] != "failed" || last["attempts"].(float64) != 1 || !strings.Contains(last["detail"].(string), "401") {
		t.Errorf("failed delivery: %v", last)
	}
	if logs := w.Logs.String(); !strings.Contains(logs, "code host delivery failed") || strings.Contains(logs, "ghp_secret") || strings.Contains(string(r.Body), "ghp_secret") {
		t.Errorf("logs:\n%s", logs)
	}
}
