package e2e

import (
	"encoding/base64"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// The operator sets a user's profile with the CLI; GET /user answers it, with
// Bearer and with Basic authentication, as the original service's clients
// read it.
func TestUserProfileThroughCLI(t *testing.T) {
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "plumb.db")
	db := "--database=" + dsn
	plumbCmd(t, "user", "create", "bea", "--name", "Bea", "--email", "bea@example.com", db)
	out := plumbCmd(t, "token", "create", "bea", "--name", "ext", db)
	m := tokenLine.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("token create: %q", out)
	}
	secret := m[3]
	if out := plumbCmd(t, "user", "update", "BEA", "--avatar-url", "https://example.com/bea.png", "--provider-url", "https://github.com/bea", db); !strings.Contains(out, `email "bea@example.com"`) {
		t.Errorf("user update output: %q", out)
	}
	srv := startServer(t, "plumb", "--database", dsn)
	var u map[string]any
	decode(t, mustCall(t, http.StatusOK, "GET", srv.base+"/user", secret, ""), &u)
	for k, want := range map[string]string{"login": "bea", "name": "Bea", "email": "bea@example.com",
		"avatarUrl": "https://example.com/bea.png", "providerUrl": "https://github.com/bea"} {
		if u[k] != want {
			t.Errorf("GET /user %s = %v, want %q", k, u[k], want)
		}
	}
	h := http.Header{"Authorization": {"Basic " + base64.StdEncoding.EncodeToString([]byte(secret+":"))}}
	r, err := callWith("GET", srv.base+"/user", "", "", h)
	if err != nil || r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"email":"bea@example.com"`) {
		t.Errorf("GET /user with Basic: %v %+v", err, r)
	}
}
