package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plumbhq/plumb/sqlstore"
)

// TestProjectSettingsCommands: plumb project gate, code-host and badges
// change a project's settings on the database under the API's rules; bad
// input is refused with a message and changes nothing.
func TestProjectSettingsCommands(t *testing.T) {
	ctx := context.Background()
	dbURL := "sqlite:" + filepath.Join(t.TempDir(), "plumb.db")
	cli := func(stdin string, args ...string) (string, string, error) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		err := run(ctx, append(args, "--database", dbURL), envOf(nil), strings.NewReader(stdin), &stdout, &stderr)
		return stdout.String(), stderr.String(), err
	}
	ok := func(stdin string, args ...string) string {
		t.Helper()
		out, errOut, err := cli(stdin, args...)
		if err != nil {
			t.Fatalf("%v: %v %s", args, err, errOut)
		}
		return out
	}
	refused := func(want string, args ...string) {
		t.Helper()
		_, errOut, err := cli("", args...)
		if err == nil || !strings.Contains(err.Error()+errOut, want) {
			t.Fatalf("%v: %v %s; want a refusal saying %q", args, err, errOut, want)
		}
	}
	open := func() *sqlstore.DB {
		t.Helper()
		db, err := sqlstore.Open(ctx, dbURL, sqlstore.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}

	ok("", "workspace", "create", "acme")
	ok("", "project", "create", "acme/lib")
	p, err := open().FindProjectByKeys(ctx, "acme", "lib")
	if err != nil {
		t.Fatal(err)
	}

	// The gate.
	if out := ok("", "project", "gate", "acme/lib"); !strings.Contains(out, "uses the default gate") || !strings.Contains(out, "patchCoverage      80") {
		t.Fatalf("gate: %q", out)
	}
	out := ok("", "project", "gate", "acme/lib", "--set", "patchCoverage=85", "--set", "newIssues=medium:2", "--set", "coverageDrop=off")
	want := "acme/lib uses its own gate:\n  patchCoverage      85\n  coverageDrop       off\n  newIssues          medium:2\n  newSecurityIssues  0\n"
	if out != want {
		t.Fatalf("gate --set:\n%s\nwant:\n%s", out, want)
	}
	refused("patchCoverage must be a percentage from 0 to 100, got 150", "project", "gate", "acme/lib", "--set", "patchCoverage=150")
	refused(`"speed" is not a quality gate condition`, "project", "gate", "acme/lib", "--set", "speed=1")
	refused("advisory names coverageDrop, which is off", "project", "gate", "acme/lib", "--set", "coverageDrop=advisory")
	refused("newIssues must be LEVEL:MAX", "project", "gate", "acme/lib", "--set", "newIssues=high")
	refused("newIssues.level must be one of", "project", "gate", "acme/lib", "--set", "newIssues=urgent:0")
	if out := ok("", "project", "gate", "acme/lib"); out != want {
		t.Fatalf("a refused --set changed the gate:\n%s", out)
	}
	if out := ok("", "project", "gate", "acme/lib", "--set", "newSecurityIssues=advisory"); !strings.Contains(out, "newSecurityIssues  0 (advisory: shown, never fails the gate)\n") {
		t.Fatalf("gate --set newSecurityIssues=advisory: %q", out)
	}
	if out := ok("", "project", "gate", "acme/lib", "--clear"); !strings.Contains(out, "uses the default gate") {
		t.Fatalf("gate --clear: %q", out)
	}

	// The code host: the token from stdin, never printed.
	if out := ok("", "project", "code-host", "acme/lib"); out != "acme/lib has no code host\n" {
		t.Fatalf("code-host: %q", out)
	}
	out = ok("ghp_secret\n", "project", "code-host", "acme/lib", "--kind", "github", "--repository", "acme/lib", "--token-stdin")
	if out != "acme/lib: github acme/lib at https://api.github.com, token stored\n" {
		t.Fatalf("code-host set: %q", out)
	}
	refused("repository must be OWNER/NAME for GitHub", "project", "code-host", "acme/lib", "--kind", "github", "--repository", "lib")
	refused("kind must be github or gitlab", "project", "code-host", "acme/lib", "--kind", "svn", "--repository", "lib")
	refused("a token is required", "project", "code-host", "acme/lib", "--kind", "gitlab", "--repository", "acme/lib")
	if ch, _, _ := open().CodeHost(ctx, p.ID); ch.Token != "ghp_secret" || ch.Repository != "acme/lib" || ch.Kind != "github" {
		t.Fatalf("stored connection %+v", ch)
	}

	// Badges.
	if out := ok("", "project", "badges", "acme/lib", "--public", "on"); out != "badges of acme/lib are public\n" {
		t.Fatalf("badges --public: %q", out)
	}
	secret := strings.TrimSpace(ok("", "project", "badges", "acme/lib", "--token", "create"))
	if valid, err := open().BadgeTokenValid(ctx, p.ID, secret); err != nil || !valid || !strings.HasPrefix(secret, "plbb_") {
		t.Fatalf("badge token %q: %v, %v", secret, valid, err)
	}
	if out := ok("", "project", "badges", "acme/lib", "--token", "revoke"); out != "badge token of acme/lib revoked\n" {
		t.Fatalf("revoke: %q", out)
	}
	refused("has no badge token", "project", "badges", "acme/lib", "--token", "revoke")
	refused("give --public on|off or --token create|revoke", "project", "badges", "acme/lib")
	if public, _ := open().BadgesPublic(ctx, p.ID); !public {
		t.Fatal("badges not public")
	}
}
