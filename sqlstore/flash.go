package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// flashLife is how long a session's flash waits to be shown.
const flashLife = 10 * time.Minute

// SetSessionFlash keeps a one-time value of a kind for the session with
// that hash (replacing any earlier one). The web stores it sealed.
func (db *DB) SetSessionFlash(ctx context.Context, hash, kind, value string) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE sessions SET flash_kind = $1, flash = $2, flash_at = $3 WHERE hash = $4`,
			kind, value, db.now().Unix(), hash)
		return err
	})
}

// TakeSessionFlash returns the session's flash of that kind and removes it,
// so it is shown once (of two requests taking it at once, only the one
// whose update removes it gets it); "" when there is none or it waited
// longer than ten minutes.
func (db *DB) TakeSessionFlash(ctx context.Context, hash, kind string) (string, error) {
	var value string
	var at int64
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT flash, flash_at FROM sessions WHERE hash = $1 AND flash_kind = $2 AND flash_kind <> ''`,
			hash, kind).Scan(&value, &at)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		} else if err != nil {
			return err
		}
		// Only the request whose update removes this very value shows it.
		res, err := tx.ExecContext(ctx, `UPDATE sessions SET flash_kind = '', flash = '', flash_at = 0
			WHERE hash = $1 AND flash_kind = $2 AND flash = $3`, hash, kind, value)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			value = ""
			return err
		}
		return nil
	})
	if err != nil || db.now().Sub(time.Unix(at, 0)) > flashLife {
		return "", err
	}
	return value, nil
}
