package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/metric"
)

// measuredHistory marks (in snapshots.measured) a default-branch snapshot
// that arrived after a newer one: it is in the metric history at its own
// time, its tree is in snapshot_files, and it never became current.
const measuredHistory = 2

// recordHistory adds an older default-branch snapshot to the metric history
// at its own time. Its tree is its files for a full tree, or for changes the
// tree of the measurement before it in time with its changes applied. The
// project and every component get a totals row at its time; the current files
// and the measurements after it are left as they are (each later measurement
// is the tree reported at its own time).
func (db *DB) recordHistory(ctx context.Context, tx *sql.Tx, in plumb.SnapshotInput, seq int64, at time.Time, issues []plumb.Issue) error {
	var base map[string]metric.FileStats
	if !in.FullTree {
		var err error
		if base, err = treeBefore(ctx, tx, in.ProjectID, seq, at); err != nil {
			return err
		}
	}
	next := nextTree(base, in, issues)
	paths, err := db.pathIDs(ctx, tx, in.ProjectID, keys(next))
	if err != nil {
		return err
	}
	insert, err := tx.PrepareContext(ctx, `INSERT INTO snapshot_files (snapshot_seq, path_id, `+fileStatsColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`)
	if err != nil {
		return err
	}
	defer insert.Close()
	var pt metric.Totals
	ids := make([]int64, 0, len(next))
	for p, st := range next {
		if _, err := insert.ExecContext(ctx, append([]any{seq, paths[p]}, fileStatsArgs(st)...)...); err != nil {
			return err
		}
		pt.Add(st)
		ids = append(ids, paths[p])
	}
	if err := insertProjectTotals(ctx, tx, in.ProjectID, seq, at, pt); err != nil {
		return err
	}
	comps, err := projectComponentIDs(ctx, tx, in.ProjectID)
	if err != nil || len(comps) == 0 {
		return err
	}
	members, err := componentsOfPaths(ctx, tx, ids)
	if err != nil {
		return err
	}
	for _, comp := range comps {
		var t metric.Totals
		for p, st := range next {
			if members[paths[p]][comp] {
				t.Add(st)
			}
		}
		if err := insertSnapshotTotals(ctx, tx, comp, seq, at, t); err != nil {
			return err
		}
	}
	return nil
}

// treeBefore is the tree of the project's latest measurement at or before at
// (other than the snapshot seq being added): a snapshot of the history's own
// tree, or the files of a snapshot that was current, as they were then.
func treeBefore(ctx context.Context, tx *sql.Tx, projectID string, seq int64, at time.Time) (map[string]metric.FileStats, error) {
	var prev, measured int64
	err := tx.QueryRowContext(ctx, `SELECT seq, measured FROM snapshots WHERE project_id = $1 AND measured IN (1, 2) AND seq <> $2
		AND analyzed_at <= $3 ORDER BY analyzed_at DESC, seq DESC LIMIT 1`, projectID, seq, unix(at)).Scan(&prev, &measured)
	if errors.Is(err, sql.ErrNoRows) {
		return map[string]metric.FileStats{}, nil
	} else if err != nil {
		return nil, err
	}
	query := `SELECT p.path, ` + prefixCols("f.", fileStatsColumns) + ` FROM snapshot_files f JOIN paths p ON p.id = f.path_id WHERE f.snapshot_seq = $1`
	if measured == 1 {
		query = `SELECT p.path, ` + prefixCols("v.", fileStatsColumns) + ` FROM paths p
			JOIN file_versions v ON v.path_id = p.id AND v.deleted = 0 AND v.since_seq =
				(SELECT max(x.since_seq) FROM file_versions x WHERE x.path_id = p.id AND x.since_seq <= $1)
			WHERE p.project_id = $2`
	}
	args := []any{prev}
	if measured == 1 {
		args = append(args, projectID)
	}
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]metric.FileStats{}
	for rows.Next() {
		var p string
		var st metric.FileStats
		if err := rows.Scan(scanFileStats([]any{&p}, &st)...); err != nil {
			return nil, err
		}
		out[p] = st
	}
	return out, rows.Err()
}

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
		WHERE s.project_id = $2 AND s.measured = 2
		GROUP BY s.seq, s.analyzed_at`, c.ID, c.ProjectID)
	return err
}
