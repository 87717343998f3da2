package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
)

// UploadTokenPrefix starts every upload token, so it is told from a user token.
const UploadTokenPrefix = plumb.UploadTokenPrefix

// CreateUploadToken creates an upload token for a project ("WORKSPACE/PROJECT")
// and returns it with its secret, shown once. (The operator's command; the
// API creates tokens with CreateProjectUploadToken.)
func (db *DB) CreateUploadToken(ctx context.Context, projectRef, name, createdBy string) (plumb.UploadToken, string, error) {
	p, err := db.findProjectByRef(ctx, db.read, projectRef)
	if err != nil {
		return plumb.UploadToken{}, "", err
	}
	return db.CreateProjectUploadToken(ctx, p.ID, name, createdBy)
}

// CreateProjectUploadToken creates an upload token for the project with id
// projectID and returns it with its secret, shown once. createdBy says who
// made it (a user's login, or "cli" for the operator's command).
func (db *DB) CreateProjectUploadToken(ctx context.Context, projectID, name, createdBy string) (plumb.UploadToken, string, error) {
	secret := UploadTokenPrefix + strings.TrimPrefix(NewTokenSecret(), "plb_")
	t := plumb.UploadToken{ID: NewID(), ProjectID: projectID, Name: name, CreatedBy: createdBy, CreatedAt: db.now().UTC().Truncate(time.Second)}
	if strings.TrimSpace(name) == "" {
		return t, "", plumb.Errorf(plumb.EINVALID, "an upload token needs a name")
	}
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO upload_tokens (id, project_id, name, hash, created_by, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
			t.ID, t.ProjectID, t.Name, HashToken(secret), t.CreatedBy, unix(t.CreatedAt))
		return err
	})
	return t, secret, err
}

const uploadTokenColumns = `id, project_id, name, created_by, created_at, last_used_at, revoked_at`

func scanUploadToken(row interface{ Scan(...any) error }) (plumb.UploadToken, error) {
	var t plumb.UploadToken
	var created int64
	var used, revoked sql.NullInt64
	if err := row.Scan(&t.ID, &t.ProjectID, &t.Name, &t.CreatedBy, &created, &used, &revoked); err != nil {
		return t, err
	}
	t.CreatedAt, t.LastUsedAt, t.RevokedAt = fromUnix(created), fromNullUnix(used), fromNullUnix(revoked)
	return t, nil
}

// ListUploadTokens lists a project's upload tokens ("WORKSPACE/PROJECT"),
// revoked ones included, oldest first.
func (db *DB) ListUploadTokens(ctx context.Context, projectRef string) ([]plumb.UploadToken, error) {
	p, err := db.findProjectByRef(ctx, db.read, projectRef)
	if err != nil {
		return nil, err
	}
	var out []plumb.UploadToken
	err = db.EachUploadToken(ctx, p.ID, plumb.Page{}, func(t plumb.UploadToken) error { out = append(out, t); return nil })
	return out, err
}

// EachUploadToken calls fn for each upload token of the project, revoked
// ones included, oldest first (then by id), within page (Limit 0: all).
func (db *DB) EachUploadToken(ctx context.Context, projectID string, page plumb.Page, fn func(plumb.UploadToken) error) error {
	return eachRecord(ctx, db.read, `SELECT `+uploadTokenColumns+` FROM upload_tokens WHERE project_id = $1
		ORDER BY created_at, id LIMIT `+db.d.limit(page)+` OFFSET $2`, []any{projectID, page.Offset}, scanUploadToken, fn)
}

// FindUploadToken returns the project's upload token with that id.
func (db *DB) FindUploadToken(ctx context.Context, projectID, id string) (plumb.UploadToken, error) {
	return findUploadToken(ctx, db.read, projectID, id)
}

func findUploadToken(ctx context.Context, q querier, projectID, id string) (plumb.UploadToken, error) {
	if !isUUID(id) {
		return plumb.UploadToken{}, notFound(fmt.Sprintf("Upload token %q was not found.", id))
	}
	t, err := scanUploadToken(q.QueryRowContext(ctx, `SELECT `+uploadTokenColumns+` FROM upload_tokens WHERE project_id = $1 AND id = $2`, projectID, strings.ToLower(id)))
	if errors.Is(err, sql.ErrNoRows) {
		return t, notFound(fmt.Sprintf("Upload token %q was not found.", id))
	}
	return t, err
}

// RevokeUploadToken revokes an upload token by id, whatever its project (the
// operator's command); it fails at once from then on.
func (db *DB) RevokeUploadToken(ctx context.Context, id string) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE upload_tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL`, db.now().Unix(), id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return notFound(fmt.Sprintf("no active upload token with id %q", id))
		}
		return nil
	})
}

// RevokeProjectUploadToken revokes the project's upload token with that id
// and returns it; it fails at once from then on. Revoking a revoked token
// changes nothing (its first revocation time stays).
func (db *DB) RevokeProjectUploadToken(ctx context.Context, projectID, id string) (plumb.UploadToken, error) {
	var t plumb.UploadToken
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		if t, err = findUploadToken(ctx, tx, projectID, id); err != nil {
			return err
		}
		if t.RevokedAt != nil {
			return nil
		}
		now := db.now().UTC().Truncate(time.Second)
		if _, err := tx.ExecContext(ctx, `UPDATE upload_tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL`, now.Unix(), t.ID); err != nil {
			return err
		}
		t.RevokedAt = &now
		return nil
	})
	return t, err
}

// AuthenticateUpload returns the upload token for a secret, or an
// EUNAUTHORIZED error for an unknown or revoked one.
func (db *DB) AuthenticateUpload(ctx context.Context, secret string) (plumb.UploadToken, error) {
	var t plumb.UploadToken
	var created int64
	var revoked sql.NullInt64
	err := db.read.QueryRowContext(ctx, `SELECT id, project_id, name, created_by, created_at, revoked_at FROM upload_tokens WHERE hash = $1`,
		HashToken(secret)).Scan(&t.ID, &t.ProjectID, &t.Name, &t.CreatedBy, &created, &revoked)
	if errors.Is(err, sql.ErrNoRows) {
		return t, tokenRefused("The token is not valid.")
	} else if err != nil {
		return t, err
	}
	if revoked.Valid {
		return t, tokenRefused("The token has been revoked.")
	}
	t.CreatedAt = fromUnix(created)
	db.touch(ctx, "upload_tokens", t.ID)
	return t, nil
}

// IdempotencyLease is plumb.IdempotencyLease.
const IdempotencyLease = plumb.IdempotencyLease

// IdempotencyStart records that a request with an Idempotency-Key is under
// way, owned by this server. When the key was used before it returns the
// earlier response (done=true) with the SHA-256 of that request's body
// (bodyHash, "" when not known), or a conflict if that request had another
// request line or is still running. A key left under way by a server that
// is gone (its lease ran out) is taken over: the request runs as new.
func (db *DB) IdempotencyStart(ctx context.Context, projectID, key, requestHash string) (status int, body, bodyHash string, done bool, err error) {
	err = db.inTx(ctx, func(tx *sql.Tx) error {
		now := db.now()
		// Keys are kept for a day.
		if _, err := tx.ExecContext(ctx, `DELETE FROM idempotency_keys WHERE created_at < $1`, now.Add(-24*time.Hour).Unix()); err != nil {
			return err
		}
		lease := now.Add(IdempotencyLease).Unix()
		var hash string
		var leaseUntil int64
		err := tx.QueryRowContext(ctx, `SELECT request_hash, status, body, body_hash, lease_until FROM idempotency_keys WHERE project_id = $1 AND key = $2`,
			projectID, key).Scan(&hash, &status, &body, &bodyHash, &leaseUntil)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			_, err = tx.ExecContext(ctx, `INSERT INTO idempotency_keys (project_id, key, request_hash, status, body, created_at, owner, lease_until)
				VALUES ($1, $2, $3, 0, '', $4, $5, $6)`, projectID, key, requestHash, now.Unix(), db.instance, lease)
			return err
		case err != nil:
			return err
		case status == 0 && leaseUntil < now.Unix():
			// Its server stopped renewing it: nothing of that upload was
			// stored (it would have finished the key in the same breath).
			status, body, bodyHash = 0, "", ""
			_, err = tx.ExecContext(ctx, `UPDATE idempotency_keys SET request_hash = $1, owner = $2, lease_until = $3, created_at = $4
				WHERE project_id = $5 AND key = $6`, requestHash, db.instance, lease, now.Unix(), projectID, key)
			return err
		case hash != requestHash:
			return plumb.Errorf(plumb.ECONFLICT, "Idempotency-Key %q was already used for a different upload; use a new key for new content.", key)
		case status == 0:
			return plumb.Errorf(plumb.ECONFLICT, "An upload with Idempotency-Key %q is still in progress; retry later.", key)
		}
		done = true
		return nil
	})
	return status, body, bodyHash, done, err
}

// recordAnswer, in a write's publishing transaction, records the answer the
// context carries, if any. The key must still be this server's and under
// way: when a retry took it over (this server stopped renewing its lease),
// the write is not published, so the request runs once.
func (db *DB) recordAnswer(ctx context.Context, tx *sql.Tx, result any) error {
	a := plumb.IdempotentAnswerFrom(ctx)
	if a == nil || a.Answer == nil {
		return nil
	}
	status, body, bodyHash, err := a.Answer(result)
	if err != nil {
		return err
	}
	res, err := tx.ExecContext(ctx, `UPDATE idempotency_keys SET status = $1, body = $2, body_hash = $3
		WHERE project_id = $4 AND key = $5 AND owner = $6 AND status = 0`, status, body, bodyHash, a.ProjectID, a.Key, db.instance)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return plumb.Errorf(plumb.ECONFLICT, "A retry with Idempotency-Key %q took the upload over while it ran here; nothing of this attempt was stored.", a.Key)
	}
	a.MarkRecorded()
	return nil
}

// IdempotencyRenew extends the lease of a key this server is running.
func (db *DB) IdempotencyRenew(ctx context.Context, projectID, key string) error {
	_, err := db.write.ExecContext(ctx, `UPDATE idempotency_keys SET lease_until = $1 WHERE project_id = $2 AND key = $3 AND status = 0 AND owner = $4`,
		db.now().Add(IdempotencyLease).Unix(), projectID, key, db.instance)
	return classify(err)
}

// IdempotencyFinish stores the response of a request started with
// IdempotencyStart and the SHA-256 of its body (hex), or forgets the key when
// the request failed (status 0), so a retry runs again. A key another server
// took over in the meantime is left to it.
func (db *DB) IdempotencyFinish(ctx context.Context, projectID, key string, status int, body, bodyHash string) error {
	ctx = context.WithoutCancel(ctx)
	return db.inTx(ctx, func(tx *sql.Tx) error {
		if status == 0 {
			_, err := tx.ExecContext(ctx, `DELETE FROM idempotency_keys WHERE project_id = $1 AND key = $2 AND status = 0 AND owner = $3`, projectID, key, db.instance)
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE idempotency_keys SET status = $1, body = $2, body_hash = $3 WHERE project_id = $4 AND key = $5 AND owner = $6`,
			status, body, bodyHash, projectID, key, db.instance)
		return err
	})
}

// UpdateBuild moves a build to a new status, recording when: startedAt when
// it starts running, finishedAt and the conclusion (succeeded or failed) when
// it ends. An impossible transition is a conflict.
func (db *DB) UpdateBuild(ctx context.Context, projectID, buildID string, u plumb.BuildUpdate) (plumb.Build, error) {
	var b plumb.Build
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		// The transition is checked against the status read here: on
		// PostgreSQL the project lock keeps a concurrent update from
		// changing it before this one commits (SQLite serialises writers).
		if err := db.lockProject(ctx, tx, projectID); err != nil {
			return err
		}
		var err error
		b, err = scanBuild(tx.QueryRowContext(ctx, `SELECT `+buildColumns+` FROM builds WHERE project_id = $1 AND id = $2`, projectID, strings.ToLower(buildID)))
		if errors.Is(err, sql.ErrNoRows) {
			return notFound(fmt.Sprintf("Build %q was not found.", buildID))
		} else if err != nil {
			return err
		}
		at, changed, err := b.Apply(u)
		if err != nil || !changed {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE builds SET status = $1, status_reason = $2, started_at = $3, finished_at = $4, conclusion = $5, exit_code = $6
			WHERE id = $7`, b.Status, b.StatusReason, nullUnix(b.StartedAt), nullUnix(b.FinishedAt), b.Conclusion, b.ExitCode, b.ID); err != nil {
			return err
		}
		return addBuildEvent(ctx, tx, b.ID, b.Status, b.StatusReason, at)
	})
	return b, err
}

func addBuildEvent(ctx context.Context, tx *sql.Tx, buildID, status string, reason *string, at time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO build_events (build_id, seq, status, reason, at)
		VALUES ($1, (SELECT coalesce(max(seq), 0) + 1 FROM build_events WHERE build_id = $1), $2, $3, $4)`, buildID, status, reason, unix(at))
	return err
}

// touch records a token's last use, at most once a minute per token.
func (db *DB) touch(ctx context.Context, table, id string) {
	now := db.now()
	db.tokenTouchMu.Lock()
	last, ok := db.tokenTouched[table+id]
	if ok && now.Sub(last) < time.Minute {
		db.tokenTouchMu.Unlock()
		return
	}
	db.tokenTouched[table+id] = now
	db.tokenTouchMu.Unlock()
	// Best effort, and bounded: a slow database must not hold the request.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	_, _ = db.write.ExecContext(ctx, `UPDATE `+table+` SET last_used_at = $1 WHERE id = $2`, now.Unix(), id)
}

// FindProjectByKeys finds a project by workspace and project key or id,
// whoever asks (ingestion with an upload token checks the project itself).
func (db *DB) FindProjectByKeys(ctx context.Context, workspace, project string) (plumb.Project, error) {
	w, err := findWorkspaceAny(ctx, db.read, idArg(workspace))
	if plumb.ErrorCode(err) == plumb.ENOTFOUND {
		return plumb.Project{}, notFound(fmt.Sprintf("Project %q was not found.", project))
	} else if err != nil {
		// A database that fails is not an answer about the project.
		return plumb.Project{}, err
	}
	return findProjectAny(ctx, db.read, w.ID, idArg(project))
}

// AnalysedCommits returns, of the given commits (full or abbreviated SHAs,
// matched as stored), those that have an analysis on the branch: the latest
// analysis of each, in the order asked. A snapshot made by a SARIF upload
// alone is no analysis (plumb analyze --history asks, to skip what is done).
func (db *DB) AnalysedCommits(ctx context.Context, projectID, branch string, shas []string) ([]plumb.Snapshot, error) {
	latest := map[string]plumb.Snapshot{}
	err := inBatches(shas, func(in string, args []any) error {
		n := len(args)
		return eachRow(ctx, db.read, `SELECT id, commit_sha, analyzed_at, measured FROM snapshots
			WHERE project_id = $1 AND commit_sha IN (`+in+`) AND branch = $`+strconv.Itoa(n+2)+` AND analysis = 1 AND pending = 0 ORDER BY seq`,
			append(append([]any{projectID}, args...), branch), func(rows *sql.Rows) error {
				s := plumb.Snapshot{ProjectID: projectID, Branch: branch}
				var at, measured int64
				if err := rows.Scan(&s.ID, &s.CommitSHA, &at, &measured); err != nil {
					return err
				}
				s.AnalyzedAt = fromUnix(at)
				s.SetMeasurement(measured)
				latest[s.CommitSHA] = s
				return nil
			})
	})
	if err != nil {
		return nil, err
	}
	out := []plumb.Snapshot{}
	for _, sha := range shas {
		if s, ok := latest[sha]; ok {
			out = append(out, s)
			delete(latest, sha)
		}
	}
	return out, nil
}
