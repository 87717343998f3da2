package sqlstore

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/sqlstore/sqltest"
)

// The tables that hold a project_id.
var projectTables = []string{"snapshots", "builds", "issue_states", "paths", "components", "coverage_uploads", "coverage_files",
	"coverage_union", "coverage_totals", "commit_component_coverage", "upload_tokens", "idempotency_keys", "project_admins", "application_projects"}

// projectRows counts each project table's rows of the project (mine) and of
// the others.
func projectRows(t *testing.T, db *DB, projectID string) (mine, others map[string]int) {
	t.Helper()
	mine, others = map[string]int{}, map[string]int{}
	for _, table := range projectTables {
		var m, o int
		dCheck(t, db.read.QueryRow(`SELECT (SELECT count(*) FROM `+table+` WHERE project_id = $1), (SELECT count(*) FROM `+table+` WHERE project_id <> $1)`,
			projectID).Scan(&m, &o))
		mine[table], others[table] = m, o
	}
	return mine, others
}

func countRows(t *testing.T, db *DB, query string, args ...any) int {
	t.Helper()
	var n int
	dCheck(t, db.read.QueryRow(query, args...).Scan(&n))
	return n
}

// Deleting a project removes all of its data in one transaction and nothing
// of the others'; without confirmation (dry run) it only counts.
func TestDeleteProject(t *testing.T) {
	ctx := context.Background()
	db := liveDatabase(t, sqltest.DSN(t), 7)
	bEnrich(t, db)
	_, _, err := db.CreateUploadToken(ctx, "globex/api", "ci", "cli")
	dCheck(t, err)
	w, err := findWorkspaceAny(ctx, db.read, "globex")
	dCheck(t, err)
	p, err := db.FindProject(ctx, w.ID, "api")
	dCheck(t, err)
	mine, others := projectRows(t, db, p.ID)
	if mine["snapshots"] == 0 || mine["builds"] == 0 || mine["coverage_uploads"] == 0 || mine["components"] == 0 || mine["upload_tokens"] == 0 {
		t.Fatalf("the fixture project has too little data: %v", mine)
	}
	before := dExport(t, db)

	d, err := db.DeleteProject(ctx, "globex/api", true)
	dCheck(t, err)
	if d.Projects != 1 || d.Snapshots != mine["snapshots"] || d.Builds != mine["builds"] || d.CoverageUploads != mine["coverage_uploads"] ||
		d.Components != mine["components"] || d.UploadTokens != mine["upload_tokens"] || d.Issues == 0 {
		t.Errorf("dry run counted %+v; the project has %v", d, mine)
	}
	dSame(t, "after a dry run", dExport(t, db), before)

	issuesLeft := countRows(t, db, `SELECT count(*) FROM issues i JOIN snapshots s ON s.seq = i.snapshot_seq WHERE s.project_id <> $1`, p.ID)
	if _, err := db.DeleteProject(ctx, "globex/api", false); err != nil {
		t.Fatal(err)
	}
	gone, kept := projectRows(t, db, p.ID)
	for _, table := range projectTables {
		if gone[table] != 0 || kept[table] != others[table] {
			t.Errorf("%s: %d rows of the deleted project left, %d of the others (want 0 and %d)", table, gone[table], kept[table], others[table])
		}
	}
	if n := countRows(t, db, `SELECT count(*) FROM issues`); n != issuesLeft {
		t.Errorf("%d issues left, want the other projects' %d", n, issuesLeft)
	}
	if n := countRows(t, db, `SELECT count(*) FROM build_events e WHERE NOT EXISTS (SELECT 1 FROM builds b WHERE b.id = e.build_id)`); n != 0 {
		t.Errorf("%d build events of deleted builds", n)
	}
	if _, err := db.DeleteProject(ctx, "globex/api", false); plumb.ErrorCode(err) != plumb.ENOTFOUND {
		t.Errorf("deleting it again: %v, want not found", err)
	}
	// What is left exports and imports (nothing dangles).
	fresh := dOpenDSN(t, sqltest.DSN(t), nil)
	dCheck(t, fresh.Import(ctx, bytes.NewReader(dExport(t, db))))
}

// Deleting a workspace removes its projects and their data, members and
// applications; users stay.
func TestDeleteWorkspace(t *testing.T) {
	ctx := context.Background()
	db := liveDatabase(t, sqltest.DSN(t), 7)
	bEnrich(t, db)
	users := countRows(t, db, `SELECT count(*) FROM users`)
	w, d, err := db.DeleteWorkspace(ctx, "GLOBEX", true)
	dCheck(t, err)
	if w.Key != "Globex" || d.Projects != 1 || d.Snapshots == 0 {
		t.Errorf("dry run: %v %+v", w.Key, d)
	}
	if _, _, err := db.DeleteWorkspace(ctx, "globex", false); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`SELECT count(*) FROM workspaces WHERE id = $1`, `SELECT count(*) FROM projects WHERE workspace_id = $1`,
		`SELECT count(*) FROM workspace_members WHERE workspace_id = $1`, `SELECT count(*) FROM applications WHERE workspace_id = $1`} {
		if n := countRows(t, db, q, w.ID); n != 0 {
			t.Errorf("%s: %d left", q, n)
		}
	}
	if n := countRows(t, db, `SELECT count(*) FROM users`); n != users {
		t.Errorf("%d users, want %d", n, users)
	}
	ws, err := db.ListWorkspaces(ctx)
	dCheck(t, err)
	if len(ws) != 1 || ws[0].Key != "acme" || ws[0].Projects == 0 || ws[0].Members == 0 {
		t.Errorf("workspaces left: %+v", ws)
	}
}

// A disabled user's tokens and sessions are refused until they are enabled
// again; deleting a user removes their tokens, memberships and roles.
func TestDisableAndDeleteUser(t *testing.T) {
	ctx := context.Background()
	db := dOpen(t, "users", nil)
	_, err := db.CreateUser(ctx, "carol", "Carol")
	dCheck(t, err)
	_, secret, err := db.CreateToken(ctx, "carol", "laptop")
	dCheck(t, err)
	_, err = db.CreateWorkspace(ctx, plumb.WorkspaceInput{Key: "acme"})
	dCheck(t, err)
	dCheck(t, db.AddMember(ctx, "acme", "carol", "admin"))
	_, err = db.CreateProject(ctx, plumb.ProjectInput{Workspace: "acme", Key: "web"})
	dCheck(t, err)
	dCheck(t, db.AddProjectAdmin(ctx, "acme/web", "carol"))
	u, _, err := db.Authenticate(ctx, secret)
	dCheck(t, err)
	_, err = db.CreateSession(ctx, u.ID, "h1", "password", "test", time.Hour)
	dCheck(t, err)

	_, err = db.SetUserDisabled(ctx, "CAROL", true)
	dCheck(t, err)
	if _, _, err := db.Authenticate(ctx, secret); plumb.ErrorCode(err) != plumb.EUNAUTHORIZED || !strings.Contains(err.Error(), "disabled") {
		t.Errorf("a disabled user's token: %v", err)
	}
	if _, _, err := db.SessionUser(ctx, "h1"); plumb.ErrorCode(err) != plumb.EUNAUTHORIZED {
		t.Errorf("a disabled user's session: %v", err)
	}
	if _, err := db.CreateSession(ctx, u.ID, "h2", "password", "test", time.Hour); plumb.ErrorCode(err) != plumb.EUNAUTHORIZED {
		t.Errorf("a new session for a disabled user: %v", err)
	}
	list, err := db.ListUsers(ctx)
	dCheck(t, err)
	if len(list) != 1 || list[0].DisabledAt == nil || list[0].Tokens != 1 || list[0].Workspaces != 1 {
		t.Errorf("users: %+v", list)
	}
	// A disabled user survives export and import.
	fresh := dOpenDSN(t, sqltest.DSN(t), nil)
	dCheck(t, fresh.Import(ctx, bytes.NewReader(dExport(t, db))))
	if _, _, err := fresh.Authenticate(ctx, secret); plumb.ErrorCode(err) != plumb.EUNAUTHORIZED {
		t.Errorf("after import, a disabled user's token: %v", err)
	}

	_, err = db.SetUserDisabled(ctx, "carol", false)
	dCheck(t, err)
	if _, _, err := db.Authenticate(ctx, secret); err != nil {
		t.Errorf("enabled again: %v", err)
	}
	if _, _, err := db.SessionUser(ctx, "h1"); err != nil {
		t.Errorf("enabled again, the session: %v", err)
	}

	d, err := db.DeleteUser(ctx, "carol", false)
	dCheck(t, err)
	if d.Tokens != 1 || d.Memberships != 1 || d.Admins != 1 || d.Sessions != 1 {
		t.Errorf("deleted %+v", d)
	}
	for _, table := range []string{"users", "tokens", "workspace_members", "project_admins", "sessions"} {
		if n := countRows(t, db, `SELECT count(*) FROM `+table); n != 0 {
			t.Errorf("%s: %d rows left", table, n)
		}
	}
	if _, _, err := db.Authenticate(ctx, secret); plumb.ErrorCode(err) != plumb.EUNAUTHORIZED {
		t.Errorf("a deleted user's token: %v", err)
	}
}

// Renaming a project keeps its id and data; the new key must be free and
// valid.
func TestRenameProject(t *testing.T) {
	ctx := context.Background()
	db := liveDatabase(t, sqltest.DSN(t), 7)
	bEnrich(t, db)
	before, err := db.ListProjects(ctx, "acme")
	dCheck(t, err)
	p, err := db.RenameProject(ctx, "acme/web", "storefront")
	dCheck(t, err)
	after, err := db.ListProjects(ctx, "")
	dCheck(t, err)
	snapshots := map[string]int{}
	for _, r := range before {
		snapshots[r.ID] = r.Snapshots
	}
	var found bool
	for _, r := range after {
		if r.ID == p.ID {
			found = r.Key == "storefront" && r.Workspace == "acme" && r.Snapshots == snapshots[p.ID] && r.Snapshots > 0
		}
	}
	if !found || len(after) != 2 {
		t.Errorf("projects after the rename: %+v", after)
	}
	w, _ := findWorkspaceAny(ctx, db.read, "acme")
	if _, err := db.FindProject(ctx, w.ID, "web"); plumb.ErrorCode(err) != plumb.ENOTFOUND {
		t.Errorf("the old key: %v", err)
	}
	if _, err := db.RenameProject(ctx, "acme/storefront", "no spaces"); plumb.ErrorCode(err) != plumb.EINVALID {
		t.Errorf("an invalid key: %v", err)
	}
	_, err = db.CreateProject(ctx, plumb.ProjectInput{Workspace: "acme", Key: "taken"})
	dCheck(t, err)
	if _, err := db.RenameProject(ctx, "acme/storefront", "TAKEN"); plumb.ErrorCode(err) != plumb.ECONFLICT {
		t.Errorf("a key in use: %v", err)
	}
	members, err := db.ListMembers(ctx, "acme")
	dCheck(t, err)
	if len(members) == 0 || members[0].Role == "" {
		t.Errorf("members: %+v", members)
	}
}
