package sqlstore

// The operator's listings and removals (plumb user list|disable|enable|delete,
// workspace list|delete, member list, project list|delete|rename). Deletions
// run in one transaction; the schema's ON DELETE CASCADE removes everything
// that hangs off the deleted row.

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
)

// ListUsers lists every user by login.
func (db *DB) ListUsers(ctx context.Context) ([]plumb.UserListing, error) {
	return queryRecords(ctx, db.read, `SELECT u.id, u.login, u.name, u.email, u.created_at, u.disabled_at,
		(SELECT count(*) FROM tokens t WHERE t.user_id = u.id AND t.revoked_at IS NULL),
		(SELECT count(*) FROM workspace_members m WHERE m.user_id = u.id)
		FROM users u ORDER BY lower(u.login), u.id`, nil, func(row scanner) (plumb.UserListing, error) {
		var r plumb.UserListing
		var created int64
		var disabled sql.NullInt64
		err := row.Scan(&r.ID, &r.Login, &r.Name, &r.Email, &created, &disabled, &r.Tokens, &r.Workspaces)
		r.CreatedAt, r.DisabledAt = fromUnix(created), fromNullUnix(disabled)
		return r, err
	})
}

// SetUserDisabled disables a user (their API tokens and web sessions are
// refused, and no new session starts) or enables them again. It returns the
// user.
func (db *DB) SetUserDisabled(ctx context.Context, loginOrID string, disabled bool) (plumb.User, error) {
	var u plumb.User
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		if u, err = db.findUser(ctx, tx, loginOrID); err != nil {
			return err
		}
		var at any
		if disabled {
			at = db.now().Unix()
			_, err = tx.ExecContext(ctx, `UPDATE users SET disabled_at = coalesce(disabled_at, $1) WHERE id = $2`, at, u.ID)
		} else {
			_, err = tx.ExecContext(ctx, `UPDATE users SET disabled_at = NULL WHERE id = $1`, u.ID)
		}
		return err
	})
	return u, err
}

// userDisabled tells whether the user is disabled.
func userDisabled(ctx context.Context, q querier, userID string) (bool, error) {
	var disabled sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT disabled_at FROM users WHERE id = $1`, userID).Scan(&disabled)
	if errors.Is(err, sql.ErrNoRows) {
		return false, notFound("no such user")
	}
	return disabled.Valid, err
}

// DeleteUser removes a user with their tokens, memberships, project admin
// roles, sign-in identities and sessions, in one transaction. With dryRun it
// only counts.
func (db *DB) DeleteUser(ctx context.Context, loginOrID string, dryRun bool) (plumb.UserDeletion, error) {
	var d plumb.UserDeletion
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		if d.User, err = db.findUser(ctx, tx, loginOrID); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM tokens WHERE user_id = $1),
			(SELECT count(*) FROM workspace_members WHERE user_id = $1), (SELECT count(*) FROM project_admins WHERE user_id = $1),
			(SELECT count(*) FROM sessions WHERE user_id = $1)`, d.User.ID).Scan(&d.Tokens, &d.Memberships, &d.Admins, &d.Sessions); err != nil {
			return err
		}
		if dryRun {
			return nil
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM users WHERE id = $1`, d.User.ID)
		return err
	})
	return d, err
}

// ListWorkspaces lists every workspace by key.
func (db *DB) ListWorkspaces(ctx context.Context) ([]plumb.WorkspaceListing, error) {
	return queryRecords(ctx, db.read, `SELECT `+workspaceColumns+`,
		(SELECT count(*) FROM workspace_members m WHERE m.workspace_id = w.id),
		(SELECT count(*) FROM projects p WHERE p.workspace_id = w.id)
		FROM workspaces w ORDER BY lower(w.key), w.id`, nil, func(row scanner) (plumb.WorkspaceListing, error) {
		var r plumb.WorkspaceListing
		var err error
		r.Workspace, err = scanWorkspace(row, &r.Members, &r.Projects)
		return r, err
	})
}

// ListMembers lists a workspace's members by login.
func (db *DB) ListMembers(ctx context.Context, workspace string) ([]plumb.Member, error) {
	w, err := findWorkspaceAny(ctx, db.read, workspace)
	if err != nil {
		return nil, err
	}
	return queryRecords(ctx, db.read, `SELECT u.id, u.login, u.name, u.created_at, m.role FROM workspace_members m
		JOIN users u ON u.id = m.user_id WHERE m.workspace_id = $1 ORDER BY lower(u.login), u.id`, []any{w.ID}, func(row scanner) (plumb.Member, error) {
		var r plumb.Member
		var created int64
		err := row.Scan(&r.ID, &r.Login, &r.Name, &created, &r.Role)
		r.CreatedAt = fromUnix(created)
		return r, err
	})
}

// ListProjects lists the projects of one workspace, or of all of them when
// workspace is empty, by workspace and key.
func (db *DB) ListProjects(ctx context.Context, workspace string) ([]plumb.ProjectListing, error) {
	where, args := "", []any{}
	if workspace != "" {
		w, err := findWorkspaceAny(ctx, db.read, workspace)
		if err != nil {
			return nil, err
		}
		where, args = "WHERE p.workspace_id = $1", []any{w.ID}
	}
	return queryRecords(ctx, db.read, `SELECT `+projectColumns+`, w.key,
		(SELECT count(*) FROM snapshots s WHERE s.project_id = p.id AND s.pending = 0), (SELECT count(*) FROM builds b WHERE b.project_id = p.id)
		FROM projects p JOIN workspaces w ON w.id = p.workspace_id `+where+` ORDER BY lower(w.key), lower(p.key), p.id`, args, func(row scanner) (plumb.ProjectListing, error) {
		var r plumb.ProjectListing
		var created, updated int64
		err := row.Scan(&r.ID, &r.WorkspaceID, &r.Key, &r.DefaultBranch, &r.ComponentsEnabled, &created, &updated,
			&r.Workspace, &r.Snapshots, &r.Builds)
		r.CreatedAt, r.UpdatedAt = fromUnix(created), fromUnix(updated)
		return r, err
	})
}

// countProjectData counts the data of the projects that match cond (a
// condition on projects p, with args).
func countProjectData(ctx context.Context, q querier, cond string, args ...any) (plumb.ProjectDeletion, error) {
	var d plumb.ProjectDeletion
	in := `(SELECT p.id FROM projects p WHERE ` + cond + `)`
	err := q.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM projects p WHERE `+cond+`),
		(SELECT count(*) FROM snapshots WHERE project_id IN `+in+` AND pending = 0),
		(SELECT count(*) FROM issues i JOIN snapshots s ON s.seq = i.snapshot_seq WHERE s.project_id IN `+in+` AND s.pending = 0),
		(SELECT count(*) FROM builds WHERE project_id IN `+in+`),
		(SELECT count(*) FROM coverage_uploads WHERE project_id IN `+in+` AND pending = 0),
		(SELECT count(*) FROM components WHERE project_id IN `+in+`),
		(SELECT count(*) FROM upload_tokens WHERE project_id IN `+in+`)`, args...).
		Scan(&d.Projects, &d.Snapshots, &d.Issues, &d.Builds, &d.CoverageUploads, &d.Components, &d.UploadTokens)
	return d, err
}

// DeleteProject removes a project ("workspace/project") and all of its data
// (snapshots, issues, builds, coverage, components, upload tokens,
// idempotency keys, application links) in one transaction. With dryRun it
// only counts.
func (db *DB) DeleteProject(ctx context.Context, ref string, dryRun bool) (plumb.ProjectDeletion, error) {
	var d plumb.ProjectDeletion
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		p, err := db.findProjectByRef(ctx, tx, ref)
		if err != nil {
			return err
		}
		if err := db.lockProject(ctx, tx, p.ID); err != nil {
			return err
		}
		if d, err = countProjectData(ctx, tx, "p.id = $1", p.ID); err != nil {
			return err
		}
		if dryRun {
			return nil
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM projects WHERE id = $1`, p.ID)
		return err
	})
	return d, err
}

// DeleteWorkspace removes a workspace with its members, applications and
// projects and all of their data, in one transaction. With dryRun it only
// counts.
func (db *DB) DeleteWorkspace(ctx context.Context, keyOrID string, dryRun bool) (plumb.Workspace, plumb.ProjectDeletion, error) {
	var w plumb.Workspace
	var d plumb.ProjectDeletion
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		if w, err = findWorkspaceAny(ctx, tx, keyOrID); err != nil {
			return err
		}
		if d, err = countProjectData(ctx, tx, "p.workspace_id = $1", w.ID); err != nil {
			return err
		}
		if dryRun {
			return nil
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM workspaces WHERE id = $1`, w.ID)
		return err
	})
	return w, d, err
}

// RenameProject gives a project ("workspace/project") a new key; its id and
// data stay. URLs with the old key answer 404 from then on.
func (db *DB) RenameProject(ctx context.Context, ref, newKey string) (plumb.Project, error) {
	newKey = strings.TrimSpace(newKey)
	var p plumb.Project
	if err := validateKey("project", newKey); err != nil {
		return p, err
	}
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		if p, err = db.findProjectByRef(ctx, tx, ref); err != nil {
			return err
		}
		if other, err := findProjectAny(ctx, tx, p.WorkspaceID, newKey); err == nil && other.ID != p.ID {
			return plumb.Errorf(plumb.ECONFLICT, "project %q already exists in this workspace", newKey)
		}
		p.Key, p.UpdatedAt = newKey, db.now().UTC().Truncate(time.Second)
		_, err = tx.ExecContext(ctx, `UPDATE projects SET key = $1, updated_at = $2 WHERE id = $3`, p.Key, unix(p.UpdatedAt), p.ID)
		return err
	})
	return p, err
}
