package sqlstore

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/plumbhq/plumb"
)

// qOpen opens a fresh database with one project and returns it with the
// project's id.
func qOpen(t *testing.T) (*DB, string) {
	t.Helper()
	now := dT0
	db := dOpen(t, "qlty", func() time.Time { return now })
	ctx := context.Background()
	_, err := db.CreateWorkspace(ctx, plumb.WorkspaceInput{Key: "acme"})
	dCheck(t, err)
	p, err := db.CreateProject(ctx, plumb.ProjectInput{Workspace: "acme", Key: "web"})
	dCheck(t, err)
	return db, p.ID
}

const qSha = "4f1c2a7e9b0d3c5a6f8e1d2c3b4a5f6e7d8c9b0a"

// qPart records a part and stores its files.
func qPart(t *testing.T, db *DB, project string, files ...plumb.CoverageFile) plumb.QltyReport {
	t.Helper()
	ctx := context.Background()
	u, err := db.CreateQltyUpload(ctx, project, plumb.QltyInput{CommitSHA: qSha, Branch: "main", CoverageTag: "unit", UploadedAt: dT0, Multipart: true}, dT0.Add(time.Hour))
	dCheck(t, err)
	r, err := db.AddQltyPart(ctx, u, func(emit func(plumb.CoverageFile) error) error {
		for _, f := range files {
			if err := emit(f); err != nil {
				return err
			}
		}
		return nil
	})
	dCheck(t, err)
	return r
}

func qHits(t *testing.T, db *DB, project, path string) []int64 {
	t.Helper()
	_, files, err := db.FileCoverage(context.Background(), project, qSha, path)
	dCheck(t, err)
	if len(files) != 1 {
		t.Fatalf("%s: %d entries", path, len(files))
	}
	return files[0].Hits
}

// A publication whose server stopped (its lease ran out) is taken over; one
// that stopped after the coverage was stored is finished without storing it
// twice; one under way elsewhere is left to its server.
func TestQltyReportPublicationTakeover(t *testing.T) {
	ctx := context.Background()
	db, project := qOpen(t)
	r := qPart(t, db, project, plumb.CoverageFile{Path: "a.go", Hits: []int64{1, 0, -1}})
	qPart(t, db, project, plumb.CoverageFile{Path: "a.go", Hits: []int64{2, 1}}, plumb.CoverageFile{Path: "b.go", Hits: []int64{0}})

	// Another server publishes it now.
	_, err := db.write.ExecContext(ctx, `UPDATE qlty_reports SET state = 'closed', owner = 'other', lease_until = $1 WHERE id = $2`, dT0.Add(time.Minute).Unix(), r.ID)
	dCheck(t, err)
	if _, err := db.PublishQltyReport(ctx, project, r.ID); !errors.Is(err, plumb.ErrQltyPublishing) {
		t.Fatalf("a live publication: %v, want plumb.ErrQltyPublishing", err)
	}
	// Its server stopped: the lease ran out.
	_, err = db.write.ExecContext(ctx, `UPDATE qlty_reports SET lease_until = $1 WHERE id = $2`, dT0.Add(-time.Second).Unix(), r.ID)
	dCheck(t, err)
	got, err := db.PublishQltyReport(ctx, project, r.ID)
	dCheck(t, err)
	if got.State != "published" || got.Received != 2 || got.Summary == nil || got.Summary.Files != 2 {
		t.Fatalf("taken over: %+v", got)
	}
	if h := qHits(t, db, project, "a.go"); !reflect.DeepEqual(h, []int64{3, 1, -1}) {
		t.Errorf("a.go %v, want the parts merged", h)
	}

	// A report whose coverage was stored by a server that stopped before
	// marking it published: finished, not stored again.
	r2 := qPart(t, db, project, plumb.CoverageFile{Path: "c.go", Hits: []int64{5}})
	_, err = db.IngestCoverage(ctx, plumb.CoverageInput{ID: r2.ID, ProjectID: project, CommitSHA: qSha, Branch: "main", CoverageTag: "unit", UploadedAt: dT0,
		Files: []plumb.CoverageFile{{Path: "c.go", Hits: []int64{5}}}}, nil)
	dCheck(t, err)
	_, err = db.write.ExecContext(ctx, `UPDATE qlty_reports SET state = 'closed', owner = 'gone', lease_until = 0 WHERE id = $1`, r2.ID)
	dCheck(t, err)
	got, err = db.PublishQltyReport(ctx, project, r2.ID)
	dCheck(t, err)
	if got.State != "published" {
		t.Fatalf("finished: %+v", got)
	}
	if h := qHits(t, db, project, "c.go"); !reflect.DeepEqual(h, []int64{5}) {
		t.Errorf("c.go %v, want [5] (stored once)", h)
	}
	if st, _ := db.QltyStats(ctx); st.PartFiles != 0 {
		t.Errorf("part rows left: %+v", st)
	}
}

// Two requests completing one report at once (complete and the last part,
// say) publish it once.
func TestQltyReportConcurrentPublication(t *testing.T) {
	ctx := context.Background()
	db, project := qOpen(t)
	r := qPart(t, db, project, plumb.CoverageFile{Path: "a.go", Hits: []int64{1, 0}})
	qPart(t, db, project, plumb.CoverageFile{Path: "a.go", Hits: []int64{1, 1}})
	var wg sync.WaitGroup
	results := make([]plumb.QltyReport, 4)
	errs := make([]error, 4)
	for i := range results {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			results[i], errs[i] = db.PublishQltyReport(ctx, project, r.ID)
		}(i)
	}
	wg.Wait()
	published := 0
	for i, err := range errs {
		switch {
		case err == nil && results[i].Summary != nil:
			published++
		case err == nil && results[i].State == "published", errors.Is(err, plumb.ErrQltyPublishing):
		default:
			t.Errorf("publication %d: %+v %v", i, results[i], err)
		}
	}
	if published != 1 {
		t.Errorf("%d publications stored the report, want 1", published)
	}
	if h := qHits(t, db, project, "a.go"); !reflect.DeepEqual(h, []int64{2, 1}) {
		t.Errorf("a.go %v, want [2 1]", h)
	}
}

// A part that fails leaves nothing; a part refused because its report is
// being published leaves nothing.
func TestQltyPartFailureLeavesNothing(t *testing.T) {
	ctx := context.Background()
	db, project := qOpen(t)
	db.stageChunk = 3 // several batches
	u, err := db.CreateQltyUpload(ctx, project, plumb.QltyInput{CommitSHA: qSha, CoverageTag: "unit", UploadedAt: dT0, Multipart: true}, dT0.Add(time.Hour))
	dCheck(t, err)
	_, err = db.AddQltyPart(ctx, u, func(emit func(plumb.CoverageFile) error) error {
		for _, p := range []string{"a", "b", "c", "d", "e"} {
			if err := emit(plumb.CoverageFile{Path: p, Hits: []int64{1}}); err != nil {
				return err
			}
		}
		return plumb.Errorf(plumb.EINVALID, "line 6 is bad")
	})
	if plumb.ErrorCode(err) != plumb.EINVALID {
		t.Fatalf("err %v", err)
	}
	if st, _ := db.QltyStats(ctx); st.PartFiles != 0 {
		t.Errorf("a failed part left rows: %+v", st)
	}
	// The same upload succeeds on a retry; then its report closes and a
	// late part is refused.
	late, err := db.CreateQltyUpload(ctx, project, plumb.QltyInput{CommitSHA: qSha, CoverageTag: "unit", UploadedAt: dT0, Multipart: true}, dT0.Add(time.Hour))
	dCheck(t, err)
	one := func(emit func(plumb.CoverageFile) error) error {
		return emit(plumb.CoverageFile{Path: "a", Hits: []int64{1}})
	}
	r, err := db.AddQltyPart(ctx, u, one)
	dCheck(t, err)
	if _, err := db.PublishQltyReport(ctx, project, r.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddQltyPart(ctx, late, one); plumb.ErrorCode(err) != plumb.ECONFLICT {
		t.Fatalf("late part: %v, want a conflict", err)
	}
	if st, _ := db.QltyStats(ctx); st.PartFiles != 0 {
		t.Errorf("part rows left: %+v", st)
	}
}
