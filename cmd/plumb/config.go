package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/plumbhq/plumb/sqlstore"
	"github.com/plumbhq/plumb/web"
)

// config is the server configuration, from flags over PLUMB_* variables over defaults.
type config struct {
	Addr           string
	Database       string
	RedisURL       string
	RateLimit      int
	MaxBodyBytes   int64
	MaxUploadBytes int64
	RequestTimeout time.Duration
	BaseURL        string
	TrustHost      bool
	LogLevel       string
	DBMaxConns     int
	DBMaxIdleConns int
	DBConnLifetime time.Duration
	Web            web.Config // sign-in settings of the web pages
}

// storeOptions are the database pool settings of the configuration.
func (c *config) storeOptions() sqlstore.Options {
	return sqlstore.Options{MaxOpenConns: c.DBMaxConns, MaxIdleConns: c.DBMaxIdleConns, ConnMaxLifetime: c.DBConnLifetime}
}

// flags declares the configuration flags on fs, with defaults taken from the
// environment, and returns the config they fill in.
func configFlags(fs *flag.FlagSet, getenv func(string) string) (*config, func() error) {
	env := func(name, def string) string {
		if v := getenv(name); v != "" {
			return v
		}
		return def
	}
	c := &config{}
	fs.StringVar(&c.Addr, "addr", env("PLUMB_ADDR", "127.0.0.1:8080"), "listen address")
	fs.StringVar(&c.Database, "database", env("PLUMB_DATABASE_URL", "sqlite:data/plumb.db"), "database URL: sqlite:PATH or postgres://…")
	fs.StringVar(&c.RedisURL, "redis-url", env("PLUMB_REDIS_URL", ""), "Redis URL for rate-limit counters shared by replicas (empty: in-process)")
	maxConns := fs.String("db-max-conns", env("PLUMB_DB_MAX_CONNS", "0"), "database connections per replica (0: 20 on PostgreSQL, 8 SQLite readers)")
	maxIdle := fs.String("db-max-idle-conns", env("PLUMB_DB_MAX_IDLE_CONNS", "0"), "idle database connections kept (0: as many as db-max-conns)")
	lifetime := fs.String("db-conn-max-lifetime", env("PLUMB_DB_CONN_MAX_LIFETIME", "30m"), "longest life of a database connection")
	rate := fs.String("rate-limit", env("PLUMB_RATE_LIMIT", "5000"), "requests per token per hour")
	body := fs.String("max-body-bytes", env("PLUMB_MAX_BODY_BYTES", "1048576"), "request body limit in bytes")
	upload := fs.String("max-upload-bytes", env("PLUMB_MAX_UPLOAD_BYTES", "2147483648"), "upload (report) limit in bytes, compressed and decompressed")
	timeout := fs.String("request-timeout", env("PLUMB_REQUEST_TIMEOUT", "30s"), "longest wait for a response to start (uploads exempt); 0 for none")
	fs.StringVar(&c.BaseURL, "base-url", env("PLUMB_BASE_URL", ""), "public base URL for Link and Location headers (default: the address the connection reached)")
	trustHostEnv := env("PLUMB_TRUST_HOST", "false")
	fs.BoolVar(&c.TrustHost, "trust-host", false, "without --base-url, build links from the request's Host and X-Forwarded-Proto (only behind a proxy that sets them)")
	webFlags(fs, env, &c.Web)
	fs.StringVar(&c.LogLevel, "log-level", env("PLUMB_LOG_LEVEL", "info"), "log level: debug, info, warn, error")
	check := func() error {
		n, err := strconv.Atoi(*rate)
		if err != nil || n < 1 {
			return usageError{fmt.Sprintf("rate limit must be a positive integer, got %q", *rate)}
		}
		c.RateLimit = n
		b, err := strconv.ParseInt(*body, 10, 64)
		if err != nil || b < 1 {
			return usageError{fmt.Sprintf("max body bytes must be a positive integer, got %q", *body)}
		}
		c.MaxBodyBytes = b
		u, err := strconv.ParseInt(*upload, 10, 64)
		if err != nil || u < 1 {
			return usageError{fmt.Sprintf("max upload bytes must be a positive integer, got %q", *upload)}
		}
		c.MaxUploadBytes = u
		if c.RequestTimeout, err = time.ParseDuration(*timeout); err != nil || c.RequestTimeout < 0 {
			return usageError{fmt.Sprintf("request timeout must be a duration such as 30s, got %q", *timeout)}
		}
		if v, err := strconv.ParseBool(trustHostEnv); err != nil {
			return usageError{fmt.Sprintf("PLUMB_TRUST_HOST must be true or false, got %q", trustHostEnv)}
		} else if v {
			c.TrustHost = true
		}
		if _, err := parseLevel(c.LogLevel); err != nil {
			return err
		}
		for _, v := range []struct {
			name string
			raw  *string
			dst  *int
		}{{"db-max-conns", maxConns, &c.DBMaxConns}, {"db-max-idle-conns", maxIdle, &c.DBMaxIdleConns}} {
			n, err := strconv.Atoi(*v.raw)
			if err != nil || n < 0 {
				return usageError{fmt.Sprintf("%s must be an integer of 0 or more, got %q", v.name, *v.raw)}
			}
			*v.dst = n
		}
		d, err := time.ParseDuration(*lifetime)
		if err != nil || d <= 0 {
			return usageError{fmt.Sprintf("db-conn-max-lifetime must be a positive duration such as 30m, got %q", *lifetime)}
		}
		c.DBConnLifetime = d
		return nil
	}
	return c, check
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

// parseFlags parses args with fs, turning flag errors into usage errors.
// Positional arguments may come before or after flags.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, usageError{fmt.Sprintf("%s: %v", fs.Name(), err)}
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}
