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
// author and state come from the code host's webhooks; until those are
// recorded, title and author are empty and every pull request is open, so
// state "closed" or "merged" lists none. f.Number > 0 picks that one
// pull request (none: an empty list).
func (db *DB) PullRequests(ctx context.Context, projectID string, f compare.PullFilter) ([]compare.PullRequest, error) {
	switch f.State {
	case "", compare.PullAll, compare.PullOpen:
	case compare.PullClosed, compare.PullMerged:
		return nil, nil
	default:
		return nil, plumb.Invalid([]string{fmt.Sprintf("Pull-request state must be one of open, closed, merged, all, got %q.", f.State)})
	}
	page := f.Page
	limit := page.Limit
	if limit <= 0 {
		limit = 1 << 30
	}
	rows, err := db.read.QueryContext(ctx, `SELECT number, commit_sha, branch, base_branch, uploaded_at, uploads FROM (
		SELECT pull_request_number AS number, commit_sha, branch, base_branch, uploaded_at,
			ROW_NUMBER() OVER (PARTITION BY pull_request_number ORDER BY uploaded_at DESC, commit_sha DESC) AS rn,
			COUNT(*) OVER (PARTITION BY pull_request_number) AS uploads
		FROM commit_changes WHERE project_id = $1 AND pull_request_number IS NOT NULL AND ($4 = 0 OR pull_request_number = $4)) latest
		WHERE rn = 1 ORDER BY uploaded_at DESC, number DESC LIMIT $2 OFFSET $3`, projectID, limit, page.Offset, f.Number)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []compare.PullRequest
	for rows.Next() {
		pr := compare.PullRequest{State: compare.PullOpen}
		var at int64
		if err := rows.Scan(&pr.Number, &pr.HeadSHA, &pr.Branch, &pr.BaseBranch, &at, &pr.Uploads); err != nil {
			return nil, err
		}
		pr.LastUpload = fromUnix(at)
		out = append(out, pr)
	}
	return out, rows.Err()
}
