package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/plumbhq/plumb/api"
	"github.com/plumbhq/plumb/ops"
	"github.com/plumbhq/plumb/ratelimit"
	"github.com/plumbhq/plumb/sqlstore"
)

// cmdServe opens the database and serves the API until ctx ends. On SQLite
// it holds the database's lock (dblock.go) while it runs: one server per
// SQLite file, and plumb demo leaves the file alone.
func cmdServe(ctx context.Context, cfg *config, stdout, stderr io.Writer) error {
	log := newLogger(stderr, cfg.LogLevel)
	var ready func(string)
	if path := sqlstore.SQLiteFile(cfg.Database); path != "" {
		lock, err := lockDatabase(path, "plumb serve")
		if err != nil {
			var inUse *inUseError
			if errors.As(err, &inUse) {
				return fmt.Errorf("%w (one plumb serve per SQLite file; use PostgreSQL for more than one replica)", err)
			}
			return err
		}
		defer lock.Close()
		ready = lock.setAddr
	}
	db, err := sqlstore.Open(ctx, cfg.Database, cfg.storeOptions())
	if err != nil {
		return err
	}
	defer db.Close()
	return serve(ctx, cfg, db, log, ready)
}

// serve runs the HTTP server until ctx ends, then shuts down gracefully:
// in-flight requests finish (up to 30 seconds). ready, if not nil, receives
// the bound address once the server listens.
func serve(ctx context.Context, cfg *config, db *sqlstore.DB, log *slog.Logger, ready func(addr string)) error {
	// What the uploads of a server that stopped mid-write staged goes (in
	// the background: it may be large; writes to other projects go on).
	go func() {
		if err := db.SweepStagedWrites(ctx); err != nil && ctx.Err() == nil {
			log.Warn("removing the staged rows of interrupted uploads failed; the next upload to each project retries", "error", err)
		}
	}()
	// The qlty CLI's multi-part reports that never completed, and expired
	// upload URLs (docs/migrate-from-qlty.md).
	go db.SweepQltyUploadsEvery(ctx, 10*time.Minute, func(err error) {
		log.Warn("removing expired qlty coverage uploads failed; the next sweep retries", "error", err)
	})
	// Sources no snapshot or coverage upload refers to (docs/sources.md).
	if cfg.SourceCollectEvery > 0 {
		go collectSources(ctx, db, cfg.SourceCollectEvery, log)
	}
	handler, closeLimiter, err := newHandler(ctx, cfg, db, log)
	if err != nil {
		return err
	}
	defer closeLimiter()
	// Check runs a stopped server left in progress (docs/pull-requests.md).
	if err := handler.ResumeCheckRuns(ctx); err != nil {
		log.Warn("check runs left in progress not resumed", "error", err)
	}
	site, err := newSite(cfg, db, log, handler)
	if err != nil {
		return err
	}
	b := currentBuild()
	metrics := ops.NewMetrics(ops.BuildInfo{Version: b.Version, Commit: b.Commit, GoVersion: b.Go}, db.Pools())
	front := metrics.Middleware(ops.CORS(cfg.CORSOrigins, site), handler.Route)
	if cfg.MetricsAddr == "" {
		// /metrics on the main address, unless it has its own. A plain
		// path switch, not a ServeMux: the mux would answer CONNECT and
		// "*" targets with text/plain and redirect unclean paths (//user)
		// before the API could answer them with its error body.
		rest := front
		m := metrics.Handler()
		front = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/metrics" {
				m.ServeHTTP(w, r)
				return
			}
			rest.ServeHTTP(w, r)
		})
	}
	ln := cfg.listener
	if ln == nil {
		if ln, err = listen(cfg.Addr); err != nil {
			return err
		}
	}
	srv := api.NewHTTPServer(front, slog.NewLogLogger(log.Handler(), slog.LevelWarn))
	ln = api.WrapListener(ln)
	servers := []*http.Server{srv}
	errc := make(chan error, 3)
	// The metrics and admin addresses, when set: plain servers of their own.
	for _, side := range []struct {
		name, addr string
		h          http.Handler
	}{{"metrics", cfg.MetricsAddr, metrics.Handler()}, {"admin (pprof, metrics)", cfg.AdminAddr, ops.AdminHandler(metrics)}} {
		if side.addr == "" {
			continue
		}
		sln, err := net.Listen("tcp", side.addr)
		if err != nil {
			ln.Close()
			return fmt.Errorf("listen on %s for %s: %w", side.addr, side.name, err)
		}
		h := side.h
		if side.name == "metrics" {
			mux := http.NewServeMux()
			mux.Handle("/metrics", side.h)
			h = mux
		}
		ssrv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
		servers = append(servers, ssrv)
		log.Info("plumb "+side.name+" listening", "addr", sln.Addr().String())
		go func() { errc <- ssrv.Serve(sln) }()
	}
	log.Info("plumb listening", "addr", ln.Addr().String())
	if ready != nil {
		ready(ln.Addr().String())
	}
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		for _, s := range servers {
			s.Close()
		}
		return err
	case <-ctx.Done():
	}
	for _, s := range servers[1:] {
		s.Close()
	}
	log.Info("shutting down; waiting for in-flight requests")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	for range servers {
		if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
	}
	log.Info("stopped")
	return nil
}

// listen listens on addr; an address in use says how to choose another.
func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("listen on %s: the address is already in use (another plumb, or another program, listens there); "+
			"choose another with --addr or PLUMB_ADDR, for example --addr 127.0.0.1:8081", addr)
	}
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w (set the address with --addr or PLUMB_ADDR)", addr, err)
	}
	return ln, nil
}

// newHandler builds the API with its rate limiter: in-process, or on Redis
// (shared by every replica) with the in-process limiter as the fallback while
// Redis is unreachable.
func newHandler(ctx context.Context, cfg *config, db *sqlstore.DB, log *slog.Logger) (*api.Server, func(), error) {
	apiCfg := api.Config{MaxBodyBytes: cfg.MaxBodyBytes, MaxUploadBytes: cfg.MaxUploadBytes, RequestTimeout: cfg.RequestTimeout, BaseURL: cfg.BaseURL,
		TrustHost: cfg.TrustHost, AuthFailureLimit: cfg.AuthFailureLimit, GitHubWebhookSecret: cfg.GitHub.WebhookSecret}
	app, err := cfg.GitHub.app()
	if err != nil {
		return nil, nil, err
	}
	apiCfg.GitHubApp = app
	memory := ratelimit.NewMemory(cfg.RateLimit, nil)
	if cfg.RedisURL == "" {
		return api.NewServer(db, memory, log, apiCfg), func() {}, nil
	}
	opt, err := redis.ParseURL(cfg.RedisURL)
	if err != nil {
		return nil, nil, usageError{fmt.Sprintf("redis URL: %v", err)}
	}
	// Short timeouts, one dial per attempt and one retry: a Redis outage
	// must not slow requests down (the fallback answers while Redis is
	// away). go-redis dials 5 times 100 ms apart by default, which made the
	// request that tried Redis during an outage take 0.8 s.
	opt.DialTimeout, opt.ReadTimeout, opt.WriteTimeout = 300*time.Millisecond, 300*time.Millisecond, 300*time.Millisecond
	opt.DialerRetries = 1
	opt.MaxRetries = 1
	// go-redis logs every failed dial on its own; the fallback logs the
	// outage once, so its lines go to the debug level.
	redis.SetLogger(redisLogger{log})
	client := redis.NewClient(opt)
	limiter := ratelimit.NewFallback(ratelimit.NewRedis(client, cfg.RateLimit, ratelimit.RedisOptions{}), memory, log)
	if !limiter.Check(ctx) {
		log.Warn("redis is unreachable at start-up; counting rate limits in process until it answers")
	}
	// Failed token lookups per client address are counted in Redis too, so
	// every replica throttles an address's failures alike.
	failures := ratelimit.NewFallback(ratelimit.NewRedis(client, cfg.AuthFailureLimit, ratelimit.RedisOptions{Prefix: authFailurePrefix}),
		ratelimit.NewMemory(cfg.AuthFailureLimit, nil), log)
	failures.Name = "redis (failed token lookups)"
	apiCfg.AuthFailures = failures
	s := api.NewServer(db, limiter, log, apiCfg)
	s.AddReadyCheck("rateLimit", func(ctx context.Context) string {
		limiter.Check(ctx)
		return limiter.Status()
	})
	return s, func() { client.Close() }, nil
}

// authFailurePrefix is the Redis key prefix of the failed token lookups
// counted per client address (the requests' counts use
// ratelimit.DefaultRedisPrefix).
const authFailurePrefix = "plumb:authfail:"

// redisLogger sends go-redis's own log lines to the server's log at the
// debug level.
type redisLogger struct{ log *slog.Logger }

func (l redisLogger) Printf(ctx context.Context, format string, v ...any) {
	l.log.DebugContext(ctx, fmt.Sprintf(format, v...), "source", "go-redis")
}

// cmdMigrate reports that the database is up to date: opening it applied
// the migrations.
func cmdMigrate(ctx context.Context, db *sqlstore.DB, stdout io.Writer) error {
	fmt.Fprintln(stdout, "database is up to date")
	return nil
}

// collectSources deletes the sources nothing refers to any more, now and
// then every interval, until ctx ends. It logs counts, never contents.
func collectSources(ctx context.Context, db *sqlstore.DB, every time.Duration, log *slog.Logger) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		n, err := db.DeleteUnreferencedSources(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Warn("deleting unreferenced sources failed; the next round retries", "error", err)
		case err == nil && (n.Commits > 0 || n.Blobs > 0):
			log.Info("deleted unreferenced sources", "commits", n.Commits, "contents", n.Blobs)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
