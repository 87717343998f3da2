// Package store is a small package with deliberate findings, analysed by
// staticcheck and golangci-lint to make the SARIF fixtures of package sarif.
package store

import (
	"database/sql"
	"fmt"
	"os"
	"strings"
)

// dbPassword is a hardcoded credential (gosec G101).
var dbPassword = "f62e5bcda4fae4f82370da0c6f20697b8f8447ef"

// DSN builds a connection string.
func DSN(host string) string {
	return fmt.Sprintf("postgres://app:%s@%s/app", dbPassword, host)
}

// unusedHelper is never called (U1000, unused).
func unusedHelper() int {
	return 42
}

// Save writes data to a file and ignores the error of Close (errcheck).
func Save(name string, data []byte) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	f.Close()
	return nil
}

// Append adds data to a file and, like Save, ignores the error of Close, so
// errcheck reports two identical messages in this file.
func Append(name string, data []byte) error {
	f, err := os.OpenFile("data/"+"log.txt", os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	f.Close()
	return nil
}

// Query builds SQL by concatenation.
func Query(db *sql.DB, name string) (*sql.Rows, error) {
	q := "SELECT id FROM users WHERE name = '" + name + "'"
	return db.Query(q)
}

// Classify has too many branches for the configured gocyclo limit.
func Classify(s string) string {
	if s == "" {
		return "empty"
	}
	if strings.HasPrefix(s, "a") {
		return "a"
	} else if strings.HasPrefix(s, "b") {
		return "b"
	} else if strings.HasPrefix(s, "c") {
		return "c"
	} else if strings.HasPrefix(s, "d") && len(s) > 3 {
		return "d"
	}
	return "other"
}

// Lower has a value that is never used (SA4006) and a redundant check.
func Lower(s string) string {
	x := strings.ToLower(s)
	x = strings.ToUpper(s)
	if strings.Index(s, "x") != -1 {
		return "has x"
	}
	return x + "recieved"
}

// Repeat compares a value with itself (SA4000).
func Repeat(a int) bool {
	return a == a
}
