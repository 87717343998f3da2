package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/metric"
)

// Reads the web pages need that the v1 API has no endpoint for (yet).

// WorkspaceProjects lists a workspace's projects in key order. Visibility is
// the workspace's: callers find the workspace with FindWorkspace first.
func (db *DB) WorkspaceProjects(ctx context.Context, workspaceID string) ([]plumb.Project, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT `+projectColumns+` FROM projects p WHERE p.workspace_id = $1
		ORDER BY lower(p.key), p.id`, workspaceID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []plumb.Project
	for rows.Next() {
		p, err := scanProject(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// WholeProjectTotals returns the totals of every file of the project's current
// default-branch snapshot and the latest default-branch coverage.
func (db *DB) WholeProjectTotals(ctx context.Context, projectID string) (metric.Totals, error) {
	var t metric.Totals
	var sums []string
	for _, c := range strings.Split(fileStatsColumns, ",") {
		sums = append(sums, "coalesce(sum(v."+strings.TrimSpace(c)+"), 0)")
	}
	err := db.readTx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT count(*), `+strings.Join(sums, ", ")+` FROM paths p
			JOIN file_versions v ON v.path_id = p.id AND v.since_seq = p.current_seq
			WHERE p.project_id = $1 AND p.current_seq IS NOT NULL AND v.deleted = 0`, projectID).
			Scan(scanFileStats([]any{&t.Files}, &t.Stats)...)
		if err != nil {
			return err
		}
		err = tx.QueryRowContext(ctx, `SELECT covered, missed FROM coverage_totals WHERE project_id = $1 AND component_id = ''
			ORDER BY at DESC, commit_sha DESC LIMIT 1`, projectID).Scan(&t.Coverage.Covered, &t.Coverage.Missed)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		return err
	})
	return t, err
}

// WholeProjectHistory returns the project's measurements up to `to`, oldest
// first: the totals of every file at each default-branch snapshot (replayed
// from the file versions) and the project's coverage totals.
func (db *DB) WholeProjectHistory(ctx context.Context, projectID string, to time.Time) (analysis, coverage []TotalsAt, err error) {
	err = db.readTx(ctx, func(tx *sql.Tx) error {
		at := map[int64]time.Time{}
		rows, err := tx.QueryContext(ctx, `SELECT seq, analyzed_at FROM snapshots WHERE project_id = $1 AND measured = 1`, projectID)
		if err != nil {
			return err
		}
		for rows.Next() {
			var seq, a int64
			if err := rows.Scan(&seq, &a); err != nil {
				rows.Close()
				return err
			}
			at[seq] = fromUnix(a)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		rows, err = tx.QueryContext(ctx, `SELECT v.path_id, v.since_seq, v.deleted, `+prefixCols("v.", fileStatsColumns)+` FROM file_versions v
			JOIN paths p ON p.id = v.path_id WHERE p.project_id = $1 ORDER BY v.since_seq`, projectID)
		if err != nil {
			return err
		}
		current := map[int64]metric.FileStats{}
		var t metric.Totals
		lastSeq := int64(-1)
		emit := func() {
			if a, ok := at[lastSeq]; ok && !a.After(to) {
				analysis = append(analysis, TotalsAt{At: a, Totals: t})
			}
		}
		for rows.Next() {
			var pathID, seq int64
			var deleted bool
			var st metric.FileStats
			if err := rows.Scan(scanFileStats([]any{&pathID, &seq, &deleted}, &st)...); err != nil {
				rows.Close()
				return err
			}
			if seq != lastSeq && lastSeq >= 0 {
				emit()
			}
			lastSeq = seq
			if old, ok := current[pathID]; ok {
				t.Sub(old)
				delete(current, pathID)
			}
			if !deleted {
				t.Add(st)
				current[pathID] = st
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if lastSeq >= 0 {
			emit()
		}
		sort.SliceStable(analysis, func(i, j int) bool { return analysis[i].At.Before(analysis[j].At) })
		rows, err = tx.QueryContext(ctx, `SELECT at, covered, missed FROM coverage_totals
			WHERE project_id = $1 AND component_id = '' AND at <= $2 ORDER BY at, commit_sha`, projectID, unix(to))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var r TotalsAt
			var a int64
			if err := rows.Scan(&a, &r.Totals.Coverage.Covered, &r.Totals.Coverage.Missed); err != nil {
				return err
			}
			r.At = fromUnix(a)
			coverage = append(coverage, r)
		}
		return rows.Err()
	})
	return analysis, coverage, err
}

// CoverageTags lists the coverage tags uploaded for a project (for the
// coverage viewer's tag switcher), in name order.
func (db *DB) CoverageTags(ctx context.Context, projectID string) ([]string, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT DISTINCT coverage_tag FROM coverage_uploads WHERE project_id = $1 ORDER BY coverage_tag`, projectID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// CoveredPaths lists up to limit paths that have coverage at the commit a
// reference resolves to, starting with prefix, in path order (the coverage
// viewer's file list).
func (db *DB) CoveredPaths(ctx context.Context, projectID, ref, prefix string, limit int) (string, []string, error) {
	var sha string
	var out []string
	err := db.readTx(ctx, func(tx *sql.Tx) error {
		var err error
		if sha, err = resolveReference(ctx, tx, projectID, ref); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT DISTINCT p.path FROM coverage_union u JOIN paths p ON p.id = u.path_id
			WHERE u.project_id = $1 AND u.commit_sha = $2 AND substr(p.path, 1, length($3)) = $3 ORDER BY p.path LIMIT `+strconv.Itoa(max(limit, 1)),
			projectID, sha, prefix)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				return err
			}
			out = append(out, s)
		}
		return rows.Err()
	})
	return sha, out, err
}
