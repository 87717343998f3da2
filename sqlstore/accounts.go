package sqlstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/plumbhq/plumb"
)

// NewID returns a new UUIDv7 string.
func NewID() string { return uuid.Must(uuid.NewV7()).String() }

// idArg is a path value as an id argument: a UUID in any case matches the
// stored lower-case form (UUIDs are case-insensitive on input, RFC 9562);
// anything else is unchanged.
func idArg(s string) string {
	if isUUID(s) {
		return strings.ToLower(s)
	}
	return s
}

const tokenAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// HashToken is the only form in which a token is stored (see plumb.HashToken).
var HashToken = plumb.HashToken

// NewTokenSecret returns a fresh random token: "plb_" and 40 base62 characters
// (about 238 bits of entropy).
func NewTokenSecret() string {
	var b strings.Builder
	b.WriteString("plb_")
	max := big.NewInt(int64(len(tokenAlphabet)))
	for i := 0; i < 40; i++ {
		n, err := rand.Int(rand.Reader, max)
		if err != nil {
			panic(err)
		}
		b.WriteByte(tokenAlphabet[n.Int64()])
	}
	return b.String()
}

// CreateUser adds a user.
func (db *DB) CreateUser(ctx context.Context, login, name string) (plumb.User, error) {
	return db.CreateUserWith(ctx, plumb.User{Login: login, Name: name})
}

// CreateUserWith adds a user with its profile (email, avatar and provider
// URLs, each optional).
func (db *DB) CreateUserWith(ctx context.Context, in plumb.User) (plumb.User, error) {
	now := db.now().UTC().Truncate(time.Second)
	u := plumb.User{ID: NewID(), Login: strings.TrimSpace(in.Login), Name: in.Name, CreatedAt: now, UpdatedAt: now}
	if u.Login == "" {
		return u, plumb.Errorf(plumb.EINVALID, "a user needs a login")
	}
	if err := u.SetProfile(plumb.UserProfile{Email: &in.Email, AvatarURL: &in.AvatarURL, ProviderURL: &in.ProviderURL}); err != nil {
		return u, err
	}
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := db.findUser(ctx, tx, u.Login); err == nil {
			return plumb.Errorf(plumb.ECONFLICT, "user %q already exists", u.Login)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO users (id, login, name, email, avatar_url, provider_url, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			u.ID, u.Login, u.Name, u.Email, u.AvatarURL, u.ProviderURL, unix(u.CreatedAt), unix(u.UpdatedAt))
		return err
	})
	return u, err
}

// UpdateUser changes the given fields of a user's profile and sets its
// updatedAt.
func (db *DB) UpdateUser(ctx context.Context, loginOrID string, p plumb.UserProfile) (plumb.User, error) {
	var u plumb.User
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		if u, err = db.findUser(ctx, tx, loginOrID); err != nil {
			return err
		}
		if err := u.SetProfile(p); err != nil {
			return err
		}
		u.UpdatedAt = db.now().UTC().Truncate(time.Second)
		_, err = tx.ExecContext(ctx, `UPDATE users SET name = $1, email = $2, avatar_url = $3, provider_url = $4, updated_at = $5 WHERE id = $6`,
			u.Name, u.Email, u.AvatarURL, u.ProviderURL, unix(u.UpdatedAt), u.ID)
		return err
	})
	return u, err
}

// FindUser finds a user by login (case-insensitive) or id.
func (db *DB) FindUser(ctx context.Context, loginOrID string) (plumb.User, error) {
	return db.findUser(ctx, db.read, loginOrID)
}

func (db *DB) findUser(ctx context.Context, q querier, loginOrID string) (plumb.User, error) {
	var u plumb.User
	var created, updated int64
	err := q.QueryRowContext(ctx, `SELECT id, login, name, email, avatar_url, provider_url, created_at, updated_at FROM users
		WHERE id = $1 OR lower(login) = $2 ORDER BY id = $1 DESC LIMIT 1`, loginOrID, foldASCII(loginOrID)).
		Scan(&u.ID, &u.Login, &u.Name, &u.Email, &u.AvatarURL, &u.ProviderURL, &created, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return u, notFound(fmt.Sprintf("no user %q", loginOrID))
	}
	u.CreatedAt = fromUnix(created)
	u.UpdatedAt = fromUnix(max(updated, created)) // rows written without updated_at
	return u, err
}

// CreateToken creates a token for a user and returns it with its secret,
// which is shown once and never stored.
func (db *DB) CreateToken(ctx context.Context, userLoginOrID, name string) (plumb.Token, string, error) {
	secret := NewTokenSecret()
	t, err := db.AddToken(ctx, userLoginOrID, name, HashToken(secret))
	return t, secret, err
}

// AddToken stores a token given its hash.
func (db *DB) AddToken(ctx context.Context, userLoginOrID, name, hash string) (plumb.Token, error) {
	t := plumb.Token{ID: NewID(), Name: name, Hash: hash, CreatedAt: db.now().UTC().Truncate(time.Second)}
	if strings.TrimSpace(name) == "" {
		return t, plumb.Errorf(plumb.EINVALID, "a token needs a name")
	}
	err := db.inTx(ctx, func(tx *sql.Tx) error {
		u, err := db.findUser(ctx, tx, userLoginOrID)
		if err != nil {
			return err
		}
		t.UserID = u.ID
		_, err = tx.ExecContext(ctx, `INSERT INTO tokens (id, user_id, name, hash, created_at) VALUES ($1, $2, $3, $4, $5)`,
			t.ID, t.UserID, t.Name, t.Hash, unix(t.CreatedAt))
		return err
	})
	return t, err
}

// ListTokens lists a user's tokens (never their secrets).
func (db *DB) ListTokens(ctx context.Context, userLoginOrID string) ([]plumb.Token, error) {
	u, err := db.FindUser(ctx, userLoginOrID)
	if err != nil {
		return nil, err
	}
	return queryRecords(ctx, db.read, `SELECT id, user_id, name, hash, created_at, last_used_at, revoked_at
		FROM tokens WHERE user_id = $1 ORDER BY created_at, id`, []any{u.ID}, scanToken)
}

func scanToken(s interface{ Scan(...any) error }) (plumb.Token, error) {
	var t plumb.Token
	var created int64
	var used, revoked sql.NullInt64
	err := s.Scan(&t.ID, &t.UserID, &t.Name, &t.Hash, &created, &used, &revoked)
	t.CreatedAt = fromUnix(created)
	t.LastUsedAt = fromNullUnix(used)
	t.RevokedAt = fromNullUnix(revoked)
	return t, err
}

// RevokeToken revokes a token by id; it fails at once from then on.
func (db *DB) RevokeToken(ctx context.Context, id string) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL`, db.now().Unix(), id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return notFound(fmt.Sprintf("no active token with id %q", id))
		}
		return nil
	})
}

// ErrTokenUnknown is plumb.ErrTokenUnknown.
var ErrTokenUnknown = plumb.ErrTokenUnknown

func tokenRefused(detail string) error {
	return &plumb.Error{Code: plumb.EUNAUTHORIZED, Details: []string{detail}, Cause: ErrTokenUnknown}
}

// Authenticate returns the user and token for a token secret, or an
// EUNAUTHORIZED error for an unknown or revoked one.
func (db *DB) Authenticate(ctx context.Context, secret string) (plumb.User, plumb.Token, error) {
	var u plumb.User
	row := db.read.QueryRowContext(ctx, `SELECT t.id, t.user_id, t.name, t.hash, t.created_at, t.last_used_at, t.revoked_at,
		u.login, u.name, u.disabled_at FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.hash = $1`, HashToken(secret))
	var tok plumb.Token
	var created int64
	var used, revoked, disabled sql.NullInt64
	err := row.Scan(&tok.ID, &tok.UserID, &tok.Name, &tok.Hash, &created, &used, &revoked, &u.Login, &u.Name, &disabled)
	if errors.Is(err, sql.ErrNoRows) {
		return u, tok, tokenRefused("The token is not valid.")
	} else if err != nil {
		return u, tok, err
	}
	if revoked.Valid {
		return u, tok, tokenRefused("The token has been revoked.")
	}
	if disabled.Valid {
		return u, tok, plumb.Errorf(plumb.EUNAUTHORIZED, "The token's user is disabled.")
	}
	tok.CreatedAt = fromUnix(created)
	tok.LastUsedAt = fromNullUnix(used)
	u.ID = tok.UserID
	db.touch(ctx, "tokens", tok.ID)
	return u, tok, nil
}

// CreateWorkspace adds a workspace.
func (db *DB) CreateWorkspace(ctx context.Context, in plumb.WorkspaceInput) (plumb.Workspace, error) {
	w, err := in.Workspace(NewID(), db.now().UTC().Truncate(time.Second))
	if err != nil {
		return w, err
	}
	err = db.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := findWorkspaceAny(ctx, tx, w.Key); err == nil {
			return plumb.Errorf(plumb.ECONFLICT, "workspace %q already exists", w.Key)
		}
		return insertWorkspace(ctx, tx, w)
	})
	return w, err
}

func insertWorkspace(ctx context.Context, q querier, w plumb.Workspace) error {
	_, err := q.ExecContext(ctx, `INSERT INTO workspaces (id, key, avatar_url, provider_url, applications_enabled, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`, w.ID, w.Key, w.AvatarURL, w.ProviderURL, boolInt(w.ApplicationsEnabled), unix(w.CreatedAt), unix(w.UpdatedAt))
	return err
}

// SetApplicationsEnabled turns a workspace's Applications feature on or off.
func (db *DB) SetApplicationsEnabled(ctx context.Context, keyOrID string, on bool) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		w, err := findWorkspaceAny(ctx, tx, keyOrID)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE workspaces SET applications_enabled = $1, updated_at = $2 WHERE id = $3`, boolInt(on), db.now().Unix(), w.ID)
		return err
	})
}

const workspaceColumns = `w.id, w.key, w.avatar_url, w.provider_url, w.applications_enabled, w.created_at, w.updated_at`

func scanWorkspace(s interface{ Scan(...any) error }, extra ...any) (plumb.Workspace, error) {
	var w plumb.Workspace
	var created, updated int64
	dest := append([]any{&w.ID, &w.Key, &w.AvatarURL, &w.ProviderURL, &w.ApplicationsEnabled, &created, &updated}, extra...)
	err := s.Scan(dest...)
	w.CreatedAt, w.UpdatedAt = fromUnix(created), fromUnix(updated)
	return w, err
}

// findWorkspaceAny finds a workspace by id or key, whoever asks (admin commands).
func findWorkspaceAny(ctx context.Context, q querier, keyOrID string) (plumb.Workspace, error) {
	w, err := scanWorkspace(q.QueryRowContext(ctx, `SELECT `+workspaceColumns+` FROM workspaces w
		WHERE w.id = $1 OR lower(w.key) = $2 ORDER BY w.id = $1 DESC LIMIT 1`, keyOrID, foldASCII(keyOrID)))
	if errors.Is(err, sql.ErrNoRows) {
		return w, notFound(fmt.Sprintf("no workspace %q", keyOrID))
	}
	return w, err
}

// FindWorkspace finds a workspace the user is a member of, by id first, then by
// key (case-insensitive), and returns the user's role in it. A workspace the
// user cannot see is not found.
func (db *DB) FindWorkspace(ctx context.Context, userID, keyOrID string) (plumb.Workspace, string, error) {
	var role string
	w, err := scanWorkspace(db.read.QueryRowContext(ctx, `SELECT `+workspaceColumns+`, m.role FROM workspaces w
		JOIN workspace_members m ON m.workspace_id = w.id AND m.user_id = $2
		WHERE w.id = $1 OR lower(w.key) = $3 ORDER BY w.id = $1 DESC LIMIT 1`, idArg(keyOrID), userID, foldASCII(keyOrID)), &role)
	if errors.Is(err, sql.ErrNoRows) {
		return w, "", notFound(fmt.Sprintf("Workspace %q was not found.", keyOrID))
	}
	return w, role, err
}

// EachWorkspace calls fn for each workspace the user is a member of, in key
// order, within page (Limit 0: all).
func (db *DB) EachWorkspace(ctx context.Context, userID string, page plumb.Page, fn func(plumb.Workspace) error) error {
	return eachRecord(ctx, db.read, `SELECT `+workspaceColumns+` FROM workspaces w
		JOIN workspace_members m ON m.workspace_id = w.id AND m.user_id = $1
		ORDER BY lower(w.key), w.id LIMIT `+db.d.limit(page)+` OFFSET $2`, []any{userID, page.Offset},
		func(s scanner) (plumb.Workspace, error) { return scanWorkspace(s) }, fn)
}

// AddMember makes a user a member (or admin) of a workspace; it updates the
// role of an existing member.
func (db *DB) AddMember(ctx context.Context, workspace, user, role string) error {
	if role != plumb.RoleMember && role != plumb.RoleAdmin {
		return plumb.Errorf(plumb.EINVALID, "role must be member or admin, got %q", role)
	}
	return db.inTx(ctx, func(tx *sql.Tx) error {
		w, err := findWorkspaceAny(ctx, tx, workspace)
		if err != nil {
			return err
		}
		u, err := db.findUser(ctx, tx, user)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, $3)
			ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = excluded.role`, w.ID, u.ID, role)
		return err
	})
}

// RemoveMember removes a user from a workspace.
func (db *DB) RemoveMember(ctx context.Context, workspace, user string) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		w, err := findWorkspaceAny(ctx, tx, workspace)
		if err != nil {
			return err
		}
		u, err := db.findUser(ctx, tx, user)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = $2`, w.ID, u.ID)
		return err
	})
}

// CreateProject adds a project to a workspace.
func (db *DB) CreateProject(ctx context.Context, in plumb.ProjectInput) (plumb.Project, error) {
	p, err := in.Project(NewID(), db.now().UTC().Truncate(time.Second))
	if err != nil {
		return p, err
	}
	err = db.inTx(ctx, func(tx *sql.Tx) error {
		w, err := findWorkspaceAny(ctx, tx, in.Workspace)
		if err != nil {
			return err
		}
		p.WorkspaceID = w.ID
		if _, err := findProjectAny(ctx, tx, w.ID, p.Key); err == nil {
			return plumb.Errorf(plumb.ECONFLICT, "project %q already exists in workspace %q", p.Key, w.Key)
		}
		return insertProject(ctx, tx, p)
	})
	return p, err
}

func insertProject(ctx context.Context, q querier, p plumb.Project) error {
	_, err := q.ExecContext(ctx, `INSERT INTO projects (id, workspace_id, key, default_branch, components_enabled, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`, p.ID, p.WorkspaceID, p.Key, p.DefaultBranch, boolInt(p.ComponentsEnabled), unix(p.CreatedAt), unix(p.UpdatedAt))
	return err
}

const projectColumns = `p.id, p.workspace_id, p.key, p.default_branch, p.components_enabled, p.created_at, p.updated_at`

func scanProject(s interface{ Scan(...any) error }) (plumb.Project, error) {
	var p plumb.Project
	var created, updated int64
	err := s.Scan(&p.ID, &p.WorkspaceID, &p.Key, &p.DefaultBranch, &p.ComponentsEnabled, &created, &updated)
	p.CreatedAt, p.UpdatedAt = fromUnix(created), fromUnix(updated)
	return p, err
}

func findProjectAny(ctx context.Context, q querier, workspaceID, keyOrID string) (plumb.Project, error) {
	p, err := scanProject(q.QueryRowContext(ctx, `SELECT `+projectColumns+` FROM projects p
		WHERE p.workspace_id = $1 AND (p.id = $2 OR lower(p.key) = $3) ORDER BY p.id = $2 DESC LIMIT 1`, workspaceID, idArg(keyOrID), foldASCII(keyOrID)))
	if errors.Is(err, sql.ErrNoRows) {
		return p, notFound(fmt.Sprintf("Project %q was not found.", keyOrID))
	}
	return p, err
}

// FindProject finds a project of a workspace by id first, then by key
// (case-insensitive). Visibility is the workspace's: callers find the
// workspace with FindWorkspace first.
func (db *DB) FindProject(ctx context.Context, workspaceID, keyOrID string) (plumb.Project, error) {
	return findProjectAny(ctx, db.read, workspaceID, keyOrID)
}

// findProjectByRef finds a project by "workspace/project" for admin commands.
func (db *DB) findProjectByRef(ctx context.Context, q querier, ref string) (plumb.Project, error) {
	ws, key, ok := strings.Cut(ref, "/")
	if !ok {
		return plumb.Project{}, plumb.Errorf(plumb.EINVALID, "name a project as WORKSPACE/PROJECT, got %q", ref)
	}
	w, err := findWorkspaceAny(ctx, q, ws)
	if err != nil {
		return plumb.Project{}, err
	}
	return findProjectAny(ctx, q, w.ID, key)
}

// SetComponentsEnabled turns a project's Components feature on or off.
func (db *DB) SetComponentsEnabled(ctx context.Context, projectRef string, on bool) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		p, err := db.findProjectByRef(ctx, tx, projectRef)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE projects SET components_enabled = $1, updated_at = $2 WHERE id = $3`, boolInt(on), db.now().Unix(), p.ID)
		return err
	})
}

// AddProjectAdmin makes a user an admin of one project.
func (db *DB) AddProjectAdmin(ctx context.Context, projectRef, user string) error {
	return db.inTx(ctx, func(tx *sql.Tx) error {
		p, err := db.findProjectByRef(ctx, tx, projectRef)
		if err != nil {
			return err
		}
		u, err := db.findUser(ctx, tx, user)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO project_admins (project_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, p.ID, u.ID)
		return err
	})
}

// IsProjectAdmin reports whether a user administers a project: a workspace
// admin administers every project of the workspace.
func (db *DB) IsProjectAdmin(ctx context.Context, userID string, p plumb.Project) (bool, error) {
	var n int
	err := db.read.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM workspace_members WHERE workspace_id = $1 AND user_id = $2 AND role = 'admin') +
		(SELECT count(*) FROM project_admins WHERE project_id = $3 AND user_id = $2)`, p.WorkspaceID, userID, p.ID).Scan(&n)
	return n > 0, err
}

// EachProject calls fn for each project of a workspace, in key order
// (case-insensitive), within page (Limit 0: all). Visibility is the
// caller's: a member of the workspace sees all its projects.
func (db *DB) EachProject(ctx context.Context, workspaceID string, page plumb.Page, fn func(plumb.Project) error) error {
	return eachRecord(ctx, db.read, `SELECT `+projectColumns+` FROM projects p
		WHERE p.workspace_id = $1 ORDER BY lower(p.key), p.id LIMIT `+db.d.limit(page)+` OFFSET $2`, []any{workspaceID, page.Offset}, scanProject, fn)
}
