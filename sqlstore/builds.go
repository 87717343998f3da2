package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/plumbhq/plumb"
)

const buildColumns = `id, project_id, type, status, branch_name, commit_sha, commit_message, submitted_at, started_at, finished_at,
	status_reason, conclusion, exit_code, source, pull_request_number, committer_login, snapshot_id`

func scanBuild(s interface{ Scan(...any) error }) (plumb.Build, error) {
	var b plumb.Build
	var submitted int64
	var started, finished, exit, pr sql.NullInt64
	var reason, conclusion, snapshot sql.NullString
	err := s.Scan(&b.ID, &b.ProjectID, &b.Type, &b.Status, &b.BranchName, &b.CommitSHA, &b.CommitMessage, &submitted, &started, &finished,
		&reason, &conclusion, &exit, &b.Source, &pr, &b.CommitterLogin, &snapshot)
	b.SubmittedAt = fromUnix(submitted)
	b.StartedAt, b.FinishedAt = fromNullUnix(started), fromNullUnix(finished)
	if reason.Valid {
		b.StatusReason = &reason.String
	}
	if conclusion.Valid {
		b.Conclusion = &conclusion.String
	}
	b.ExitCode, b.PullRequestNumber = fromNullInt(exit), fromNullInt(pr)
	b.SnapshotID = snapshot.String
	return b, err
}

// FindBuild finds one build of a project by id.
func (db *DB) FindBuild(ctx context.Context, projectID, id string) (plumb.Build, error) {
	b, err := scanBuild(db.read.QueryRowContext(ctx, `SELECT `+buildColumns+` FROM builds WHERE project_id = $1 AND id = $2`, projectID, idArg(id)))
	if errors.Is(err, sql.ErrNoRows) {
		return b, notFound(fmt.Sprintf("Build %q was not found.", id))
	}
	return b, err
}

// EachBuild calls fn for a project's builds, most recently submitted first.
func (db *DB) EachBuild(ctx context.Context, projectID string, f plumb.BuildFilter, fn func(plumb.Build) error) error {
	q := `SELECT ` + buildColumns + ` FROM builds WHERE project_id = $1`
	args := []any{projectID}
	if f.Status != "" {
		q += ` AND status = $2`
		args = append(args, f.Status)
	}
	q += fmt.Sprintf(` ORDER BY submitted_at DESC, id DESC LIMIT %s OFFSET %d`, db.d.limit(f.Page), f.Page.Offset)
	return eachRecord(ctx, db.read, q, args, scanBuild, fn)
}

func insertBuild(ctx context.Context, q querier, b plumb.Build) error {
	var snapshot any
	if b.SnapshotID != "" {
		snapshot = b.SnapshotID
	}
	_, err := q.ExecContext(ctx, `INSERT INTO builds (`+buildColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
		b.ID, b.ProjectID, b.Type, b.Status, b.BranchName, b.CommitSHA, b.CommitMessage, unix(b.SubmittedAt), nullUnix(b.StartedAt), nullUnix(b.FinishedAt),
		b.StatusReason, b.Conclusion, b.ExitCode, b.Source, b.PullRequestNumber, b.CommitterLogin, snapshot)
	return err
}
