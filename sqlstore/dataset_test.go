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
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/dataset"
	"github.com/plumbhq/plumb/demo"
	"github.com/plumbhq/plumb/sqlstore/sqltest"
)

var dT0 = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

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

// did returns a UUID for record n of a kind.
func did(kind, n int) string { return fmt.Sprintf("0190%04d-0000-7000-8000-%012d", kind, n) }

const (
	kUser = iota + 1
	kToken
	kWorkspace
	kProject
	kApplication
	kBuild
	kSnapshot
	kIssue
	kCoverage
	kComponent
	kUploadToken
)

func ip(v int) *int               { return &v }
func sp(v string) *string         { return &v }
func tp(v time.Time) *time.Time   { return &v }
func day(n float64) time.Duration { return time.Duration(n * float64(24*time.Hour)) }

// richDoc is a hand-built document that exercises every rule of the format:
// lists out of canonical order, ties broken by id, a non-UTC time, files
// listed with unchanged figures, an issue-only change, a file removed and
// re-added, a removal of an unknown path, an out-of-order default-branch
// analysis, other branches, coverage merged over uploads, tags and empty
// hits, components with several globs, upload tokens (one given as a
// plaintext, one revoked), build events listed interleaved and idempotency
// keys.
func richDoc() *dataset.Document {
	u := func(n int) string { return did(kUser, n) }
	w := func(n int) string { return did(kWorkspace, n) }
	p := func(n int) string { return did(kProject, n) }
	s := func(n int) string { return did(kSnapshot, n) }
	iss := 0
	issue := func(fp, path, cat, level, status string) dataset.Issue {
		iss++
		return dataset.Issue{ID: did(kIssue, iss), Fingerprint: fp, Tool: "golint", RuleKey: "R-" + fp, Message: "Fix <" + fp + "> & more",
			Category: cat, Level: level, Status: status, Path: path}
	}
	withDoc := func(is dataset.Issue) dataset.Issue {
		is.DocumentationURL = "https://example.com/rules?id=" + is.RuleKey + "&x=1"
		is.StartLine, is.EndLine = ip(3), ip(7)
		return is
	}
	f := func(path string, lines, loc, cx, dup int64) dataset.File {
		return dataset.File{Path: path, Lines: lines, LOC: loc, Complexity: cx, DuplicatedLines: dup}
	}
	shaX, shaY, shaZ := strings.Repeat("ab", 20), strings.Repeat("cd", 20), strings.Repeat("0e", 20)
	plus2 := time.FixedZone("CEST", 2*3600)
	return &dataset.Document{
		Format: dataset.Format, Version: dataset.Version,
		Users: []dataset.User{
			{ID: u(3), Login: "grace", Name: "Grace Hopper", Email: "grace@example.com", AvatarURL: "https://avatars.example.com/grace.png",
				ProviderURL: "https://github.com/grace", CreatedAt: dT0.Add(day(2)), UpdatedAt: dT0.Add(day(3))},
			{ID: u(1), Login: "ada", Name: "Ada Lovelace", CreatedAt: dT0.In(plus2),
				PasswordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g"},
			{ID: u(4), Login: "Linus", Name: "", CreatedAt: dT0.Add(day(1))},
			{ID: u(2), Login: "margaret", Name: "Margaret \"Maggie\" Hamilton", CreatedAt: dT0.Add(day(1))},
		},
		Tokens: []dataset.Token{
			{ID: did(kToken, 2), UserID: u(1), Name: "ci", Hash: strings.Repeat("a1", 32), CreatedAt: dT0.Add(day(5)), LastUsedAt: tp(dT0.Add(day(6)))},
			{ID: did(kToken, 1), UserID: u(2), Name: "old", Hash: strings.Repeat("b2", 32), CreatedAt: dT0.Add(day(3)), RevokedAt: tp(dT0.Add(day(4)))},
		},
		Workspaces: []dataset.Workspace{
			{ID: w(2), Key: "Zeta", AvatarURL: "https://github.com/Zeta.png", ProviderURL: "https://github.com/Zeta",
				CreatedAt: dT0.Add(day(2)), UpdatedAt: dT0.Add(day(3)),
				Members: []dataset.Member{{UserID: u(3), Role: "member"}, {UserID: u(1), Role: "admin"}}},
			{ID: w(1), Key: "acme", AvatarURL: "https://github.com/acme.png", ProviderURL: "https://github.com/acme", ApplicationsEnabled: true,
				CreatedAt: dT0.Add(day(1)), UpdatedAt: dT0.Add(day(1)),
				Members: []dataset.Member{{UserID: u(4), Role: "member"}, {UserID: u(2), Role: "admin"}, {UserID: u(1), Role: "member"}}},
		},
		Projects: []dataset.Project{
			{ID: p(3), WorkspaceID: w(2), Key: "tool", DefaultBranch: "trunk", CreatedAt: dT0.Add(day(3)), UpdatedAt: dT0.Add(day(3)), AdminIDs: []string{}, BadgesPublic: true},
			{ID: p(1), WorkspaceID: w(1), Key: "web", DefaultBranch: "main", ComponentsEnabled: true, CreatedAt: dT0.Add(day(2)),
				UpdatedAt: dT0.Add(day(4)), AdminIDs: []string{u(4), u(3)}},
			{ID: p(2), WorkspaceID: w(1), Key: "API", DefaultBranch: "main", ComponentsEnabled: true, CreatedAt: dT0.Add(day(2)), UpdatedAt: dT0.Add(day(2))},
		},
		UploadTokens: []dataset.UploadToken{
			{ID: did(kUploadToken, 2), ProjectID: p(1), Name: "ci", Hash: strings.Repeat("c3", 32), CreatedBy: "ada", CreatedAt: dT0.Add(day(7)),
				LastUsedAt: tp(dT0.Add(day(8)))},
			{ID: did(kUploadToken, 1), ProjectID: p(1), Name: "old ci", Hash: strings.Repeat("d4", 32), CreatedBy: "cli", CreatedAt: dT0.Add(day(7)),
				RevokedAt: tp(dT0.Add(day(9)).In(plus2))},
			{ID: did(kUploadToken, 3), ProjectID: p(2), Name: "api <ci> & co", Hash: strings.Repeat("e5", 32), CreatedBy: "grace", CreatedAt: dT0.Add(day(6))},
			{ID: did(kUploadToken, 4), ProjectID: p(3), Name: "tool", Token: UploadTokenPrefix + "richdoc0123456789abcdefghijklmnopqrstuv", CreatedBy: "cli",
				CreatedAt: dT0.Add(day(4))},
		},
		Applications: []dataset.Application{
			{ID: did(kApplication, 1), WorkspaceID: w(1), Name: "Shop", Description: "The shop", CreatedAt: dT0.Add(day(5)), ProjectIDs: []string{p(2), p(1)}},
			{ID: did(kApplication, 2), WorkspaceID: w(1), Name: "admin", CreatedAt: dT0.Add(day(6))},
		},
		Builds: []dataset.Build{
			{ID: did(kBuild, 3), ProjectID: p(1), Type: "analysis", Status: "succeeded", BranchName: "main", CommitSHA: shaX, CommitMessage: "Add <b>",
				SubmittedAt: dT0.Add(day(10)), StartedAt: tp(dT0.Add(day(10) + time.Minute)), FinishedAt: tp(dT0.Add(day(10) + 5*time.Minute)),
				Conclusion: sp("succeeded"), ExitCode: ip(0), Source: "github", PullRequestNumber: ip(42), CommitterLogin: "ada", SnapshotID: s(1)},
			{ID: did(kBuild, 2), ProjectID: p(1), Type: "format", Status: "failed", BranchName: "feature", CommitSHA: shaY,
				SubmittedAt: dT0.Add(day(10)), FinishedAt: tp(dT0.Add(day(10) + time.Hour)), StatusReason: sp("timeout"),
				Conclusion: sp("failed"), ExitCode: ip(2)},
			{ID: did(kBuild, 1), ProjectID: p(2), Type: "coverage_setup", Status: "submitted", BranchName: "main", CommitSHA: shaZ,
				SubmittedAt: dT0.Add(day(9))},
			{ID: did(kBuild, 4), ProjectID: p(1), Type: "ssh", Status: "running", BranchName: "main", CommitSHA: shaY[:7],
				SubmittedAt: dT0.Add(day(1)), StartedAt: tp(dT0.Add(day(1)))},
		},
		// Each build's events in order, the builds interleaved.
		BuildEvents: []dataset.BuildEvent{
			{BuildID: did(kBuild, 3), Seq: 1, Status: "submitted", At: dT0.Add(day(10))},
			{BuildID: did(kBuild, 2), Seq: 1, Status: "submitted", At: dT0.Add(day(10))},
			{BuildID: did(kBuild, 3), Seq: 2, Status: "running", At: dT0.Add(day(10) + time.Minute)},
			{BuildID: did(kBuild, 1), Seq: 1, Status: "submitted", At: dT0.Add(day(9)).In(plus2)},
			{BuildID: did(kBuild, 4), Seq: 1, Status: "submitted", At: dT0.Add(day(1))},
			{BuildID: did(kBuild, 3), Seq: 3, Status: "succeeded", At: dT0.Add(day(10) + 5*time.Minute)},
			{BuildID: did(kBuild, 2), Seq: 2, Status: "failed", Reason: sp("timeout"), At: dT0.Add(day(10) + time.Hour)},
			{BuildID: did(kBuild, 4), Seq: 2, Status: "starting", Reason: sp("queued <fast> & soon"), At: dT0.Add(day(1))},
			{BuildID: did(kBuild, 4), Seq: 3, Status: "running", At: dT0.Add(day(1))},
		},
		Snapshots: []dataset.Snapshot{
			{ID: s(1), ProjectID: p(1), Branch: "main", CommitSHA: shaX, AnalyzedAt: dT0.Add(day(10)),
				Files: []dataset.File{f("lib/x.go", 10, 8, 1, 0), f("b.go", 50, 40, 7, 5), f("a.go", 100, 80, 12, 10), f("c.go", 5, 5, 0, 0)},
				Issues: []dataset.Issue{issue("a1", "a.go", "bug", "high", "open"), issue("b1", "b.go", "vulnerability", "medium", "ignored"),
					withDoc(issue("a2", "a.go", "lint", "low", "open"))}},
			{ID: s(2), ProjectID: p(1), Branch: "feature", CommitSHA: shaY, AnalyzedAt: dT0.Add(day(10) + time.Hour),
				Issues: []dataset.Issue{issue("f1", "a.go", "style", "note", "")}},
			{ID: s(3), ProjectID: p(1), Branch: "main", CommitSHA: strings.Repeat("11", 20), AnalyzedAt: dT0.Add(day(11)),
				Files: []dataset.File{f("d.go", 20, 20, 2, 0), f("b.go", 60, 40, 7, 5)}, Removed: []string{"c.go"},
				Issues: []dataset.Issue{issue("a1", "a.go", "bug", "high", "open"), issue("a3", "a.go", "secret", "fmt", "open"),
					issue("b1", "b.go", "vulnerability", "medium", "ignored")}},
			{ID: s(4), ProjectID: p(1), Branch: "main", CommitSHA: strings.Repeat("22", 20), AnalyzedAt: dT0.Add(day(12)),
				Files: []dataset.File{f("a.go", 100, 80, 12, 10)}, Removed: []string{}, Issues: []dataset.Issue{}},
			{ID: s(5), ProjectID: p(1), Branch: "main", CommitSHA: strings.Repeat("33", 20), AnalyzedAt: dT0.Add(day(11.5)),
				Issues: []dataset.Issue{issue("a1", "a.go", "bug", "high", "open")}},
			{ID: s(7), ProjectID: p(2), Branch: "main", CommitSHA: shaZ, AnalyzedAt: dT0.Add(day(9)),
				Files: []dataset.File{f("main.go", 30, 25, 3, 0), f("docs/api.md", 200, 0, 0, 0)}},
			{ID: s(6), ProjectID: p(1), Branch: "main", CommitSHA: strings.Repeat("44", 20), AnalyzedAt: dT0.Add(day(13)),
				Files: []dataset.File{f("c.go", 6, 6, 0, 0)}, Removed: []string{"never-existed.go", "lib/x.go"},
				Issues: []dataset.Issue{issue("c1", "c.go", "dead_code", "medium", "open")}},
			{ID: s(8), ProjectID: p(3), Branch: "trunk", CommitSHA: strings.Repeat("55", 20), AnalyzedAt: dT0.Add(day(8)),
				Files: []dataset.File{f("tool.py", 3, 3, 0, 0)}, Issues: []dataset.Issue{issue("t1", "tool.py", "dependency_alert", "high", "ignored")}},
			{ID: s(9), ProjectID: p(3), Branch: "main", CommitSHA: strings.Repeat("66", 20), AnalyzedAt: dT0.Add(day(9))},
		},
		IssueStates: []dataset.IssueState{
			{ProjectID: p(3), Fingerprint: "t1", Status: "ignored"},
			{ProjectID: p(1), Fingerprint: "b1", Status: "ignored"},
			{ProjectID: p(1), Fingerprint: "a1", Status: "open"},
		},
		Coverage: []dataset.Coverage{
			{ID: did(kCoverage, 1), ProjectID: p(1), CommitSHA: shaX, Branch: "main", CoverageTag: "unit", UploadedAt: dT0.Add(day(10)),
				Files: []dataset.CoverageFile{{Path: "b.go", Hits: []int64{0, 0}}, {Path: "a.go", Hits: []int64{1, 0, -1}}}},
			{ID: did(kCoverage, 2), ProjectID: p(1), CommitSHA: shaX, Branch: "main", CoverageTag: "unit", UploadedAt: dT0.Add(day(10) + time.Hour),
				Files: []dataset.CoverageFile{{Path: "a.go", Hits: []int64{2, -1, 3, 0}}, {Path: "d.go", Hits: []int64{5}}}},
			{ID: did(kCoverage, 3), ProjectID: p(1), CommitSHA: shaX, Branch: "feature", UploadedAt: dT0.Add(day(10) + 2*time.Hour),
				Files: []dataset.CoverageFile{{Path: "a.go", Hits: []int64{0, 0, 0}}}},
			{ID: did(kCoverage, 4), ProjectID: p(1), CommitSHA: shaY, GitTag: "v1.0.0", CoverageTag: "e2e", UploadedAt: dT0.Add(day(11)),
				Files: []dataset.CoverageFile{{Path: "b.go", Hits: []int64{}}, {Path: "z.go"}}},
			{ID: did(kCoverage, 5), ProjectID: p(1), CommitSHA: shaX, Branch: "main", CoverageTag: "unit", UploadedAt: dT0.Add(day(12))},
			{ID: did(kCoverage, 6), ProjectID: p(2), CommitSHA: shaZ, Branch: "main", CoverageTag: "unit", UploadedAt: dT0.Add(day(9)),
				Files: []dataset.CoverageFile{{Path: "main.go", Hits: []int64{-1, 1, 1, 0}}}},
		},
		Components: []dataset.Component{
			{ID: did(kComponent, 3), ProjectID: p(2), Name: "all", PathGlobs: []string{"*"}, CreatorID: u(2), CreatedAt: dT0.Add(day(20)), UpdatedAt: dT0.Add(day(20))},
			{ID: did(kComponent, 2), ProjectID: p(1), Name: "docs", Description: "Documentation", PathGlobs: []string{"docs/*", "README.md"},
				CreatorID: u(1), CreatedAt: dT0.Add(day(3)), UpdatedAt: dT0.Add(day(30))},
			{ID: did(kComponent, 1), ProjectID: p(1), Name: "Backend", PathGlobs: []string{"*.go", "lib/*"}, CreatorID: u(1),
				CreatedAt: dT0.Add(day(2)), UpdatedAt: dT0.Add(day(2))},
		},
		IdempotencyKeys: []dataset.IdempotencyKey{
			{ProjectID: p(1), Key: "ci-run-2", RequestHash: strings.Repeat("f6", 32), BodyHash: strings.Repeat("e5", 32), Status: 201,
				Body: `{"id":"` + did(kCoverage, 2) + `","html":"<b>&</b>"}` + "\n", CreatedAt: dT0.Add(day(10) + time.Hour)},
			{ProjectID: p(2), Key: "Ünï key", RequestHash: strings.Repeat("07", 32), Status: 200, Body: "{}\n", CreatedAt: dT0.Add(day(9)).In(plus2)},
			{ProjectID: p(1), Key: "ci-run-1", RequestHash: strings.Repeat("f7", 32), Status: 422, Body: "", CreatedAt: dT0.Add(day(10))},
		},
	}
}

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
	db2 := dOpen(t, "two", nil)
	dCheck(t, db2.Import(ctx, bytes.NewReader(e1)))
	e2 := dExport(t, db2)
	dSame(t, "second export vs first", e2, e1)
	dSameState(t, db2, db1)
	return e1
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
	ctx := context.Background()
	db := liveDatabase(t, sqltest.DSN(t), seed)
	e0 := dExport(t, db)
	db1 := dOpen(t, "copy", nil)
	dCheck(t, db1.Import(ctx, bytes.NewReader(e0)))
	dSame(t, "export of the copy vs export of the original", dExport(t, db1), e0)
	dSameState(t, db1, db)
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
	_, err = db.CreateWorkspace(ctx, WorkspaceInput{Key: "acme", ApplicationsEnabled: true})
	dCheck(t, err)
	dCheck(t, db.AddMember(ctx, "acme", "alice", "admin"))
	p, err := db.CreateProject(ctx, ProjectInput{Workspace: "acme", Key: "web", ComponentsEnabled: true})
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
		u := BuildUpdate{Status: st, At: now.Add(time.Duration(i+1) * time.Minute)}
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
	rows, err := db.read.QueryContext(context.Background(), query)
	dCheck(t, err)
	defer rows.Close()
	cols, err := rows.Columns()
	dCheck(t, err)
	out := []string{}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		clear(vals)
		dCheck(t, rows.Scan(ptrs...))
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = dValue(v)
		}
		out = append(out, strings.Join(parts, "|"))
	}
	dCheck(t, rows.Err())
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
	db2 := dOpen(t, "two", nil)
	dCheck(t, db2.Import(ctx, bytes.NewReader(e1)))
	dSame(t, "export of the copy vs first export", dExport(t, db2), e1)
	dSameState(t, db2, db1)

	got, err := dataset.Decode(bytes.NewReader(e1))
	dCheck(t, err)
	var ids []string
	for _, ut := range got.UploadTokens {
		ids = append(ids, ut.ID)
		if ut.Token != "" || !tokenHash.MatchString(ut.Hash) {
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
	_, err = db2.UpdateBuild(ctx, did(kProject, 1), did(kBuild, 4), BuildUpdate{Status: "succeeded", At: dT0.Add(day(2))})
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

// Every validation rule rejects the document with a detail naming the
// record and the field, and nothing is written.
func TestImportValidation(t *testing.T) {
	ctx := context.Background()
	db := dOpen(t, "invalid", nil)
	long := strings.Repeat("x", 101)
	cases := []struct {
		name   string
		mutate func(d *dataset.Document)
		want   []string // substrings of one detail each
	}{
		{"format", func(d *dataset.Document) { d.Format = "other" }, []string{`document: format "other"`}},
		{"version", func(d *dataset.Document) { d.Version = 3 }, []string{"document: version 3 is not supported"}},
		{"version 0", func(d *dataset.Document) { d.Version = 0 }, []string{"document: version 0 is not supported"}},
		{"user email", func(d *dataset.Document) { d.Users[0].Email = "nope" }, []string{"email \"nope\" is not valid"}},
		{"user avatar", func(d *dataset.Document) { d.Users[1].AvatarURL = "/a.png" }, []string{"avatar URL \"/a.png\" is not valid"}},
		{"user updated before created", func(d *dataset.Document) { d.Users[2].UpdatedAt = d.Users[2].CreatedAt.Add(-time.Second) }, []string{"updatedAt 2026"}},
		{"user id missing", func(d *dataset.Document) { d.Users[0].ID = "" }, []string{"users[0]: id is required",
			`workspaces[0] (id ` + did(kWorkspace, 2) + `): members[0]: userId "` + did(kUser, 3) + `" is not the id of any of the dataset's users`,
			`projects[1] (id ` + did(kProject, 1) + `): adminIds[1] "` + did(kUser, 3) + `" is not the id of any of the dataset's users`}},
		{"user id not uuid", func(d *dataset.Document) { d.Users[0].ID = "u1" }, []string{`users[0] (id u1): id "u1" is not a UUID in lower-case text form`,
			`members[0]: userId "` + did(kUser, 3) + `" is not the id`, `adminIds[1] "` + did(kUser, 3) + `" is not the id`}},
		{"upper-case uuid", func(d *dataset.Document) {
			d.Snapshots[0].Issues[0].ID = strings.ToUpper("0190000a-0000-7000-8000-0000000000ab")
		},
			[]string{`snapshots[0] (id ` + did(kSnapshot, 1) + `): issues[0] (id 0190000A-0000-7000-8000-0000000000AB): id "0190000A-0000-7000-8000-0000000000AB" is not a UUID in lower-case text form`}},
		{"user id twice", func(d *dataset.Document) { d.Users[1].ID = d.Users[0].ID }, []string{
			"users[1] (id " + did(kUser, 3) + "): id is also the id of users[0]",
			`tokens[0] (id ` + did(kToken, 2) + `): userId "` + did(kUser, 1) + `" is not the id`,
			`workspaces[0] (id ` + did(kWorkspace, 2) + `): members[1]: userId "` + did(kUser, 1) + `" is not the id`,
			`workspaces[1] (id ` + did(kWorkspace, 1) + `): members[2]: userId "` + did(kUser, 1) + `" is not the id`,
			`components[1] (id ` + did(kComponent, 2) + `): creatorId "` + did(kUser, 1) + `" is not the id`,
			`components[2] (id ` + did(kComponent, 1) + `): creatorId "` + did(kUser, 1) + `" is not the id`}},
		{"login missing", func(d *dataset.Document) { d.Users[0].Login = " " }, []string{"users[0] (id " + did(kUser, 3) + "): login is required"}},
		{"login twice ignoring case", func(d *dataset.Document) { d.Users[0].Login = "ADA" }, []string{`users[1] (id ` + did(kUser, 1) + `): login "ada" is also the login of users[0]`}},
		{"user createdAt", func(d *dataset.Document) { d.Users[2].CreatedAt = time.Time{} }, []string{"users[2] (id " + did(kUser, 4) + "): createdAt is required"}},
		{"token user", func(d *dataset.Document) { d.Tokens[0].UserID = did(kUser, 99) }, []string{`tokens[0] (id ` + did(kToken, 2) + `): userId "` + did(kUser, 99) + `" is not the id of any of the dataset's users`}},
		{"token both", func(d *dataset.Document) { d.Tokens[0].Token = "plb_x" }, []string{"tokens[0] (id " + did(kToken, 2) + "): hash and token are both given"}},
		{"token neither", func(d *dataset.Document) { d.Tokens[1].Hash = "" }, []string{"tokens[1] (id " + did(kToken, 1) + "): hash or token is required"}},
		{"token hash", func(d *dataset.Document) { d.Tokens[1].Hash = strings.Repeat("A", 64) }, []string{"tokens[1] (id " + did(kToken, 1) + `): hash "AAAA`}},
		{"token hash twice", func(d *dataset.Document) { d.Tokens[1].Hash = d.Tokens[0].Hash }, []string{"tokens[1] (id " + did(kToken, 1) + "): hash is also the hash of tokens[0]"}},
		{"token name", func(d *dataset.Document) { d.Tokens[1].Name = "" }, []string{"tokens[1] (id " + did(kToken, 1) + "): name is required"}},
		{"workspace key", func(d *dataset.Document) { d.Workspaces[0].Key = "ab" }, []string{"workspaces[0] (id " + did(kWorkspace, 2) + "): key: a workspace key must be 3 to 100 characters"}},
		{"workspace key chars", func(d *dataset.Document) { d.Workspaces[0].Key = "a/bc" }, []string{"workspaces[0] (id " + did(kWorkspace, 2) + "): key: a workspace key may hold only"}},
		{"workspace key twice", func(d *dataset.Document) { d.Workspaces[0].Key = "ACME" }, []string{`workspaces[1] (id ` + did(kWorkspace, 1) + `): key "acme" is also the key of workspaces[0]`}},
		{"member user", func(d *dataset.Document) { d.Workspaces[1].Members[0].UserID = "nobody" }, []string{`workspaces[1] (id ` + did(kWorkspace, 1) + `): members[0]: userId "nobody" is not the id`}},
		{"member role", func(d *dataset.Document) { d.Workspaces[1].Members[1].Role = "owner" }, []string{`workspaces[1] (id ` + did(kWorkspace, 1) + `): members[1]: role "owner" is not one of member, admin`}},
		{"member twice", func(d *dataset.Document) { d.Workspaces[1].Members[2].UserID = did(kUser, 4) }, []string{`members[2]: userId "` + did(kUser, 4) + `" is also members[0]`}},
		{"project workspace", func(d *dataset.Document) { d.Projects[0].WorkspaceID = "" }, []string{"projects[0] (id " + did(kProject, 3) + "): workspaceId is required"}},
		{"project key long", func(d *dataset.Document) { d.Projects[0].Key = long }, []string{"projects[0] (id " + did(kProject, 3) + "): key: a project key must be 3 to 100"}},
		{"project key uuid", func(d *dataset.Document) { d.Projects[0].Key = did(kUser, 1) }, []string{"projects[0] (id " + did(kProject, 3) + "): key: a project key may not be a UUID"}},
		{"project key twice", func(d *dataset.Document) { d.Projects[2].Key = "WEB" }, []string{`projects[2] (id ` + did(kProject, 2) + `): key "WEB" is also the key of projects[1]`}},
		{"project branch", func(d *dataset.Document) { d.Projects[0].DefaultBranch = "" }, []string{"projects[0] (id " + did(kProject, 3) + "): defaultBranch is required"}},
		{"project admin", func(d *dataset.Document) { d.Projects[1].AdminIDs[1] = "x" }, []string{`projects[1] (id ` + did(kProject, 1) + `): adminIds[1] "x" is not the id`}},
		{"application name", func(d *dataset.Document) { d.Applications[1].Name = "SHOP" }, []string{`applications[1] (id ` + did(kApplication, 2) + `): name "SHOP" is also the name of applications[0]`}},
		{"application project", func(d *dataset.Document) { d.Applications[0].ProjectIDs[0] = did(kProject, 3) }, []string{`applications[0] (id ` + did(kApplication, 1) + `): projectIds[0] "` + did(kProject, 3) + `" is a project of another workspace`}},
		{"build type", func(d *dataset.Document) { d.Builds[0].Type = "deploy" }, []string{`builds[0] (id ` + did(kBuild, 3) + `): type "deploy" is not one of analysis, format, ssh, coverage_setup`}},
		{"build status", func(d *dataset.Document) { d.Builds[3].Status = "done" }, []string{`builds[3] (id ` + did(kBuild, 4) + `): status "done" is not one of submitted, starting, running, succeeded, failed, skipped, rejected`}},
		{"build conclusion", func(d *dataset.Document) { d.Builds[0].Conclusion = sp("ok") }, []string{`builds[0] (id ` + did(kBuild, 3) + `): conclusion "ok" is not one of succeeded, failed`}},
		{"build sha", func(d *dataset.Document) { d.Builds[1].CommitSHA = " " }, []string{`builds[1] (id ` + did(kBuild, 2) + `): commitSha is required`}},
		{"build times", func(d *dataset.Document) { d.Builds[0].StartedAt = tp(dT0) }, []string{`builds[0] (id ` + did(kBuild, 3) + `): startedAt 2026-01-05T09:00:00Z is before submittedAt`}},
		{"build finish", func(d *dataset.Document) { d.Builds[1].FinishedAt = tp(dT0) }, []string{`builds[1] (id ` + did(kBuild, 2) + `): finishedAt 2026-01-05T09:00:00Z is before`}},
		{"build submitted", func(d *dataset.Document) { d.Builds[2].SubmittedAt = time.Time{} }, []string{`builds[2] (id ` + did(kBuild, 1) + `): submittedAt is required`}},
		{"build snapshot", func(d *dataset.Document) { d.Builds[0].SnapshotID = did(kSnapshot, 7) }, []string{`builds[0] (id ` + did(kBuild, 3) + `): snapshotId "` + did(kSnapshot, 7) + `" is a snapshot of another project`}},
		{"build snapshot unknown", func(d *dataset.Document) { d.Builds[0].SnapshotID = did(kSnapshot, 70) }, []string{`snapshotId "` + did(kSnapshot, 70) + `" is not the id`}},
		{"build project", func(d *dataset.Document) { d.Builds[0].ProjectID = did(kWorkspace, 1) }, []string{`builds[0] (id ` + did(kBuild, 3) + `): projectId "` + did(kWorkspace, 1) + `" is not the id of any of the dataset's projects`}},
		{"password in clear", func(d *dataset.Document) { d.Users[1].PasswordHash = "hunter2" }, []string{`passwordHash is not an argon2id hash`}},
		{"snapshot sha", func(d *dataset.Document) { d.Snapshots[0].CommitSHA = "" }, []string{`snapshots[0] (id ` + did(kSnapshot, 1) + `): commitSha is required`}},
		{"snapshot branch", func(d *dataset.Document) { d.Snapshots[0].Branch = "" }, []string{`snapshots[0] (id ` + did(kSnapshot, 1) + `): branch is required`}},
		{"snapshot time", func(d *dataset.Document) { d.Snapshots[1].AnalyzedAt = time.Time{} }, []string{`snapshots[1] (id ` + did(kSnapshot, 2) + `): analyzedAt is required`}},
		{"snapshot id twice", func(d *dataset.Document) { d.Snapshots[1].ID = did(kSnapshot, 1) }, []string{`snapshots[1] (id ` + did(kSnapshot, 1) + `): id is also the id of snapshots[0]`}},
		{"file path", func(d *dataset.Document) { d.Snapshots[0].Files[1].Path = "" }, []string{`snapshots[0] (id ` + did(kSnapshot, 1) + `): files[1]: path is required`}},
		{"file twice", func(d *dataset.Document) { d.Snapshots[0].Files[1].Path = "lib/x.go" }, []string{`files[1]: path "lib/x.go" is also files[0]`}},
		{"file figures", func(d *dataset.Document) { d.Snapshots[0].Files[0].Complexity = -1 }, []string{`snapshots[0] (id ` + did(kSnapshot, 1) + `): files[0]: lines, loc, complexity and duplicatedLines must not be negative`}},
		{"file loc", func(d *dataset.Document) { d.Snapshots[0].Files[0].LOC = 11 }, []string{`files[0]: loc and duplicatedLines must not exceed lines (10)`}},
		{"removed and changed", func(d *dataset.Document) { d.Snapshots[2].Removed = []string{"d.go"} }, []string{`snapshots[2] (id ` + did(kSnapshot, 3) + `): removed[0] "d.go" is also files[0]`}},
		{"files on a branch", func(d *dataset.Document) { d.Snapshots[1].Files = []dataset.File{{Path: "a.go"}} }, []string{`snapshots[1] (id ` + did(kSnapshot, 2) + `): files and removed are kept only for the project's default branch "main"`}},
		{"issue category", func(d *dataset.Document) { d.Snapshots[0].Issues[1].Category = "oops" }, []string{`snapshots[0] (id ` + did(kSnapshot, 1) + `): issues[1] (id ` + did(kIssue, 2) + `): category "oops" is not one of bug,`}},
		{"issue level", func(d *dataset.Document) { d.Snapshots[0].Issues[1].Level = "critical" }, []string{`issues[1] (id ` + did(kIssue, 2) + `): level "critical" is not one of high, medium, low, note, fmt`}},
		{"issue status", func(d *dataset.Document) { d.Snapshots[0].Issues[1].Status = "fixed" }, []string{`issues[1] (id ` + did(kIssue, 2) + `): status "fixed" is not one of open, ignored`}},
		{"issue fingerprint", func(d *dataset.Document) { d.Snapshots[0].Issues[1].Fingerprint = "" }, []string{`issues[1] (id ` + did(kIssue, 2) + `): fingerprint is required`}},
		{"issue lines", func(d *dataset.Document) { d.Snapshots[0].Issues[2].EndLine = ip(1) }, []string{`issues[2] (id ` + did(kIssue, 3) + `): endLine is before startLine`}},
		{"issue id", func(d *dataset.Document) { d.Snapshots[2].Issues[0].ID = did(kIssue, 1) }, []string{`snapshots[2] (id ` + did(kSnapshot, 3) + `): issues[0] (id ` + did(kIssue, 1) + `): id is also the id of an issue of snapshots[0]`}},
		{"issue state status", func(d *dataset.Document) { d.IssueStates[1].Status = "" }, []string{`issueStates[1]: status "" is not one of open, ignored`}},
		{"issue state twice", func(d *dataset.Document) { d.IssueStates[2].Fingerprint = "b1" }, []string{`issueStates[2]: fingerprint "b1" of this project is also issueStates[1]`}},
		{"issue state project", func(d *dataset.Document) { d.IssueStates[0].ProjectID = "p" }, []string{`issueStates[0]: projectId "p" is not the id`}},
		{"coverage sha", func(d *dataset.Document) { d.Coverage[0].CommitSHA = strings.ToUpper(d.Coverage[0].CommitSHA) }, []string{`coverage[0] (id ` + did(kCoverage, 1) + `): commitSha "ABAB`}},
		{"coverage hits", func(d *dataset.Document) { d.Coverage[0].Files[1].Hits[2] = -2 }, []string{`coverage[0] (id ` + did(kCoverage, 1) + `): files[1]: hits[2] is -2; hits are -1 (not coverable), 0 (missed) or a positive count`}},
		{"coverage path", func(d *dataset.Document) { d.Coverage[1].Files[1].Path = "a.go" }, []string{`coverage[1] (id ` + did(kCoverage, 2) + `): files[1]: path "a.go" is also files[0]`}},
		{"coverage time", func(d *dataset.Document) { d.Coverage[1].UploadedAt = time.Time{} }, []string{`coverage[1] (id ` + did(kCoverage, 2) + `): uploadedAt is required`}},
		{"component globs", func(d *dataset.Document) { d.Components[1].PathGlobs = []string{"a,b", ""} }, []string{
			`components[1] (id ` + did(kComponent, 2) + `): pathGlobs[0]: path glob "a,b" contains a comma`,
			`components[1] (id ` + did(kComponent, 2) + `): pathGlobs[1]: path glob is empty`}},
		{"component no globs", func(d *dataset.Document) { d.Components[0].PathGlobs = nil }, []string{`components[0] (id ` + did(kComponent, 3) + `): pathGlobs is empty`}},
		{"component name", func(d *dataset.Document) { d.Components[2].Name = "DOCS" }, []string{`components[2] (id ` + did(kComponent, 1) + `): name "DOCS" is also the name of components[1]`}},
		{"component name unicode case", func(d *dataset.Document) { d.Components[1].Name, d.Components[2].Name = "Über", "üBER" },
			[]string{`components[2] (id ` + did(kComponent, 1) + `): name "üBER" is also the name of components[1]`}},
		{"component creator", func(d *dataset.Document) { d.Components[2].CreatorID = "" }, []string{`components[2] (id ` + did(kComponent, 1) + `): creatorId is required`}},
		{"upload token project missing", func(d *dataset.Document) { d.UploadTokens[0].ProjectID = "" }, []string{`uploadTokens[0] (id ` + did(kUploadToken, 2) + `): projectId is required`}},
		{"upload token project unknown", func(d *dataset.Document) { d.UploadTokens[2].ProjectID = did(kProject, 99) }, []string{`uploadTokens[2] (id ` + did(kUploadToken, 3) + `): projectId "` + did(kProject, 99) + `" is not the id of any of the dataset's projects`}},
		{"upload token id twice", func(d *dataset.Document) { d.UploadTokens[1].ID = did(kUploadToken, 2) }, []string{`uploadTokens[1] (id ` + did(kUploadToken, 2) + `): id is also the id of uploadTokens[0]`}},
		{"upload token both", func(d *dataset.Document) { d.UploadTokens[0].Token = UploadTokenPrefix + "x" }, []string{`uploadTokens[0] (id ` + did(kUploadToken, 2) + `): hash and token are both given`}},
		{"upload token neither", func(d *dataset.Document) { d.UploadTokens[1].Hash = "" }, []string{`uploadTokens[1] (id ` + did(kUploadToken, 1) + `): hash or token is required`}},
		{"upload token hash", func(d *dataset.Document) { d.UploadTokens[1].Hash = strings.Repeat("d4", 31) }, []string{`uploadTokens[1] (id ` + did(kUploadToken, 1) + `): hash "` + strings.Repeat("d4", 31) + `" is not a SHA-256 (64 lowercase hexadecimal characters)`}},
		{"upload token hash upper-case", func(d *dataset.Document) { d.UploadTokens[1].Hash = strings.Repeat("D4", 32) }, []string{`uploadTokens[1] (id ` + did(kUploadToken, 1) + `): hash "D4D4`}},
		{"upload token hash twice", func(d *dataset.Document) { d.UploadTokens[1].Hash = d.UploadTokens[0].Hash }, []string{`uploadTokens[1] (id ` + did(kUploadToken, 1) + `): hash is also the hash of uploadTokens[0]; every upload token has its own secret`}},
		{"upload token plaintext twice", func(d *dataset.Document) { d.UploadTokens[0].Hash = HashToken(d.UploadTokens[3].Token) }, []string{`uploadTokens[3] (id ` + did(kUploadToken, 4) + `): hash is also the hash of uploadTokens[0]`}},
		{"upload token prefix", func(d *dataset.Document) { d.UploadTokens[3].Token = "plb_usertoken" }, []string{`uploadTokens[3] (id ` + did(kUploadToken, 4) + `): token does not start with "plbu_"`}},
		{"upload token name", func(d *dataset.Document) { d.UploadTokens[2].Name = " " }, []string{`uploadTokens[2] (id ` + did(kUploadToken, 3) + `): name is required`}},
		{"upload token createdBy", func(d *dataset.Document) { d.UploadTokens[2].CreatedBy = "" }, []string{`uploadTokens[2] (id ` + did(kUploadToken, 3) + `): createdBy is required`}},
		{"upload token createdAt", func(d *dataset.Document) { d.UploadTokens[3].CreatedAt = time.Time{} }, []string{`uploadTokens[3] (id ` + did(kUploadToken, 4) + `): createdAt is required`}},
		{"build event build missing", func(d *dataset.Document) { d.BuildEvents[5].BuildID = "" }, []string{`buildEvents[5]: buildId is required`}},
		{"build event build unknown", func(d *dataset.Document) { d.BuildEvents[6].BuildID = did(kBuild, 99) }, []string{`buildEvents[6]: buildId "` + did(kBuild, 99) + `" is not the id of any of the dataset's builds`}},
		{"build event seq gap", func(d *dataset.Document) { d.BuildEvents[8].Seq = 4 }, []string{`buildEvents[8]: seq 4 is not 3; the events of build ` + did(kBuild, 4) + ` are numbered 1, 2, 3… in the order they are listed`}},
		{"build event seq zero", func(d *dataset.Document) { d.BuildEvents[3].Seq = 0 }, []string{`buildEvents[3]: seq 0 is not 1`}},
		{"build event seq twice", func(d *dataset.Document) { d.BuildEvents[6].Seq = 1 }, []string{`buildEvents[6]: seq 1 is not 2`}},
		{"build events out of order", func(d *dataset.Document) { d.BuildEvents[7], d.BuildEvents[8] = d.BuildEvents[8], d.BuildEvents[7] },
			[]string{`buildEvents[7]: seq 3 is not 2`, `buildEvents[8]: seq 2 is not 4`}},
		{"build event status", func(d *dataset.Document) { d.BuildEvents[1].Status = "done" }, []string{`buildEvents[1]: status "done" is not one of submitted, starting, running, succeeded, failed, skipped, rejected`}},
		{"build event at", func(d *dataset.Document) { d.BuildEvents[4].At = time.Time{} }, []string{`buildEvents[4]: at is required`}},
		{"idempotency key project missing", func(d *dataset.Document) { d.IdempotencyKeys[0].ProjectID = "" }, []string{`idempotencyKeys[0]: projectId is required`}},
		{"idempotency key project unknown", func(d *dataset.Document) { d.IdempotencyKeys[1].ProjectID = did(kBuild, 1) }, []string{`idempotencyKeys[1]: projectId "` + did(kBuild, 1) + `" is not the id of any of the dataset's projects`}},
		{"idempotency key twice", func(d *dataset.Document) { d.IdempotencyKeys[2].Key = "ci-run-2" }, []string{`idempotencyKeys[2]: key "ci-run-2" of this project is also idempotencyKeys[0]; keys are unique per project`}},
		{"idempotency key missing", func(d *dataset.Document) { d.IdempotencyKeys[2].Key = "" }, []string{`idempotencyKeys[2]: key is required`}},
		{"idempotency request hash", func(d *dataset.Document) { d.IdempotencyKeys[0].RequestHash = "" }, []string{`idempotencyKeys[0]: requestHash is required`}},
		{"idempotency body hash", func(d *dataset.Document) { d.IdempotencyKeys[0].BodyHash = strings.Repeat("E5", 32) },
			[]string{`idempotencyKeys[0]: bodyHash "` + strings.Repeat("E5", 32) + `" is not a SHA-256 (64 lowercase hexadecimal characters) or empty`}},
		{"idempotency status low", func(d *dataset.Document) { d.IdempotencyKeys[0].Status = 99 }, []string{`idempotencyKeys[0]: status 99 is not an HTTP status (100 to 599)`}},
		{"idempotency status high", func(d *dataset.Document) { d.IdempotencyKeys[1].Status = 600 }, []string{`idempotencyKeys[1]: status 600 is not an HTTP status (100 to 599)`}},
		{"idempotency status unfinished", func(d *dataset.Document) { d.IdempotencyKeys[2].Status = 0 }, []string{`idempotencyKeys[2]: status 0 is not an HTTP status`}},
		{"idempotency createdAt", func(d *dataset.Document) { d.IdempotencyKeys[1].CreatedAt = time.Time{} }, []string{`idempotencyKeys[1]: createdAt is required`}},
		{"several problems", func(d *dataset.Document) {
			d.Users[0].Login = ""
			d.Builds[3].Status = "done"
		}, []string{"users[0] (id " + did(kUser, 3) + "): login is required", `builds[3] (id ` + did(kBuild, 4) + `): status "done"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := richDoc()
			c.mutate(doc)
			err := db.ImportDocument(ctx, doc)
			if plumb.ErrorCode(err) != plumb.EINVALID {
				t.Fatalf("err %v, want EINVALID", err)
			}
			details := plumb.ErrorDetails(err)
			for _, want := range c.want {
				found := false
				for _, d := range details {
					if strings.Contains(d, want) {
						found = true
					}
				}
				if !found {
					t.Errorf("no detail contains %q; details:\n%s", want, strings.Join(details, "\n"))
				}
			}
			if len(details) != len(c.want) {
				t.Errorf("%d details, want %d:\n%s", len(details), len(c.want), strings.Join(details, "\n"))
			}
			dEmpty(t, db)
		})
	}
	// The unmodified document is valid (so every case above fails for its
	// own reason).
	if err := validateDataset(richDoc()); err != nil {
		t.Fatalf("richDoc is invalid: %v", err)
	}
	// An idempotency key may be used by several projects, an upload token's
	// hash may be a user token's, a status may be any HTTP status, and a
	// build's events need not be listed together.
	doc := richDoc()
	doc.IdempotencyKeys[1].Key, doc.IdempotencyKeys[1].Status = "ci-run-2", 599
	doc.IdempotencyKeys[0].Status = 100
	doc.UploadTokens[0].Hash = doc.Tokens[0].Hash
	if err := validateDataset(doc); err != nil {
		t.Fatalf("valid variations of richDoc refused: %v", err)
	}
}

// The problems of one import are capped.
func TestImportValidationCap(t *testing.T) {
	doc := richDoc()
	for i := range 80 {
		doc.IssueStates = append(doc.IssueStates, dataset.IssueState{ProjectID: did(kProject, 1), Fingerprint: fmt.Sprint("x", i), Status: "closed"})
	}
	details := plumb.ErrorDetails(validateDataset(doc))
	if len(details) != maxImportProblems+1 || !strings.Contains(details[maxImportProblems], "and 30 more problems") {
		t.Fatalf("%d details, last %q", len(details), details[len(details)-1])
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
		{`{"format":"plumb-dataset","version":7}`, "version 7 is not supported; this Plumb reads versions 1 to 2"},
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
	want := "{\"format\":\"plumb-dataset\",\"version\":2,\n\"users\":[],\n\"tokens\":[],\n\"workspaces\":[],\n\"projects\":[],\n\"uploadTokens\":[],\n" +
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
	if got := string(dExport(t, db)); !strings.Contains(got, `"version":2,`) || !strings.Contains(got, want) {
		t.Errorf("export:\n%s\nwant it to contain %s", got, want)
	}
}

func TestImportRefusesNonEmptyDatabase(t *testing.T) {
	ctx := context.Background()
	db := dOpen(t, "full", nil)
	_, err := db.CreateWorkspace(ctx, WorkspaceInput{Key: "acme"})
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
		_, err = db.UpdateBuild(ctx, did(kProject, 1), did(kBuild, 4), BuildUpdate{Status: "succeeded", At: dT0.Add(day(40))})
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
