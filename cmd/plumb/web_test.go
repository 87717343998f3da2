package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plumbhq/plumb/sqlstore"
	"github.com/plumbhq/plumb/web"
)

// plumb user password reads the password from stdin when it is not a
// terminal and stores only its argon2id hash.
func TestUserPassword(t *testing.T) {
	dsn := "sqlite:" + filepath.Join(t.TempDir(), "p.db")
	if _, err := runOut(t, nil, "user", "create", "ada", "--database", dsn); err != nil {
		t.Fatal(err)
	}
	out, err := runOut(t, strings.NewReader("correct horse battery\n"), "user", "password", "ada", "--database", dsn)
	if err != nil {
		t.Fatal(err)
	}
	// It says so (and never prints the password).
	if want := "set the web sign-in password of user ada (only its argon2id hash is stored)\n"; out != want {
		t.Errorf("plumb user password printed %q, want %q", out, want)
	}
	if out, err := runOut(t, strings.NewReader("short\n"), "user", "password", "ada", "--database", dsn); err == nil || !strings.Contains(err.Error(), "at least 8") || out != "" {
		t.Fatalf("a short password: %v, printed %q", err, out)
	}
	if out, err := runOut(t, strings.NewReader(""), "user", "password", "ada", "--database", dsn); err == nil || out != "" {
		t.Fatalf("an empty stdin set a password (printed %q)", out)
	}
	if _, err := runOut(t, strings.NewReader("whatever-123\n"), "user", "password", "nobody", "--database", dsn); err == nil {
		t.Fatal("a password was set for an unknown user")
	}
	db, err := sqlstore.Open(context.Background(), dsn, sqlstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, hash, err := db.PasswordHash(context.Background(), "ada")
	if err != nil || strings.Contains(hash, "horse") {
		t.Fatalf("hash %q, %v", hash, err)
	}
	if ok, _ := web.VerifyPassword(hash, "correct horse battery"); !ok {
		t.Fatal("the stored hash does not verify the password")
	}
}
