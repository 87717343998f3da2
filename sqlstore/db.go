// Package sqlstore is Plumb's store on SQL databases. The SQL is shared between
// dialects wherever it can be ($n placeholders work on both SQLite and
// PostgreSQL); each dialect has its own migrations under migrations/.
package sqlstore

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/source"
)

//go:embed migrations
var migrations embed.FS

// DB is an open Plumb database.
type DB struct {
	read  *sql.DB // concurrent readers
	write *sql.DB // the single writer on SQLite; the same pool as read on PostgreSQL
	d     dialect
	now   func() time.Time

	issueIndexes  *issueIndexCache
	compareIssues *snapshotIssueCache

	tokenTouchMu sync.Mutex
	tokenTouched map[string]time.Time

	// instance names this process among the servers sharing the database
	// (the owner of the Idempotency-Keys it takes and of its staged writes).
	instance string

	stageChunk  int
	stageHook   func(ctx context.Context, kind string) error
	publishHook func(ctx context.Context, kind string)
	tempDir     string

	sources sourceOptions
}

// Options tunes a database.
type Options struct {
	MaxOpenConns    int           // readers on SQLite, connections on PostgreSQL (default 8 / 20)
	MaxIdleConns    int           // PostgreSQL idle connections kept (default MaxOpenConns)
	ConnMaxLifetime time.Duration // PostgreSQL connection lifetime (default 30 minutes)
	Now             func() time.Time
	// StageChunk is the most rows one transaction of a staged write (a
	// large snapshot or coverage upload) writes (default DefaultStageChunk).
	StageChunk int
	// StageHook, for tests, runs before each transaction of a staged
	// write; an error fails the write.
	StageHook func(ctx context.Context, kind string) error
	// PublishHook, for tests, runs once a write (a snapshot, a coverage
	// upload, a build) has committed the transaction that publishes it,
	// before its caller hears of it: a server killed there has stored the
	// write and answered nothing.
	PublishHook func(ctx context.Context, kind string)
	// TempDir holds the temporary files of writes that sort on disk (the
	// system's temporary folder when empty).
	TempDir string
	// SourceLimits are the limits on kept sources (docs/sources.md).
	SourceLimits source.Limits
	// RefuseSources: the server keeps no source; opening the database
	// deletes those kept.
	RefuseSources bool
}

// published runs the test hook (Options.PublishHook) of a published write.
func (db *DB) published(ctx context.Context, kind string) {
	if db.publishHook != nil {
		db.publishHook(ctx, kind)
	}
}

// Open opens (creating if needed) the database at dsn and migrates it.
// dsn is "sqlite:PATH", "file:PATH", a plain file path, or ":memory:" style
// "sqlite::memory:" for a private in-memory database.
func Open(ctx context.Context, dsn string, opt Options) (*DB, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		return openPostgres(ctx, dsn, opt)
	}
	path, err := sqlitePath(dsn)
	if err != nil {
		return nil, err
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.MaxOpenConns <= 0 {
		opt.MaxOpenConns = 8
	}
	if path != ":memory:" {
		if dir := filepath.Dir(path); dir != "" {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, fmt.Errorf("create database folder: %w", err)
			}
		}
	}
	pragmas := "_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_pragma=cache_size(-16000)"
	var readDSN, writeDSN string
	if path == ":memory:" {
		// A shared-cache in-memory database, private to this DB value.
		name := fmt.Sprintf("file:plumb-mem-%d?mode=memory&cache=shared&", time.Now().UnixNano())
		readDSN = name + pragmas
		writeDSN = name + pragmas + "&_txlock=immediate"
	} else {
		u := "file:" + (&url.URL{Path: path}).EscapedPath() + "?"
		readDSN = u + pragmas + "&_pragma=journal_mode(WAL)"
		writeDSN = u + pragmas + "&_pragma=journal_mode(WAL)&_txlock=immediate"
	}
	write, err := sql.Open("sqlite", writeDSN)
	if err != nil {
		return nil, err
	}
	write.SetMaxOpenConns(1)
	write.SetConnMaxIdleTime(0)
	if err := write.PingContext(ctx); err != nil {
		write.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	read, err := sql.Open("sqlite", readDSN)
	if err != nil {
		write.Close()
		return nil, err
	}
	read.SetMaxOpenConns(opt.MaxOpenConns)
	read.SetMaxIdleConns(opt.MaxOpenConns)
	db := &DB{read: read, write: write, d: sqliteDialect, now: opt.Now,
		issueIndexes: newIssueIndexCache(8), compareIssues: newSnapshotIssueCache(maxCachedIssues), tokenTouched: map[string]time.Time{}, instance: NewID()}
	db.setStaging(opt)
	if err := db.migrate(ctx, "sqlite"); err != nil {
		db.Close()
		return nil, err
	}
	if err := db.openSources(ctx, opt); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

func (db *DB) setStaging(opt Options) {
	db.stageChunk = opt.StageChunk
	if db.stageChunk <= 0 {
		db.stageChunk = DefaultStageChunk
	}
	db.stageHook, db.publishHook, db.tempDir = opt.StageHook, opt.PublishHook, opt.TempDir
}

// SQLiteFile is the file a SQLite database URL names, "" for a PostgreSQL
// URL, an in-memory database or a URL Open refuses.
func SQLiteFile(dsn string) string {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		return ""
	}
	path, err := sqlitePath(dsn)
	if err != nil || path == ":memory:" {
		return ""
	}
	return path
}

func sqlitePath(dsn string) (string, error) {
	switch {
	case dsn == "":
		return "", errors.New("database URL is empty")
	case strings.HasPrefix(dsn, "sqlite://"):
		dsn = strings.TrimPrefix(dsn, "sqlite://")
	case strings.HasPrefix(dsn, "sqlite:"):
		dsn = strings.TrimPrefix(dsn, "sqlite:")
	case strings.HasPrefix(dsn, "file:"):
		dsn = strings.TrimPrefix(dsn, "file:")
	case strings.Contains(dsn, "://"):
		return "", fmt.Errorf("unsupported database URL scheme in %q: use sqlite:PATH or postgres://", redactURL(dsn))
	}
	if i := strings.IndexByte(dsn, '?'); i >= 0 {
		dsn = dsn[:i]
	}
	if dsn == "" {
		return "", errors.New("database URL has no path")
	}
	return dsn, nil
}

// redactURL hides a password in a database URL before it is shown anywhere.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

// Pools are the database's connection pools by name, for their statistics:
// "read" and "write" on SQLite, "main" on PostgreSQL (one pool).
func (db *DB) Pools() map[string]*sql.DB {
	if db.read == db.write {
		return map[string]*sql.DB{"main": db.read}
	}
	return map[string]*sql.DB{"read": db.read, "write": db.write}
}

// Close closes the database.
func (db *DB) Close() error { return db.closePools() }

// Ping checks that the database answers.
func (db *DB) Ping(ctx context.Context) error {
	return db.read.PingContext(ctx)
}

// migrate applies the embedded migrations of a dialect that have not run yet,
// each in its own transaction, in file-name order.
func (db *DB) migrate(ctx context.Context, dialect string) error {
	if _, err := db.write.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)`); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	dir := "migrations/" + dialect
	entries, err := fs.ReadDir(migrations, dir)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".sql") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	for _, name := range names {
		version := strings.TrimSuffix(name, ".sql")
		err := db.inTx(ctx, func(tx *sql.Tx) error {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE version = $1`, version).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			body, err := migrations.ReadFile(dir + "/" + name)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, string(body)); err != nil {
				return fmt.Errorf("migration %s: %w", name, err)
			}
			_, err = tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)`, version, db.now().Unix())
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// inTx runs fn in a write transaction, committing when fn returns nil.
func (db *DB) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return classify(err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return classify(err)
	}
	return classify(tx.Commit())
}

// readTx runs fn in a read-only transaction, so every query in it sees one state.
func (db *DB) readTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := db.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true, Isolation: db.d.readIsolation})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	return fn(tx)
}

// querier is what both *sql.DB and *sql.Tx offer.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func notFound(what string) error {
	return plumb.Errorf(plumb.ENOTFOUND, "%s", what)
}

func unix(t time.Time) int64 { return t.UTC().Unix() }

func fromUnix(s int64) time.Time { return time.Unix(s, 0).UTC() }

func fromNullUnix(n sql.NullInt64) *time.Time {
	if !n.Valid {
		return nil
	}
	t := fromUnix(n.Int64)
	return &t
}

// fromNullInt is a nullable integer column as a Go *int: nil for NULL.
func fromNullInt(n sql.NullInt64) *int {
	if !n.Valid {
		return nil
	}
	v := int(n.Int64)
	return &v
}

func nullUnix(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UTC().Unix()
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
