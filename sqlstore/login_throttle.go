package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
)

// Sign-in throttling (docs/web.md, "Sign-in limits"). Every password
// sign-in reserves an attempt on each of its counters in the database before
// the password is hashed: one upsert per counter adds a failure and pushes
// the counter's next allowed time out, and does so only when that time has
// passed. The reservation is atomic per counter (PostgreSQL locks the row the
// upsert updates; SQLite has one writer), so parallel attempts, on one replica
// or several, cannot all pass a check made before any of them is counted. A
// sign-in that succeeds gives its reservation back.

// ReserveLoginAttempt counts one failed sign-in against each counter of a,
// all or none: when a counter's next allowed time has not come, nothing is
// counted and Wait says how long remains.
func (db *DB) ReserveLoginAttempt(ctx context.Context, a plumb.LoginAttempt) (plumb.LoginReservation, error) {
	now := db.now().UnixMilli()
	forgetBefore := now - a.Forget.Milliseconds()
	var res plumb.LoginReservation
	var limits []plumb.LoginLimit // the counters that apply
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		res = plumb.LoginReservation{}
		limits = []plumb.LoginLimit{a.Pair}
		var okAt sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT ok_at FROM login_throttle WHERE key = $1`, a.Pair.Key).Scan(&okAt)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if !okAt.Valid || okAt.Int64 < now-a.Known.Milliseconds() {
			limits = append(limits, a.Wide...)
		}
		// One order for every transaction, so two never wait on each other.
		slices.SortFunc(limits, func(x, y plumb.LoginLimit) int { return strings.Compare(x.Key, y.Key) })
		for _, l := range limits {
			var failures int64
			err := tx.QueryRowContext(ctx, reserveSQL(l), l.Key, now+l.Delay(1).Milliseconds(), now, forgetBefore).Scan(&failures)
			if errors.Is(err, sql.ErrNoRows) {
				return errRefused
			}
			if err != nil {
				return err
			}
			res.Keys = append(res.Keys, l.Key)
		}
		return nil
	})
	if !errors.Is(err, errRefused) {
		return res, err
	}
	// Refused, and rolled back: the wait is the longest of the counters'
	// delays, so a retry after it is not refused by another one.
	next := now + 1
	for _, l := range limits {
		var n int64
		err := db.read.QueryRowContext(ctx, `SELECT next_at FROM login_throttle WHERE key = $1`, l.Key).Scan(&n)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return plumb.LoginReservation{}, err
		}
		next = max(next, n)
	}
	return plumb.LoginReservation{Wait: time.Duration(next-now) * time.Millisecond}, nil
}

// errRefused rolls back a reservation that a counter refused.
var errRefused = errors.New("sign-in attempt refused")

// reserveSQL is the upsert that counts a failure against l's counter while
// its next allowed time has passed, and returns the new count (no row when
// refused). Parameters: $1 key, $2 the next allowed time of a first failure,
// $3 now, $4 the time before which the last attempt is forgotten. The delay
// of the n-th failure is Base << (n − Free), capped: the shift is worked out
// here, so the SQL needs neither pow nor least (neither is in both dialects).
func reserveSQL(l plumb.LoginLimit) string {
	n := `(CASE WHEN login_throttle.updated_at <= $4 THEN 1 ELSE login_throttle.failures + 1 END)`
	shift := 0
	for d := l.Base; d < l.Max && d > 0; d *= 2 {
		shift++
	}
	base, capMs := l.Base.Milliseconds(), l.Max.Milliseconds()
	delay := fmt.Sprintf(`(CASE WHEN %[1]s < %[2]d THEN 0 WHEN %[1]s - %[2]d >= %[3]d THEN %[4]d ELSE CAST(%[5]d AS BIGINT) << CAST(%[1]s - %[2]d AS INTEGER) END)`,
		n, l.Free, shift, capMs, base)
	return `INSERT INTO login_throttle (key, failures, next_at, updated_at) VALUES ($1, 1, $2, $3)
		ON CONFLICT (key) DO UPDATE SET failures = ` + n + `, next_at = $3 + ` + delay + `, updated_at = $3
		WHERE login_throttle.next_at <= $3
		RETURNING failures`
}

// LoginSucceeded gives back the reservation of a sign-in whose password was
// right (res.Keys) and records that the pair signed in, which exempts it
// from the wide counters for LoginAttempt.Known.
func (db *DB) LoginSucceeded(ctx context.Context, a plumb.LoginAttempt, res plumb.LoginReservation) error {
	keys := slices.Clone(res.Keys)
	slices.Sort(keys)
	return db.inTx(ctx, func(tx *sql.Tx) error {
		for _, k := range keys {
			if _, err := tx.ExecContext(ctx, `UPDATE login_throttle SET failures = failures - 1 WHERE key = $1 AND failures > 0`, k); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `UPDATE login_throttle SET ok_at = $1 WHERE key = $2`, db.now().UnixMilli(), a.Pair.Key)
		return err
	})
}

// PruneLoginThrottle deletes the counters that would start again at zero
// (no attempt for forget, no delay running) and that record no sign-in within
// known; it returns how many.
func (db *DB) PruneLoginThrottle(ctx context.Context, forget, known time.Duration) (int64, error) {
	now := db.now().UnixMilli()
	var n int64
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		r, err := tx.ExecContext(ctx, `DELETE FROM login_throttle WHERE updated_at <= $1 AND next_at <= $2 AND (ok_at IS NULL OR ok_at < $3)`,
			now-forget.Milliseconds(), now, now-known.Milliseconds())
		if err != nil {
			return err
		}
		n, err = r.RowsAffected()
		return err
	})
	return n, err
}
