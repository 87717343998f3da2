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
	_, err := db.storeCoverage(ctx, nil, in, nil)
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
		if msg := checkCoverageFile(f); msg != "" {
			errs = append(errs, fmt.Sprintf("files[%d] (%s): %s", i, f.Path, msg))
		}
	}
	return plumb.Invalid(errs)
}

// addCoverage stores a coverage report inside the caller's transaction
// (an import).
func (db *DB) addCoverage(ctx context.Context, tx *sql.Tx, in plumb.CoverageInput) error {
	_, err := db.storeCoverage(ctx, tx, in, nil)
	return err
}

// IngestCoverage stores a coverage report read by read, which hands over the
// report's files one at a time (a parser's output; in.Files come first). The
// report is staged (docs/architecture.md, "Staged writes"): merged into the
// commit's coverage in transactions of a batch of files each, invisible
// until one transaction publishes the whole report, so a report of any size
// is stored in bounded memory, holds the writer for one batch at a time, and
// leaves nothing behind when it fails to read.
func (db *DB) IngestCoverage(ctx context.Context, in plumb.CoverageInput, read func(emit func(plumb.CoverageFile) error) error) (plumb.CoverageSummary, error) {
	return db.storeCoverage(ctx, nil, in, func(emit func(plumb.CoverageFile) error) error {
		if read == nil {
			return nil
		}
		return read(emit)
	})
}

// coverageWrite is one coverage report being written: staged in short
// transactions of its own, or inside a caller's transaction (tx).
type coverageWrite struct {
	db            *DB
	ctx           context.Context
	in            plumb.CoverageInput
	staged        *stagedWrite
	tx            *sql.Tx
	seq           int64 // the upload's row
	at            time.Time
	defaultBranch string
}

func (db *DB) storeCoverage(ctx context.Context, tx *sql.Tx, in plumb.CoverageInput, read func(emit func(plumb.CoverageFile) error) error) (plumb.CoverageSummary, error) {
	files := in.Files
	in.Files = nil
	if err := validateCoverage(&in); err != nil {
		return plumb.CoverageSummary{}, err
	}
	w := &coverageWrite{db: db, ctx: ctx, in: in, tx: tx, at: in.UploadedAt.UTC().Truncate(time.Second)}
	if tx == nil {
		staged, err := db.beginStaged(ctx, in.ProjectID, stagedCoverage, w.start)
		if err != nil {
			return plumb.CoverageSummary{}, classify(err)
		}
		w.staged = staged
	} else {
		if err := db.lockProject(ctx, tx, in.ProjectID); err != nil {
			return plumb.CoverageSummary{}, err
		}
		if _, err := w.start(tx); err != nil {
			return plumb.CoverageSummary{}, err
		}
	}
	sum, err := w.write(files, read)
	if err != nil && w.staged != nil {
		w.staged.fail(ctx)
	}
	return sum, classify(err)
}

// start inserts the upload's row, pending, and returns its seq.
func (w *coverageWrite) start(tx *sql.Tx) (int64, error) {
	ctx, in := w.ctx, w.in
	if err := tx.QueryRowContext(ctx, `SELECT default_branch FROM projects WHERE id = $1`, in.ProjectID).Scan(&w.defaultBranch); errors.Is(err, sql.ErrNoRows) {
		return 0, notFound(fmt.Sprintf("no project %q", in.ProjectID))
	} else if err != nil {
		return 0, err
	}
	var pull any
	if in.PullRequest > 0 {
		pull = in.PullRequest
	}
	err := tx.QueryRowContext(ctx, `INSERT INTO coverage_uploads (id, project_id, commit_sha, branch, git_tag, coverage_tag, pull_request_number, uploaded_at, pending)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1) RETURNING seq`, in.ID, in.ProjectID, in.CommitSHA, in.Branch, in.GitTag, in.CoverageTag, pull, unix(w.at)).Scan(&w.seq)
	return w.seq, err
}

// chunk runs fn in a transaction of the write.
func (w *coverageWrite) chunk(fn func(tx *sql.Tx) error) error {
	if w.staged == nil {
		return fn(w.tx)
	}
	return w.staged.chunk(w.ctx, fn)
}

// write stages the report's files in batches (about 8 MB of hits, or 2,000
// files), then publishes it.
func (w *coverageWrite) write(files []plumb.CoverageFile, read func(emit func(plumb.CoverageFile) error) error) (plumb.CoverageSummary, error) {
	const batchLines = 1 << 20
	var batch []plumb.CoverageFile
	lines := 0
	maxFiles := min(2000, w.db.stageChunk)
	emit := func(f plumb.CoverageFile) error {
		if f.Path == "" {
			return plumb.Errorf(plumb.EINVALID, "a file of the report has no path")
		}
		batch = append(batch, f)
		lines += f.Coverable()
		if lines < batchLines && len(batch) < maxFiles {
			return nil
		}
		err := w.chunk(func(tx *sql.Tx) error { return w.stage(tx, batch) })
		batch, lines = batch[:0], 0
		return err
	}
	for _, f := range files {
		if err := emit(f); err != nil {
			return plumb.CoverageSummary{}, err
		}
	}
	if read != nil {
		if err := read(emit); err != nil {
			return plumb.CoverageSummary{}, err
		}
	}
	if len(batch) > 0 {
		if err := w.chunk(func(tx *sql.Tx) error { return w.stage(tx, batch) }); err != nil {
			return plumb.CoverageSummary{}, err
		}
	}
	sum := plumb.CoverageSummary{ID: w.in.ID, CommitSHA: w.in.CommitSHA, CoverageTag: w.in.CoverageTag}
	err := w.chunk(func(tx *sql.Tx) error {
		err := tx.QueryRowContext(w.ctx, `SELECT count(*), coalesce(sum(covered), 0), coalesce(sum(missed), 0) FROM staged_coverage_files
			WHERE upload_seq = $1`, w.seq).Scan(&sum.Files, &sum.Covered, &sum.Missed)
		if err != nil {
			return err
		}
		if sum.Files == 0 && read != nil { // an upload must bring files
			return plumb.Errorf(plumb.EINVALID, "The coverage report holds no files; nothing was stored.")
		}
		if err := w.publish(tx); err != nil {
			return err
		}
		return w.db.recordAnswer(w.ctx, tx, sum)
	})
	if err != nil {
		return sum, err
	}
	if w.staged != nil {
		w.db.published(w.ctx, stagedCoverage)
	}
	return sum, w.clear()
}

// stage merges a batch of files into the report's staged rows: each file's
// hits merged with what the commit has under the coverage tag (or with what
// this report gave the file before), and its union over every tag.
func (w *coverageWrite) stage(tx *sql.Tx, files []plumb.CoverageFile) error {
	ctx, in := w.ctx, w.in
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.Path
		if msg := checkCoverageFile(f); msg != "" {
			return plumb.Errorf(plumb.EINVALID, "%s: %s", f.Path, msg)
		}
	}
	ids, err := w.db.pathIDs(ctx, tx, in.ProjectID, paths)
	if err != nil {
		return err
	}
	getStaged, err := tx.PrepareContext(ctx, `SELECT hits, branches FROM staged_coverage_files WHERE upload_seq = $1 AND path_id = $2`)
	if err != nil {
		return err
	}
	defer getStaged.Close()
	getTags, err := tx.PrepareContext(ctx, `SELECT coverage_tag, hits, branches FROM coverage_files WHERE project_id = $1 AND commit_sha = $2 AND path_id = $3`)
	if err != nil {
		return err
	}
	defer getTags.Close()
	put, err := tx.PrepareContext(ctx, `INSERT INTO staged_coverage_files (upload_seq, path_id, hits, covered, missed, union_covered, union_missed, branches)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (upload_seq, path_id)
		DO UPDATE SET hits = excluded.hits, covered = excluded.covered, missed = excluded.missed,
			union_covered = excluded.union_covered, union_missed = excluded.union_missed, branches = excluded.branches`)
	if err != nil {
		return err
	}
	defer put.Close()
	for _, f := range files {
		id := ids[f.Path]
		// The commit's hits of the file under every tag, as published,
		// kept as stored: they are walked, never expanded.
		var mine, mineBranches []byte
		var others [][]byte
		rows, err := getTags.QueryContext(ctx, in.ProjectID, in.CommitSHA, id)
		err = readRows(rows, err, func(rows *sql.Rows) error {
			var tag string
			var blob, branches []byte
			if err := rows.Scan(&tag, &blob, &branches); err != nil {
				return err
			}
			if tag == in.CoverageTag {
				mine, mineBranches = blob, branches
			} else {
				others = append(others, blob)
			}
			return nil
		})
		if err != nil {
			return err
		}
		// A file named in several records of the report merges with what
		// the report gave it before.
		var blob, branches []byte
		switch err := getStaged.QueryRowContext(ctx, w.seq, id).Scan(&blob, &branches); {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return err
		default:
			mine, mineBranches = blob, branches
		}
		// Branch figures merge by plumb.MergeBranches' rule.
		mineBranches, err = mergeBranchBlob(mineBranches, f.Branches)
		if err != nil {
			return err
		}
		// The file merged with what the tag has: counts add up, and the
		// longer one sets the length.
		total := f.NumLines()
		var base hitCursor = &denseCursor{}
		var baseBlob *blobCursor
		if mine != nil {
			baseBlob = newBlobCursor(mine)
			total, base = max(total, baseBlob.total), baseBlob
		}
		enc := newHitEncoder(total)
		covered, missed := mergeHits(base, fileCursor(f), enc)
		if baseBlob != nil && baseBlob.err != nil {
			return baseBlob.err
		}
		hits := enc.bytes()
		// The union over tags: covered when any tag hit the line, missed
		// when some tag could cover it and none did.
		union := []hitCursor{newBlobCursor(hits)}
		for _, o := range others {
			union = append(union, newBlobCursor(o))
		}
		uc, um := unionCounts(union)
		for _, c := range union {
			if err := c.(*blobCursor).err; err != nil {
				return err
			}
		}
		if _, err := put.ExecContext(ctx, w.seq, id, hits, covered, missed, uc, um, mineBranches); err != nil {
			return err
		}
	}
	return nil
}

// publish moves the staged rows into the commit's coverage, refreshes its
// measurement and makes the upload visible, in one transaction. It copies
// the report's files once, in SQL.
func (w *coverageWrite) publish(tx *sql.Tx) error {
	ctx, in := w.ctx, w.in
	if err := w.db.lockProject(ctx, tx, in.ProjectID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO coverage_files (project_id, commit_sha, coverage_tag, path_id, hits, covered, missed, branches)
		SELECT $1, $2, $3, path_id, hits, covered, missed, branches FROM staged_coverage_files WHERE upload_seq = $4
		ON CONFLICT (project_id, commit_sha, coverage_tag, path_id) DO UPDATE SET hits = excluded.hits, covered = excluded.covered, missed = excluded.missed, branches = excluded.branches`,
		in.ProjectID, in.CommitSHA, in.CoverageTag, w.seq); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO coverage_union (project_id, commit_sha, path_id, covered, missed)
		SELECT $1, $2, path_id, union_covered, union_missed FROM staged_coverage_files WHERE upload_seq = $3
		ON CONFLICT (project_id, commit_sha, path_id) DO UPDATE SET covered = excluded.covered, missed = excluded.missed`,
		in.ProjectID, in.CommitSHA, w.seq); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE coverage_uploads SET pending = 0 WHERE seq = $1`, w.seq); err != nil {
		return err
	}
	return w.finish(tx)
}

// clear removes the published upload's staged rows, a chunk per
// transaction, then ends the write.
func (w *coverageWrite) clear() error {
	step := `DELETE FROM staged_coverage_files WHERE upload_seq = $1 AND path_id IN (SELECT path_id FROM staged_coverage_files WHERE upload_seq = $1 LIMIT $2)`
	if w.staged == nil {
		_, err := w.tx.ExecContext(w.ctx, `DELETE FROM staged_coverage_files WHERE upload_seq = $1`, w.seq)
		return err
	}
	ctx := context.WithoutCancel(w.ctx) // published: the rest is tidying
	for {
		var n int64
		err := w.staged.tx(ctx, func(tx *sql.Tx) error {
			res, err := tx.ExecContext(ctx, step, w.seq, w.db.stageChunk)
			if err != nil {
				return err
			}
			n, _ = res.RowsAffected()
			if n < int64(w.db.stageChunk) {
				return w.staged.release(ctx, tx)
			}
			return nil
		})
		if err != nil || n < int64(w.db.stageChunk) {
			w.staged.stopRenew()
			return nil // published; what is left goes with the next write
		}
	}
}

// finish refreshes the commit's coverage measurement. It is dated by the
// commit's most recent default-branch upload (a report arriving late does
// not move it back). A report reaching a default-branch commit another way (a
// tag, another branch) still merges into that commit's coverage: its
// measurement is refreshed and keeps its time.
func (w *coverageWrite) finish(tx *sql.Tx) error {
	ctx, in, at := w.ctx, w.in, w.at
	var prev int64
	err := tx.QueryRowContext(ctx, `SELECT at FROM coverage_totals WHERE project_id = $1 AND component_id = '' AND commit_sha = $2`,
		in.ProjectID, in.CommitSHA).Scan(&prev)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		if in.Branch != w.defaultBranch {
			return nil
		}
	case err != nil:
		return err
	case in.Branch != w.defaultBranch || prev > unix(at):
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
		err = q.QueryRowContext(ctx, `SELECT commit_sha FROM coverage_uploads WHERE pending = 0 AND project_id = $1 AND branch = $2
			ORDER BY uploaded_at DESC, seq DESC LIMIT 1`, projectID, strings.TrimPrefix(ref, "refs/heads/")).Scan(&sha)
	case strings.HasPrefix(ref, "refs/pull/"):
		// The latest commit with coverage uploaded for the pull request.
		n, perr := strconv.Atoi(strings.TrimPrefix(ref, "refs/pull/"))
		if perr != nil || n <= 0 || strconv.Itoa(n) != strings.TrimPrefix(ref, "refs/pull/") {
			return "", notFound(fmt.Sprintf("Reference %q is not refs/pull/<number> with a positive pull request number.", ref))
		}
		err = q.QueryRowContext(ctx, `SELECT commit_sha FROM coverage_uploads WHERE pending = 0 AND project_id = $1 AND pull_request_number = $2
			ORDER BY uploaded_at DESC, seq DESC LIMIT 1`, projectID, n).Scan(&sha)
	case strings.HasPrefix(ref, "refs/tags/"):
		err = q.QueryRowContext(ctx, `SELECT commit_sha FROM coverage_uploads WHERE pending = 0 AND project_id = $1 AND git_tag = $2
			ORDER BY uploaded_at DESC, seq DESC LIMIT 1`, projectID, strings.TrimPrefix(ref, "refs/tags/")).Scan(&sha)
	default:
		prefix := strings.ToLower(ref)
		if len(prefix) < 7 || !shaPattern.MatchString(prefix) {
			return "", notFound(fmt.Sprintf("Reference %q is neither refs/heads/<branch>, refs/tags/<tag>, refs/pull/<number> nor a commit SHA (40 hex characters or a unique prefix of at least 7).", ref))
		}
		found, qerr := queryRecords(ctx, q, `SELECT DISTINCT commit_sha FROM coverage_uploads WHERE pending = 0 AND project_id = $1 AND commit_sha >= $2 AND commit_sha < $3 LIMIT 2`,
			[]any{projectID, prefix, prefix + "~"}, scanString)
		if qerr != nil {
			return "", qerr
		}
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

// FileCoverage returns every coverage tag uploaded for the commit a reference
// resolves to, and each tag's hits for path.
func (db *DB) FileCoverage(ctx context.Context, projectID, ref, path string) (tags []string, files []plumb.FileCoverageEntry, err error) {
	tags, stored, err := db.StoredFileCoverage(ctx, projectID, ref, path)
	for _, f := range stored {
		e := plumb.FileCoverageEntry{Tag: f.Tag, Path: f.Path, Branches: f.Branches}
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
	Tag      string
	Path     string
	Hits     Hits
	Branches []plumb.LineBranches // the lines with branch figures, ascending
}

// StoredFileCoverage is FileCoverage with the hits as stored.
func (db *DB) StoredFileCoverage(ctx context.Context, projectID, ref, path string) (tags []string, files []StoredFileCoverageEntry, err error) {
	err = db.readTx(ctx, func(tx *sql.Tx) error {
		sha, err := resolveReference(ctx, tx, projectID, ref)
		if err != nil {
			return err
		}
		tags, err = queryRecords(ctx, tx, `SELECT DISTINCT coverage_tag FROM coverage_uploads WHERE pending = 0 AND project_id = $1 AND commit_sha = $2 ORDER BY coverage_tag`,
			[]any{projectID, sha}, scanString)
		if err != nil {
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
		files, err = queryRecords(ctx, tx, `SELECT coverage_tag, hits, branches FROM coverage_files
			WHERE project_id = $1 AND commit_sha = $2 AND path_id = $3 ORDER BY coverage_tag`, []any{projectID, sha, pathID},
			func(row scanner) (StoredFileCoverageEntry, error) {
				e := StoredFileCoverageEntry{Path: path}
				var blob, branches []byte
				if err := row.Scan(&e.Tag, &blob, &branches); err != nil {
					return e, err
				}
				e.Hits = blob
				var err error
				e.Branches, err = decodeBranches(branches)
				return e, err
			})
		if err != nil {
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
