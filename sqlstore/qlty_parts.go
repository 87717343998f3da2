package sqlstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/plumbhq/plumb"

	"github.com/plumbhq/plumb/internal/wait"
)

// The qlty CLI's coverage uploads (docs/migrate-from-qlty.md). "qlty coverage
// publish" asks for an upload (POST /coverage), then PUTs its zip to the
// signed URL it was given. A publish that is whole is stored at once as an
// ordinary coverage upload whose id is the upload's. A part of a multi-part
// report (--incomplete, --total-parts-count N) is kept in qlty_part_files,
// which no read looks at, until "qlty coverage complete" or the declared
// number of parts arrives; the parts then publish together as one coverage
// upload (a staged write, like every coverage upload) whose id is the
// report's. A report that never completes is swept QltyReportTTL after its
// latest part, with everything it held.

// QltyReportTTL is how long a multi-part report waits after its latest part
// before it is swept, parts and all.
const QltyReportTTL = 24 * time.Hour

// qltyUploadGrace is how long an upload's row is kept after its URL expired
// (a PUT that started in time may still be running).
const qltyUploadGrace = 2 * time.Hour

// qltyPublishedKept is how long a published report is remembered, so a
// repeated "qlty coverage complete" answers as the first did.
const qltyPublishedKept = 24 * time.Hour

// QltySecret returns the key of the given name that every server of the
// installation shares, creating it (32 random bytes) the first time.
func (db *DB) QltySecret(ctx context.Context, name string) ([]byte, error) {
	var v string
	err := db.read.QueryRowContext(ctx, `SELECT value FROM server_secrets WHERE name = $1`, name).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		var b [32]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, err
		}
		err = db.inTx(ctx, func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, `INSERT INTO server_secrets (name, value, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING`,
				name, base64.StdEncoding.EncodeToString(b[:]), db.now().Unix()); err != nil {
				return err
			}
			// Another server may have created it first: its key wins.
			return tx.QueryRowContext(ctx, `SELECT value FROM server_secrets WHERE name = $1`, name).Scan(&v)
		})
	}
	if err != nil {
		return nil, classify(err)
	}
	return base64.StdEncoding.DecodeString(v)
}

// FindProjectByID finds a project by id, whoever asks (a signed upload URL
// names its project).
func (db *DB) FindProjectByID(ctx context.Context, id string) (plumb.Project, error) {
	p, err := scanProject(db.read.QueryRowContext(ctx, `SELECT `+projectColumns+` FROM projects p WHERE p.id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return p, notFound(fmt.Sprintf("Project %q was not found.", id))
	}
	return p, classify(err)
}

// CreateQltyUpload records a publish whose upload URL expires at expires.
// A part joins its commit and coverage tag's open report, which is created
// when there is none.
func (db *DB) CreateQltyUpload(ctx context.Context, projectID string, in plumb.QltyInput, expires time.Time) (plumb.QltyUpload, error) {
	now := db.now().UTC().Truncate(time.Second)
	u := plumb.QltyUpload{ID: NewID(), ProjectID: projectID, Input: in, State: "issued", CreatedAt: now, ExpiresAt: expires.UTC().Truncate(time.Second)}
	input, err := json.Marshal(in)
	if err != nil {
		return u, err
	}
	err = db.inTx(ctx, func(tx *sql.Tx) error {
		if in.Multipart {
			id, err := db.openQltyReport(ctx, tx, projectID, in, string(input))
			if err != nil {
				return err
			}
			u.ReportID = id
		}
		var report any
		if u.ReportID != "" {
			report = u.ReportID
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO qlty_uploads (id, project_id, report_id, input, state, created_at, expires_at) VALUES ($1, $2, $3, $4, 'issued', $5, $6)`,
			u.ID, projectID, report, string(input), unix(now), unix(u.ExpiresAt))
		return err
	})
	return u, classify(err)
}

// openQltyReport returns the id of the open report of the input's commit and
// coverage tag, creating it when there is none. A report being published
// (closed) takes no part: the part is refused.
func (db *DB) openQltyReport(ctx context.Context, tx *sql.Tx, projectID string, in plumb.QltyInput, input string) (string, error) {
	now := db.now()
	if _, err := tx.ExecContext(ctx, `INSERT INTO qlty_reports (id, project_id, commit_sha, coverage_tag, state, parts_expected, input, created_at, expires_at)
		VALUES ($1, $2, $3, $4, 'open', $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
		NewID(), projectID, in.CommitSHA, in.CoverageTag, in.Parts, input, now.Unix(), now.Add(QltyReportTTL).Unix()); err != nil {
		return "", err
	}
	var id, state string
	err := tx.QueryRowContext(ctx, `SELECT id, state FROM qlty_reports WHERE project_id = $1 AND commit_sha = $2 AND coverage_tag = $3 AND state <> 'published'`,
		projectID, in.CommitSHA, in.CoverageTag).Scan(&id, &state)
	if err != nil {
		return "", err
	}
	switch state {
	case "open":
	case "expired":
		return "", plumb.Errorf(plumb.ECONFLICT, "The previous multi-part report of commit %s (coverage tag %q) expired and is being removed; publish again in a minute.", in.CommitSHA, in.CoverageTag)
	default:
		return "", plumb.Errorf(plumb.ECONFLICT, "The multi-part report of commit %s (coverage tag %q) is being published now; publish this part again once that is done: it will start a new report.", in.CommitSHA, in.CoverageTag)
	}
	_, err = tx.ExecContext(ctx, `UPDATE qlty_reports SET expires_at = $1, parts_expected = CASE WHEN parts_expected < $2 THEN $2 ELSE parts_expected END WHERE id = $3`,
		now.Add(QltyReportTTL).Unix(), in.Parts, id)
	return id, err
}

// FindQltyUpload returns an upload by id (ENOTFOUND when there is none).
func (db *DB) FindQltyUpload(ctx context.Context, id string) (plumb.QltyUpload, error) {
	var u plumb.QltyUpload
	var report sql.NullString
	var input string
	var created, expires int64
	err := db.read.QueryRowContext(ctx, `SELECT id, project_id, report_id, input, state, created_at, expires_at FROM qlty_uploads WHERE id = $1`, id).
		Scan(&u.ID, &u.ProjectID, &report, &input, &u.State, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return u, notFound(fmt.Sprintf("no upload %q", id))
	}
	if err != nil {
		return u, classify(err)
	}
	u.ReportID, u.CreatedAt, u.ExpiresAt = report.String, fromUnix(created), fromUnix(expires)
	if err := json.Unmarshal([]byte(input), &u.Input); err != nil {
		return u, fmt.Errorf("upload %s: stored input: %w", id, err)
	}
	return u, nil
}

// PublishQltyUpload stores a whole publish as one coverage upload (with the
// upload's id), its files read by read. A publish already stored (a retry
// after a server stopped between storing it and answering) is not stored
// twice: published is then true and the summary empty.
func (db *DB) PublishQltyUpload(ctx context.Context, u plumb.QltyUpload, read func(emit func(plumb.CoverageFile) error) error) (sum plumb.CoverageSummary, published bool, err error) {
	if done, err := db.coverageUploadPublished(ctx, u.ID); err != nil || done {
		return plumb.CoverageSummary{ID: u.ID, CommitSHA: u.Input.CommitSHA, CoverageTag: u.Input.CoverageTag}, done, err
	}
	sum, err = db.IngestCoverage(ctx, u.Input.CoverageInput(u.ProjectID, u.ID), read)
	if err != nil {
		if done, derr := db.coverageUploadPublished(context.WithoutCancel(ctx), u.ID); derr == nil && done {
			// Another request with this upload stored it meanwhile.
			return plumb.CoverageSummary{ID: u.ID, CommitSHA: u.Input.CommitSHA, CoverageTag: u.Input.CoverageTag}, true, nil
		}
		return sum, false, err
	}
	_, _ = db.write.ExecContext(context.WithoutCancel(ctx), `UPDATE qlty_uploads SET state = 'published' WHERE id = $1`, u.ID)
	return sum, false, nil
}

func (db *DB) coverageUploadPublished(ctx context.Context, id string) (bool, error) {
	var n int
	err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM coverage_uploads WHERE id = $1 AND pending = 0`, id).Scan(&n)
	return n > 0, classify(err)
}

// AddQltyPart stores a part's files (read by read, in transactions of a
// batch each) to wait for its report, and returns where the report stands.
// Nothing of a part that fails stays behind; a part received before (a
// retry) is not stored twice. A part that arrives after its report was
// published, or was swept, is refused (409) and leaves nothing.
func (db *DB) AddQltyPart(ctx context.Context, u plumb.QltyUpload, read func(emit func(plumb.CoverageFile) error) error) (plumb.QltyReport, error) {
	if u.ReportID == "" {
		return plumb.QltyReport{}, fmt.Errorf("upload %s is not a part", u.ID)
	}
	state, err := db.qltyUploadState(ctx, u.ID)
	if err != nil {
		return plumb.QltyReport{}, err
	}
	if state != "issued" {
		return db.QltyReportStatus(ctx, u.ReportID)
	}
	// What an interrupted attempt of this part left.
	if _, err := db.removeQltyPartFiles(ctx, u.ID, -1); err != nil {
		return plumb.QltyReport{}, err
	}
	fail := func(err error) (plumb.QltyReport, error) {
		_, _ = db.removeQltyPartFiles(context.WithoutCancel(ctx), u.ID, -1)
		return plumb.QltyReport{}, classify(err)
	}
	const batchLines = 1 << 20
	maxFiles := min(2000, db.stageChunk)
	var batch []plumb.CoverageFile
	lines, seq, files := 0, 0, 0
	flush := func() error {
		err := db.inTx(ctx, func(tx *sql.Tx) error {
			st, err := tx.PrepareContext(ctx, `INSERT INTO qlty_part_files (upload_id, seq, path, hits) VALUES ($1, $2, $3, $4)`)
			if err != nil {
				return err
			}
			defer st.Close()
			for _, f := range batch {
				seq++
				if _, err := st.ExecContext(ctx, u.ID, seq, f.Path, encodeHits(f.Hits)); err != nil {
					return err
				}
			}
			return nil
		})
		batch, lines = batch[:0], 0
		return err
	}
	err = read(func(f plumb.CoverageFile) error {
		if f.Path == "" {
			return plumb.Errorf(plumb.EINVALID, "a file of the report has no path")
		}
		for j, h := range f.Hits {
			if h < -1 {
				return plumb.Errorf(plumb.EINVALID, "%s: line %d has hit count %d; hits are -1, 0 or a positive count", f.Path, j+1, h)
			}
		}
		files++
		batch = append(batch, f)
		lines += len(f.Hits)
		if lines < batchLines && len(batch) < maxFiles {
			return nil
		}
		return flush()
	})
	if err == nil && len(batch) > 0 {
		err = flush()
	}
	if err == nil && files == 0 {
		err = plumb.Errorf(plumb.EINVALID, "The coverage report holds no files; nothing was stored.")
	}
	if err != nil {
		return fail(err)
	}
	now := db.now()
	input, err := json.Marshal(u.Input)
	if err != nil {
		return fail(err)
	}
	var conflict error
	err = db.inTx(ctx, func(tx *sql.Tx) error {
		// The report must still take parts; the update locks its row, so a
		// publication starting now waits for this part or comes after it.
		res, err := tx.ExecContext(ctx, `UPDATE qlty_reports SET expires_at = $1, input = $2,
			parts_expected = CASE WHEN parts_expected < $3 THEN $3 ELSE parts_expected END
			WHERE id = $4 AND state = 'open'`, now.Add(QltyReportTTL).Unix(), string(input), u.Input.Parts, u.ReportID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			conflict = plumb.Errorf(plumb.ECONFLICT, "This part arrived after its report (commit %s, coverage tag %q) was completed or expired; it was not stored. "+
				"Publish it again to start a new report, and run qlty coverage complete after its last part.", u.Input.CommitSHA, u.Input.CoverageTag)
			return conflict
		}
		res, err = tx.ExecContext(ctx, `UPDATE qlty_uploads SET state = 'received' WHERE id = $1 AND state = 'issued'`, u.ID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			conflict = plumb.Errorf(plumb.ECONFLICT, "This upload was stored by another request at the same time.")
			return conflict
		}
		return nil
	})
	if err != nil {
		return fail(err)
	}
	return db.QltyReportStatus(ctx, u.ReportID)
}

func (db *DB) qltyUploadState(ctx context.Context, id string) (string, error) {
	var state string
	err := db.read.QueryRowContext(ctx, `SELECT state FROM qlty_uploads WHERE id = $1`, id).Scan(&state)
	if errors.Is(err, sql.ErrNoRows) {
		return "", plumb.Errorf(plumb.ECONFLICT, "This upload has expired and was removed; run qlty coverage publish again.")
	}
	return state, classify(err)
}

// removeQltyPartFiles deletes an upload's part rows, a chunk per
// transaction: all of them when max < 0, else at most max chunks
// (errQltySweepBudget when rows are left). It returns the chunks it used.
func (db *DB) removeQltyPartFiles(ctx context.Context, uploadID string, max int) (int, error) {
	for i := 0; ; i++ {
		if max >= 0 && i >= max {
			return i, errQltySweepBudget
		}
		var n int64
		err := db.inTx(ctx, func(tx *sql.Tx) error {
			res, err := tx.ExecContext(ctx, `DELETE FROM qlty_part_files WHERE upload_id = $1 AND seq IN
				(SELECT seq FROM qlty_part_files WHERE upload_id = $1 ORDER BY seq LIMIT $2)`, uploadID, db.stageChunk)
			if err != nil {
				return err
			}
			n, _ = res.RowsAffected()
			return nil
		})
		if err != nil {
			return i + 1, err
		}
		if n < int64(db.stageChunk) {
			return i + 1, nil
		}
	}
}

var errQltySweepBudget = errors.New("sweep budget spent")

// QltyReportStatus says where a report stands (ENOTFOUND once swept).
func (db *DB) QltyReportStatus(ctx context.Context, id string) (plumb.QltyReport, error) {
	r := plumb.QltyReport{ID: id}
	var published sql.NullInt64
	err := db.read.QueryRowContext(ctx, `SELECT commit_sha, coverage_tag, state, parts_expected, published_at,
		(SELECT count(*) FROM qlty_uploads WHERE report_id = $1 AND state IN ('received', 'published'))
		FROM qlty_reports WHERE id = $1`, id).Scan(&r.CommitSHA, &r.CoverageTag, &r.State, &r.Expected, &published, &r.Received)
	if errors.Is(err, sql.ErrNoRows) {
		return r, notFound(fmt.Sprintf("no report %q", id))
	}
	r.PublishedAt = fromNullUnix(published)
	return r, classify(err)
}

// FindQltyReport returns the report of a commit and coverage tag that is
// not published yet, else the one published last (within a day), else
// ENOTFOUND.
func (db *DB) FindQltyReport(ctx context.Context, projectID, commitSHA, coverageTag string) (plumb.QltyReport, error) {
	var id string
	err := db.read.QueryRowContext(ctx, `SELECT id FROM qlty_reports WHERE project_id = $1 AND commit_sha = $2 AND coverage_tag = $3
		ORDER BY CASE WHEN state = 'published' THEN 1 ELSE 0 END, published_at DESC LIMIT 1`, projectID, commitSHA, coverageTag).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return plumb.QltyReport{}, notFound("no report")
	}
	if err != nil {
		return plumb.QltyReport{}, classify(err)
	}
	return db.QltyReportStatus(ctx, id)
}

// PublishQltyReport publishes the parts received for a report as one
// coverage upload (whose id is the report's), with the metadata of the part
// received last. From its start the report takes no more parts. A report
// published already answers as it is; one another request is publishing
// answers plumb.ErrQltyPublishing. A publication whose server stopped is taken
// over once its lease ran out; one that fails reopens the report.
func (db *DB) PublishQltyReport(ctx context.Context, projectID, id string) (plumb.QltyReport, error) {
	now := db.now()
	var claimed bool
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE qlty_reports SET state = 'closed', owner = $1, lease_until = $2
			WHERE id = $3 AND project_id = $4 AND (state = 'open' OR state = 'closed' AND lease_until < $5)`,
			db.instance, now.Add(IdempotencyLease).Unix(), id, projectID, now.Unix())
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		claimed = n == 1
		return nil
	})
	if err != nil {
		return plumb.QltyReport{}, err
	}
	if !claimed {
		r, err := db.QltyReportStatus(ctx, id)
		if err == nil && r.State == "closed" {
			return r, plumb.ErrQltyPublishing
		}
		return r, err
	}
	stop := db.renewQltyReport(ctx, id)
	sum, err := db.publishQltyParts(ctx, projectID, id)
	stop()
	ctx = context.WithoutCancel(ctx)
	if err != nil {
		// Reopened: a retry (or a later part) publishes it.
		_, _ = db.write.ExecContext(ctx, `UPDATE qlty_reports SET state = 'open', owner = '', lease_until = 0 WHERE id = $1 AND owner = $2`, id, db.instance)
		return plumb.QltyReport{}, err
	}
	err = db.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE qlty_reports SET state = 'published', published_at = $1, owner = '', lease_until = 0 WHERE id = $2`,
			db.now().Unix(), id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE qlty_uploads SET state = 'published' WHERE report_id = $1 AND state = 'received'`, id)
		return err
	})
	if err != nil {
		return plumb.QltyReport{}, err
	}
	// The parts' rows are done with; what a failure here leaves, the sweep
	// removes.
	_ = db.eachQltyPart(ctx, id, func(uploadID string) error {
		_, err := db.removeQltyPartFiles(ctx, uploadID, -1)
		return err
	})
	r, err := db.QltyReportStatus(ctx, id)
	if sum.ID != "" {
		r.Summary = &sum
	}
	return r, err
}

// renewQltyReport renews the lease of a report this server publishes until
// the returned function is called.
func (db *DB) renewQltyReport(ctx context.Context, id string) func() {
	return wait.Renew(ctx, IdempotencyLease/3, func(rctx context.Context) bool {
		_, _ = db.write.ExecContext(rctx, `UPDATE qlty_reports SET lease_until = $1 WHERE id = $2 AND owner = $3`,
			db.now().Add(IdempotencyLease).Unix(), id, db.instance)
		return true
	})
}

// publishQltyParts stores the report's received parts as one coverage
// upload. The parts' files are read back a page at a time, part after part
// in the order they arrived; a file several parts name merges line by line,
// as the records of one report do.
func (db *DB) publishQltyParts(ctx context.Context, projectID, id string) (plumb.CoverageSummary, error) {
	if done, err := db.coverageUploadPublished(ctx, id); err != nil {
		return plumb.CoverageSummary{}, err
	} else if done {
		return plumb.CoverageSummary{}, nil // a publication whose server stopped before saying so
	}
	var parts []string
	var last string
	err := eachRow(ctx, db.read, `SELECT id, input FROM qlty_uploads WHERE report_id = $1 AND state = 'received' ORDER BY created_at, id`, []any{id}, func(rows *sql.Rows) error {
		var p string
		if err := rows.Scan(&p, &last); err != nil {
			return err
		}
		parts = append(parts, p)
		return nil
	})
	if err != nil {
		return plumb.CoverageSummary{}, classify(err)
	}
	if len(parts) == 0 {
		return plumb.CoverageSummary{}, plumb.Errorf(plumb.ENOTFOUND, "No part of this report has arrived yet: nothing to complete.")
	}
	var in plumb.QltyInput
	if err := json.Unmarshal([]byte(last), &in); err != nil {
		return plumb.CoverageSummary{}, err
	}
	return db.IngestCoverage(ctx, in.CoverageInput(projectID, id), func(emit func(plumb.CoverageFile) error) error {
		page := db.stageChunk
		for _, p := range parts {
			after := int64(0)
			for {
				var files []plumb.CoverageFile
				err := eachRow(ctx, db.read, `SELECT seq, path, hits FROM qlty_part_files WHERE upload_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
					[]any{p, after, page}, func(rows *sql.Rows) error {
						var path string
						var blob []byte
						if err := rows.Scan(&after, &path, &blob); err != nil {
							return err
						}
						hits, err := decodeHits(blob)
						if err != nil {
							return err
						}
						files = append(files, plumb.CoverageFile{Path: path, Hits: hits})
						return nil
					})
				if err != nil {
					return err
				}
				for _, f := range files {
					if err := emit(f); err != nil {
						return err
					}
				}
				if len(files) < page {
					break
				}
			}
		}
		return nil
	})
}

// eachQltyPart calls fn with each upload of a report.
func (db *DB) eachQltyPart(ctx context.Context, reportID string, fn func(uploadID string) error) error {
	var ids []string
	err := eachRow(ctx, db.read, `SELECT id FROM qlty_uploads WHERE report_id = $1`, []any{reportID}, func(rows *sql.Rows) error {
		var id string
		ids = append(ids, id)
		return rows.Scan(&ids[len(ids)-1])
	})
	if err != nil {
		return err
	}
	for _, id := range ids {
		if err := fn(id); err != nil {
			return err
		}
	}
	return nil
}

// SweepQltyUploads removes what is over: reports that waited QltyReportTTL
// after their latest part without completing (their parts with them),
// published reports after a day, uploads two hours after their URL expired,
// and the part rows of interrupted uploads. It does a bounded amount of work
// (about 50 transactions) and reports whether anything is left to sweep.
func (db *DB) SweepQltyUploads(ctx context.Context) (more bool, err error) {
	now := db.now().Unix()
	budget := 50
	spend := func(uploadID string) error {
		if budget <= 0 {
			return errQltySweepBudget
		}
		n, err := db.removeQltyPartFiles(ctx, uploadID, budget)
		budget -= n
		return err
	}
	over := `(state = 'expired' OR (state = 'open' AND expires_at < $1) OR (state = 'closed' AND expires_at < $1 AND lease_until < $1))`
	var reports []string
	err = eachRow(ctx, db.read, `SELECT id FROM qlty_reports WHERE `+over+` OR (state = 'published' AND published_at < $2) ORDER BY expires_at LIMIT 100`,
		[]any{now, now - int64(qltyPublishedKept/time.Second)}, func(rows *sql.Rows) error {
			var id string
			reports = append(reports, id)
			return rows.Scan(&reports[len(reports)-1])
		})
	if err != nil {
		return false, classify(err)
	}
	for _, id := range reports {
		// An unpublished report is marked expired first: no part joins it
		// and no publication starts while it goes.
		if _, err := db.write.ExecContext(ctx, `UPDATE qlty_reports SET state = 'expired', owner = '', lease_until = 0 WHERE id = $2 AND `+over, now, id); err != nil {
			return false, classify(err)
		}
		var state string
		if err := db.read.QueryRowContext(ctx, `SELECT state FROM qlty_reports WHERE id = $1`, id).Scan(&state); errors.Is(err, sql.ErrNoRows) {
			continue
		} else if err != nil {
			return false, classify(err)
		}
		if state != "expired" && state != "published" {
			continue // it took a part or started publishing meanwhile
		}
		if err := db.eachQltyPart(ctx, id, spend); err != nil {
			if errors.Is(err, errQltySweepBudget) {
				return true, nil
			}
			return false, classify(err)
		}
		err = db.inTx(ctx, func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, `DELETE FROM qlty_uploads WHERE report_id = $1`, id); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `DELETE FROM qlty_reports WHERE id = $1 AND state IN ('expired', 'published')`, id)
			return err
		})
		if err != nil {
			return false, err
		}
	}
	var uploads []string
	err = eachRow(ctx, db.read, `SELECT id FROM qlty_uploads WHERE report_id IS NULL AND expires_at < $1 ORDER BY expires_at LIMIT 100`,
		[]any{now - int64(qltyUploadGrace/time.Second)}, func(rows *sql.Rows) error {
			var id string
			uploads = append(uploads, id)
			return rows.Scan(&uploads[len(uploads)-1])
		})
	if err != nil {
		return false, classify(err)
	}
	for _, id := range uploads {
		if _, err := db.write.ExecContext(ctx, `DELETE FROM qlty_uploads WHERE id = $1`, id); err != nil {
			return false, classify(err)
		}
	}
	// Part rows without an upload (a part refused, or swept, while its
	// write ran on a server that then stopped), and the rows an interrupted
	// part left when its URL has long expired.
	var orphans []string
	err = eachRow(ctx, db.read, `SELECT DISTINCT upload_id FROM qlty_part_files f WHERE NOT EXISTS
		(SELECT 1 FROM qlty_uploads u WHERE u.id = f.upload_id AND (u.state <> 'issued' OR u.expires_at >= $1)) LIMIT 100`,
		[]any{now - int64(qltyUploadGrace/time.Second)}, func(rows *sql.Rows) error {
			var id string
			orphans = append(orphans, id)
			return rows.Scan(&orphans[len(orphans)-1])
		})
	if err != nil {
		return false, classify(err)
	}
	for _, id := range orphans {
		if err := spend(id); err != nil {
			if errors.Is(err, errQltySweepBudget) {
				return true, nil
			}
			return false, classify(err)
		}
	}
	return len(reports) == 100 || len(uploads) == 100 || len(orphans) == 100, nil
}

// SweepQltyUploadsEvery sweeps (SweepQltyUploads) now and then every
// interval until ctx ends; onErr hears of failures, which the next round
// retries.
func (db *DB) SweepQltyUploadsEvery(ctx context.Context, every time.Duration, onErr func(error)) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		for {
			more, err := db.SweepQltyUploads(ctx)
			if err != nil && ctx.Err() == nil && onErr != nil {
				onErr(err)
			}
			if err != nil || !more {
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// QltyStats counts the rows of the qlty CLI's uploads.
func (db *DB) QltyStats(ctx context.Context) (plumb.QltyStats, error) {
	var s plumb.QltyStats
	err := db.read.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM qlty_uploads), (SELECT count(*) FROM qlty_reports), (SELECT count(*) FROM qlty_part_files)`).
		Scan(&s.Uploads, &s.Reports, &s.PartFiles)
	return s, classify(err)
}
