package api_test

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
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/codehost"
)

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
