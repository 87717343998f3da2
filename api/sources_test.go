package api_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/api/apiv1"
	"github.com/plumbhq/plumb/codehost"
	"github.com/plumbhq/plumb/source"
)

// TestFileSource: GET …/files/source answers a kept file's text at the
// commit a reference resolves to, under every v1 endpoint's rules
// (authentication, visibility, rate limit), and a 404 saying why when no
// text is kept; bad paths are 400s.
func TestFileSource(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	const sha = "1111111111111111111111111111111111111111"
	w.snapshot(t, plumb.SnapshotInput{ProjectID: w.Web.ID, Branch: "main", CommitSHA: sha, AnalyzedAt: time.Now().Add(-time.Hour),
		Files: []plumb.FileFigures{{Path: "src/app.go", Lines: 2, LOC: 2}, {Path: "logo.png", Lines: 1}}})
	text := "package src\n\nfunc main() {}\n"
	binary := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00"
	_, err := w.DB.PutSources(ctx, w.Web.ID, sha, source.OriginUpload, func(put func(string, io.Reader) error) error {
		if err := put("src/app.go", strings.NewReader(text)); err != nil {
			return err
		}
		return put("logo.png", strings.NewReader(binary))
	})
	check(t, err)
	base := "/gh/acme/projects/web/files/source"

	r := w.get(t, base+"?reference=main&path=src/app.go", w.Alice).wantStatus(t, http.StatusOK)
	if string(r.Body) != text {
		t.Errorf("body %q, want %q", r.Body, text)
	}
	if ct := r.Header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	if r.Header.Get("X-RateLimit-Remaining") == "" {
		t.Error("no rate-limit headers")
	}
	if et := r.Header.Get("ETag"); et != `"`+source.BlobID([]byte(text))+`"` {
		t.Errorf("ETag %q, want the blob id", et)
	}
	// A SHA prefix and refs/heads/ name the same commit.
	for _, ref := range []string{sha[:7], "refs/heads/main", sha} {
		if b := w.get(t, base+"?reference="+ref+"&path=src/app.go", w.Alice).wantStatus(t, http.StatusOK).Body; string(b) != text {
			t.Errorf("reference %s: %q", ref, b)
		}
	}

	// Why there is no text.
	w.get(t, base+"?reference=main&path=logo.png", w.Alice).wantError(t, http.StatusNotFound, "binary")
	w.get(t, base+"?reference=main&path=src/other.go", w.Alice).wantError(t, http.StatusNotFound, "not uploaded")
	w.get(t, base+"?reference=nope&path=src/app.go", w.Alice).wantError(t, http.StatusNotFound)
	_, err = w.DB.SetSourcesDisabled(ctx, w.Web.ID, true)
	check(t, err)
	w.get(t, base+"?reference=main&path=src/app.go", w.Alice).wantError(t, http.StatusNotFound, "turned off")
	_, err = w.DB.SetSourcesDisabled(ctx, w.Web.ID, false)
	check(t, err)

	// Bad input.
	for _, q := range []string{"?reference=main", "?path=src/app.go", "?reference=main&path=../etc/passwd",
		"?reference=main&path=/src/app.go", "?reference=main&path=src/%00app.go", "?reference=main&path=src/%ff.go"} {
		w.get(t, base+q, w.Alice).wantError(t, http.StatusBadRequest)
	}
	// Only JSON errors; a client that takes only JSON is told no.
	w.get(t, base+"?reference=main&path=src/app.go", w.Alice, map[string]string{"Accept": "application/json"}).wantStatus(t, http.StatusNotAcceptable)

	// Who may not see the project gets the plain 404, and no token a 401.
	r = w.get(t, base+"?reference=main&path=src/app.go", w.Bob).wantStatus(t, http.StatusNotFound)
	if strings.Contains(string(r.Body), "app.go") || strings.Contains(string(r.Body), "package") {
		t.Errorf("a stranger learns of the file: %s", r.Body)
	}
	w.get(t, base+"?reference=main&path=src/app.go", "").wantStatus(t, http.StatusUnauthorized)
}

// tarOf builds a tar archive of name, content pairs (a name ending in "/"
// is a directory, "->target" after a name a symbolic link).
func tarOf(t *testing.T, entries ...string) string {
	t.Helper()
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for i := 0; i+1 < len(entries); i += 2 {
		name, content := entries[i], entries[i+1]
		h := &tar.Header{Name: name, Mode: 0o644, Size: int64(len(content)), Typeflag: tar.TypeReg}
		switch {
		case strings.HasSuffix(name, "/"):
			h.Typeflag, h.Size = tar.TypeDir, 0
		case strings.HasPrefix(content, "->"):
			h.Typeflag, h.Linkname, h.Size = tar.TypeSymlink, content[2:], 0
		}
		check(t, tw.WriteHeader(h))
		if h.Typeflag == tar.TypeReg {
			_, err := tw.Write([]byte(content))
			check(t, err)
		}
	}
	check(t, tw.Close())
	return b.String()
}

// TestUploadSources: POST …/sources keeps a tar archive's regular files as a
// commit's sources, once per content; bad archives, bad paths and refused
// sources store nothing; only who may upload to the project may.
func TestUploadSources(t *testing.T) {
	w := newIngWorld(t)
	ctx := context.Background()
	const sha = "2222222222222222222222222222222222222222"
	w.snapshot(t, plumb.SnapshotInput{ProjectID: w.Web.ID, Branch: "main", CommitSHA: sha, AnalyzedAt: time.Now().Add(-time.Hour),
		Files: []plumb.FileFigures{{Path: "a.go", Lines: 1, LOC: 1}}})
	post := func(token, commit, body string) *resp {
		t.Helper()
		return w.do(t, http.MethodPost, "/ingest/gh/acme/projects/web/sources?"+ingQuery("commitSha", commit), token,
			map[string]string{"Content-Type": "application/x-tar"}, body)
	}
	archive := tarOf(t, "./", "", "./a.go", "package a\n", "lib/", "", "lib/b.go", "package a\n", "lib/link.go", "->b.go", "logo.png", "\x89PNG\x00\x00\x00")
	var got apiv1.SourcesUploaded
	r := post(w.Upload, sha, archive).wantStatus(t, http.StatusCreated)
	check(t, json.Unmarshal(r.Body, &got))
	want := apiv1.SourcesUploaded{CommitSHA: sha, Files: 3, NewBlobs: 1, ReusedBlobs: 1, Binary: 1}
	if got != want {
		t.Errorf("answer %+v, want %+v", got, want)
	}
	src, err := w.DB.FileSource(ctx, w.Web.ID, sha, "lib/b.go")
	check(t, err)
	if string(src.Content) != "package a\n" {
		t.Errorf("kept %q", src.Content)
	}
	if src, _ := w.DB.FileSource(ctx, w.Web.ID, sha, "lib/link.go"); src.State != string(source.StateAbsent) {
		t.Errorf("a link was kept: %+v", src)
	}
	// The same archive again (gzip-compressed, by a project admin) reuses
	// every content.
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	_, _ = zw.Write([]byte(archive))
	check(t, zw.Close())
	r = post(w.Carol, sha, z.String()).wantStatus(t, http.StatusCreated)
	check(t, json.Unmarshal(r.Body, &got))
	if got.NewBlobs != 0 || got.ReusedBlobs != 2 {
		t.Errorf("second upload %+v, want every content reused", got)
	}

	// Bad input stores nothing.
	const other = "3333333333333333333333333333333333333333"
	for name, body := range map[string]string{
		"not tar":       "just some text that is not an archive, long enough to fill a header block? " + strings.Repeat("x", 600),
		"no file":       tarOf(t, "dir/", ""),
		"dot-dot":       tarOf(t, "ok.go", "package ok\n", "../etc/passwd", "root"),
		"absolute":      tarOf(t, "/etc/passwd", "root"),
		"invalid UTF-8": tarOf(t, "ok.go", "package ok\n", "bad\xff.go", "x"),
	} {
		post(w.Upload, other, body).wantError(t, http.StatusBadRequest)
		if src, _ := w.DB.FileSource(ctx, w.Web.ID, other, "ok.go"); src.State != string(source.StateAbsent) {
			t.Errorf("%s: something was kept: %+v", name, src)
		}
	}
	post(w.Upload, "not-a-sha", archive).wantError(t, http.StatusBadRequest, "commitSha")
	_, err = w.DB.SetSourcesDisabled(ctx, w.Web.ID, true)
	check(t, err)
	post(w.Upload, other, archive).wantError(t, http.StatusForbidden, "keeps no sources")
	_, err = w.DB.SetSourcesDisabled(ctx, w.Web.ID, false)
	check(t, err)

	// Who may not upload: a plain member (403), a stranger (404).
	post(w.Alice, other, archive).wantStatus(t, http.StatusForbidden)
	post(w.Bob, other, archive).wantStatus(t, http.StatusNotFound)
	if src, _ := w.DB.FileSource(ctx, w.Web.ID, other, "a.go"); src.State != string(source.StateAbsent) {
		t.Errorf("a refused upload kept something: %+v", src)
	}
}

// TestFileSourceFetched: GET …/files/source of a file whose source was not
// uploaded fetches it from the project's code host, here GitLab's
// repository files API (https://docs.gitlab.com/api/repository_files/: the
// path one URL-encoded parameter; size, encoding "base64", content,
// blob_id; 404 {"message":"404 File Not Found"}), once; a file the host
// does not have is a 404 saying why, not asked again at once.
func TestFileSourceFetched(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()
	const sha = "2222222222222222222222222222222222222222"
	w.snapshot(t, plumb.SnapshotInput{ProjectID: w.Web.ID, Branch: "main", CommitSHA: sha, AnalyzedAt: time.Now().Add(-time.Hour),
		Files: []plumb.FileFigures{{Path: "src/app.go", Lines: 2, LOC: 2}}})
	text := "package src\n\nfunc main() {}\n"
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		rw.Header().Set("Content-Type", "application/json")
		esc, _ := strings.CutPrefix(r.URL.EscapedPath(), "/api/v4/projects/acme%2Fweb/repository/files/")
		name, _ := url.PathUnescape(esc)
		if name != "src/app.go" || r.URL.Query().Get("ref") != sha {
			rw.WriteHeader(404)
			json.NewEncoder(rw).Encode(map[string]string{"message": "404 File Not Found"})
			return
		}
		sum := sha1.Sum([]byte(fmt.Sprintf("blob %d\x00%s", len(text), text)))
		json.NewEncoder(rw).Encode(map[string]any{"file_name": "app.go", "file_path": name, "size": len(text), "encoding": "base64",
			"content": base64.StdEncoding.EncodeToString([]byte(text)), "blob_id": hex.EncodeToString(sum[:]), "ref": sha, "commit_id": sha})
	}))
	t.Cleanup(srv.Close)
	check(t, w.DB.PutCodeHost(ctx, w.Web.ID, codehost.Target{Kind: codehost.GitLab, BaseURL: srv.URL, Repository: "acme/web", Token: "tok-secret"}, time.Now()))
	base := "/gh/acme/projects/web/files/source"
	for range 2 {
		r := w.get(t, base+"?reference=main&path=src/app.go", w.Alice).wantStatus(t, http.StatusOK)
		if string(r.Body) != text {
			t.Errorf("body %q, want %q", r.Body, text)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("%d calls to GitLab for two reads, want 1", n)
	}
	src, err := w.DB.FileSource(ctx, w.Web.ID, sha, "src/app.go")
	check(t, err)
	if src.FetchedFrom != codehost.GitLab || src.Origin != codehost.GitLab {
		t.Errorf("kept: %+v", src)
	}
	for range 2 {
		r := w.get(t, base+"?reference=main&path=src/gone.go", w.Alice)
		r.wantError(t, http.StatusNotFound, "fetching it from the project's code host (gitlab) failed: not_found")
		if strings.Contains(string(r.Body), "tok-secret") {
			t.Error("the error body shows the token")
		}
	}
	if n := calls.Load(); n != 2 {
		t.Errorf("%d calls to GitLab after two reads of a missing file, want 2", n)
	}
	// Whoever cannot see the project gets the 404 of every endpoint, and
	// nothing is fetched for them.
	w.get(t, base+"?reference=main&path=src/other.go", w.Bob).wantStatus(t, http.StatusNotFound)
	if n := calls.Load(); n != 2 {
		t.Errorf("%d calls to GitLab after an outsider's read, want 2", n)
	}
}
