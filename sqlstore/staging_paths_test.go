package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/sqlstore/sqltest"
)

// A staged write that fails takes the paths it numbered with it: new file
// names of a failed upload never stay in the project's paths (nor in its
// components) without figures. Both kinds of staged write; a write that
// fails on its own server, and one whose server stopped, removed by
// SweepStagedWrites on another (issue 19 item 8).
func TestFailedStagedWriteRemovesItsPaths(t *testing.T) {
	for _, kind := range []string{stagedSnapshot, stagedCoverage} {
		for _, stopped := range []bool{false, true} {
			name := kind + ", failed"
			if stopped {
				name = kind + ", server stopped"
			}
			t.Run(name, func(t *testing.T) { testFailedStagedWritePaths(t, kind, stopped) })
		}
	}
}

func testFailedStagedWritePaths(t *testing.T, kind string, stopped bool) {
	ctx := context.Background()
	dsn := sqltest.DSN(t)
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var calls, holdAt atomic.Int32
	holdAt.Store(-1)
	held, release := make(chan struct{}), make(chan struct{})
	errStop := errors.New("the upload broke off")
	db, err := Open(ctx, dsn, Options{Now: func() time.Time { return now }, StageChunk: 10, StageHook: func(ctx context.Context, k string) error {
		if k != kind || calls.Add(1) != holdAt.Load() {
			return nil
		}
		if !stopped {
			return errStop
		}
		close(held)
		<-release // a server that stopped (until the test ends)
		return nil
	}})
	dCheck(t, err)
	t.Cleanup(func() { db.Close() })
	_, err = db.CreateWorkspace(ctx, plumb.WorkspaceInput{Key: "acme"})
	dCheck(t, err)
	p, err := db.CreateProject(ctx, plumb.ProjectInput{Workspace: "acme", Key: "web", DefaultBranch: "main", ComponentsEnabled: true})
	dCheck(t, err)
	_, err = db.CreateComponent(ctx, plumb.Component{ProjectID: p.ID, Name: "Src", PathGlobs: []string{"src/**"}})
	dCheck(t, err)

	upload := func(sha string, files []string) error {
		if kind == stagedSnapshot {
			in := plumb.SnapshotInput{ProjectID: p.ID, Branch: "main", CommitSHA: sha, AnalyzedAt: now, FullTree: true}
			for _, f := range files {
				in.Files = append(in.Files, plumb.FileFigures{Path: f, Lines: 10, LOC: 8, Complexity: 1})
			}
			_, err := db.AddSnapshot(ctx, in)
			return err
		}
		_, err := db.IngestCoverage(ctx, plumb.CoverageInput{ProjectID: p.ID, CommitSHA: sha, Branch: "main", UploadedAt: now},
			func(emit func(plumb.CoverageFile) error) error {
				for _, f := range files {
					if err := emit(plumb.CoverageFile{Path: f, Hits: []int64{1, 0, -1}}); err != nil {
						return err
					}
				}
				return nil
			})
		return err
	}
	paths := func() string {
		rows := dRows(t, db, `SELECT p.path || ' ' || (SELECT count(*) FROM component_paths cp WHERE cp.path_id = p.id) FROM paths p ORDER BY p.path`)
		return strings.Join(rows, ", ")
	}
	dCheck(t, upload(strings.Repeat("a", 40), []string{"README.md", "src/a.go"}))
	before := paths()
	if before != `"README.md 0", "src/a.go 1"` {
		t.Fatalf("paths after the first upload: %s", before)
	}

	var fresh []string
	for i := range 100 {
		fresh = append(fresh, fmt.Sprintf("src/new%03d.go", i))
	}
	holdAt.Store(calls.Load() + 5) // paths have been numbered by then
	if !stopped {
		if err := upload(strings.Repeat("b", 40), fresh); !errors.Is(err, errStop) && (err == nil || !strings.Contains(err.Error(), errStop.Error())) {
			t.Fatalf("the failing upload: %v", err)
		}
	} else {
		done := make(chan error, 1)
		go func() { done <- upload(strings.Repeat("b", 40), fresh) }()
		t.Cleanup(func() {
			close(release)
			if err := <-done; err == nil {
				t.Error("the stopped server's write succeeded after another server removed it")
			}
		})
		<-held
		if got := paths(); got == before {
			t.Fatal("the held write numbered no path: the test holds it too early")
		}
		// Another server starts an hour later and removes what it left.
		later := dOpenDSN(t, dsn, func() time.Time { return now.Add(time.Hour) })
		dCheck(t, later.SweepStagedWrites(ctx))
	}
	if got := paths(); got != before {
		t.Errorf("paths after the failed upload:\n got %s\nwant %s", truncateList(got), before)
	}
	st, err := db.StagedWriteStats(ctx)
	dCheck(t, err)
	if st != (StagedWriteStats{}) {
		t.Errorf("staged rows left: %+v", st)
	}
	if stopped {
		return
	}
	// The next upload numbers them again, with their figures.
	dCheck(t, upload(strings.Repeat("c", 40), fresh))
	if got := strings.Count(paths(), "src/new"); got != 100 {
		t.Errorf("after the next upload: %d new paths, want 100", got)
	}
}

func truncateList(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}
