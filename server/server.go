// Package server assembles Plumb's server from its configuration: the API
// with its rate limiter (in process, or on Redis with the in-process one as
// the fallback), the web pages in front of it, the metrics and admin
// addresses, and the background loops (staged-write and qlty sweeps, the
// collection of unreferenced sources); Run serves until its context ends
// and shuts down gracefully. plumb serve and plumb demo configure and start
// it.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/plumbhq/plumb/api"
	"github.com/plumbhq/plumb/codehost"
	"github.com/plumbhq/plumb/internal/dblock"
	"github.com/plumbhq/plumb/ops"
	"github.com/plumbhq/plumb/ratelimit"
	"github.com/plumbhq/plumb/source"
	"github.com/plumbhq/plumb/sqlstore"
	"github.com/plumbhq/plumb/web"
)

// Config is the server's configuration: plumb serve fills it from flags
// over PLUMB_* variables over defaults.
type Config struct {
	Addr           string
	Database       string
	RedisURL       string
	RateLimit      int
	MaxBodyBytes   int64
	MaxUploadBytes int64
	RequestTimeout time.Duration
	BaseURL        string
	TrustHost      bool
	// AuthFailureLimit: failed token lookups per client address per hour.
	AuthFailureLimit int
	LogLevel         string
	DBMaxConns       int
	DBMaxIdleConns   int
	DBConnLifetime   time.Duration
	Web              web.Config // sign-in settings of the web pages
	MetricsAddr      string     // Prometheus /metrics on its own address ("": on Addr)
	AdminAddr        string     // pprof and /metrics for operators ("": off)
	CORSOrigins      []string   // origins allowed to call the API from a browser
	// Sources (docs/sources.md): the per-file cap, a server that keeps
	// none, and how often unreferenced ones are deleted (0: never).
	SourceMaxFileSize  int64
	RefuseSources      bool
	SourceCollectEvery time.Duration
	// GitHubApp is the GitHub App check runs and connections without a
	// token publish through (nil: none); GitHubWebhookSecret verifies its
	// webhook deliveries ("": webhooks off). docs/pull-requests.md.
	GitHubApp           *codehost.App
	GitHubWebhookSecret string
	// Listener, when set, is bound to Addr already (plumb demo binds it
	// before doing any work); Run listens on Addr otherwise.
	Listener net.Listener
	// Build is what the metrics report as the running version.
	Build ops.Build
}

// StoreOptions are the database pool and source settings of the
// configuration.
func (c *Config) StoreOptions() sqlstore.Options {
	return sqlstore.Options{MaxOpenConns: c.DBMaxConns, MaxIdleConns: c.DBMaxIdleConns, ConnMaxLifetime: c.DBConnLifetime,
		SourceLimits: source.Limits{MaxFileSize: c.SourceMaxFileSize}, RefuseSources: c.RefuseSources}
}

// ConfigError is a configuration the server cannot start with (a malformed
// Redis URL); the CLI exits with status 2 for it.
type ConfigError struct{ Msg string }

func (e ConfigError) Error() string { return e.Msg }

// ExitCode is the CLI's exit status for it.
func (ConfigError) ExitCode() int { return 2 }

// Serve opens the database cfg names and serves it (Run) until ctx ends.
// On SQLite it holds the database's lock (internal/dblock) while it runs:
// one server per SQLite file, and plumb demo leaves the file alone.
func Serve(ctx context.Context, cfg *Config, log *slog.Logger) error {
	var ready func(string)
	if path := sqlstore.SQLiteFile(cfg.Database); path != "" {
		lock, err := dblock.Acquire(path, "plumb serve")
		if err != nil {
			var inUse *dblock.InUseError
			if errors.As(err, &inUse) {
				return fmt.Errorf("%w (one plumb serve per SQLite file; use PostgreSQL for more than one replica)", err)
			}
			return err
		}
		defer lock.Close()
		ready = lock.SetAddr
	}
	db, err := sqlstore.Open(ctx, cfg.Database, cfg.StoreOptions())
	if err != nil {
		return err
	}
	defer db.Close()
	return Run(ctx, cfg, db, log, ready)
}

// Run serves the API and the web pages until ctx ends, then shuts down gracefully:
// in-flight requests finish (up to 30 seconds). ready, if not nil, receives
// the bound address once the server listens.
func Run(ctx context.Context, cfg *Config, db *sqlstore.DB, log *slog.Logger, ready func(addr string)) error {
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
		go CollectSources(ctx, db, cfg.SourceCollectEvery, log)
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
	b := cfg.Build
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
	ln := cfg.Listener
	if ln == nil {
		if ln, err = Listen(cfg.Addr); err != nil {
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

// Listen listens on addr; an address in use says how to choose another.
func Listen(addr string) (net.Listener, error) {
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
func newHandler(ctx context.Context, cfg *Config, db *sqlstore.DB, log *slog.Logger) (*api.Server, func(), error) {
	apiCfg := api.Config{MaxBodyBytes: cfg.MaxBodyBytes, MaxUploadBytes: cfg.MaxUploadBytes, RequestTimeout: cfg.RequestTimeout, BaseURL: cfg.BaseURL,
		TrustHost: cfg.TrustHost, AuthFailureLimit: cfg.AuthFailureLimit, GitHubWebhookSecret: cfg.GitHubWebhookSecret, GitHubApp: cfg.GitHubApp}
	memory := ratelimit.NewMemory(cfg.RateLimit, nil)
	if cfg.RedisURL == "" {
		return api.NewServer(db, memory, log, apiCfg), func() {}, nil
	}
	opt, err := redis.ParseURL(cfg.RedisURL)
	if err != nil {
		return nil, nil, ConfigError{fmt.Sprintf("redis URL: %v", err)}
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

// CollectSources deletes the sources nothing refers to any more, now and
// then every interval, until ctx ends. It logs counts, never contents.
func CollectSources(ctx context.Context, db *sqlstore.DB, every time.Duration, log *slog.Logger) {
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

// newSite puts the web's pages and badges in front of the API handler.
func newSite(cfg *Config, db *sqlstore.DB, log *slog.Logger, api http.Handler) (http.Handler, error) {
	wc := cfg.Web
	if wc.BaseURL == "" {
		wc.BaseURL = cfg.BaseURL
	}
	wc.TrustHost = cfg.TrustHost
	wc.GitHubApp = cfg.GitHubApp // the settings' code-host form follows the API's rules
	w, err := web.New(db, log, wc)
	if err != nil {
		return nil, err
	}
	return w.Mount(api), nil
}
