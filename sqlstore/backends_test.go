package sqlstore

// Moving between backends: `plumb export` from SQLite and `plumb import` into
// PostgreSQL (and back) reproduce the same export. A database is built on
// SQLite (from a hand-built document, from the demo, or through the live
// write paths) and exported; the export is imported into PostgreSQL and
// exported again, and that export is imported into a fresh SQLite database
// and exported once more. The three exports must be byte-identical, every
// table (derived ones included) must hold the same rows on all three
// databases, and what the API reads from them (issue pages, component totals
// and history, file figures and coverage, builds, workspaces, applications,
// tokens) must be equal.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/dataset"
	"github.com/plumbhq/plumb/demo"
	"github.com/plumbhq/plumb/sqlstore/sqltest"
)

// bDemoToken is the demo user's plaintext token in the demo source.
const bDemoToken = "plb_backends0123456789abcdefghijklmnopqrst"

// raceEnabled reports whether the test binary was built with -race. The race
// detector slows the pure-Go SQLite driver down some twentyfold, so tests
// whose point is volume rather than concurrency use smaller sizes under it.
var raceEnabled = func() bool {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "-race" {
				return s.Value == "true"
			}
		}
	}
	return false
}()

func TestBackendsRoundTrip(t *testing.T) {
	if sqltest.Backend == "postgres" {
		t.Skip("uses SQLite and PostgreSQL explicitly: it runs once, in the SQLite pass")
	}
	ctx := context.Background()
	sources := []struct {
		name    string
		build   func(t *testing.T, dsn string) *DB
		secrets []string // plaintext tokens to authenticate with
	}{
		{name: "hand-built", build: func(t *testing.T, dsn string) *DB {
			db := dOpenDSN(t, dsn, nil)
			dCheck(t, db.ImportDocument(ctx, richDoc()))
			return db
		}},
		{name: "demo", secrets: []string{bDemoToken, bDemoToken + "x"}, build: func(t *testing.T, dsn string) *DB {
			doc := demo.Generate(time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC), bDemoToken)
			db := dOpenDSN(t, dsn, nil)
			dCheck(t, db.ImportDocument(ctx, &doc))
			return db
		}},
		{name: "live", build: func(t *testing.T, dsn string) *DB {
			db := liveDatabase(t, dsn, 7)
			bEnrich(t, db)
			return db
		}},
	}
	for _, src := range sources {
		t.Run(src.name, func(t *testing.T) {
			if src.name == "demo" && (testing.Short() || raceEnabled) {
				// Minutes under the race detector, for no concurrency;
				// TestDatasetRoundTripDemo still imports the demo there.
				t.Skip("the demo's volume is left out in -short and -race runs")
			}
			t.Parallel()
			pgDSN := sqltest.PostgresDSN(t) // skips without a PostgreSQL server

			lite := src.build(t, bSQLiteDSN(t, "source"))
			e1 := dExport(t, lite)

			pg := dOpenDSN(t, pgDSN, nil)
			if pg.Dialect() != "postgres" || lite.Dialect() != "sqlite" {
				t.Fatalf("backends: %s and %s, want sqlite and postgres", lite.Dialect(), pg.Dialect())
			}
			dCheck(t, pg.Import(ctx, bytes.NewReader(e1)))
			e2 := dExport(t, pg)
			dSame(t, "export from PostgreSQL vs export from SQLite", e2, e1)

			back := dOpenDSN(t, bSQLiteDSN(t, "back"), nil)
			dCheck(t, back.Import(ctx, bytes.NewReader(e2)))
			e3 := dExport(t, back)
			dSame(t, "export from SQLite again vs first export", e3, e1)

			// Every table, derived ones included, holds the same rows.
			dSameState(t, pg, lite)
			dSameState(t, back, lite)

			// What the API reads is the same on all three.
			doc, err := dataset.Decode(bytes.NewReader(e1))
			dCheck(t, err)
			want := bAPI(t, lite, doc, src.secrets)
			bSameAPI(t, "PostgreSQL", bAPI(t, pg, doc, src.secrets), want)
			bSameAPI(t, "SQLite after PostgreSQL", bAPI(t, back, doc, src.secrets), want)
			t.Logf("%d bytes exported, %d API reads compared", len(e1), len(want))
		})
	}
}

func bSQLiteDSN(t *testing.T, name string) string {
	return "sqlite:" + filepath.Join(t.TempDir(), name+".db")
}

// bEnrich adds to a live database what liveDatabase leaves out: more users
// and tokens (one revoked), a second workspace with a member removed, a
// project with non-ASCII paths, names and messages, builds of every kind,
// coverage, an application, and components replaced and deleted.
func bEnrich(t *testing.T, db *DB) {
	t.Helper()
	ctx := context.Background()
	at := dT0.AddDate(0, 3, 0)
	bob, err := db.CreateUser(ctx, "Bob", "Bøb Ünïcode")
	dCheck(t, err)
	tok, _, err := db.CreateToken(ctx, "bob", "old")
	dCheck(t, err)
	_, _, err = db.CreateToken(ctx, bob.ID, "new")
	dCheck(t, err)
	dCheck(t, db.RevokeToken(ctx, tok.ID))
	_, err = db.CreateUser(ctx, "Émile", "")
	dCheck(t, err)
	_, err = db.CreateWorkspace(ctx, plumb.WorkspaceInput{Key: "Globex", AvatarURL: "https://example.com/g.png", ProviderURL: "https://example.com/globex"})
	dCheck(t, err)
	dCheck(t, db.AddMember(ctx, "globex", "bob", "admin"))
	dCheck(t, db.AddMember(ctx, "GLOBEX", "alice", "member"))
	dCheck(t, db.RemoveMember(ctx, "globex", "alice"))
	dCheck(t, db.SetApplicationsEnabled(ctx, "globex", true))
	p, err := db.CreateProject(ctx, plumb.ProjectInput{Workspace: "globex", Key: "API", DefaultBranch: "trunk"})
	dCheck(t, err)
	dCheck(t, db.AddProjectAdmin(ctx, "globex/api", "bob"))
	dCheck(t, db.SetComponentsEnabled(ctx, "globex/api", true))
	a, err := db.CreateApplication(ctx, p.WorkspaceID, "Ölçer", "Mäßig <b>&</b>")
	dCheck(t, err)
	dCheck(t, db.AddApplicationProject(ctx, "globex", a.ID, "API"))
	_, err = db.CreateApplication(ctx, p.WorkspaceID, "zeta", "")
	dCheck(t, err)

	_, err = db.CreateComponent(ctx, plumb.Component{ProjectID: p.ID, Name: "Dökümanlar", Description: "Docs ✓", PathGlobs: []string{"docs/*", "*.md"}, CreatorID: bob.ID})
	dCheck(t, err)
	line := func(n int) *int { return &n }
	paths := []string{"docs/ünïcode.md", "src/a b.go", "src/Z.go", "src/z.go", "README.md", "src/%_.go"}
	for i := range 12 {
		in := plumb.SnapshotInput{ProjectID: p.ID, Branch: "trunk", CommitSHA: fmt.Sprintf("%040x", 0xbeef00+i), AnalyzedAt: at.Add(time.Duration(i) * time.Hour), FullTree: i%5 == 0}
		for j, path := range paths {
			if (i+j)%3 != 0 || in.FullTree {
				lines := int64(10*i + j + 1)
				in.Files = append(in.Files, plumb.FileFigures{Path: path, Lines: lines, LOC: lines / 2, Complexity: int64(j), DuplicatedLines: int64(i % 2)})
			}
		}
		if i%4 == 3 {
			in.Removed = []string{paths[i%len(paths)]}
			in.Files = slices.DeleteFunc(in.Files, func(f plumb.FileFigures) bool { return f.Path == paths[i%len(paths)] })
		}
		for j := range i % 5 {
			in.Issues = append(in.Issues, plumb.Issue{Fingerprint: fmt.Sprintf("g%d", (i+j)%7), Tool: []string{"Vet", "staticcheck", "Ünï"}[j%3], RuleKey: fmt.Sprint("R", j),
				Message: "Prüfe «" + paths[j] + "»", Category: plumb.IssueCategories[(i*3+j)%len(plumb.IssueCategories)], Level: plumb.IssueLevels[(i+j)%len(plumb.IssueLevels)],
				Status: []string{"", "ignored"}[j%2], DocumentationURL: []string{"", "https://example.com/ü"}[i%2], Path: paths[j], StartLine: line(i + j), EndLine: line(i + 2*j)})
		}
		_, err := db.AddSnapshot(ctx, in)
		dCheck(t, err)
		if i%3 == 0 {
			_, err := db.AddCoverage(ctx, plumb.CoverageInput{ProjectID: p.ID, CommitSHA: in.CommitSHA, Branch: "trunk", CoverageTag: []string{"unit", "e2e"}[i%2],
				UploadedAt: in.AnalyzedAt.Add(time.Minute), Files: []plumb.CoverageFile{{Path: paths[i%len(paths)], Hits: []int64{int64(i), 0, -1, 2}}, {Path: "src/Z.go", Hits: []int64{1}}}})
			dCheck(t, err)
		}
		if i == 7 {
			_, err := db.AddCoverage(ctx, plumb.CoverageInput{ProjectID: p.ID, CommitSHA: in.CommitSHA, GitTag: "v2.0", UploadedAt: in.AnalyzedAt.Add(2 * time.Minute),
				Files: []plumb.CoverageFile{{Path: "docs/ünïcode.md", Hits: []int64{0, 0, 3}}}})
			dCheck(t, err)
		}
	}
	conclusion, reason := "failed", "Zeitüberschreitung"
	for i, st := range plumb.BuildStatuses {
		b := plumb.Build{ProjectID: p.ID, Type: plumb.BuildTypes[i%len(plumb.BuildTypes)], Status: st, BranchName: "trunk", CommitSHA: fmt.Sprintf("%040x", 0xbeef00+i),
			CommitMessage: "Fix «ü» #" + fmt.Sprint(i), SubmittedAt: at.Add(time.Duration(i%3) * time.Hour), Source: "github", CommitterLogin: "bob"}
		if st == "failed" {
			b.StartedAt, b.FinishedAt = &b.SubmittedAt, &b.SubmittedAt
			b.Conclusion, b.StatusReason, b.ExitCode, b.PullRequestNumber = &conclusion, &reason, line(3), line(12)
		}
		_, err := db.AddBuild(ctx, b)
		dCheck(t, err)
	}

	// Components of the first project: one's globs replaced (its history is
	// recomputed), one deleted, one renamed only.
	w, err := findWorkspaceAny(ctx, db.read, "acme")
	dCheck(t, err)
	web, err := db.FindProject(ctx, w.ID, "WEB")
	dCheck(t, err)
	_, err = db.ReplaceComponent(ctx, web.ID, "EARLY", plumb.Component{Name: "Early", Description: "src without c", PathGlobs: []string{"src/*.go", "go.mod"}})
	dCheck(t, err)
	_, err = db.ReplaceComponent(ctx, web.ID, "late", plumb.Component{Name: "Everything", PathGlobs: []string{"*"}})
	dCheck(t, err)
	dCheck(t, db.DeleteComponent(ctx, web.ID, "middle"))
}

// bAPI reads a database the way the API does and returns every answer (or
// error) by a key naming the call. doc is the database's export, which lists
// the ids, keys, paths, commits and times to ask about.
func bAPI(t *testing.T, db *DB, doc *dataset.Document, secrets []string) map[string]any {
	t.Helper()
	ctx := context.Background()
	out := map[string]any{}
	put := func(key string, v any, err error) {
		if _, dup := out[key]; dup {
			t.Fatalf("API read %s asked twice", key)
		}
		if err != nil {
			out[key] = "error: " + err.Error()
			return
		}
		out[key] = v
	}
	issues := func(projectID string, f plumb.IssueFilter) ([]plumb.Issue, error) {
		list := []plumb.Issue{}
		err := db.EachIssue(ctx, projectID, f, func(is plumb.Issue) error { list = append(list, is); return nil })
		return list, err
	}
	far := time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)

	for _, p := range doc.Projects {
		pk := "project " + p.Key + " "
		found, err := db.FindProject(ctx, p.WorkspaceID, strings.ToUpper(p.Key))
		put(pk+"find", found, err)

		// Issues: every filter, streamed whole and from an offset, and in
		// pages served by the issue index.
		tools := map[string]bool{}
		var times []time.Time
		paths := map[string]bool{}
		commits := map[string]map[string]bool{} // commit → paths with coverage
		branches, tags := map[string]bool{}, map[string]bool{}
		for _, s := range doc.Snapshots {
			if s.ProjectID != p.ID {
				continue
			}
			times = append(times, s.AnalyzedAt)
			for _, f := range s.Files {
				paths[f.Path] = true
			}
			for _, r := range s.Removed {
				paths[r] = true
			}
			for _, is := range s.Issues {
				tools[is.Tool] = true
				paths[is.Path] = true
			}
		}
		for _, c := range doc.Coverage {
			if c.ProjectID != p.ID {
				continue
			}
			if commits[c.CommitSHA] == nil {
				commits[c.CommitSHA] = map[string]bool{}
			}
			for _, f := range c.Files {
				commits[c.CommitSHA][f.Path] = true
				paths[f.Path] = true
			}
			branches[c.Branch] = true
			tags[c.GitTag] = true
		}
		paths["no/such/file.go"] = true
		toolList := sortedKeys(tools)
		filters := []plumb.IssueFilter{{}, {Levels: []string{"high", "medium"}}, {Statuses: []string{"ignored"}},
			{Categories: []string{"bug", "lint", "secret", "vulnerability"}}, {Levels: []string{"low", "note", "fmt"}, Statuses: []string{"open"}}}
		if len(toolList) > 0 {
			filters = append(filters, plumb.IssueFilter{Tools: []string{strings.ToUpper(toolList[0])}},
				plumb.IssueFilter{Tools: toolList[len(toolList)/2:], Levels: []string{"high"}})
		}
		for fi, f := range filters {
			all, err := issues(p.ID, f)
			put(fmt.Sprintf("%sissues filter %d all", pk, fi), all, err)
			n := len(all)
			for _, pg := range []plumb.Page{{Offset: 5}, {Limit: 1}, {Offset: 3, Limit: 7}, {Limit: 50}, {Offset: n / 2, Limit: 25}, {Offset: max(n-1, 0), Limit: 10}, {Offset: n + 5, Limit: 10}} {
				f.Page = pg
				got, err := issues(p.ID, f)
				put(fmt.Sprintf("%sissues filter %d page %+v", pk, fi, pg), got, err)
				// The index-served page is the same slice of the streamed list.
				if want := all[min(pg.Offset, n):]; err == nil {
					if pg.Limit > 0 {
						want = want[:min(pg.Limit, len(want))]
					}
					if !reflect.DeepEqual(got, want) {
						t.Errorf("%s: %sissues filter %d page %+v: %d issues, not the same slice of the %d listed", db.Dialect(), pk, fi, pg, len(got), n)
					}
				}
			}
		}

		// Builds, every status and a few pages.
		for _, st := range []string{"", "succeeded", "failed", "running", "submitted"} {
			for _, pg := range []plumb.Page{{}, {Limit: 3}, {Offset: 2, Limit: 3}} {
				list := []plumb.Build{}
				err := db.EachBuild(ctx, p.ID, plumb.BuildFilter{Status: st, Page: pg}, func(b plumb.Build) error { list = append(list, b); return nil })
				put(fmt.Sprintf("%sbuilds %q page %+v", pk, st, pg), list, err)
			}
		}
		for _, b := range doc.Builds {
			if b.ProjectID == p.ID {
				got, err := db.FindBuild(ctx, p.ID, strings.ToUpper(b.ID))
				put(pk+"build "+b.ID, got, err)
			}
		}

		// Components: the list (with file counts), each one's totals and
		// history (whole, and up to the middle of the project's analyses).
		comps, err := db.ListComponents(ctx, p.ID)
		put(pk+"components", comps, err)
		sort.Slice(times, func(i, j int) bool { return times[i].Before(times[j]) })
		mid := far
		if len(times) > 0 {
			mid = times[len(times)/2]
		}
		for _, c := range comps {
			ck := pk + "component " + c.Name + " "
			fc, err := db.FindComponent(ctx, p.ID, strings.ToUpper(c.Name))
			put(ck+"find", fc, err)
			tot, err := db.ComponentTotals(ctx, c)
			put(ck+"totals", tot, err)
			for _, to := range []time.Time{far, mid} {
				analysis, coverage, err := db.ComponentHistory(ctx, c, to)
				put(ck+"history to "+to.Format(time.RFC3339), [2][]plumb.TotalsAt{analysis, coverage}, err)
			}
		}

		// Files: figures of every path ever seen, coverage of every file of
		// every commit with coverage, by SHA, prefix, branch and tag.
		for _, path := range sortedKeys(paths) {
			tot, err := db.FileTotals(ctx, p.ID, path)
			put(pk+"file totals "+path, tot, err)
		}
		refs := []string{"refs/heads/no-such-branch", "refs/tags/no-such-tag", "0123456", "xyz"}
		for b := range branches {
			refs = append(refs, "refs/heads/"+b)
		}
		for tag := range tags {
			refs = append(refs, "refs/tags/"+tag)
		}
		for _, sha := range sortedKeys(commits) {
			refs = append(refs, sha[:7], strings.ToUpper(sha))
			for _, path := range append(sortedKeys(commits[sha]), "no/such/file.go") {
				tagList, files, err := db.FileCoverage(ctx, p.ID, sha, path)
				put(pk+"file coverage "+sha+" "+path, []any{tagList, files}, err)
			}
		}
		sort.Strings(refs)
		for _, ref := range slices.Compact(refs) {
			sha, err := db.ResolveReference(ctx, p.ID, ref)
			put(pk+"resolve "+ref, sha, err)
		}
	}

	for _, u := range doc.Users {
		uk := "user " + u.Login + " "
		logins := []string{u.Login, strings.ToUpper(u.Login), strings.ToLower(u.Login)}
		slices.Sort(logins)
		for _, login := range slices.Compact(logins) {
			found, err := db.FindUser(ctx, login)
			put(uk+"find "+login, found, err)
		}
		for _, pg := range []plumb.Page{{}, {Limit: 1}, {Offset: 1, Limit: 1}} {
			list := []plumb.Workspace{}
			err := db.EachWorkspace(ctx, u.ID, pg, func(w plumb.Workspace) error { list = append(list, w); return nil })
			put(fmt.Sprintf("%sworkspaces page %+v", uk, pg), list, err)
		}
		tokens, err := db.ListTokens(ctx, u.ID)
		put(uk+"tokens", tokens, err)
		for _, w := range doc.Workspaces {
			ws, role, err := db.FindWorkspace(ctx, u.ID, strings.ToUpper(w.Key))
			put(uk+"workspace "+w.Key, []any{ws, role}, err)
		}
		for _, p := range doc.Projects {
			admin, err := db.IsProjectAdmin(ctx, u.ID, plumb.Project{ID: p.ID, WorkspaceID: p.WorkspaceID})
			put(uk+"admin of "+p.Key, admin, err)
		}
	}

	for _, w := range doc.Workspaces {
		wk := "workspace " + w.Key + " "
		for _, filter := range []string{"", "o", "Ö", "%", "zz"} {
			for _, pg := range []plumb.Page{{}, {Limit: 1}, {Offset: 1, Limit: 2}} {
				list := []plumb.Application{}
				err := db.EachApplication(ctx, w.ID, filter, pg, func(a plumb.Application) error { list = append(list, a); return nil })
				put(fmt.Sprintf("%sapplications %q page %+v", wk, filter, pg), list, err)
			}
		}
	}
	for _, a := range doc.Applications {
		got, err := db.FindApplication(ctx, a.WorkspaceID, strings.ToUpper(a.Name))
		put("application "+a.ID, got, err)
	}

	// Last, as it records the token's use.
	for _, s := range secrets {
		u, tok, err := db.Authenticate(ctx, s)
		put("authenticate "+s, []any{u, tok}, err)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := keys(m)
	sort.Strings(out)
	return out
}

// bSameAPI reports the API reads whose answers differ.
func bSameAPI(t *testing.T, label string, got, want map[string]any) {
	t.Helper()
	names := sortedKeys(want)
	bad := 0
	for _, name := range names {
		g, ok := got[name]
		if ok && reflect.DeepEqual(g, want[name]) {
			continue
		}
		if bad++; bad > 10 {
			t.Errorf("%s: and more differences", label)
			break
		}
		gj, _ := json.Marshal(g)
		wj, _ := json.Marshal(want[name])
		t.Errorf("%s: %s differs:\n got %.2000s\nwant %.2000s", label, name, gj, wj)
	}
	if len(got) != len(want) {
		t.Errorf("%s: %d API reads, want %d", label, len(got), len(want))
	}
}
