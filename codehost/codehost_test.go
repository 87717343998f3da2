package codehost

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
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
			f.page(w, r, kind)
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

// page answers one page of the comments as the host documents its paging:
// per_page (GitHub: default 30; GitLab: default 20; at most 100) and page
// (from 1). GitHub names the other pages in a Link header, under
// /repositories/{id}/… rather than the path asked
// (https://docs.github.com/en/rest/using-the-rest-api/using-pagination-in-the-rest-api);
// GitLab sets X-Page, X-Per-Page, X-Next-Page (empty on the last page),
// X-Prev-Page, X-Total and X-Total-Pages
// (https://docs.gitlab.com/api/rest/#offset-based-pagination).
func (f *fakeHost) page(w http.ResponseWriter, r *http.Request, kind string) {
	per := 30
	if kind == GitLab {
		per = 20
	}
	if v, err := strconv.Atoi(r.URL.Query().Get("per_page")); err == nil && v > 0 {
		per = min(v, 100)
	}
	page := 1
	if v, err := strconv.Atoi(r.URL.Query().Get("page")); err == nil && v > 0 {
		page = v
	}
	pages := max(1, (len(f.comments)+per-1)/per)
	from, to := min((page-1)*per, len(f.comments)), min(page*per, len(f.comments))
	at := func(n int) string {
		q := r.URL.Query()
		q.Set("page", strconv.Itoa(n))
		path := r.URL.Path
		if kind == GitHub {
			path = strings.Replace(path, "/repos/acme/web/", "/repositories/1296269/", 1)
		}
		return "http://" + r.Host + path + "?" + q.Encode()
	}
	var links []string
	if page < pages {
		links = append(links, fmt.Sprintf(`<%s>; rel="next"`, at(page+1)), fmt.Sprintf(`<%s>; rel="last"`, at(pages)))
	}
	if page > 1 {
		links = append(links, fmt.Sprintf(`<%s>; rel="prev"`, at(page-1)), fmt.Sprintf(`<%s>; rel="first"`, at(1)))
	}
	if len(links) > 0 {
		w.Header().Set("Link", strings.Join(links, ", "))
	}
	if kind == GitLab {
		next, prev := "", ""
		if page < pages {
			next = strconv.Itoa(page + 1)
		}
		if page > 1 {
			prev = strconv.Itoa(page - 1)
		}
		for k, v := range map[string]string{"X-Page": strconv.Itoa(page), "X-Per-Page": strconv.Itoa(per), "X-Next-Page": next, "X-Prev-Page": prev,
			"X-Total": strconv.Itoa(len(f.comments)), "X-Total-Pages": strconv.Itoa(pages)} {
			w.Header()[k] = []string{v}
		}
	}
	json.NewEncoder(w).Encode(f.comments[from:to])
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

// manyComments are n comments of other people, with Plumb's at index mine
// (-1: none).
func manyComments(n, mine int, body string) []note {
	out := make([]note, n)
	for i := range out {
		out[i] = note{ID: int64(1000 + i), Body: fmt.Sprintf("comment %d", i)}
	}
	if mine >= 0 {
		out[mine].Body = Marker + "\n" + body
	}
	return out
}

// Issue 19 item 12: Plumb's comment is found on any page of a pull request
// with more than 100 comments, by following GitHub's Link rel="next" as
// given and GitLab's X-Next-Page; it is edited, never written again.
func TestCommentFoundOnALaterPage(t *testing.T) {
	for _, kind := range []string{GitHub, GitLab} {
		t.Run(kind, func(t *testing.T) {
			f := newFakeHost(t, kind)
			f.comments = manyComments(250, 230, "old")
			target := Target{Kind: kind, BaseURL: f.srv.URL, Repository: "acme/web", Token: "secret"}
			d := delivery("new")
			d.Statuses = nil
			id, err := (&Client{}).Publish(context.Background(), target, d)
			if err != nil || id != "1230" {
				t.Fatalf("publish: %q %v", id, err)
			}
			got := f.take()
			var want []string
			if kind == GitHub {
				want = []string{
					"GET /repos/acme/web/issues/7/comments?per_page=100 [Bearer secret] ",
					"GET /repositories/1296269/issues/7/comments?page=2&per_page=100 [Bearer secret] ",
					"GET /repositories/1296269/issues/7/comments?page=3&per_page=100 [Bearer secret] ",
					"PATCH /repos/acme/web/issues/comments/1230 [Bearer secret] " + `{"body":"` + markerJSON + `\nnew"}`,
				}
			} else {
				notes := "/api/v4/projects/acme%2Fweb/merge_requests/7/notes"
				want = []string{
					"GET " + notes + "?per_page=100&sort=asc [PRIVATE-TOKEN secret] ",
					"GET " + notes + "?page=2&per_page=100&sort=asc [PRIVATE-TOKEN secret] ",
					"GET " + notes + "?page=3&per_page=100&sort=asc [PRIVATE-TOKEN secret] ",
					"PUT " + notes + "/1230 [PRIVATE-TOKEN secret] " + `{"body":"` + markerJSON + `\nnew"}`,
				}
			}
			check(t, got, want)
			// Without a Plumb comment on any page: every page is read, then
			// one comment is written.
			f.comments = manyComments(201, -1, "")
			if _, err := (&Client{}).Publish(context.Background(), target, d); err != nil {
				t.Fatal(err)
			}
			got = f.take()
			if len(got) != 4 || !strings.HasPrefix(got[2], "GET ") || !strings.Contains(got[2], "page=3") || !strings.HasPrefix(got[3], "POST ") {
				t.Errorf("no comment of Plumb's in 201: requests\n%s", strings.Join(got, "\n"))
			}
		})
	}
}

// A next page on another host is not followed: the token goes only to the
// configured code host.
func TestCommentPagesStayOnTheHost(t *testing.T) {
	var elsewhere []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere = append(elsewhere, r.Header.Get("Authorization"))
		io.WriteString(w, "[]")
	}))
	defer other.Close()
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", `<`+other.URL+`/repos/acme/web/issues/7/comments?page=2>; rel="next"`)
		io.WriteString(w, "[]")
	}))
	defer host.Close()
	d := delivery("x")
	d.Statuses = nil
	_, err := (&Client{}).Publish(context.Background(), Target{Kind: GitHub, BaseURL: host.URL, Repository: "acme/web", Token: "secret"}, d)
	if err == nil || !strings.Contains(err.Error(), "is not on "+host.URL) || len(elsewhere) != 0 {
		t.Fatalf("err %v; requests elsewhere %v", err, elsewhere)
	}
}

func TestLinkNext(t *testing.T) {
	for _, c := range []struct{ header, want string }{
		{`<https://api.github.com/repositories/1/issues/7/comments?page=2>; rel="next", <https://api.github.com/repositories/1/issues/7/comments?page=5>; rel="last"`,
			"https://api.github.com/repositories/1/issues/7/comments?page=2"},
		{`<https://h/x?page=1>; rel="prev", <https://h/x?page=3>; rel="next"`, "https://h/x?page=3"},
		{`<https://h/x?page=1>; rel="first", <https://h/x?page=1>; rel="prev"`, ""},
		{`<https://h/x?page=4>;rel=next`, "https://h/x?page=4"},
		{`<https://h/x?a=1,2&page=2>; title="a; b"; rel="prefetch next"`, "https://h/x?a=1,2&page=2"},
		{``, ""},
	} {
		if got := linkNext([]string{c.header}); got != c.want {
			t.Errorf("linkNext(%q) = %q, want %q", c.header, got, c.want)
		}
	}
}
