package sqlstore

import (
	"context"
	"database/sql"
	"strconv"

	"github.com/plumbhq/plumb"
)

// The measurements of snapshots.measured (plumb.SnapshotMeasured and
// plumb.SnapshotHistory) as SQL literals, for the queries that filter on
// them. A snapshot of the history has its tree in snapshot_files.
var (
	sqlSnapshotMeasured = strconv.Itoa(plumb.SnapshotMeasured)
	sqlSnapshotHistory  = strconv.Itoa(plumb.SnapshotHistory)
)

// historyComponentTotals gives a component a totals row at every snapshot of
// the history that never became current, from the trees kept for them.
func historyComponentTotals(ctx context.Context, tx *sql.Tx, c plumb.Component) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO component_snapshot_totals (component_id, snapshot_seq, at, files, `+fileStatsColumns+`)
		SELECT $1, s.seq, s.analyzed_at, count(f.path_id),
			coalesce(sum(f.lines), 0), coalesce(sum(f.loc), 0), coalesce(sum(f.complexity), 0), coalesce(sum(f.duplicated_lines), 0),
			coalesce(sum(f.open_issues), 0), coalesce(sum(f.remediation_minutes), 0), coalesce(sum(f.sec_high), 0),
			coalesce(sum(f.sec_medium), 0), coalesce(sum(f.sec_low), 0), coalesce(sum(f.sec_note), 0), coalesce(sum(f.sec_fmt), 0)
		FROM snapshots s
		LEFT JOIN snapshot_files f ON f.snapshot_seq = s.seq AND f.path_id IN (SELECT cp.path_id FROM component_paths cp WHERE cp.component_id = $1)
		WHERE s.project_id = $2 AND s.measured = `+sqlSnapshotHistory+` AND s.pending = 0
		GROUP BY s.seq, s.analyzed_at`, c.ID, c.ProjectID)
	return err
}
