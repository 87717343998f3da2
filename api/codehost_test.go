package api_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/plumbhq/plumb/api"
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

// A fake GitLab: records each request (method, path and query, and the
// statuses' bodies), answers note lists with none and creates notes.
type fakeGitLab struct {
	mu       sync.Mutex
	requests []string
	notes    int
}

func (f *fakeGitLab) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	body, _ := io.ReadAll(r.Body)
	line := r.Method + " " + r.URL.RequestURI()
	if strings.Contains(r.URL.Path, "/statuses/") {
		line += " " + string(body)
	}
	f.requests = append(f.requests, line)
	switch {
	case r.Method == http.MethodGet:
		w.Header().Set("X-Next-Page", "")
		io.WriteString(w, `[]`)
	case strings.HasSuffix(r.URL.Path, "/notes"):
		f.notes++
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"id": %d, "body": ""}`, f.notes)
	default:
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, `{}`)
	}
}

func (f *fakeGitLab) take() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := f.requests
	f.requests = nil
	return r
}

// Issue 19 items 10 and 11. One commit heads two merge requests (its branch
// is proposed to main as !7 and again as !8): each upload's summary goes to
// the merge request the upload names, computed from that merge request's
// own change, and never replaces the other's; an upload without a number
// sets the commit's statuses only. Every status links to Plumb's page of the
// merge request under the configured public address (--base-url).
func TestCodeHostDeliveryFollowsTheUploadsPullRequest(t *testing.T) {
	w := compareFixture(t, withConfig(api.Config{BaseURL: "https://plumb.example.com/"}))
	gl := &fakeGitLab{}
	srv := httptest.NewServer(gl)
	defer srv.Close()
	w.do(t, "PUT", "/gh/acme/projects/web/code-host", w.Alice, jsonBody, `{"kind": "gitlab", "repository": "acme/web", "token": "glpat-secret", "baseUrl": "`+srv.URL+`"}`).
		wantStatus(t, 200)
	project := "/api/v4/projects/acme%2Fweb"
	statuses := func(mr int, gate, patch string) []string {
		details := fmt.Sprintf(`"target_url":"https://plumb.example.com/w/acme/web/pulls/%d"`, mr)
		return []string{
			"POST " + project + "/statuses/" + headSHA + ` {"description":"` + gate + `","name":"plumb/quality-gate","state":"failed",` + details + `}`,
			"POST " + project + "/statuses/" + headSHA + ` {"description":"` + patch + `","name":"plumb/patch-coverage","state":"failed",` + details + `}`,
		}
	}
	notes := func(mr int) []string {
		n := fmt.Sprintf("%s/merge_requests/%d/notes", project, mr)
		return []string{"GET " + n + "?per_page=100&sort=asc", "POST " + n}
	}
	expect := func(step string, want []string) {
		t.Helper()
		w.testServer.API.WaitDeliveries()
		if got := gl.take(); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: requests\n%s\nwant\n%s", step, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}

	// The change for !8: only new.go, against main.
	w.do(t, "POST", "/ingest/gh/acme/projects/web/changes", w.Alice, jsonBody, `{"commitSha": "`+headSHA+`", "branch": "feature",
		"baseBranch": "main", "pullRequestNumber": 8, "files": [{"path": "new.go", "previousPath": "old.go", "status": "renamed", "addedLines": [[1, 1], [3, 3]]}]}`).
		wantStatus(t, 201)
	expect("change for !8", append(statuses(8, "Quality gate failed: 4 of 4 conditions", "50.00% (1 of 2 lines) covered (threshold ≥ 80.00%)"), notes(8)...))
	// A coverage upload for !7 of the same commit: !7's summary, from !7's
	// change (a.go and new.go: 2 of 5 lines).
	lcov := "SF:a.go\nDA:1,1\nend_of_record\n"
	w.do(t, "POST", "/ingest/gh/acme/projects/web/coverage?commitSha="+headSHA+"&branch=feature&coverageTag=lint&pullRequestNumber=7", w.Alice, nil, lcov).
		wantStatus(t, 201)
	expect("coverage for !7", append(statuses(7, "Quality gate failed: 4 of 4 conditions", "40.00% (2 of 5 lines) covered (threshold ≥ 80.00%)"), notes(7)...))
	// Without a number: the statuses, no comment anywhere.
	w.do(t, "POST", "/ingest/gh/acme/projects/web/coverage?commitSha="+headSHA+"&branch=feature&coverageTag=lint", w.Alice, nil, lcov).wantStatus(t, 201)
	w.testServer.API.WaitDeliveries()
	if r := gl.take(); len(r) != 2 || !strings.Contains(r[0], "/statuses/") || !strings.Contains(r[1], "/statuses/") ||
		!strings.Contains(r[0], `"target_url":"https://plumb.example.com/w/acme/web/coverage?ref=`+headSHA+`"`) {
		t.Errorf("coverage without a merge request: requests\n%s\nwant the two statuses only", strings.Join(r, "\n"))
	}
	// A coverage upload for a merge request whose change was never sent
	// (nor one without a number): nothing to compare, nothing delivered.
	w.do(t, "POST", "/ingest/gh/acme/projects/web/coverage?commitSha="+headSHA+"&branch=feature&coverageTag=lint&pullRequestNumber=9", w.Alice, nil, lcov).
		wantStatus(t, 201)
	expect("coverage for !9 without a change", nil)

	// Both merge requests keep their own change, and the gate (plumb gate
	// sends the number it detects) judges the one asked for.
	for mr, pct := range map[int]float64{7: 40, 8: 50} {
		v := w.get(t, fmt.Sprintf("/gh/acme/projects/web/pulls/%d", mr), w.Alice).wantStatus(t, 200).json(t).(map[string]any)
		if p := v["patch"].(map[string]any)["percent"]; p != pct {
			t.Errorf("!%d: patch coverage %v, want %v", mr, p, pct)
		}
		g := w.get(t, fmt.Sprintf("/ingest/gh/acme/projects/web/gate?head=%s&pullRequestNumber=%d", headSHA, mr), w.Alice).wantStatus(t, 200).json(t).(map[string]any)
		if g["patchCoverage"] != pct {
			t.Errorf("gate of !%d: patch coverage %v, want %v", mr, g["patchCoverage"], pct)
		}
	}
	w.get(t, "/ingest/gh/acme/projects/web/gate?head="+headSHA+"&pullRequestNumber=07", w.Alice).wantError(t, 400, "pullRequestNumber must be a positive integer")
}
