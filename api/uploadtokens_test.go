package api_test

// Upload tokens managed over HTTP by project admins (docs/ingest.md, "Upload
// tokens"): create (secret shown once), list, get, revoke, who may, and the
// order of checks.

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb/api/apiv1"
	"github.com/plumbhq/plumb/sqlstore"
)

const ingTokens = ingWeb + "/upload-tokens"

// createUploadToken creates a token of acme/web through the API and
// registers its secret with the harness as a valid token.
func (w *ingWorld) createUploadToken(t *testing.T, admin, name string) apiv1.CreatedUploadToken {
	t.Helper()
	r := w.do(t, http.MethodPost, ingTokens, admin, jsonBody, mustJSON(map[string]string{"name": name})).wantStatus(t, http.StatusCreated)
	var b apiv1.CreatedUploadToken
	mustUnmarshal(t, r.Body, &b)
	if want := w.URL + ingTokens + "/" + b.ID; r.Header.Get("Location") != want {
		t.Errorf("Location %q, want %q", r.Header.Get("Location"), want)
	}
	if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control %q, want no-store", cc)
	}
	w.mu.Lock()
	w.live[b.Token] = true
	w.mu.Unlock()
	return b
}

func TestUploadTokenLifecycle(t *testing.T) {
	w := newIngWorld(t)
	created := w.Clock.Now().UTC().Truncate(time.Second)
	b := w.createUploadToken(t, w.Carol, "github-actions")
	if !strings.HasPrefix(b.Token, sqlstore.UploadTokenPrefix) || len(b.Token) < 40 {
		t.Fatalf("secret %q", b.Token)
	}
	want := fmt.Sprintf(`{"id":%q,"name":"github-actions","createdBy":"carol","createdAt":%q,"lastUsedAt":null,"revokedAt":null}`, b.ID, tsf(created))
	w.do(t, http.MethodGet, ingTokens+"/"+b.ID, w.Carol, nil, "").wantJSON(t, http.StatusOK, want)
	// Only the hash is kept: the secret is in no later answer.
	list := w.do(t, http.MethodGet, ingTokens, w.Dave, nil, "").wantStatus(t, http.StatusOK)
	if strings.Contains(string(list.Body), b.Token) || strings.Contains(string(list.Body), sqlstore.HashToken(b.Token)) {
		t.Errorf("the listing shows the secret or its hash: %s", list.Body)
	}

	// The new token uploads to its project, which sets lastUsedAt.
	w.Clock.Advance(90 * time.Second)
	used := w.Clock.Now().UTC().Truncate(time.Second)
	w.postCoverage(t, b.Token, ingQuery("commitSha", ingSha, "branch", "main"), nil, ingLCOV).wantStatus(t, http.StatusCreated)
	w.do(t, http.MethodGet, ingTokens+"/"+b.ID, w.Carol, nil, "").
		wantJSON(t, http.StatusOK, strings.Replace(want, `"lastUsedAt":null`, fmt.Sprintf(`"lastUsedAt":%q`, tsf(used)), 1))

	// Revoked: at once 401; listed with revokedAt; revoking again is a no-op.
	w.Clock.Advance(time.Minute)
	revoked := w.Clock.Now().UTC().Truncate(time.Second)
	r := w.do(t, http.MethodDelete, ingTokens+"/"+b.ID, w.Carol, nil, "").wantStatus(t, http.StatusNoContent)
	if len(r.Body) != 0 {
		t.Errorf("204 with a body: %s", r.Body)
	}
	w.mu.Lock()
	delete(w.live, b.Token)
	w.mu.Unlock()
	w.postCoverage(t, b.Token, ingQuery("commitSha", ingSha), nil, ingLCOV).wantError(t, http.StatusUnauthorized, "revoked")
	w.Clock.Advance(time.Minute)
	w.do(t, http.MethodDelete, ingTokens+"/"+b.ID, w.Dave, nil, "").wantStatus(t, http.StatusNoContent)
	final := strings.Replace(want, `"lastUsedAt":null`, fmt.Sprintf(`"lastUsedAt":%q`, tsf(used)), 1)
	final = strings.Replace(final, `"revokedAt":null`, fmt.Sprintf(`"revokedAt":%q`, tsf(revoked)), 1)
	w.do(t, http.MethodGet, ingTokens+"/"+b.ID, w.Carol, nil, "").wantJSON(t, http.StatusOK, final)
	w.do(t, http.MethodPost, ingWeb+"/builds", b.Token, jsonBody, `{}`).wantError(t, http.StatusUnauthorized, "revoked")
}

func TestUploadTokenListing(t *testing.T) {
	w := newIngWorld(t) // acme/web already has one token, made by the harness
	var ids []string
	ids = append(ids, w.UploadToken.ID)
	for i := range 4 {
		w.Clock.Advance(time.Second)
		ids = append(ids, w.createUploadToken(t, w.Carol, fmt.Sprintf("ci-%d", i)).ID)
	}
	// Another project's tokens are not listed.
	_, _ = ingUploadToken(t, w.testServer, "acme/api", false)

	all := dataOf(t, w.do(t, http.MethodGet, ingTokens, w.Carol, nil, "").wantStatus(t, http.StatusOK))
	if len(all) != len(ids) {
		t.Fatalf("%d tokens listed, want %d", len(all), len(ids))
	}
	for i, v := range all {
		if id := v.(map[string]any)["id"]; id != ids[i] {
			t.Errorf("row %d: id %v, want %s (oldest first)", i, id, ids[i])
		}
		if _, ok := v.(map[string]any)["token"]; ok {
			t.Errorf("row %d lists a secret", i)
		}
	}
	r := w.do(t, http.MethodGet, ingTokens+"?page[limit]=2&page[offset]=1", w.Carol, nil, "").wantStatus(t, http.StatusOK)
	page := dataOf(t, r)
	if len(page) != 2 || page[0].(map[string]any)["id"] != ids[1] || page[1].(map[string]any)["id"] != ids[2] {
		t.Errorf("page 2 of 2 from offset 1: %v", page)
	}
	links := r.links(t)
	if !strings.Contains(links["next"], "page%5Boffset%5D=3") || !strings.Contains(links["prev"], "page%5Boffset%5D=0") {
		t.Errorf("links %v", links)
	}
	last := w.do(t, http.MethodGet, ingTokens+"?page[offset]=4", w.Carol, nil, "").wantStatus(t, http.StatusOK)
	assertJSON(t, []byte(mustJSON(last.json(t).(map[string]any)["meta"])), `{"hasMore":false}`)
	w.do(t, http.MethodGet, ingTokens+"?page[limit]=0", w.Carol, nil, "").wantError(t, http.StatusBadRequest, "page[limit]")
}

func TestUploadTokenAccess(t *testing.T) {
	w := newIngWorld(t)
	other, _ := ingUploadToken(t, w.testServer, "acme/api", false)
	body := `{"name":"x"}`
	for _, tc := range []struct {
		name, token string
		status      int
		detail      string
	}{
		{"member, not project admin", w.Alice, http.StatusForbidden, `Managing the upload tokens of project "web" needs the project admin role`},
		{"not a member", w.Bob, http.StatusNotFound, "was not found"},
		{"upload token of the project", w.Upload, http.StatusForbidden, "cannot manage upload tokens"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w.do(t, http.MethodGet, ingTokens, tc.token, nil, "").wantError(t, tc.status, tc.detail)
			w.do(t, http.MethodPost, ingTokens, tc.token, jsonBody, body).wantError(t, tc.status, tc.detail)
			w.do(t, http.MethodGet, ingTokens+"/"+w.UploadToken.ID, tc.token, nil, "").wantError(t, tc.status, tc.detail)
			w.do(t, http.MethodDelete, ingTokens+"/"+w.UploadToken.ID, tc.token, nil, "").wantError(t, tc.status, tc.detail)
		})
	}
	// Permission comes before the body: an upload token with a bad body is 403.
	w.do(t, http.MethodPost, ingTokens, w.Upload, jsonBody, `{"name":""}`).wantStatus(t, http.StatusForbidden)
	// An upload token on another project: 404, as for its uploads.
	w.do(t, http.MethodGet, "/ingest/gh/acme/projects/api/upload-tokens", w.Upload, nil, "").wantError(t, http.StatusNotFound, "was not found")
	// The workspace admin manages every project's tokens; a token of another
	// project is not found through this one.
	w.do(t, http.MethodGet, "/ingest/gh/acme/projects/api/upload-tokens/"+other.ID, w.Dave, nil, "").wantStatus(t, http.StatusOK)
	for _, m := range []string{http.MethodGet, http.MethodDelete} {
		w.do(t, m, ingTokens+"/"+other.ID, w.Dave, nil, "").wantError(t, http.StatusNotFound, "Upload token")
		w.do(t, m, ingTokens+"/nope", w.Dave, nil, "").wantError(t, http.StatusNotFound, "Upload token")
		w.do(t, m, ingTokens+"/"+strings.ToUpper(other.ID[:8])+other.ID[8:], w.Carol, nil, "").wantStatus(t, http.StatusNotFound)
	}
	list, err := w.DB.ListUploadTokens(context.Background(), "acme/api")
	check(t, err)
	if len(list) != 1 || list[0].RevokedAt != nil {
		t.Errorf("acme/api tokens after refused revocations: %+v", list)
	}
	// No token at all.
	w.do(t, http.MethodGet, ingTokens, "", nil, "").wantError(t, http.StatusUnauthorized)
}

func TestUploadTokenCreateValidation(t *testing.T) {
	w := newIngWorld(t)
	for _, tc := range []struct{ body, detail string }{
		{`{}`, "Field name is required"},
		{`{"name":""}`, "must not be empty"},
		{`{"name":"   "}`, "must not be blank"},
		{`{"name":"a\u0007b"}`, "control characters"},
		{`{"name":12}`, "must be a string"},
		{`{"name":"` + strings.Repeat("n", 101) + `"}`, "at most 100"},
		{`[1]`, "JSON object"},
		{`{"name":"a"} x`, "JSON"},
	} {
		w.do(t, http.MethodPost, ingTokens, w.Carol, jsonBody, tc.body).wantError(t, http.StatusBadRequest, tc.detail)
	}
	w.do(t, http.MethodPost, ingTokens, w.Carol, nil, `{"name":"a"}`).wantStatus(t, http.StatusUnsupportedMediaType)
	w.do(t, http.MethodPost, ingTokens, w.Carol, hdr("Content-Type", "application/json", "Accept", "text/csv"), `{"name":"a"}`).
		wantStatus(t, http.StatusNotAcceptable)
	// Nothing was created by the refused requests.
	list, err := w.DB.ListUploadTokens(context.Background(), "acme/web")
	check(t, err)
	if len(list) != 1 {
		t.Errorf("%d tokens after refused creates, want the harness's 1", len(list))
	}
	// A name of 100 characters, stored as sent.
	name := " " + strings.Repeat("é", 98) + " "
	if b := w.createUploadToken(t, w.Carol, name); b.Name != name {
		t.Errorf("name %q stored as %q", name, b.Name)
	}
}

// The router's 404 and 405 recognise upload tokens: their
// answers carry the token's rate-limit headers (checked by the harness for
// every live token) and count against its quota.
func TestIngestRouterErrorsWithUploadToken(t *testing.T) {
	w := newIngWorld(t)
	r := w.get(t, ingWeb+"/coverage", w.Upload).wantError(t, http.StatusMethodNotAllowed, "POST")
	if st := headerStatus(t, r); st.Used != 1 {
		t.Errorf("405: used %d, want 1", st.Used)
	}
	r = w.do(t, http.MethodPost, ingWeb+"/nope", w.Upload, nil, "x").wantStatus(t, http.StatusNotFound)
	if st := headerStatus(t, r); st.Used != 2 {
		t.Errorf("404: used %d, want 2", st.Used)
	}
	w.do(t, http.MethodPut, ingTokens, w.Upload, jsonBody, "{}").wantStatus(t, http.StatusMethodNotAllowed)
	// Elsewhere too: the router answers before a route decides which
	// tokens it takes.
	r = w.get(t, "/nope", w.Upload).wantStatus(t, http.StatusNotFound)
	if st := headerStatus(t, r); st.Used != 4 {
		t.Errorf("router 404 outside /ingest/: used %d, want 4", st.Used)
	}
}
