package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/codehost"
)

// keptHookDeliveries is how many webhook deliveries are kept per project
// (and for installation events).
const keptHookDeliveries = 100

// GitHubProjects returns the ids of the projects connected to a GitHub
// repository (owner/name, in any case), in id order.
func (db *DB) GitHubProjects(ctx context.Context, repository string) ([]string, error) {
	return githubProjects(ctx, db.read, repository)
}

func githubProjects(ctx context.Context, q querier, repository string) ([]string, error) {
	return queryRecords(ctx, q, `SELECT project_id FROM code_hosts WHERE kind = $1 AND lower(repository) = $2 ORDER BY project_id`,
		[]any{codehost.GitHub, strings.ToLower(repository)}, scanString)
}

// ApplyHook keeps what a webhook delivery says, in one transaction, and
// returns the status to answer: a delivery id seen before answers the status
// it was answered then, changing nothing; a pull_request event for a
// repository no project is connected to answers unknown and stores nothing;
// otherwise the delivery is applied (the pull request kept for each project
// connected to its repository, the installation kept or dropped for each of
// its repositories), recorded with status applied, and applied is answered.
func (db *DB) ApplyHook(ctx context.Context, d codehost.HookDelivery, applied, unknown int) (status int, err error) {
	err = db.inTx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT status FROM hook_deliveries WHERE delivery_id = $1 LIMIT 1`, d.ID).Scan(&status)
		if err == nil || !errors.Is(err, sql.ErrNoRows) {
			return err // a replay, or a failure
		}
		var projects []string
		if d.PullRequest != nil {
			if projects, err = githubProjects(ctx, tx, d.Repository); err != nil {
				return err
			}
			if len(projects) == 0 {
				status = unknown
				return nil
			}
			p := d.PullRequest
			for _, id := range projects {
				if _, err := tx.ExecContext(ctx, `DELETE FROM pull_requests WHERE project_id = $1 AND number = $2`, id, p.Number); err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, `INSERT INTO pull_requests (project_id, number, title, author, base_branch, head_branch, head_sha, state, merged, updated_at)
					VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, id, p.Number, p.Title, p.Author, p.BaseBranch, p.HeadBranch, p.HeadSHA, p.State, boolInt(p.Merged), unix(d.At)); err != nil {
					return err
				}
			}
		}
		if in := d.Installation; in != nil {
			projects = append(projects, "")
			for _, repo := range in.Repositories {
				repo = strings.ToLower(repo)
				if _, err := tx.ExecContext(ctx, `DELETE FROM github_installations WHERE repository = $1`, repo); err != nil {
					return err
				}
				if !in.Deleted {
					if _, err := tx.ExecContext(ctx, `INSERT INTO github_installations (repository, installation_id, updated_at) VALUES ($1, $2, $3)`, repo, in.ID, unix(d.At)); err != nil {
						return err
					}
				}
				ids, err := githubProjects(ctx, tx, repo)
				if err != nil {
					return err
				}
				projects = append(projects, ids...)
			}
			if in.Uninstalled {
				// Every repository of the installation, named or not.
				if _, err := tx.ExecContext(ctx, `DELETE FROM github_installations WHERE installation_id = $1`, in.ID); err != nil {
					return err
				}
			}
		}
		status = applied
		for _, id := range projects {
			var project any // NULL: the installation event's own row
			same, args := `project_id IS NULL AND $1 = ''`, []any{id, keptHookDeliveries}
			if id != "" {
				project, same = id, `project_id = $1`
			}
			res, err := tx.ExecContext(ctx, `INSERT INTO hook_deliveries (delivery_id, project_id, event, action, status, received_at)
				VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`, d.ID, project, d.Event, d.Action, applied, unix(d.At))
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n == 0 {
				// The same delivery, applied at the same time by another
				// request: this one changes nothing.
				return errReplayed
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM hook_deliveries WHERE `+same+` AND delivery_id NOT IN (
				SELECT delivery_id FROM hook_deliveries WHERE `+same+` ORDER BY received_at DESC, delivery_id DESC LIMIT $2)`, args...); err != nil {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, errReplayed) {
		return applied, nil
	}
	return status, err
}

var errReplayed = errors.New("delivery applied by another request")

// HookDeliveries returns a project's last webhook deliveries, newest first.
func (db *DB) HookDeliveries(ctx context.Context, projectID string, limit int) ([]codehost.HookRecord, error) {
	return queryRecords(ctx, db.read, `SELECT delivery_id, event, action, status, received_at FROM hook_deliveries
		WHERE project_id = $1 ORDER BY received_at DESC, delivery_id DESC LIMIT $2`, []any{projectID, limit},
		func(row scanner) (codehost.HookRecord, error) {
			var r codehost.HookRecord
			var at int64
			err := row.Scan(&r.ID, &r.Event, &r.Action, &r.Status, &at)
			r.At = fromUnix(at)
			return r, err
		})
}

// GitHubInstallation returns the App's installation id on a repository,
// as the installation webhooks told it; found is false when none did.
func (db *DB) GitHubInstallation(ctx context.Context, repository string) (id int64, found bool, err error) {
	err = db.read.QueryRowContext(ctx, `SELECT installation_id FROM github_installations WHERE repository = $1`, strings.ToLower(repository)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return id, err == nil, err
}

// PullRequestInfo returns a pull request as its webhooks described it;
// found is false when none came.
func (db *DB) PullRequestInfo(ctx context.Context, projectID string, number int) (p codehost.PullRequest, found bool, err error) {
	var merged int
	var at int64
	err = db.read.QueryRowContext(ctx, `SELECT number, title, author, base_branch, head_branch, head_sha, state, merged, updated_at
		FROM pull_requests WHERE project_id = $1 AND number = $2`, projectID, number).
		Scan(&p.Number, &p.Title, &p.Author, &p.BaseBranch, &p.HeadBranch, &p.HeadSHA, &p.State, &merged, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return p, false, nil
	}
	p.Merged, p.UpdatedAt = merged != 0, fromUnix(at)
	return p, err == nil, err
}

// CheckRun returns the state of a head commit's check run; found is false
// when none was created.
func (db *DB) CheckRun(ctx context.Context, projectID, headSHA string) (st codehost.CheckState, found bool, err error) {
	var completed int
	err = db.read.QueryRowContext(ctx, `SELECT run_id, pull_number, digest, sent, completed FROM check_runs WHERE project_id = $1 AND head_sha = $2`, projectID, headSHA).
		Scan(&st.RunID, &st.PullRequest, &st.Digest, &st.Sent, &completed)
	if errors.Is(err, sql.ErrNoRows) {
		return st, false, nil
	}
	st.Completed = completed != 0
	return st, err == nil, err
}

// PutCheckRun keeps the state of a head commit's check run.
func (db *DB) PutCheckRun(ctx context.Context, projectID, headSHA string, st codehost.CheckState, at time.Time) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM check_runs WHERE project_id = $1 AND head_sha = $2`, projectID, headSHA); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO check_runs (project_id, head_sha, run_id, pull_number, digest, sent, completed, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			projectID, headSHA, st.RunID, st.PullRequest, st.Digest, st.Sent, boolInt(st.Completed), unix(at))
		return err
	})
}

// UnfinishedCheckRuns returns the check runs not completed, oldest first,
// at most limit.
func (db *DB) UnfinishedCheckRuns(ctx context.Context, limit int) ([]plumb.UnfinishedCheckRun, error) {
	return queryRecords(ctx, db.read, `SELECT project_id, head_sha, pull_number FROM check_runs WHERE completed = 0
		ORDER BY updated_at, project_id, head_sha LIMIT $1`, []any{limit},
		func(row scanner) (plumb.UnfinishedCheckRun, error) {
			var u plumb.UnfinishedCheckRun
			err := row.Scan(&u.ProjectID, &u.HeadSHA, &u.PullRequest)
			return u, err
		})
}
