package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/metric"
)

const componentColumns = `c.id, c.project_id, c.name, c.description, c.path_globs, c.creator_id, c.created_at, c.updated_at`

func scanComponent(s interface{ Scan(...any) error }, extra ...any) (plumb.Component, error) {
	var c plumb.Component
	var globs string
	var created, updated int64
	if err := s.Scan(append([]any{&c.ID, &c.ProjectID, &c.Name, &c.Description, &globs, &c.CreatorID, &created, &updated}, extra...)...); err != nil {
		return c, err
	}
	c.CreatedAt, c.UpdatedAt = fromUnix(created), fromUnix(updated)
	return c, json.Unmarshal([]byte(globs), &c.PathGlobs)
}

func loadComponents(ctx context.Context, q querier, projectID string) ([]plumb.Component, error) {
	return queryRecords(ctx, q, `SELECT `+componentColumns+` FROM components c WHERE c.project_id = $1 ORDER BY c.name_fold, c.id`,
		[]any{projectID}, func(s scanner) (plumb.Component, error) { return scanComponent(s) })
}

// ListComponents returns a project's components in name order, each with the
// number of files of the current default-branch snapshot it matches.
func (db *DB) ListComponents(ctx context.Context, projectID string) ([]plumb.Component, error) {
	return queryRecords(ctx, db.read, `SELECT `+componentColumns+`,
		coalesce((SELECT t.files FROM component_snapshot_totals t WHERE t.component_id = c.id ORDER BY t.at DESC, t.snapshot_seq DESC LIMIT 1), 0)
		FROM components c WHERE c.project_id = $1 ORDER BY c.name_fold, c.id`, []any{projectID}, func(s scanner) (plumb.Component, error) {
		var n int64
		c, err := scanComponent(s, &n)
		c.FileCount = n
		return c, err
	})
}

// findComponent finds a component by id first, then by name ignoring case
// (Unicode case folding, through the stored name_fold).
func findComponent(ctx context.Context, q querier, projectID, idOrName string) (plumb.Component, error) {
	c, err := scanComponent(q.QueryRowContext(ctx, `SELECT `+componentColumns+` FROM components c
		WHERE c.project_id = $1 AND (c.id = $2 OR c.name_fold = $3) ORDER BY c.id = $2 DESC LIMIT 1`, projectID, idArg(idOrName), fold(idOrName)))
	if errors.Is(err, sql.ErrNoRows) {
		return c, notFound(fmt.Sprintf("Component %q was not found.", idOrName))
	}
	return c, err
}

// FindComponent finds a component of a project by id first, then by name
// (case-insensitive).
func (db *DB) FindComponent(ctx context.Context, projectID, idOrName string) (plumb.Component, error) {
	return findComponent(ctx, db.read, projectID, idOrName)
}

// nameTaken fails with a conflict when another component of the project has
// the name, ignoring case.
func nameTaken(ctx context.Context, q querier, projectID, name, exceptID string) error {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM components WHERE project_id = $1 AND name_fold = $2 AND id <> $3`,
		projectID, fold(name), exceptID).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return plumb.Errorf(plumb.ECONFLICT, "A component named %q already exists in this project; names are unique, ignoring case.", name)
	}
	return nil
}

// CreateComponent adds a component and computes its history: the files it
// matches and its totals at every measurement of the default branch.
func (db *DB) CreateComponent(ctx context.Context, c plumb.Component) (plumb.Component, error) {
	now := db.now().UTC().Truncate(time.Second)
	if c.ID == "" {
		c.ID = NewID()
	}
	if c.CreatedAt.IsZero() {
		c.CreatedAt = now
	}
	if c.UpdatedAt.IsZero() {
		c.UpdatedAt = c.CreatedAt
	}
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		if err := db.lockProject(ctx, tx, c.ProjectID); err != nil {
			return err
		}
		if err := nameTaken(ctx, tx, c.ProjectID, c.Name, ""); err != nil {
			return err
		}
		if err := insertComponent(ctx, tx, c); err != nil {
			return err
		}
		return backfillComponent(ctx, tx, c)
	})
	return c, err
}

// ReplaceComponent replaces a component's definition, keeping its id and
// creator, and recomputes its history when its globs changed.
func (db *DB) ReplaceComponent(ctx context.Context, projectID, idOrName string, in plumb.Component) (plumb.Component, error) {
	var c plumb.Component
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		if err := db.lockProject(ctx, tx, projectID); err != nil {
			return err
		}
		old, err := findComponent(ctx, tx, projectID, idOrName)
		if err != nil {
			return err
		}
		if err := nameTaken(ctx, tx, projectID, in.Name, old.ID); err != nil {
			return err
		}
		c = old
		c.Name, c.Description, c.PathGlobs = in.Name, in.Description, in.PathGlobs
		c.UpdatedAt = db.now().UTC().Truncate(time.Second)
		globs, _ := json.Marshal(c.PathGlobs)
		if _, err := tx.ExecContext(ctx, `UPDATE components SET name = $1, name_fold = $6, description = $2, path_globs = $3, updated_at = $4 WHERE id = $5`,
			c.Name, c.Description, string(globs), unix(c.UpdatedAt), c.ID, fold(c.Name)); err != nil {
			return err
		}
		if strings.Join(old.PathGlobs, "\n") == strings.Join(c.PathGlobs, "\n") {
			return nil
		}
		// A snapshot being written meanwhile counts this component anew.
		if _, err := tx.ExecContext(ctx, `UPDATE components SET revision = revision + 1 WHERE id = $1`, c.ID); err != nil {
			return err
		}
		for _, table := range []string{"component_paths", "component_snapshot_totals"} {
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE component_id = $1`, c.ID); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM coverage_totals WHERE project_id = $1 AND component_id = $2`, projectID, c.ID); err != nil {
			return err
		}
		return backfillComponent(ctx, tx, c)
	})
	return c, err
}

// DeleteComponent removes a component and its history.
func (db *DB) DeleteComponent(ctx context.Context, projectID, idOrName string) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		if err := db.lockProject(ctx, tx, projectID); err != nil {
			return err
		}
		c, err := findComponent(ctx, tx, projectID, idOrName)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM coverage_totals WHERE project_id = $1 AND component_id = $2`, projectID, c.ID); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM components WHERE id = $1`, c.ID)
		return err
	})
}

// backfillComponent matches the component's globs against every path the
// project has seen, then replays the default branch's file changes to give the
// component a totals row at every measured snapshot, and sums its coverage at
// every default-branch commit with coverage. It reads each file version once.
func backfillComponent(ctx context.Context, tx *sql.Tx, c plumb.Component) error {
	m, err := metric.CompileGlobs(c.PathGlobs)
	if err != nil {
		return plumb.Errorf(plumb.EINVALID, "%v", err)
	}
	var members []int64
	err = eachRow(ctx, tx, `SELECT id, path FROM paths WHERE project_id = $1`, []any{c.ProjectID}, func(rows *sql.Rows) error {
		var id int64
		var p string
		if err := rows.Scan(&id, &p); err != nil {
			return err
		}
		if m.Match(p) {
			members = append(members, id)
		}
		return nil
	})
	if err != nil {
		return err
	}
	ins, err := tx.PrepareContext(ctx, `INSERT INTO component_paths (component_id, path_id) VALUES ($1, $2)`)
	if err != nil {
		return err
	}
	defer ins.Close()
	for _, id := range members {
		if _, err := ins.ExecContext(ctx, c.ID, id); err != nil {
			return err
		}
	}
	if err := backfillSnapshotTotals(ctx, tx, c); err != nil {
		return err
	}
	if err := historyComponentTotals(ctx, tx, c); err != nil {
		return err
	}
	return backfillCoverageTotals(ctx, tx, c)
}

func backfillSnapshotTotals(ctx context.Context, tx *sql.Tx, c plumb.Component) error {
	type snap struct {
		seq int64
		at  time.Time
	}
	snaps, err := queryRecords(ctx, tx, `SELECT seq, analyzed_at FROM snapshots WHERE project_id = $1 AND measured = `+sqlSnapshotMeasured+` AND pending = 0 ORDER BY seq`,
		[]any{c.ProjectID}, func(row scanner) (snap, error) {
			var s snap
			var at int64
			err := row.Scan(&s.seq, &at)
			s.at = fromUnix(at)
			return s, err
		})
	if err != nil || len(snaps) == 0 {
		return err
	}
	cur := map[int64]metric.FileStats{}
	var t metric.Totals
	type row struct {
		seq int64
		at  time.Time
		t   metric.Totals
	}
	out := make([]row, 0, len(snaps))
	// record gives the snapshots before seq, not yet given, the totals so
	// far: a version counts from the snapshot of its since_seq on.
	record := func(seq int64) {
		for len(out) < len(snaps) && snaps[len(out)].seq < seq {
			s := snaps[len(out)]
			out = append(out, row{s.seq, s.at, t})
		}
	}
	err = eachRow(ctx, tx, `SELECT v.path_id, v.since_seq, v.deleted, `+prefixCols("v.", fileStatsColumns)+`
		FROM component_paths cp JOIN file_versions v ON v.path_id = cp.path_id
		WHERE cp.component_id = $1 ORDER BY v.since_seq`, []any{c.ID}, func(rows *sql.Rows) error {
		var pathID, since int64
		var deleted bool
		var stats metric.FileStats
		if err := rows.Scan(scanFileStats([]any{&pathID, &since, &deleted}, &stats)...); err != nil {
			return err
		}
		record(since)
		if old, ok := cur[pathID]; ok {
			t.Sub(old)
			delete(cur, pathID)
		}
		if !deleted {
			t.Add(stats)
			cur[pathID] = stats
		}
		return nil
	})
	if err != nil {
		return err
	}
	record(math.MaxInt64)
	for _, r := range out {
		if err := insertSnapshotTotals(ctx, tx, c.ID, r.seq, r.at, r.t); err != nil {
			return err
		}
	}
	return nil
}

// backfillCoverageTotals gives the component a coverage measurement at every
// default-branch commit that has one for the whole project.
func backfillCoverageTotals(ctx context.Context, tx *sql.Tx, c plumb.Component) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO coverage_totals (project_id, component_id, commit_sha, at, covered, missed)
		SELECT pt.project_id, $2, pt.commit_sha, pt.at,
			coalesce((SELECT sum(u.covered) FROM coverage_union u JOIN component_paths cp ON cp.path_id = u.path_id AND cp.component_id = $2
				WHERE u.project_id = pt.project_id AND u.commit_sha = pt.commit_sha), 0),
			coalesce((SELECT sum(u.missed) FROM coverage_union u JOIN component_paths cp ON cp.path_id = u.path_id AND cp.component_id = $2
				WHERE u.project_id = pt.project_id AND u.commit_sha = pt.commit_sha), 0)
		FROM coverage_totals pt WHERE pt.project_id = $1 AND pt.component_id = ''`, c.ProjectID, c.ID)
	return err
}

// ComponentTotals returns a component's latest totals: its files at the
// current default-branch snapshot and the latest default-branch coverage.
func (db *DB) ComponentTotals(ctx context.Context, c plumb.Component) (metric.Totals, error) {
	return db.latestTotals(ctx, c.ProjectID, c.ID, func(tx *sql.Tx) (metric.Totals, error) {
		return latestSnapshotTotals(ctx, tx, c.ID)
	})
}

// ProjectTotals returns the whole project's latest totals: every file of
// the current default-branch snapshot and the latest default-branch coverage.
func (db *DB) ProjectTotals(ctx context.Context, projectID string) (metric.Totals, error) {
	return db.latestTotals(ctx, projectID, "", func(tx *sql.Tx) (metric.Totals, error) {
		return latestProjectTotals(ctx, tx, projectID)
	})
}

// latestTotals adds to the latest analysis totals the latest coverage
// totals of a component (componentID ” for the whole project).
func (db *DB) latestTotals(ctx context.Context, projectID, componentID string, analysis func(tx *sql.Tx) (metric.Totals, error)) (metric.Totals, error) {
	var t metric.Totals
	err := db.readTx(ctx, func(tx *sql.Tx) error {
		var err error
		if t, err = analysis(tx); err != nil {
			return err
		}
		err = tx.QueryRowContext(ctx, `SELECT covered, missed FROM coverage_totals WHERE project_id = $1 AND component_id = $2
			ORDER BY at DESC, commit_sha DESC LIMIT 1`, projectID, componentID).Scan(&t.Coverage.Covered, &t.Coverage.Missed)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		return err
	})
	return t, err
}

// ComponentHistory returns a component's measurements up to `to`, oldest
// first: analysis totals (from snapshots) and coverage totals (from coverage
// uploads), each with its time.
func (db *DB) ComponentHistory(ctx context.Context, c plumb.Component, to time.Time) (analysis, coverage []plumb.TotalsAt, err error) {
	return db.history(ctx, `SELECT at, files, `+fileStatsColumns+` FROM component_snapshot_totals
		WHERE component_id = $1 AND at <= $2 ORDER BY at, snapshot_seq`, c.ID, c.ProjectID, c.ID, to)
}

// ProjectHistory returns the whole project's measurements up to `to`,
// oldest first, as ComponentHistory does for a component.
func (db *DB) ProjectHistory(ctx context.Context, projectID string, to time.Time) (analysis, coverage []plumb.TotalsAt, err error) {
	return db.history(ctx, `SELECT at, files, `+fileStatsColumns+` FROM project_snapshot_totals
		WHERE project_id = $1 AND at <= $2 ORDER BY at, snapshot_seq`, projectID, projectID, "", to)
}

// history reads analysis totals with analysisSQL (parameters: key, to) and
// the coverage totals of componentID (” for the whole project).
func (db *DB) history(ctx context.Context, analysisSQL, key, projectID, componentID string, to time.Time) (analysis, coverage []plumb.TotalsAt, err error) {
	err = db.readTx(ctx, func(tx *sql.Tx) error {
		var err error
		analysis, err = queryRecords(ctx, tx, analysisSQL, []any{key, unix(to)}, func(row scanner) (plumb.TotalsAt, error) {
			var r plumb.TotalsAt
			var at int64
			err := row.Scan(scanFileStats([]any{&at, &r.Totals.Files}, &r.Totals.Stats)...)
			r.At = fromUnix(at)
			return r, err
		})
		if err != nil {
			return err
		}
		coverage, err = queryRecords(ctx, tx, `SELECT at, covered, missed FROM coverage_totals
			WHERE project_id = $1 AND component_id = $2 AND at <= $3 ORDER BY at, commit_sha`, []any{projectID, componentID, unix(to)},
			coverageAt(0))
		return err
	})
	return analysis, coverage, err
}

// coverageAt scans a coverage measurement, (at, covered, missed), of a set
// of the given number of files (0 where the count is not kept).
func coverageAt(files int64) func(row scanner) (plumb.TotalsAt, error) {
	return func(row scanner) (plumb.TotalsAt, error) {
		r := plumb.TotalsAt{Totals: metric.Totals{Files: files}}
		var at int64
		err := row.Scan(&at, &r.Totals.Coverage.Covered, &r.Totals.Coverage.Missed)
		r.At = fromUnix(at)
		return r, err
	}
}
