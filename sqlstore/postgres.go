package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
)

// migrationLockKey is the PostgreSQL advisory lock held while migrating, so
// replicas that start together apply each migration once.
const migrationLockKey = 7_231_004_211

// openPostgres opens a PostgreSQL database (one pool serves reads and
// writes) and migrates it under an advisory lock. A connect_timeout of 5
// seconds applies unless the URL sets one, so an unreachable server fails
// requests quickly instead of hanging them.
func openPostgres(ctx context.Context, dsn string, opt Options) (*DB, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return nil, fmt.Errorf("database URL: %v", err)
	}
	q := u.Query()
	if q.Get("connect_timeout") == "" {
		q.Set("connect_timeout", "5")
		u.RawQuery = q.Encode()
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.MaxOpenConns <= 0 {
		opt.MaxOpenConns = 20
	}
	if opt.MaxIdleConns <= 0 || opt.MaxIdleConns > opt.MaxOpenConns {
		opt.MaxIdleConns = opt.MaxOpenConns
	}
	if opt.ConnMaxLifetime <= 0 {
		opt.ConnMaxLifetime = 30 * time.Minute
	}
	pool, err := sql.Open("pgx", u.String())
	if err != nil {
		return nil, err
	}
	pool.SetMaxOpenConns(opt.MaxOpenConns)
	pool.SetMaxIdleConns(opt.MaxIdleConns)
	pool.SetConnMaxLifetime(opt.ConnMaxLifetime)
	pool.SetConnMaxIdleTime(5 * time.Minute)
	if err := pool.PingContext(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open database %s: %w", redactURL(dsn), err)
	}
	db := &DB{read: pool, write: pool, d: postgresDialect, now: opt.Now,
		issueIndexes: newIssueIndexCache(8), compareIssues: newSnapshotIssueCache(maxCachedIssues), tokenTouched: map[string]time.Time{}, instance: NewID()}
	db.setStaging(opt)
	if err := db.migrateLocked(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	if err := db.openSources(ctx, opt); err != nil {
		pool.Close()
		return nil, err
	}
	return db, nil
}

// migrateLocked runs the migrations while holding the advisory lock on one
// connection.
func (db *DB) migrateLocked(ctx context.Context) error {
	conn, err := db.write.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, migrationLockKey); err != nil {
		return fmt.Errorf("take the migration lock: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, migrationLockKey)
	return db.migrate(ctx, "postgres")
}

// Close on PostgreSQL closes the one pool once.
func (db *DB) closePools() error {
	if db.read == db.write {
		return db.read.Close()
	}
	err1 := db.read.Close()
	err2 := db.write.Close()
	if err1 != nil {
		return err1
	}
	return err2
}
