package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"net"
	"strconv"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/plumbhq/plumb"
)

// dialect holds what differs between the SQL databases Plumb runs on. The
// rest of the SQL is shared: $n placeholders, ON CONFLICT, RETURNING, and
// text that compares bytewise (COLLATE "C" on PostgreSQL).
type dialect struct {
	name    string // "sqlite" or "postgres"
	noLimit string // a LIMIT that means "every row"
	// contains returns SQL that is true when needle occurs in haystack.
	contains func(haystack, needle string) string
	// lockProject returns SQL that locks a project row for the rest of the
	// transaction ("" where transactions already serialise writers).
	lockProject string
	// readIsolation is the isolation level at which a read transaction sees
	// one state throughout (SQLite's read transactions always do;
	// PostgreSQL's default, READ COMMITTED, takes a new snapshot at every
	// statement).
	readIsolation sql.IsolationLevel
}

var sqliteDialect = dialect{
	name:     "sqlite",
	noLimit:  "-1",
	contains: func(h, n string) string { return "instr(" + h + ", " + n + ") > 0" },
}

var postgresDialect = dialect{
	name:          "postgres",
	noLimit:       "ALL",
	contains:      func(h, n string) string { return "strpos(" + h + ", " + n + ") > 0" },
	lockProject:   `SELECT id FROM projects WHERE id = $1 FOR UPDATE`,
	readIsolation: sql.LevelRepeatableRead,
}

// limit is the SQL LIMIT value of a page: its limit, or every row for 0.
func (d dialect) limit(p plumb.Page) string {
	if p.Limit <= 0 {
		return d.noLimit
	}
	return strconv.Itoa(p.Limit)
}

// Dialect names the database the store runs on: "sqlite" or "postgres".
func (db *DB) Dialect() string { return db.d.name }

// lockProject serialises writes to one project's derived data (its current
// snapshot, component totals and coverage totals) across replicas.
func (db *DB) lockProject(ctx context.Context, tx *sql.Tx, projectID string) error {
	if db.d.lockProject == "" {
		return nil
	}
	_, err := tx.ExecContext(ctx, db.d.lockProject, projectID)
	return err
}

// classify turns database errors that mean something to a caller into
// application errors: a unique violation is a conflict (two requests raced
// for one name), and a lost or refused connection is "unavailable" (503).
func classify(err error) error {
	if err == nil {
		return nil
	}
	var pe *plumb.Error
	if errors.As(err, &pe) {
		return err
	}
	if isUniqueViolation(err) {
		return plumb.Errorf(plumb.ECONFLICT, "The request conflicts with a record written at the same time; retry it.")
	}
	if IsUnavailable(err) {
		return &plumb.Error{Code: plumb.EUNAVAILABLE, Details: []string{"The database is unavailable; retry in a few seconds."}, Cause: err}
	}
	return err
}

func isUniqueViolation(err error) bool {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.Code == "23505"
	}
	return strings.Contains(err.Error(), "UNIQUE constraint failed")
}

// IsUnavailable is the function IsUnavailable, for the API's Store.
func (db *DB) IsUnavailable(err error) bool { return IsUnavailable(err) }

// IsUnavailable reports whether err means the database could not be reached
// (refused or lost connection, server shutting down or starting up).
func IsUnavailable(err error) bool {
	if err == nil {
		return false
	}
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		// 08: connection exception; 57P01..57P03: admin shutdown, crash
		// shutdown, cannot connect now.
		return strings.HasPrefix(pg.Code, "08") || pg.Code == "57P01" || pg.Code == "57P02" || pg.Code == "57P03"
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	var oe *net.OpError
	switch {
	case errors.As(err, &ce), errors.As(err, &oe), errors.As(err, &ne),
		errors.Is(err, driver.ErrBadConn), errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.EPIPE):
		return true
	}
	msg := err.Error()
	for _, s := range []string{"connection refused", "conn closed", "broken pipe", "unexpected EOF", "failed to connect",
		"server closed the connection", "the database system is"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
