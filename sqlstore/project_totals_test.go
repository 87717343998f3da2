package sqlstore

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"
)

// Migration 0005 fills project_snapshot_totals for the history that exists
// when it runs. Its statement, run again on a database whose totals were
// kept incrementally (by importing the rich dataset), gives the same rows.
func TestProjectTotalsBackfillMatchesIncremental(t *testing.T) {
	ctx := context.Background()
	db := dOpen(t, "backfill", nil)
	dCheck(t, db.ImportDocument(ctx, richDoc()))
	q := dTables["project_snapshot_totals"].query
	kept := dRows(t, db, q)
	if len(kept) == 0 {
		t.Fatal("the rich dataset gives no project totals")
	}
	body, err := migrations.ReadFile("migrations/" + db.d.name + "/0005_dropin.sql")
	dCheck(t, err)
	_, backfill, ok := strings.Cut(string(body), "-- Existing history")
	if !ok {
		t.Fatal("0005_dropin.sql has no backfill section")
	}
	_, err = db.write.ExecContext(ctx, `DELETE FROM project_snapshot_totals`)
	dCheck(t, err)
	_, err = db.write.ExecContext(ctx, "-- Existing history"+backfill)
	dCheck(t, err)
	if again := dRows(t, db, q); !reflect.DeepEqual(again, kept) {
		t.Errorf("backfilled totals differ from the incremental ones:\n got %q\nwant %q", again, kept)
	}
	// The kept totals agree with a replay of every file version (the web
	// pages' WholeProject* reads), now and at every measurement.
	for _, id := range dRows(t, db, `SELECT id FROM projects ORDER BY id`) {
		id = strings.Trim(id, `"`)
		kept, err := db.ProjectTotals(ctx, id)
		dCheck(t, err)
		replay, err := db.WholeProjectTotals(ctx, id)
		dCheck(t, err)
		if kept != replay {
			t.Errorf("project %s: ProjectTotals %+v, replayed %+v", id, kept, replay)
		}
		to := time.Now().AddDate(10, 0, 0)
		ka, kc, err := db.ProjectHistory(ctx, id, to)
		dCheck(t, err)
		ra, rc, err := db.WholeProjectHistory(ctx, id, to)
		dCheck(t, err)
		if !reflect.DeepEqual(ka, ra) || !reflect.DeepEqual(kc, rc) {
			t.Errorf("project %s: ProjectHistory %+v %+v, replayed %+v %+v", id, ka, kc, ra, rc)
		}
	}
}
