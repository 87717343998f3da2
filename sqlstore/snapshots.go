package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/metric"
)

// AddBuild stores a build (an ID is assigned when empty).
func (db *DB) AddBuild(ctx context.Context, b plumb.Build) (plumb.Build, error) {
	if b.ID == "" {
		b.ID = NewID()
	}
	b.ID = strings.ToLower(b.ID)
	if err := validateBuild(b); err != nil {
		return b, err
	}
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		if b.SnapshotID != "" {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM snapshots WHERE id = $1 AND project_id = $2 AND pending = 0`, b.SnapshotID, b.ProjectID).Scan(&n); err != nil {
				return err
			}
			if n == 0 {
				return plumb.Errorf(plumb.EINVALID, "build snapshotId %q is not a snapshot of this project", b.SnapshotID)
			}
		}
		if err := insertBuild(ctx, tx, b); err != nil {
			return err
		}
		if err := addBuildEvent(ctx, tx, b.ID, b.Status, b.StatusReason, b.SubmittedAt); err != nil {
			return err
		}
		return db.recordAnswer(ctx, tx, b)
	})
	if err == nil {
		db.published(ctx, "build")
	}
	return b, err
}

func validateBuild(b plumb.Build) error {
	var errs []string
	if !isUUID(b.ID) {
		errs = append(errs, fmt.Sprintf("build id must be a UUID, got %q", b.ID))
	}
	if strings.TrimSpace(b.CommitSHA) == "" {
		errs = append(errs, "build commitSha is required")
	}
	if !plumb.Contains(plumb.BuildTypes, b.Type) {
		errs = append(errs, fmt.Sprintf("build type must be one of %s, got %q", strings.Join(plumb.BuildTypes, ", "), b.Type))
	}
	if !plumb.Contains(plumb.BuildStatuses, b.Status) {
		errs = append(errs, fmt.Sprintf("build status must be one of %s, got %q", strings.Join(plumb.BuildStatuses, ", "), b.Status))
	}
	if b.Conclusion != nil && *b.Conclusion != "succeeded" && *b.Conclusion != "failed" {
		errs = append(errs, fmt.Sprintf("build conclusion must be succeeded, failed or null, got %q", *b.Conclusion))
	}
	if b.SubmittedAt.IsZero() {
		errs = append(errs, "build submittedAt is required")
	}
	if b.StartedAt != nil && b.StartedAt.Before(b.SubmittedAt) {
		errs = append(errs, "build startedAt is before submittedAt")
	}
	if b.FinishedAt != nil && (b.FinishedAt.Before(b.SubmittedAt) || b.StartedAt != nil && b.FinishedAt.Before(*b.StartedAt)) {
		errs = append(errs, "build finishedAt is before its start")
	}
	return plumb.Invalid(errs)
}

// validateSnapshot checks a snapshot's head (its files and issues are
// checked as they enter its spool), naming every bad field.
func validateSnapshot(in *plumb.SnapshotInput) error {
	var errs []string
	if strings.TrimSpace(in.Branch) == "" {
		errs = append(errs, "snapshot branch is required")
	}
	if strings.TrimSpace(in.CommitSHA) == "" {
		errs = append(errs, "snapshot commitSha is required")
	}
	if in.ID != "" {
		in.ID = strings.ToLower(in.ID)
		if !isUUID(in.ID) {
			errs = append(errs, fmt.Sprintf("snapshot id must be a UUID, got %q", in.ID))
		}
	}
	if in.AnalyzedAt.IsZero() {
		errs = append(errs, "snapshot analyzedAt is required")
	}
	return plumb.Invalid(errs)
}

const fileStatsColumns = `lines, loc, complexity, duplicated_lines, open_issues, remediation_minutes, sec_high, sec_medium, sec_low, sec_note, sec_fmt`

func scanFileStats(dest []any, st *metric.FileStats) []any {
	sec := &st.SecurityIssues
	return append(dest, &st.Lines, &st.LOC, &st.Complexity, &st.DuplicatedLines, &st.OpenIssues, &st.RemediationMinutes,
		&sec[metric.LevelHigh-1], &sec[metric.LevelMedium-1], &sec[metric.LevelLow-1], &sec[metric.LevelNote-1], &sec[metric.LevelFmt-1])
}

func fileStatsArgs(st metric.FileStats) []any {
	sec := st.SecurityIssues
	return []any{st.Lines, st.LOC, st.Complexity, st.DuplicatedLines, st.OpenIssues, st.RemediationMinutes,
		sec[metric.LevelHigh-1], sec[metric.LevelMedium-1], sec[metric.LevelLow-1], sec[metric.LevelNote-1], sec[metric.LevelFmt-1]}
}

// inBatches calls fn with "$2, $3, …" placeholders and their values for
// batches of items (the $1 slot is the caller's).
func inBatches(items []string, fn func(in string, args []any) error) error {
	const batch = 400
	for start := 0; start < len(items); start += batch {
		part := items[start:min(start+batch, len(items))]
		var in strings.Builder
		args := make([]any, len(part))
		for i, it := range part {
			if i > 0 {
				in.WriteString(", ")
			}
			fmt.Fprintf(&in, "$%d", i+2)
			args[i] = it
		}
		if err := fn(in.String(), args); err != nil {
			return err
		}
	}
	return nil
}

func prefixCols(prefix, cols string) string {
	parts := strings.Split(cols, ", ")
	for i := range parts {
		parts[i] = prefix + parts[i]
	}
	return strings.Join(parts, ", ")
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// knownPathIDs returns the ids of those of the given paths the project has
// numbered.
func knownPathIDs(ctx context.Context, q querier, projectID string, paths []string) (map[string]int64, error) {
	known := map[string]int64{}
	err := inBatches(paths, func(in string, args []any) error {
		return eachRow(ctx, q, `SELECT id, path FROM paths WHERE project_id = $1 AND path IN (`+in+`)`, append([]any{projectID}, args...),
			func(rows *sql.Rows) error {
				var id int64
				var p string
				if err := rows.Scan(&id, &p); err != nil {
					return err
				}
				known[p] = id
				return nil
			})
	})
	return known, err
}

// pathIDs returns the ids of the given paths, numbering new ones (and adding
// new paths to the components whose globs match them).
func (db *DB) pathIDs(ctx context.Context, tx *sql.Tx, projectID string, paths []string) (map[string]int64, error) {
	out := make(map[string]int64, len(paths))
	known, err := knownPathIDs(ctx, tx, projectID, paths)
	if err != nil {
		return nil, err
	}
	var fresh []string
	for _, p := range paths {
		if id, ok := known[p]; ok {
			out[p] = id
		} else if _, dup := out[p]; !dup {
			out[p] = 0 // numbered below, once however often it is named
			fresh = append(fresh, p)
		}
	}
	if len(fresh) == 0 {
		return out, nil
	}
	// New paths join components: a component being created meanwhile (it
	// locks the project while it matches the paths) must see them or be
	// seen, so a staged write's chunk takes the lock here.
	if err := db.lockProject(ctx, tx, projectID); err != nil {
		return nil, err
	}
	ins, err := tx.PrepareContext(ctx, `INSERT INTO paths (project_id, path) VALUES ($1, $2) RETURNING id`)
	if err != nil {
		return nil, err
	}
	defer ins.Close()
	for _, p := range fresh {
		var id int64
		if err := ins.QueryRowContext(ctx, projectID, p).Scan(&id); err != nil {
			return nil, err
		}
		out[p] = id
	}
	// New paths join the components whose globs match them.
	comps, err := loadComponents(ctx, tx, projectID)
	if err != nil {
		return nil, err
	}
	for _, c := range comps {
		m, err := metric.CompileGlobs(c.PathGlobs)
		if err != nil {
			return nil, err
		}
		for _, p := range fresh {
			if m.Match(p) {
				if _, err := tx.ExecContext(ctx, `INSERT INTO component_paths (component_id, path_id) VALUES ($1, $2)`, c.ID, out[p]); err != nil {
					return nil, err
				}
			}
		}
	}
	return out, nil
}

// componentsOfPaths maps each given path to the components it belongs to.
func componentsOfPaths(ctx context.Context, q querier, pathIDs []int64) (map[int64]map[string]bool, error) {
	out := map[int64]map[string]bool{}
	for start := 0; start < len(pathIDs); start += 500 {
		end := min(start+500, len(pathIDs))
		var in strings.Builder
		for i, id := range pathIDs[start:end] {
			if i > 0 {
				in.WriteByte(',')
			}
			fmt.Fprintf(&in, "%d", id)
		}
		err := eachRow(ctx, q, `SELECT path_id, component_id FROM component_paths WHERE path_id IN (`+in.String()+`)`, nil, func(rows *sql.Rows) error {
			var pid int64
			var cid string
			if err := rows.Scan(&pid, &cid); err != nil {
				return err
			}
			if out[pid] == nil {
				out[pid] = map[string]bool{}
			}
			out[pid][cid] = true
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// latestSnapshotTotals returns a component's totals at its latest
// measurement (zero when it has none).
func latestSnapshotTotals(ctx context.Context, q querier, componentID string) (metric.Totals, error) {
	return latestTotalsRow(ctx, q, "component_snapshot_totals", "component_id", componentID)
}

func insertSnapshotTotals(ctx context.Context, q querier, componentID string, seq int64, at time.Time, t metric.Totals) error {
	return insertTotalsRow(ctx, q, "component_snapshot_totals", "component_id", componentID, seq, at, t)
}

// latestProjectTotals returns the project's analysis totals at its latest
// measured snapshot (zero when it has none).
func latestProjectTotals(ctx context.Context, q querier, projectID string) (metric.Totals, error) {
	return latestTotalsRow(ctx, q, "project_snapshot_totals", "project_id", projectID)
}

func insertProjectTotals(ctx context.Context, q querier, projectID string, seq int64, at time.Time, t metric.Totals) error {
	return insertTotalsRow(ctx, q, "project_snapshot_totals", "project_id", projectID, seq, at, t)
}

// latestTotalsRow reads the latest row of a totals table (component or
// project) for one key.
func latestTotalsRow(ctx context.Context, q querier, table, keyCol, key string) (metric.Totals, error) {
	var t metric.Totals
	err := q.QueryRowContext(ctx, `SELECT files, `+fileStatsColumns+` FROM `+table+`
		WHERE `+keyCol+` = $1 ORDER BY at DESC, snapshot_seq DESC LIMIT 1`, key).Scan(scanFileStats([]any{&t.Files}, &t.Stats)...)
	if errors.Is(err, sql.ErrNoRows) {
		return metric.Totals{}, nil
	}
	return t, err
}

func insertTotalsRow(ctx context.Context, q querier, table, keyCol, key string, seq int64, at time.Time, t metric.Totals) error {
	_, err := q.ExecContext(ctx, `INSERT INTO `+table+` (`+keyCol+`, snapshot_seq, at, files, `+fileStatsColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
		append([]any{key, seq, unix(at), t.Files}, fileStatsArgs(t.Stats)...)...)
	return err
}
