package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/codehost"
)

// PutCodeHost sets where a project's statuses and comment go. The token is
// kept as given (it has to be sent) and never read back by the API.
func (db *DB) PutCodeHost(ctx context.Context, projectID string, t codehost.Target, at time.Time) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM code_hosts WHERE project_id = $1`, projectID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO code_hosts (project_id, kind, base_url, repository, token, updated_at) VALUES ($1, $2, $3, $4, $5, $6)`,
			projectID, t.Kind, t.BaseURL, t.Repository, t.Token, unix(at))
		return err
	})
}

// CodeHost returns a project's code host; found is false when none is set.
func (db *DB) CodeHost(ctx context.Context, projectID string) (t codehost.Target, found bool, err error) {
	err = db.read.QueryRowContext(ctx, `SELECT kind, base_url, repository, token FROM code_hosts WHERE project_id = $1`, projectID).
		Scan(&t.Kind, &t.BaseURL, &t.Repository, &t.Token)
	if errors.Is(err, sql.ErrNoRows) {
		return t, false, nil
	}
	return t, err == nil, err
}

// ProjectKeys returns the keys of a project's workspace and of the project,
// which the web's addresses are made of.
func (db *DB) ProjectKeys(ctx context.Context, projectID string) (workspace, project string, err error) {
	err = db.read.QueryRowContext(ctx, `SELECT w.key, p.key FROM projects p JOIN workspaces w ON w.id = p.workspace_id WHERE p.id = $1`, projectID).
		Scan(&workspace, &project)
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", notFound("The project was not found.")
	}
	return workspace, project, classify(err)
}

// RecordDelivery keeps a delivery's outcome (the latest per commit).
func (db *DB) RecordDelivery(ctx context.Context, projectID, commit string, r codehost.Result, at time.Time) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM code_host_deliveries WHERE project_id = $1 AND commit_sha = $2`, projectID, commit); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO code_host_deliveries (project_id, commit_sha, state, attempts, detail, comment_id, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, projectID, commit, r.State, r.Attempts, r.Detail, r.CommentID, unix(at))
		return err
	})
}

// LastDelivery returns the project's most recent delivery (nil if none).
func (db *DB) LastDelivery(ctx context.Context, projectID string) (*plumb.Delivery, error) {
	var d plumb.Delivery
	var at int64
	err := db.read.QueryRowContext(ctx, `SELECT commit_sha, state, attempts, detail, comment_id, updated_at FROM code_host_deliveries
		WHERE project_id = $1 ORDER BY updated_at DESC, commit_sha DESC LIMIT 1`, projectID).
		Scan(&d.CommitSHA, &d.State, &d.Attempts, &d.Detail, &d.CommentID, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	d.At = fromUnix(at)
	return &d, nil
}
