package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb/bench"
	"github.com/plumbhq/plumb/server"
	"github.com/plumbhq/plumb/sqlstore"
)

// Flags win over PLUMB_* variables, which win over defaults; bad values are
// usage errors (exit status 2) that say what is accepted.
func TestConfiguration(t *testing.T) {
	env := map[string]string{"PLUMB_ADDR": "127.0.0.1:9999", "PLUMB_RATE_LIMIT": "42", "PLUMB_LOG_LEVEL": "debug",
		"PLUMB_DB_MAX_CONNS": "7", "PLUMB_REDIS_URL": "redis://example:6379/1"}
	getenv := func(k string) string { return env[k] }
	cfg, err := parseServe([]string{"--rate-limit", "7", "--max-body-bytes=2048"}, getenv)
	if err != nil {
		t.Fatal(err)
	}
	want := config{Addr: "127.0.0.1:9999", Database: "sqlite:data/plumb.db", RedisURL: "redis://example:6379/1", RateLimit: 7,
		MaxBodyBytes: 2048, MaxUploadBytes: 2 << 30, RequestTimeout: 30 * time.Second, LogLevel: "debug", DBMaxConns: 7, DBConnLifetime: 30 * time.Minute, AuthFailureLimit: 100,
		SourceMaxFileSize: 1 << 20, SourceCollectEvery: time.Hour}
	if !reflect.DeepEqual(*cfg, want) {
		t.Errorf("config\n got %+v\nwant %+v", *cfg, want)
	}
	// The operations flags, from flags or variables; --cors-origins is a list.
	env["PLUMB_CORS_ORIGINS"] = "https://a.example,https://b.example"
	cfg, err = parseServe([]string{"--metrics-addr", "127.0.0.1:9100", "--admin-addr=127.0.0.1:6060"}, getenv)
	if err != nil || cfg.MetricsAddr != "127.0.0.1:9100" || cfg.AdminAddr != "127.0.0.1:6060" || !reflect.DeepEqual(cfg.CORSOrigins, []string{"https://a.example", "https://b.example"}) {
		t.Errorf("operations flags: %+v, %v", cfg, err)
	}
	delete(env, "PLUMB_CORS_ORIGINS")
	for _, bad := range [][]string{{"--rate-limit", "0"}, {"--rate-limit", "x"}, {"--max-body-bytes", "-1"}, {"--log-level", "loud"},
		{"--db-max-conns", "-2"}, {"--db-conn-max-lifetime", "soon"}, {"--request-timeout", "-1s"}, {"--max-upload-bytes", "0"}, {"--no-such-flag"}} {
		_, err := parseServe(bad, func(string) string { return "" })
		if _, ok := err.(usageError); !ok {
			t.Errorf("%v: err %v, want a usage error", bad, err)
		} else if exitCode(err) != 2 {
			t.Errorf("%v: exit code %d", bad, exitCode(err))
		}
	}
	// The web's sign-in settings and --trust-host come from flags or variables too.
	env = map[string]string{"PLUMB_TRUST_HOST": "true", "PLUMB_OIDC_ISSUER": "https://id.example", "PLUMB_SESSION_TTL": "2h", "PLUMB_OIDC_CREATE_USERS": "1"}
	cfg, err = parseServe([]string{"--oidc-client-id", "plumb"}, getenv)
	if err != nil || !cfg.TrustHost || cfg.Web.OIDC.Issuer != "https://id.example" || cfg.Web.OIDC.ClientID != "plumb" || cfg.Web.SessionTTL != 2*time.Hour || !cfg.Web.OIDC.CreateUsers {
		t.Errorf("web settings: %+v, %v", cfg, err)
	}
	// A bad variable is a usage error too, naming the flag.
	if _, err := parseServe(nil, func(k string) string { return map[string]string{"PLUMB_RATE_LIMIT": "lots"}[k] }); exitCode(err) != 2 || !strings.Contains(err.Error(), "--rate-limit") {
		t.Errorf("PLUMB_RATE_LIMIT=lots: %v, want a usage error naming --rate-limit", err)
	}
}

// parseServe parses a serve command line (without running it) and returns
// its configuration.
func parseServe(args []string, getenv func(string) string) (*config, error) {
	var root cli
	p, err := newParser(&root, getenv, io.Discard, io.Discard)
	if err != nil {
		return nil, err
	}
	if _, err := p.Parse(append([]string{"serve"}, args...)); err != nil {
		return nil, parseError(err)
	}
	return configOf(&root.Serve.Server, &root.Serve.DB), nil
}

// On shutdown the server stops accepting connections but lets a request in
// flight finish: a long NDJSON export started before the signal arrives whole.
func TestGracefulShutdownFinishesInFlightRequests(t *testing.T) {
	ctx := context.Background()
	dbURL := "sqlite:" + filepath.Join(t.TempDir(), "plumb.db")
	db, err := sqlstore.Open(ctx, dbURL, sqlstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const n = 60_000
	fix, err := bench.GenerateIssues(ctx, db, n)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()

	runCtx, stop := context.WithCancel(ctx)
	addrFile := filepath.Join(t.TempDir(), "addr")
	done := make(chan error, 1)
	go func() {
		done <- runServe(runCtx, dbURL, addrFile)
	}()
	addr := waitForFile(t, addrFile)

	req, _ := http.NewRequest("GET", "http://"+addr+"/gh/bench/projects/big/issues?status=open,ignored", nil)
	req.Header.Set("Authorization", "Bearer "+fix.Token)
	req.Header.Set("Accept", "application/x-ndjson")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	// The response has started; now the server is told to stop.
	first := make([]byte, 1)
	if _, err := io.ReadFull(resp.Body, first); err != nil {
		t.Fatal(err)
	}
	stop()
	rest, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("export cut short by shutdown: %v", err)
	}
	if lines := strings.Count(string(first)+string(rest), "\n"); lines != n {
		t.Errorf("export has %d lines, want %d", lines, n)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve returned %v, want nil after a graceful shutdown", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not return after shutdown")
	}
	if _, err := http.Get("http://" + addr + "/healthz"); err == nil {
		t.Error("the server still accepts connections after shutdown")
	}
}

// runServe runs `plumb serve` on a free port and writes the bound address to
// addrFile once it listens.
func runServe(ctx context.Context, dbURL, addrFile string) error {
	cfg, err := parseServe([]string{"--addr", "127.0.0.1:0", "--database", dbURL, "--log-level", "error"}, func(string) string { return "" })
	if err != nil {
		return err
	}
	db, err := sqlstore.Open(ctx, cfg.Database, cfg.StoreOptions())
	if err != nil {
		return err
	}
	defer db.Close()
	return server.Run(ctx, cfg, db, newLogger(io.Discard, "error"), func(addr string) {
		os.WriteFile(addrFile, []byte(addr), 0o600)
	})
}

func waitForFile(t *testing.T, path string) string {
	t.Helper()
	for i := 0; i < 200; i++ {
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
			return string(b)
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("%s never appeared", path)
	return ""
}
