package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/metric"
)

// MetricsComparison holds the metric inputs of both sides of a comparison.
type MetricsComparison struct {
	Base, Head metric.Totals
	Components []ComponentComparison
}

// ComponentComparison is one component's totals on both sides.
type ComponentComparison struct {
	ID, Name   string
	Base, Head metric.Totals
}

// compareMetrics computes the totals of both sides. The base must be a
// default-branch analysis (its files' figures are the stored history); the
// head's files are the base's with the head's own figures: a default-branch
// head's stored ones, or, for an analysis of another branch (whose per-file
// figures are not kept), the base's figures with the head's open issues.
// Coverage is each commit's own (the head's with carry-forward for the
// project).
func compareMetrics(ctx context.Context, tx *sql.Tx, projectID string, cmp *Comparison, baseSeq, headSeq int64) (*MetricsComparison, error) {
	if cmp.BaseSnapshot == nil || !cmp.BaseSnapshot.Measured {
		return nil, nil
	}
	m := &MetricsComparison{}
	var current sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT current_snapshot FROM projects WHERE id = $1`, projectID).Scan(&current); err != nil {
		return nil, err
	}
	var sums []string
	for _, c := range strings.Split(fileStatsColumns, ",") {
		sums = append(sums, "coalesce(sum(v."+strings.TrimSpace(c)+"), 0)")
	}
	q := `SELECT count(*), ` + strings.Join(sums, ", ") + ` FROM paths p JOIN file_versions v ON v.path_id = p.id AND v.since_seq = p.current_seq
		WHERE p.project_id = $1 AND p.current_seq IS NOT NULL AND v.deleted = 0`
	args := []any{projectID}
	if !current.Valid || current.Int64 != baseSeq {
		q = `SELECT count(*), ` + strings.Join(sums, ", ") + ` FROM paths p JOIN file_versions v ON v.path_id = p.id
			WHERE p.project_id = $1 AND v.deleted = 0 AND v.since_seq = (SELECT max(w.since_seq) FROM file_versions w WHERE w.path_id = p.id AND w.since_seq <= $2)`
		args = append(args, baseSeq)
	}
	if err := tx.QueryRowContext(ctx, q, args...).Scan(scanFileStats([]any{&m.Base.Files}, &m.Base.Stats)...); err != nil {
		return nil, err
	}
	comps, err := componentsAt(ctx, tx, projectID, baseSeq)
	if err != nil {
		return nil, err
	}
	m.Head = m.Base
	for i := range comps {
		comps[i].Head = comps[i].Base
	}
	if cmp.HeadSnapshot != nil && headSeq != baseSeq {
		changes, err := headFileChanges(ctx, tx, projectID, cmp, baseSeq, headSeq)
		if err != nil {
			return nil, err
		}
		ids := make([]int64, 0, len(changes))
		for id := range changes {
			ids = append(ids, id)
		}
		members, err := componentsOfPaths(ctx, tx, ids)
		if err != nil {
			return nil, err
		}
		apply := func(t *metric.Totals, c fileChange) {
			if c.old != nil {
				t.Sub(*c.old)
			}
			if c.new != nil {
				t.Add(*c.new)
			}
		}
		for id, c := range changes {
			apply(&m.Head, c)
			for i := range comps {
				if members[id][comps[i].ID] {
					apply(&comps[i].Head, c)
				}
			}
		}
	}
	m.Base.Coverage, m.Head.Coverage = cmp.Base.Coverage, cmp.Head.Coverage
	for i := range comps {
		for _, side := range []struct {
			commit string
			t      *metric.Totals
		}{{cmp.Base.Commit, &comps[i].Base}, {cmp.Head.Commit, &comps[i].Head}} {
			if err := tx.QueryRowContext(ctx, `SELECT coalesce(sum(u.covered), 0), coalesce(sum(u.missed), 0) FROM coverage_union u
				JOIN component_paths cp ON cp.path_id = u.path_id AND cp.component_id = $3
				WHERE u.project_id = $1 AND u.commit_sha = $2`, projectID, side.commit, comps[i].ID).Scan(&side.t.Coverage.Covered, &side.t.Coverage.Missed); err != nil {
				return nil, err
			}
		}
	}
	m.Components = comps
	return m, nil
}

// componentsAt returns the project's components with their totals at a
// default-branch snapshot (their latest measurement at or before it).
func componentsAt(ctx context.Context, tx *sql.Tx, projectID string, seq int64) ([]ComponentComparison, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, name FROM components WHERE project_id = $1 ORDER BY name_fold, id`, projectID)
	if err != nil {
		return nil, err
	}
	var out []ComponentComparison
	for rows.Next() {
		var c ComponentComparison
		if err := rows.Scan(&c.ID, &c.Name); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		t := &out[i].Base
		err := tx.QueryRowContext(ctx, `SELECT files, `+fileStatsColumns+` FROM component_snapshot_totals
			WHERE component_id = $1 AND snapshot_seq <= $2 ORDER BY snapshot_seq DESC LIMIT 1`, out[i].ID, seq).Scan(scanFileStats([]any{&t.Files}, &t.Stats)...)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
	}
	return out, nil
}

type fileChange struct{ old, new *metric.FileStats }

// headFileChanges lists, by path id, the files whose figures differ between
// the base and the head.
func headFileChanges(ctx context.Context, tx *sql.Tx, projectID string, cmp *Comparison, baseSeq, headSeq int64) (map[int64]fileChange, error) {
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
	if cmp.HeadSnapshot.Measured {
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
	} else {
		// Another branch: the paths with issues on either side.
		paths := map[string]bool{}
		for _, list := range [][]plumb.Issue{cmp.BaseIssuesAll, cmp.HeadIssuesAll} {
			for _, is := range list {
				paths[is.Path] = true
			}
		}
		idOf, err := knownPathIDs(ctx, tx, projectID, keys(paths))
		if err != nil {
			return nil, err
		}
		for _, id := range idOf {
			ids = append(ids, id)
		}
		cmp.headIssuePaths = idOf
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
		var after map[int64]metric.FileStats
		if cmp.HeadSnapshot.Measured {
			if after, err = at(headSeq, list.String()); err != nil {
				return nil, err
			}
		} else {
			after = map[int64]metric.FileStats{}
			for id, st := range before {
				st.OpenIssues, st.RemediationMinutes, st.SecurityIssues = 0, 0, metric.LevelCounts{}
				after[id] = st
			}
			for _, is := range cmp.HeadIssuesAll {
				id, ok := cmp.headIssuePaths[is.Path]
				st, known := after[id]
				if !ok || !known || is.Status != "open" {
					continue
				}
				lv, _ := metric.ParseLevel(is.Level)
				st.AddOpenIssue(lv, is.Category)
				after[id] = st
			}
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
