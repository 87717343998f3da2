package api_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
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
