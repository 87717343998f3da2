package api_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
)

func TestListWorkspaces(t *testing.T) {
	w := newWorld(t)
	w.Clock.Advance(time.Hour)
	zeta := w.workspace(t, plumb.WorkspaceInput{Key: "Zeta", AvatarURL: "https://cdn.example.com/z.png", ProviderURL: "https://git.example.com/Zeta"})
	initech := w.workspace(t, plumb.WorkspaceInput{Key: "Initech"})
	w.member(t, "Zeta", "alice", plumb.RoleAdmin)
	w.member(t, "initech", "alice", plumb.RoleMember)
	w.Clock.Advance(time.Hour)
	w.setApplications(t, "initech", true) // updates updatedAt

	acme := map[string]any{"id": w.Acme.ID, "key": "acme", "avatarUrl": "https://github.com/acme.png",
		"providerUrl": "https://github.com/acme", "createdAt": "2026-03-02T10:00:00Z", "updatedAt": "2026-03-02T10:00:00Z"}
	ini := map[string]any{"id": initech.ID, "key": "Initech", "avatarUrl": "https://github.com/Initech.png",
		"providerUrl": "https://github.com/Initech", "createdAt": "2026-03-02T11:00:00Z", "updatedAt": "2026-03-02T12:00:00Z"}
	z := map[string]any{"id": zeta.ID, "key": "Zeta", "avatarUrl": "https://cdn.example.com/z.png",
		"providerUrl": "https://git.example.com/Zeta", "createdAt": "2026-03-02T11:00:00Z", "updatedAt": "2026-03-02T11:00:00Z"}

	t.Run("JSON, ordered by key ignoring case, only the user's", func(t *testing.T) {
		w.get(t, "/workspaces", w.Alice).wantJSON(t, http.StatusOK, mustJSON(map[string]any{
			"data": []any{acme, ini, z}, "meta": map[string]any{"hasMore": false}}))
	})
	t.Run("another user sees only theirs", func(t *testing.T) {
		w.get(t, "/workspaces", w.Bob).wantJSON(t, http.StatusOK, mustJSON(map[string]any{
			"data": []any{map[string]any{"id": w.Globex.ID, "key": "globex", "avatarUrl": "https://github.com/globex.png",
				"providerUrl": "https://github.com/globex", "createdAt": "2026-03-02T10:00:00Z", "updatedAt": "2026-03-02T10:00:00Z"}},
			"meta": map[string]any{"hasMore": false}}))
	})
	t.Run("a user in no workspace gets an empty list", func(t *testing.T) {
		w.user(t, "dave")
		w.get(t, "/workspaces", w.token(t, "dave")).wantJSON(t, http.StatusOK, `{"data":[],"meta":{"hasMore":false}}`)
	})
	t.Run("a page", func(t *testing.T) {
		w.get(t, "/workspaces?page[limit]=1&page[offset]=1", w.Alice).wantJSON(t, http.StatusOK, mustJSON(map[string]any{
			"data": []any{ini}, "meta": map[string]any{"hasMore": true}}))
	})
	t.Run("NDJSON rows are the data objects", func(t *testing.T) {
		r := w.get(t, "/workspaces", w.Alice, hdr("Accept", "application/x-ndjson")).wantStatus(t, http.StatusOK)
		if ct := r.Header.Get("Content-Type"); ct != "application/x-ndjson" {
			t.Errorf("Content-Type %q", ct)
		}
		assertJSON(t, []byte(mustJSON(ndjsonLines(t, r.Body))), mustJSON([]any{acme, ini, z}))
	})
	t.Run("CSV", func(t *testing.T) {
		r := w.get(t, "/workspaces", w.Alice, hdr("Accept", "text/csv")).wantStatus(t, http.StatusOK)
		if ct := r.Header.Get("Content-Type"); ct != "text/csv; charset=utf-8" {
			t.Errorf("Content-Type %q", ct)
		}
		want := "id,key,avatarUrl,providerUrl,createdAt,updatedAt\r\n" +
			w.Acme.ID + ",acme,https://github.com/acme.png,https://github.com/acme,2026-03-02T10:00:00Z,2026-03-02T10:00:00Z\r\n" +
			initech.ID + ",Initech,https://github.com/Initech.png,https://github.com/Initech,2026-03-02T11:00:00Z,2026-03-02T12:00:00Z\r\n" +
			zeta.ID + ",Zeta,https://cdn.example.com/z.png,https://git.example.com/Zeta,2026-03-02T11:00:00Z,2026-03-02T11:00:00Z\r\n"
		if string(r.Body) != want {
			t.Errorf("CSV body\n%q\nwant\n%q", r.Body, want)
		}
	})
	t.Run("empty CSV has its header", func(t *testing.T) {
		r := w.get(t, "/workspaces", w.token(t, "dave"), hdr("Accept", "text/csv")).wantStatus(t, http.StatusOK)
		if string(r.Body) != "id,key,avatarUrl,providerUrl,createdAt,updatedAt\r\n" {
			t.Errorf("CSV body %q", r.Body)
		}
		r = w.get(t, "/workspaces", w.token(t, "dave"), hdr("Accept", "application/x-ndjson")).wantStatus(t, http.StatusOK)
		if len(r.Body) != 0 {
			t.Errorf("NDJSON body %q, want empty", r.Body)
		}
	})
}
