package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb/internal/proctest"
	"github.com/plumbhq/plumb/server"
	"github.com/plumbhq/plumb/sqlstore"
)

// serveWith runs serve with the given flags until the test ends and returns
// the main address.
func serveWith(t *testing.T, args ...string) string {
	t.Helper()
	return serveOn(t, "sqlite:"+filepath.Join(t.TempDir(), "p.db"), args...)
}

// serveOn is serveWith on a given database.
func serveOn(t *testing.T, dbURL string, args ...string) string {
	t.Helper()
	cfg, err := parseServe(append([]string{"--addr", "127.0.0.1:0", "--database", dbURL, "--log-level", "error"}, args...),
		func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	db, err := sqlstore.Open(ctx, cfg.Database, cfg.StoreOptions())
	if err != nil {
		t.Fatal(err)
	}
	addrc := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- server.Run(ctx, cfg, db, newLogger(io.Discard, "error"), func(a string) { addrc <- a })
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		db.Close()
	})
	select {
	case a := <-addrc:
		return a
	case err := <-done:
		t.Fatalf("serve: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not start")
	}
	return ""
}

func httpGet(t *testing.T, url string, hdr ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// /metrics is on the main address by default, or on --metrics-addr alone;
// pprof is on --admin-addr only; CORS answers --cors-origins only.
func TestServeOperations(t *testing.T) {
	addr := serveWith(t, "--cors-origins", "https://dash.example.com")
	httpGet(t, "http://"+addr+"/healthz")
	httpGet(t, "http://"+addr+"/workspaces") // 401
	resp, body := httpGet(t, "http://"+addr+"/metrics")
	for _, want := range []string{`plumb_http_requests_total{method="GET",route="/healthz",status="200"} 1`,
		`plumb_http_requests_total{method="GET",route="/workspaces",status="401"} 1`, "plumb_build_info{", `go_sql_max_open_connections{db_name="read"}`} {
		if resp.StatusCode != 200 || !strings.Contains(body, want) {
			t.Errorf("/metrics (%d) lacks %q", resp.StatusCode, want)
		}
	}
	if resp, _ := httpGet(t, "http://"+addr+"/healthz", "Origin", "https://dash.example.com"); resp.Header.Get("Access-Control-Allow-Origin") != "https://dash.example.com" {
		t.Errorf("CORS: %v", resp.Header)
	}
	if resp, _ := httpGet(t, "http://"+addr+"/healthz", "Origin", "https://evil.example"); resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("CORS for another origin: %v", resp.Header)
	}
	if resp, _ := httpGet(t, "http://"+addr+"/debug/pprof/"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("pprof on the main address: %d", resp.StatusCode)
	}

	metricsAddr, adminAddr := fmt.Sprintf("127.0.0.1:%d", proctest.FreePort(t)), fmt.Sprintf("127.0.0.1:%d", proctest.FreePort(t))
	addr = serveWith(t, "--metrics-addr", metricsAddr, "--admin-addr", adminAddr)
	if resp, _ := httpGet(t, "http://"+addr+"/metrics"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("/metrics on the main address with --metrics-addr: %d", resp.StatusCode)
	}
	if resp, body := httpGet(t, "http://"+metricsAddr+"/metrics"); resp.StatusCode != 200 || !strings.Contains(body, "plumb_build_info") {
		t.Errorf("--metrics-addr: %d", resp.StatusCode)
	}
	if resp, body := httpGet(t, "http://"+adminAddr+"/debug/pprof/"); resp.StatusCode != 200 || !strings.Contains(body, "goroutine") {
		t.Errorf("--admin-addr pprof: %d", resp.StatusCode)
	}
	if resp, _ := httpGet(t, "http://"+addr+"/healthz", "Origin", "https://dash.example.com"); resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("CORS is on without --cors-origins: %v", resp.Header)
	}
}
