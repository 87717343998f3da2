package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
)

// Web sign-in: password hashes, single sign-on identities and sessions. A
// session is stored only as the SHA-256 of its secret (the cookie's value).

// SetPasswordHash stores a user's password hash (a PHC string computed by the
// caller); "" removes the password, so the user cannot sign in with one.
func (db *DB) SetPasswordHash(ctx context.Context, userLoginOrID, hash string) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		u, err := db.findUser(ctx, tx, userLoginOrID)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE users SET password_hash = $1 WHERE id = $2`, hash, u.ID)
		return err
	})
}

// PasswordHash returns a user (by login, case-insensitive) and their password
// hash ("" when they have none).
func (db *DB) PasswordHash(ctx context.Context, login string) (plumb.User, string, error) {
	var u plumb.User
	var created int64
	var hash string
	err := db.read.QueryRowContext(ctx, `SELECT id, login, name, created_at, password_hash FROM users WHERE lower(login) = $1`,
		foldASCII(strings.TrimSpace(login))).Scan(&u.ID, &u.Login, &u.Name, &created, &hash)
	if errors.Is(err, sql.ErrNoRows) {
		return u, "", notFound(fmt.Sprintf("no user %q", login))
	}
	u.CreatedAt = fromUnix(created)
	return u, hash, err
}

// SignInCredentials returns the credentials of the user with that login, or
// ENOTFOUND.
func (db *DB) SignInCredentials(ctx context.Context, login string) (plumb.Credentials, error) {
	var c plumb.Credentials
	var created int64
	var disabled sql.NullInt64
	err := db.read.QueryRowContext(ctx, `SELECT id, login, name, created_at, password_hash, disabled_at FROM users WHERE lower(login) = $1`,
		foldASCII(strings.TrimSpace(login))).Scan(&c.User.ID, &c.User.Login, &c.User.Name, &created, &c.Hash, &disabled)
	if errors.Is(err, sql.ErrNoRows) {
		return c, notFound(fmt.Sprintf("no user %q", login))
	}
	c.User.CreatedAt, c.Disabled = fromUnix(created), disabled.Valid
	return c, err
}

// SignInIdentity finds the user of an identity, by the documented rule
// (docs/web.md): the user already linked to (issuer, subject); else, when
// linkByEmail holds and the provider verified the e-mail, the one user with
// that e-mail, linked from now on; else, when create holds, a new user whose
// login is the identity's login (numbered when taken), linked. Otherwise
// ENOTFOUND.
func (db *DB) SignInIdentity(ctx context.Context, id plumb.Identity, linkByEmail, create bool) (plumb.User, error) {
	if id.Issuer == "" || id.Subject == "" {
		return plumb.User{}, plumb.Errorf(plumb.EINVALID, "an identity needs an issuer and a subject")
	}
	var u plumb.User
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var userID string
		err := tx.QueryRowContext(ctx, `SELECT user_id FROM user_identities WHERE issuer = $1 AND subject = $2`, id.Issuer, id.Subject).Scan(&userID)
		if err == nil {
			u, err = db.findUser(ctx, tx, userID)
			return err
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		found := false
		if linkByEmail && id.Verified && id.Email != "" {
			ids, err := queryRecords(ctx, tx, `SELECT id FROM users WHERE lower(email) = $1 LIMIT 2`, []any{foldASCII(id.Email)}, scanString)
			if err != nil {
				return err
			}
			if len(ids) == 1 {
				if u, err = db.findUser(ctx, tx, ids[0]); err != nil {
					return err
				}
				found = true
			}
		}
		if !found {
			if !create {
				return notFound("no Plumb user is linked to this sign-in; ask an administrator to create your account")
			}
			u = plumb.User{ID: NewID(), Name: id.Name, CreatedAt: db.now().UTC().Truncate(time.Second)}
			base := id.NewUserLogin()
			u.Login = base
			for n := 2; ; n++ {
				if _, err := db.findUser(ctx, tx, u.Login); err != nil {
					break
				}
				u.Login = fmt.Sprintf("%s-%d", base, n)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO users (id, login, name, email, created_at) VALUES ($1, $2, $3, $4, $5)`,
				u.ID, u.Login, u.Name, id.Email, unix(u.CreatedAt)); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO user_identities (issuer, subject, user_id, created_at) VALUES ($1, $2, $3, $4)`,
			id.Issuer, id.Subject, u.ID, db.now().Unix())
		return err
	})
	return u, err
}

// SetUserEmail sets a user's e-mail address (used to link single sign-on
// identities by a verified e-mail).
func (db *DB) SetUserEmail(ctx context.Context, userLoginOrID, email string) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		u, err := db.findUser(ctx, tx, userLoginOrID)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE users SET email = $1 WHERE id = $2`, strings.TrimSpace(email), u.ID)
		return err
	})
}

const sessionColumns = `id, user_id, method, user_agent, created_at, last_seen_at, expires_at, revoked_at`

func scanSession(s interface{ Scan(...any) error }, extra ...any) (plumb.Session, error) {
	var se plumb.Session
	var created, seen, expires int64
	var revoked sql.NullInt64
	err := s.Scan(append([]any{&se.ID, &se.UserID, &se.Method, &se.UserAgent, &created, &seen, &expires, &revoked}, extra...)...)
	se.CreatedAt, se.LastSeenAt, se.ExpiresAt = fromUnix(created), fromUnix(seen), fromUnix(expires)
	se.RevokedAt = fromNullUnix(revoked)
	return se, err
}

// CreateSession stores a new session given the hash of its secret.
func (db *DB) CreateSession(ctx context.Context, userID, hash, method, userAgent string, ttl time.Duration) (plumb.Session, error) {
	now := db.now().UTC().Truncate(time.Second)
	if len(userAgent) > 200 {
		userAgent = userAgent[:200]
	}
	s := plumb.Session{ID: NewID(), UserID: userID, Method: method, UserAgent: userAgent, CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(ttl)}
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		if disabled, err := userDisabled(ctx, tx, userID); err != nil {
			return err
		} else if disabled {
			return plumb.Errorf(plumb.EUNAUTHORIZED, "the user is disabled")
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO sessions (id, user_id, hash, method, user_agent, created_at, last_seen_at, expires_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, s.ID, s.UserID, hash, s.Method, s.UserAgent, unix(now), unix(now), unix(s.ExpiresAt))
		return err
	})
	return s, err
}

// SessionUser returns the session with that hash and its user; an unknown,
// revoked or expired session is EUNAUTHORIZED. A session seen more than a
// minute ago has its last-seen time updated.
func (db *DB) SessionUser(ctx context.Context, hash string) (plumb.User, plumb.Session, error) {
	var u plumb.User
	var created int64
	s, err := scanSession(db.read.QueryRowContext(ctx, `SELECT s.id, s.user_id, s.method, s.user_agent, s.created_at, s.last_seen_at,
		s.expires_at, s.revoked_at, u.login, u.name, u.created_at FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.hash = $1`, hash),
		&u.Login, &u.Name, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return u, s, plumb.Errorf(plumb.EUNAUTHORIZED, "unknown session")
	} else if err != nil {
		return u, s, err
	}
	now := db.now()
	if !s.Active(now) {
		return u, s, plumb.Errorf(plumb.EUNAUTHORIZED, "the session has ended")
	}
	if disabled, err := userDisabled(ctx, db.read, s.UserID); err != nil {
		return u, s, err
	} else if disabled {
		return u, s, plumb.Errorf(plumb.EUNAUTHORIZED, "the user is disabled")
	}
	u.ID, u.CreatedAt = s.UserID, fromUnix(created)
	if now.Sub(s.LastSeenAt) > time.Minute {
		_ = db.inTx(ctx, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, `UPDATE sessions SET last_seen_at = $1 WHERE id = $2`, now.Unix(), s.ID)
			return err
		})
	}
	return u, s, nil
}

// ListSessions lists a user's sessions that have not expired, newest first
// (revoked ones included, so the page shows what was revoked).
func (db *DB) ListSessions(ctx context.Context, userID string) ([]plumb.Session, error) {
	return queryRecords(ctx, db.read, `SELECT `+sessionColumns+` FROM sessions WHERE user_id = $1 AND expires_at > $2
		ORDER BY created_at DESC, id DESC LIMIT 100`, []any{userID, db.now().Unix()}, func(row scanner) (plumb.Session, error) { return scanSession(row) })
}

// RevokeSession ends one of a user's sessions (by id); another user's session
// is not found.
func (db *DB) RevokeSession(ctx context.Context, userID, id string) error {
	return db.revokeOwned(ctx, "sessions", userID, id, fmt.Sprintf("no active session %q", id))
}

// revokeOwned revokes the row with id of table (sessions or tokens) when
// it is the user's and active; otherwise it is not found (missing says so).
func (db *DB) revokeOwned(ctx context.Context, table, userID, id, missing string) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE `+table+` SET revoked_at = $1 WHERE id = $2 AND user_id = $3 AND revoked_at IS NULL`,
			db.now().Unix(), id, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return notFound(missing)
		}
		return nil
	})
}

// RevokeSessionHash ends the session with that hash (sign-out).
func (db *DB) RevokeSessionHash(ctx context.Context, hash string) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE sessions SET revoked_at = $1 WHERE hash = $2 AND revoked_at IS NULL`, db.now().Unix(), hash)
		return err
	})
}

// RevokeUserToken revokes one of a user's API tokens; another user's token is
// not found.
func (db *DB) RevokeUserToken(ctx context.Context, userID, id string) error {
	return db.revokeOwned(ctx, "tokens", userID, id, fmt.Sprintf("no active token with id %q", id))
}

// BadgesPublic reports whether a project's badges answer to anyone.
func (db *DB) BadgesPublic(ctx context.Context, projectID string) (bool, error) {
	var on bool
	err := db.read.QueryRowContext(ctx, `SELECT badges_public FROM projects WHERE id = $1`, projectID).Scan(&on)
	if errors.Is(err, sql.ErrNoRows) {
		return false, notFound("no such project")
	}
	return on, err
}

// SetBadgesPublic makes a project's badges public or private.
func (db *DB) SetBadgesPublic(ctx context.Context, projectID string, on bool) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE projects SET badges_public = $1 WHERE id = $2`, boolInt(on), projectID)
		return err
	})
}
