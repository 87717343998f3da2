package sqlstore

// Sources in the dataset document (docs/sources.md): an export writes each
// project's kept contents (as full zstd frames: a delta is rewritten) and its commits' file
// states after the other lists, unless there are none or the export is made
// without them; an import writes them back as they were.

import (
	"context"
	"database/sql"
	"encoding/base64"
	"fmt"

	"github.com/plumbhq/plumb/dataset"
	"github.com/plumbhq/plumb/source"
)

// exportSources writes the lists sourceBlobs and sourceCommits, project by
// project, one content and one commit's files at a time; nothing when the
// database keeps no source.
func exportSources(ctx context.Context, tx *sql.Tx, w *dataset.Writer, projects []dataset.Project) error {
	var kept bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM source_blobs) OR EXISTS (SELECT 1 FROM source_commits)`).Scan(&kept); err != nil || !kept {
		return err
	}
	w.OpenList("sourceBlobs", true)
	err := projectRecords(ctx, tx, w, projects, `SELECT b.project_id, b.blob_id, b.origin, b.created_at, b.size, b.compressed, bb.compressed FROM source_blobs b
		LEFT JOIN source_blobs bb ON bb.project_id = b.project_id AND bb.blob_id = b.base_id
		WHERE b.project_id = $1 ORDER BY b.blob_id`, scanExportBlob)()
	if err != nil {
		return err
	}
	w.CloseList()
	w.OpenList("sourceCommits", true)
	for _, p := range projects {
		commits, err := queryRecords(ctx, tx, `SELECT project_id, commit_sha, created_at FROM source_commits WHERE project_id = $1 ORDER BY commit_sha`,
			[]any{p.ID}, func(rows scanner) (dataset.SourceCommitHead, error) {
				var h dataset.SourceCommitHead
				var at int64
				err := rows.Scan(&h.ProjectID, &h.CommitSHA, &at)
				h.CreatedAt = fromUnix(at)
				return h, err
			})
		if err != nil {
			return err
		}
		for _, h := range commits {
			w.OpenRecord(h)
			w.OpenList("files", true)
			if err := writeRecords(ctx, tx, w, `SELECT path, state, coalesce(blob_id, ''), size, origin, fetched_at FROM source_files
				WHERE project_id = $1 AND commit_sha = $2 ORDER BY path`, []any{h.ProjectID, h.CommitSHA}, scanExportSourceFile); err != nil {
				return err
			}
			w.CloseList()
			w.CloseRecord()
		}
	}
	w.CloseList()
	return w.Err()
}

// sources writes the kept contents (as the full zstd frames the document
// gives, or its text compressed; an import keeps no delta) and the commits' file states of a valid document.
func (im importer) sources(doc *dataset.Document) error {
	for i := range doc.SourceBlobs {
		b := &doc.SourceBlobs[i]
		z, err := b.Frame()
		if err == nil {
			err = im.exec(`INSERT INTO source_blobs (project_id, blob_id, size, compressed, origin, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
				b.ProjectID, b.BlobID, b.Size, z, b.Origin, unix(b.CreatedAt))
		}
		if err != nil {
			return fmt.Errorf("import source %s of project %s: %w", b.BlobID, b.ProjectID, err)
		}
	}
	for _, c := range doc.SourceCommits {
		if err := im.exec(`INSERT INTO source_commits (project_id, commit_sha, created_at) VALUES ($1, $2, $3)`, c.ProjectID, c.CommitSHA, unix(c.CreatedAt)); err != nil {
			return fmt.Errorf("import the sources of commit %s of project %s: %w", c.CommitSHA, c.ProjectID, err)
		}
		for _, f := range c.Files {
			if err := im.sourceFile(c, f); err != nil {
				return err
			}
		}
	}
	return nil
}

// scanExportBlob reads a kept content for the export, as a full frame: a
// delta is decompressed with its base and compressed again alone, so that
// each content of the backup stands alone.
func scanExportBlob(rows scanner) (dataset.SourceBlob, error) {
	var b dataset.SourceBlob
	var at int64
	var z, base []byte
	if err := rows.Scan(&b.ProjectID, &b.BlobID, &b.Origin, &at, &b.Size, &z, &base); err != nil {
		return b, err
	}
	if base != nil {
		content, err := blobContent(z, base)
		if err != nil {
			return b, fmt.Errorf("export source %s of project %s: %w", b.BlobID, b.ProjectID, err)
		}
		z = source.Compress(content)
	}
	b.CreatedAt, b.Zstd = fromUnix(at), base64.StdEncoding.EncodeToString(z)
	return b, nil
}

// scanExportSourceFile reads a commit's file for the export, with where and
// when it was fetched (a file fetched from the code host).
func scanExportSourceFile(rows scanner) (dataset.SourceFile, error) {
	var f dataset.SourceFile
	var origin string
	var fetched sql.NullInt64
	err := rows.Scan(&f.Path, &f.State, &f.BlobID, &f.Size, &origin, &fetched)
	if fetched.Valid && origin != source.OriginUpload {
		at := fromUnix(fetched.Int64)
		f.FetchedFrom, f.FetchedAt = origin, &at
	}
	return f, err
}

// sourceFile writes one file of a commit with sources.
func (im importer) sourceFile(c dataset.SourceCommit, f dataset.SourceFile) error {
	var blob, fetched any
	if f.BlobID != "" {
		blob = f.BlobID
	}
	origin := source.OriginUpload
	if f.FetchedAt != nil {
		origin, fetched = f.FetchedFrom, unix(*f.FetchedAt)
	}
	if err := im.exec(`INSERT INTO source_files (project_id, commit_sha, path, state, blob_id, size, origin, fetched_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		c.ProjectID, c.CommitSHA, f.Path, f.State, blob, f.Size, origin, fetched); err != nil {
		return fmt.Errorf("import the source of %s at commit %s of project %s: %w", f.Path, c.CommitSHA, c.ProjectID, err)
	}
	return nil
}
