package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/internal/proctest"
	"github.com/plumbhq/plumb/sqlstore"
	"github.com/plumbhq/plumb/sqlstore/sqltest"
)

func TestMain(m *testing.M) { os.Exit(sqltest.Run(m)) }

func openDB(t *testing.T) *sqlstore.DB {
	t.Helper()
	db, err := sqlstore.Open(context.Background(), sqltest.DSN(t), sqlstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// An address in use says so and how to choose another; a malformed one
// names the flag that sets it.
func TestListen(t *testing.T) {
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, err = Listen(ln.Addr().String())
	if err == nil || !strings.Contains(err.Error(), "already in use") || !strings.Contains(err.Error(), "--addr or PLUMB_ADDR") {
		t.Fatalf("an address in use: %v", err)
	}
	if _, err := Listen("127.0.0.1:http-nope"); err == nil || !strings.Contains(err.Error(), "set the address with --addr or PLUMB_ADDR") {
		t.Fatalf("a malformed address: %v", err)
	}
}

// Run serves the API, the web and the metrics address, and returns nil once
// its context ends, having closed every address.
func TestRunServesUntilCancelled(t *testing.T) {
	db := openDB(t)
	metricsAddr := fmt.Sprintf("127.0.0.1:%d", proctest.FreePort(t))
	cfg := &Config{Addr: "127.0.0.1:0", MetricsAddr: metricsAddr, RateLimit: 100, MaxBodyBytes: 1 << 20, MaxUploadBytes: 1 << 20,
		RequestTimeout: time.Minute, AuthFailureLimit: 10}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- Run(ctx, cfg, db, slog.New(slog.DiscardHandler), func(addr string) { ready <- addr }) }()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("Run ended before listening: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not listen in 30s")
	}

	if st, body := get(t, "http://"+addr+"/healthz"); st != http.StatusOK {
		t.Fatalf("/healthz: %d %s", st, body)
	}
	if st, body := get(t, "http://"+addr+"/nope"); st != http.StatusNotFound || !strings.Contains(body, `"errors"`) {
		t.Fatalf("an unknown path: %d %s, want the API's 404 error body", st, body)
	}
	if st, body := get(t, "http://"+addr+"/login"); st != http.StatusOK || !strings.Contains(body, "<html") {
		t.Fatalf("the web's sign-in page: %d", st)
	}
	// With an address of their own, the metrics are there, not on the main one.
	if st, body := get(t, "http://"+metricsAddr+"/metrics"); st != http.StatusOK || !strings.Contains(body, "plumb_") {
		t.Fatalf("/metrics on the metrics address: %d", st)
	}
	if st, _ := get(t, "http://"+addr+"/metrics"); st != http.StatusNotFound {
		t.Fatalf("/metrics on the main address: %d, want 404", st)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run after its context ended: %v", err)
		}
	case <-time.After(40 * time.Second):
		t.Fatal("Run did not return after its context ended")
	}
	for _, a := range []string{addr, metricsAddr} {
		if c, err := net.DialTimeout("tcp", a, time.Second); err == nil {
			c.Close()
			t.Errorf("%s still accepts connections after Run returned", a)
		}
	}
}

// Without a metrics address, /metrics is on the main one; a side address
// that cannot be bound fails Run, naming it.
func TestRunMetricsAndSideAddresses(t *testing.T) {
	db := openDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, &Config{Addr: "127.0.0.1:0", RateLimit: 100}, db, slog.New(slog.DiscardHandler), func(a string) { ready <- a })
	}()
	addr := <-ready
	if st, body := get(t, "http://"+addr+"/metrics"); st != http.StatusOK || !strings.Contains(body, "plumb_") {
		t.Fatalf("/metrics on the main address: %d", st)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	err = Run(context.Background(), &Config{Addr: "127.0.0.1:0", AdminAddr: taken.Addr().String(), RateLimit: 100}, db, slog.New(slog.DiscardHandler), nil)
	if err == nil || !strings.Contains(err.Error(), "for admin (pprof, metrics)") {
		t.Fatalf("an admin address in use: %v", err)
	}
}

// A malformed Redis URL is the operator's mistake: a ConfigError, exit
// status 2, before anything listens.
func TestRunRefusesABadRedisURL(t *testing.T) {
	db := openDB(t)
	listened := false
	err := Run(context.Background(), &Config{Addr: "127.0.0.1:0", RedisURL: "mysql://nope", RateLimit: 100}, db, slog.New(slog.DiscardHandler),
		func(string) { listened = true })
	var ce ConfigError
	if !errors.As(err, &ce) || ce.ExitCode() != 2 || !strings.Contains(ce.Msg, "redis URL") || listened {
		t.Fatalf("a malformed Redis URL: %v (listened %v)", err, listened)
	}
}

func TestStoreOptions(t *testing.T) {
	cfg := Config{DBMaxConns: 7, DBMaxIdleConns: 3, DBConnLifetime: time.Minute, SourceMaxFileSize: 1234, RefuseSources: true}
	o := cfg.StoreOptions()
	if o.MaxOpenConns != 7 || o.MaxIdleConns != 3 || o.ConnMaxLifetime != time.Minute || o.SourceLimits.MaxFileSize != 1234 || !o.RefuseSources {
		t.Fatalf("store options %+v", o)
	}
}

// A request under way when the context ends is answered before Run
// returns (graceful shutdown); the address stops taking new ones at once.
func TestRunFinishesInFlightRequests(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	if _, err := db.CreateWorkspace(ctx, plumb.WorkspaceInput{Key: "acme"}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateProject(ctx, plumb.ProjectInput{Workspace: "acme", Key: "lib"}); err != nil {
		t.Fatal(err)
	}
	_, secret, err := db.CreateUploadToken(ctx, "acme/lib", "ci", "cli")
	if err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(runCtx, &Config{Addr: "127.0.0.1:0", RateLimit: 100, MaxBodyBytes: 1 << 20, RequestTimeout: time.Minute, AuthFailureLimit: 10},
			db, slog.New(slog.DiscardHandler), func(a string) { ready <- a })
	}()
	addr := <-ready

	// The body comes in two halves; the context ends between them.
	pr, pw := io.Pipe()
	req, err := http.NewRequest(http.MethodPost, "http://"+addr+"/ingest/gh/acme/projects/lib/builds", pr)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+secret)
	req.Header.Set("Content-Type", "application/json")
	answer := make(chan *http.Response, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Errorf("the request under way: %v", err)
			close(answer)
			return
		}
		answer <- resp
	}()
	if _, err := pw.Write([]byte(`{"type":"analysis","branchName":"main",`)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // the handler is reading the body
	cancel()
	time.Sleep(100 * time.Millisecond) // the shutdown has begun
	if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		c.Close()
		t.Error("the address takes new connections during the shutdown")
	}
	select {
	case err := <-done:
		t.Fatalf("Run returned (%v) with a request under way", err)
	default:
	}
	pw.Write([]byte(`"commitSha":"0123456789abcdef0123456789abcdef01234567"}`))
	pw.Close()
	resp, ok := <-answer
	if !ok {
		t.FailNow()
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("the request under way: %d %s", resp.StatusCode, b)
	}
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
}
