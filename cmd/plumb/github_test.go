package main

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGitHubAppSettings: the App's id and key go together, the key from a
// PEM file or from the variable holding the PEM itself; a bad one is a usage
// error (exit 2) at start.
func TestGitHubAppSettings(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pemText := string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}))
	path := filepath.Join(t.TempDir(), "app.pem")
	if err := os.WriteFile(path, []byte(pemText), 0o600); err != nil {
		t.Fatal(err)
	}
	none := func(string) string { return "" }
	cfg, err := parseServe([]string{"--github-app-id", "12", "--github-app-private-key", path, "--github-webhook-secret", "s"}, none)
	if err != nil {
		t.Fatal(err)
	}
	app := cfg.GitHubApp
	if app == nil || app.ID != 12 || app.BaseURL != "https://api.github.com" || !app.Key.Equal(key) || cfg.GitHubWebhookSecret != "s" {
		t.Fatalf("app %+v", app)
	}
	env := map[string]string{"PLUMB_GITHUB_APP_ID": "12", "PLUMB_GITHUB_APP_PRIVATE_KEY": pemText, "PLUMB_GITHUB_API_URL": "https://ghe.example/api/v3/"}
	cfg, err = parseServe(nil, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if app := cfg.GitHubApp; app == nil || !app.Key.Equal(key) || app.BaseURL != "https://ghe.example/api/v3" {
		t.Fatalf("from the variables: %+v", app)
	}
	if cfg, err := parseServe(nil, none); err != nil || cfg.GitHubApp != nil {
		t.Fatalf("no App: %+v, %v", cfg, err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--github-app-id", "12"}, "go together"},
		{[]string{"--github-app-private-key", path}, "go together"},
		{[]string{"--github-app-id", "12", "--github-app-private-key", path + ".missing"}, "no such file"},
		{[]string{"--github-app-id", "12", "--github-app-private-key", "-----BEGIN nonsense"}, "not an RSA key"},
	} {
		_, err := parseServe(c.args, none)
		if exitCode(err) != 2 || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v (exit %d), want a usage error saying %q", c.args, err, exitCode(err), c.want)
		}
	}
}
