package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/compare"
	"github.com/plumbhq/plumb/metric"
)

// PutChange records what a head commit changes against its base (sent by CI
// with its uploads), per pull request: a later upload for the same commit
// and pull request (or, without one, for the commit without one) replaces
// it; the commit's changes for other pull requests stay.
func (db *DB) PutChange(ctx context.Context, projectID string, ch compare.Change, at time.Time) error {
	files, err := json.Marshal(ch.Files)
	if err != nil {
		return err
	}
	var pr any
	key := 0
	if ch.PullRequestNumber != nil {
		pr, key = *ch.PullRequestNumber, *ch.PullRequestNumber
	}
	return db.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM commit_changes WHERE project_id = $1 AND commit_sha = $2 AND pull_key = $3`, projectID, ch.CommitSHA, key); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO commit_changes (project_id, commit_sha, pull_key, branch, base_commit_sha, base_branch, pull_request_number, files, uploaded_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, projectID, ch.CommitSHA, key, ch.Branch, ch.BaseCommitSHA, ch.BaseBranch, pr, string(files), unix(at))
		return err
	})
}

const changeColumns = `commit_sha, branch, base_commit_sha, base_branch, pull_request_number, files`

func scanChange(row *sql.Row) (compare.Change, error) {
	var ch compare.Change
	var pr sql.NullInt64
	var files string
	if err := row.Scan(&ch.CommitSHA, &ch.Branch, &ch.BaseCommitSHA, &ch.BaseBranch, &pr, &files); err != nil {
		return ch, err
	}
	if pr.Valid {
		n := int(pr.Int64)
		ch.PullRequestNumber = &n
	}
	return ch, json.Unmarshal([]byte(files), &ch.Files)
}

// FindChange returns the change uploaded last for a head commit, whatever
// its pull request; found is false when CI sent none.
func (db *DB) FindChange(ctx context.Context, projectID, commit string) (ch compare.Change, found bool, err error) {
	ch, err = scanChange(db.read.QueryRowContext(ctx, `SELECT `+changeColumns+` FROM commit_changes WHERE project_id = $1 AND commit_sha = $2
		ORDER BY uploaded_at DESC, pull_key DESC LIMIT 1`, projectID, commit))
	if errors.Is(err, sql.ErrNoRows) {
		return ch, false, nil
	}
	return ch, err == nil, err
}

// FindPullRequestChange returns the change of a head commit uploaded for
// pull request pr, else the one uploaded without a pull request; found is
// false when there is neither (a change of another pull request is not
// this one's: its base may differ).
func (db *DB) FindPullRequestChange(ctx context.Context, projectID, commit string, pr int) (ch compare.Change, found bool, err error) {
	ch, err = scanChange(db.read.QueryRowContext(ctx, `SELECT `+changeColumns+` FROM commit_changes
		WHERE project_id = $1 AND commit_sha = $2 AND pull_key IN ($3, 0) ORDER BY pull_key DESC LIMIT 1`, projectID, commit, pr))
	if errors.Is(err, sql.ErrNoRows) {
		return ch, false, nil
	}
	return ch, err == nil, err
}

// FindPullRequest returns the change of a pull request's latest upload.
func (db *DB) FindPullRequest(ctx context.Context, projectID string, number int) (compare.Change, error) {
	ch, err := scanChange(db.read.QueryRowContext(ctx, `SELECT `+changeColumns+` FROM commit_changes
		WHERE project_id = $1 AND pull_request_number = $2 ORDER BY uploaded_at DESC, commit_sha DESC LIMIT 1`, projectID, number))
	if errors.Is(err, sql.ErrNoRows) {
		return ch, notFound(fmt.Sprintf("Pull request #%d has no upload in this project (uploads name it with pullRequestNumber; see docs/pull-requests.md).", number))
	}
	return ch, err
}

// ResolveCommit turns a reference into a commit the project knows of from
// coverage, analyses or recorded changes: refs/heads/<branch> (or a bare
// branch name), refs/tags/<tag>, a full SHA or a unique prefix of 7 or more.
func (db *DB) ResolveCommit(ctx context.Context, projectID, ref string) (string, error) {
	sha, err := resolveReference(ctx, db.read, projectID, ref)
	if err == nil || plumb.ErrorCode(err) != plumb.ENOTFOUND {
		return sha, err
	}
	branch := strings.TrimPrefix(ref, "refs/heads/")
	lower := strings.ToLower(ref)
	var q string
	var args []any
	switch {
	case strings.HasPrefix(ref, "refs/tags/"):
		return "", err
	case shaPattern.MatchString(lower) && !strings.HasPrefix(ref, "refs/heads/"):
		q = `SELECT DISTINCT commit_sha FROM (SELECT commit_sha FROM snapshots WHERE project_id = $1 AND commit_sha >= $2 AND commit_sha < $3 AND pending = 0
			UNION SELECT commit_sha FROM commit_changes WHERE project_id = $1 AND commit_sha >= $2 AND commit_sha < $3) c LIMIT 2`
		args = []any{projectID, lower, lower + "~"}
	default:
		// A branch: its latest coverage upload (refs/heads/ did not find
		// one), else its latest analysis.
		if !strings.HasPrefix(ref, "refs/heads/") {
			if s, e := resolveReference(ctx, db.read, projectID, "refs/heads/"+branch); e == nil {
				return s, nil
			}
		}
		q = `SELECT commit_sha FROM snapshots WHERE project_id = $1 AND branch = $2 AND pending = 0 ORDER BY analyzed_at DESC, seq DESC LIMIT 1`
		args = []any{projectID, branch}
	}
	found, err := queryRecords(ctx, db.read, q, args, scanString)
	if err != nil {
		return "", err
	}
	switch len(found) {
	case 0:
		return "", notFound(fmt.Sprintf("Reference %q names no commit with coverage or an analysis in this project.", ref))
	case 1:
		return found[0], nil
	}
	return "", notFound(fmt.Sprintf("Commit prefix %q is ambiguous; give more characters of the SHA.", ref))
}

type coverageSource struct {
	commit string
	tags   []string
}

// LoadComparison reads both commits' coverage, the head's hits of the
// changed paths, and both commits' latest analyses and issues.
func (db *DB) LoadComparison(ctx context.Context, projectID, base, head string, o compare.ComparisonOptions) (*compare.Comparison, error) {
	cmp := &compare.Comparison{Base: compare.SideCoverage{Commit: base}, Head: compare.SideCoverage{Commit: head}}
	var fresh []keptCoverage // sums made here, kept for the next comparison
	asOf := db.now()
	// The two sides' analyses first; their issues (a snapshot's issues never
	// change) load on two other connections while the rest is read.
	var baseSeq, headSeq int64
	err := db.readTx(ctx, func(tx *sql.Tx) error {
		var err error
		if cmp.BaseSnapshot, baseSeq, err = latestSnapshotOf(ctx, tx, projectID, base); err != nil {
			return err
		}
		cmp.HeadSnapshot, headSeq, err = latestSnapshotOf(ctx, tx, projectID, head)
		return err
	})
	if err != nil {
		return nil, err
	}
	type loaded struct {
		issues []plumb.Issue
		err    error
	}
	load := func(s *plumb.Snapshot, seq int64) <-chan loaded {
		ch := make(chan loaded, 1)
		go func() {
			is, err := db.comparedIssues(ctx, projectID, s, seq)
			ch <- loaded{is, err}
		}()
		return ch
	}
	baseIssues, headIssues := load(cmp.BaseSnapshot, baseSeq), load(cmp.HeadSnapshot, headSeq)
	issuesErr := func() error {
		b, h := <-baseIssues, <-headIssues
		cmp.BaseIssuesAll, cmp.HeadIssuesAll = b.issues, h.issues
		return errors.Join(b.err, h.err)
	}
	waited := false
	defer func() {
		if !waited {
			issuesErr()
		}
	}()
	err = db.readTx(ctx, func(tx *sql.Tx) error {
		baseTags, err := commitTags(ctx, tx, projectID, base)
		if err != nil {
			return err
		}
		headTags, err := commitTags(ctx, tx, projectID, head)
		if err != nil {
			return err
		}
		cmp.Base.Tags, cmp.Head.Tags, cmp.Head.Carried = compare.CoverageTags(baseTags, headTags, o.CoverageTag)
		baseSrc := []coverageSource{{base, cmp.Base.Tags}}
		headSrc := []coverageSource{{head, cmp.Head.Tags}}
		if len(cmp.Head.Carried) > 0 {
			headSrc = append(headSrc, coverageSource{base, cmp.Head.Carried})
		}
		if cmp.Base.Coverage, err = sideTotal(ctx, tx, projectID, baseSrc, o.CoverageTag != "", &fresh, asOf); err != nil {
			return err
		}
		if cmp.Head.Coverage, err = sideTotal(ctx, tx, projectID, headSrc, o.CoverageTag != "", &fresh, asOf); err != nil {
			return err
		}
		if cmp.HeadHits, err = mergedHits(ctx, tx, projectID, headSrc, o.Paths); err != nil {
			return err
		}
		waited = true
		if err := issuesErr(); err != nil {
			return err
		}
		cmp.BaseIssues, cmp.HeadIssues = compare.FilterIssues(cmp.BaseIssuesAll, o.Issues), compare.FilterIssues(cmp.HeadIssuesAll, o.Issues)
		var kept []keptCoverage
		cmp.Metrics, kept, err = compareMetrics(ctx, tx, projectID, cmp, baseSeq, headSeq, asOf)
		fresh = append(fresh, kept...)
		return err
	})
	if err == nil {
		db.keepComponentCoverage(ctx, fresh)
	}
	return cmp, err
}

func commitTags(ctx context.Context, q querier, projectID, commit string) ([]string, error) {
	return queryRecords(ctx, q, `SELECT DISTINCT coverage_tag FROM coverage_uploads WHERE pending = 0 AND project_id = $1 AND commit_sha = $2 ORDER BY coverage_tag`,
		[]any{projectID, commit}, scanString)
}

// sideTotal sums one side's coverage. A single commit with all its tags is
// the stored union; one tag its stored counts; a carried-forward side is
// merged line by line from the reports.
func sideTotal(ctx context.Context, q querier, projectID string, src []coverageSource, oneTag bool, fresh *[]keptCoverage, asOf time.Time) (metric.Coverage, error) {
	var c metric.Coverage
	switch {
	case len(src) == 1 && len(src[0].tags) == 0:
		return c, nil
	case len(src) == 1 && !oneTag:
		// the default-branch measurement, or the sum an earlier comparison
		// kept while the commit's uploads are the same, or the sum
		commit := src[0].commit
		err := q.QueryRowContext(ctx, `SELECT covered, missed FROM coverage_totals WHERE project_id = $1 AND component_id = '' AND commit_sha = $2`,
			projectID, commit).Scan(&c.Covered, &c.Missed)
		if !errors.Is(err, sql.ErrNoRows) {
			return c, err
		}
		var uploadSeq int64
		if err := q.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) FROM coverage_uploads WHERE pending = 0 AND project_id = $1 AND commit_sha = $2`,
			projectID, commit).Scan(&uploadSeq); err != nil {
			return c, err
		}
		err = q.QueryRowContext(ctx, `SELECT covered, missed FROM commit_component_coverage
			WHERE project_id = $1 AND commit_sha = $2 AND component_id = '' AND upload_seq = $3`, projectID, commit, uploadSeq).Scan(&c.Covered, &c.Missed)
		if !errors.Is(err, sql.ErrNoRows) {
			return c, err
		}
		err = q.QueryRowContext(ctx, `SELECT coalesce(sum(covered), 0), coalesce(sum(missed), 0) FROM coverage_union WHERE project_id = $1 AND commit_sha = $2`,
			projectID, commit).Scan(&c.Covered, &c.Missed)
		if err == nil {
			*fresh = append(*fresh, keptCoverage{projectID, commit, "", uploadSeq, 0, unix(asOf), c})
		}
		return c, err
	case len(src) == 1:
		err := q.QueryRowContext(ctx, `SELECT coalesce(sum(covered), 0), coalesce(sum(missed), 0) FROM coverage_files WHERE project_id = $1 AND commit_sha = $2 AND coverage_tag = $3`,
			projectID, src[0].commit, src[0].tags[0]).Scan(&c.Covered, &c.Missed)
		return c, err
	}
	hits, err := mergedHits(ctx, q, projectID, src, nil)
	for _, h := range hits {
		for _, n := range h {
			switch {
			case n > 0:
				c.Covered++
			case n == 0:
				c.Missed++
			}
		}
	}
	return c, err
}

// mergedHits returns, per path, the union (largest count per line) of the
// sources' reports: every path, or only the given ones.
func mergedHits(ctx context.Context, q querier, projectID string, src []coverageSource, only []string) (map[string][]int64, error) {
	out := map[string][]int64{}
	ids := map[int64]string{}
	if only != nil {
		known, err := knownPathIDs(ctx, q, projectID, only)
		if err != nil || len(known) == 0 {
			return out, err
		}
		for p, id := range known {
			ids[id] = p
		}
	}
	idList := make([]string, 0, len(ids))
	for id := range ids {
		idList = append(idList, fmt.Sprint(id))
	}
	for _, s := range src {
		for _, tag := range s.tags {
			read := func(cond string, args []any) error {
				rows, err := q.QueryContext(ctx, `SELECT p.path, f.hits FROM coverage_files f JOIN paths p ON p.id = f.path_id
					WHERE f.project_id = $1 AND f.commit_sha = $2 AND f.coverage_tag = $3`+cond, append([]any{projectID, s.commit, tag}, args...)...)
				if err != nil {
					return err
				}
				defer rows.Close()
				for rows.Next() {
					var p string
					var blob []byte
					if err := rows.Scan(&p, &blob); err != nil {
						return err
					}
					h, err := decodeHits(blob)
					if err != nil {
						return err
					}
					if prev, ok := out[p]; ok {
						h = unionHits(prev, h)
					}
					out[p] = h
				}
				return rows.Err()
			}
			if only == nil {
				if err := read("", nil); err != nil {
					return nil, err
				}
				continue
			}
			for start := 0; start < len(idList); start += 400 {
				part := idList[start:min(start+400, len(idList))]
				if err := read(` AND f.path_id IN (`+strings.Join(part, ",")+`)`, nil); err != nil {
					return nil, err
				}
			}
		}
	}
	return out, nil
}

// latestSnapshotOf returns a commit's latest analysis and its seq (nil, 0
// when it has none).
func latestSnapshotOf(ctx context.Context, q querier, projectID, commit string) (*plumb.Snapshot, int64, error) {
	s := plumb.Snapshot{ProjectID: projectID, CommitSHA: commit}
	var seq, at, measured int64
	err := q.QueryRowContext(ctx, `SELECT seq, id, branch, analyzed_at, measured FROM snapshots WHERE project_id = $1 AND commit_sha = $2 AND pending = 0
		ORDER BY analyzed_at DESC, seq DESC LIMIT 1`, projectID, commit).Scan(&seq, &s.ID, &s.Branch, &at, &measured)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, 0, nil
	} else if err != nil {
		return nil, 0, err
	}
	s.AnalyzedAt, s.Measured = fromUnix(at), measured == 1
	return &s, seq, nil
}

// snapshotIssues returns a snapshot's issues with the status their
// fingerprint has now, in listing order.
func snapshotIssues(ctx context.Context, q querier, projectID string, seq int64) ([]plumb.Issue, error) {
	if seq == 0 {
		return nil, nil
	}
	// An issue's status is its fingerprint's (issue_states), else its own.
	// Statuses are open or ignored (plumb.IssueStatuses) and nearly all
	// open, so only the ignored states are read (issue_states_status,
	// migration 0028); the few issues stored as not open are then checked
	// for an open state. (A join looking up the state of every issue was
	// half of a first comparison's time with 20,000 issues a side:
	// docs/benchmarks.md, "Pull-request pages".)
	states := map[string]string{}
	if err := readIssueStates(ctx, q, states, projectID, `status = 'ignored'`); err != nil {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, `SELECT i.seq, i.id, i.fingerprint, i.tool, i.rule_key, i.message, i.category, i.level,
		i.status, i.documentation_url, i.path, i.start_line, i.end_line
		FROM issues i WHERE i.snapshot_seq = $1 ORDER BY i.seq`, seq)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []plumb.Issue
	var notOpen []int // issues stored as not open without an ignored state
	for rows.Next() {
		_, is, err := scanIssue(rows)
		if err != nil {
			return nil, err
		}
		if st, ok := states[is.Fingerprint]; ok {
			is.Status = st
		} else if is.Status != "open" {
			notOpen = append(notOpen, len(out))
		}
		is.ProjectID = projectID
		out = append(out, is)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(notOpen) == 0 {
		return out, nil
	}
	fps := make([]string, len(notOpen))
	for i, k := range notOpen {
		fps[i] = out[k].Fingerprint
	}
	open := map[string]bool{}
	err = inBatches(fps, func(in string, args []any) error {
		return eachRow(ctx, q, `SELECT fingerprint FROM issue_states WHERE project_id = $1 AND status = 'open' AND fingerprint IN (`+in+`)`,
			append([]any{projectID}, args...), func(rows *sql.Rows) error {
				var fp string
				if err := rows.Scan(&fp); err != nil {
					return err
				}
				open[fp] = true
				return nil
			})
	})
	for _, k := range notOpen {
		if open[out[k].Fingerprint] {
			out[k].Status = "open"
		}
	}
	return out, err
}
