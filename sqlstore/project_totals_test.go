package sqlstore

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Migration 0005 fills project_snapshot_totals for the history that exists
// when it runs. Its statement, run again on a database whose totals were
// kept incrementally (by importing the rich dataset), gives the same rows.
func TestProjectTotalsBackfillMatchesIncremental(t *testing.T) {
	ctx := context.Background()
	db := dOpen(t, "backfill", nil)
	dCheck(t, db.ImportDocument(ctx, richDoc()))
	q := dTables["project_snapshot_totals"].query
	var kept []string
	// Snapshots that entered the history after a newer one have no file
	// versions: the migration (run before they could exist) leaves them out.
	late := dRows(t, db, `SELECT id FROM snapshots WHERE measured = `+sqlSnapshotHistory)
	if len(late) == 0 {
		t.Fatal("the rich dataset has no analysis arriving after a newer one")
	}
	for _, row := range dRows(t, db, q) {
		if !slices.ContainsFunc(late, func(id string) bool { return strings.Contains(row, id) }) {
			kept = append(kept, row)
		}
	}
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
}
