package main

import (
	"strings"
	"testing"
)

// plumb whoami and plumb projects against a running server, on both backends.
func TestWhoamiAndProjects(t *testing.T) {
	onBothBackends(t, func(t *testing.T, e *e2e) {
		e.adminCmd(t, "user", "update", "ada", "--email", "ada@example.com")
		e.adminCmd(t, "workspace", "create", "zeta")
		e.adminCmd(t, "member", "add", "zeta", "ada")
		e.adminCmd(t, "project", "create", "zeta/api", "--default-branch", "trunk")
		e.adminCmd(t, "project", "create", "acme/lib")
		e.adminCmd(t, "workspace", "create", "hidden")
		e.adminCmd(t, "project", "create", "hidden/secret")
		as := func(token string, args ...string) (string, string, int) {
			return e.plumb(t, append(args, "--url", e.url, "--token", token, "--retries", "0")...)
		}

		out, errs, code := as(e.admin, "whoami")
		want := map[string]string{"login": "ada", "name": "Ada", "email": "ada@example.com", "workspaces": "acme, zeta", "server": e.url}
		got := map[string]string{}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			k, v, _ := strings.Cut(line, " ")
			got[k] = strings.TrimSpace(v)
		}
		if code != 0 || len(got) != len(want) {
			t.Fatalf("whoami: exit %d: %q %s", code, out, errs)
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("whoami %s = %q, want %q (output %q)", k, got[k], v, out)
			}
		}
		out, _, code = as(e.member, "whoami")
		if code != 0 || !strings.Contains(out, "email       -") || !strings.Contains(out, "workspaces  acme\n") {
			t.Errorf("whoami as cy: exit %d: %q", code, out)
		}

		out, errs, code = as(e.admin, "projects")
		rows := strings.Split(strings.TrimSpace(out), "\n")
		if code != 0 || len(rows) != 4 || strings.Fields(rows[0])[0] != "PROJECT" {
			t.Fatalf("projects: exit %d: %q %s", code, out, errs)
		}
		var names []string
		for _, r := range rows[1:] {
			f := strings.Fields(r)
			if len(f) != 3 || len(f[2]) != 36 {
				t.Fatalf("projects row %q", r)
			}
			names = append(names, f[0]+"@"+f[1])
		}
		if strings.Join(names, " ") != "acme/lib@main acme/web@main zeta/api@trunk" {
			t.Errorf("projects: %v", names)
		}
		out, _, code = as(e.admin, "projects", "zeta")
		if rows := strings.Split(strings.TrimSpace(out), "\n"); code != 0 || len(rows) != 2 || !strings.HasPrefix(rows[1], "zeta/api ") {
			t.Errorf("projects zeta: exit %d: %q", code, out)
		}
		// a workspace the user cannot see is unknown; a bad token is refused
		if out, errs, code := as(e.admin, "projects", "hidden"); code != exitRefused || !strings.Contains(errs, "404") {
			t.Errorf("projects hidden: exit %d: %s%s", code, out, errs)
		}
		if out, errs, code := as("plb_nope", "whoami"); code != exitRefused || !strings.Contains(errs, "401") {
			t.Errorf("whoami with a bad token: exit %d: %s%s", code, out, errs)
		}
		if out, errs, code := e.plumb(t, "whoami", "--url", e.url); code != 2 || !strings.Contains(errs, "no token") {
			t.Errorf("whoami without a token: exit %d: %s%s", code, out, errs)
		}
	})
}
