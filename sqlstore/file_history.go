package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"sort"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/metric"
)

// FileHistory returns one file's measurements up to `to`, oldest first, as
// ProjectHistory does for the whole project: at each measured
// default-branch analysis, the file's figures (Files 1), or Files 0 where
// the analysis did not have the file after an earlier one did; at each
// default-branch coverage measurement that covers the file, its lines
// covered and missed (every coverage tag together). A path no analysis or
// coverage of the project named has no measurements.
func (db *DB) FileHistory(ctx context.Context, projectID, path string, to time.Time) (analysis, coverage []plumb.TotalsAt, err error) {
	err = db.readTx(ctx, func(tx *sql.Tx) error {
		var pathID int64
		err := tx.QueryRowContext(ctx, `SELECT id FROM paths WHERE project_id = $1 AND path = $2`, projectID, path).Scan(&pathID)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if analysis, err = fileAnalysisHistory(ctx, tx, projectID, pathID, to); err != nil {
			return err
		}
		coverage, err = queryRecords(ctx, tx, `SELECT t.at, u.covered, u.missed FROM coverage_totals t
			JOIN coverage_union u ON u.project_id = t.project_id AND u.commit_sha = t.commit_sha AND u.path_id = $3
			WHERE t.project_id = $1 AND t.component_id = '' AND t.at <= $2 ORDER BY t.at, t.commit_sha`,
			[]any{projectID, unix(to), pathID}, coverageAt(1))
		return err
	})
	return analysis, coverage, err
}

// fileVersion is a file's figures from one snapshot on (file_versions), or
// at one snapshot of the history (snapshot_files).
type fileVersion struct {
	seq     int64
	deleted bool
	stats   metric.FileStats
}

// fileAnalysisHistory walks the project's measured snapshots: a snapshot
// of the current line (snapshots.measured = 1) has the file's latest
// file_versions row at or before it; one added to the history later
// (measured = 2) has its own whole tree in snapshot_files.
func fileAnalysisHistory(ctx context.Context, tx *sql.Tx, projectID string, pathID int64, to time.Time) ([]plumb.TotalsAt, error) {
	scanVersion := func(withDeleted bool) func(scanner) (fileVersion, error) {
		return func(row scanner) (fileVersion, error) {
			var v fileVersion
			dest := []any{&v.seq}
			if withDeleted {
				dest = append(dest, &v.deleted)
			}
			return v, row.Scan(scanFileStats(dest, &v.stats)...)
		}
	}
	versions, err := queryRecords(ctx, tx, `SELECT since_seq, deleted, `+fileStatsColumns+` FROM file_versions
		WHERE path_id = $1 ORDER BY since_seq`, []any{pathID}, scanVersion(true))
	if err != nil {
		return nil, err
	}
	whole, err := queryRecords(ctx, tx, `SELECT snapshot_seq, `+fileStatsColumns+` FROM snapshot_files WHERE path_id = $1`,
		[]any{pathID}, scanVersion(false))
	if err != nil {
		return nil, err
	}
	inWhole := make(map[int64]metric.FileStats, len(whole))
	for _, v := range whole {
		inWhole[v.seq] = v.stats
	}
	type measured struct {
		seq, at int64
		kind    int
	}
	snaps, err := queryRecords(ctx, tx, `SELECT t.snapshot_seq, t.at, s.measured FROM project_snapshot_totals t
		JOIN snapshots s ON s.seq = t.snapshot_seq WHERE t.project_id = $1 AND t.at <= $2 ORDER BY t.at, t.snapshot_seq`,
		[]any{projectID, unix(to)}, func(row scanner) (measured, error) {
			var m measured
			return m, row.Scan(&m.seq, &m.at, &m.kind)
		})
	if err != nil {
		return nil, err
	}
	var out []plumb.TotalsAt
	for _, m := range snaps {
		var t metric.Totals
		if m.kind == 2 {
			if st, ok := inWhole[m.seq]; ok {
				t = metric.Totals{Files: 1, Stats: st}
			}
		} else if i := sort.Search(len(versions), func(i int) bool { return versions[i].seq > m.seq }); i > 0 && !versions[i-1].deleted {
			t = metric.Totals{Files: 1, Stats: versions[i-1].stats}
		}
		if t.Files == 0 && len(out) == 0 {
			continue // before the file's first analysis
		}
		out = append(out, plumb.TotalsAt{At: fromUnix(m.at), Totals: t})
	}
	return out, nil
}
