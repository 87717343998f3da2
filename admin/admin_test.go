package admin_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/admin"
	"github.com/plumbhq/plumb/codehost"
	"github.com/plumbhq/plumb/sqlstore"
	"github.com/plumbhq/plumb/sqlstore/sqltest"
)

func TestMain(m *testing.M) { os.Exit(sqltest.Run(m)) }

// newAdmin opens a fresh store of the current backend; out collects what
// the actions print, notes the notes for people.
func newAdmin(t *testing.T) (a *admin.Admin, out, notes *bytes.Buffer) {
	t.Helper()
	db, err := sqlstore.Open(context.Background(), sqltest.DSN(t), sqlstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	out, notes = &bytes.Buffer{}, &bytes.Buffer{}
	return &admin.Admin{DB: db, Out: out, Notes: notes}, out, notes
}

// isUsage reports whether err is a usage error (exit status 2) saying want.
func isUsage(err error, want string) bool {
	var ue admin.UsageError
	return errors.As(err, &ue) && ue.ExitCode() == 2 && strings.Contains(ue.Msg, want)
}

// must fails the test on err, and returns (and forgets) what was printed.
func must(t *testing.T, out *bytes.Buffer, err error) string {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	s := out.String()
	out.Reset()
	return s
}

func TestOperatorActions(t *testing.T) {
	ctx := context.Background()
	a, out, _ := newAdmin(t)
	name := "Ada"
	if got := must(t, out, a.UserCreate(ctx, "ada", plumb.UserProfile{Name: &name})); !strings.HasPrefix(got, "created user ada (") {
		t.Fatalf("user create: %q", got)
	}
	if err := a.UserUpdate(ctx, "ada", plumb.UserProfile{}); !isUsage(err, "needs at least one of") {
		t.Fatalf("an empty update: %v", err)
	}
	got := must(t, out, a.TokenCreate(ctx, "ada", "laptop"))
	secret := strings.TrimSpace(got[strings.LastIndex(strings.TrimSpace(got), "\n")+1:])
	if u, _, err := a.DB.Authenticate(ctx, secret); err != nil || u.Login != "ada" {
		t.Fatalf("the printed token does not authenticate ada: %v %+v (%q)", err, u, got)
	}
	if list := must(t, out, a.TokenList(ctx, "ada")); !strings.Contains(list, "laptop") || strings.Contains(list, secret) {
		t.Fatalf("token list (the secret is never listed): %q", list)
	}
	must(t, out, a.WorkspaceCreate(ctx, plumb.WorkspaceInput{Key: "acme"}))
	if got := must(t, out, a.MemberAdd(ctx, "acme", "ada", "admin")); got != "ada is admin of acme\n" {
		t.Fatalf("member add: %q", got)
	}
	if got := must(t, out, a.ProjectCreate(ctx, "acme/lib", "main", true)); !strings.Contains(got, "default branch main, components on") {
		t.Fatalf("project create: %q", got)
	}
	if err := a.ProjectCreate(ctx, "lib", "main", false); !isUsage(err, "WORKSPACE/KEY") {
		t.Fatalf("a project without its workspace: %v", err)
	}
	if list := must(t, out, a.ProjectList(ctx, "acme")); !strings.Contains(list, "acme/lib") || !strings.Contains(list, "main") {
		t.Fatalf("project list: %q", list)
	}

	// Destructive actions without confirmation say what they would delete
	// and delete nothing.
	if err := a.ProjectDelete(ctx, "acme/lib", false); !isUsage(err, "pass --yes to delete") || !isUsage(err, "project acme/lib") {
		t.Fatalf("delete without --yes: %v", err)
	}
	if _, err := a.DB.FindProjectByKeys(ctx, "acme", "lib"); err != nil {
		t.Fatalf("an unconfirmed delete removed the project: %v", err)
	}
	if err := a.UserDelete(ctx, "ada", false); !isUsage(err, "1 token(s), 1 membership(s)") {
		t.Fatalf("user delete without --yes: %v", err)
	}
	if got := must(t, out, a.ProjectDelete(ctx, "acme/lib", true)); !strings.HasPrefix(got, "deleted project acme/lib") {
		t.Fatalf("delete: %q", got)
	}
	if _, err := a.DB.FindProjectByKeys(ctx, "acme", "lib"); plumb.ErrorCode(err) != plumb.ENOTFOUND {
		t.Fatalf("the deleted project is still found: %v", err)
	}
	must(t, out, a.UserDisable(ctx, "ada", true))
	if _, _, err := a.DB.Authenticate(ctx, secret); err == nil {
		t.Fatal("a disabled user's token still authenticates")
	}
}

func TestProjectSettings(t *testing.T) {
	ctx := context.Background()
	a, out, notes := newAdmin(t)
	must(t, out, a.WorkspaceCreate(ctx, plumb.WorkspaceInput{Key: "acme"}))
	must(t, out, a.ProjectCreate(ctx, "acme/lib", "main", false))
	p, err := a.DB.FindProjectByKeys(ctx, "acme", "lib")
	if err != nil {
		t.Fatal(err)
	}

	// The gate: conditions changed on the default, refusals change nothing.
	got := must(t, out, a.ProjectGate(ctx, "acme/lib", []string{"patchCoverage=90", "newSecurityIssues=off"}, false))
	want := "acme/lib uses its own gate:\n  patchCoverage      90\n  coverageDrop       1\n  newIssues          high:0\n  newSecurityIssues  off\n"
	if g, _, _ := a.DB.Gate(ctx, p.ID); got != want || g.NewSecurityIssues != nil || g.PatchCoverage == nil || *g.PatchCoverage != 90 {
		t.Fatalf("gate --set:\n%s\nwant\n%s(stored %+v)", got, want, g)
	}
	for sets, why := range map[string]string{
		"patchCoverage=x":     "patchCoverage must be a number, off, advisory or blocking",
		"newIssues=high":      "newIssues must be LEVEL:MAX",
		"speed=1":             `"speed" is not a quality gate condition`,
		"patchCoverage=101":   "patchCoverage must be a percentage",
		"newSecurityIssues=a": "newSecurityIssues must be a whole number",
		"speed=advisory":      `"speed" is not a quality gate condition`,
	} {
		if err := a.ProjectGate(ctx, "acme/lib", []string{"coverageDrop=5", sets}, false); !isUsage(err, why) {
			t.Errorf("--set %s: %v, want a usage error saying %q", sets, err, why)
		}
	}
	if got := must(t, out, a.ProjectGate(ctx, "acme/lib", nil, false)); got != want {
		t.Fatalf("a refused --set changed the gate:\n%s", got)
	}
	// Advisory conditions: shown as such, stored, made blocking again; an
	// advisory condition turned off is no longer advisory.
	got = must(t, out, a.ProjectGate(ctx, "acme/lib", []string{"coverageDrop=advisory", "newIssues=advisory", "newIssues=blocking", "patchCoverage=advisory"}, false))
	advisory := " (advisory: shown, never fails the gate)"
	want = "acme/lib uses its own gate:\n  patchCoverage      90" + advisory + "\n  coverageDrop       1" + advisory + "\n  newIssues          high:0\n  newSecurityIssues  off\n"
	if g, _, _ := a.DB.Gate(ctx, p.ID); got != want || !slices.Equal(g.Advisory, []string{"coverageDrop", "patchCoverage"}) {
		t.Fatalf("gate --set advisory:\n%s\nwant\n%s(stored %+v)", got, want, g.Advisory)
	}
	if err := a.ProjectGate(ctx, "acme/lib", []string{"newSecurityIssues=advisory"}, false); !isUsage(err, "advisory names newSecurityIssues, which is off") {
		t.Fatalf("an off condition made advisory: %v", err)
	}
	must(t, out, a.ProjectGate(ctx, "acme/lib", []string{"coverageDrop=off", "coverageDrop=2"}, false))
	if g, _, _ := a.DB.Gate(ctx, p.ID); !slices.Equal(g.Advisory, []string{"patchCoverage"}) || g.CoverageDrop == nil || *g.CoverageDrop != 2 {
		t.Fatalf("coverageDrop off then on: advisory %v, drop %v", g.Advisory, g.CoverageDrop)
	}
	if err := a.ProjectGate(ctx, "acme/lib", []string{"patchCoverage=1"}, true); !isUsage(err, "not both") {
		t.Fatalf("--set with --clear: %v", err)
	}
	if got := must(t, out, a.ProjectGate(ctx, "acme/lib", nil, true)); !strings.HasPrefix(got, "acme/lib uses the default gate:") {
		t.Fatalf("gate --clear: %q", got)
	}
	if err := a.ProjectGate(ctx, "acme", nil, false); !isUsage(err, `the project must be WORKSPACE/KEY, got "acme"`) {
		t.Fatalf("a malformed project: %v", err)
	}

	// The code host: the stored token is kept when none is given, never
	// printed; a refused connection stores nothing.
	if got := must(t, out, a.ProjectCodeHost(ctx, "acme/lib", nil, nil)); got != "acme/lib has no code host\n" {
		t.Fatalf("code-host: %q", got)
	}
	if err := a.ProjectCodeHost(ctx, "acme/lib", &codehost.Target{Kind: codehost.GitLab, Repository: "acme/lib"}, nil); !isUsage(err, "a token is required") {
		t.Fatalf("no token: %v", err)
	}
	if _, found, _ := a.DB.CodeHost(ctx, p.ID); found {
		t.Fatal("a refused connection was stored")
	}
	got = must(t, out, a.ProjectCodeHost(ctx, "acme/lib", &codehost.Target{Kind: codehost.GitLab, Repository: "acme/lib", Token: "glpat-1"}, nil))
	if got != "acme/lib: gitlab acme/lib at https://gitlab.com, token stored\n" {
		t.Fatalf("code-host set: %q", got)
	}
	must(t, out, a.ProjectCodeHost(ctx, "acme/lib", &codehost.Target{Kind: codehost.GitLab, Repository: "acme/other"}, nil))
	if ch, _, _ := a.DB.CodeHost(ctx, p.ID); ch.Token != "glpat-1" || ch.Repository != "acme/other" {
		t.Fatalf("the token was not kept: %+v", ch)
	}

	// Badges: the token printed once on Out, the note on Notes.
	if got := must(t, out, a.ProjectBadgesPublic(ctx, "acme/lib", true)); got != "badges of acme/lib are public\n" {
		t.Fatalf("badges --public on: %q", got)
	}
	if on, _ := a.DB.BadgesPublic(ctx, p.ID); !on {
		t.Fatal("badges not public")
	}
	secret := strings.TrimSpace(must(t, out, a.ProjectBadgeToken(ctx, "acme/lib", true)))
	if ok, err := a.DB.BadgeTokenValid(ctx, p.ID, secret); err != nil || !ok {
		t.Fatalf("the printed badge token is not valid: %v", err)
	}
	if !strings.Contains(notes.String(), "shown once") {
		t.Fatalf("notes: %q", notes)
	}
	if got := must(t, out, a.ProjectBadgeToken(ctx, "acme/lib", false)); got != "badge token of acme/lib revoked\n" {
		t.Fatalf("revoke: %q", got)
	}
	if ok, _ := a.DB.BadgeTokenValid(ctx, p.ID, secret); ok {
		t.Fatal("a revoked badge token is still valid")
	}
	if err := a.ProjectBadgeToken(ctx, "acme/lib", false); plumb.ErrorCode(err) != plumb.ENOTFOUND {
		t.Fatalf("revoking no token: %v, want ENOTFOUND", err)
	}
}

func TestExportImport(t *testing.T) {
	ctx := context.Background()
	a, out, _ := newAdmin(t)
	must(t, out, a.WorkspaceCreate(ctx, plumb.WorkspaceInput{Key: "acme"}))
	must(t, out, a.ProjectCreate(ctx, "acme/lib", "trunk", false))

	file := filepath.Join(t.TempDir(), "plumb.json")
	if got := must(t, out, a.Export(ctx, file, false)); !strings.HasPrefix(got, "exported the dataset to "+file) {
		t.Fatalf("export: %q", got)
	}
	if st, err := os.Stat(file); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the export file is not its owner's only: %v %v", st.Mode(), err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(file), ".*.tmp")); len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
	if err := a.Import(ctx, file, nil); err == nil {
		t.Fatal("an import into a database with data was accepted")
	}

	b, bout, _ := newAdmin(t)
	if got := must(t, bout, b.Import(ctx, file, nil)); !strings.HasPrefix(got, "imported ") {
		t.Fatalf("import: %q", got)
	}
	if p, err := b.DB.FindProjectByKeys(ctx, "acme", "lib"); err != nil || p.DefaultBranch != "trunk" {
		t.Fatalf("the imported project: %+v %v", p, err)
	}

	// To Out ("-"): the same document.
	doc := must(t, out, a.Export(ctx, "-", false))
	c, _, _ := newAdmin(t)
	if err := c.Import(ctx, "-", strings.NewReader(doc)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DB.FindProjectByKeys(ctx, "acme", "lib"); err != nil {
		t.Fatalf("the project exported to Out: %v", err)
	}
	d, _, _ := newAdmin(t)
	if err := d.Import(ctx, "-", strings.NewReader("{not json")); plumb.ErrorCode(err) != plumb.EINVALID {
		t.Fatalf("a broken document: %v, want EINVALID", err)
	}
}
