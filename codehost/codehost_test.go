package codehost

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeHost records every request and answers from a script.
type fakeHost struct {
	mu       sync.Mutex
	requests []string // "METHOD escaped-path?query auth body"
	comments []note
	fail     int // answer 502 to this many requests first
	srv      *httptest.Server
}

func newFakeHost(t *testing.T, kind string) *fakeHost {
	f := &fakeHost{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		body, _ := io.ReadAll(r.Body)
		auth := r.Header.Get("Authorization")
		if kind == GitLab {
			auth = "PRIVATE-TOKEN " + r.Header.Get("PRIVATE-TOKEN")
		}
		line := r.Method + " " + r.URL.EscapedPath()
		if r.URL.RawQuery != "" {
			line += "?" + r.URL.RawQuery
		}
		f.requests = append(f.requests, line+" ["+auth+"] "+string(body))
		if f.fail > 0 {
			f.fail--
			http.Error(w, "bad gateway", http.StatusBadGateway)
			return
		}
		switch {
		case r.Method == http.MethodGet:
			json.NewEncoder(w).Encode(f.comments)
		case strings.HasSuffix(r.URL.Path, "/comments") || strings.HasSuffix(r.URL.Path, "/notes"):
			var in struct{ Body string }
			json.Unmarshal(body, &in)
			n := note{ID: int64(100 + len(f.comments)), Body: in.Body}
			f.comments = append(f.comments, n)
			w.WriteHeader(http.StatusCreated)
			json.NewEncoder(w).Encode(n)
		default:
			w.WriteHeader(http.StatusCreated)
			io.WriteString(w, "{}")
		}
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeHost) take() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := f.requests
	f.requests = nil
	return r
}

func check(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

const sha = "e000000000000000000000000000000000000002"

func delivery(comment string) Delivery {
	return Delivery{CommitSHA: sha, PullRequest: 7, Comment: comment, Statuses: []Status{
		{Context: "plumb/quality-gate", State: "failure", Description: "2 of 4 conditions failed", TargetURL: "https://plumb.example/pr/7"},
		{Context: "plumb/patch-coverage", State: "success", Description: "85.00% of 20 changed lines"},
	}}
}

func TestGitHubStatusesAndOneComment(t *testing.T) {
	f := newFakeHost(t, GitHub)
	c := &Client{}
	target := Target{Kind: GitHub, BaseURL: f.srv.URL + "/api/v3/", Repository: "acme/web", Token: "ghp_secret"}
	id, err := c.Publish(context.Background(), target, delivery("first"))
	if err != nil || id != "100" {
		t.Fatalf("publish: %q %v", id, err)
	}
	status := "POST /api/v3/repos/acme/web/statuses/" + sha + " [Bearer ghp_secret] "
	check(t, f.take(), []string{
		status + `{"context":"plumb/quality-gate","description":"2 of 4 conditions failed","state":"failure","target_url":"https://plumb.example/pr/7"}`,
		status + `{"context":"plumb/patch-coverage","description":"85.00% of 20 changed lines","state":"success"}`,
		"GET /api/v3/repos/acme/web/issues/7/comments?per_page=100 [Bearer ghp_secret] ",
		"POST /api/v3/repos/acme/web/issues/7/comments [Bearer ghp_secret] " + `{"body":"` + markerJSON + `\nfirst"}`,
	})
	// The next push edits the same comment; an unchanged one is left alone.
	f.comments = append([]note{{ID: 5, Body: "someone else"}}, f.comments...)
	if id, err = c.Publish(context.Background(), target, delivery("second")); err != nil || id != "100" {
		t.Fatalf("second publish: %q %v", id, err)
	}
	got := f.take()
	check(t, got[2:], []string{
		"GET /api/v3/repos/acme/web/issues/7/comments?per_page=100 [Bearer ghp_secret] ",
		"PATCH /api/v3/repos/acme/web/issues/comments/100 [Bearer ghp_secret] " + `{"body":"` + markerJSON + `\nsecond"}`,
	})
	f.comments[1].Body = Marker + "\nsame"
	if _, err = c.Publish(context.Background(), target, delivery("same")); err != nil {
		t.Fatal(err)
	}
	if got := f.take(); len(got) != 3 {
		t.Errorf("unchanged comment: %d requests, want 3 (two statuses, one read)", len(got))
	}
}

func TestGitLabStatusesAndOneNote(t *testing.T) {
	f := newFakeHost(t, GitLab)
	c := &Client{}
	target := Target{Kind: GitLab, BaseURL: f.srv.URL, Repository: "group/sub/app", Token: "glpat-secret"}
	if _, err := c.Publish(context.Background(), target, delivery("first")); err != nil {
		t.Fatal(err)
	}
	project := "/api/v4/projects/group%2Fsub%2Fapp"
	status := "POST " + project + "/statuses/" + sha + " [PRIVATE-TOKEN glpat-secret] "
	check(t, f.take(), []string{
		status + `{"description":"2 of 4 conditions failed","name":"plumb/quality-gate","state":"failed","target_url":"https://plumb.example/pr/7"}`,
		status + `{"description":"85.00% of 20 changed lines","name":"plumb/patch-coverage","state":"success"}`,
		"GET " + project + "/merge_requests/7/notes?per_page=100&sort=asc [PRIVATE-TOKEN glpat-secret] ",
		"POST " + project + "/merge_requests/7/notes [PRIVATE-TOKEN glpat-secret] " + `{"body":"` + markerJSON + `\nfirst"}`,
	})
	if _, err := c.Publish(context.Background(), target, delivery("second")); err != nil {
		t.Fatal(err)
	}
	check(t, f.take()[3:], []string{
		"PUT " + project + "/merge_requests/7/notes/100 [PRIVATE-TOKEN glpat-secret] " + `{"body":"` + markerJSON + `\nsecond"}`,
	})
}

func TestDeliverRetries(t *testing.T) {
	f := newFakeHost(t, GitHub)
	f.fail = 2
	c := &Client{}
	target := Target{Kind: GitHub, BaseURL: f.srv.URL, Repository: "acme/web", Token: "t"}
	var waits []int
	backoff := func(n int) time.Duration { waits = append(waits, n); return time.Millisecond }
	r := c.Deliver(context.Background(), target, Delivery{CommitSHA: sha, Statuses: delivery("").Statuses}, 3, backoff)
	if r.State != "delivered" || r.Attempts != 3 || len(waits) != 2 {
		t.Fatalf("result %+v, waits %v", r, waits)
	}
	// A refusal (4xx) is not retried; the host's message is kept.
	f2 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"message":"Bad credentials"}`, http.StatusUnauthorized)
	}))
	defer f2.Close()
	r = c.Deliver(context.Background(), Target{Kind: GitHub, BaseURL: f2.URL, Repository: "acme/web", Token: "t"}, delivery("x"), 3, backoff)
	if r.State != "failed" || r.Attempts != 1 || !strings.Contains(r.Detail, "401") || !strings.Contains(r.Detail, "Bad credentials") {
		t.Fatalf("refused: %+v", r)
	}
	if strings.Contains(r.Detail, "t\"") {
		t.Errorf("detail leaks the token: %s", r.Detail)
	}
}

// markerJSON is Marker as encoding/json writes it (< and > escaped).
const markerJSON = `\u003c!-- plumb:pull-request-summary --\u003e`
