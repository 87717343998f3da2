package codehost

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// fakeGitHub follows GitHub's documented shapes for the App endpoints and
// the Checks API: it verifies the App's JWT with the public key, hands out
// installation tokens and takes check runs, refusing more than 50
// annotations in a request; limited makes it answer the next requests with
// a rate-limit refusal.
type fakeGitHub struct {
	t       *testing.T
	pub     *rsa.PublicKey
	appID   int64
	now     func() time.Time
	mu      sync.Mutex
	tokens  int                // installation tokens issued
	lookups int                // installation look-ups
	patches []int              // annotations per PATCH of a check run
	runs    map[int64][]string // statuses of each run, in order
	created int64
	limited []http.Header // answers to give before serving, 429 or 403
	status  []int
}

func newFakeGitHub(t *testing.T, pub *rsa.PublicKey, appID int64, now func() time.Time) (*httptest.Server, *fakeGitHub) {
	f := &fakeGitHub{t: t, pub: pub, appID: appID, now: now, runs: map[int64][]string{}}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return srv, f
}

func (f *fakeGitHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.limited) > 0 {
		h, st := f.limited[0], f.status[0]
		f.limited, f.status = f.limited[1:], f.status[1:]
		for k, v := range h {
			w.Header()[k] = v
		}
		w.WriteHeader(st)
		io.WriteString(w, `{"message":"API rate limit exceeded"}`)
		return
	}
	auth := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/installation"):
		f.verifyJWT(w, auth)
		f.lookups++
		io.WriteString(w, `{"id": 4242, "app_id": `+strconv.FormatInt(f.appID, 10)+`}`)
	case r.Method == http.MethodPost && r.URL.Path == "/app/installations/4242/access_tokens":
		f.verifyJWT(w, auth)
		f.tokens++
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"token":"ghs_%d","expires_at":%q}`, f.tokens, f.now().Add(time.Hour).UTC().Format(time.RFC3339))
	case r.Method == http.MethodPost && r.URL.Path == "/repos/acme/web/check-runs":
		if !strings.HasPrefix(auth, "ghs_") {
			http.Error(w, `{"message":"checks need an installation token"}`, http.StatusForbidden)
			return
		}
		var in struct {
			Name, HeadSHA, Status string
		}
		var raw map[string]any
		json.NewDecoder(r.Body).Decode(&raw)
		in.Name, _ = raw["name"].(string)
		in.HeadSHA, _ = raw["head_sha"].(string)
		in.Status, _ = raw["status"].(string)
		if in.Name != CheckName || in.HeadSHA == "" || in.Status != "in_progress" {
			http.Error(w, `{"message":"Invalid request"}`, http.StatusUnprocessableEntity)
			return
		}
		f.created++
		f.runs[f.created] = []string{"in_progress"}
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"id":%d}`, f.created)
	case r.Method == http.MethodPatch && strings.HasPrefix(r.URL.Path, "/repos/acme/web/check-runs/"):
		id, _ := strconv.ParseInt(strings.TrimPrefix(r.URL.Path, "/repos/acme/web/check-runs/"), 10, 64)
		if _, ok := f.runs[id]; !ok {
			http.NotFound(w, r)
			return
		}
		var in struct {
			Status     string `json:"status"`
			Conclusion string `json:"conclusion"`
			Output     *struct {
				Title       string       `json:"title"`
				Summary     string       `json:"summary"`
				Annotations []Annotation `json:"annotations"`
			} `json:"output"`
		}
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Output == nil || in.Output.Title == "" || in.Output.Summary == "" {
			http.Error(w, `{"message":"Invalid request: output needs title and summary"}`, http.StatusUnprocessableEntity)
			return
		}
		if len(in.Output.Annotations) > AnnotationsPerRequest {
			http.Error(w, `{"message":"Only 50 annotations are allowed per request"}`, http.StatusUnprocessableEntity)
			return
		}
		for _, a := range in.Output.Annotations {
			if a.Path == "" || a.StartLine < 1 || a.EndLine < a.StartLine || levelOrder[a.Level] == 0 && a.Level != AnnotationFailure || a.Message == "" {
				http.Error(w, `{"message":"Invalid annotation"}`, http.StatusUnprocessableEntity)
				return
			}
		}
		if in.Status == "completed" && in.Conclusion == "" {
			http.Error(w, `{"message":"conclusion is required when completed"}`, http.StatusUnprocessableEntity)
			return
		}
		f.patches = append(f.patches, len(in.Output.Annotations))
		if in.Status != "" {
			f.runs[id] = append(f.runs[id], in.Status+":"+in.Conclusion)
		}
		fmt.Fprintf(w, `{"id":%d}`, id)
	default:
		http.NotFound(w, r)
	}
}

// verifyJWT checks the App's token as GitHub does: RS256 with the App's
// key, issued by the App id, issued no later than now, expiring within ten
// minutes.
func (f *fakeGitHub) verifyJWT(w http.ResponseWriter, raw string) {
	var claims jwt.RegisteredClaims
	_, err := jwt.ParseWithClaims(raw, &claims, func(tok *jwt.Token) (any, error) { return f.pub, nil },
		jwt.WithValidMethods([]string{"RS256"}), jwt.WithTimeFunc(f.now), jwt.WithIssuedAt())
	if err != nil {
		f.t.Errorf("JWT refused: %v", err)
		return
	}
	if claims.Issuer != strconv.FormatInt(f.appID, 10) {
		f.t.Errorf("JWT issuer %q, want the App id %d", claims.Issuer, f.appID)
	}
	if life := claims.ExpiresAt.Sub(f.now()); life > 10*time.Minute || life <= 0 {
		f.t.Errorf("JWT expires in %s, GitHub wants at most 10 minutes", life)
	}
	if skew := f.now().Sub(claims.IssuedAt.Time); skew < 30*time.Second || skew > 90*time.Second {
		f.t.Errorf("JWT issued %s ago, want about 60 s in the past", skew)
	}
}

func testKey(t *testing.T) (*rsa.PrivateKey, []byte) {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return k, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
}

func TestAppJWTInstallationAndCachedToken(t *testing.T) {
	key, pemBytes := testKey(t)
	parsed, err := ParsePrivateKey(pemBytes)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParsePrivateKey([]byte("not a key")); err == nil {
		t.Error("a body that is no PEM key was accepted")
	}
	now := time.Date(2026, 11, 29, 1, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	srv, f := newFakeGitHub(t, &key.PublicKey, 77, clock)
	app := &App{ID: 77, Key: parsed, BaseURL: srv.URL, Now: clock}
	ctx := context.Background()

	tg, err := app.Target(ctx, "acme/web", 0)
	if err != nil {
		t.Fatal(err)
	}
	if tg.Token != "ghs_1" || tg.Repository != "acme/web" || tg.Kind != GitHub {
		t.Fatalf("target = %+v, want installation token ghs_1 for acme/web", tg)
	}
	// Again within the token's life: neither look-up nor exchange.
	now = now.Add(50 * time.Minute)
	if tg, err = app.Target(ctx, "ACME/Web", 0); err != nil || tg.Token != "ghs_1" {
		t.Fatalf("second target = %+v, %v; want the cached ghs_1", tg, err)
	}
	if f.lookups != 1 || f.tokens != 1 {
		t.Errorf("look-ups %d, exchanges %d; want 1 and 1", f.lookups, f.tokens)
	}
	// Within five minutes of expires_at: a new token.
	now = now.Add(6 * time.Minute)
	if tg, err = app.Target(ctx, "acme/web", 0); err != nil || tg.Token != "ghs_2" {
		t.Fatalf("target near expiry = %+v, %v; want a new token ghs_2", tg, err)
	}
	// Uninstalled: the next target asks GitHub again.
	app.ForgetInstallation(4242)
	if _, err := app.Target(ctx, "acme/web", 0); err != nil || f.lookups != 2 || f.tokens != 3 {
		t.Errorf("after the uninstallation: %v, look-ups %d, exchanges %d; want 2 and 3", err, f.lookups, f.tokens)
	}
	// An installation known from the webhooks is not looked up.
	app.Remember("acme/web", 0)
	if _, err := app.Target(ctx, "acme/web", 4242); err != nil || f.lookups != 2 {
		t.Errorf("known installation: %v, look-ups %d; want none more", err, f.lookups)
	}
}

// TestLoadApp: the key is the PEM itself or its file's path; the API
// address defaults to GitHub's and loses a trailing slash.
func TestLoadApp(t *testing.T) {
	key, pemBytes := testKey(t)
	path := t.TempDir() + "/app.pem"
	if err := os.WriteFile(path, pemBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ key, apiURL, wantBase string }{
		{path, "", "https://api.github.com"},
		{"\n" + string(pemBytes), "https://ghe.example/api/v3/", "https://ghe.example/api/v3"},
	} {
		app, err := LoadApp(7, c.key, c.apiURL)
		if err != nil || app.ID != 7 || !app.Key.Equal(key) || app.BaseURL != c.wantBase {
			t.Errorf("LoadApp(%.20q, %q) = %+v, %v; want App 7 with the key on %s", c.key, c.apiURL, app, err, c.wantBase)
		}
	}
	for key, want := range map[string]string{path + ".missing": "no such file", "-----BEGIN nonsense": "not an RSA key"} {
		if _, err := LoadApp(7, key, ""); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("LoadApp(%q): %v, want an error saying %q", key, err, want)
		}
	}
}
