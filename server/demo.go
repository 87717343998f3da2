package server

// plumb demo: the demo dataset (docs/dataset.md) in a fresh database,
// served.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/plumbhq/plumb/demo"
	"github.com/plumbhq/plumb/internal/dblock"
	"github.com/plumbhq/plumb/sqlstore"
	"github.com/plumbhq/plumb/web"
)

// RunDemo starts the server on a fresh database holding the demo dataset,
// with a new token for the demo user, and prints how to try it.
//
// Before it touches anything it binds the address (kept for the server) and
// takes the database's lock (internal/dblock), and it never removes a database
// another process has open: a second plumb demo, or one started beside a
// plumb serve of the same file, says who holds what and leaves it alone.
func RunDemo(ctx context.Context, cfg *Config, data string, log *slog.Logger, stdout, stderr io.Writer) error {
	path := filepath.Join(data, "demo.db")
	// Say at once when the address is taken, before building the dataset.
	ln, err := Listen(cfg.Addr)
	if err != nil {
		if h, ok := dblock.HolderOf(path); ok {
			return fmt.Errorf("%w\n%s holds %s (left alone): stop it first to start a fresh demo there", err, h, path)
		}
		return err
	}
	defer ln.Close() // serve closes it too, when it got that far
	lock, err := dblock.Acquire(path, "plumb demo")
	if err != nil {
		var inUse *dblock.InUseError
		if errors.As(err, &inUse) {
			return fmt.Errorf("demo: %s is in use by %s, so it was left alone: stop that process first, or give this demo its own folder, e.g. --data /tmp/plumb-demo --addr 127.0.0.1:8081", path, inUse.Holder)
		}
		return fmt.Errorf("demo: %w", err)
	}
	defer lock.Close()
	lock.SetAddr(ln.Addr().String())
	// A process that has the file open without the lock (an administration
	// command, sqlite3, an older plumb): never delete under it.
	if who := dblock.OpenBy(path); who != "" {
		return fmt.Errorf("demo: %s is open in %s, so it was left alone: stop that process first, or give this demo its own folder, e.g. --data /tmp/plumb-demo", path, who)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("demo: remove the previous demo database: %w", err)
		}
	}
	cfg.Database = "sqlite:" + path
	cfg.Listener = ln
	db, err := sqlstore.Open(ctx, cfg.Database, cfg.StoreOptions())
	if err != nil {
		return err
	}
	defer db.Close()
	// What is happening, as it happens: building and loading take a few
	// seconds, the first time after a long "go run" build.
	started := time.Now()
	fmt.Fprintf(stderr, "plumb demo: building the demo dataset (a year of analyses, coverage and builds)…\n")
	token := sqlstore.NewTokenSecret()
	doc := demo.Generate(time.Now(), token)
	fmt.Fprintf(stderr, "plumb demo: loading %s into %s…\n", doc.Summary(), path)
	if err := db.ImportDocument(ctx, &doc); err != nil {
		return fmt.Errorf("demo: load the demo dataset: %w", err)
	}
	if err := demo.PutPullRequests(ctx, &doc, db); err != nil {
		return fmt.Errorf("demo: load the demo's pull requests: %w", err)
	}
	fmt.Fprintf(stderr, "plumb demo: dataset ready in %s; starting the server on %s\n", time.Since(started).Round(100*time.Millisecond), ln.Addr())
	log.Info("demo dataset loaded", "database", path, "took", time.Since(started).Round(time.Millisecond))
	return Run(ctx, cfg, db, log, func(addr string) {
		fmt.Fprint(stdout, demo.Banner(&doc, token, LocalURL(addr), path))
		signIn, err := demoSignIn(ctx, db, token, LocalURL(addr))
		if err != nil {
			log.Error("demo: set the demo user's password", "error", err)
		}
		fmt.Fprint(stdout, signIn)
	})
}

// LocalURL is the base URL a local client reaches the listener at.
func LocalURL(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
		if ip != nil && ip.To4() == nil {
			host = "::1"
		}
	}
	return "http://" + net.JoinHostPort(host, port)
}

// demoSignIn gives the demo token's user a fresh random password (argon2id
// hash stored) and returns the lines that tell how to sign in to the web.
func demoSignIn(ctx context.Context, db *sqlstore.DB, token, base string) (string, error) {
	u, _, err := db.Authenticate(ctx, token)
	if err != nil {
		return "", err
	}
	pw := sqlstore.NewTokenSecret()[4:20]
	if err := web.SetUserPassword(ctx, db, u.ID, pw); err != nil {
		return "", err
	}
	return "Web: " + base + "/login  (login " + u.Login + ", password " + pw + ")\n" +
		"API token settings: " + base + "/settings/tokens\n", nil
}
