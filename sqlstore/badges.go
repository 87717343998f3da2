package sqlstore

import (
	"context"
	"crypto/subtle"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/dataset"
)

// BadgeTokenPrefix starts every badge token, so that one pasted in the wrong
// place is recognisable (and never taken for an API or upload token).
const BadgeTokenPrefix = "plbb_"

// CreateBadgeToken gives the project a new badge token, replacing (and so
// revoking) the one it had, and returns its secret.
func (db *DB) CreateBadgeToken(ctx context.Context, projectID, createdBy string) (string, error) {
	secret := BadgeTokenPrefix + strings.TrimPrefix(NewTokenSecret(), "plb_")
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM projects WHERE id = $1`, projectID).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return notFound("no such project")
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM badge_tokens WHERE project_id = $1`, projectID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO badge_tokens (project_id, hash, created_by, created_at) VALUES ($1, $2, $3, $4)`,
			projectID, plumb.HashToken(secret), createdBy, db.now().Unix())
		return err
	})
	if err != nil {
		return "", err
	}
	return secret, nil
}

// RevokeBadgeToken deletes the project's badge token; it reports whether
// there was one.
func (db *DB) RevokeBadgeToken(ctx context.Context, projectID string) (bool, error) {
	var n int64
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM badge_tokens WHERE project_id = $1`, projectID)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return n > 0, err
}

// ProjectBadgeToken describes the project's badge token, if it has one.
func (db *DB) ProjectBadgeToken(ctx context.Context, projectID string) (plumb.BadgeToken, bool, error) {
	var t plumb.BadgeToken
	var at int64
	err := db.read.QueryRowContext(ctx, `SELECT created_by, created_at FROM badge_tokens WHERE project_id = $1`, projectID).Scan(&t.CreatedBy, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return t, false, nil
	}
	if err != nil {
		return t, false, err
	}
	t.CreatedAt = fromUnix(at)
	return t, true, nil
}

// BadgeTokenValid reports whether secret is the project's current badge
// token (an empty secret never is).
func (db *DB) BadgeTokenValid(ctx context.Context, projectID, secret string) (bool, error) {
	if secret == "" {
		return false, nil
	}
	var hash string
	err := db.read.QueryRowContext(ctx, `SELECT hash FROM badge_tokens WHERE project_id = $1`, projectID).Scan(&hash)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return subtle.ConstantTimeCompare([]byte(hash), []byte(plumb.HashToken(secret))) == 1, nil
}

// loadBadgeTokens loads every project's badge token (its hash, never a
// secret) for an export, by project id.
func loadBadgeTokens(l *loader) map[string]*dataset.BadgeToken {
	return loadByKey(l, `SELECT project_id, hash, created_by, created_at FROM badge_tokens`, func(rows scanner) (string, dataset.BadgeToken, error) {
		var project string
		var b dataset.BadgeToken
		var at int64
		err := rows.Scan(&project, &b.Hash, &b.CreatedBy, &at)
		b.CreatedAt = fromUnix(at)
		return project, b, err
	})
}

// badgeToken imports a project's badge token (its hash), if it has one.
func (im importer) badgeToken(p dataset.Project) error {
	b := p.BadgeToken
	if b == nil {
		return nil
	}
	if err := im.exec(`INSERT INTO badge_tokens (project_id, hash, created_by, created_at) VALUES ($1, $2, $3, $4)`,
		p.ID, b.Hash, b.CreatedBy, unix(b.CreatedAt)); err != nil {
		return fmt.Errorf("import the badge token of project %s: %w", p.ID, err)
	}
	return nil
}
