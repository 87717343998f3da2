package sqlstore

import (
	"context"
	"fmt"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/compare"
)

// PullRequests lists a project's pull requests, newest activity first: one
// row per pull request number its uploaded changes name, from its latest
// upload (head commit, branches, when) and its count of uploads. Title,
// author and state come from the last pull_request webhook GitHub sent
// (sqlstore/hooks.go); a pull request no webhook described has an empty
// title and author and is open. f.Number > 0 picks that one pull request
// (none: an empty list).
func (db *DB) PullRequests(ctx context.Context, projectID string, f compare.PullFilter) ([]compare.PullRequest, error) {
	switch f.State {
	case "", compare.PullAll, compare.PullOpen, compare.PullClosed, compare.PullMerged:
	default:
		return nil, plumb.Invalid([]string{fmt.Sprintf("Pull-request state must be one of open, closed, merged, all, got %q.", f.State)})
	}
	page := f.Page
	limit := page.Limit
	if limit <= 0 {
		limit = 1 << 30
	}
	state := f.State
	if state == compare.PullAll {
		state = ""
	}
	return queryRecords(ctx, db.read, `SELECT latest.number, latest.commit_sha, latest.branch, latest.base_branch, latest.base_commit_sha, latest.uploaded_at, latest.uploads,
			COALESCE(pr.title, ''), COALESCE(pr.author, ''), `+pullStateSQL+`
		FROM (
		SELECT pull_request_number AS number, commit_sha, branch, base_branch, base_commit_sha, uploaded_at,
			ROW_NUMBER() OVER (PARTITION BY pull_request_number ORDER BY uploaded_at DESC, commit_sha DESC) AS rn,
			COUNT(*) OVER (PARTITION BY pull_request_number) AS uploads
		FROM commit_changes WHERE project_id = $1 AND pull_request_number IS NOT NULL AND ($4 = 0 OR pull_request_number = $4)) latest
		LEFT JOIN pull_requests pr ON pr.project_id = $1 AND pr.number = latest.number
		WHERE rn = 1 AND ($5 = '' OR `+pullStateSQL+` = $5)
		ORDER BY latest.uploaded_at DESC, latest.number DESC LIMIT $2 OFFSET $3`, []any{projectID, limit, page.Offset, f.Number, state},
		func(row scanner) (compare.PullRequest, error) {
			var pr compare.PullRequest
			var at int64
			err := row.Scan(&pr.Number, &pr.HeadSHA, &pr.Branch, &pr.BaseBranch, &pr.BaseCommitSHA, &at, &pr.Uploads, &pr.Title, &pr.Author, &pr.State)
			pr.LastUpload = fromUnix(at)
			return pr, err
		})
}

// pullStateSQL is a listed pull request's state: merged, closed or open as
// its last webhook said, open when none did.
const pullStateSQL = `(CASE WHEN pr.merged = 1 THEN 'merged' WHEN pr.state = 'closed' THEN 'closed' ELSE 'open' END)`
