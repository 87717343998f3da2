// Package sqltest gives test suites a fresh database on every backend Plumb
// supports, so one suite runs against SQLite and PostgreSQL alike.
//
// A package's TestMain calls Run, which runs the package's tests once per
// backend: SQLite always, PostgreSQL when PLUMB_TEST_POSTGRES_URL is set (for
// example postgres://postgres@127.0.0.1:5432/test?sslmode=disable; under
// CI=true the variable is required and the run fails without it). Tests then
// call DSN for a database of the current backend: a new SQLite file, or a new
// PostgreSQL schema, dropped when the test ends.
package sqltest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver

	"github.com/plumbhq/plumb/internal/testtool"
)

// PostgresEnv names the variable holding the PostgreSQL server for tests.
const PostgresEnv = "PLUMB_TEST_POSTGRES_URL"

// Backend is the backend of the current run: "sqlite" or "postgres".
var Backend = "sqlite"

// Run runs m once per available backend and returns the exit code.
func Run(m *testing.M) int {
	code := 0
	Backend = "sqlite"
	if c := m.Run(); c != 0 {
		code = c
	}
	if os.Getenv(PostgresEnv) == "" {
		if testtool.CI() {
			// Under CI the PostgreSQL pass is not optional (.ci/run sets
			// the variable, starting a server when none answers).
			fmt.Printf("FAIL: CI=true and %s is not set: the suite must run on PostgreSQL too\n", PostgresEnv)
			return 1
		}
		NoteSkipped("PostgreSQL", "set "+PostgresEnv+" (e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable) to run them on PostgreSQL too")
		return code
	}
	Backend = "postgres"
	fmt.Println("sqltest: running the suite again on PostgreSQL")
	if c := m.Run(); c != 0 {
		code = c
	}
	Backend = "sqlite"
	return code
}

// DSN returns the URL of a new, empty database of the current backend; it is
// removed when t ends.
func DSN(t testing.TB) string {
	t.Helper()
	if Backend != "postgres" {
		return "sqlite:" + filepath.Join(t.TempDir(), "plumb.db")
	}
	return PostgresDSN(t)
}

// PostgresDSN returns the URL of a new PostgreSQL schema on the test server
// (skipping the test when none is configured); the schema is dropped when t
// ends.
func PostgresDSN(t testing.TB) string {
	t.Helper()
	u, schema := createOnServer(t, "plumbtest_", "CREATE SCHEMA %s", "DROP SCHEMA %s CASCADE", t.Logf)
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// PostgresDatabase returns the URL of a new PostgreSQL database on the test
// server (skipping the test when none is configured), for processes that
// need a database of their own; it is dropped when t ends, disconnecting
// whoever is still connected. Register it before starting servers on it so
// they stop first.
func PostgresDatabase(t testing.TB) string {
	t.Helper()
	u, name := createOnServer(t, "plumb_e2e_", "CREATE DATABASE %s", "DROP DATABASE IF EXISTS %s WITH (FORCE)", t.Errorf)
	u.Path = "/" + name
	return u.String()
}

// createOnServer creates an object (create, a statement taking its name)
// named prefix and random hex on the test server, drops it (drop) when t
// ends, telling dropFailed if that fails, and returns the server's URL and
// the name.
func createOnServer(t testing.TB, prefix, create, drop string, dropFailed func(format string, args ...any)) (*url.URL, string) {
	t.Helper()
	base := os.Getenv(PostgresEnv)
	if base == "" {
		testtool.Missing(t, "no PostgreSQL: set %s (e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable) to run this test", PostgresEnv)
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("sqltest: %s: %v", PostgresEnv, err)
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := prefix + hex.EncodeToString(b[:])
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatalf("sqltest: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := admin.ExecContext(ctx, fmt.Sprintf(create, name)); err != nil {
		admin.Close()
		t.Fatalf("sqltest: %s: %v", fmt.Sprintf(create, name), err)
	}
	t.Cleanup(func() {
		defer admin.Close()
		// DROP DATABASE waits for a checkpoint, which takes long on a busy
		// machine: give it time rather than leave the database behind.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if _, err := admin.ExecContext(ctx, fmt.Sprintf(drop, name)); err != nil {
			dropFailed("sqltest: %s: %v", fmt.Sprintf(drop, name), err)
		}
	})
	return u, name
}
