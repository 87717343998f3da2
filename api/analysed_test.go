package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// GET /ingest/…/analyses (docs/ingest.md, "Which commits are analysed"):
// of the commits asked about, those with an analysis on the branch, each
// with its latest analysis, in the order asked; a SARIF upload alone is no
// analysis; other branches' analyses do not count.
func TestAnalysedCommits(t *testing.T) {
	w := newIngWorld(t)
	sha := func(n int) string { return fmt.Sprintf("%040x", 0xa000+n) }
	analysis := func(n int, branch, at string) string {
		t.Helper()
		r := w.do(t, http.MethodPost, ingWeb+"/analyses", w.Upload, map[string]string{"Content-Type": "application/json"},
			`{"commitSha":"`+sha(n)+`","branch":"`+branch+`","analyzedAt":"`+at+`","files":[{"path":"a.go","lines":3,"loc":2}]}`).
			wantStatus(t, http.StatusCreated)
		var v struct{ ID string }
		mustUnmarshal(t, r.Body, &v)
		return v.ID
	}
	a1 := analysis(1, "main", "2026-01-05T10:00:00Z")
	w.do(t, http.MethodPost, ingWeb+"/sarif?"+ingQuery("commitSha", sha(2), "branch", "main", "analyzedAt", "2026-01-12T10:00:00Z"),
		w.Upload, nil, readSARIF(t, "staticcheck.sarif")).wantStatus(t, http.StatusCreated)
	feature := analysis(3, "feature", "2026-01-13T10:00:00Z")
	analysis(4, "main", "2026-01-19T10:00:00Z")
	a4 := analysis(4, "main", "2026-01-20T10:00:00Z") // the latest of commit 4
	// commit 5 is older than the current analysis: it enters the history
	a5 := analysis(5, "main", "2025-12-29T10:00:00Z")

	ask := func(token, query string) *resp {
		t.Helper()
		return w.get(t, ingWeb+"/analyses?"+query, token)
	}
	want := func(r *resp, body string) {
		t.Helper()
		var got, exp any
		mustUnmarshal(t, r.Body, &got)
		if err := json.Unmarshal([]byte(body), &exp); err != nil {
			t.Fatal(err)
		}
		g, _ := json.Marshal(got)
		e, _ := json.Marshal(exp)
		if string(g) != string(e) {
			t.Errorf("GET …/analyses\n got %s\nwant %s", g, e)
		}
	}
	item := func(id string, n int, at string, current, history bool) string {
		return fmt.Sprintf(`{"id":%q,"commitSha":%q,"analyzedAt":%q,"current":%v,"history":%v}`, id, sha(n), at, current, history)
	}
	// In the order asked, upper case accepted, unknown and SARIF-only commits left out.
	want(ask(w.Upload, "commitSha="+strings.ToUpper(sha(5))+","+sha(4)+"&commitSha="+sha(2)+"&commitSha[]="+sha(1)+","+sha(3)+","+sha(9)).wantStatus(t, http.StatusOK),
		`{"branch":"main","defaultBranch":"main","data":[`+item(a5, 5, "2025-12-29T10:00:00Z", false, true)+","+
			item(a4, 4, "2026-01-20T10:00:00Z", true, true)+","+item(a1, 1, "2026-01-05T10:00:00Z", true, true)+`]}`)
	// Another branch; a project admin's user token may ask too.
	want(ask(w.Carol, "branch=refs/heads/feature&commitSha="+sha(3)+","+sha(1)).wantStatus(t, http.StatusOK),
		`{"branch":"feature","defaultBranch":"main","data":[`+item(feature, 3, "2026-01-13T10:00:00Z", false, false)+`]}`)
	// No commit: the branches only.
	want(ask(w.Upload, "").wantStatus(t, http.StatusOK), `{"branch":"main","defaultBranch":"main","data":[]}`)

	// An analysis after the SARIF upload makes commit 2 analysed.
	a2 := analysis(2, "main", "2026-01-12T11:00:00Z")
	want(ask(w.Upload, "commitSha="+sha(2)).wantStatus(t, http.StatusOK),
		`{"branch":"main","defaultBranch":"main","data":[`+item(a2, 2, "2026-01-12T11:00:00Z", false, true)+`]}`)

	// Bad input: every problem named, nothing else answered.
	var many []string
	for i := range 101 {
		many = append(many, sha(100+i))
	}
	for _, c := range []struct{ query, detail string }{
		{"commitSha=xyz1234", `commitSha must be a commit SHA of 7 to 64 hexadecimal digits, got "xyz1234"`},
		{"commitSha=abc", `got "abc"`},
		{"commitSha=" + strings.Join(many, ","), "lists 101 commits; ask about at most 100"},
		{"branch=&commitSha=" + sha(1), "branch must not be empty"},
		{"branch=main&branch=dev", "branch takes one value"},
	} {
		r := ask(w.Upload, c.query).wantStatus(t, http.StatusBadRequest)
		if d := strings.Join(r.details(t), " | "); !strings.Contains(d, c.detail) {
			t.Errorf("%.60s: details %q, want %q", c.query, d, c.detail)
		}
	}
	// Who may ask: the usual ingestion rule.
	ask(w.Alice, "").wantStatus(t, http.StatusForbidden) // a member, not a project admin
	ask(w.Bob, "").wantStatus(t, http.StatusNotFound)    // not a member of acme
	ask("", "").wantStatus(t, http.StatusUnauthorized)
	_, other := ingUploadToken(t, w.testServer, "globex/vault", true)
	ask(other, "").wantStatus(t, http.StatusNotFound) // another project's upload token
}
