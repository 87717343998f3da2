package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/plumbhq/plumb"

	"github.com/plumbhq/plumb/internal/wait"
)

// Staged writes (docs/architecture.md, "Staged writes"). A snapshot or a
// coverage upload is written in short transactions of at most StageChunk
// rows each, invisible to every read (snapshots.pending,
// coverage_uploads.pending, paths.prev_seq, staged_coverage_files) until one
// short transaction publishes it. Between those transactions the writer (on
// SQLite) and the project's row lock (on PostgreSQL) are free, so a large
// upload never holds up other writes for long.
//
// One staged write per project runs at a time (staged_writes): its server
// renews its lease while it writes. A write that fails removes what it
// staged; a write whose server stopped is removed by the next staged write
// to the project, or by SweepStagedWrites (at a server's start).

const (
	stagedSnapshot = "snapshot"
	stagedCoverage = "coverage"
)

// DefaultStageChunk is how many rows one staging transaction writes at most.
const DefaultStageChunk = 2000

// stagedWrite is a staged write this server owns.
type stagedWrite struct {
	db        *DB
	projectID string
	kind      string
	ref       int64
	// pathsAfter: the largest path id when the write began; the project's
	// paths above it are the ones the write numbered (migration 0018).
	// Invalid for a write begun by a server without that migration.
	pathsAfter sql.NullInt64

	stopRenew func()
	mu        sync.Mutex
	lost      bool
}

// errStagedWriteLost is a staged write whose lease another server took over
// (this one stopped renewing it for longer than the lease).
var errStagedWriteLost = plumb.Errorf(plumb.EUNAVAILABLE, "The upload was interrupted while it was being stored; send it again.")

// beginStaged waits until no other staged write runs for the project (removing
// the leftovers of one whose server stopped), then, in one transaction that
// locks the project, calls start to create the pending row the write is
// about (it returns its seq) and records the write as this server's.
func (db *DB) beginStaged(ctx context.Context, projectID, kind string, start func(tx *sql.Tx) (int64, error)) (*stagedWrite, error) {
	for wait := 20 * time.Millisecond; ; wait = min(2*wait, 500*time.Millisecond) {
		var w *stagedWrite
		var dead *stagedWrite
		err := db.inTx(ctx, func(tx *sql.Tx) error {
			if err := db.lockProject(ctx, tx, projectID); err != nil {
				return err
			}
			var kindNow string
			var ref, leaseUntil int64
			var pathsAfter sql.NullInt64
			err := tx.QueryRowContext(ctx, `SELECT kind, ref, lease_until, paths_after FROM staged_writes WHERE project_id = $1`, projectID).Scan(&kindNow, &ref, &leaseUntil, &pathsAfter)
			now := db.now()
			lease := now.Add(IdempotencyLease).Unix()
			switch {
			case errors.Is(err, sql.ErrNoRows):
				seq, err := start(tx)
				if err != nil {
					return err
				}
				// The largest path id of all (a primary-key lookup): every
				// path the write numbers gets a larger one.
				var after int64
				if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM paths`).Scan(&after); err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, `INSERT INTO staged_writes (project_id, kind, ref, owner, lease_until, paths_after) VALUES ($1, $2, $3, $4, $5, $6)`,
					projectID, kind, seq, db.instance, lease, after); err != nil {
					return err
				}
				w = &stagedWrite{db: db, projectID: projectID, kind: kind, ref: seq, pathsAfter: sql.NullInt64{Int64: after, Valid: true}}
				return nil
			case err != nil:
				return err
			case leaseUntil < now.Unix():
				// Its server stopped: take it over to remove it.
				_, err := tx.ExecContext(ctx, `UPDATE staged_writes SET owner = $1, lease_until = $2 WHERE project_id = $3`, db.instance, lease, projectID)
				dead = &stagedWrite{db: db, projectID: projectID, kind: kindNow, ref: ref, pathsAfter: pathsAfter}
				return err
			}
			return nil // another server's write is under way
		})
		switch {
		case err != nil:
			return nil, err
		case w != nil:
			w.startRenewing(ctx)
			return w, nil
		case dead != nil:
			dead.startRenewing(ctx)
			err := dead.remove(ctx)
			dead.stopRenew()
			if err != nil {
				return nil, err
			}
			continue
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
	}
}

// startRenewing renews the write's lease in the background until stopRenew.
func (w *stagedWrite) startRenewing(ctx context.Context) {
	w.stopRenew = wait.Renew(ctx, IdempotencyLease/3, func(rctx context.Context) bool {
		return !errors.Is(w.renew(rctx, w.db.write), errStagedWriteLost)
	})
}

// renew extends the write's lease, failing when it is no longer this
// server's.
func (w *stagedWrite) renew(ctx context.Context, q querier) error {
	res, err := q.ExecContext(ctx, `UPDATE staged_writes SET lease_until = $1 WHERE project_id = $2 AND owner = $3 AND ref = $4`,
		w.db.now().Add(IdempotencyLease).Unix(), w.projectID, w.db.instance, w.ref)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		w.mu.Lock()
		w.lost = true
		w.mu.Unlock()
		return errStagedWriteLost
	}
	return nil
}

// chunk runs one staging transaction: the write must still be this
// server's, and the test hook (Options.StageHook) runs before it.
func (w *stagedWrite) chunk(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if hook := w.db.stageHook; hook != nil {
		if err := hook(ctx, w.kind); err != nil {
			return err
		}
	}
	return w.tx(ctx, fn)
}

// tx runs fn in a transaction, provided the write is still this server's.
func (w *stagedWrite) tx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	return w.db.inTx(ctx, func(tx *sql.Tx) error {
		if err := w.renew(ctx, tx); err != nil {
			return err
		}
		return fn(tx)
	})
}

// fail removes what the write staged (the request's context may be done:
// removal goes on without it) and releases the project.
func (w *stagedWrite) fail(ctx context.Context) {
	w.mu.Lock()
	lost := w.lost
	w.mu.Unlock()
	if lost {
		w.stopRenew()
		return // another server removes it
	}
	ctx = context.WithoutCancel(ctx)
	if err := w.remove(ctx); err != nil {
		// Left to the next write to the project, or to a server's start,
		// once the lease runs out.
		_ = err
	}
	w.stopRenew()
}

// remove deletes a staged write's rows, a chunk per transaction, then the
// paths it numbered (new file names nothing else refers to: a failed
// upload must not leave names without figures in the project), then its
// pending row and its staged_writes row.
func (w *stagedWrite) remove(ctx context.Context) error {
	db, n := w.db, w.db.stageChunk
	var steps []string
	switch w.kind {
	case stagedSnapshot:
		steps = []string{
			`DELETE FROM issues WHERE seq IN (SELECT seq FROM issues WHERE snapshot_seq = $1 LIMIT $2)`,
			`DELETE FROM snapshot_clones WHERE snapshot_seq = $1 AND clone IN (SELECT clone FROM snapshot_clones WHERE snapshot_seq = $1 LIMIT $2)`,
			`DELETE FROM issue_states WHERE (project_id, fingerprint) IN (SELECT project_id, fingerprint FROM issue_states WHERE origin_seq = $1 LIMIT $2)`,
			`DELETE FROM snapshot_files WHERE snapshot_seq = $1 AND path_id IN (SELECT path_id FROM snapshot_files WHERE snapshot_seq = $1 LIMIT $2)`,
		}
	case stagedCoverage:
		steps = []string{
			`DELETE FROM staged_coverage_files WHERE upload_seq = $1 AND path_id IN (SELECT path_id FROM staged_coverage_files WHERE upload_seq = $1 LIMIT $2)`,
		}
	default:
		return fmt.Errorf("unknown staged write kind %q", w.kind)
	}
	for _, step := range steps {
		if err := w.eachChunk(ctx, func(tx *sql.Tx) (bool, error) {
			return w.lastChunk(tx.ExecContext(ctx, step, w.ref, n))
		}); err != nil {
			return err
		}
	}
	if w.kind == stagedSnapshot {
		// The files the snapshot pointed at their new rows get their
		// previous rows back.
		if err := w.eachChunk(ctx, func(tx *sql.Tx) (bool, error) {
			ids, err := int64Rows(ctx, tx, `SELECT path_id FROM file_versions WHERE since_seq = $1 LIMIT $2`, w.ref, n)
			if err != nil || len(ids) == 0 {
				return true, err
			}
			in := int64List(ids)
			if _, err := tx.ExecContext(ctx, `UPDATE paths SET current_seq = prev_seq WHERE current_seq = $1 AND id IN (`+in+`)`, w.ref); err != nil {
				return false, err
			}
			_, err = tx.ExecContext(ctx, `DELETE FROM file_versions WHERE since_seq = $1 AND path_id IN (`+in+`)`, w.ref)
			return false, err
		}); err != nil {
			return err
		}
	}
	if w.pathsAfter.Valid {
		// Their component_paths rows go with them (ON DELETE CASCADE).
		if err := w.eachChunk(ctx, func(tx *sql.Tx) (bool, error) {
			return w.lastChunk(tx.ExecContext(ctx, `DELETE FROM paths WHERE id IN (SELECT id FROM paths WHERE id > $1 AND project_id = $2 LIMIT $3)`,
				w.pathsAfter.Int64, w.projectID, n))
		}); err != nil {
			return err
		}
	}
	return db.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		switch w.kind {
		case stagedSnapshot:
			_, err = tx.ExecContext(ctx, `DELETE FROM snapshots WHERE seq = $1 AND pending = 1`, w.ref)
		case stagedCoverage:
			_, err = tx.ExecContext(ctx, `DELETE FROM coverage_uploads WHERE seq = $1 AND pending = 1`, w.ref)
		}
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM staged_writes WHERE project_id = $1 AND owner = $2 AND ref = $3`, w.projectID, db.instance, w.ref)
		return err
	})
}

// eachChunk runs chunk, a transaction each time, until it says it did the
// last chunk.
func (w *stagedWrite) eachChunk(ctx context.Context, chunk func(tx *sql.Tx) (last bool, err error)) error {
	for {
		var last bool
		err := w.tx(ctx, func(tx *sql.Tx) error {
			var err error
			last, err = chunk(tx)
			return err
		})
		if err != nil || last {
			return err
		}
	}
}

// lastChunk tells, from a statement limited to a chunk of stageChunk rows,
// whether it was the last chunk (it affected fewer rows).
func (w *stagedWrite) lastChunk(res sql.Result, err error) (bool, error) {
	if err != nil {
		return false, err
	}
	k, _ := res.RowsAffected()
	return k < int64(w.db.stageChunk), nil
}

// release ends a published write: its staged_writes row goes (in the
// publishing transaction).
func (w *stagedWrite) release(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM staged_writes WHERE project_id = $1 AND owner = $2 AND ref = $3`, w.projectID, w.db.instance, w.ref)
	return err
}

// SweepStagedWrites removes what the staged writes of stopped servers left
// (their lease ran out). A server runs it when it starts; the next staged
// write to a project does it for that project anyway.
func (db *DB) SweepStagedWrites(ctx context.Context) error {
	var projects []string
	err := eachRow(ctx, db.read, `SELECT project_id FROM staged_writes WHERE lease_until < $1`, []any{db.now().Unix()}, func(rows *sql.Rows) error {
		var p string
		projects = append(projects, p)
		return rows.Scan(&projects[len(projects)-1])
	})
	if err != nil {
		return err
	}
	for _, p := range projects {
		var dead *stagedWrite
		err := db.inTx(ctx, func(tx *sql.Tx) error {
			var kind string
			var ref int64
			var pathsAfter sql.NullInt64
			now := db.now()
			err := tx.QueryRowContext(ctx, `SELECT kind, ref, paths_after FROM staged_writes WHERE project_id = $1 AND lease_until < $2`, p, now.Unix()).Scan(&kind, &ref, &pathsAfter)
			if errors.Is(err, sql.ErrNoRows) {
				return nil
			} else if err != nil {
				return err
			}
			dead = &stagedWrite{db: db, projectID: p, kind: kind, ref: ref, pathsAfter: pathsAfter}
			_, err = tx.ExecContext(ctx, `UPDATE staged_writes SET owner = $1, lease_until = $2 WHERE project_id = $3`, db.instance, now.Add(IdempotencyLease).Unix(), p)
			return err
		})
		if err != nil {
			return err
		}
		if dead != nil {
			dead.startRenewing(ctx)
			err := dead.remove(ctx)
			dead.stopRenew()
			if err != nil {
				return err
			}
		}
	}
	return nil
}

func int64Rows(ctx context.Context, q querier, query string, args ...any) ([]int64, error) {
	var out []int64
	err := eachRow(ctx, q, query, args, func(rows *sql.Rows) error {
		out = append(out, 0)
		return rows.Scan(&out[len(out)-1])
	})
	return out, err
}

// int64List is ids as an SQL list ("1,2,3").
func int64List(ids []int64) string {
	b := make([]byte, 0, len(ids)*8)
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, "%d", id)
	}
	return string(b)
}

// StagedWriteStats counts what staged writes hold at a moment: the writes
// under way, and the rows they staged (pending snapshots and coverage
// uploads with their issues, file rows, issue states and merged coverage,
// and paths pointing at a snapshot that is not published). Every count is
// zero when no write runs; a non-zero count then is what a stopped server
// left, which SweepStagedWrites removes once its lease has run out.
type StagedWriteStats struct {
	Writes           int64
	PendingSnapshots int64
	PendingUploads   int64
	StagedRows       int64
}

// StagedWriteStats counts what staged writes hold now.
func (db *DB) StagedWriteStats(ctx context.Context) (StagedWriteStats, error) {
	var s StagedWriteStats
	pending := `(SELECT seq FROM snapshots WHERE pending = 1)`
	err := db.read.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM staged_writes),
		(SELECT count(*) FROM snapshots WHERE pending = 1),
		(SELECT count(*) FROM coverage_uploads WHERE pending = 1),
		(SELECT count(*) FROM issues WHERE snapshot_seq IN `+pending+`)
		+ (SELECT count(*) FROM file_versions WHERE since_seq IN `+pending+`)
		+ (SELECT count(*) FROM snapshot_files WHERE snapshot_seq IN `+pending+`)
		+ (SELECT count(*) FROM issue_states WHERE origin_seq IS NOT NULL AND origin_seq NOT IN (SELECT seq FROM snapshots WHERE pending = 0))
		+ (SELECT count(*) FROM staged_coverage_files)
		+ (SELECT count(*) FROM paths WHERE current_seq IS NOT NULL AND current_seq NOT IN (SELECT seq FROM snapshots WHERE pending = 0))`).
		Scan(&s.Writes, &s.PendingSnapshots, &s.PendingUploads, &s.StagedRows)
	return s, err
}
