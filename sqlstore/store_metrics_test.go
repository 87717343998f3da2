package sqlstore_test

// Store tests of the metric data: per-file figures recorded as changes,
// component totals kept incrementally and backfilled, coverage merged per
// commit and tag. The central check is a model: a random but seeded history of
// snapshots (changes, removals, full trees, feature branches, out-of-order
// analyses) and coverage uploads is applied both to the store and to a plain
// Go model that recomputes every figure from scratch; a component created
// before the history (the incremental path), one created after it (the
// backfill), and one whose globs are replaced must all equal the model.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/metric"
	"github.com/plumbhq/plumb/sqlstore"
	"github.com/plumbhq/plumb/sqlstore/sqltest"
)

// mT0 is the start of the fixtures' time, a Monday.
var mT0 = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

// mOpen opens a fresh SQLite store with a project "acme/web" (default branch
// main, Components enabled) and a user alice.
func mOpen(t *testing.T) (*sqlstore.DB, plumb.Project, plumb.User) {
	t.Helper()
	ctx := context.Background()
	now := mT0
	db, err := sqlstore.Open(ctx, sqltest.DSN(t), sqlstore.Options{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	u, err := db.CreateUser(ctx, "alice", "Alice")
	mCheck(t, err)
	_, err = db.CreateWorkspace(ctx, plumb.WorkspaceInput{Key: "acme"})
	mCheck(t, err)
	p, err := db.CreateProject(ctx, plumb.ProjectInput{Workspace: "acme", Key: "web", ComponentsEnabled: true})
	mCheck(t, err)
	return db, p, u
}

func mCheck(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("fixture: %v", err)
	}
}

func mCode(err error) string { return plumb.ErrorCode(err) }

// ---- the model ----

// mModel recomputes everything from the inputs the store received.
type mModel struct {
	tree      map[string]plumb.FileFigures // files of the current default-branch snapshot
	issues    []plumb.Issue                // issues of the current default-branch snapshot, final statuses
	states    map[string]string            // fingerprint → status
	currentAt time.Time
	history   []mSnap // measured snapshots, in order

	// coverage: commit → tag → path → merged hits
	cov        map[string]map[string]map[string][]int64
	covDefault map[string]time.Time // default-branch commits → time of their latest default-branch upload
}

type mSnap struct {
	at     time.Time
	tree   map[string]plumb.FileFigures
	issues []plumb.Issue
}

func newModel() *mModel {
	return &mModel{tree: map[string]plumb.FileFigures{}, states: map[string]string{},
		cov: map[string]map[string]map[string][]int64{}, covDefault: map[string]time.Time{}}
}

// snapshot applies a snapshot input the way the data model defines it.
func (m *mModel) snapshot(in plumb.SnapshotInput, defaultBranch string) {
	// The store lists (and so first sees) a snapshot's issues by path, start
	// line, rule key and fingerprint.
	in.Issues = slices.Clone(in.Issues)
	line := func(p *int) int {
		if p == nil {
			return 0
		}
		return *p
	}
	slices.SortStableFunc(in.Issues, func(a, b plumb.Issue) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(line(a.StartLine), line(b.StartLine)),
			strings.Compare(a.RuleKey, b.RuleKey), strings.Compare(a.Fingerprint, b.Fingerprint))
	})
	final := make([]plumb.Issue, len(in.Issues))
	for i, is := range in.Issues {
		st, ok := m.states[is.Fingerprint]
		if !ok {
			st = is.Status
			if st == "" {
				st = "open"
			}
			m.states[is.Fingerprint] = st
		}
		is.Status = st
		final[i] = is
	}
	at := in.AnalyzedAt.UTC().Truncate(time.Second)
	if in.Branch != defaultBranch {
		return
	}
	// An older analysis than the current one enters the history at its
	// time, after the measurements of the same time or earlier; changes
	// apply to the tree of the measurement before it.
	late := !m.currentAt.IsZero() && at.Before(m.currentAt)
	pos := len(m.history)
	base := m.tree
	if late {
		pos = 0
		for pos < len(m.history) && !m.history[pos].at.After(at) {
			pos++
		}
		base = nil
		if pos > 0 {
			base = m.history[pos-1].tree
		}
	}
	next := map[string]plumb.FileFigures{}
	if !in.FullTree {
		for p, f := range base {
			next[p] = f
		}
	}
	for _, p := range in.Removed {
		delete(next, p)
	}
	for _, f := range in.Files {
		next[f.Path] = f
	}
	m.history = slices.Insert(m.history, pos, mSnap{at: at, tree: next, issues: final})
	if !late {
		m.tree, m.issues, m.currentAt = next, final, at
	}
}

// totals sums the figures of the files of a snapshot that the matcher keeps.
func (s mSnap) totals(match func(string) bool) metric.Totals {
	var t metric.Totals
	for p, f := range s.tree {
		if match(p) {
			t.Add(metric.FileStats{Lines: f.Lines, LOC: f.LOC, Complexity: f.Complexity, DuplicatedLines: f.DuplicatedLines})
		}
	}
	for _, is := range s.issues {
		if _, ok := s.tree[is.Path]; ok && match(is.Path) && is.Status == "open" {
			lv, _ := metric.ParseLevel(is.Level)
			t.Stats.AddOpenIssue(lv, is.Category)
		}
	}
	return t
}

func (m *mModel) coverage(in plumb.CoverageInput, defaultBranch string) {
	tag := in.CoverageTag
	if tag == "" {
		tag = "default"
	}
	if m.cov[in.CommitSHA] == nil {
		m.cov[in.CommitSHA] = map[string]map[string][]int64{}
	}
	if m.cov[in.CommitSHA][tag] == nil {
		m.cov[in.CommitSHA][tag] = map[string][]int64{}
	}
	for _, f := range in.Files {
		m.cov[in.CommitSHA][tag][f.Path] = plumb.MergeHits(m.cov[in.CommitSHA][tag][f.Path], f.Hits)
	}
	if in.Branch == defaultBranch {
		m.covDefault[in.CommitSHA] = in.UploadedAt.UTC().Truncate(time.Second)
	}
}

// commitCoverage is the coverage of a commit over the paths the matcher keeps:
// per line, covered when any tag hit it, missed when a tag could cover it and
// none did.
func (m *mModel) commitCoverage(commit string, match func(string) bool) metric.Coverage {
	union := map[string][]int64{}
	for _, files := range m.cov[commit] {
		for p, hits := range files {
			u := union[p]
			if len(hits) > len(u) {
				u = append(u, make([]int64, len(hits)-len(u))...)
				for i := len(union[p]); i < len(u); i++ {
					u[i] = -1
				}
			}
			for i, h := range hits {
				u[i] = max(u[i], h)
			}
			union[p] = u
		}
	}
	var c metric.Coverage
	for p, hits := range union {
		if !match(p) {
			continue
		}
		for _, h := range hits {
			switch {
			case h > 0:
				c.Covered++
			case h == 0:
				c.Missed++
			}
		}
	}
	return c
}

// expectHistory is what ComponentHistory must return for the globs.
func (m *mModel) expectHistory(globs []string) (analysis, coverage []plumb.TotalsAt) {
	mt, err := metric.CompileGlobs(globs)
	if err != nil {
		panic(err)
	}
	for _, s := range m.history {
		analysis = append(analysis, plumb.TotalsAt{At: s.at, Totals: s.totals(mt.Match)})
	}
	commits := make([]string, 0, len(m.covDefault))
	for c := range m.covDefault {
		commits = append(commits, c)
	}
	sort.Slice(commits, func(i, j int) bool {
		a, b := m.covDefault[commits[i]], m.covDefault[commits[j]]
		if !a.Equal(b) {
			return a.Before(b)
		}
		return commits[i] < commits[j]
	})
	for _, c := range commits {
		coverage = append(coverage, plumb.TotalsAt{At: m.covDefault[c], Totals: metric.Totals{Coverage: m.commitCoverage(c, mt.Match)}})
	}
	return analysis, coverage
}

// expectTotals is what ComponentTotals must return for the globs.
func (m *mModel) expectTotals(globs []string) metric.Totals {
	analysis, coverage := m.expectHistory(globs)
	var t metric.Totals
	if len(analysis) > 0 {
		t = analysis[len(analysis)-1].Totals
	}
	if len(coverage) > 0 {
		t.Coverage = coverage[len(coverage)-1].Totals.Coverage
	}
	return t
}

// ---- the random history ----

var mPathPool = []string{
	"src/main.go", "src/a/b/c.go", "src/a/b/d e.go", "src/vendor/v.go", "docs/über/ß.md", "docs/uber/ß.md",
	"lib/util.go", "go.mod", "README.md", "src/main.go.txt", "x/docs/api.md", "docs/api.md",
}

var mCategories = []string{"bug", "vulnerability", "style", "security_hotspot", "secret", "dependency_alert", "lint"}

func mRandomFigures(r *rand.Rand, path string) plumb.FileFigures {
	lines := int64(r.Intn(300) + 1)
	return plumb.FileFigures{Path: path, Lines: lines, LOC: r.Int63n(lines + 1), Complexity: r.Int63n(40), DuplicatedLines: r.Int63n(lines + 1)}
}

func mRandomIssues(r *rand.Rand, tree map[string]plumb.FileFigures) []plumb.Issue {
	var out []plumb.Issue
	n := r.Intn(6)
	for i := 0; i < n; i++ {
		p := mPathPool[r.Intn(len(mPathPool))]
		is := plumb.Issue{
			Fingerprint: fmt.Sprintf("fp%d", r.Intn(8)), // few fingerprints: statuses must carry over
			Tool:        "lint", RuleKey: "R1", Message: "m", Path: p,
			Category: mCategories[r.Intn(len(mCategories))],
			Level:    plumb.IssueLevels[r.Intn(len(plumb.IssueLevels))],
		}
		switch r.Intn(4) {
		case 0:
			is.Status = "ignored"
		case 1:
			is.Status = "open"
		}
		out = append(out, is)
	}
	return out
}

func mRandomHits(r *rand.Rand) []int64 {
	hits := make([]int64, r.Intn(12))
	for i := range hits {
		hits[i] = int64(r.Intn(4) - 1)
	}
	return hits
}

// mHistory drives the store and the model through the same random history.
type mHistory struct {
	t       *testing.T
	db      *sqlstore.DB
	p       plumb.Project
	m       *mModel
	r       *rand.Rand
	now     time.Time
	commits []string // default-branch commits so far
	n       int
}

func (h *mHistory) snapshot(in plumb.SnapshotInput) {
	h.t.Helper()
	in.ProjectID = h.p.ID
	_, err := h.db.AddSnapshot(context.Background(), in)
	mCheck(h.t, err)
	h.m.snapshot(in, h.p.DefaultBranch)
}

func (h *mHistory) coverage(in plumb.CoverageInput) {
	h.t.Helper()
	in.ProjectID = h.p.ID
	_, err := h.db.AddCoverage(context.Background(), in)
	mCheck(h.t, err)
	h.m.coverage(in, h.p.DefaultBranch)
}

func (h *mHistory) sha() string {
	h.n++
	return fmt.Sprintf("%040x", h.n*0x1000193+7)
}

// step adds one random event.
func (h *mHistory) step() {
	r := h.r
	h.now = h.now.Add(time.Duration(r.Intn(40)+1) * time.Hour)
	switch k := r.Intn(10); {
	case k < 5: // default-branch snapshot with changes
		in := plumb.SnapshotInput{Branch: "main", CommitSHA: h.sha(), AnalyzedAt: h.now, FullTree: r.Intn(5) == 0}
		seen := map[string]bool{}
		if in.FullTree {
			for _, p := range mPathPool {
				if r.Intn(2) == 0 {
					in.Files = append(in.Files, mRandomFigures(r, p))
				}
			}
		} else {
			for i := r.Intn(4); i > 0; i-- {
				p := mPathPool[r.Intn(len(mPathPool))]
				if !seen[p] {
					seen[p] = true
					in.Files = append(in.Files, mRandomFigures(r, p))
				}
			}
			for p := range h.m.tree {
				if !seen[p] && r.Intn(6) == 0 {
					in.Removed = append(in.Removed, p)
				}
			}
			sort.Strings(in.Removed)
		}
		in.Issues = mRandomIssues(r, h.m.tree)
		h.snapshot(in)
		h.commits = append(h.commits, in.CommitSHA)
	case k == 5: // a feature branch: never measured
		h.snapshot(plumb.SnapshotInput{Branch: "feature", CommitSHA: h.sha(), AnalyzedAt: h.now,
			Files: []plumb.FileFigures{mRandomFigures(r, mPathPool[r.Intn(len(mPathPool))])}, Issues: mRandomIssues(r, h.m.tree)})
	case k == 6: // an old default-branch analysis arriving late: in the history at its time
		h.snapshot(plumb.SnapshotInput{Branch: "main", CommitSHA: h.sha(), AnalyzedAt: mT0.Add(-time.Hour), FullTree: true,
			Files: []plumb.FileFigures{mRandomFigures(r, "src/main.go")}, Issues: mRandomIssues(r, h.m.tree)})
	default: // coverage of a default-branch commit, or of a feature commit
		in := plumb.CoverageInput{UploadedAt: h.now, CoverageTag: []string{"", "unit", "integration"}[r.Intn(3)]}
		switch {
		case len(h.commits) > 0 && r.Intn(3) > 0:
			in.CommitSHA, in.Branch = h.commits[r.Intn(len(h.commits))], "main"
			if r.Intn(4) == 0 {
				in.Branch = "" // the same commit reached by a tag only
				in.GitTag = "v1"
			}
		default:
			in.CommitSHA, in.Branch = h.sha(), "feature"
		}
		seen := map[string]bool{}
		for i := r.Intn(4); i > 0; i-- {
			p := mPathPool[r.Intn(len(mPathPool))]
			if !seen[p] {
				seen[p] = true
				in.Files = append(in.Files, plumb.CoverageFile{Path: p, Hits: mRandomHits(r)})
			}
		}
		h.coverage(in)
	}
}

func mCreate(t *testing.T, db *sqlstore.DB, p plumb.Project, u plumb.User, name string, globs ...string) plumb.Component {
	t.Helper()
	c, err := db.CreateComponent(context.Background(), plumb.Component{ProjectID: p.ID, Name: name, PathGlobs: globs, CreatorID: u.ID})
	mCheck(t, err)
	return c
}

// mCompare checks a component's history, totals and file count against the model.
func mCompare(t *testing.T, db *sqlstore.DB, m *mModel, c plumb.Component, globs []string, label string) {
	t.Helper()
	ctx := context.Background()
	far := mT0.AddDate(10, 0, 0)
	gotA, gotC, err := db.ComponentHistory(ctx, c, far)
	mCheck(t, err)
	wantA, wantC := m.expectHistory(globs)
	mDiffHistory(t, label+": analysis history", gotA, wantA)
	mDiffHistory(t, label+": coverage history", gotC, wantC)
	got, err := db.ComponentTotals(ctx, c)
	mCheck(t, err)
	if want := m.expectTotals(globs); got != want {
		t.Errorf("%s: totals %+v, want %+v", label, got, want)
	}
	list, err := db.ListComponents(ctx, c.ProjectID)
	mCheck(t, err)
	for _, l := range list {
		if l.ID == c.ID {
			if want := m.expectTotals(globs).Files; l.FileCount != want {
				t.Errorf("%s: fileCount %d, want %d", label, l.FileCount, want)
			}
		}
	}
}

// mDiffHistory reports the first difference between two histories.
func mDiffHistory(t *testing.T, label string, got, want []plumb.TotalsAt) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d measurements, want %d", label, len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		if !got[i].At.Equal(want[i].At) || got[i].Totals != want[i].Totals {
			t.Errorf("%s: measurement %d differs\n got: %v %+v\nwant: %v %+v", label, i, got[i].At, got[i].Totals, want[i].At, want[i].Totals)
			return
		}
	}
}

func TestComponentHistoryMatchesModel(t *testing.T) {
	globsA := []string{"src/*"}
	globsB := []string{"*.go", "docs/über/*"}
	globsC := []string{"*/vendor/*", "go.mod", "**/api.md"}
	for seed := int64(1); seed <= 12; seed++ {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			db, p, u := mOpen(t)
			h := &mHistory{t: t, db: db, p: p, m: newModel(), r: rand.New(rand.NewSource(seed)), now: mT0}
			// Incremental: created before the history exists.
			early := mCreate(t, db, p, u, "early", globsA...)
			earlyB := mCreate(t, db, p, u, "early-b", globsB...)
			for i := 0; i < 25; i++ {
				h.step()
			}
			// Created halfway, then kept up incrementally.
			mid := mCreate(t, db, p, u, "mid", globsC...)
			for i := 0; i < 25; i++ {
				h.step()
			}
			// Backfill: created after the history.
			late := mCreate(t, db, p, u, "late", globsA...)
			lateB := mCreate(t, db, p, u, "late-b", globsB...)
			lateC := mCreate(t, db, p, u, "late-c", globsC...)

			mCompare(t, db, h.m, early, globsA, "created before (incremental)")
			mCompare(t, db, h.m, late, globsA, "created after (backfill)")
			mCompare(t, db, h.m, earlyB, globsB, "created before (incremental), globs B")
			mCompare(t, db, h.m, lateB, globsB, "created after (backfill), globs B")
			mCompare(t, db, h.m, mid, globsC, "created halfway")
			mCompare(t, db, h.m, lateC, globsC, "created after (backfill), globs C")

			// Replacing the globs recomputes the whole history; the
			// component then keeps up incrementally with the new globs.
			ctx := context.Background()
			re, err := db.ReplaceComponent(ctx, p.ID, "EARLY", plumb.Component{Name: "early", PathGlobs: globsB})
			mCheck(t, err)
			if re.ID != early.ID || re.CreatorID != u.ID {
				t.Errorf("replace changed the id or creator: %+v", re)
			}
			mCompare(t, db, h.m, re, globsB, "replaced globs")
			for i := 0; i < 10; i++ {
				h.step()
			}
			mCompare(t, db, h.m, re, globsB, "replaced globs, then more history")
			mCompare(t, db, h.m, lateB, globsB, "backfill B, then more history")
			mCompare(t, db, h.m, mid, globsC, "halfway, then more history")

			// File totals agree with the model for every current file.
			mt := func(string) bool { return true }
			_ = mt
			for path, f := range h.m.tree {
				got, err := db.FileTotals(ctx, p.ID, path)
				mCheck(t, err)
				one := mSnap{tree: map[string]plumb.FileFigures{path: f}, issues: h.m.issues}
				want := one.totals(func(p string) bool { return p == path })
				_, cov := h.m.expectHistory([]string{path})
				if len(cov) > 0 {
					want.Coverage = cov[len(cov)-1].Totals.Coverage
				}
				if got != want {
					t.Errorf("file %q: totals %+v, want %+v", path, got, want)
				}
			}
			for _, path := range mPathPool {
				if _, ok := h.m.tree[path]; ok {
					continue
				}
				if _, err := db.FileTotals(ctx, p.ID, path); mCode(err) != plumb.ENOTFOUND {
					t.Errorf("file %q is not current: err %v, want not found", path, err)
				}
			}
		})
	}
}

// A worked fixture small enough to check by hand: additions, changes and
// removals; the component created before and after give the same history.
func TestComponentHistoryByHand(t *testing.T) {
	ctx := context.Background()
	db, p, u := mOpen(t)
	before := mCreate(t, db, p, u, "before", "src/*")
	day := func(n int) time.Time { return mT0.AddDate(0, 0, n) }
	add := func(in plumb.SnapshotInput) {
		in.ProjectID = p.ID
		_, err := db.AddSnapshot(ctx, in)
		mCheck(t, err)
	}
	add(plumb.SnapshotInput{Branch: "main", CommitSHA: "c1", AnalyzedAt: day(0), Files: []plumb.FileFigures{
		{Path: "src/a.go", Lines: 10, LOC: 8, Complexity: 2},
		{Path: "lib/b.go", Lines: 5, LOC: 5, Complexity: 1},
	}, Issues: []plumb.Issue{
		{Fingerprint: "f1", Tool: "t", RuleKey: "r", Path: "src/a.go", Category: "vulnerability", Level: "medium"},
		{Fingerprint: "f2", Tool: "t", RuleKey: "r", Path: "lib/b.go", Category: "bug", Level: "high"},
	}})
	add(plumb.SnapshotInput{Branch: "main", CommitSHA: "c2", AnalyzedAt: day(1), Files: []plumb.FileFigures{
		{Path: "src/new/c.go", Lines: 20, LOC: 15, Complexity: 4},
	}, Issues: []plumb.Issue{
		{Fingerprint: "f1", Tool: "t", RuleKey: "r", Path: "src/a.go", Category: "vulnerability", Level: "medium"},
	}})
	add(plumb.SnapshotInput{Branch: "main", CommitSHA: "c3", AnalyzedAt: day(2), Files: []plumb.FileFigures{
		{Path: "src/new/c.go", Lines: 30, LOC: 25, Complexity: 6},
	}, Removed: []string{"src/a.go"}})
	// A feature-branch snapshot changes nothing; an old default-branch one
	// arriving late enters the history at its time (day -1, a full tree of
	// one file), and changes arriving late apply to the measurement before
	// them (day 1.5: day 1's tree with src/a.go grown to 12 lines).
	add(plumb.SnapshotInput{Branch: "feature", CommitSHA: "c4", AnalyzedAt: day(3), Files: []plumb.FileFigures{{Path: "src/z.go", Lines: 1}}})
	add(plumb.SnapshotInput{Branch: "main", CommitSHA: "c0", AnalyzedAt: day(-1), FullTree: true, Files: []plumb.FileFigures{{Path: "src/y.go", Lines: 1}}})
	add(plumb.SnapshotInput{Branch: "main", CommitSHA: "c15", AnalyzedAt: day(1).Add(12 * time.Hour), Files: []plumb.FileFigures{
		{Path: "src/a.go", Lines: 12, LOC: 9, Complexity: 2},
	}})
	after := mCreate(t, db, p, u, "after", "src/*")

	stats := func(files, lines, loc, cx, open, rem int64, secMedium int64) metric.Totals {
		t := metric.Totals{Files: files, Stats: metric.FileStats{Lines: lines, LOC: loc, Complexity: cx, OpenIssues: open, RemediationMinutes: rem}}
		t.Stats.SecurityIssues.Add(metric.LevelMedium, secMedium)
		return t
	}
	want := []plumb.TotalsAt{
		{At: day(-1), Totals: stats(1, 1, 0, 0, 0, 0, 0)},
		{At: day(0), Totals: stats(1, 10, 8, 2, 1, 30, 1)},
		{At: day(1), Totals: stats(2, 30, 23, 6, 1, 30, 1)},
		{At: day(1).Add(12 * time.Hour), Totals: stats(2, 32, 24, 6, 0, 0, 0)},
		{At: day(2), Totals: stats(1, 30, 25, 6, 0, 0, 0)},
	}
	for _, c := range []plumb.Component{before, after} {
		got, cov, err := db.ComponentHistory(ctx, c, day(10))
		mCheck(t, err)
		if !reflect.DeepEqual(got, want) || len(cov) != 0 {
			t.Errorf("%s: history\n got: %+v %+v\nwant: %+v", c.Name, got, cov, want)
		}
		// `to` cuts the history.
		got, _, err = db.ComponentHistory(ctx, c, day(1))
		mCheck(t, err)
		if !reflect.DeepEqual(got, want[:3]) {
			t.Errorf("%s: history to day 1\n got: %+v\nwant: %+v", c.Name, got, want[:3])
		}
	}
}

// An issue's status belongs to its fingerprint: a later snapshot that lists
// the issue again (without a status, or with another one) keeps it, and an
// ignored issue never counts in ISS.
func TestIssueStatusSurvivesSnapshots(t *testing.T) {
	ctx := context.Background()
	db, p, u := mOpen(t)
	c := mCreate(t, db, p, u, "all", "*")
	files := []plumb.FileFigures{{Path: "a.go", Lines: 10, LOC: 10}}
	issue := func(fp, status string) plumb.Issue {
		return plumb.Issue{Fingerprint: fp, Tool: "t", RuleKey: "r", Path: "a.go", Category: "secret", Level: "low", Status: status}
	}
	_, err := db.AddSnapshot(ctx, plumb.SnapshotInput{ProjectID: p.ID, Branch: "main", CommitSHA: "c1", AnalyzedAt: mT0,
		Files: files, Issues: []plumb.Issue{issue("ign", "ignored"), issue("open", "")}})
	mCheck(t, err)
	_, err = db.AddSnapshot(ctx, plumb.SnapshotInput{ProjectID: p.ID, Branch: "main", CommitSHA: "c2", AnalyzedAt: mT0.Add(time.Hour),
		Issues: []plumb.Issue{issue("ign", ""), issue("open", "ignored")}})
	mCheck(t, err)
	var statuses []string
	mCheck(t, db.EachIssue(ctx, p.ID, plumb.IssueFilter{Statuses: []string{"open", "ignored"}}, func(is plumb.Issue) error {
		statuses = append(statuses, is.Fingerprint+"="+is.Status)
		return nil
	}))
	sort.Strings(statuses)
	if want := []string{"ign=ignored", "open=open"}; !reflect.DeepEqual(statuses, want) {
		t.Errorf("statuses %v, want %v", statuses, want)
	}
	tot, err := db.ComponentTotals(ctx, c)
	mCheck(t, err)
	if tot.Stats.OpenIssues != 1 || tot.Stats.OpenSecurityIssues() != 1 {
		t.Errorf("open issues %d, security %d; want 1 and 1", tot.Stats.OpenIssues, tot.Stats.OpenSecurityIssues())
	}
}

// Component names are unique per project ignoring case, for every script,
// and a component is found by its name in any case.
func TestComponentNamesIgnoreCase(t *testing.T) {
	ctx := context.Background()
	db, p, u := mOpen(t)
	a := mCreate(t, db, p, u, "Über", "a/*")
	b := mCreate(t, db, p, u, "Straße", "b/*")
	for _, name := range []string{"über", "ÜBER", "üBER"} {
		_, err := db.CreateComponent(ctx, plumb.Component{ProjectID: p.ID, Name: name, PathGlobs: []string{"x"}, CreatorID: u.ID})
		if mCode(err) != plumb.ECONFLICT {
			t.Errorf("create %q: err %v, want a conflict", name, err)
		}
		got, err := db.FindComponent(ctx, p.ID, name)
		if err != nil || got.ID != a.ID {
			t.Errorf("find %q: %+v %v, want %s", name, got, err, a.ID)
		}
	}
	if _, err := db.ReplaceComponent(ctx, p.ID, b.ID, plumb.Component{Name: "ÜBER", PathGlobs: []string{"b/*"}}); mCode(err) != plumb.ECONFLICT {
		t.Errorf("rename to a taken name in another case: err %v, want a conflict", err)
	}
	if got, err := db.ReplaceComponent(ctx, p.ID, "über", plumb.Component{Name: "ÜBER", PathGlobs: []string{"a/*"}}); err != nil || got.ID != a.ID || got.Name != "ÜBER" {
		t.Errorf("rename to the own name in another case: %+v %v", got, err)
	}
	if _, err := db.FindComponent(ctx, p.ID, "uber"); mCode(err) != plumb.ENOTFOUND {
		t.Errorf("find uber: err %v, want not found (no accent folding)", err)
	}
	if err := db.DeleteComponent(ctx, p.ID, "STRASSE"); mCode(err) != plumb.ENOTFOUND {
		t.Errorf("delete STRASSE: err %v, want not found (simple case folding only)", err)
	}
}

// Two uploads of one commit and tag merge line by line; another tag of the
// same commit is kept apart; the union over tags drives COV.
func TestCoverageMerge(t *testing.T) {
	ctx := context.Background()
	db, p, u := mOpen(t)
	c := mCreate(t, db, p, u, "src", "src/*")
	sha := strings.Repeat("ab", 20)
	up := func(branch, tag string, at time.Time, path string, hits ...int64) {
		t.Helper()
		_, err := db.AddCoverage(ctx, plumb.CoverageInput{ProjectID: p.ID, CommitSHA: sha, Branch: branch, CoverageTag: tag, UploadedAt: at,
			Files: []plumb.CoverageFile{{Path: path, Hits: hits}}})
		mCheck(t, err)
	}
	up("main", "unit", mT0, "src/a.go", -1, 0, 2, 0)
	up("main", "unit", mT0.Add(time.Hour), "src/a.go", 1, -1, 3, 0, 0)
	up("main", "e2e", mT0.Add(2*time.Hour), "src/a.go", -1, -1, -1, 4)
	tags, files, err := db.FileCoverage(ctx, p.ID, sha[:7], "src/a.go")
	mCheck(t, err)
	want := []plumb.FileCoverageEntry{
		{Tag: "e2e", Path: "src/a.go", Hits: []int64{-1, -1, -1, 4}},
		{Tag: "unit", Path: "src/a.go", Hits: []int64{1, 0, 5, 0, 0}},
	}
	if !reflect.DeepEqual(tags, []string{"e2e", "unit"}) || !reflect.DeepEqual(files, want) {
		t.Errorf("file coverage %v %+v, want %+v", tags, files, want)
	}
	// Union: 1, 0, 5, 4, 0 → covered 3, missed 2.
	tot, err := db.ComponentTotals(ctx, c)
	mCheck(t, err)
	if tot.Coverage != (metric.Coverage{Covered: 3, Missed: 2}) {
		t.Errorf("component coverage %+v, want 3 covered, 2 missed", tot.Coverage)
	}
	// The same commit reached through a tag only (no branch) still merges
	// into the default branch's measurement of that commit.
	_, err = db.AddCoverage(ctx, plumb.CoverageInput{ProjectID: p.ID, CommitSHA: sha, GitTag: "v1", CoverageTag: "unit", UploadedAt: mT0.Add(3 * time.Hour),
		Files: []plumb.CoverageFile{{Path: "src/a.go", Hits: []int64{0, 0, 0, 0, 7}}}})
	mCheck(t, err)
	tot, err = db.ComponentTotals(ctx, c)
	mCheck(t, err)
	if tot.Coverage != (metric.Coverage{Covered: 4, Missed: 1}) {
		t.Errorf("component coverage after a tag-only upload %+v, want 4 covered, 1 missed", tot.Coverage)
	}
	_, cov, err := db.ComponentHistory(ctx, c, mT0.AddDate(1, 0, 0))
	mCheck(t, err)
	if len(cov) != 1 || !cov[0].At.Equal(mT0.Add(2*time.Hour)) {
		t.Errorf("coverage history %+v, want one measurement at the last default-branch upload", cov)
	}
	// Another commit uploaded in between, then a late report of the first
	// commit dated before it: the first commit's measurement keeps the time
	// of its most recent upload, so it stays the latest coverage, as
	// refs/heads/main says.
	other := strings.Repeat("cd", 20)
	_, err = db.AddCoverage(ctx, plumb.CoverageInput{ProjectID: p.ID, CommitSHA: other, Branch: "main", UploadedAt: mT0.Add(90 * time.Minute),
		Files: []plumb.CoverageFile{{Path: "src/a.go", Hits: []int64{0}}}})
	mCheck(t, err)
	up("main", "late", mT0.Add(time.Minute), "src/a.go", 0, 0, 0, 0, 0, 0)
	if head, err := db.ResolveReference(ctx, p.ID, "refs/heads/main"); err != nil || head != sha {
		t.Errorf("refs/heads/main → %q %v, want %s", head, err, sha)
	}
	tot, err = db.ComponentTotals(ctx, c)
	mCheck(t, err)
	// The late report adds a sixth, missed line.
	if tot.Coverage != (metric.Coverage{Covered: 4, Missed: 2}) {
		t.Errorf("component coverage after a late upload %+v, want 4 covered, 2 missed", tot.Coverage)
	}
	_, cov, err = db.ComponentHistory(ctx, c, mT0.AddDate(1, 0, 0))
	mCheck(t, err)
	if len(cov) != 2 || !cov[0].At.Equal(mT0.Add(90*time.Minute)) || !cov[1].At.Equal(mT0.Add(2*time.Hour)) {
		t.Errorf("coverage history %+v, want the other commit at 1h30 and the first at 2h", cov)
	}
	if sha2, err := db.ResolveReference(ctx, p.ID, "refs/tags/v1"); err != nil || sha2 != sha {
		t.Errorf("refs/tags/v1 → %q %v", sha2, err)
	}
	if _, err := db.ResolveReference(ctx, p.ID, "refs/heads/nope"); mCode(err) != plumb.ENOTFOUND {
		t.Errorf("unknown branch: %v", err)
	}
	var nf *plumb.Error
	if _, _, err := db.FileCoverage(ctx, p.ID, sha, "src/none.go"); !errors.As(err, &nf) || nf.Code != plumb.ENOTFOUND {
		t.Errorf("path without coverage: %v", err)
	}
}
