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
	admin, u, schema := postgresAdmin(t, "plumbtest_")
	if _, err := admin.ExecContext(context.Background(), `CREATE SCHEMA `+schema); err != nil {
		admin.Close()
		t.Fatalf("sqltest: create schema: %v", err)
	}
	t.Cleanup(func() {
		defer admin.Close()
		if _, err := admin.ExecContext(context.Background(), `DROP SCHEMA `+schema+` CASCADE`); err != nil {
			t.Logf("sqltest: drop schema %s: %v", schema, err)
		}
	})
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// PostgresDatabase returns the URL of a new database on the test server
// (skipping the test when none is configured), for tests whose processes
// need a database of their own rather than a schema; it is dropped,
// disconnecting whoever is still connected, when t ends. Register it before
// starting servers on it so they stop first.
func PostgresDatabase(t testing.TB) string {
	t.Helper()
	admin, u, name := postgresAdmin(t, "plumb_e2e_")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := admin.ExecContext(ctx, `CREATE DATABASE `+name); err != nil {
		admin.Close()
		t.Fatalf("sqltest: create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		defer admin.Close()
		// DROP DATABASE waits for a checkpoint, which takes long on a busy
		// machine: give it time rather than leave the database behind.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		if _, err := admin.ExecContext(ctx, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`); err != nil {
			t.Errorf("sqltest: drop database %s: %v", name, err)
		}
	})
	u.Path = "/" + name
	return u.String()
}

// postgresAdmin connects to the test server (ending t with testtool.Missing
// when none is configured) and returns the connection, the server's URL and
// a fresh random name with the prefix.
func postgresAdmin(t testing.TB, prefix string) (*sql.DB, *url.URL, string) {
	t.Helper()
	base := os.Getenv(PostgresEnv)
	if base == "" {
		testtool.Missing(t, "no PostgreSQL: set %s (e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable) to run this test", PostgresEnv)
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("sqltest: %s: %v", PostgresEnv, err)
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatalf("sqltest: %v", err)
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	return admin, u, prefix + hex.EncodeToString(b[:])
}
