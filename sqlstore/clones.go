package sqlstore

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/dataset"
	"github.com/plumbhq/plumb/extsort"
)

// Duplicated blocks (docs/ingest.md, "Analysis"). An upload's clones go to
// the spool as places, one record per side, sorted by path: once the upload
// is read they are checked against its files (also sorted by path) in one
// merge, then stored a chunk per transaction, so a report of any number of
// clones costs bounded memory. A place record is its path, start and end
// lines, the clone's index, its side (0: the earlier copy) and the clone's
// length.

// CloneSides name a clone's places in problems.
var cloneSides = [2]string{"a", "b"}

// AddClone adds the duplicated block clones[i] of the upload: its two
// places and its length in lines.
func (sp *SnapshotSpool) AddClone(a, b plumb.ClonePlace, lines int) error {
	i := sp.nClones
	sp.nClones++
	if sp.clones == nil {
		sp.clones = extsort.New(sp.dir, spoolBudget/2, compareClonePlaces)
	}
	if lines < 1 {
		sp.problem("clones[%d]: lines must be at least 1", i)
	}
	for side, p := range [2]plumb.ClonePlace{a, b} {
		switch {
		case p.Path == "":
			sp.problem("clones[%d].%s: path is required", i, cloneSides[side])
		case p.StartLine < 1 || p.EndLine < p.StartLine:
			sp.problem("clones[%d].%s (%s): lines %d-%d are not a range of lines (1 ≤ startLine ≤ endLine)", i, cloneSides[side], p.Path, p.StartLine, p.EndLine)
		}
		b := extsort.AppendString(sp.rec[:0], p.Path)
		for _, v := range []int64{int64(p.StartLine), int64(p.EndLine), i, int64(side), int64(lines)} {
			b = extsort.AppendInt(b, v)
		}
		sp.rec = b
		if err := sp.clones.Add(b); err != nil {
			return err
		}
	}
	return nil
}

// Clones counts the clones added.
func (sp *SnapshotSpool) Clones() int64 { return sp.nClones }

func compareClonePlaces(a, b []byte) int {
	ra, rb := extsort.NewReader(a), extsort.NewReader(b)
	if c := bytes.Compare(ra.Bytes(), rb.Bytes()); c != 0 {
		return c
	}
	return cmp.Compare(ra.Int(), rb.Int())
}

type clonePlace struct {
	plumb.ClonePlace
	clone, side, lines int64
}

func decodeClonePlace(rec []byte) (clonePlace, error) {
	r := extsort.NewReader(rec)
	var p clonePlace
	p.Path = r.String()
	p.StartLine, p.EndLine = int(r.Int()), int(r.Int())
	p.clone, p.side, p.lines = r.Int(), r.Int(), r.Int()
	return p, r.Err()
}

// checkClones notes every place that is not within a file of the upload:
// a path the upload does not list, or lines past the file's end. An
// imported snapshot lists only the files it changed: its clones were
// checked when they were uploaded.
func (sp *SnapshotSpool) checkClones() error {
	if sp.clones == nil || sp.imported {
		return nil
	}
	places, err := sp.clones.Iter()
	if err != nil {
		return err
	}
	files, err := sp.files.Iter()
	if err != nil {
		return err
	}
	var (
		file    spooledFile
		hasFile = files.Next()
	)
	if hasFile {
		if file, err = decodeSpooledFile(files.Record()); err != nil {
			return err
		}
	}
	for places.Next() {
		p, err := decodeClonePlace(places.Record())
		if err != nil {
			return err
		}
		for hasFile && file.Path < p.Path {
			if hasFile = files.Next(); hasFile {
				if file, err = decodeSpooledFile(files.Record()); err != nil {
					return err
				}
			}
		}
		where := cloneSides[p.side]
		switch {
		case p.Path == "":
		case !hasFile || file.Path != p.Path:
			sp.problem("clones[%d].%s: %s is not a file of this upload's files list", p.clone, where, p.Path)
		case int64(p.EndLine) > file.Lines:
			sp.problem("clones[%d].%s (%s): lines %d-%d are past the file's end (%d lines)", p.clone, where, p.Path, p.StartLine, p.EndLine, file.Lines)
		}
	}
	if err := places.Err(); err != nil {
		return err
	}
	return files.Err()
}

// writeClones stores the snapshot's clones, a chunk per transaction. A
// snapshot of findings alone (a SARIF upload) keeps the clones of the
// commit's latest snapshot on its branch, as it keeps its figures.
func (w *snapshotWrite) writeClones() error {
	if w.in.FindingsOnly {
		return w.chunk(func(tx *sql.Tx) error {
			_, err := tx.ExecContext(w.ctx, `INSERT INTO snapshot_clones (snapshot_seq, clone, side, path, start_line, end_line, lines)
				SELECT $1, clone, side, path, start_line, end_line, lines FROM snapshot_clones WHERE snapshot_seq =
				(SELECT max(seq) FROM snapshots WHERE project_id = $2 AND branch = $3 AND commit_sha = $4 AND pending = 0)`,
				w.seq, w.in.ProjectID, w.in.Branch, w.in.CommitSHA)
			return err
		})
	}
	if w.sp.clones == nil {
		return nil
	}
	it, err := w.sp.clones.Iter()
	if err != nil {
		return err
	}
	var chunk []clonePlace
	flush := func() error {
		if len(chunk) == 0 {
			return nil
		}
		err := w.chunk(func(tx *sql.Tx) error {
			stmt, err := tx.PrepareContext(w.ctx, `INSERT INTO snapshot_clones (snapshot_seq, clone, side, path, start_line, end_line, lines)
				VALUES ($1, $2, $3, $4, $5, $6, $7)`)
			if err != nil {
				return err
			}
			defer stmt.Close()
			for _, p := range chunk {
				if _, err := stmt.ExecContext(w.ctx, w.seq, p.clone, p.side, p.Path, p.StartLine, p.EndLine, p.lines); err != nil {
					return err
				}
			}
			return nil
		})
		chunk = chunk[:0]
		return err
	}
	for it.Next() {
		p, err := decodeClonePlace(it.Record())
		if err != nil {
			return err
		}
		if chunk = append(chunk, p); len(chunk) >= w.db.stageChunk {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := it.Err(); err != nil {
		return err
	}
	return flush()
}

// FileClones returns the duplicated blocks of a snapshot's file, each with
// the place of its other copy, in the order of their lines.
func (db *DB) FileClones(ctx context.Context, projectID, snapshotID, path string) ([]plumb.FileClone, error) {
	var out []plumb.FileClone
	err := db.readTx(ctx, func(tx *sql.Tx) error {
		seq, err := snapshotSeq(ctx, tx, projectID, snapshotID)
		if err != nil {
			return err
		}
		out, err = queryRecords(ctx, tx, `SELECT h.path, h.start_line, h.end_line, h.lines, o.path, o.start_line, o.end_line
			FROM snapshot_clones h JOIN snapshot_clones o ON o.snapshot_seq = h.snapshot_seq AND o.clone = h.clone AND o.side <> h.side
			WHERE h.snapshot_seq = $1 AND h.path = $2 ORDER BY h.start_line, h.end_line, h.clone, h.side`,
			[]any{seq, path}, func(row scanner) (plumb.FileClone, error) {
				var c plumb.FileClone
				err := row.Scan(&c.Here.Path, &c.Here.StartLine, &c.Here.EndLine, &c.Lines, &c.Other.Path, &c.Other.StartLine, &c.Other.EndLine)
				return c, err
			})
		return err
	})
	return out, err
}

// exportClones writes a snapshot's clones list, in the upload's order, a
// row at a time; a snapshot without clones has no list.
func exportClones(ctx context.Context, tx *sql.Tx, w *dataset.Writer, seq int64) error {
	var n int64
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM snapshot_clones WHERE snapshot_seq = $1`, seq).Scan(&n); err != nil || n == 0 {
		return err
	}
	w.OpenList("clones", true)
	err := eachRow(ctx, tx, `SELECT a.path, a.start_line, a.end_line, b.path, b.start_line, b.end_line, a.lines
		FROM snapshot_clones a JOIN snapshot_clones b ON b.snapshot_seq = a.snapshot_seq AND b.clone = a.clone AND b.side = 1
		WHERE a.snapshot_seq = $1 AND a.side = 0 ORDER BY a.clone`, []any{seq}, func(rows *sql.Rows) error {
		var c dataset.Clone
		if err := rows.Scan(&c.A.Path, &c.A.StartLine, &c.A.EndLine, &c.B.Path, &c.B.StartLine, &c.B.EndLine, &c.Lines); err != nil {
			return err
		}
		w.Element(&c)
		return w.Err()
	})
	w.CloseList()
	return err
}
