package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
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
	return b, db.inTx(ctx, func(tx *sql.Tx) error {
		if b.SnapshotID != "" {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM snapshots WHERE id = $1 AND project_id = $2`, b.SnapshotID, b.ProjectID).Scan(&n); err != nil {
				return err
			}
			if n == 0 {
				return plumb.Errorf(plumb.EINVALID, "build snapshotId %q is not a snapshot of this project", b.SnapshotID)
			}
		}
		if err := insertBuild(ctx, tx, b); err != nil {
			return err
		}
		return addBuildEvent(ctx, tx, b.ID, b.Status, b.StatusReason, b.SubmittedAt)
	})
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

// validateSnapshot checks a snapshot input, naming every bad field.
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
	seen := map[string]bool{}
	for i, f := range in.Files {
		if f.Path == "" {
			errs = append(errs, fmt.Sprintf("files[%d]: path is required", i))
		} else if seen[f.Path] {
			errs = append(errs, fmt.Sprintf("files[%d]: path %q is listed twice", i, f.Path))
		}
		seen[f.Path] = true
		if f.Lines < 0 || f.LOC < 0 || f.Complexity < 0 || f.DuplicatedLines < 0 {
			errs = append(errs, fmt.Sprintf("files[%d] (%s): figures must not be negative", i, f.Path))
		}
		if f.LOC > f.Lines || f.DuplicatedLines > f.Lines {
			errs = append(errs, fmt.Sprintf("files[%d] (%s): loc and duplicatedLines must not exceed lines", i, f.Path))
		}
	}
	for i, is := range in.Issues {
		if err := validateIssue(is); err != "" {
			errs = append(errs, fmt.Sprintf("issues[%d]: %s", i, err))
		}
	}
	return plumb.Invalid(errs)
}

func validateIssue(is plumb.Issue) string {
	switch {
	case is.Fingerprint == "":
		return "fingerprint is required"
	case is.Tool == "":
		return "tool is required"
	case is.RuleKey == "":
		return "ruleKey is required"
	case is.Path == "":
		return "path is required"
	case !plumb.Contains(plumb.IssueCategories, is.Category):
		return fmt.Sprintf("category %q is not one of %s", is.Category, strings.Join(plumb.IssueCategories, ", "))
	case !plumb.Contains(plumb.IssueLevels, is.Level):
		return fmt.Sprintf("level %q is not one of %s", is.Level, strings.Join(plumb.IssueLevels, ", "))
	case is.Status != "" && !plumb.Contains(plumb.IssueStatuses, is.Status):
		return fmt.Sprintf("status %q is not one of open, ignored", is.Status)
	case is.StartLine != nil && *is.StartLine < 1, is.EndLine != nil && *is.EndLine < 1:
		return "line numbers start at 1"
	case is.StartLine != nil && is.EndLine != nil && *is.EndLine < *is.StartLine:
		return "endLine is before startLine"
	}
	return ""
}

// AddSnapshot stores a snapshot with its issues, in one transaction. A
// default-branch snapshot at least as new as the current one becomes the
// project's current state: its issues are listed, its files' figures are
// recorded as changes, and every component's totals gain a measurement.
func (db *DB) AddSnapshot(ctx context.Context, in plumb.SnapshotInput) (plumb.Snapshot, error) {
	if err := validateSnapshot(&in); err != nil {
		return plumb.Snapshot{}, err
	}
	var s plumb.Snapshot
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		s, err = db.addSnapshot(ctx, tx, in)
		return err
	})
	return s, err
}

func (db *DB) addSnapshot(ctx context.Context, tx *sql.Tx, in plumb.SnapshotInput) (plumb.Snapshot, error) {
	s := plumb.Snapshot{ID: in.ID, ProjectID: in.ProjectID, Branch: in.Branch, CommitSHA: in.CommitSHA, AnalyzedAt: in.AnalyzedAt.UTC().Truncate(time.Second)}
	if s.ID == "" {
		s.ID = NewID()
	}
	if err := db.lockProject(ctx, tx, in.ProjectID); err != nil {
		return s, err
	}
	var defaultBranch string
	var current sql.NullInt64
	var currentAt sql.NullInt64
	err := tx.QueryRowContext(ctx, `SELECT p.default_branch, p.current_snapshot, s.analyzed_at FROM projects p
		LEFT JOIN snapshots s ON s.seq = p.current_snapshot WHERE p.id = $1`, in.ProjectID).Scan(&defaultBranch, &current, &currentAt)
	if errors.Is(err, sql.ErrNoRows) {
		return s, notFound(fmt.Sprintf("no project %q", in.ProjectID))
	} else if err != nil {
		return s, err
	}
	s.Measured = in.Branch == defaultBranch && (!currentAt.Valid || unix(s.AnalyzedAt) >= currentAt.Int64)
	// An older analysis of the default branch enters the metric history at
	// its own time (measured = 2) and leaves the current files alone.
	s.History = in.Branch == defaultBranch
	measured := boolInt(s.Measured)
	if s.History && !s.Measured {
		measured = measuredHistory
	}
	var seq int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO snapshots (id, project_id, branch, commit_sha, analyzed_at, measured, created_at, analysis)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING seq`, s.ID, s.ProjectID, s.Branch, s.CommitSHA, unix(s.AnalyzedAt), measured, db.now().Unix(), boolInt(!in.FindingsOnly)).Scan(&seq); err != nil {
		return s, err
	}
	in.Issues = slices.Clone(in.Issues) // sorted here; the caller's slice stays as it was
	sortIssues(in.Issues)
	issues, err := db.insertIssues(ctx, tx, in, seq)
	if err != nil {
		return s, err
	}
	if !s.Measured {
		if s.History {
			return s, db.recordHistory(ctx, tx, in, seq, s.AnalyzedAt, issues)
		}
		return s, nil
	}
	if err := db.recordFiles(ctx, tx, in, seq, s.AnalyzedAt, issues); err != nil {
		return s, err
	}
	_, err = tx.ExecContext(ctx, `UPDATE projects SET current_snapshot = $1, issues_version = issues_version + 1 WHERE id = $2`, seq, in.ProjectID)
	return s, err
}

// insertIssues stores a snapshot's issues, applying the statuses their
// fingerprints already have, and returns them with their final status.
func (db *DB) insertIssues(ctx context.Context, tx *sql.Tx, in plumb.SnapshotInput, seq int64) ([]plumb.Issue, error) {
	if len(in.Issues) == 0 {
		return nil, nil
	}
	states := map[string]string{}
	if !in.KeepStatus {
		// Only this snapshot's fingerprints are looked up, so ingestion cost
		// does not grow with the project's history.
		fps := make([]string, len(in.Issues))
		for i, is := range in.Issues {
			fps[i] = is.Fingerprint
		}
		err := inBatches(fps, func(inList string, args []any) error {
			rows, err := tx.QueryContext(ctx, `SELECT fingerprint, status FROM issue_states WHERE project_id = $1 AND fingerprint IN (`+inList+`)`,
				append([]any{in.ProjectID}, args...)...)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				var fp, st string
				if err := rows.Scan(&fp, &st); err != nil {
					return err
				}
				states[fp] = st
			}
			return rows.Err()
		})
		if err != nil {
			return nil, err
		}
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO issues (id, snapshot_seq, fingerprint, tool, rule_key, message, category, level, status,
		documentation_url, path, start_line, end_line) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`)
	if err != nil {
		return nil, err
	}
	defer stmt.Close()
	// The status belongs to the fingerprint: the first status a fingerprint
	// gets is kept for the issue in every later snapshot (an import sets it).
	saveState, err := tx.PrepareContext(ctx, `INSERT INTO issue_states (project_id, fingerprint, status) VALUES ($1, $2, $3)
		ON CONFLICT (project_id, fingerprint) DO UPDATE SET status = excluded.status`)
	if err != nil {
		return nil, err
	}
	defer saveState.Close()
	out := make([]plumb.Issue, len(in.Issues))
	for i, is := range in.Issues {
		if is.ID == "" {
			is.ID = NewID()
		}
		if st, ok := states[is.Fingerprint]; ok {
			is.Status = st
		} else {
			if is.Status == "" {
				is.Status = "open"
			}
			if _, err := saveState.ExecContext(ctx, in.ProjectID, is.Fingerprint, is.Status); err != nil {
				return nil, err
			}
			if !in.KeepStatus {
				states[is.Fingerprint] = is.Status
			}
		}
		var doc any
		if is.DocumentationURL != "" {
			doc = is.DocumentationURL
		}
		if _, err := stmt.ExecContext(ctx, is.ID, seq, is.Fingerprint, is.Tool, is.RuleKey, is.Message, is.Category, is.Level, is.Status,
			doc, is.Path, is.StartLine, is.EndLine); err != nil {
			return nil, err
		}
		out[i] = is
	}
	return out, nil
}

// fileState is one file's figures as stored in file_versions.
type fileState struct {
	pathID int64
	path   string
	stats  metric.FileStats
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

// currentFiles loads the figures of the files of the project's current
// default-branch snapshot, by path: every file, or only the given paths.
func currentFiles(ctx context.Context, q querier, projectID string, only []string) (map[string]*fileState, error) {
	base := `SELECT p.id, p.path, ` + prefixCols("v.", fileStatsColumns) + ` FROM paths p
		JOIN file_versions v ON v.path_id = p.id AND v.since_seq = p.current_seq
		WHERE p.project_id = $1 AND p.current_seq IS NOT NULL AND v.deleted = 0`
	out := map[string]*fileState{}
	scan := func(query string, args ...any) error {
		rows, err := q.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			f := &fileState{}
			if err := rows.Scan(scanFileStats([]any{&f.pathID, &f.path}, &f.stats)...); err != nil {
				return err
			}
			out[f.path] = f
		}
		return rows.Err()
	}
	if only == nil {
		return out, scan(base, projectID)
	}
	return out, inBatches(only, func(in string, args []any) error {
		return scan(base+` AND p.path IN (`+in+`)`, append([]any{projectID}, args...)...)
	})
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

// touchedPaths lists the paths whose figures a snapshot given as changes can
// alter: the files it lists or removes, and the files with issues in it or in
// the snapshot it replaces (their issue figures are recomputed).
func touchedPaths(ctx context.Context, q querier, projectID string, in plumb.SnapshotInput) ([]string, error) {
	set := map[string]bool{}
	for _, f := range in.Files {
		set[f.Path] = true
	}
	for _, p := range in.Removed {
		set[p] = true
	}
	for _, is := range in.Issues {
		set[is.Path] = true
	}
	rows, err := q.QueryContext(ctx, `SELECT DISTINCT i.path FROM issues i JOIN projects p ON p.current_snapshot = i.snapshot_seq WHERE p.id = $1`, projectID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		set[p] = true
	}
	return keys(set), rows.Err()
}

func prefixCols(prefix, cols string) string {
	parts := strings.Split(cols, ", ")
	for i := range parts {
		parts[i] = prefix + parts[i]
	}
	return strings.Join(parts, ", ")
}

// recordFiles records the files of a new current default-branch snapshot as
// changes against the previous one, and adds a measurement to every
// component's totals.
func (db *DB) recordFiles(ctx context.Context, tx *sql.Tx, in plumb.SnapshotInput, seq int64, at time.Time, issues []plumb.Issue) error {
	// A full tree replaces every file; a snapshot of changes can only alter
	// the files it touches, so only those are loaded and compared.
	var only []string
	if !in.FullTree {
		var err error
		if only, err = touchedPaths(ctx, tx, in.ProjectID, in); err != nil {
			return err
		}
	}
	old, err := currentFiles(ctx, tx, in.ProjectID, only)
	if err != nil {
		return err
	}
	base := make(map[string]metric.FileStats, len(old))
	for p, f := range old {
		base[p] = f.stats
	}
	next := nextTree(base, in, issues)
	paths, err := db.pathIDs(ctx, tx, in.ProjectID, keys(next))
	if err != nil {
		return err
	}
	type change struct {
		pathID   int64
		old, new *metric.FileStats
	}
	var changes []change
	insert, err := tx.PrepareContext(ctx, `INSERT INTO file_versions (path_id, since_seq, deleted, `+fileStatsColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`)
	if err != nil {
		return err
	}
	defer insert.Close()
	setCurrent, err := tx.PrepareContext(ctx, `UPDATE paths SET current_seq = $1 WHERE id = $2`)
	if err != nil {
		return err
	}
	defer setCurrent.Close()
	for p, st := range next {
		st := st
		id := paths[p]
		if o, ok := old[p]; ok && o.stats == st {
			continue
		} else if ok {
			changes = append(changes, change{id, &o.stats, &st})
		} else {
			changes = append(changes, change{id, nil, &st})
		}
		if _, err := insert.ExecContext(ctx, append([]any{id, seq, 0}, fileStatsArgs(st)...)...); err != nil {
			return err
		}
		if _, err := setCurrent.ExecContext(ctx, seq, id); err != nil {
			return err
		}
	}
	for p, o := range old {
		if _, ok := next[p]; ok {
			continue
		}
		changes = append(changes, change{o.pathID, &o.stats, nil})
		if _, err := insert.ExecContext(ctx, append([]any{o.pathID, seq, 1}, fileStatsArgs(metric.FileStats{})...)...); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE paths SET current_seq = NULL WHERE id = $1`, o.pathID); err != nil {
			return err
		}
	}
	// The project gets a measurement: its previous totals plus every change.
	pt, err := latestProjectTotals(ctx, tx, in.ProjectID)
	if err != nil {
		return err
	}
	for _, c := range changes {
		if c.old != nil {
			pt.Sub(*c.old)
		}
		if c.new != nil {
			pt.Add(*c.new)
		}
	}
	if err := insertProjectTotals(ctx, tx, in.ProjectID, seq, at, pt); err != nil {
		return err
	}
	// Every component gets a measurement: its previous totals plus the
	// changes of its files.
	comps, err := projectComponentIDs(ctx, tx, in.ProjectID)
	if err != nil || len(comps) == 0 {
		return err
	}
	changed := make([]int64, len(changes))
	for i, c := range changes {
		changed[i] = c.pathID
	}
	members, err := componentsOfPaths(ctx, tx, changed)
	if err != nil {
		return err
	}
	for _, comp := range comps {
		t, err := latestSnapshotTotals(ctx, tx, comp)
		if err != nil {
			return err
		}
		for _, c := range changes {
			if !members[c.pathID][comp] {
				continue
			}
			if c.old != nil {
				t.Sub(*c.old)
			}
			if c.new != nil {
				t.Add(*c.new)
			}
		}
		if err := insertSnapshotTotals(ctx, tx, comp, seq, at, t); err != nil {
			return err
		}
	}
	return nil
}

// nextTree is the tree a snapshot describes: for a full tree its files, for
// changes the base tree's figures with its changes applied; either way with
// the issue figures of the snapshot's open issues.
func nextTree(base map[string]metric.FileStats, in plumb.SnapshotInput, issues []plumb.Issue) map[string]metric.FileStats {
	next := make(map[string]metric.FileStats, len(base)+len(in.Files))
	if !in.FullTree {
		for p, st := range base {
			st.OpenIssues, st.RemediationMinutes, st.SecurityIssues = 0, 0, metric.LevelCounts{}
			next[p] = st
		}
	}
	for _, p := range in.Removed {
		delete(next, p)
	}
	for _, f := range in.Files {
		next[f.Path] = metric.FileStats{Lines: f.Lines, LOC: f.LOC, Complexity: f.Complexity, DuplicatedLines: f.DuplicatedLines}
	}
	for _, is := range issues {
		st, ok := next[is.Path]
		if !ok || is.Status != "open" {
			continue
		}
		lv, _ := metric.ParseLevel(is.Level)
		st.AddOpenIssue(lv, is.Category)
		next[is.Path] = st
	}
	return next
}

// sortIssues puts issues in listing order: file path, then start line (an
// issue without one first), then rule key, then fingerprint. The sort is
// stable, so equal issues keep their order.
func sortIssues(is []plumb.Issue) {
	slices.SortStableFunc(is, func(a, b plumb.Issue) int {
		return plumb.CompareIssueOrder(a.Path, a.StartLine, a.RuleKey, a.Fingerprint, b.Path, b.StartLine, b.RuleKey, b.Fingerprint)
	})
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
		rows, err := q.QueryContext(ctx, `SELECT id, path FROM paths WHERE project_id = $1 AND path IN (`+in+`)`, append([]any{projectID}, args...)...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var p string
			if err := rows.Scan(&id, &p); err != nil {
				return err
			}
			known[p] = id
		}
		return rows.Err()
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

func projectComponentIDs(ctx context.Context, q querier, projectID string) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT id FROM components WHERE project_id = $1 ORDER BY id`, projectID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
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
		rows, err := q.QueryContext(ctx, `SELECT path_id, component_id FROM component_paths WHERE path_id IN (`+in.String()+`)`)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var pid int64
			var cid string
			if err := rows.Scan(&pid, &cid); err != nil {
				rows.Close()
				return nil, err
			}
			if out[pid] == nil {
				out[pid] = map[string]bool{}
			}
			out[pid][cid] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
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
