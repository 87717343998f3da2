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

// CreateApplication adds an application to a workspace; the name is unique in
// the workspace, case-insensitively (Unicode case folding).
func (db *DB) CreateApplication(ctx context.Context, workspaceID, name, description string) (plumb.Application, error) {
	a := plumb.Application{ID: NewID(), WorkspaceID: workspaceID, Name: name, Description: description,
		CreatedAt: db.now().UTC().Truncate(time.Second)}
	if strings.TrimSpace(name) == "" {
		return a, plumb.Errorf(plumb.EINVALID, "an application needs a name")
	}
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM applications WHERE workspace_id = $1 AND name_fold = $2`,
			workspaceID, fold(name)).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return plumb.Errorf(plumb.ECONFLICT, "An application named %q already exists in this workspace; names are unique, ignoring case.", name)
		}
		return insertApplication(ctx, tx, a)
	})
	return a, err
}

func insertApplication(ctx context.Context, q querier, a plumb.Application) error {
	_, err := q.ExecContext(ctx, `INSERT INTO applications (id, workspace_id, name, name_fold, description, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
		a.ID, a.WorkspaceID, a.Name, fold(a.Name), a.Description, unix(a.CreatedAt))
	return err
}

const applicationSelect = `SELECT a.id, a.workspace_id, a.name, a.description, a.created_at,
	(SELECT count(*) FROM application_projects ap WHERE ap.application_id = a.id) FROM applications a `

func scanApplication(s interface{ Scan(...any) error }) (plumb.Application, error) {
	var a plumb.Application
	var created int64
	err := s.Scan(&a.ID, &a.WorkspaceID, &a.Name, &a.Description, &created, &a.ProjectCount)
	a.CreatedAt = fromUnix(created)
	return a, err
}

// FindApplication finds an application of a workspace by id first, then by
// name (case-insensitive).
func (db *DB) FindApplication(ctx context.Context, workspaceID, idOrName string) (plumb.Application, error) {
	a, err := scanApplication(db.read.QueryRowContext(ctx, applicationSelect+`WHERE a.workspace_id = $1 AND (a.id = $2 OR a.name_fold = $3)
		ORDER BY a.id = $2 DESC LIMIT 1`, workspaceID, idArg(idOrName), fold(idOrName)))
	if errors.Is(err, sql.ErrNoRows) {
		return a, notFound(fmt.Sprintf("Application %q was not found.", idOrName))
	}
	return a, err
}

// EachApplication calls fn for the workspace's applications whose name
// contains nameFilter (case-insensitive; % and _ are literal), in name order.
func (db *DB) EachApplication(ctx context.Context, workspaceID, nameFilter string, page plumb.Page, fn func(plumb.Application) error) error {
	return eachRecord(ctx, db.read, applicationSelect+`WHERE a.workspace_id = $1 AND `+db.d.contains("a.name_fold", "$2")+`
		ORDER BY a.name_fold, a.id LIMIT `+db.d.limit(page)+` OFFSET $3`, []any{workspaceID, fold(nameFilter), page.Offset}, scanApplication, fn)
}

// AddApplicationProject puts a project into an application (admin command).
func (db *DB) AddApplicationProject(ctx context.Context, workspace, application, project string) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		w, err := findWorkspaceAny(ctx, tx, workspace)
		if err != nil {
			return err
		}
		var appID string
		err = tx.QueryRowContext(ctx, `SELECT id FROM applications WHERE workspace_id = $1 AND (id = $2 OR name_fold = $3)
			ORDER BY id = $2 DESC LIMIT 1`, w.ID, idArg(application), fold(application)).Scan(&appID)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound(fmt.Sprintf("no application %q in workspace %q", application, w.Key))
		} else if err != nil {
			return err
		}
		p, err := findProjectAny(ctx, tx, w.ID, project)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO application_projects (application_id, project_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, appID, p.ID)
		return err
	})
}
