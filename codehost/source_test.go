package codehost

import (
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os/exec"
	"path"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	srcCommit = "c0ffee0000000000000000000000000000000001"
	capMiB    = 1 << 20
)

// sourceHost is a code host holding the files of one commit of acme/web,
// answering the file APIs as GitHub and GitLab document them:
//   - GitHub's contents API (https://docs.github.com/en/rest/repos/contents):
//     an object with type "file", base64 content broken every 60 characters,
//     encoding, size and the blob's sha; for a file over 1 MB the content is
//     "" and the encoding "none"; a directory is an array; a missing file is
//     404 {"message":"Not Found"}. Its git blobs API
//     (https://docs.github.com/en/rest/git/blobs) answers content (base64),
//     encoding, sha and size.
//   - GitLab's repository files API
//     (https://docs.gitlab.com/api/repository_files/): the file path is one
//     URL-encoded parameter (an unencoded slash routes nowhere); the answer
//     has file_name, file_path, size, encoding "base64", content,
//     content_sha256, ref, blob_id, commit_id, last_commit_id; a missing file
//     is 404 {"message":"404 File Not Found"}.
type sourceHost struct {
	kind     string
	files    map[string][]byte
	wrongSHA bool // name another content's blob id

	mu       sync.Mutex
	requests []string // "GET escaped-path?query [auth]"
	headers  []http.Header
	srv      *httptest.Server
}

func newSourceHost(t *testing.T, kind string, files map[string][]byte) *sourceHost {
	h := &sourceHost{kind: kind, files: files}
	h.srv = httptest.NewServer(http.HandlerFunc(h.serve))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *sourceHost) target() Target {
	return Target{Kind: h.kind, BaseURL: h.srv.URL, Repository: "acme/web", Token: "tok-secret"}
}

func (h *sourceHost) take() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.requests
	h.requests = nil
	return r
}

func blobSHA(b []byte) string {
	s := sha1.Sum([]byte(fmt.Sprintf("blob %d\x00%s", len(b), b)))
	return hex.EncodeToString(s[:])
}

// wrapped is base64 broken every 60 characters, as GitHub sends it.
func wrapped(b []byte) string {
	s := base64.StdEncoding.EncodeToString(b)
	var out strings.Builder
	for len(s) > 60 {
		out.WriteString(s[:60] + "\n")
		s = s[60:]
	}
	out.WriteString(s + "\n")
	return out.String()
}

func jsonAnswer(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (h *sourceHost) sha(content []byte) string {
	if h.wrongSHA {
		return blobSHA(append([]byte("other "), content...))
	}
	return blobSHA(content)
}

func (h *sourceHost) serve(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	auth := r.Header.Get("Authorization")
	if h.kind == GitLab {
		auth = "PRIVATE-TOKEN " + r.Header.Get("PRIVATE-TOKEN")
	}
	h.requests = append(h.requests, r.Method+" "+r.URL.EscapedPath()+"?"+r.URL.RawQuery+" ["+auth+"]")
	h.headers = append(h.headers, r.Header.Clone())
	h.mu.Unlock()
	if h.kind == GitHub {
		h.github(w, r)
	} else {
		h.gitlab(w, r)
	}
}

func (h *sourceHost) github(w http.ResponseWriter, r *http.Request) {
	notFound := map[string]string{"message": "Not Found", "documentation_url": "https://docs.github.com/rest/repos/contents#get-repository-content", "status": "404"}
	if sha, ok := strings.CutPrefix(r.URL.Path, "/repos/acme/web/git/blobs/"); ok {
		for _, c := range h.files {
			if h.sha(c) == sha {
				jsonAnswer(w, 200, map[string]any{"sha": h.sha(c), "node_id": "B_1", "size": len(c),
					"url": "http://" + r.Host + r.URL.Path, "content": wrapped(c), "encoding": "base64"})
				return
			}
		}
		jsonAnswer(w, 404, notFound)
		return
	}
	name, ok := strings.CutPrefix(r.URL.Path, "/repos/acme/web/contents/")
	if !ok {
		jsonAnswer(w, 404, notFound)
		return
	}
	if ref := r.URL.Query().Get("ref"); ref != srcCommit {
		jsonAnswer(w, 404, map[string]string{"message": "No commit found for the ref " + ref, "status": "404"})
		return
	}
	c, ok := h.files[name]
	if !ok {
		var entries []map[string]any
		for p := range h.files {
			if strings.HasPrefix(p, name+"/") {
				entries = append(entries, map[string]any{"type": "file", "path": p, "name": path.Base(p)})
			}
		}
		if entries != nil {
			jsonAnswer(w, 200, entries)
			return
		}
		jsonAnswer(w, 404, notFound)
		return
	}
	answer := map[string]any{"type": "file", "encoding": "base64", "size": len(c), "name": path.Base(name), "path": name,
		"content": wrapped(c), "sha": h.sha(c), "url": "http://" + r.Host + r.URL.RequestURI(),
		"git_url": "http://" + r.Host + "/repos/acme/web/git/blobs/" + blobSHA(c), "download_url": "http://" + r.Host + "/raw/" + name,
		"_links": map[string]string{"self": "http://" + r.Host + r.URL.RequestURI()}}
	if len(c) > 1<<20 {
		answer["content"], answer["encoding"] = "", "none"
	}
	jsonAnswer(w, 200, answer)
}

func (h *sourceHost) gitlab(w http.ResponseWriter, r *http.Request) {
	escaped, ok := strings.CutPrefix(r.URL.EscapedPath(), "/api/v4/projects/acme%2Fweb/repository/files/")
	if !ok || strings.Contains(escaped, "/") {
		jsonAnswer(w, 404, map[string]string{"error": "404 Not Found"})
		return
	}
	name, err := url.PathUnescape(escaped)
	if err != nil {
		jsonAnswer(w, 400, map[string]string{"error": "file_path is invalid"})
		return
	}
	ref := r.URL.Query().Get("ref")
	if ref != srcCommit {
		jsonAnswer(w, 404, map[string]string{"message": "404 Commit Not Found"})
		return
	}
	c, ok := h.files[name]
	if !ok {
		jsonAnswer(w, 404, map[string]string{"message": "404 File Not Found"})
		return
	}
	sum := sha256.Sum256(c)
	jsonAnswer(w, 200, map[string]any{"file_name": path.Base(name), "file_path": name, "size": len(c), "encoding": "base64",
		"content": base64.StdEncoding.EncodeToString(c), "content_sha256": hex.EncodeToString(sum[:]), "ref": ref,
		"blob_id": h.sha(c), "commit_id": srcCommit, "last_commit_id": "570e7b2abdd848b95f2f578043fc23bd6f6fd24d", "execute_filemode": false})
}

func fetchErr(t *testing.T, err error) *FetchError {
	t.Helper()
	var fe *FetchError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v (%T), want a *FetchError", err, err)
	}
	if strings.Contains(err.Error(), "tok-secret") {
		t.Errorf("the error names the token: %v", err)
	}
	return fe
}

func TestFetchFileGitHub(t *testing.T) {
	main := []byte("package main\n\nfunc main() {}\n")
	h := newSourceHost(t, GitHub, map[string][]byte{"cmd/app/main.go": main, "empty.txt": {}})
	c := &Client{}
	got, err := c.FetchFile(context.Background(), h.target(), srcCommit, "cmd/app/main.go", capMiB)
	if err != nil || !bytes.Equal(got, main) {
		t.Fatalf("fetch: %q %v", got, err)
	}
	check(t, h.take(), []string{"GET /repos/acme/web/contents/cmd/app/main.go?ref=" + srcCommit + " [Bearer tok-secret]"})
	hd := h.headers[0]
	if hd.Get("Accept") != "application/vnd.github+json" || hd.Get("X-GitHub-Api-Version") != "2022-11-28" {
		t.Errorf("headers %v", hd)
	}
	if got, err := c.FetchFile(context.Background(), h.target(), srcCommit, "empty.txt", capMiB); err != nil || len(got) != 0 {
		t.Errorf("empty file: %q %v", got, err)
	}
	// A directory is not a file.
	_, err = c.FetchFile(context.Background(), h.target(), srcCommit, "cmd", capMiB)
	if fe := fetchErr(t, err); !errors.Is(err, FetchNotFound) || !strings.Contains(fe.Error(), "directory") {
		t.Errorf("directory: %v", err)
	}
}

func TestFetchFileGitLab(t *testing.T) {
	content := []byte("class Key\nend\n")
	h := newSourceHost(t, GitLab, map[string][]byte{"app/models/key.rb": content})
	target := h.target()
	target.BaseURL += "/" // as a configuration may write it
	got, err := (&Client{}).FetchFile(context.Background(), target, srcCommit, "app/models/key.rb", capMiB)
	if err != nil || !bytes.Equal(got, content) {
		t.Fatalf("fetch: %q %v", got, err)
	}
	check(t, h.take(), []string{"GET /api/v4/projects/acme%2Fweb/repository/files/app%2Fmodels%2Fkey.rb?ref=" + srcCommit + " [PRIVATE-TOKEN tok-secret]"})
	if h.headers[0].Get("Authorization") != "" {
		t.Errorf("GitLab got an Authorization header too: %v", h.headers[0])
	}
}

// A file over 1 MB comes from GitHub's contents API without its content
// (encoding "none"); it is read from the blobs API under the sha the
// contents answer named.
func TestFetchFileGitHubLargeFileFromBlob(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef\n"), 90_000) // 1.53 MB
	h := newSourceHost(t, GitHub, map[string][]byte{"data/big.txt": big})
	c := &Client{}
	got, err := c.FetchFile(context.Background(), h.target(), srcCommit, "data/big.txt", 2*capMiB)
	if err != nil || !bytes.Equal(got, big) {
		t.Fatalf("fetch: %d bytes, %v", len(got), err)
	}
	check(t, h.take(), []string{
		"GET /repos/acme/web/contents/data/big.txt?ref=" + srcCommit + " [Bearer tok-secret]",
		"GET /repos/acme/web/git/blobs/" + blobSHA(big) + "? [Bearer tok-secret]",
	})
	// Over the cap: refused from the contents answer's size, the blob is
	// not read.
	_, err = c.FetchFile(context.Background(), h.target(), srcCommit, "data/big.txt", capMiB)
	fe := fetchErr(t, err)
	if !errors.Is(err, FetchTooLarge) || fe.Size != int64(len(big)) || fe.Max != capMiB {
		t.Errorf("over the cap: %+v", fe)
	}
	if got := h.take(); len(got) != 1 {
		t.Errorf("over the cap: requests %v, want the contents answer only", got)
	}
}

func TestFetchFileTooLarge(t *testing.T) {
	for _, kind := range []string{GitHub, GitLab} {
		t.Run(kind, func(t *testing.T) {
			content := bytes.Repeat([]byte("x"), 5000)
			h := newSourceHost(t, kind, map[string][]byte{"a.txt": content})
			_, err := (&Client{}).FetchFile(context.Background(), h.target(), srcCommit, "a.txt", 4999)
			if fe := fetchErr(t, err); !errors.Is(err, FetchTooLarge) || fe.Size != 5000 || fe.Max != 4999 {
				t.Errorf("%+v", fe)
			}
			if got, err := (&Client{}).FetchFile(context.Background(), h.target(), srcCommit, "a.txt", 5000); err != nil || len(got) != 5000 {
				t.Errorf("at the cap: %d %v", len(got), err)
			}
		})
	}
}

// A host that under-states a file's size does not make the client read
// more than the cap allows: the answer is cut at its bound.
func TestFetchFileBoundedAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		content := bytes.Repeat([]byte("y"), 3<<20)
		jsonAnswer(w, 200, map[string]any{"size": 10, "encoding": "base64", "blob_id": blobSHA(content),
			"content": base64.StdEncoding.EncodeToString(content)})
	}))
	defer srv.Close()
	_, err := (&Client{}).FetchFile(context.Background(), Target{Kind: GitLab, BaseURL: srv.URL, Repository: "acme/web"}, srcCommit, "a.txt", capMiB)
	if fe := fetchErr(t, err); !errors.Is(err, FetchTooLarge) || fe.Size != 0 {
		t.Errorf("%+v", fe)
	}
	// Within the bound but over the cap once decoded.
	srv2 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		content := bytes.Repeat([]byte("z"), 1000)
		jsonAnswer(w, 200, map[string]any{"size": 10, "encoding": "base64", "blob_id": blobSHA(content),
			"content": base64.StdEncoding.EncodeToString(content)})
	}))
	defer srv2.Close()
	_, err = (&Client{}).FetchFile(context.Background(), Target{Kind: GitLab, BaseURL: srv2.URL, Repository: "acme/web"}, srcCommit, "a.txt", 999)
	if fe := fetchErr(t, err); !errors.Is(err, FetchTooLarge) || fe.Size != 1000 {
		t.Errorf("%+v", fe)
	}
}

func TestFetchFileNotFound(t *testing.T) {
	for _, kind := range []string{GitHub, GitLab} {
		t.Run(kind, func(t *testing.T) {
			h := newSourceHost(t, kind, map[string][]byte{"a.go": []byte("package a\n")})
			for _, c := range []struct{ commit, path string }{{srcCommit, "b.go"}, {"0000000000000000000000000000000000000000", "a.go"}} {
				_, err := (&Client{}).FetchFile(context.Background(), h.target(), c.commit, c.path, capMiB)
				fe := fetchErr(t, err)
				if !errors.Is(err, FetchNotFound) || fe.Status != 404 || fe.Path != c.path || fe.Commit != c.commit || fe.Kind != kind {
					t.Errorf("%s at %s: %+v", c.path, c.commit, fe)
				}
				var he *HTTPError
				if !errors.As(err, &he) || !strings.Contains(strings.ToLower(he.Body), "found") {
					t.Errorf("the host's message is not kept: %v", err)
				}
			}
		})
	}
}

// Refusals as each host documents them: GitHub's primary limit is 403 or
// 429 with x-ratelimit-remaining 0 and x-ratelimit-reset (Unix seconds), a
// secondary one 403 or 429 with retry-after (seconds) or a message saying so
// (https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api);
// GitLab answers 429 with Retry-After, RateLimit-Remaining and
// RateLimit-Reset (Unix seconds)
// (https://docs.gitlab.com/administration/settings/user_and_ip_rate_limits/).
func TestFetchFileRefusals(t *testing.T) {
	reset := time.Unix(1893456000, 0) // 2030-01-01
	for _, c := range []struct {
		name, kind string
		status     int
		headers    map[string]string
		body       string
		want       FetchReason
		wantReset  func(before, after time.Time) (time.Time, time.Time)
	}{
		{"github primary 403", GitHub, 403, map[string]string{"x-ratelimit-limit": "5000", "x-ratelimit-remaining": "0", "x-ratelimit-used": "5000", "x-ratelimit-reset": "1893456000"},
			`{"message":"API rate limit exceeded for user ID 1.","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"}`,
			FetchRateLimited, func(time.Time, time.Time) (time.Time, time.Time) { return reset, reset }},
		{"github primary 429", GitHub, 429, map[string]string{"x-ratelimit-remaining": "0", "x-ratelimit-reset": "1893456000"},
			`{"message":"API rate limit exceeded"}`, FetchRateLimited, func(time.Time, time.Time) (time.Time, time.Time) { return reset, reset }},
		{"github secondary retry-after", GitHub, 403, map[string]string{"retry-after": "60", "x-ratelimit-remaining": "4000", "x-ratelimit-reset": "1893456000"},
			`{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again."}`, FetchRateLimited,
			func(b, a time.Time) (time.Time, time.Time) { return b.Add(time.Minute), a.Add(time.Minute) }},
		{"github secondary message only", GitHub, 403, nil,
			`{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again."}`, FetchRateLimited,
			func(time.Time, time.Time) (time.Time, time.Time) { return time.Time{}, time.Time{} }},
		{"github bad credentials", GitHub, 401, map[string]string{"x-ratelimit-remaining": "59"},
			`{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest"}`, FetchUnauthorized, nil},
		{"github no permission", GitHub, 403, map[string]string{"x-ratelimit-remaining": "4999", "x-ratelimit-reset": "1893456000"},
			`{"message":"Resource not accessible by personal access token"}`, FetchUnauthorized, nil},
		{"github server error", GitHub, 502, nil, `<html>bad gateway</html>`, FetchFailed, nil},
		{"gitlab 429", GitLab, 429, map[string]string{"Retry-After": "30", "RateLimit-Limit": "600", "RateLimit-Observed": "601", "RateLimit-Remaining": "0",
			"RateLimit-Reset": "1893456000", "RateLimit-ResetTime": "Tue, 01 Jan 2030 00:00:00 GMT"},
			`{"message":{"error":"This endpoint has been requested too many times. Try again later."}}`, FetchRateLimited,
			func(b, a time.Time) (time.Time, time.Time) { return b.Add(30 * time.Second), a.Add(30 * time.Second) }},
		{"gitlab 429 reset only", GitLab, 429, map[string]string{"RateLimit-Remaining": "0", "RateLimit-Reset": "1893456000"},
			"Retry later\n", FetchRateLimited, func(time.Time, time.Time) (time.Time, time.Time) { return reset, reset }},
		{"gitlab 429 http date", GitLab, 429, map[string]string{"Retry-After": "Tue, 01 Jan 2030 00:00:00 GMT"},
			"Retry later\n", FetchRateLimited, func(time.Time, time.Time) (time.Time, time.Time) { return reset, reset }},
		{"gitlab unauthorized", GitLab, 401, nil, `{"message":"401 Unauthorized"}`, FetchUnauthorized, nil},
		{"gitlab forbidden", GitLab, 403, nil, `{"message":"403 Forbidden"}`, FetchUnauthorized, nil},
		{"gitlab server error", GitLab, 500, nil, `{"message":"500 Internal Server Error"}`, FetchFailed, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				for k, v := range c.headers {
					w.Header().Set(k, v)
				}
				w.WriteHeader(c.status)
				fmt.Fprint(w, c.body)
			}))
			defer srv.Close()
			before := time.Now()
			_, err := (&Client{}).FetchFile(context.Background(), Target{Kind: c.kind, BaseURL: srv.URL, Repository: "acme/web", Token: "tok-secret"}, srcCommit, "a.go", capMiB)
			after := time.Now()
			fe := fetchErr(t, err)
			if fe.Reason != c.want || !errors.Is(err, c.want) || fe.Status != c.status {
				t.Fatalf("reason %q status %d, want %q %d: %v", fe.Reason, fe.Status, c.want, c.status, err)
			}
			if c.wantReset != nil {
				lo, hi := c.wantReset(before, after)
				if fe.Reset.Before(lo) || fe.Reset.After(hi) {
					t.Errorf("reset %v, want between %v and %v", fe.Reset, lo, hi)
				}
				if !lo.IsZero() && !strings.Contains(err.Error(), "until ") {
					t.Errorf("the message does not say until when: %v", err)
				}
			} else if !fe.Reset.IsZero() {
				t.Errorf("reset %v on a refusal that is no rate limit", fe.Reset)
			}
		})
	}
}

// A redirect to another host is not followed (GitLab's token header would
// go with it); one on the same host is (GitHub moves renamed repositories).
func TestFetchFileRedirects(t *testing.T) {
	var elsewhere []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere = append(elsewhere, r.Header.Get("PRIVATE-TOKEN")+r.Header.Get("Authorization"))
	}))
	defer other.Close()
	h := newSourceHost(t, GitHub, map[string][]byte{"a.go": []byte("package a\n")})
	hop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/repos/old/web/") {
			http.Redirect(w, r, strings.Replace(r.URL.RequestURI(), "/old/", "/acme/", 1), http.StatusMovedPermanently)
			return
		}
		h.srv.Config.Handler.ServeHTTP(w, r)
	}))
	defer hop.Close()
	got, err := (&Client{}).FetchFile(context.Background(), Target{Kind: GitHub, BaseURL: hop.URL, Repository: "old/web", Token: "tok-secret"}, srcCommit, "a.go", capMiB)
	if err != nil || string(got) != "package a\n" {
		t.Fatalf("same-host redirect: %q %v", got, err)
	}
	for _, kind := range []string{GitHub, GitLab} {
		away := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+r.URL.RequestURI(), http.StatusFound)
		}))
		_, err := (&Client{}).FetchFile(context.Background(), Target{Kind: kind, BaseURL: away.URL, Repository: "acme/web", Token: "tok-secret"}, srcCommit, "a.go", capMiB)
		away.Close()
		if fe := fetchErr(t, err); fe.Reason != FetchFailed || !strings.Contains(err.Error(), "redirect") {
			t.Errorf("%s: %v", kind, err)
		}
	}
	if len(elsewhere) != 0 {
		t.Errorf("requests on the other host: %q", elsewhere)
	}
}

func TestFetchFileNetworkAndContext(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	url := srv.URL
	srv.Close()
	_, err := (&Client{}).FetchFile(context.Background(), Target{Kind: GitHub, BaseURL: url, Repository: "acme/web"}, srcCommit, "a.go", capMiB)
	if fe := fetchErr(t, err); !errors.Is(err, FetchFailed) || fe.Status != 0 {
		t.Errorf("host down: %+v", fe)
	}
	h := newSourceHost(t, GitLab, map[string][]byte{"a.go": []byte("package a\n")})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = (&Client{}).FetchFile(ctx, h.target(), srcCommit, "a.go", capMiB)
	if !errors.Is(err, FetchFailed) || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// A content that is not the blob the host named is refused, on both hosts
// and through GitHub's blob fallback.
func TestFetchFileWrongBlobID(t *testing.T) {
	big := bytes.Repeat([]byte("z"), 1<<20+1)
	for _, kind := range []string{GitHub, GitLab} {
		t.Run(kind, func(t *testing.T) {
			h := newSourceHost(t, kind, map[string][]byte{"a.go": []byte("package a\n"), "big.txt": big})
			h.wrongSHA = true
			for _, p := range []string{"a.go", "big.txt"} {
				got, err := (&Client{}).FetchFile(context.Background(), h.target(), srcCommit, p, 2*capMiB)
				if fetchErr(t, err); !errors.Is(err, FetchMismatch) || got != nil {
					t.Errorf("%s: %d bytes, %v", p, len(got), err)
				}
			}
		})
	}
	// A blob id of no known length is refused too.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		jsonAnswer(w, 200, map[string]any{"size": 2, "encoding": "base64", "blob_id": "abc", "content": "aGk="})
	}))
	defer srv.Close()
	if _, err := (&Client{}).FetchFile(context.Background(), Target{Kind: GitLab, BaseURL: srv.URL, Repository: "acme/web"}, srcCommit, "a", capMiB); !errors.Is(err, FetchMismatch) {
		t.Errorf("short blob id: %v", err)
	}
}

// gitBlobID is git's own: `git hash-object` agrees, for SHA-1 and SHA-256.
func TestGitBlobID(t *testing.T) {
	for _, c := range []struct {
		content string
		digits  int
		want    string
	}{
		{"", 40, "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"},
		{"hello\n", 40, "ce013625030ba8dba906f756967f9e9ca394464a"},
		{"", 64, "473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813"},
		{"hello\n", 40 + 1, ""},
	} {
		if got := gitBlobID([]byte(c.content), c.digits); got != c.want {
			t.Errorf("gitBlobID(%q, %d) = %q, want %q", c.content, c.digits, got, c.want)
		}
	}
	if _, err := exec.LookPath("git"); err == nil {
		content := []byte("func f() {}\n\x00ü")
		cmd := exec.Command("git", "hash-object", "--stdin")
		cmd.Stdin = bytes.NewReader(content)
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		if got := gitBlobID(content, 40); got != strings.TrimSpace(string(out)) {
			t.Errorf("gitBlobID %s, git hash-object %s", got, out)
		}
	}
}

// Odd paths reach each host escaped as it expects: GitHub takes the path's
// elements escaped one by one (the slashes kept), GitLab the whole path as
// one URL-encoded parameter; each host reads back the path asked for.
func TestFetchFileEscapesPaths(t *testing.T) {
	paths := map[string][2]string{ // path: GitHub's escaped form, GitLab's
		"dir with space/file name.go": {"dir%20with%20space/file%20name.go", "dir%20with%20space%2Ffile%20name.go"},
		"a#b?c.go":                    {"a%23b%3Fc.go", "a%23b%3Fc.go"},
		"ünï/cödé.go":                 {"%C3%BCn%C3%AF/c%C3%B6d%C3%A9.go", "%C3%BCn%C3%AF%2Fc%C3%B6d%C3%A9.go"},
		"a/b/c/d/e.txt":               {"a/b/c/d/e.txt", "a%2Fb%2Fc%2Fd%2Fe.txt"},
		"100%.txt":                    {"100%25.txt", "100%25.txt"},
		"x;y,z&q=1+2@h:p.go":          {"x%3By%2Cz&q=1+2@h:p.go", "x%3By%2Cz&q=1+2@h:p.go"},
	}
	files := map[string][]byte{}
	for p := range paths {
		files[p] = []byte("// " + p + "\n")
	}
	for i, kind := range []string{GitHub, GitLab} {
		t.Run(kind, func(t *testing.T) {
			h := newSourceHost(t, kind, files)
			for p, esc := range paths {
				got, err := (&Client{}).FetchFile(context.Background(), h.target(), srcCommit, p, capMiB)
				if err != nil || !bytes.Equal(got, files[p]) {
					t.Errorf("%q: %q %v", p, got, err)
				}
				req := h.take()
				prefix := "GET /repos/acme/web/contents/"
				if kind == GitLab {
					prefix = "GET /api/v4/projects/acme%2Fweb/repository/files/"
				}
				if len(req) != 1 || !strings.HasPrefix(req[0], prefix+esc[i]+"?ref="+srcCommit+" ") {
					t.Errorf("%q: requests %v, want the path as %s", p, req, esc[i])
				}
			}
			// A ref is a query value, escaped as one.
			_, err := (&Client{}).FetchFile(context.Background(), h.target(), "feature/a&b=c#d", "a/b/c/d/e.txt", capMiB)
			if !errors.Is(err, FetchNotFound) {
				t.Errorf("unknown ref: %v", err)
			}
			if req := h.take(); len(req) != 1 || !strings.Contains(req[0], "?ref=feature%2Fa%26b%3Dc%23d [") {
				t.Errorf("ref escaping: %v", req)
			}
		})
	}
}

// A path that could leave the repository or the URL is not sent.
func TestFetchFileRefusesBadInput(t *testing.T) {
	h := newSourceHost(t, GitHub, nil)
	for _, c := range []struct {
		target        Target
		commit, path  string
		max           int64
		wantInMessage string
	}{
		{h.target(), srcCommit, "", capMiB, "path"},
		{h.target(), srcCommit, "../etc/passwd", capMiB, "path"},
		{h.target(), srcCommit, "a/../../b", capMiB, "path"},
		{h.target(), srcCommit, "./a", capMiB, "path"},
		{h.target(), srcCommit, "/abs", capMiB, "path"},
		{h.target(), srcCommit, "a//b", capMiB, "path"},
		{h.target(), srcCommit, "dir/", capMiB, "path"},
		{h.target(), srcCommit, "nul\x00.go", capMiB, "path"},
		{h.target(), srcCommit, "bad\xff.go", capMiB, "path"},
		{h.target(), "", "a.go", capMiB, "commit"},
		{h.target(), srcCommit, "a.go", 0, "cap"},
		{Target{Kind: "bitbucket", BaseURL: h.srv.URL}, srcCommit, "a.go", capMiB, "bitbucket"},
	} {
		_, err := (&Client{}).FetchFile(context.Background(), c.target, c.commit, c.path, c.max)
		if fe := fetchErr(t, err); fe.Reason != FetchFailed || !strings.Contains(err.Error(), c.wantInMessage) {
			t.Errorf("%q at %q: %v", c.path, c.commit, err)
		}
	}
	if got := h.take(); len(got) != 0 {
		t.Errorf("requests sent: %v", got)
	}
}

func TestFetchErrorMessages(t *testing.T) {
	for _, c := range []struct {
		e    FetchError
		want string
	}{
		{FetchError{Reason: FetchNotFound, Kind: GitHub, Path: "a.go", Commit: "abc"}, "fetch a.go at abc from GitHub: not found"},
		{FetchError{Reason: FetchRateLimited, Kind: GitLab, Path: "a.go", Commit: "abc", Reset: time.Unix(1893456000, 0)}, "fetch a.go at abc from GitLab: rate limited until 2030-01-01T00:00:00Z"},
		{FetchError{Reason: FetchTooLarge, Kind: GitHub, Path: "a.go", Commit: "abc", Size: 20, Max: 10}, "fetch a.go at abc from GitHub: too large (20 bytes, the cap is 10)"},
		{FetchError{Reason: FetchTooLarge, Kind: GitHub, Path: "a.go", Commit: "abc", Max: 10}, "fetch a.go at abc from GitHub: too large (over the cap of 10 bytes)"},
		{FetchError{Reason: FetchUnauthorized, Kind: GitLab, Path: "a.go", Commit: "abc", Err: errors.New("GET x: 401")}, "fetch a.go at abc from GitLab: the token is refused: GET x: 401"},
	} {
		if got := c.e.Error(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}
