package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// The operator lists and removes users, workspaces, members and projects;
// the destructive commands only say what they would delete without --yes.
func TestOperatorCommands(t *testing.T) {
	db := "--database=sqlite:" + filepath.Join(t.TempDir(), "plumb.db")
	must := func(args ...string) string {
		t.Helper()
		out, err := runOut(t, nil, append(args, db)...)
		if err != nil {
			t.Fatalf("plumb %s: %v", strings.Join(args, " "), err)
		}
		return out
	}
	refused := func(want string, args ...string) {
		t.Helper()
		out, err := runOut(t, nil, append(args, db)...)
		if exitCode(err) != 2 || !strings.Contains(err.Error(), want) || out != "" {
			t.Errorf("plumb %s: %v (exit %d), output %q; want a usage error with %q", strings.Join(args, " "), err, exitCode(err), out, want)
		}
	}
	must("user", "create", "alice", "--name", "Alice")
	must("user", "create", "bob")
	must("token", "create", "bob", "--name", "ci")
	must("workspace", "create", "acme")
	must("workspace", "create", "globex")
	must("member", "add", "acme", "alice", "--role", "admin")
	must("member", "add", "acme", "bob")
	must("project", "create", "acme/web")
	must("project", "create", "globex/api")
	must("project", "upload-token", "create", "acme/web", "--name", "ci")

	if out := must("user", "list"); !strings.Contains(out, "LOGIN") || !strings.Contains(out, "alice  Alice") || !strings.Contains(out, "\nbob ") {
		t.Errorf("user list:\n%s", out)
	}
	if out := must("user", "disable", "bob"); !strings.Contains(out, "disabled user bob") {
		t.Errorf("user disable: %q", out)
	}
	if out := must("user", "list"); strings.Count(out, "\n") != 3 || !strings.Contains(strings.Split(out, "\n")[2], "20") {
		t.Errorf("user list after disable:\n%s", out)
	}
	must("user", "enable", "bob")
	if out := must("member", "list", "acme"); !strings.Contains(out, "alice  Alice  admin") || !strings.Contains(out, "bob    -      member") {
		t.Errorf("member list:\n%s", out)
	}
	if out := must("workspace", "list"); !strings.Contains(out, "acme    2        1") || !strings.Contains(out, "globex  0        1") {
		t.Errorf("workspace list:\n%s", out)
	}
	if out := must("project", "list"); !strings.Contains(out, "acme/web") || !strings.Contains(out, "globex/api") {
		t.Errorf("project list:\n%s", out)
	}
	if out := must("project", "list", "globex"); strings.Contains(out, "acme/web") {
		t.Errorf("project list globex:\n%s", out)
	}
	if out := must("project", "rename", "acme/web", "shop"); !strings.Contains(out, "renamed project acme/web to acme/shop") {
		t.Errorf("project rename: %q", out)
	}

	refused("this deletes project acme/shop: 1 project(s), 0 snapshot(s) with 0 issue(s), 0 build(s), 0 coverage upload(s), 0 component(s), 1 upload token(s); nothing was deleted: pass --yes", "project", "delete", "acme/shop")
	refused("this deletes user bob", "user", "delete", "bob")
	refused("this deletes workspace globex", "workspace", "delete", "globex")
	if out := must("project", "list"); !strings.Contains(out, "acme/shop") || !strings.Contains(out, "globex/api") {
		t.Errorf("a refused delete deleted something:\n%s", out)
	}
	if out := must("project", "delete", "acme/shop", "--yes"); !strings.HasPrefix(out, "deleted project acme/shop: 1 project(s)") {
		t.Errorf("project delete: %q", out)
	}
	if out := must("user", "delete", "bob", "--yes"); !strings.Contains(out, "deleted user bob") || !strings.Contains(out, "1 token(s), 1 membership(s)") {
		t.Errorf("user delete: %q", out)
	}
	if out := must("workspace", "delete", "globex", "--yes"); !strings.Contains(out, "deleted workspace globex") {
		t.Errorf("workspace delete: %q", out)
	}
	if out := must("project", "list"); strings.Count(out, "\n") != 1 {
		t.Errorf("projects left:\n%s", out)
	}
	if _, err := runOut(t, nil, "project", "delete", "acme/nope", "--yes", db); exitCode(err) != 1 || !strings.Contains(err.Error(), "not found") {
		t.Errorf("deleting an unknown project: %v", err)
	}
}
