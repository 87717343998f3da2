package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/plumbhq/plumb/compare"
	"github.com/plumbhq/plumb/dataset"
)

// Gate returns a project's quality gate; custom is false when the project
// has none of its own and the default applies.
func (db *DB) Gate(ctx context.Context, projectID string) (g compare.Gate, custom bool, err error) {
	var conditions string
	err = db.read.QueryRowContext(ctx, `SELECT conditions FROM quality_gates WHERE project_id = $1`, projectID).Scan(&conditions)
	if errors.Is(err, sql.ErrNoRows) {
		return compare.DefaultGate(), false, nil
	} else if err != nil {
		return g, false, err
	}
	return g, true, json.Unmarshal([]byte(conditions), &g)
}

// PutGate replaces a project's quality gate.
func (db *DB) PutGate(ctx context.Context, projectID string, g compare.Gate, at time.Time) error {
	b, err := json.Marshal(g)
	if err != nil {
		return err
	}
	return db.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM quality_gates WHERE project_id = $1`, projectID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO quality_gates (project_id, conditions, updated_at) VALUES ($1, $2, $3)`, projectID, string(b), unix(at))
		return err
	})
}

// DeleteGate removes a project's own quality gate: the default applies again.
func (db *DB) DeleteGate(ctx context.Context, projectID string) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM quality_gates WHERE project_id = $1`, projectID)
		return err
	})
}

// loadQualityGates reads every project's own quality gate for an export.
func loadQualityGates(l *loader) map[string]*dataset.QualityGate {
	return loadByKey(l, `SELECT project_id, conditions, updated_at FROM quality_gates`, func(rows scanner) (string, dataset.QualityGate, error) {
		var project, conditions string
		var g dataset.QualityGate
		var at int64
		if err := rows.Scan(&project, &conditions, &at); err != nil {
			return project, g, err
		}
		g.UpdatedAt = fromUnix(at)
		return project, g, json.Unmarshal([]byte(conditions), &g.Conditions)
	})
}

// qualityGate imports a project's own quality gate, if it has one.
func (im importer) qualityGate(p dataset.Project) error {
	g := p.QualityGate
	if g == nil {
		return nil
	}
	b, err := json.Marshal(g.Conditions)
	if err == nil {
		err = im.exec(`INSERT INTO quality_gates (project_id, conditions, updated_at) VALUES ($1, $2, $3)`, p.ID, string(b), unix(g.UpdatedAt))
	}
	if err != nil {
		return fmt.Errorf("import the quality gate of project %s: %w", p.ID, err)
	}
	return nil
}
