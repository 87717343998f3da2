package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/metric"
)

// AddCoverage stores one coverage report for a commit, merging it line by
// line with earlier reports of the same commit and coverage tag. A report of
// the project's default branch updates the coverage measurements of the
// project and of every component at that commit.
func (db *DB) AddCoverage(ctx context.Context, in plumb.CoverageInput) (string, error) {
	if err := validateCoverage(&in); err != nil {
		return "", err
	}
	err := db.inTx(ctx, func(tx *sql.Tx) error { return db.addCoverage(ctx, tx, in) })
	return in.ID, err
}

var shaPattern = regexp.MustCompile(`^[0-9a-f]{7,64}$`)

func validateCoverage(in *plumb.CoverageInput) error {
	var errs []string
	in.CommitSHA = strings.ToLower(strings.TrimSpace(in.CommitSHA))
	if !shaPattern.MatchString(in.CommitSHA) {
		errs = append(errs, fmt.Sprintf("commitSha must be a hexadecimal commit SHA, got %q", in.CommitSHA))
	}
	if in.CoverageTag == "" {
		in.CoverageTag = "default"
	}
	if in.UploadedAt.IsZero() {
		errs = append(errs, "uploadedAt is required")
	}
	if in.PullRequest < 0 {
		errs = append(errs, fmt.Sprintf("pullRequestNumber must be a positive integer, got %d", in.PullRequest))
	}
	if in.ID == "" {
		in.ID = NewID()
	}
	if in.ID = strings.ToLower(in.ID); !isUUID(in.ID) {
		errs = append(errs, fmt.Sprintf("coverage id must be a UUID, got %q", in.ID))
	}
	seen := map[string]bool{}
	for i, f := range in.Files {
		if f.Path == "" {
			errs = append(errs, fmt.Sprintf("files[%d]: path is required", i))
		}
		if seen[f.Path] {
			errs = append(errs, fmt.Sprintf("files[%d]: path %q is listed twice", i, f.Path))
		}
		seen[f.Path] = true
		for j, h := range f.Hits {
			if h < -1 {
				errs = append(errs, fmt.Sprintf("files[%d] (%s): hits[%d] is %d; hits are -1, 0 or a positive count", i, f.Path, j, h))
				break
			}
		}
	}
	return plumb.Invalid(errs)
}

func (db *DB) addCoverage(ctx context.Context, tx *sql.Tx, in plumb.CoverageInput) error {
	ci, err := db.beginCoverage(ctx, tx, in)
	if err != nil {
		return err
	}
	defer ci.close()
	if err := ci.add(in.Files); err != nil {
		return err
	}
	return ci.finish()
}

// CoverageSummary describes one stored coverage report.
type CoverageSummary struct {
	ID          string
	CommitSHA   string
	CoverageTag string
	Files       int
	Covered     int64 // covered lines in this report
	Missed      int64 // missed lines in this report
}

// IngestCoverage stores a coverage report read by read, which hands over the
// report's files one at a time (a parser's output): they are merged in
// batches in one transaction, so a report of any size is stored in bounded
// memory, and a report that fails to read leaves nothing behind.
func (db *DB) IngestCoverage(ctx context.Context, in plumb.CoverageInput, read func(emit func(plumb.CoverageFile) error) error) (CoverageSummary, error) {
	files := in.Files
	in.Files = nil
	if err := validateCoverage(&in); err != nil {
		return CoverageSummary{}, err
	}
	var sum CoverageSummary
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		ci, err := db.beginCoverage(ctx, tx, in)
		if err != nil {
			return err
		}
		defer ci.close()
		const batchLines = 1 << 20 // about 8 MB of hits per batch
		var batch []plumb.CoverageFile
		lines := 0
		emit := func(f plumb.CoverageFile) error {
			if f.Path == "" {
				return plumb.Errorf(plumb.EINVALID, "a file of the report has no path")
			}
			batch = append(batch, f)
			lines += len(f.Hits)
			if lines < batchLines && len(batch) < 2000 {
				return nil
			}
			err := ci.add(batch)
			batch, lines = batch[:0], 0
			return err
		}
		for _, f := range files {
			if err := emit(f); err != nil {
				return err
			}
		}
		if read != nil {
			if err := read(emit); err != nil {
				return err
			}
		}
		if err := ci.add(batch); err != nil {
			return err
		}
		if ci.summary.Files == 0 {
			return plumb.Errorf(plumb.EINVALID, "The coverage report holds no files; nothing was stored.")
		}
		if err := ci.finish(); err != nil {
			return err
		}
		sum = ci.summary
		return nil
	})
	return sum, err
}

// coverageIngest stores one coverage report inside a transaction.
type coverageIngest struct {
	db            *DB
	ctx           context.Context
	tx            *sql.Tx
	in            plumb.CoverageInput
	at            time.Time
	defaultBranch string
	summary       CoverageSummary
	seen          map[int64]coverageCount // the stored counts of each file of this report
	getTag        *sql.Stmt               // this tag's merged hits of a file
	putTag        *sql.Stmt
	getAll        *sql.Stmt // every tag's hits of a file
	putUnion      *sql.Stmt
}

func (db *DB) beginCoverage(ctx context.Context, tx *sql.Tx, in plumb.CoverageInput) (*coverageIngest, error) {
	if err := db.lockProject(ctx, tx, in.ProjectID); err != nil {
		return nil, err
	}
	ci := &coverageIngest{db: db, ctx: ctx, tx: tx, in: in, at: in.UploadedAt.UTC().Truncate(time.Second), seen: map[int64]coverageCount{},
		summary: CoverageSummary{ID: in.ID, CommitSHA: in.CommitSHA, CoverageTag: in.CoverageTag}}
	if err := tx.QueryRowContext(ctx, `SELECT default_branch FROM projects WHERE id = $1`, in.ProjectID).Scan(&ci.defaultBranch); errors.Is(err, sql.ErrNoRows) {
		return nil, notFound(fmt.Sprintf("no project %q", in.ProjectID))
	} else if err != nil {
		return nil, err
	}
	var pull any
	if in.PullRequest > 0 {
		pull = in.PullRequest
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO coverage_uploads (id, project_id, commit_sha, branch, git_tag, coverage_tag, pull_request_number, uploaded_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, in.ID, in.ProjectID, in.CommitSHA, in.Branch, in.GitTag, in.CoverageTag, pull, unix(ci.at)); err != nil {
		return nil, err
	}
	var err error
	prepare := func(q string) *sql.Stmt {
		if err != nil {
			return nil
		}
		var st *sql.Stmt
		st, err = tx.PrepareContext(ctx, q)
		return st
	}
	ci.getTag = prepare(`SELECT hits FROM coverage_files WHERE project_id = $1 AND commit_sha = $2 AND coverage_tag = $3 AND path_id = $4`)
	ci.putTag = prepare(`INSERT INTO coverage_files (project_id, commit_sha, coverage_tag, path_id, hits, covered, missed)
		VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (project_id, commit_sha, coverage_tag, path_id)
		DO UPDATE SET hits = excluded.hits, covered = excluded.covered, missed = excluded.missed`)
	ci.getAll = prepare(`SELECT hits FROM coverage_files WHERE project_id = $1 AND commit_sha = $2 AND path_id = $3`)
	ci.putUnion = prepare(`INSERT INTO coverage_union (project_id, commit_sha, path_id, covered, missed) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (project_id, commit_sha, path_id) DO UPDATE SET covered = excluded.covered, missed = excluded.missed`)
	if err != nil {
		ci.close()
		return nil, err
	}
	return ci, nil
}

func (ci *coverageIngest) close() {
	for _, st := range []*sql.Stmt{ci.getTag, ci.putTag, ci.getAll, ci.putUnion} {
		if st != nil {
			st.Close()
		}
	}
}

// add merges a batch of files into the commit's coverage.
func (ci *coverageIngest) add(files []plumb.CoverageFile) error {
	if len(files) == 0 {
		return nil
	}
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.Path
		for j, h := range f.Hits {
			if h < -1 {
				return plumb.Errorf(plumb.EINVALID, "%s: line %d has hit count %d; hits are -1, 0 or a positive count", f.Path, j+1, h)
			}
		}
	}
	ids, err := ci.db.pathIDs(ci.ctx, ci.tx, ci.in.ProjectID, paths)
	if err != nil {
		return err
	}
	for _, f := range files {
		id := ids[f.Path]
		counts, err := ci.merge(id, f.Hits)
		if err != nil {
			return err
		}
		// A file named in several records counts once, merged.
		prev, seen := ci.seen[id]
		if !seen {
			ci.summary.Files++
		}
		ci.summary.Covered += counts.covered - prev.covered
		ci.summary.Missed += counts.missed - prev.missed
		ci.seen[id] = counts
	}
	return nil
}

type coverageCount struct{ covered, missed int64 }

// merge merges one file's hits into its (commit, tag) row, refreshes the
// file's union over every tag of the commit, and returns the row's counts.
func (ci *coverageIngest) merge(pathID int64, hits []int64) (coverageCount, error) {
	ctx, in := ci.ctx, ci.in
	var blob []byte
	err := ci.getTag.QueryRowContext(ctx, in.ProjectID, in.CommitSHA, in.CoverageTag, pathID).Scan(&blob)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return coverageCount{}, err
	default:
		old, err := decodeHits(blob)
		if err != nil {
			return coverageCount{}, err
		}
		hits = plumb.MergeHits(old, hits)
	}
	covered, missed, _ := countHits(hits)
	counts := coverageCount{covered, missed}
	if _, err := ci.putTag.ExecContext(ctx, in.ProjectID, in.CommitSHA, in.CoverageTag, pathID, encodeHits(hits), covered, missed); err != nil {
		return coverageCount{}, err
	}
	// The union over tags: covered when any tag hit the line, missed when
	// some tag could cover it and none did.
	rows, err := ci.getAll.QueryContext(ctx, in.ProjectID, in.CommitSHA, pathID)
	if err != nil {
		return coverageCount{}, err
	}
	var union []int64
	for rows.Next() {
		if err := rows.Scan(&blob); err != nil {
			rows.Close()
			return coverageCount{}, err
		}
		h, err := decodeHits(blob)
		if err != nil {
			rows.Close()
			return coverageCount{}, err
		}
		union = unionHits(union, h)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return coverageCount{}, err
	}
	uc, um, _ := countHits(union)
	_, err = ci.putUnion.ExecContext(ctx, in.ProjectID, in.CommitSHA, pathID, uc, um)
	return counts, err
}

// finish refreshes the commit's coverage measurement. It is dated by the
// commit's most recent default-branch upload (a report arriving late does
// not move it back). A report reaching a default-branch commit another way (a
// tag, another branch) still merges into that commit's coverage: its
// measurement is refreshed and keeps its time.
func (ci *coverageIngest) finish() error {
	ctx, tx, in, at := ci.ctx, ci.tx, ci.in, ci.at
	var prev int64
	err := tx.QueryRowContext(ctx, `SELECT at FROM coverage_totals WHERE project_id = $1 AND component_id = '' AND commit_sha = $2`,
		in.ProjectID, in.CommitSHA).Scan(&prev)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		if in.Branch != ci.defaultBranch {
			return nil
		}
	case err != nil:
		return err
	case in.Branch != ci.defaultBranch || prev > unix(at):
		at = fromUnix(prev)
	}
	return updateCoverageTotals(ctx, tx, in.ProjectID, in.CommitSHA, at)
}

// unionHits combines two tags' hits of one file: the larger count per line.
func unionHits(a, b []int64) []int64 {
	if len(b) > len(a) {
		a, b = b, a
	}
	out := make([]int64, len(a))
	copy(out, a)
	for i, h := range b {
		if h > out[i] {
			out[i] = h
		}
	}
	return out
}

// updateCoverageTotals recomputes the coverage measurement of a default-branch
// commit for the whole project (component id "") and for every component.
func updateCoverageTotals(ctx context.Context, tx *sql.Tx, projectID, commit string, at time.Time) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM coverage_totals WHERE project_id = $1 AND commit_sha = $2`, projectID, commit); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO coverage_totals (project_id, component_id, commit_sha, at, covered, missed)
		SELECT $1, '', $2, $3, coalesce(sum(covered), 0), coalesce(sum(missed), 0) FROM coverage_union WHERE project_id = $1 AND commit_sha = $2`,
		projectID, commit, unix(at)); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO coverage_totals (project_id, component_id, commit_sha, at, covered, missed)
		SELECT $1, c.id, $2, $3,
			coalesce((SELECT sum(u.covered) FROM coverage_union u JOIN component_paths cp ON cp.path_id = u.path_id AND cp.component_id = c.id
				WHERE u.project_id = $1 AND u.commit_sha = $2), 0),
			coalesce((SELECT sum(u.missed) FROM coverage_union u JOIN component_paths cp ON cp.path_id = u.path_id AND cp.component_id = c.id
				WHERE u.project_id = $1 AND u.commit_sha = $2), 0)
		FROM components c WHERE c.project_id = $1`, projectID, commit, unix(at))
	return err
}

// ResolveReference turns a git reference into the commit it names:
// refs/heads/<branch> is the commit of the branch's most recent coverage
// upload, refs/tags/<tag> the tagged commit, and a hex string a full SHA or a
// unique prefix of at least 7 characters.
func (db *DB) ResolveReference(ctx context.Context, projectID, ref string) (string, error) {
	return resolveReference(ctx, db.read, projectID, ref)
}

func resolveReference(ctx context.Context, q querier, projectID, ref string) (string, error) {
	var sha string
	var err error
	switch {
	case strings.HasPrefix(ref, "refs/heads/"):
		err = q.QueryRowContext(ctx, `SELECT commit_sha FROM coverage_uploads WHERE project_id = $1 AND branch = $2
			ORDER BY uploaded_at DESC, seq DESC LIMIT 1`, projectID, strings.TrimPrefix(ref, "refs/heads/")).Scan(&sha)
	case strings.HasPrefix(ref, "refs/pull/"):
		// The latest commit with coverage uploaded for the pull request.
		n, perr := strconv.Atoi(strings.TrimPrefix(ref, "refs/pull/"))
		if perr != nil || n <= 0 || strconv.Itoa(n) != strings.TrimPrefix(ref, "refs/pull/") {
			return "", notFound(fmt.Sprintf("Reference %q is not refs/pull/<number> with a positive pull request number.", ref))
		}
		err = q.QueryRowContext(ctx, `SELECT commit_sha FROM coverage_uploads WHERE project_id = $1 AND pull_request_number = $2
			ORDER BY uploaded_at DESC, seq DESC LIMIT 1`, projectID, n).Scan(&sha)
	case strings.HasPrefix(ref, "refs/tags/"):
		err = q.QueryRowContext(ctx, `SELECT commit_sha FROM coverage_uploads WHERE project_id = $1 AND git_tag = $2
			ORDER BY uploaded_at DESC, seq DESC LIMIT 1`, projectID, strings.TrimPrefix(ref, "refs/tags/")).Scan(&sha)
	default:
		prefix := strings.ToLower(ref)
		if len(prefix) < 7 || !shaPattern.MatchString(prefix) {
			return "", notFound(fmt.Sprintf("Reference %q is neither refs/heads/<branch>, refs/tags/<tag>, refs/pull/<number> nor a commit SHA (40 hex characters or a unique prefix of at least 7).", ref))
		}
		rows, qerr := q.QueryContext(ctx, `SELECT DISTINCT commit_sha FROM coverage_uploads WHERE project_id = $1 AND commit_sha >= $2 AND commit_sha < $3 LIMIT 2`,
			projectID, prefix, prefix+"~")
		if qerr != nil {
			return "", qerr
		}
		var found []string
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				rows.Close()
				return "", err
			}
			found = append(found, s)
		}
		rows.Close()
		switch len(found) {
		case 0:
			err = sql.ErrNoRows
		case 1:
			sha = found[0]
		default:
			return "", notFound(fmt.Sprintf("Commit prefix %q is ambiguous; give more characters of the SHA.", ref))
		}
	}
	if errors.Is(err, sql.ErrNoRows) {
		return "", notFound(fmt.Sprintf("Reference %q has no coverage in this project.", ref))
	}
	return sha, err
}

// FileCoverageEntry is one coverage tag's line hits of one file.
type FileCoverageEntry struct {
	Tag  string
	Path string
	Hits []int64
}

// FileCoverage returns every coverage tag uploaded for the commit a reference
// resolves to, and each tag's hits for path.
func (db *DB) FileCoverage(ctx context.Context, projectID, ref, path string) (tags []string, files []FileCoverageEntry, err error) {
	tags, stored, err := db.StoredFileCoverage(ctx, projectID, ref, path)
	for _, f := range stored {
		e := FileCoverageEntry{Tag: f.Tag, Path: f.Path}
		if e.Hits, err = decodeHits(f.Hits); err != nil {
			return nil, nil, err
		}
		files = append(files, e)
	}
	return tags, files, err
}

// StoredFileCoverageEntry is one coverage tag's line hits of one file, as
// stored (read them with Hits' methods, in the memory they take stored).
type StoredFileCoverageEntry struct {
	Tag  string
	Path string
	Hits Hits
}

// StoredFileCoverage is FileCoverage with the hits as stored.
func (db *DB) StoredFileCoverage(ctx context.Context, projectID, ref, path string) (tags []string, files []StoredFileCoverageEntry, err error) {
	err = db.readTx(ctx, func(tx *sql.Tx) error {
		sha, err := resolveReference(ctx, tx, projectID, ref)
		if err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT DISTINCT coverage_tag FROM coverage_uploads WHERE project_id = $1 AND commit_sha = $2 ORDER BY coverage_tag`, projectID, sha)
		if err != nil {
			return err
		}
		for rows.Next() {
			var t string
			if err := rows.Scan(&t); err != nil {
				rows.Close()
				return err
			}
			tags = append(tags, t)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		// The path's id first, so reading its hits is a primary-key lookup
		// whatever the planner believes about the table.
		var pathID int64
		err = tx.QueryRowContext(ctx, `SELECT id FROM paths WHERE project_id = $1 AND path = $2`, projectID, path).Scan(&pathID)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound(fmt.Sprintf("File %q has no coverage at commit %s.", path, sha))
		} else if err != nil {
			return err
		}
		rows, err = tx.QueryContext(ctx, `SELECT coverage_tag, hits FROM coverage_files
			WHERE project_id = $1 AND commit_sha = $2 AND path_id = $3 ORDER BY coverage_tag`, projectID, sha, pathID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var e StoredFileCoverageEntry
			var blob []byte
			if err := rows.Scan(&e.Tag, &blob); err != nil {
				return err
			}
			e.Hits = blob
			e.Path = path
			files = append(files, e)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if len(files) == 0 {
			return notFound(fmt.Sprintf("File %q has no coverage at commit %s.", path, sha))
		}
		return nil
	})
	return tags, files, err
}

// FileTotals returns one file's figures at the current default-branch
// snapshot and its coverage at the latest default-branch coverage. A path that
// is not a file of the current snapshot is not found.
func (db *DB) FileTotals(ctx context.Context, projectID, path string) (metric.Totals, error) {
	var t metric.Totals
	err := db.readTx(ctx, func(tx *sql.Tx) error {
		var pathID int64
		err := tx.QueryRowContext(ctx, `SELECT p.id, `+prefixCols("v.", fileStatsColumns)+` FROM paths p
			JOIN projects pr ON pr.id = p.project_id
			JOIN file_versions v ON v.path_id = p.id AND v.since_seq = `+currentVersion+`
			WHERE p.project_id = $1 AND p.path = $2 AND v.deleted = 0`, projectID, path).Scan(scanFileStats([]any{&pathID}, &t.Stats)...)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound(fmt.Sprintf("%q is not a file of the latest analysis of the default branch.", path))
		} else if err != nil {
			return err
		}
		t.Files = 1
		err = tx.QueryRowContext(ctx, `SELECT u.covered, u.missed FROM coverage_union u
			WHERE u.project_id = $1 AND u.path_id = $2 AND u.commit_sha = (SELECT commit_sha FROM coverage_totals
				WHERE project_id = $1 AND component_id = '' ORDER BY at DESC, commit_sha DESC LIMIT 1)`, projectID, pathID).
			Scan(&t.Coverage.Covered, &t.Coverage.Missed)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		return err
	})
	return t, err
}
