package sqlstore

import (
	"context"
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plumbhq/plumb/codehost"
	"github.com/plumbhq/plumb/source"
)

const fCommit = "c0ffee0000000000000000000000000000000001"

// fetchHost is a code host holding the files of fCommit of acme/web, in
// the shapes GitHub's contents API
// (https://docs.github.com/en/rest/repos/contents: type "file", base64
// content, size, the blob's sha; 404 {"message":"Not Found"}) and GitLab's
// repository files API (https://docs.gitlab.com/api/repository_files/: the
// path one URL-encoded parameter; size, encoding "base64", content,
// blob_id; 404 {"message":"404 File Not Found"}) document. limited makes
// it answer GitHub's rate-limit refusal (403, X-RateLimit-Remaining: 0,
// X-RateLimit-Reset) until the Unix time it holds; delay slows answers.
type fetchHost struct {
	kind    string
	files   map[string]string
	limited atomic.Int64
	delay   time.Duration
	calls   atomic.Int64
	srv     *httptest.Server
}

func newFetchHost(t *testing.T, kind string, files map[string]string) *fetchHost {
	h := &fetchHost{kind: kind, files: files}
	h.srv = httptest.NewServer(http.HandlerFunc(h.serve))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *fetchHost) target() codehost.Target {
	return codehost.Target{Kind: h.kind, BaseURL: h.srv.URL, Repository: "acme/web", Token: "tok-secret"}
}

func fJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (h *fetchHost) serve(w http.ResponseWriter, r *http.Request) {
	h.calls.Add(1)
	time.Sleep(h.delay)
	if reset := h.limited.Load(); reset != 0 {
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset", strconv.FormatInt(reset, 10))
		fJSON(w, 403, map[string]string{"message": "API rate limit exceeded for user ID 1."})
		return
	}
	var name string
	var ok bool
	if h.kind == codehost.GitHub {
		name, ok = strings.CutPrefix(r.URL.Path, "/repos/acme/web/contents/")
	} else {
		var esc string
		esc, ok = strings.CutPrefix(r.URL.EscapedPath(), "/api/v4/projects/acme%2Fweb/repository/files/")
		name, _ = url.PathUnescape(esc)
	}
	content, found := h.files[name]
	if !ok || !found || r.URL.Query().Get("ref") != fCommit {
		fJSON(w, 404, map[string]string{"message": "Not Found"})
		return
	}
	sum := sha1.Sum([]byte(fmt.Sprintf("blob %d\x00%s", len(content), content)))
	sha := hex.EncodeToString(sum[:])
	enc := base64.StdEncoding.EncodeToString([]byte(content))
	if h.kind == codehost.GitHub {
		fJSON(w, 200, map[string]any{"type": "file", "encoding": "base64", "size": len(content), "name": name, "path": name, "content": enc, "sha": sha})
	} else {
		fJSON(w, 200, map[string]any{"file_name": name, "file_path": name, "size": len(content), "encoding": "base64", "content": enc, "blob_id": sha, "ref": fCommit, "commit_id": fCommit})
	}
}

func TestSourceFetchOnFirstView(t *testing.T) {
	for _, kind := range []string{codehost.GitHub, codehost.GitLab} {
		t.Run(kind, func(t *testing.T) {
			ctx := context.Background()
			now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
			db, p := sOpen(t, &now, Options{})
			host := newFetchHost(t, kind, map[string]string{"src/a.go": "package a\n", "src/b.go": "package b\n"})

			// No code host: absent, nothing asked.
			src, err := db.FileSourceOrFetch(ctx, p, fCommit, "src/a.go")
			dCheck(t, err)
			if src.State != string(source.StateAbsent) || src.FetchFailure != "" || host.calls.Load() != 0 {
				t.Fatalf("without a code host: %+v, %d calls", src, host.calls.Load())
			}
			dCheck(t, db.PutCodeHost(ctx, p, host.target(), now))

			// A branch name is never fetched: only a commit.
			if src, err = db.FileSourceOrFetch(ctx, p, "main", "src/a.go"); err != nil || src.State != string(source.StateAbsent) || host.calls.Load() != 0 {
				t.Fatalf("a branch: %+v %v, %d calls", src, err, host.calls.Load())
			}

			// Concurrent first views fetch once, and keep it with its origin.
			host.delay = 50 * time.Millisecond
			var wg sync.WaitGroup
			got := make([]string, 8)
			for i := range got {
				wg.Add(1)
				go func() {
					defer wg.Done()
					s, err := db.FileSourceOrFetch(ctx, p, fCommit, "src/a.go")
					if err != nil {
						got[i] = err.Error()
						return
					}
					got[i] = s.State + " " + s.FetchedFrom + " " + string(s.Content)
				}()
			}
			wg.Wait()
			host.delay = 0
			for _, g := range got {
				if g != "ok "+kind+" package a\n" {
					t.Fatalf("a concurrent view got %q", g)
				}
			}
			if n := host.calls.Load(); n != 1 {
				t.Fatalf("%d calls to the host for concurrent first views, want 1", n)
			}
			kept := sGet(t, db, p, fCommit, "src/a.go")
			if kept.Origin != kind || kept.FetchedFrom != kind || !kept.FetchedAt.Equal(now) || kept.BlobID == "" {
				t.Fatalf("kept: %+v", kept)
			}

			// The same content uploaded at another commit is the same blob
			// (dedup, the content's origin its first), the file an upload.
			_, err = db.PutSources(ctx, p, sShaB, source.OriginUpload, sFiles("a.go", "package a\n"))
			dCheck(t, err)
			if up := sGet(t, db, p, sShaB, "a.go"); up.Origin != kind || up.FetchedFrom != "" || up.BlobID != kept.BlobID || !up.FetchedAt.IsZero() {
				t.Fatalf("uploaded: %+v", up)
			}
			if n := sCount(t, db, "source_blobs"); n != 1 {
				t.Fatalf("%d blobs, want 1", n)
			}

			// A missing file: absent with the reason, not asked again for a
			// few minutes, asked again after.
			for range 3 {
				src, err = db.FileSourceOrFetch(ctx, p, fCommit, "src/gone.go")
				dCheck(t, err)
				if src.State != string(source.StateAbsent) || src.FetchFailure != string(codehost.FetchNotFound) || src.FetchHost != kind || !src.FetchRetry.Equal(now.Add(fetchRetryAfter)) {
					t.Fatalf("a missing file: %+v", src)
				}
			}
			if n := host.calls.Load(); n != 2 {
				t.Fatalf("%d calls after three views of a missing file, want 2", n)
			}
			now = now.Add(fetchRetryAfter)
			_, err = db.FileSourceOrFetch(ctx, p, fCommit, "src/gone.go")
			dCheck(t, err)
			if n := host.calls.Load(); n != 3 {
				t.Fatalf("%d calls after the retry delay, want 3", n)
			}

			// A rate limit stops every fetch of the project until its reset.
			reset := now.Add(20 * time.Minute)
			host.limited.Store(reset.Unix())
			src, err = db.FileSourceOrFetch(ctx, p, fCommit, "src/b.go")
			dCheck(t, err)
			if src.FetchFailure != string(codehost.FetchRateLimited) || !src.FetchRetry.Equal(reset) {
				t.Fatalf("rate limited: %+v", src)
			}
			calls := host.calls.Load()
			now = now.Add(10 * time.Minute)
			if src, _ = db.FileSourceOrFetch(ctx, p, fCommit, "src/other.go"); src.FetchFailure != string(codehost.FetchRateLimited) || host.calls.Load() != calls {
				t.Fatalf("another file while rate limited: %+v, %d calls (was %d)", src, host.calls.Load(), calls)
			}
			host.limited.Store(0)
			now = reset
			src, err = db.FileSourceOrFetch(ctx, p, fCommit, "src/b.go")
			dCheck(t, err)
			if src.State != string(source.StateOK) || string(src.Content) != "package b\n" {
				t.Fatalf("after the reset: %+v", src)
			}

			// A project that refuses sources never fetches.
			_, err = db.SetSourcesDisabled(ctx, p, true)
			dCheck(t, err)
			calls = host.calls.Load()
			src, err = db.FileSourceOrFetch(ctx, p, fCommit, "src/a.go")
			dCheck(t, err)
			if src.State != string(source.StateDisabled) || host.calls.Load() != calls {
				t.Fatalf("refused: %+v, %d calls (was %d)", src, host.calls.Load(), calls)
			}
		})
	}
}

func TestSourceFetchRefusedByServer(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	db, p := sOpen(t, &now, Options{RefuseSources: true})
	host := newFetchHost(t, codehost.GitHub, map[string]string{"a.go": "package a\n"})
	dCheck(t, db.PutCodeHost(ctx, p, host.target(), now))
	src, err := db.FileSourceOrFetch(ctx, p, fCommit, "a.go")
	dCheck(t, err)
	if src.State != string(source.StateDisabled) || host.calls.Load() != 0 {
		t.Fatalf("a server that refuses sources: %+v, %d calls", src, host.calls.Load())
	}
}

func TestSourceFetchTooLarge(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	db, p := sOpen(t, &now, Options{SourceLimits: source.Limits{MaxFileSize: 8}})
	host := newFetchHost(t, codehost.GitLab, map[string]string{"big.go": "package big\n"})
	dCheck(t, db.PutCodeHost(ctx, p, host.target(), now))
	src, err := db.FileSourceOrFetch(ctx, p, fCommit, "big.go")
	dCheck(t, err)
	if src.State != string(source.StateAbsent) || src.FetchFailure != string(codehost.FetchTooLarge) {
		t.Fatalf("too large: %+v", src)
	}
	if n := sCount(t, db, "source_blobs"); n != 0 {
		t.Fatalf("%d blobs kept of a file over the cap", n)
	}
}
