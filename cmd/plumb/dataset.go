package main

// plumb demo: the demo dataset (docs/dataset.md) in a fresh database,
// served. plumb export and import are admin.Export and admin.Import.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/plumbhq/plumb/dataset"
	"github.com/plumbhq/plumb/demo"
	"github.com/plumbhq/plumb/internal/dblock"
	"github.com/plumbhq/plumb/server"
	"github.com/plumbhq/plumb/sqlstore"
)

// cmdDemo starts the server on a fresh database holding the demo dataset,
// with a new token for the demo user, and prints how to try it.
//
// Before it touches anything it binds the address (kept for the server) and
// takes the database's lock (internal/dblock), and it never removes a database
// another process has open: a second plumb demo, or one started beside a
// plumb serve of the same file, says who holds what and leaves it alone.
func cmdDemo(ctx context.Context, cfg *config, data string, stdout, stderr io.Writer) error {
	path := filepath.Join(data, "demo.db")
	// Say at once when the address is taken, before building the dataset.
	ln, err := server.Listen(cfg.Addr)
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
	log := newLogger(stderr, cfg.LogLevel)
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
	fmt.Fprintf(stderr, "plumb demo: dataset ready in %s; starting the server on %s\n", time.Since(started).Round(100*time.Millisecond), ln.Addr())
	log.Info("demo dataset loaded", "database", path, "took", time.Since(started).Round(time.Millisecond))
	cfg.Build = currentBuild()
	return server.Run(ctx, cfg, db, log, func(addr string) {
		fmt.Fprint(stdout, demoBanner(&doc, token, localURL(addr), path))
		signIn, err := demoSignIn(ctx, db, token, localURL(addr))
		if err != nil {
			log.Error("demo: set the demo user's password", "error", err)
		}
		fmt.Fprint(stdout, signIn)
	})
}

// localURL is the base URL a local client reaches the listener at.
func localURL(addr string) string {
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

// demoBanner says where the demo runs, gives the token, lists what the demo
// user sees and three curl commands that work against this very data.
func demoBanner(doc *dataset.Document, token, base, dbPath string) string {
	var userID string
	for _, t := range doc.Tokens {
		if t.Token == token {
			userID = t.UserID
		}
	}
	login := ""
	for _, u := range doc.Users {
		if u.ID == userID {
			login = u.Login
		}
	}
	role := map[string]string{}
	for _, w := range doc.Workspaces {
		for _, m := range w.Members {
			if m.UserID == userID {
				role[w.ID] = m.Role
			}
		}
	}
	wsKey := map[string]string{}
	for _, w := range doc.Workspaces {
		wsKey[w.ID] = w.Key
	}

	// The current issues of each project: those of its latest default-branch
	// analysis (an older analysis arriving later does not replace it).
	type current struct {
		at       time.Time
		issues   int
		openHigh int
		seen     bool
	}
	cur := map[string]*current{}
	branch := map[string]string{}
	for _, p := range doc.Projects {
		branch[p.ID] = p.DefaultBranch
		cur[p.ID] = &current{}
	}
	for _, s := range doc.Snapshots {
		c := cur[s.ProjectID]
		if c == nil || s.Branch != branch[s.ProjectID] || c.seen && s.AnalyzedAt.Before(c.at) {
			continue
		}
		*c = current{at: s.AnalyzedAt, seen: true, issues: len(s.Issues)}
		for _, is := range s.Issues {
			if is.Level == "high" && (is.Status == "open" || is.Status == "") {
				c.openHigh++
			}
		}
	}
	var visible []dataset.Project
	for _, p := range doc.Projects {
		if role[p.WorkspaceID] != "" {
			visible = append(visible, p)
		}
	}
	if len(visible) == 0 {
		return fmt.Sprintf("Plumb demo is running at %s\nAPI token: %s\n", base, token)
	}
	// The biggest project: the most current issues, among those with open
	// high-level issues if any has some (so the second command lists rows).
	better := func(c, b *current) bool {
		if (c.openHigh > 0) != (b.openHigh > 0) {
			return c.openHigh > 0
		}
		return c.issues > b.issues
	}
	biggest := visible[0]
	for _, p := range visible[1:] {
		if better(cur[p.ID], cur[biggest.ID]) {
			biggest = p
		}
	}
	projectURL := func(p dataset.Project) string {
		return base + "/gh/" + url.PathEscape(wsKey[p.WorkspaceID]) + "/projects/" + url.PathEscape(p.Key)
	}

	var b strings.Builder
	fmt.Fprintf(&b, "\nPlumb demo is running at %s (database %s, recreated on every start).\n\n", base, dbPath)
	fmt.Fprintf(&b, "API token of the demo user %q (a new one on every start):\n\n    %s\n\n", login, token)
	fmt.Fprintf(&b, "The demo user sees these workspaces and projects:\n\n")
	byWS := map[string][]string{}
	var keys []string
	for _, p := range visible {
		k := wsKey[p.WorkspaceID]
		if byWS[k] == nil {
			keys = append(keys, k)
		}
		name := p.Key
		if p.ComponentsEnabled {
			name += " (components)"
		}
		byWS[k] = append(byWS[k], name)
	}
	sort.Strings(keys)
	for _, k := range keys {
		id := ""
		for _, w := range doc.Workspaces {
			if w.Key == k {
				id = w.ID
			}
		}
		fmt.Fprintf(&b, "    %-10s %-7s %s\n", k, role[id], strings.Join(byWS[k], ", "))
	}
	auth := fmt.Sprintf(`-H "Authorization: Bearer %s"`, token)
	fmt.Fprintf(&b, "\nTry (each command works as printed):\n\n")
	fmt.Fprintf(&b, "  # the workspaces you can see\n  curl %s '%s/workspaces'\n\n", auth, base)
	fmt.Fprintf(&b, "  # the open high-level issues of %s/%s, as CSV\n  curl %s -H 'Accept: text/csv' '%s/issues?level=high&status=open'\n\n",
		wsKey[biggest.WorkspaceID], biggest.Key, auth, projectURL(biggest))
	third := ""
	for _, p := range append([]dataset.Project{biggest}, visible...) {
		if !p.ComponentsEnabled {
			continue
		}
		for _, c := range doc.Components {
			if c.ProjectID == p.ID {
				third = fmt.Sprintf("  # monthly lines of code and coverage of the component %q of %s/%s\n  curl %s '%s/components/%s/metrics/series?metric=LOC,LCOV&interval=month'\n",
					c.Name, wsKey[p.WorkspaceID], p.Key, auth, projectURL(p), url.PathEscape(c.Name))
				break
			}
		}
		if third != "" {
			break
		}
	}
	if third == "" {
		third = fmt.Sprintf("  # the latest builds of %s/%s\n  curl %s '%s/builds'\n", wsKey[biggest.WorkspaceID], biggest.Key, auth, projectURL(biggest))
	}
	b.WriteString(third)
	fmt.Fprintf(&b, "\nThe API is described at %s/openapi.json. Press Ctrl+C to stop.\n", base)
	return b.String()
}
