package sqlstore

// Sources (docs/sources.md): the content of a project's files, kept once per
// project under its git blob id, zstd-compressed (package source), with for
// each commit that has sources the state of each of its files. Writes take
// the project's lock, so a write and the collection of unreferenced sources
// never interleave on one project.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/source"
)

// sourceGrace is how long a commit's sources are kept without a snapshot or
// coverage upload of the commit: the upload they came with may still be
// being written.
const sourceGrace = time.Hour

// maxCommitLen is the longest commit name sources are kept under.
const maxCommitLen = 200

// SourceWalk is plumb.SourceWalk.
type SourceWalk = plumb.SourceWalk

// SourcesPut is plumb.SourcesPut.
type SourcesPut = plumb.SourcesPut

// Source is what is kept of one file of one commit.
type Source struct {
	State   source.State
	BlobID  string // StateOK: the content's blob id
	Origin  string // StateOK: where the content came from (source.OriginUpload…)
	Size    int64  // StateOK, StateTooLarge, StateBinary: the content's length
	Content []byte // StateOK: the content
	// FetchedFrom and FetchedAt: this file of this commit was fetched from
	// the project's code host (github or gitlab) on a first view, at that
	// time; "" and zero for an upload. (Origin is the content's: where the
	// blob was first kept.)
	FetchedFrom string
	FetchedAt   time.Time
}

// SourcesDeleted is plumb.SourcesDeleted.
type SourcesDeleted = plumb.SourcesDeleted

// sourceOptions are the store's source settings (Options.SourceLimits,
// Options.RefuseSources).
type sourceOptions struct {
	limits source.Limits
	refuse bool
	fetch  *sourceFetcher // fetches on first view (sources_fetch.go)
}

// openSources applies the source options of a database being opened: a
// server that refuses sources deletes every one kept.
func (db *DB) openSources(ctx context.Context, opt Options) error {
	if err := opt.SourceLimits.Validate(); err != nil {
		return err
	}
	db.sources = sourceOptions{limits: opt.SourceLimits, refuse: opt.RefuseSources, fetch: newSourceFetcher()}
	if !opt.RefuseSources {
		return nil
	}
	return db.inTx(ctx, func(tx *sql.Tx) error {
		_, err := deleteSources(ctx, tx, "", "")
		return err
	})
}

// errSourcesRefused is the answer to sources a server or project refuses.
func errSourcesRefused(byServer bool) error {
	if byServer {
		return plumb.Errorf(plumb.EFORBIDDEN, "This server keeps no sources.")
	}
	return plumb.Errorf(plumb.EFORBIDDEN, "This project keeps no sources (its sources setting is off).")
}

// SourcesRefused returns the EFORBIDDEN error PutSources would answer for
// the project (the server or the project refuses sources), nil when it
// takes them, ENOTFOUND for an unknown project: an upload checks it before
// reading sources it would have to drop.
func (db *DB) SourcesRefused(ctx context.Context, projectID string) error {
	disabled, err := sourcesDisabled(ctx, db.read, projectID)
	switch {
	case err != nil:
		return err
	case db.sources.refuse || disabled:
		return errSourcesRefused(db.sources.refuse)
	}
	return nil
}

func sourcesDisabled(ctx context.Context, q querier, projectID string) (bool, error) {
	var disabled bool
	err := q.QueryRowContext(ctx, `SELECT sources_disabled <> 0 FROM projects WHERE id = $1`, projectID).Scan(&disabled)
	if errors.Is(err, sql.ErrNoRows) {
		return false, notFound("project")
	}
	return disabled, err
}

// validCommit checks the name of a commit sources are kept under.
func validCommit(commit string) error {
	if commit == "" || len(commit) > maxCommitLen || !utf8.ValidString(commit) ||
		strings.IndexFunc(commit, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		return plumb.Errorf(plumb.EINVALID, "the commit %q of the sources is not a commit SHA", commit)
	}
	return nil
}

// PutSources keeps the sources walk yields for a commit of a project, with
// origin (source.OriginUpload, OriginGitHub or OriginGitLab) for the
// contents not kept yet. Each file's content is read under the store's
// limits (Options.SourceLimits): a content over the cap is marked too large,
// a binary one binary, neither kept; any other is kept once per project,
// under its blob id. A path already kept for the commit takes the new
// state. Memory holds one file's content at a time; everything is written
// in one transaction, so a failure (a bad path, walk's error) leaves
// nothing. A project or server that refuses sources answers EFORBIDDEN.
func (db *DB) PutSources(ctx context.Context, projectID, commit, origin string, walk SourceWalk) (SourcesPut, error) {
	var res SourcesPut
	if err := validCommit(commit); err != nil {
		return res, err
	}
	if !source.ValidOrigin(origin) {
		return res, plumb.Errorf(plumb.EINVALID, "the origin %q of the sources is not upload, github or gitlab", origin)
	}
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		res = SourcesPut{}
		if err := db.lockProject(ctx, tx, projectID); err != nil {
			return err
		}
		disabled, err := sourcesDisabled(ctx, tx, projectID)
		if err != nil {
			return err
		}
		if db.sources.refuse || disabled {
			return errSourcesRefused(db.sources.refuse)
		}
		now := db.now().Unix()
		if _, err := tx.ExecContext(ctx, `INSERT INTO source_commits (project_id, commit_sha, created_at) VALUES ($1, $2, $3)
			ON CONFLICT (project_id, commit_sha) DO NOTHING`, projectID, commit, now); err != nil {
			return err
		}
		w := sourceWriter{ctx: ctx, tx: tx, project: projectID, commit: commit, origin: origin, now: now, limits: db.sources.limits, res: &res}
		if err := walk(w.put); err != nil {
			return err
		}
		return db.recordAnswer(ctx, tx, res)
	})
	return res, err
}

// sourceWriter writes the files of one PutSources.
type sourceWriter struct {
	ctx                     context.Context
	tx                      *sql.Tx
	project, commit, origin string
	now                     int64
	limits                  source.Limits
	res                     *SourcesPut
}

func (w sourceWriter) put(path string, content io.Reader) error {
	if err := source.ValidatePath(path); err != nil {
		return err
	}
	f, err := source.Read(content, w.limits)
	if err != nil {
		return err
	}
	var blob, fetched any
	if w.origin != source.OriginUpload {
		fetched = w.now
	}
	switch f.State {
	case source.StateTooLarge:
		w.res.TooLarge++
	case source.StateBinary:
		w.res.Binary++
	default:
		blob = f.BlobID
		if err := w.putBlob(path, f); err != nil {
			return err
		}
	}
	if _, err := w.tx.ExecContext(w.ctx, `INSERT INTO source_files (project_id, commit_sha, path, state, blob_id, size, origin, fetched_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
		ON CONFLICT (project_id, commit_sha, path) DO UPDATE SET state = excluded.state, blob_id = excluded.blob_id, size = excluded.size,
			origin = excluded.origin, fetched_at = excluded.fetched_at`,
		w.project, w.commit, path, string(f.State), blob, f.Size, w.origin, fetched); err != nil {
		return fmt.Errorf("keep the source of %q: %w", path, err)
	}
	w.res.Files++
	return nil
}

// putBlob keeps the content of a file at path unless the project has it
// already (it is then neither compressed nor written again): as a delta
// against the base of the latest content kept for the path when that is at
// most half the full frame, else as a full frame (source.CompressDelta).
func (w sourceWriter) putBlob(path string, f source.File) error {
	var n int
	if err := w.tx.QueryRowContext(w.ctx, `SELECT count(*) FROM source_blobs WHERE project_id = $1 AND blob_id = $2`, w.project, f.BlobID).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		w.res.ReusedBlobs++
		return nil
	}
	baseID, base, err := w.deltaBase(path)
	if err != nil {
		return err
	}
	z, delta, err := source.CompressDelta(f.Content, base)
	if err != nil {
		return err
	}
	var baseCol any
	if delta {
		baseCol = baseID
	}
	if _, err := w.tx.ExecContext(w.ctx, `INSERT INTO source_blobs (project_id, blob_id, size, compressed, origin, created_at, base_id) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		w.project, f.BlobID, f.Size, z, w.origin, w.now, baseCol); err != nil {
		return err
	}
	w.res.NewBlobs++
	w.res.StoredBytes += int64(len(z))
	return nil
}

// deltaBase returns the base a new content of path is compressed against:
// the full frame of the latest content kept for the path in the project
// (itself, or its base when it is a delta, so a base is always a full frame
// and a read takes at most two frames); "" and nil when the path has none.
func (w sourceWriter) deltaBase(path string) (string, []byte, error) {
	var id string
	var z []byte
	err := w.tx.QueryRowContext(w.ctx, `SELECT b.blob_id, b.compressed FROM source_blobs b WHERE b.project_id = $1 AND b.base_id IS NULL AND b.blob_id = (
		SELECT coalesce(l.base_id, l.blob_id) FROM source_files f JOIN source_blobs l ON l.project_id = f.project_id AND l.blob_id = f.blob_id
		WHERE f.project_id = $1 AND f.path = $2 AND f.state = 'ok' ORDER BY l.created_at DESC, l.blob_id DESC LIMIT 1)`, w.project, path).Scan(&id, &z)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil, nil
	} else if err != nil {
		return "", nil, err
	}
	base, err := source.Decompress(z)
	if err != nil {
		return "", nil, fmt.Errorf("the kept base %s of %q: %w", id, path, err)
	}
	return id, base, nil
}

// GetSource returns what is kept of a file of a commit of a project: its
// content (StateOK), or why there is none: too large, binary, absent
// (nothing kept for that commit and path) or disabled (the project or the
// server refuses sources). An unknown project is ENOTFOUND.
func (db *DB) GetSource(ctx context.Context, projectID, commit, path string) (Source, error) {
	var s Source
	err := db.readTx(ctx, func(tx *sql.Tx) error {
		disabled, err := sourcesDisabled(ctx, tx, projectID)
		if err != nil {
			return err
		}
		if db.sources.refuse || disabled {
			s.State = source.StateDisabled
			return nil
		}
		var state string
		var blob, origin sql.NullString
		var fetched sql.NullInt64
		var z, base []byte
		err = tx.QueryRowContext(ctx, `SELECT f.state, f.blob_id, f.size, b.origin, f.origin, f.fetched_at, b.compressed, bb.compressed FROM source_files f
			LEFT JOIN source_blobs b ON b.project_id = f.project_id AND b.blob_id = f.blob_id
			LEFT JOIN source_blobs bb ON bb.project_id = b.project_id AND bb.blob_id = b.base_id
			WHERE f.project_id = $1 AND f.commit_sha = $2 AND f.path = $3`, projectID, commit, path).Scan(&state, &blob, &s.Size, &origin, &s.FetchedFrom, &fetched, &z, &base)
		if errors.Is(err, sql.ErrNoRows) {
			s.State = source.StateAbsent
			return nil
		} else if err != nil {
			return err
		}
		s.State, s.BlobID, s.Origin = source.State(state), blob.String, origin.String
		if fetched.Valid {
			s.FetchedAt = time.Unix(fetched.Int64, 0).UTC()
		} else {
			s.FetchedFrom = ""
		}
		if s.State != source.StateOK {
			return nil
		}
		if s.Content, err = blobContent(z, base); err != nil {
			return fmt.Errorf("the kept source of %s at %s: %w", path, commit, err)
		}
		if int64(len(s.Content)) != s.Size {
			return fmt.Errorf("the kept source of %s at %s has %d bytes, not %d", path, commit, len(s.Content), s.Size)
		}
		return nil
	})
	return s, err
}

// blobContent returns the content of a kept frame: a full frame (base nil),
// or a delta frame with the full frame of its base.
func blobContent(frame, baseFrame []byte) ([]byte, error) {
	if baseFrame == nil {
		return source.Decompress(frame)
	}
	base, err := source.Decompress(baseFrame)
	if err != nil {
		return nil, err
	}
	return source.DecompressDelta(frame, base)
}

// SetSourcesDisabled turns a project's sources setting off (disabled: the
// project refuses sources, and those kept are deleted in the same
// transaction) or on again.
func (db *DB) SetSourcesDisabled(ctx context.Context, projectID string, disabled bool) (SourcesDeleted, error) {
	var d SourcesDeleted
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		d = SourcesDeleted{}
		if err := db.lockProject(ctx, tx, projectID); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE projects SET sources_disabled = $1 WHERE id = $2`, boolInt(disabled), projectID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return notFound("project")
		}
		if disabled {
			d, err = deleteSources(ctx, tx, "project_id = $1", projectID)
		}
		return err
	})
	return d, err
}

// SourcesDisabled reports whether a project refuses sources (its own
// setting; the server's is Options.RefuseSources).
func (db *DB) SourcesDisabled(ctx context.Context, projectID string) (bool, error) {
	return sourcesDisabled(ctx, db.read, projectID)
}

// deleteSources deletes the sources of the projects cond selects (a
// condition on project_id with the argument arg; "" for every project).
func deleteSources(ctx context.Context, tx *sql.Tx, cond string, arg any) (SourcesDeleted, error) {
	var d SourcesDeleted
	var args []any
	where := ""
	if cond != "" {
		where, args = " WHERE "+cond, []any{arg}
	}
	for _, del := range []struct {
		table string
		n     *int64
	}{{"source_commits", &d.Commits}, {"source_blobs", &d.Blobs}} {
		res, err := tx.ExecContext(ctx, `DELETE FROM `+del.table+where, args...)
		if err != nil {
			return d, err
		}
		if *del.n, err = res.RowsAffected(); err != nil {
			return d, err
		}
	}
	return d, nil
}

// DeleteUnreferencedSources deletes, project by project (each in its own
// transaction, under the project's lock), the file states of the commits no
// snapshot or coverage upload refers to (spared for sourceGrace after they
// were first kept, while the upload they came with is written), then the
// contents no file state refers to.
func (db *DB) DeleteUnreferencedSources(ctx context.Context) (SourcesDeleted, error) {
	var total SourcesDeleted
	projects, err := queryRecords(ctx, db.read, `SELECT id FROM projects WHERE id IN (SELECT project_id FROM source_blobs)
		OR id IN (SELECT project_id FROM source_commits) ORDER BY id`, nil, scanString)
	if err != nil {
		return total, err
	}
	for _, p := range projects {
		var d SourcesDeleted
		err := db.inTx(ctx, func(tx *sql.Tx) error {
			d = SourcesDeleted{}
			if err := db.lockProject(ctx, tx, p); err != nil {
				return err
			}
			var err error
			d, err = collectSources(ctx, tx, p, db.now().Add(-sourceGrace).Unix())
			return err
		})
		if err != nil {
			return total, err
		}
		total.Commits += d.Commits
		total.Blobs += d.Blobs
	}
	return total, nil
}

// collectSources deletes a project's unreferenced sources: the commits kept
// before the time before that no snapshot (pending ones included) or
// coverage upload refers to, then the contents no file refers to, except a
// base a kept delta needs.
func collectSources(ctx context.Context, tx *sql.Tx, projectID string, before int64) (SourcesDeleted, error) {
	var d SourcesDeleted
	res, err := tx.ExecContext(ctx, `DELETE FROM source_commits WHERE project_id = $1 AND created_at < $2
		AND NOT EXISTS (SELECT 1 FROM snapshots s WHERE s.project_id = source_commits.project_id AND s.commit_sha = source_commits.commit_sha)
		AND NOT EXISTS (SELECT 1 FROM coverage_uploads u WHERE u.project_id = source_commits.project_id AND u.commit_sha = source_commits.commit_sha)`,
		projectID, before)
	if err != nil {
		return d, err
	}
	if d.Commits, err = res.RowsAffected(); err != nil {
		return d, err
	}
	// A content no file refers to stays while it is the base of a delta a
	// file refers to (a base is a full frame: no chain beyond).
	res, err = tx.ExecContext(ctx, `DELETE FROM source_blobs WHERE project_id = $1
		AND NOT EXISTS (SELECT 1 FROM source_files f WHERE f.project_id = source_blobs.project_id AND f.blob_id = source_blobs.blob_id)
		AND NOT EXISTS (SELECT 1 FROM source_blobs d JOIN source_files f ON f.project_id = d.project_id AND f.blob_id = d.blob_id
			WHERE d.project_id = source_blobs.project_id AND d.base_id = source_blobs.blob_id)`, projectID)
	if err != nil {
		return d, err
	}
	d.Blobs, err = res.RowsAffected()
	return d, err
}
