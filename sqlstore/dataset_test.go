package sqlstore

// Tests of Export and Import on every backend (SQLite, and PostgreSQL when
// configured: see sqltest; backends_test.go moves data between the two). The
// SQL here is shared by both backends, except where noted. The central checks
// are round trips: a document (hand-built, the demo, or a database built
// through the live write paths) is imported, exported, imported into a
// second database and exported again; both exports must be identical, equal
// to the canonical form of the input, and the derived tables (file versions,
// component totals, coverage unions and totals) of both databases must be
// the same rows.

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/dataset"
	"github.com/plumbhq/plumb/dataset/datasettest"
	"github.com/plumbhq/plumb/demo"
	"github.com/plumbhq/plumb/sqlstore/sqltest"
)

var dT0 = datasettest.T0

// dOpen opens a fresh database of the current backend (see sqltest.DSN).
func dOpen(t testing.TB, name string, now func() time.Time) *DB {
	t.Helper()
	return dOpenDSN(t, sqltest.DSN(t), now)
}

// dOpenDSN opens the database at dsn, closed when t ends.
func dOpenDSN(t testing.TB, dsn string, now func() time.Time) *DB {
	t.Helper()
	if now == nil {
		now = func() time.Time { return dT0.AddDate(0, 6, 0) }
	}
	db, err := Open(context.Background(), dsn, Options{Now: now})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func dCheck(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%v", err)
	}
}

// The records of datasettest.Rich, by kind and number.
func did(kind, n int) string { return datasettest.ID(kind, n) }

const (
	kUser        = datasettest.User
	kToken       = datasettest.Token
	kWorkspace   = datasettest.Workspace
	kProject     = datasettest.Project
	kApplication = datasettest.Application
	kBuild       = datasettest.Build
	kSnapshot    = datasettest.Snapshot
	kIssue       = datasettest.Issue
	kCoverage    = datasettest.Coverage
	kComponent   = datasettest.Component
	kUploadToken = datasettest.UploadToken
)

// richDoc is a new copy of datasettest.Rich.
func richDoc() *dataset.Document { return datasettest.Rich() }

func ip(v int) *int               { return &v }
func sp(v string) *string         { return &v }
func tp(v time.Time) *time.Time   { return &v }
func day(n float64) time.Duration { return time.Duration(n * float64(24*time.Hour)) }

func dExport(t testing.TB, db *DB) []byte {
	t.Helper()
	var buf bytes.Buffer
	dCheck(t, db.Export(context.Background(), &buf))
	return buf.Bytes()
}

func dEncode(t testing.TB, doc *dataset.Document) []byte {
	t.Helper()
	var buf bytes.Buffer
	dCheck(t, dataset.Encode(&buf, doc))
	return buf.Bytes()
}

// dSame reports the first differing line of two documents.
func dSame(t *testing.T, label string, got, want []byte) {
	t.Helper()
	if bytes.Equal(got, want) {
		return
	}
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			t.Fatalf("%s: documents differ at line %d (of %d and %d):\n got: %.400s\nwant: %.400s", label, i+1, len(g), len(w), gl, wl)
		}
	}
	t.Fatalf("%s: documents differ", label)
}

// roundTrip imports doc into a fresh database, exports it, imports the
// export into a second database and exports that; it checks the two exports
// are identical and the derived tables equal, and returns the first export.
func roundTrip(t *testing.T, doc *dataset.Document) []byte {
	t.Helper()
	ctx := context.Background()
	db1 := dOpen(t, "one", nil)
	dCheck(t, db1.ImportDocument(ctx, doc))
	e1 := dExport(t, db1)
	dReimport(t, db1, e1)
	return e1
}

// dReimport imports export, an export of from, into a fresh database, and
// checks that the copy exports the same bytes and has the same derived
// tables; it returns the copy.
func dReimport(t *testing.T, from *DB, export []byte) *DB {
	t.Helper()
	db := dOpen(t, "copy", nil)
	dCheck(t, db.Import(context.Background(), bytes.NewReader(export)))
	dSame(t, "export of the copy vs export of the original", dExport(t, db), export)
	dSameState(t, db, from)
	return db
}

func TestDatasetRoundTripHandBuilt(t *testing.T) {
	doc := richDoc()
	e1 := roundTrip(t, doc)
	dSame(t, "export vs canonical input", e1, dEncode(t, dataset.Canonical(doc)))

	// Spot checks of the rules, on the export itself.
	got, err := dataset.Decode(bytes.NewReader(e1))
	dCheck(t, err)
	byID := map[string]dataset.Snapshot{}
	for _, s := range got.Snapshots {
		byID[s.ID] = s
	}
	paths := func(s dataset.Snapshot) []string {
		out := []string{}
		for _, f := range s.Files {
			out = append(out, f.Path)
		}
		return out
	}
	for _, c := range []struct {
		n              int
		files, removed []string
	}{
		{1, []string{"a.go", "b.go", "c.go", "lib/x.go"}, []string{}},
		{2, []string{}, []string{}},                                   // another branch
		{3, []string{"b.go", "d.go"}, []string{"c.go"}},               // a.go's issue figures changed only
		{4, []string{}, []string{}},                                   // a.go listed unchanged
		{5, []string{"a.go", "b.go", "d.go", "lib/x.go"}, []string{}}, // older than the current one: in the history at its time, whole (fullTree)
		{6, []string{"c.go"}, []string{"lib/x.go"}},
	} {
		s := byID[did(kSnapshot, c.n)]
		if !reflect.DeepEqual(paths(s), c.files) || !reflect.DeepEqual(s.Removed, c.removed) {
			t.Errorf("snapshot %d: files %v removed %v, want %v %v", c.n, paths(s), s.Removed, c.files, c.removed)
		}
	}
	cov := got.Coverage
	if len(cov[0].Files) != 3 || !reflect.DeepEqual(cov[0].Files[0], dataset.CoverageFile{Path: "a.go", Hits: []int64{3, 0, 3, 0}}) ||
		len(cov[1].Files) != 0 || len(cov[4].Files) != 0 || cov[2].CoverageTag != "default" {
		t.Errorf("coverage not merged into the first upload of each commit and tag: %+v", cov)
	}
	if got.Users[0].ID != did(kUser, 1) || got.Users[1].ID != did(kUser, 2) || got.Users[2].ID != did(kUser, 4) {
		t.Errorf("users not in created_at, id order: %+v", got.Users)
	}
	if got.Workspaces[0].Key != "acme" || got.Projects[0].Key != "API" || got.Applications[0].Name != "admin" {
		t.Errorf("workspaces, projects or applications out of order")
	}
	if !bytes.Contains(e1, []byte(`"message":"Fix <a1> & more"`)) || !bytes.Contains(e1, []byte(`"createdAt":"2026-01-05T09:00:00Z"`)) {
		t.Errorf("HTML characters escaped or times not in UTC")
	}
}

// The layout is json.Marshal's output of the same document, plus line feeds.
func TestDatasetLayoutIsMarshal(t *testing.T) {
	doc := dataset.Canonical(richDoc())
	out := dEncode(t, doc)
	var compact bytes.Buffer
	dCheck(t, json.Compact(&compact, out))
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	dCheck(t, enc.Encode(doc))
	if compact.String()+"\n" != want.String() {
		t.Fatalf("compacted layout differs from json.Marshal:\n%s\n%s", compact.String(), want.String())
	}
	// One record per line: every user, token, … starts its own line.
	for _, s := range []string{"\n{\"id\":\"" + did(kUser, 1), "\n{\"path\":\"a.go\"", "\n{\"id\":\"" + did(kIssue, 1), "\n\"components\":[",
		"\n{\"id\":\"" + did(kUploadToken, 1), "\n{\"buildId\":\"" + did(kBuild, 1) + "\",\"seq\":1,", "\n{\"projectId\":\"" + did(kProject, 1) + "\",\"key\":\"ci-run-1\"",
		"],\n\"idempotencyKeys\":[\n"} {
		if !bytes.Contains(out, []byte(s)) {
			t.Errorf("layout lacks %q", s)
		}
	}
	if bytes.Contains(out, []byte("\n\n")) || !bytes.HasSuffix(out, []byte("]}\n")) {
		t.Errorf("layout has an empty line or a wrong ending")
	}
	// Decoding and encoding again is the identity.
	back, err := dataset.Decode(bytes.NewReader(out))
	dCheck(t, err)
	if again := dEncode(t, back); !bytes.Equal(again, out) {
		t.Errorf("decode → encode changes the document")
	}
}

func TestDatasetRoundTripDemo(t *testing.T) {
	doc := demo.Generate(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC), "plb_testtoken0123456789abcdefghijklmnopqrstu")
	e1 := roundTrip(t, &doc)
	dSame(t, "export vs canonical demo", e1, dEncode(t, dataset.Canonical(&doc)))
}

// A database built through the live write paths (components created before,
// between and after snapshots and coverage; statuses carried by
// fingerprint) exports a document that rebuilds the same database.
func TestDatasetRoundTripLive(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) { liveRoundTrip(t, seed) })
	}
}

func liveRoundTrip(t *testing.T, seed uint64) {
	db := liveDatabase(t, sqltest.DSN(t), seed)
	e0 := dExport(t, db)
	dReimport(t, db, e0)
	// The export is canonical: canonicalising it changes nothing.
	doc, err := dataset.Decode(bytes.NewReader(e0))
	dCheck(t, err)
	dSame(t, "canonical form of the export", dEncode(t, dataset.Canonical(doc)), e0)
}

// liveDatabase opens the database at dsn and fills it through the live write
// paths with a seeded random history of one project: snapshots of the
// default branch (changes, removals, full trees, out-of-order analyses) and
// of a feature branch, builds, coverage uploads reaching commits by branch,
// tag or feature branch, and components created before, during and after.
func liveDatabase(t *testing.T, dsn string, seed uint64) *DB {
	t.Helper()
	ctx := context.Background()
	now := dT0
	clock := func() time.Time { return now }
	db := dOpenDSN(t, dsn, clock)
	u, err := db.CreateUser(ctx, "alice", "Alice")
	dCheck(t, err)
	_, _, err = db.CreateToken(ctx, "alice", "laptop")
	dCheck(t, err)
	_, err = db.CreateWorkspace(ctx, plumb.WorkspaceInput{Key: "acme", ApplicationsEnabled: true})
	dCheck(t, err)
	dCheck(t, db.AddMember(ctx, "acme", "alice", "admin"))
	p, err := db.CreateProject(ctx, plumb.ProjectInput{Workspace: "acme", Key: "web", ComponentsEnabled: true})
	dCheck(t, err)
	dCheck(t, db.AddProjectAdmin(ctx, "acme/web", "alice"))
	a, err := db.CreateApplication(ctx, p.WorkspaceID, "Shop", "")
	dCheck(t, err)
	dCheck(t, db.AddApplicationProject(ctx, "acme", a.ID, "web"))

	r := rand.New(rand.NewPCG(seed, 11))
	pool := []string{"src/a.go", "src/b.go", "src/c/d.go", "docs/x.md", "README.md", "lib/u.go", "go.mod"}
	tree := map[string]bool{}
	var commits []string
	n := 0
	sha := func() string { n++; return fmt.Sprintf("%040x", n*7919+13) }
	component := func(name string, globs ...string) {
		_, err := db.CreateComponent(ctx, plumb.Component{ProjectID: p.ID, Name: name, PathGlobs: globs, CreatorID: u.ID})
		dCheck(t, err)
	}
	component("early", "src/*")
	for step := 0; step < 120; step++ {
		now = now.Add(time.Duration(r.IntN(30)+1) * time.Hour)
		if step == 60 {
			component("middle", "*.md", "lib/*")
			_, err := db.write.ExecContext(ctx, `INSERT INTO issue_states (project_id, fingerprint, status) VALUES ($1, 'fp1', 'ignored')
				ON CONFLICT (project_id, fingerprint) DO UPDATE SET status = 'ignored'`, p.ID)
			dCheck(t, err)
		}
		switch k := r.IntN(10); {
		case k < 5:
			in := plumb.SnapshotInput{ProjectID: p.ID, Branch: "main", CommitSHA: sha(), AnalyzedAt: now, FullTree: r.IntN(6) == 0}
			for _, path := range pool {
				if r.IntN(3) == 0 || in.FullTree && r.IntN(2) == 0 {
					lines := int64(r.IntN(100) + 1)
					in.Files = append(in.Files, plumb.FileFigures{Path: path, Lines: lines, LOC: lines / 2, Complexity: int64(r.IntN(9)), DuplicatedLines: min(int64(r.IntN(3)), lines)})
				} else if !in.FullTree && tree[path] && r.IntN(8) == 0 {
					in.Removed = append(in.Removed, path)
				}
			}
			for i := r.IntN(5); i > 0; i-- {
				in.Issues = append(in.Issues, plumb.Issue{Fingerprint: fmt.Sprintf("fp%d", r.IntN(6)), Tool: "lint", RuleKey: "R", Message: "m",
					Path: pool[r.IntN(len(pool))], Category: plumb.IssueCategories[r.IntN(len(plumb.IssueCategories))],
					Level: plumb.IssueLevels[r.IntN(len(plumb.IssueLevels))], Status: []string{"", "open", "ignored"}[r.IntN(3)]})
			}
			_, err := db.AddSnapshot(ctx, in)
			dCheck(t, err)
			if in.FullTree {
				tree = map[string]bool{}
			}
			for _, f := range in.Files {
				tree[f.Path] = true
			}
			for _, path := range in.Removed {
				delete(tree, path)
			}
			commits = append(commits, in.CommitSHA)
		case k == 5:
			_, err := db.AddSnapshot(ctx, plumb.SnapshotInput{ProjectID: p.ID, Branch: "feature", CommitSHA: sha(), AnalyzedAt: now,
				Issues: []plumb.Issue{{Fingerprint: "ff", Tool: "lint", RuleKey: "R", Path: "src/a.go", Category: "bug", Level: "high"}}})
			dCheck(t, err)
		case k == 6:
			_, err := db.AddSnapshot(ctx, plumb.SnapshotInput{ProjectID: p.ID, Branch: "main", CommitSHA: sha(), AnalyzedAt: dT0.Add(-time.Hour),
				Files: []plumb.FileFigures{{Path: "src/a.go", Lines: 1}}})
			dCheck(t, err)
		case k == 7:
			b := plumb.Build{ProjectID: p.ID, Type: "analysis", Status: "succeeded", BranchName: "main", CommitSHA: sha(), SubmittedAt: now}
			_, err := db.AddBuild(ctx, b)
			dCheck(t, err)
		default:
			// Coverage of default-branch commits (reached by the branch, a
			// tag, or a feature branch) and of feature commits.
			in := plumb.CoverageInput{ProjectID: p.ID, CommitSHA: sha(), Branch: "feature", UploadedAt: now,
				CoverageTag: []string{"", "unit", "e2e"}[r.IntN(3)]}
			if len(commits) > 0 && r.IntN(4) > 0 {
				in.CommitSHA = commits[r.IntN(len(commits))]
				switch r.IntN(4) {
				case 0:
					in.Branch, in.GitTag = "", "v1"
				case 1:
				default:
					in.Branch = "main"
				}
			}
			for _, path := range pool {
				if r.IntN(3) == 0 {
					hits := make([]int64, r.IntN(8))
					for i := range hits {
						hits[i] = int64(r.IntN(4) - 1)
					}
					in.Files = append(in.Files, plumb.CoverageFile{Path: path, Hits: hits})
				}
			}
			_, err := db.AddCoverage(ctx, in)
			dCheck(t, err)
		}
	}
	component("late", "*")

	// Ingestion: upload tokens (one used, one revoked), a build that moves
	// through statuses, and uploads made with an Idempotency-Key (one still
	// under way, which an export leaves out, is finished before the end).
	now = now.Add(time.Hour)
	_, secret, err := db.CreateUploadToken(ctx, "acme/web", "ci", "alice")
	dCheck(t, err)
	old, _, err := db.CreateUploadToken(ctx, "acme/web", "old", "cli")
	dCheck(t, err)
	now = now.Add(time.Minute)
	_, err = db.AuthenticateUpload(ctx, secret)
	dCheck(t, err)
	dCheck(t, db.RevokeUploadToken(ctx, old.ID))
	b, err := db.AddBuild(ctx, plumb.Build{ProjectID: p.ID, Type: "analysis", Status: "submitted", BranchName: "main", CommitSHA: sha(), SubmittedAt: now})
	dCheck(t, err)
	for i, st := range []string{"starting", "running", "failed"} {
		u := plumb.BuildUpdate{Status: st, At: now.Add(time.Duration(i+1) * time.Minute)}
		if st != "running" {
			u.StatusReason = sp("step " + st)
		}
		if st == "failed" {
			u.ExitCode = ip(2)
		}
		_, err := db.UpdateBuild(ctx, p.ID, b.ID, u)
		dCheck(t, err)
	}
	for i, key := range []string{"run-2", "run-1"} {
		now = now.Add(time.Minute)
		_, _, _, done, err := db.IdempotencyStart(ctx, p.ID, key, fmt.Sprintf("%064x", i+1))
		if err != nil || done {
			t.Fatalf("IdempotencyStart %s: done %v, %v", key, done, err)
		}
		dCheck(t, db.IdempotencyFinish(ctx, p.ID, key, 201+i, fmt.Sprintf("{\"n\":%d,\"html\":\"<&>\"}\n", i), fmt.Sprintf("%064x", 100+i)))
	}
	return db
}

// dTable is one table as dState dumps it: a query listing its rows in the
// order of the table's primary key, with internal numbers (seq, path ids)
// replaced by what they stand for. When ordered, that order is part of the
// state (seq is the order of insertion, which listings and exports follow);
// otherwise it rests on numbers that may differ between two equal databases
// (path ids are given in map order), so the rows are compared as a sorted
// list.
type dTable struct {
	query   string
	ordered bool
}

// dTables are the tables dState dumps: every table, derived ones included.
// The SQL is shared by SQLite and PostgreSQL; values are formatted in Go.
var dTables = map[string]dTable{
	"projects": {query: `SELECT p.id, p.key, coalesce((SELECT s.id FROM snapshots s WHERE s.seq = p.current_snapshot), '')
		FROM projects p ORDER BY p.id`},
	"snapshots": {query: `SELECT id, project_id, branch, commit_sha, analyzed_at, measured FROM snapshots ORDER BY seq`, ordered: true},
	"issues": {query: `SELECT i.id, s.id, i.fingerprint, i.tool, i.rule_key, i.message, i.category, i.level, i.status,
			i.documentation_url, i.path, i.start_line, i.end_line
		FROM issues i JOIN snapshots s ON s.seq = i.snapshot_seq ORDER BY i.seq`, ordered: true},
	"issue_states": {query: `SELECT project_id, fingerprint, status FROM issue_states ORDER BY project_id, fingerprint`},
	"paths": {query: `SELECT p.project_id, p.path, coalesce((SELECT s.id FROM snapshots s WHERE s.seq = p.current_seq), '')
		FROM paths p ORDER BY p.id`},
	"file_versions": {query: `SELECT p.path, s.id, v.deleted, ` + prefixCols("v.", fileStatsColumns) + `
		FROM file_versions v JOIN paths p ON p.id = v.path_id JOIN snapshots s ON s.seq = v.since_seq
		ORDER BY v.path_id, v.since_seq`},
	"component_paths": {query: `SELECT cp.component_id, p.path FROM component_paths cp JOIN paths p ON p.id = cp.path_id
		ORDER BY cp.component_id, cp.path_id`},
	"component_snapshot_totals": {query: `SELECT t.component_id, s.id, t.at, t.files, ` + prefixCols("t.", fileStatsColumns) + `
		FROM component_snapshot_totals t JOIN snapshots s ON s.seq = t.snapshot_seq ORDER BY t.component_id, t.snapshot_seq`},
	"project_snapshot_totals": {query: `SELECT t.project_id, s.id, t.at, t.files, ` + prefixCols("t.", fileStatsColumns) + `
		FROM project_snapshot_totals t JOIN snapshots s ON s.seq = t.snapshot_seq ORDER BY t.project_id, t.snapshot_seq`},
	"coverage_uploads": {query: `SELECT id, project_id, commit_sha, branch, git_tag, coverage_tag, uploaded_at
		FROM coverage_uploads ORDER BY seq`, ordered: true},
	"coverage_files": {query: `SELECT f.project_id, f.commit_sha, f.coverage_tag, p.path, f.hits, f.covered, f.missed
		FROM coverage_files f JOIN paths p ON p.id = f.path_id ORDER BY f.project_id, f.commit_sha, f.path_id, f.coverage_tag`},
	"coverage_union": {query: `SELECT u.project_id, u.commit_sha, p.path, u.covered, u.missed
		FROM coverage_union u JOIN paths p ON p.id = u.path_id ORDER BY u.project_id, u.commit_sha, u.path_id`},
	"coverage_totals": {query: `SELECT project_id, component_id, commit_sha, at, covered, missed FROM coverage_totals
		ORDER BY project_id, component_id, commit_sha`},
	"components": {query: `SELECT id, project_id, name, name_fold, description, path_globs, creator_id, created_at, updated_at
		FROM components ORDER BY id`},
	"builds":       {query: `SELECT ` + buildColumns + ` FROM builds ORDER BY id`},
	"users":        {query: `SELECT id, login, name, email, avatar_url, provider_url, created_at, updated_at FROM users ORDER BY id`},
	"tokens":       {query: `SELECT id, user_id, name, hash, created_at, last_used_at, revoked_at FROM tokens ORDER BY id`},
	"workspaces":   {query: `SELECT ` + workspaceColumns + ` FROM workspaces w ORDER BY w.id`},
	"members":      {query: `SELECT workspace_id, user_id, role FROM workspace_members ORDER BY workspace_id, user_id`},
	"admins":       {query: `SELECT project_id, user_id FROM project_admins ORDER BY project_id, user_id`},
	"apps":         {query: `SELECT id, workspace_id, name, name_fold, description, created_at FROM applications ORDER BY id`},
	"app_projects": {query: `SELECT application_id, project_id FROM application_projects ORDER BY application_id, project_id`},
	"idempotency_keys": {query: `SELECT project_id, key, request_hash, body_hash, status, body, created_at FROM idempotency_keys
		ORDER BY project_id, key`},
	"upload_tokens": {query: `SELECT id, project_id, name, hash, created_by, created_at, last_used_at, revoked_at FROM upload_tokens ORDER BY id`},
	"build_events":  {query: `SELECT build_id, seq, status, reason, at FROM build_events ORDER BY build_id, seq`},
}

// dValue formats one column value the same way on every backend: NULL, a
// quoted string, an integer, or bytes in hexadecimal. Any other type (which
// neither backend should return for Plumb's schema) shows its Go type.
func dValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "NULL"
	case string:
		return strconv.Quote(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case []byte:
		return "x'" + hex.EncodeToString(v) + "'"
	default:
		return fmt.Sprintf("%T(%v)", v, v)
	}
}

// dRows runs a query and returns its rows, each formatted as one line.
func dRows(t *testing.T, db *DB, query string) []string {
	t.Helper()
	out := []string{}
	var vals, ptrs []any
	dCheck(t, eachRow(context.Background(), db.read, query, nil, func(rows *sql.Rows) error {
		if vals == nil {
			cols, err := rows.Columns()
			if err != nil {
				return err
			}
			vals, ptrs = make([]any, len(cols)), make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
		}
		clear(vals)
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = dValue(v)
		}
		out = append(out, strings.Join(parts, "|"))
		return nil
	}))
	return out
}

// dState dumps every table (see dTables), plus issue_order: each snapshot's
// issue ids in listing (seq) order.
func dState(t *testing.T, db *DB) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for name, tab := range dTables {
		out[name] = dRows(t, db, tab.query)
		if !tab.ordered {
			sort.Strings(out[name])
		}
	}
	order := map[string][]string{}
	var snaps []string
	for _, r := range dRows(t, db, `SELECT s.id, i.id FROM issues i JOIN snapshots s ON s.seq = i.snapshot_seq ORDER BY i.snapshot_seq, i.seq`) {
		s, i, _ := strings.Cut(r, "|")
		if order[s] == nil {
			snaps = append(snaps, s)
		}
		order[s] = append(order[s], i)
	}
	out["issue_order"] = []string{}
	for _, s := range snaps {
		out["issue_order"] = append(out["issue_order"], s+"|"+strings.Join(order[s], ","))
	}
	return out
}

func dSameState(t *testing.T, got, want *DB) {
	t.Helper()
	g, w := dState(t, got), dState(t, want)
	names := make([]string, 0, len(w))
	for name := range w {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !reflect.DeepEqual(g[name], w[name]) {
			t.Errorf("table %s differs after the round trip:\n got %d rows: %.1500q\nwant %d rows: %.1500q", name, len(g[name]), g[name], len(w[name]), w[name])
		}
	}
}

func TestImportPlaintextToken(t *testing.T) {
	ctx := context.Background()
	doc := richDoc()
	secret := NewTokenSecret()
	doc.Tokens = append(doc.Tokens, dataset.Token{ID: did(kToken, 9), UserID: did(kUser, 3), Name: "fixture", Token: secret, CreatedAt: dT0})
	db := dOpen(t, "token", nil)
	dCheck(t, db.ImportDocument(ctx, doc))
	u, tok, err := db.Authenticate(ctx, secret)
	if err != nil || u.ID != did(kUser, 3) || tok.ID != did(kToken, 9) {
		t.Fatalf("authenticate with the imported plaintext token: %+v %+v %v", u, tok, err)
	}
	var n int
	dCheck(t, db.read.QueryRowContext(ctx, `SELECT count(*) FROM tokens WHERE hash = $1`, HashToken(secret)).Scan(&n))
	if n != 1 {
		t.Errorf("%d tokens with the secret's hash, want 1", n)
	}
	dCheck(t, db.read.QueryRowContext(ctx, `SELECT count(*) FROM tokens WHERE hash = $1`, secret).Scan(&n))
	if n != 0 {
		t.Errorf("the plaintext secret is stored")
	}
	out := dExport(t, db)
	if bytes.Contains(out, []byte(secret)) || !bytes.Contains(out, []byte(`"hash":"`+HashToken(secret)+`"`)) {
		t.Errorf("the export carries the secret or lacks its hash")
	}
	if _, _, err := db.Authenticate(ctx, secret+"x"); plumb.ErrorCode(err) != plumb.EUNAUTHORIZED {
		t.Errorf("another secret authenticates: %v", err)
	}
}

// Upload tokens, build events and idempotency keys make the round trip: the
// export carries them in canonical order (an upload token given as a
// plaintext by its hash), a copy imported from the export exports the same
// bytes, an upload token imported as a plaintext authenticates in both, and
// a revoked one does not.
func TestDatasetRoundTripIngestion(t *testing.T) {
	ctx := context.Background()
	doc := richDoc()
	live, revoked := UploadTokenPrefix+"live0123456789abcdefghijklmnopqrstuvwxyz", UploadTokenPrefix+"revoked0123456789abcdefghijklmnopqrstu"
	doc.UploadTokens = append(doc.UploadTokens,
		dataset.UploadToken{ID: did(kUploadToken, 9), ProjectID: did(kProject, 1), Name: "fixture", Token: live, CreatedBy: "ada", CreatedAt: dT0},
		dataset.UploadToken{ID: did(kUploadToken, 8), ProjectID: did(kProject, 2), Name: "gone", Token: revoked, CreatedBy: "ada", CreatedAt: dT0,
			RevokedAt: tp(dT0.Add(day(1)))})
	db1 := dOpen(t, "one", nil)
	dCheck(t, db1.ImportDocument(ctx, doc))
	e1 := dExport(t, db1)
	dSame(t, "export vs canonical input", e1, dEncode(t, dataset.Canonical(doc)))
	db2 := dReimport(t, db1, e1)

	got, err := dataset.Decode(bytes.NewReader(e1))
	dCheck(t, err)
	var ids []string
	for _, ut := range got.UploadTokens {
		ids = append(ids, ut.ID)
		if ut.Token != "" || len(ut.Hash) != 64 || strings.Trim(ut.Hash, "0123456789abcdef") != "" {
			t.Errorf("upload token %s exported with token %q, hash %q", ut.ID, ut.Token, ut.Hash)
		}
	}
	// Projects API (p2), web (p1), tool (p3); in a project by creation time,
	// then id.
	if want := []string{did(kUploadToken, 8), did(kUploadToken, 3), did(kUploadToken, 9), did(kUploadToken, 1), did(kUploadToken, 2),
		did(kUploadToken, 4)}; !reflect.DeepEqual(ids, want) {
		t.Errorf("upload tokens in order %v, want %v", ids, want)
	}
	if bytes.Contains(e1, []byte(live)) || bytes.Contains(e1, []byte(revoked)) || !bytes.Contains(e1, []byte(`"hash":"`+HashToken(live)+`"`)) {
		t.Errorf("the export carries an upload token's secret or lacks its hash")
	}
	var events []string
	for _, e := range got.BuildEvents {
		reason := "-"
		if e.Reason != nil {
			reason = *e.Reason
		}
		events = append(events, fmt.Sprintf("%s %d %s %s %s", e.BuildID[len(e.BuildID)-1:], e.Seq, e.Status, reason, e.At.Format(time.RFC3339)))
	}
	// Builds in export order: project API's build 1, then web's builds 4
	// (submitted first), 2 and 3 (submitted together: by id).
	if want := []string{
		"1 1 submitted - 2026-01-14T09:00:00Z",
		"4 1 submitted - 2026-01-06T09:00:00Z", "4 2 starting queued <fast> & soon 2026-01-06T09:00:00Z", "4 3 running - 2026-01-06T09:00:00Z",
		"2 1 submitted - 2026-01-15T09:00:00Z", "2 2 failed timeout 2026-01-15T10:00:00Z",
		"3 1 submitted - 2026-01-15T09:00:00Z", "3 2 running - 2026-01-15T09:01:00Z", "3 3 succeeded - 2026-01-15T09:05:00Z",
	}; !reflect.DeepEqual(events, want) {
		t.Errorf("build events:\n%s\nwant:\n%s", strings.Join(events, "\n"), strings.Join(want, "\n"))
	}
	var keys []string
	for _, k := range got.IdempotencyKeys {
		keys = append(keys, fmt.Sprintf("%s %s %d %q %s", k.ProjectID[len(k.ProjectID)-1:], k.Key, k.Status, k.Body, k.CreatedAt.Format(time.RFC3339)))
	}
	if want := []string{
		`2 Ünï key 200 "{}\n" 2026-01-14T09:00:00Z`,
		`1 ci-run-1 422 "" 2026-01-15T09:00:00Z`,
		`1 ci-run-2 201 "{\"id\":\"` + did(kCoverage, 2) + `\",\"html\":\"<b>&</b>\"}\n" 2026-01-15T10:00:00Z`,
	}; !reflect.DeepEqual(keys, want) {
		t.Errorf("idempotency keys:\n%s\nwant:\n%s", strings.Join(keys, "\n"), strings.Join(want, "\n"))
	}

	// The imported build events are the build's history the store keeps: a
	// status change continues their numbering.
	_, err = db2.UpdateBuild(ctx, did(kProject, 1), did(kBuild, 4), plumb.BuildUpdate{Status: "succeeded", At: dT0.Add(day(2))})
	dCheck(t, err)
	if rows := dRows(t, db2, `SELECT seq, status FROM build_events WHERE build_id = '`+did(kBuild, 4)+`' ORDER BY seq`); !reflect.DeepEqual(rows,
		[]string{`1|"submitted"`, `2|"starting"`, `3|"running"`, `4|"succeeded"`}) {
		t.Errorf("build 4's events after an update: %v", rows)
	}

	// Authentication, last: it records the token's use.
	for name, db := range map[string]*DB{"imported from the document": db1, "imported from the export": db2} {
		ut, err := db.AuthenticateUpload(ctx, live)
		if err != nil || ut.ID != did(kUploadToken, 9) || ut.ProjectID != did(kProject, 1) || ut.CreatedBy != "ada" {
			t.Errorf("%s: authenticate with the imported plaintext upload token: %+v %v", name, ut, err)
		}
		ut, err = db.AuthenticateUpload(ctx, doc.UploadTokens[3].Token)
		if err != nil || ut.ID != did(kUploadToken, 4) || ut.ProjectID != did(kProject, 3) {
			t.Errorf("%s: authenticate with richDoc's plaintext upload token: %+v %v", name, ut, err)
		}
		if _, err := db.AuthenticateUpload(ctx, revoked); plumb.ErrorCode(err) != plumb.EUNAUTHORIZED || !strings.Contains(err.Error(), "revoked") {
			t.Errorf("%s: a revoked upload token: %v, want unauthorized, revoked", name, err)
		}
		if _, err := db.AuthenticateUpload(ctx, live+"x"); plumb.ErrorCode(err) != plumb.EUNAUTHORIZED {
			t.Errorf("%s: another secret authenticates: %v", name, err)
		}
		if _, _, err := db.Authenticate(ctx, live); plumb.ErrorCode(err) != plumb.EUNAUTHORIZED {
			t.Errorf("%s: an upload token authenticates as a user token: %v", name, err)
		}
	}
}

// A document written before upload tokens, build events and idempotency
// keys were in the format (the lists absent, or null) still imports, and
// exports them as empty lists.
func TestImportDocumentWithoutIngestionLists(t *testing.T) {
	ctx := context.Background()
	doc := richDoc()
	doc.UploadTokens, doc.BuildEvents, doc.IdempotencyKeys = nil, nil, nil
	current := dEncode(t, doc)
	absent := current
	for _, list := range []string{"uploadTokens", "buildEvents"} {
		absent = bytes.Replace(absent, []byte(`"`+list+`":[],`+"\n"), nil, 1)
	}
	absent = bytes.Replace(absent, []byte(",\n\"idempotencyKeys\":[]}"), []byte("}"), 1)
	null := bytes.ReplaceAll(current, []byte(":[],\n\"applications\""), []byte(":null,\n\"applications\""))
	null = bytes.ReplaceAll(null, []byte("\"buildEvents\":[]"), []byte("\"buildEvents\":null"))
	null = bytes.ReplaceAll(null, []byte("\"idempotencyKeys\":[]"), []byte("\"idempotencyKeys\":null"))
	if bytes.Contains(absent, []byte("uploadTokens")) || bytes.Contains(absent, []byte("buildEvents")) || bytes.Contains(absent, []byte("idempotencyKeys")) ||
		!bytes.Contains(null, []byte(`"uploadTokens":null,`)) || !bytes.Contains(null, []byte(`"buildEvents":null,`)) ||
		!bytes.HasSuffix(null, []byte(`"idempotencyKeys":null}`+"\n")) {
		t.Fatalf("the old documents are not what this test means:\n%s\n%s", absent, null)
	}
	want := dEncode(t, dataset.Canonical(doc))
	if !bytes.Contains(want, []byte("\"uploadTokens\":[],\n")) || !bytes.HasSuffix(want, []byte("\"idempotencyKeys\":[]}\n")) {
		t.Fatalf("the canonical form lacks the empty lists")
	}
	for name, in := range map[string][]byte{"absent": absent, "null": null} {
		db := dOpen(t, name, nil)
		dCheck(t, db.Import(ctx, bytes.NewReader(in)))
		dSame(t, "export of a document "+name+" lists", dExport(t, db), want)
	}
}

// An idempotency key whose request is still under way has no response to
// replay: the export leaves it out, and lists it once it is finished.
func TestExportLeavesOutUnfinishedIdempotencyKeys(t *testing.T) {
	ctx := context.Background()
	// The clock is within a day of richDoc's keys, so starting a request
	// does not expire them.
	db := dOpen(t, "unfinished", func() time.Time { return dT0.Add(day(10)) })
	dCheck(t, db.ImportDocument(ctx, richDoc()))
	before := dExport(t, db)
	_, _, _, done, err := db.IdempotencyStart(ctx, did(kProject, 1), "ci-run-3", strings.Repeat("0a", 32))
	if err != nil || done {
		t.Fatalf("IdempotencyStart: done %v, %v", done, err)
	}
	dSame(t, "export with a request under way vs before it", dExport(t, db), before)
	dCheck(t, db.IdempotencyFinish(ctx, did(kProject, 1), "ci-run-3", 202, "{\"queued\":true}\n", ""))
	after := dExport(t, db)
	line := `{"projectId":"` + did(kProject, 1) + `","key":"ci-run-3","requestHash":"` + strings.Repeat("0a", 32) +
		`","bodyHash":"","status":202,"body":"{\"queued\":true}\n","createdAt":"2026-01-15T09:00:00Z"}`
	if !bytes.Contains(after, []byte("\n"+line+"\n")) {
		t.Fatalf("the finished key is not in the export:\n%s", after[bytes.Index(after, []byte(`"idempotencyKeys"`)):])
	}
	copyDB := dOpen(t, "copy", nil)
	dCheck(t, copyDB.Import(ctx, bytes.NewReader(after)))
	dSame(t, "export of the copy", dExport(t, copyDB), after)
}

// An invalid document is refused with the document's validation error
// (dataset.Document.Validate, tested in package dataset), before the store
// is touched: nothing is written.
func TestImportValidation(t *testing.T) {
	ctx := context.Background()
	db := dOpen(t, "invalid", nil)
	for _, mutate := range []func(d *dataset.Document){
		func(d *dataset.Document) { d.Format = "other" },
		func(d *dataset.Document) { d.Users[0].Login = ""; d.Builds[3].Status = "done" },
		func(d *dataset.Document) { d.IdempotencyKeys[2].Key = "ci-run-2" },
		func(d *dataset.Document) { d.Snapshots[2].Issues[0].ID = did(kIssue, 1) },
	} {
		doc := richDoc()
		mutate(doc)
		want := doc.Validate()
		err := db.ImportDocument(ctx, doc)
		if plumb.ErrorCode(err) != plumb.EINVALID || want == nil || err.Error() != want.Error() ||
			!reflect.DeepEqual(plumb.ErrorDetails(err), plumb.ErrorDetails(want)) {
			t.Errorf("import: %v, want %v", err, want)
		}
		dEmpty(t, db)
	}
}

func dEmpty(t *testing.T, db *DB) {
	t.Helper()
	for _, table := range []string{"users", "tokens", "workspaces", "projects", "applications", "builds", "snapshots", "issues",
		"issue_states", "paths", "file_versions", "coverage_uploads", "coverage_files", "components", "component_snapshot_totals", "project_snapshot_totals",
		"upload_tokens", "build_events", "idempotency_keys"} {
		var n int
		dCheck(t, db.read.QueryRowContext(context.Background(), `SELECT count(*) FROM `+table).Scan(&n))
		if n != 0 {
			t.Errorf("table %s has %d rows after a failed import", table, n)
		}
	}
}

func TestImportDecodeErrors(t *testing.T) {
	ctx := context.Background()
	db := dOpen(t, "decode", nil)
	for _, c := range []struct{ in, want string }{
		{``, "the dataset is empty"},
		{`{"format":"plumb-dataset",`, "cannot be read"},
		{`{"format":"plumb-dataset","version":1,"users":[}`, "not valid JSON"},
		{`{"format":"plumb-dataset","version":1,"users":{}}`, "users has a JSON object where []dataset.User belongs"},
		{`{"format":"plumb-dataset","version":1,"userz":[]}`, `unknown field "userz"`},
		{`{"format":"other","version":1}`, `format "other" is not "plumb-dataset"`},
		{`{"format":"plumb-dataset","version":7}`, "version 7 is not supported; this Plumb reads versions 1 to 3"},
		{`{"format":"plumb-dataset","version":1} {}`, "data after the end"},
		{`{"format":"plumb-dataset","version":1,"users":[{"id":"` + did(kUser, 1) + `","login":"a","name":"","createdAt":"yesterday"}]}`, "cannot be read"},
	} {
		err := db.Import(ctx, strings.NewReader(c.in))
		if plumb.ErrorCode(err) != plumb.EINVALID || !strings.Contains(strings.Join(plumb.ErrorDetails(err), ";"), c.want) {
			t.Errorf("import %.60q: err %v, want EINVALID with %q", c.in, err, c.want)
		}
	}
	// A minimal document imports (every list may be left out); a version 1
	// document exports as version 2.
	dCheck(t, db.Import(ctx, strings.NewReader(`{"format":"plumb-dataset","version":1}`)))
	want := "{\"format\":\"plumb-dataset\",\"version\":3,\n\"users\":[],\n\"tokens\":[],\n\"workspaces\":[],\n\"projects\":[],\n\"uploadTokens\":[],\n" +
		"\"applications\":[],\n\"builds\":[],\n\"buildEvents\":[],\n\"snapshots\":[],\n\"issueStates\":[],\n\"coverage\":[],\n\"components\":[],\n" +
		"\"idempotencyKeys\":[]}\n"
	if got := string(dExport(t, db)); got != want {
		t.Errorf("empty export:\n%s\nwant:\n%s", got, want)
	}
}

// A version 1 document (users without email, URLs and updatedAt) imports:
// the profile is empty and updatedAt is createdAt; it exports as version 2.
func TestImportVersion1Users(t *testing.T) {
	ctx := context.Background()
	db := dOpen(t, "v1", nil)
	in := `{"format":"plumb-dataset","version":1,"users":[{"id":"` + did(kUser, 1) + `","login":"ada","name":"Ada","createdAt":"2026-01-02T03:04:05Z"}]}`
	dCheck(t, db.Import(ctx, strings.NewReader(in)))
	u, err := db.FindUser(ctx, "ada")
	dCheck(t, err)
	if u.Email != "" || u.AvatarURL != "" || u.ProviderURL != "" || !u.UpdatedAt.Equal(u.CreatedAt) {
		t.Errorf("imported version 1 user: %+v", u)
	}
	want := `"users":[` + "\n" + `{"id":"` + did(kUser, 1) + `","login":"ada","name":"Ada","email":"","avatarUrl":"","providerUrl":"","createdAt":"2026-01-02T03:04:05Z","updatedAt":"2026-01-02T03:04:05Z"}` + "\n]"
	if got := string(dExport(t, db)); !strings.Contains(got, `"version":3,`) || !strings.Contains(got, want) {
		t.Errorf("export:\n%s\nwant it to contain %s", got, want)
	}
}

func TestImportRefusesNonEmptyDatabase(t *testing.T) {
	ctx := context.Background()
	db := dOpen(t, "full", nil)
	_, err := db.CreateWorkspace(ctx, plumb.WorkspaceInput{Key: "acme"})
	dCheck(t, err)
	err = db.ImportDocument(ctx, richDoc())
	if plumb.ErrorCode(err) != plumb.ECONFLICT || !strings.Contains(err.Error(), "not empty (it holds 0 users and 1 workspaces)") {
		t.Fatalf("import into a database with a workspace: %v", err)
	}
	db2 := dOpen(t, "full2", nil)
	_, err = db2.CreateUser(ctx, "alice", "")
	dCheck(t, err)
	if err := db2.Import(ctx, bytes.NewReader(dEncode(t, richDoc()))); plumb.ErrorCode(err) != plumb.ECONFLICT {
		t.Fatalf("import into a database with a user: %v", err)
	}
}

// otherDoc is a valid document that shares nothing with richDoc: no id, login,
// key or token hash.
func otherDoc() *dataset.Document {
	id := func(kind, n int) string { return fmt.Sprintf("0191%04d-0000-7000-8000-%012d", kind, n) }
	doc := &dataset.Document{Format: dataset.Format, Version: dataset.Version,
		Users:      []dataset.User{{ID: id(kUser, 1), Login: "zed", CreatedAt: dT0}},
		Workspaces: []dataset.Workspace{{ID: id(kWorkspace, 1), Key: "other", CreatedAt: dT0, UpdatedAt: dT0, Members: []dataset.Member{{UserID: id(kUser, 1), Role: "admin"}}}},
		Projects:   []dataset.Project{{ID: id(kProject, 1), WorkspaceID: id(kWorkspace, 1), Key: "svc", DefaultBranch: "main", CreatedAt: dT0, UpdatedAt: dT0}},
	}
	for i := range 30 {
		s := dataset.Snapshot{ID: id(kSnapshot, i), ProjectID: id(kProject, 1), Branch: "main", CommitSHA: fmt.Sprintf("%040x", i+1),
			AnalyzedAt: dT0.Add(time.Duration(i) * time.Hour), Files: []dataset.File{{Path: fmt.Sprint("f", i, ".go"), Lines: 3}}}
		for j := range 20 {
			s.Issues = append(s.Issues, dataset.Issue{ID: id(kIssue, 100*i+j), Fingerprint: fmt.Sprint("fp", j), Tool: "vet", RuleKey: "R",
				Category: "bug", Level: "low", Status: "open", Path: fmt.Sprint("f", i, ".go")})
		}
		doc.Snapshots = append(doc.Snapshots, s)
	}
	return doc
}

// Two imports into one empty database at once: one is written, the other is
// refused (the database is no longer empty), and nothing is merged.
func TestImportConcurrent(t *testing.T) {
	ctx := context.Background()
	docs := []*dataset.Document{richDoc(), otherDoc()}
	alone := make([][]byte, len(docs))
	for i, doc := range docs {
		db := dOpen(t, "alone", nil)
		dCheck(t, db.ImportDocument(ctx, doc))
		alone[i] = dExport(t, db)
	}
	for round := range 3 {
		db := dOpen(t, "concurrent", nil)
		errs := make([]error, len(docs))
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i, doc := range docs {
			wg.Go(func() {
				<-start
				errs[i] = db.ImportDocument(ctx, doc)
			})
		}
		close(start)
		wg.Wait()
		winner := -1
		for i, err := range errs {
			switch {
			case err == nil && winner < 0:
				winner = i
			case err == nil:
				t.Fatalf("round %d: both imports were written", round)
			case plumb.ErrorCode(err) != plumb.ECONFLICT || !strings.Contains(err.Error(), "not empty"):
				t.Fatalf("round %d: import %d: %v, want a conflict: the database is not empty", round, i, err)
			}
		}
		if winner < 0 {
			t.Fatalf("round %d: no import was written: %v", round, errs)
		}
		dSame(t, fmt.Sprintf("round %d: export after both imports vs the winner's import alone", round), dExport(t, db), alone[winner])
	}
}

// writeDuring is an export's destination that runs a function at the first
// write, while the export is under way.
type writeDuring struct {
	bytes.Buffer
	during func()
}

func (w *writeDuring) Write(p []byte) (int, error) {
	if f := w.during; f != nil {
		w.during = nil
		f()
	}
	return w.Buffer.Write(p)
}

// Export reads one state of the database: what is committed while it runs
// (a snapshot, coverage merged into an exported commit, a status change, a
// build of a project exported later) is not in it, on every backend.
func TestExportReadsOneState(t *testing.T) {
	ctx := context.Background()
	doc := richDoc()
	for i := range 400 {
		doc.Builds = append(doc.Builds, dataset.Build{ID: did(kBuild, 100+i), ProjectID: did(kProject, 1), Type: "analysis", Status: "succeeded",
			BranchName: "main", CommitSHA: strings.Repeat("ab", 20), CommitMessage: strings.Repeat("m", 400), SubmittedAt: dT0.Add(time.Duration(i) * time.Minute)})
	}
	db := dOpen(t, "one-state", nil)
	dCheck(t, db.ImportDocument(ctx, doc))
	want := dExport(t, db)
	if len(want) < 3*64<<10 {
		t.Fatalf("export of %d bytes: too small to be written out before its end", len(want))
	}
	w := &writeDuring{during: func() {
		_, err := db.AddSnapshot(ctx, plumb.SnapshotInput{ProjectID: did(kProject, 1), Branch: "main", CommitSHA: strings.Repeat("77", 20),
			AnalyzedAt: dT0.Add(day(40)), Files: []plumb.FileFigures{{Path: "e.go", Lines: 9, LOC: 9}}, Removed: []string{"a.go"},
			Issues: []plumb.Issue{{Fingerprint: "n1", Tool: "golint", RuleKey: "R", Path: "e.go", Category: "bug", Level: "high"}}})
		dCheck(t, err)
		_, err = db.AddCoverage(ctx, plumb.CoverageInput{ProjectID: did(kProject, 1), CommitSHA: strings.Repeat("ab", 20), Branch: "main",
			CoverageTag: "unit", UploadedAt: dT0.Add(day(40)), Files: []plumb.CoverageFile{{Path: "a.go", Hits: []int64{1, 1, 1, 1, 1}}}})
		dCheck(t, err)
		_, err = db.write.ExecContext(ctx, `UPDATE issue_states SET status = 'ignored' WHERE project_id = $1 AND fingerprint = 'a1'`, did(kProject, 1))
		dCheck(t, err)
		_, err = db.AddBuild(ctx, plumb.Build{ProjectID: did(kProject, 3), Type: "analysis", Status: "submitted", BranchName: "trunk",
			CommitSHA: strings.Repeat("88", 20), SubmittedAt: dT0.Add(day(40))})
		dCheck(t, err)
		_, err = db.UpdateBuild(ctx, did(kProject, 1), did(kBuild, 4), plumb.BuildUpdate{Status: "succeeded", At: dT0.Add(day(40))})
		dCheck(t, err)
		_, _, err = db.CreateUploadToken(ctx, "acme/API", "during", "cli")
		dCheck(t, err)
		_, _, _, _, err = db.IdempotencyStart(ctx, did(kProject, 2), "during", strings.Repeat("09", 32))
		dCheck(t, err)
		dCheck(t, db.IdempotencyFinish(ctx, did(kProject, 2), "during", 201, "{}\n", strings.Repeat("0b", 32)))
	}}
	dCheck(t, db.Export(ctx, w))
	if w.during != nil {
		t.Fatalf("the export wrote nothing")
	}
	dSame(t, "export with writes during it vs export before them", w.Bytes(), want)
	if bytes.Equal(dExport(t, db), want) {
		t.Fatalf("the writes during the export changed nothing")
	}
}

// A failure while writing (here a trigger refusing the last table written)
// rolls back everything written before it.
func TestImportRollsBack(t *testing.T) {
	ctx := context.Background()
	db := dOpen(t, "rollback", nil)
	trigger := []string{`CREATE TRIGGER refuse BEFORE INSERT ON components BEGIN SELECT RAISE(ABORT, 'refused'); END`}
	if db.Dialect() == "postgres" {
		trigger = []string{
			`CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$`,
			`CREATE TRIGGER refuse BEFORE INSERT ON components FOR EACH ROW EXECUTE FUNCTION refuse()`,
		}
	}
	for _, q := range trigger {
		_, err := db.write.ExecContext(ctx, q)
		dCheck(t, err)
	}
	err := db.ImportDocument(ctx, richDoc())
	if err == nil || !strings.Contains(err.Error(), "refused") || !strings.Contains(err.Error(), "import component") {
		t.Fatalf("import: %v, want the trigger's error naming the component", err)
	}
	dEmpty(t, db)
}

// peakHeap is a writer that samples the live heap every megabyte written.
type peakHeap struct {
	n, next int
	peak    uint64
}

func (p *peakHeap) Write(b []byte) (int, error) {
	p.n += len(b)
	if p.n >= p.next {
		p.next = p.n + 1<<20
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		p.peak = max(p.peak, ms.HeapAlloc)
	}
	return len(b), nil
}

// bigDatabase holds one project whose current snapshot has n issues of
// about 300 bytes each, inserted in one statement.
func bigDatabase(t testing.TB, n int) *DB {
	t.Helper()
	ctx := context.Background()
	doc := richDoc()
	db := dOpen(t, "big", nil)
	dCheck(t, db.ImportDocument(ctx, doc))
	insert := `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < $1)
		INSERT INTO issues (id, snapshot_seq, fingerprint, tool, rule_key, message, category, level, status, path)
		SELECT printf('01910000-0000-7000-8000-%012d', i), (SELECT max(seq) FROM snapshots), printf('fp%d', i), 'golint', 'R1',
			printf('%0200d', i), 'bug', 'high', 'open', printf('src/file%d.go', i % 1000) FROM k`
	if db.Dialect() == "postgres" {
		insert = `INSERT INTO issues (id, snapshot_seq, fingerprint, tool, rule_key, message, category, level, status, path)
		SELECT '01910000-0000-7000-8000-' || lpad(i::text, 12, '0'), (SELECT max(seq) FROM snapshots), 'fp' || i, 'golint', 'R1',
			lpad(i::text, 200, '0'), 'bug', 'high', 'open', 'src/file' || (i % 1000) || '.go' FROM generate_series(1, $1::bigint) AS k(i)`
	}
	_, err := db.write.ExecContext(ctx, insert, n)
	dCheck(t, err)
	return db
}

// Export holds one row at a time: the live heap stays far below the size of
// the document.
func TestExportBoundedMemory(t *testing.T) {
	n := 200_000
	if testing.Short() || raceEnabled {
		n = 50_000
	}
	db := bigDatabase(t, n)
	// HeapAlloc counts garbage too, and the collector lets garbage grow in
	// proportion to the live heap, which other tests of the package leave
	// larger or smaller: a low GOGC while measuring keeps the figure the
	// export's own.
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	w := &peakHeap{}
	dCheck(t, db.Export(context.Background(), w))
	grew := int64(w.peak) - int64(base.HeapAlloc)
	t.Logf("exported %d issues, %d MB; live heap grew by at most %.1f MB", n, w.n>>20, float64(grew)/(1<<20))
	if w.n < n*300 {
		t.Fatalf("export is %d bytes, want at least %d", w.n, n*300)
	}
	if limit := int64(w.n / 4); grew > limit || grew > 32<<20 {
		t.Errorf("live heap grew by %d bytes while exporting %d bytes: the export is not streamed", grew, w.n)
	}
}

func BenchmarkExport(b *testing.B) {
	db := bigDatabase(b, 200_000)
	b.ReportAllocs()
	var size int
	for b.Loop() {
		w := &peakHeap{}
		if err := db.Export(context.Background(), w); err != nil {
			b.Fatal(err)
		}
		size = w.n
	}
	b.SetBytes(int64(size))
}
