package sqlstore

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/plumbhq/plumb/compare"
)

// The pull-request list's figures (migration 0027): each pull request's gate
// result and patch coverage, kept per head when a comparison computes them
// and shown while what the comparison read is unchanged.

// PullInputs names what a comparison of pull request number's head with
// base reads, as they are now: the change uploaded for the pull request at
// the head, both commits' coverage uploads and latest analyses, and the
// project's gate. Read it before the comparison: a write that lands between
// the two then makes the kept summary stale, never wrong.
func (db *DB) PullInputs(ctx context.Context, projectID string, number int, base, head string) (string, error) {
	return pullInputs(ctx, db.read, projectID, number, base, head)
}

func pullInputs(ctx context.Context, q querier, projectID string, number int, base, head string) (string, error) {
	// Per commit: the count and largest seq of its coverage uploads, with
	// the id of that upload (a seq SQLite hands out again after a delete
	// comes with another id), and the id of its latest analysis (the one
	// latestSnapshotOf picks).
	side := func(n string) string {
		return `(SELECT count(*) FROM coverage_uploads WHERE pending = 0 AND project_id = $1 AND commit_sha = ` + n + `),
			coalesce((SELECT max(seq) FROM coverage_uploads WHERE pending = 0 AND project_id = $1 AND commit_sha = ` + n + `), 0),
			coalesce((SELECT id FROM coverage_uploads WHERE pending = 0 AND project_id = $1 AND commit_sha = ` + n + ` ORDER BY seq DESC LIMIT 1), ''),
			coalesce((SELECT id FROM snapshots WHERE project_id = $1 AND commit_sha = ` + n + ` AND pending = 0 ORDER BY analyzed_at DESC, seq DESC LIMIT 1), '')`
	}
	var baseUploads, baseMax, headUploads, headMax, changeAt, changeLen int64
	var baseUpload, baseAnalysis, headUpload, headAnalysis, gate string
	err := q.QueryRowContext(ctx, `SELECT `+side("$2")+`, `+side("$3")+`,
			coalesce((SELECT uploaded_at FROM commit_changes WHERE project_id = $1 AND commit_sha = $3 AND pull_key = $4), 0),
			coalesce((SELECT length(files) FROM commit_changes WHERE project_id = $1 AND commit_sha = $3 AND pull_key = $4), 0),
			coalesce((SELECT conditions FROM quality_gates WHERE project_id = $1), '')`,
		projectID, base, head, number).Scan(&baseUploads, &baseMax, &baseUpload, &baseAnalysis,
		&headUploads, &headMax, &headUpload, &headAnalysis, &changeAt, &changeLen, &gate)
	if err != nil {
		return "", err
	}
	g := sha256.Sum256([]byte(gate))
	return fmt.Sprintf("base %s %d/%d/%s %s; head %s %d/%d/%s %s; change %d/%d; gate %s",
		base, baseUploads, baseMax, baseUpload, baseAnalysis,
		head, headUploads, headMax, headUpload, headAnalysis,
		changeAt, changeLen, hex.EncodeToString(g[:8])), nil
}

// CurrentPullSummary returns the inputs of pull request number's comparison
// of head with base as they are now (PullInputs) and the summary kept for
// them; found is false when none was kept or the kept one was computed from
// other inputs (a newer upload, a newer analysis of either side, another
// base, another gate).
func (db *DB) CurrentPullSummary(ctx context.Context, projectID string, number int, base, head string) (s compare.PullSummary, inputs string, found bool, err error) {
	if inputs, err = db.PullInputs(ctx, projectID, number, base, head); err != nil {
		return s, "", false, err
	}
	s = compare.PullSummary{Number: number, HeadSHA: head}
	err = db.read.QueryRowContext(ctx, `SELECT base_sha, inputs, gate_status, patch_covered, patch_coverable FROM pull_summaries
		WHERE project_id = $1 AND number = $2 AND head_sha = $3`, projectID, number, head).
		Scan(&s.BaseSHA, &s.Inputs, &s.Gate, &s.Patch.Covered, &s.Patch.Coverable)
	if errors.Is(err, sql.ErrNoRows) {
		return compare.PullSummary{}, inputs, false, nil
	} else if err != nil {
		return compare.PullSummary{}, "", false, err
	}
	if s.Inputs != inputs || s.BaseSHA != base {
		return compare.PullSummary{}, inputs, false, nil
	}
	return s, inputs, true, nil
}

// KeepPullSummary keeps a comparison's summary for the list, replacing the
// one kept for the same pull request and head (in one statement: two
// requests keeping the same summary at once both succeed).
func (db *DB) KeepPullSummary(ctx context.Context, projectID string, s compare.PullSummary) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO pull_summaries (project_id, number, head_sha, base_sha, inputs, gate_status, patch_covered, patch_coverable, computed_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
		ON CONFLICT (project_id, number, head_sha) DO UPDATE SET base_sha = excluded.base_sha, inputs = excluded.inputs, gate_status = excluded.gate_status,
			patch_covered = excluded.patch_covered, patch_coverable = excluded.patch_coverable, computed_at = excluded.computed_at`,
			projectID, s.Number, s.HeadSHA, s.BaseSHA, s.Inputs, s.Gate, s.Patch.Covered, s.Patch.Coverable, unix(db.now()))
		return err
	})
}
