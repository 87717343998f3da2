package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/plumbhq/plumb/compare"
	"github.com/plumbhq/plumb/metric"
)

// compareMetrics computes the totals of both sides. The base must be a
// default-branch analysis (its files' figures are the stored history); the
// head's files are the base's with the head's own figures: a default-branch
// head's stored ones, or, for an analysis of another branch (whose per-file
// figures are not kept), the base's. On both sides the issue figures come
// from that side's open issues, the issues the comparison's lists classify
// (compare.WithIssueFigures), so the issue metrics' deltas agree with the
// lists. Coverage is each commit's own (the head's with carry-forward for
// the project).
func compareMetrics(ctx context.Context, tx *sql.Tx, projectID string, cmp *compare.Comparison, baseSeq, headSeq int64, asOf time.Time) (*compare.MetricsComparison, []keptCoverage, error) {
	if !compare.HasMetrics(cmp.BaseSnapshot) {
		return nil, nil, nil
	}
	in := compare.MetricsInput{BaseIssues: cmp.BaseIssuesAll, HeadIssues: cmp.HeadIssuesAll,
		BaseCoverage: cmp.Base.Coverage, HeadCoverage: cmp.Head.Coverage}
	// The base's totals as kept at its analysis; summed from its files'
	// versions only for a snapshot without them.
	err := tx.QueryRowContext(ctx, `SELECT files, `+fileStatsColumns+` FROM project_snapshot_totals
		WHERE project_id = $1 AND snapshot_seq = $2`, projectID, baseSeq).Scan(scanFileStats([]any{&in.Base.Files}, &in.Base.Stats)...)
	if errors.Is(err, sql.ErrNoRows) {
		var sums []string
		for _, c := range strings.Split(fileStatsColumns, ",") {
			sums = append(sums, "coalesce(sum(v."+strings.TrimSpace(c)+"), 0)")
		}
		err = tx.QueryRowContext(ctx, `SELECT count(*), `+strings.Join(sums, ", ")+` FROM paths p JOIN file_versions v ON v.path_id = p.id
			WHERE p.project_id = $1 AND v.deleted = 0 AND v.since_seq = (SELECT max(w.since_seq) FROM file_versions w WHERE w.path_id = p.id AND w.since_seq <= $2)`,
			projectID, baseSeq).Scan(scanFileStats([]any{&in.Base.Files}, &in.Base.Stats)...)
	}
	if err != nil {
		return nil, nil, err
	}
	if in.Components, in.Matchers, err = componentsAt(ctx, tx, projectID, baseSeq); err != nil {
		return nil, nil, err
	}
	if compare.HeadFilesDiffer(cmp.HeadSnapshot, headSeq == baseSeq) {
		changes, err := headFileChanges(ctx, tx, projectID, baseSeq, headSeq)
		if err != nil {
			return nil, nil, err
		}
		ids := make([]int64, 0, len(changes))
		for id := range changes {
			ids = append(ids, id)
		}
		members, err := componentsOfPaths(ctx, tx, ids)
		if err != nil {
			return nil, nil, err
		}
		for _, id := range ids {
			c := changes[id]
			in.Changes = append(in.Changes, compare.FileDelta{Old: c.old, New: c.new, Components: members[id]})
		}
	}
	var fresh []keptCoverage
	if len(in.Components) > 0 {
		for i, commit := range []string{cmp.Base.Commit, cmp.Head.Commit} {
			cov, kept, err := componentCoverage(ctx, tx, projectID, commit, in.Components, asOf)
			if err != nil {
				return nil, nil, err
			}
			in.ComponentCoverage[i] = cov
			fresh = append(fresh, kept...)
		}
	}
	return compare.Metrics(in), fresh, nil
}

// componentCoverage returns each component's coverage at a commit (the union
// of its tags): the measurement kept for a default-branch commit, else the
// one kept by an earlier comparison while still valid (migration 0012), else
// summed from the commit's files. Sums made here are returned to be kept.
func componentCoverage(ctx context.Context, tx *sql.Tx, projectID, commit string, comps []compare.ComponentComparison, asOf time.Time) (map[string]metric.Coverage, []keptCoverage, error) {
	out := map[string]metric.Coverage{}
	read := func(q string, args ...any) (bool, error) {
		rows, err := tx.QueryContext(ctx, q, args...)
		if err != nil {
			return false, err
		}
		defer rows.Close()
		found := false
		for rows.Next() {
			var id string
			var c metric.Coverage
			if err := rows.Scan(&id, &c.Covered, &c.Missed); err != nil {
				return false, err
			}
			out[id] = c
			found = true
		}
		return found, rows.Err()
	}
	// coverage_totals holds the project ('') and every component of a
	// default-branch commit, or nothing.
	kept, err := read(`SELECT component_id, covered, missed FROM coverage_totals WHERE project_id = $1 AND commit_sha = $2`, projectID, commit)
	if err != nil || kept {
		return out, nil, err
	}
	var uploadSeq int64
	var current sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0), (SELECT current_snapshot FROM projects WHERE id = $1)
		FROM coverage_uploads WHERE pending = 0 AND project_id = $1 AND commit_sha = $2`, projectID, commit).Scan(&uploadSeq, &current); err != nil {
		return nil, nil, err
	}
	if uploadSeq == 0 {
		return out, nil, nil // no coverage
	}
	if _, err := read(`SELECT k.component_id, k.covered, k.missed FROM commit_component_coverage k JOIN components c ON c.id = k.component_id
		WHERE k.project_id = $1 AND k.commit_sha = $2 AND k.upload_seq = $3 AND k.snapshot_seq = $4 AND k.computed_at > c.updated_at`,
		projectID, commit, uploadSeq, current.Int64); err != nil {
		return nil, nil, err
	}
	var missing []string
	for _, c := range comps {
		if _, ok := out[c.ID]; !ok {
			missing = append(missing, c.ID)
		}
	}
	if len(missing) == 0 {
		return out, nil, nil
	}
	// Every component's sum in one pass over the commit's files (each file
	// looked up in its components by path), rather than one query per
	// component: SQLite's plan for the latter walked all the commit's files
	// for each component.
	sums := map[string]metric.Coverage{}
	err = eachRow(ctx, tx, `SELECT cp.component_id, sum(u.covered), sum(u.missed) FROM coverage_union u
		JOIN component_paths cp ON cp.path_id = u.path_id
		WHERE u.project_id = $1 AND u.commit_sha = $2 GROUP BY cp.component_id`, []any{projectID, commit}, func(rows *sql.Rows) error {
		var id string
		var c metric.Coverage
		if err := rows.Scan(&id, &c.Covered, &c.Missed); err != nil {
			return err
		}
		sums[id] = c
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	var fresh []keptCoverage
	for _, id := range missing {
		cov := sums[id] // none of its files covered: zero
		out[id] = cov
		fresh = append(fresh, keptCoverage{projectID, commit, id, uploadSeq, current.Int64, unix(asOf), cov})
	}
	return out, fresh, nil
}

// keptCoverage is one row of commit_component_coverage.
type keptCoverage struct {
	project, commit, component         string
	uploadSeq, snapshotSeq, computedAt int64
	cov                                metric.Coverage
}

// keepComponentCoverage stores what a comparison summed, for the next one.
// It is a cache: a failure (a component deleted meanwhile) loses nothing.
func (db *DB) keepComponentCoverage(ctx context.Context, rows []keptCoverage) {
	if len(rows) == 0 {
		return
	}
	_ = db.inTx(ctx, func(tx *sql.Tx) error {
		for _, r := range rows {
			if _, err := tx.ExecContext(ctx, `INSERT INTO commit_component_coverage
				(project_id, commit_sha, component_id, upload_seq, snapshot_seq, computed_at, covered, missed)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
				ON CONFLICT (project_id, commit_sha, component_id) DO UPDATE SET upload_seq = excluded.upload_seq,
				snapshot_seq = excluded.snapshot_seq, computed_at = excluded.computed_at, covered = excluded.covered, missed = excluded.missed`,
				r.project, r.commit, r.component, r.uploadSeq, r.snapshotSeq, r.computedAt, r.cov.Covered, r.cov.Missed); err != nil {
				return err
			}
		}
		return nil
	})
}

// componentsAt returns the project's components with their totals at a
// default-branch snapshot (their latest measurement at or before it), and
// each one's path globs.
func componentsAt(ctx context.Context, tx *sql.Tx, projectID string, seq int64) ([]compare.ComponentComparison, []metric.Matcher, error) {
	list, err := loadComponents(ctx, tx, projectID)
	if err != nil {
		return nil, nil, err
	}
	out := make([]compare.ComponentComparison, len(list))
	globs := make([]metric.Matcher, len(list))
	for i, c := range list {
		out[i] = compare.ComponentComparison{ID: c.ID, Name: c.Name}
		if globs[i], err = metric.CompileGlobs(c.PathGlobs); err != nil {
			return nil, nil, err
		}
		t := &out[i].Base
		err := tx.QueryRowContext(ctx, `SELECT files, `+fileStatsColumns+` FROM component_snapshot_totals
			WHERE component_id = $1 AND snapshot_seq <= $2 ORDER BY snapshot_seq DESC LIMIT 1`, c.ID, seq).Scan(scanFileStats([]any{&t.Files}, &t.Stats)...)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, nil, err
		}
	}
	return out, globs, nil
}

type fileChange struct{ old, new *metric.FileStats }

// headFileChanges lists, by path id, the files whose figures differ between
// two default-branch snapshots.
func headFileChanges(ctx context.Context, tx *sql.Tx, projectID string, baseSeq, headSeq int64) (map[int64]fileChange, error) {
	out := map[int64]fileChange{}
	at := func(seq int64, ids string) (map[int64]metric.FileStats, error) {
		rows, err := tx.QueryContext(ctx, `SELECT v.path_id, `+prefixCols("v.", fileStatsColumns)+` FROM file_versions v
			WHERE v.path_id IN (`+ids+`) AND v.deleted = 0
			AND v.since_seq = (SELECT max(w.since_seq) FROM file_versions w WHERE w.path_id = v.path_id AND w.since_seq <= $1)`, seq)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		m := map[int64]metric.FileStats{}
		for rows.Next() {
			var id int64
			var st metric.FileStats
			if err := rows.Scan(scanFileStats([]any{&id}, &st)...); err != nil {
				return nil, err
			}
			m[id] = st
		}
		return m, rows.Err()
	}
	var ids []int64
	lo, hi := min(baseSeq, headSeq), max(baseSeq, headSeq)
	rows, err := tx.QueryContext(ctx, `SELECT DISTINCT v.path_id FROM file_versions v JOIN paths p ON p.id = v.path_id
		WHERE p.project_id = $1 AND v.since_seq > $2 AND v.since_seq <= $3`, projectID, lo, hi)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for start := 0; start < len(ids); start += 400 {
		part := ids[start:min(start+400, len(ids))]
		var list strings.Builder
		for i, id := range part {
			if i > 0 {
				list.WriteByte(',')
			}
			fmt.Fprint(&list, id)
		}
		before, err := at(baseSeq, list.String())
		if err != nil {
			return nil, err
		}
		after, err := at(headSeq, list.String())
		if err != nil {
			return nil, err
		}
		for _, id := range part {
			b, inBefore := before[id]
			a, inAfter := after[id]
			if inBefore == inAfter && b == a {
				continue
			}
			var c fileChange
			if inBefore {
				c.old = &b
			}
			if inAfter {
				c.new = &a
			}
			out[id] = c
		}
	}
	return out, nil
}
