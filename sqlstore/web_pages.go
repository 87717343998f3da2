package sqlstore

import (
	"context"
	"database/sql"
	"strconv"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/metric"
)

// Reads the web pages need that the v1 API has no endpoint for (yet).

// WorkspaceProjects lists a workspace's projects in key order. Visibility is
// the workspace's: callers find the workspace with FindWorkspace first.
func (db *DB) WorkspaceProjects(ctx context.Context, workspaceID string) ([]plumb.Project, error) {
	return queryRecords(ctx, db.read, `SELECT `+projectColumns+` FROM projects p WHERE p.workspace_id = $1
		ORDER BY lower(p.key), p.id`, []any{workspaceID}, scanProject)
}

// WholeProjectTotals returns the project's latest totals for the pages: the
// per-project totals the API's project metrics read.
func (db *DB) WholeProjectTotals(ctx context.Context, projectID string) (metric.Totals, error) {
	return db.ProjectTotals(ctx, projectID)
}

// WholeProjectHistory returns the project's measurements up to `to`, oldest
// first, as the API's project series read them (every measurement of the
// history, including analyses that arrived after newer ones).
func (db *DB) WholeProjectHistory(ctx context.Context, projectID string, to time.Time) (analysis, coverage []plumb.TotalsAt, err error) {
	return db.ProjectHistory(ctx, projectID, to)
}

// CoverageTags lists the coverage tags uploaded for a project (for the
// coverage viewer's tag switcher), in name order.
func (db *DB) CoverageTags(ctx context.Context, projectID string) ([]string, error) {
	return queryRecords(ctx, db.read, `SELECT DISTINCT coverage_tag FROM coverage_uploads WHERE pending = 0 AND project_id = $1 ORDER BY coverage_tag`,
		[]any{projectID}, scanString)
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
		out, err = queryRecords(ctx, tx, `SELECT DISTINCT p.path FROM coverage_union u JOIN paths p ON p.id = u.path_id
			WHERE u.project_id = $1 AND u.commit_sha = $2 AND substr(p.path, 1, length($3)) = $3 ORDER BY p.path LIMIT `+strconv.Itoa(max(limit, 1)),
			[]any{projectID, sha, prefix}, scanString)
		return err
	})
	return sha, out, err
}
