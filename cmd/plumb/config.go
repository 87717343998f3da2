package main

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/alecthomas/kong"

	"github.com/plumbhq/plumb/server"
	"github.com/plumbhq/plumb/source"
)

// config is the server configuration (server.Config), from flags over
// PLUMB_* variables over defaults.
type config = server.Config

// The flag structs below are embedded in the commands that take them. A
// flag's `env` tag names its PLUMB_* variable, read through run's getenv (an
// empty variable counts as unset); the flag given on the command line wins.

// dbFlags are the flags of every command that opens the database.
type dbFlags struct {
	Database       string        `name:"database" placeholder:"URL" default:"sqlite:data/plumb.db" penv:"PLUMB_DATABASE_URL" help:"Database URL: sqlite:PATH or postgres://user:pass@host:5432/db?sslmode=… (default ${default})."`
	DBMaxConns     int           `name:"db-max-conns" placeholder:"N" penv:"PLUMB_DB_MAX_CONNS" help:"Database connections per replica (0: 20 on PostgreSQL, 8 SQLite readers)."`
	DBMaxIdleConns int           `name:"db-max-idle-conns" placeholder:"N" penv:"PLUMB_DB_MAX_IDLE_CONNS" help:"Idle database connections kept (0: as many as --db-max-conns)."`
	DBConnLifetime time.Duration `name:"db-conn-max-lifetime" placeholder:"DURATION" default:"30m" penv:"PLUMB_DB_CONN_MAX_LIFETIME" help:"Longest life of a database connection (default ${default})."`
	LogLevel       string        `name:"log-level" placeholder:"LEVEL" default:"info" penv:"PLUMB_LOG_LEVEL" help:"Log level: debug, info, warn or error (default ${default})."`
}

// Validate checks the values kong parsed (flags, variables and defaults).
func (f *dbFlags) Validate() error {
	for _, v := range []struct {
		name string
		n    int
	}{{"db-max-conns", f.DBMaxConns}, {"db-max-idle-conns", f.DBMaxIdleConns}} {
		if v.n < 0 {
			return usageError{fmt.Sprintf("--%s must be an integer of 0 or more, got %d", v.name, v.n)}
		}
	}
	if f.DBConnLifetime <= 0 {
		return usageError{fmt.Sprintf("--db-conn-max-lifetime must be a positive duration such as 30m, got %s", f.DBConnLifetime)}
	}
	_, err := parseLevel(f.LogLevel)
	return err
}

// serverFlags are the flags of the commands that serve the API (serve and
// demo). The commands that only open the database accept them too, hidden,
// as they always did, and ignore them.
type serverFlags struct {
	Addr             string        `name:"addr" placeholder:"HOST:PORT" default:"127.0.0.1:8080" penv:"PLUMB_ADDR" server:"" help:"Listen address (default ${default})."`
	RedisURL         string        `name:"redis-url" placeholder:"URL" penv:"PLUMB_REDIS_URL" server:"" help:"Redis for rate-limit counters shared by replicas, e.g. redis://127.0.0.1:6379/0 (default: in-process)."`
	RateLimit        int           `name:"rate-limit" placeholder:"N" default:"5000" penv:"PLUMB_RATE_LIMIT" server:"" help:"Requests per token per hour (default ${default})."`
	MaxBodyBytes     int64         `name:"max-body-bytes" placeholder:"N" default:"1048576" penv:"PLUMB_MAX_BODY_BYTES" server:"" help:"Request body limit in bytes; larger bodies answer 413 (default ${default})."`
	MaxUploadBytes   int64         `name:"max-upload-bytes" placeholder:"N" default:"2147483648" penv:"PLUMB_MAX_UPLOAD_BYTES" server:"" help:"Upload (report) limit in bytes, compressed and decompressed (default ${default})."`
	RequestTimeout   time.Duration `name:"request-timeout" placeholder:"DURATION" default:"30s" penv:"PLUMB_REQUEST_TIMEOUT" server:"" help:"Longest wait for a response to start, then 503; uploads exempt; 0 for none (default ${default})."`
	BaseURL          string        `name:"base-url" placeholder:"URL" penv:"PLUMB_BASE_URL" server:"" help:"Public base URL used in Link and Location headers (default: the address the connection reached)."`
	AuthFailureLimit int           `name:"auth-failure-limit" placeholder:"N" default:"100" penv:"PLUMB_AUTH_FAILURE_LIMIT" server:"" help:"Failed token lookups (unknown or revoked tokens) per client address per hour; further failures answer 429, valid tokens never (default ${default})."`
	TrustHost        bool          `name:"trust-host" penv:"PLUMB_TRUST_HOST" server:"" help:"Without --base-url, build links from the request's Host and X-Forwarded-Proto (only behind a proxy that sets both)."`
	Web              webFlags      `embed:""`
	MetricsAddr      string        `name:"metrics-addr" placeholder:"HOST:PORT" penv:"PLUMB_METRICS_ADDR" server:"" help:"Serve Prometheus /metrics on this address instead of the main one."`
	AdminAddr        string        `name:"admin-addr" placeholder:"HOST:PORT" penv:"PLUMB_ADMIN_ADDR" server:"" help:"Serve pprof (/debug/pprof/) and /metrics on this address, for operators only (default: off)."`
	CORSOrigins      []string      `name:"cors-origins" placeholder:"ORIGIN,…" penv:"PLUMB_CORS_ORIGINS" server:"" help:"Origins allowed to call the API from a browser, such as https://dash.example.com, comma-separated; * for any (default: none)."`
	// Sources (docs/sources.md).
	SourceMaxFileSize  int64         `name:"source-max-file-size" placeholder:"BYTES" default:"1048576" penv:"PLUMB_SOURCE_MAX_FILE_SIZE" server:"" help:"Largest file whose source is kept, 1 to 16777216 bytes; a larger one is marked too large (default ${default})."`
	RefuseSources      bool          `name:"refuse-sources" penv:"PLUMB_REFUSE_SOURCES" server:"" help:"Keep no source: uploads of sources answer 403, and those kept are deleted at start."`
	SourceCollectEvery time.Duration `name:"source-collect-every" placeholder:"DURATION" default:"1h" penv:"PLUMB_SOURCE_COLLECT_EVERY" server:"" help:"How often sources no analysis or coverage upload refers to are deleted; 0: never (default ${default})."`
	GitHub             githubFlags   `embed:""`
}

// Validate checks the server flags' values.
func (f *serverFlags) Validate() error {
	switch {
	case f.RateLimit < 1:
		return usageError{fmt.Sprintf("--rate-limit must be a positive integer, got %d", f.RateLimit)}
	case f.AuthFailureLimit < 1:
		return usageError{fmt.Sprintf("--auth-failure-limit must be a positive integer, got %d", f.AuthFailureLimit)}
	case f.MaxBodyBytes < 1:
		return usageError{fmt.Sprintf("--max-body-bytes must be a positive integer, got %d", f.MaxBodyBytes)}
	case f.MaxUploadBytes < 1:
		return usageError{fmt.Sprintf("--max-upload-bytes must be a positive integer, got %d", f.MaxUploadBytes)}
	case f.RequestTimeout < 0:
		return usageError{fmt.Sprintf("--request-timeout must be a duration such as 30s, got %s", f.RequestTimeout)}
	case f.SourceMaxFileSize < 1 || f.SourceMaxFileSize > source.MaxMaxFileSize:
		return usageError{fmt.Sprintf("--source-max-file-size must be from 1 to %d bytes, got %d", source.MaxMaxFileSize, f.SourceMaxFileSize)}
	case f.SourceCollectEvery < 0:
		return usageError{fmt.Sprintf("--source-collect-every must be a duration such as 1h, or 0, got %s", f.SourceCollectEvery)}
	}
	return nil
}

// configOf gathers the server and database flags into a config.
func configOf(s *serverFlags, d *dbFlags) *config {
	return &config{
		Addr: s.Addr, Database: d.Database, RedisURL: s.RedisURL, RateLimit: s.RateLimit,
		MaxBodyBytes: s.MaxBodyBytes, MaxUploadBytes: s.MaxUploadBytes, RequestTimeout: s.RequestTimeout,
		BaseURL: s.BaseURL, TrustHost: s.TrustHost, AuthFailureLimit: s.AuthFailureLimit, LogLevel: d.LogLevel,
		DBMaxConns: d.DBMaxConns, DBMaxIdleConns: d.DBMaxIdleConns, DBConnLifetime: d.DBConnLifetime,
		Web:         s.Web.config(),
		MetricsAddr: s.MetricsAddr, AdminAddr: s.AdminAddr, CORSOrigins: s.CORSOrigins,
		SourceMaxFileSize: s.SourceMaxFileSize, RefuseSources: s.RefuseSources, SourceCollectEvery: s.SourceCollectEvery,
		GitHubWebhookSecret: s.GitHub.WebhookSecret, GitHubApp: s.GitHub.appOrNil(),
	}
}

// envResolver gives a flag the value of its PLUMB_* variable (its penv tag)
// when the command line does not set it.
func envResolver(getenv func(string) string) kong.Resolver {
	return kong.ResolverFunc(func(_ *kong.Context, _ *kong.Path, flag *kong.Flag) (any, error) {
		name := flag.Tag.Get("penv")
		if name == "" {
			return nil, nil
		}
		if v := getenv(name); v != "" {
			return v, nil
		}
		return nil, nil
	})
}

// helpWithEnv is the help text of a flag followed by its variable.
func helpWithEnv(v *kong.Value) string {
	name := v.Tag.Get("penv")
	if name == "" {
		return v.Help
	}
	if h, ok := strings.CutSuffix(v.Help, "."); ok {
		return h + " ($" + name + ")."
	}
	return v.Help + " ($" + name + ")"
}

// hideServerFlags hides the flags a command accepts but ignores: the server
// flags of commands that do not serve, the commit flags of build status and
// finish.
func hideServerFlags(k *kong.Kong) error {
	var walk func(n *kong.Node)
	walk = func(n *kong.Node) {
		buildReport := n.Parent != nil && n.Parent.Name == "build" && (n.Name == "status" || n.Name == "finish")
		for _, f := range n.Flags {
			if f.Tag.Has("server") && n.Name != "serve" && n.Name != "demo" || buildReport && f.Tag.Has("commit") {
				f.Hidden = true
			}
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(k.Model.Node)
	return nil
}

func parseLevel(s string) (slog.Level, error) {
	switch strings.ToLower(s) {
	case "debug":
		return slog.LevelDebug, nil
	case "info", "":
		return slog.LevelInfo, nil
	case "warn", "warning":
		return slog.LevelWarn, nil
	case "error":
		return slog.LevelError, nil
	}
	return 0, usageError{fmt.Sprintf("log level must be debug, info, warn or error, got %q", s)}
}

func newLogger(w io.Writer, level string) *slog.Logger {
	lv, _ := parseLevel(level)
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: lv}))
}
