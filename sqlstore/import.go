package sqlstore

// Import of a whole dataset (docs/dataset.md, package dataset). Import
// validates the whole document first (dataset.Document.Validate), then
// writes it in one transaction through the same insert paths as the live
// service, so every derived table (current snapshot, file versions,
// component totals, coverage unions and totals) is rebuilt exactly as it was
// built the first time.

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/dataset"
)

// Import loads a dataset document (docs/dataset.md) into an empty database.
// It refuses a database that holds any user or workspace, validates the
// whole document first (an EINVALID error lists every problem, naming the
// record and the field, up to maxImportProblems), and writes everything in
// one transaction: on any failure nothing is written.
func (db *DB) Import(ctx context.Context, r io.Reader) error {
	if err := checkEmpty(ctx, db.read); err != nil {
		return err
	}
	doc, err := dataset.Decode(r)
	if err != nil {
		return plumb.Errorf(plumb.EINVALID, "%v", err)
	}
	return db.ImportDocument(ctx, doc)
}

// ImportDocument is Import for a document already in memory (the demo, tests).
func (db *DB) ImportDocument(ctx context.Context, doc *dataset.Document) error {
	if err := checkEmpty(ctx, db.read); err != nil {
		return err
	}
	if err := doc.Validate(); err != nil {
		return err
	}
	return db.inTx(ctx, func(tx *sql.Tx) error {
		if db.d.name == "postgres" {
			// SQLite serialises write transactions, so the database stays
			// empty from the check below to the commit. PostgreSQL does not:
			// a self-exclusive lock makes another import, and any writer of
			// users or workspaces, wait for this one's end (reads go on).
			if _, err := tx.ExecContext(ctx, `LOCK TABLE users, workspaces IN SHARE ROW EXCLUSIVE MODE`); err != nil {
				return err
			}
		}
		if err := checkEmpty(ctx, tx); err != nil {
			return err
		}
		return db.importTx(ctx, tx, doc)
	})
}

// CheckEmpty returns an ECONFLICT error when the database holds any user or
// workspace, which Import refuses; a command checks it before reading a
// large file.
func (db *DB) CheckEmpty(ctx context.Context) error { return checkEmpty(ctx, db.read) }

// checkEmpty refuses a database that holds any user or workspace.
func checkEmpty(ctx context.Context, q querier) error {
	var users, workspaces int64
	if err := q.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM users), (SELECT count(*) FROM workspaces)`).Scan(&users, &workspaces); err != nil {
		return err
	}
	if users > 0 || workspaces > 0 {
		return plumb.Errorf(plumb.ECONFLICT, "the database is not empty (it holds %d users and %d workspaces); "+
			"a dataset can only be imported into an empty database", users, workspaces)
	}
	return nil
}

// importTx writes a valid document in dependency order, preserving every id
// and time.
func (db *DB) importTx(ctx context.Context, tx *sql.Tx, doc *dataset.Document) error {
	im := importer{db: db, ctx: ctx, tx: tx}
	for _, write := range []func(*dataset.Document) error{
		im.users, im.tokens, im.workspaces, im.projects, im.uploadTokens, im.applications,
		im.snapshots, im.builds, im.buildEvents, im.issueStates, im.coverage, im.components, im.idempotencyKeys, im.sources,
	} {
		if err := write(doc); err != nil {
			return err
		}
	}
	return nil
}

// importer writes the lists of a document, one method a list, in one
// transaction; an error names the record that failed.
type importer struct {
	db  *DB
	ctx context.Context
	tx  *sql.Tx
}

func (im importer) exec(query string, args ...any) error {
	_, err := im.tx.ExecContext(im.ctx, query, args...)
	return err
}

// link writes the rows (id, other) of a link table for each of others; an
// error is wrapped by errFormat with id and the other.
func (im importer) link(query, id string, others []string, errFormat string) error {
	for _, other := range others {
		if err := im.exec(query, id, other); err != nil {
			return fmt.Errorf(errFormat, id, other, err)
		}
	}
	return nil
}

func (im importer) users(doc *dataset.Document) error {
	for _, u := range doc.Users {
		updated := u.UpdatedAt
		if updated.IsZero() {
			updated = u.CreatedAt
		}
		if err := im.exec(`INSERT INTO users (id, login, name, email, avatar_url, provider_url, created_at, updated_at, disabled_at, password_hash)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
			u.ID, u.Login, u.Name, u.Email, u.AvatarURL, u.ProviderURL, unix(u.CreatedAt), unix(updated), nullUnix(u.DisabledAt), u.PasswordHash); err != nil {
			return fmt.Errorf("import user %s: %w", u.ID, err)
		}
	}
	return nil
}

// storedHash is the hash a token record stores: its hash, or the hash of
// its plaintext token (fixtures).
func storedHash(hash, token string) string {
	if token != "" {
		return HashToken(token)
	}
	return hash
}

func (im importer) tokens(doc *dataset.Document) error {
	for _, t := range doc.Tokens {
		if err := im.exec(`INSERT INTO tokens (id, user_id, name, hash, created_at, last_used_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			t.ID, t.UserID, t.Name, storedHash(t.Hash, t.Token), unix(t.CreatedAt), nullUnix(t.LastUsedAt), nullUnix(t.RevokedAt)); err != nil {
			return fmt.Errorf("import token %s: %w", t.ID, err)
		}
	}
	return nil
}

func (im importer) workspaces(doc *dataset.Document) error {
	for _, w := range doc.Workspaces {
		if err := insertWorkspace(im.ctx, im.tx, plumb.Workspace{ID: w.ID, Key: w.Key, AvatarURL: w.AvatarURL, ProviderURL: w.ProviderURL,
			ApplicationsEnabled: w.ApplicationsEnabled, CreatedAt: w.CreatedAt, UpdatedAt: w.UpdatedAt}); err != nil {
			return fmt.Errorf("import workspace %s: %w", w.ID, err)
		}
		for _, m := range w.Members {
			if err := im.exec(`INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, $3)`, w.ID, m.UserID, m.Role); err != nil {
				return fmt.Errorf("import workspace %s member %s: %w", w.ID, m.UserID, err)
			}
		}
	}
	return nil
}

func (im importer) projects(doc *dataset.Document) error {
	for _, p := range doc.Projects {
		if err := insertProject(im.ctx, im.tx, plumb.Project{ID: p.ID, WorkspaceID: p.WorkspaceID, Key: p.Key, DefaultBranch: p.DefaultBranch,
			ComponentsEnabled: p.ComponentsEnabled, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt}); err != nil {
			return fmt.Errorf("import project %s: %w", p.ID, err)
		}
		if p.BadgesPublic || p.SourcesDisabled {
			if err := im.exec(`UPDATE projects SET badges_public = $2, sources_disabled = $3 WHERE id = $1`, p.ID,
				boolInt(p.BadgesPublic), boolInt(p.SourcesDisabled)); err != nil {
				return fmt.Errorf("import project %s: %w", p.ID, err)
			}
		}
		if err := im.link(`INSERT INTO project_admins (project_id, user_id) VALUES ($1, $2)`, p.ID, p.AdminIDs, "import project %s admin %s: %w"); err != nil {
			return err
		}
		if err := im.badgeToken(p); err != nil {
			return err
		}
		if err := im.qualityGate(p); err != nil {
			return err
		}
	}
	return nil
}

func (im importer) uploadTokens(doc *dataset.Document) error {
	for _, t := range doc.UploadTokens {
		if err := im.exec(`INSERT INTO upload_tokens (id, project_id, name, hash, created_by, created_at, last_used_at, revoked_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, t.ID, t.ProjectID, t.Name, storedHash(t.Hash, t.Token), t.CreatedBy, unix(t.CreatedAt),
			nullUnix(t.LastUsedAt), nullUnix(t.RevokedAt)); err != nil {
			return fmt.Errorf("import upload token %s: %w", t.ID, err)
		}
	}
	return nil
}

func (im importer) applications(doc *dataset.Document) error {
	for _, a := range doc.Applications {
		if err := insertApplication(im.ctx, im.tx, plumb.Application{ID: a.ID, WorkspaceID: a.WorkspaceID, Name: a.Name,
			Description: a.Description, CreatedAt: a.CreatedAt}); err != nil {
			return fmt.Errorf("import application %s: %w", a.ID, err)
		}
		if err := im.link(`INSERT INTO application_projects (application_id, project_id) VALUES ($1, $2)`, a.ID, a.ProjectIDs,
			"import application %s project %s: %w"); err != nil {
			return err
		}
	}
	return nil
}

// snapshots adds the snapshots as an upload adds one, in document order, so
// that the current snapshot, the file versions and the totals are built as
// they were the first time.
func (im importer) snapshots(doc *dataset.Document) error {
	for i := range doc.Snapshots {
		s := &doc.Snapshots[i]
		if _, err := im.db.addSnapshot(im.ctx, im.tx, snapshotInput(s)); err != nil {
			return fmt.Errorf("import snapshot %s: %w", s.ID, err)
		}
	}
	return nil
}

// snapshotInput is a snapshot record as the store adds it, its issues'
// statuses kept.
func snapshotInput(s *dataset.Snapshot) plumb.SnapshotInput {
	in := plumb.SnapshotInput{ID: s.ID, ProjectID: s.ProjectID, Branch: s.Branch, CommitSHA: s.CommitSHA, AnalyzedAt: s.AnalyzedAt,
		Files: make([]plumb.FileFigures, len(s.Files)), Removed: s.Removed, FullTree: s.FullTree, KeepStatus: true, Issues: make([]plumb.Issue, len(s.Issues))}
	for j, f := range s.Files {
		in.Files[j] = plumb.FileFigures{Path: f.Path, Lines: f.Lines, LOC: f.LOC, Complexity: f.Complexity, DuplicatedLines: f.DuplicatedLines}
	}
	for j, is := range s.Issues {
		in.Issues[j] = plumb.Issue{ID: is.ID, ProjectID: s.ProjectID, SnapshotID: s.ID, Fingerprint: is.Fingerprint, Tool: is.Tool,
			RuleKey: is.RuleKey, Message: is.Message, Category: is.Category, Level: is.Level, Status: is.Status,
			DocumentationURL: is.DocumentationURL, Path: is.Path, StartLine: is.StartLine, EndLine: is.EndLine}
	}
	for _, c := range s.Clones {
		in.Clones = append(in.Clones, plumb.Clone{A: plumb.ClonePlace(c.A), B: plumb.ClonePlace(c.B), Lines: c.Lines})
	}
	return in
}

func (im importer) builds(doc *dataset.Document) error {
	for _, b := range doc.Builds {
		if err := insertBuild(im.ctx, im.tx, plumb.Build{ID: b.ID, ProjectID: b.ProjectID, Type: b.Type, Status: b.Status, BranchName: b.BranchName,
			CommitSHA: b.CommitSHA, CommitMessage: b.CommitMessage, SubmittedAt: b.SubmittedAt, StartedAt: b.StartedAt, FinishedAt: b.FinishedAt,
			StatusReason: b.StatusReason, Conclusion: b.Conclusion, ExitCode: b.ExitCode, Source: b.Source,
			PullRequestNumber: b.PullRequestNumber, CommitterLogin: b.CommitterLogin, SnapshotID: b.SnapshotID}); err != nil {
			return fmt.Errorf("import build %s: %w", b.ID, err)
		}
	}
	return nil
}

func (im importer) buildEvents(doc *dataset.Document) error {
	for _, e := range doc.BuildEvents {
		if err := im.exec(`INSERT INTO build_events (build_id, seq, status, reason, at) VALUES ($1, $2, $3, $4, $5)`,
			e.BuildID, e.Seq, e.Status, e.Reason, unix(e.At)); err != nil {
			return fmt.Errorf("import build %s event %d: %w", e.BuildID, e.Seq, err)
		}
	}
	return nil
}

// issueStates writes the document's states over those that adding the
// snapshots' issues recorded for each of their fingerprints: the document's
// are the final word.
func (im importer) issueStates(doc *dataset.Document) error {
	for _, st := range doc.IssueStates {
		if err := im.exec(`INSERT INTO issue_states (project_id, fingerprint, status) VALUES ($1, $2, $3)
			ON CONFLICT (project_id, fingerprint) DO UPDATE SET status = excluded.status`,
			st.ProjectID, st.Fingerprint, st.Status); err != nil {
			return fmt.Errorf("import issue state %s/%s: %w", st.ProjectID, st.Fingerprint, err)
		}
	}
	return nil
}

// coverage adds the coverage uploads as an upload adds one, in document
// order (an empty coverage tag is "default").
func (im importer) coverage(doc *dataset.Document) error {
	for i := range doc.Coverage {
		c := &doc.Coverage[i]
		in := plumb.CoverageInput{ID: c.ID, ProjectID: c.ProjectID, CommitSHA: c.CommitSHA, Branch: c.Branch, GitTag: c.GitTag,
			CoverageTag: c.CoverageTag, PullRequest: c.PullRequest, UploadedAt: c.UploadedAt, Files: make([]plumb.CoverageFile, len(c.Files))}
		if in.CoverageTag == "" {
			in.CoverageTag = "default"
		}
		for j, f := range c.Files {
			in.Files[j] = plumb.CoverageFile{Path: f.Path, Hits: f.Hits, Branches: f.Branches}
		}
		if err := im.db.addCoverage(im.ctx, im.tx, in); err != nil {
			return fmt.Errorf("import coverage upload %s: %w", c.ID, err)
		}
	}
	return nil
}

// components stores each component and matches it against the paths and
// snapshots already imported, as creating it would have.
func (im importer) components(doc *dataset.Document) error {
	for _, c := range doc.Components {
		comp := plumb.Component{ID: c.ID, ProjectID: c.ProjectID, Name: c.Name, Description: c.Description, PathGlobs: c.PathGlobs,
			CreatorID: c.CreatorID, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
		if err := insertComponent(im.ctx, im.tx, comp); err != nil {
			return fmt.Errorf("import component %s: %w", c.ID, err)
		}
		if err := backfillComponent(im.ctx, im.tx, comp); err != nil {
			return fmt.Errorf("import component %s: %w", c.ID, err)
		}
	}
	return nil
}

func (im importer) idempotencyKeys(doc *dataset.Document) error {
	for _, k := range doc.IdempotencyKeys {
		if err := im.exec(`INSERT INTO idempotency_keys (project_id, key, request_hash, body_hash, status, body, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			k.ProjectID, k.Key, k.RequestHash, k.BodyHash, k.Status, k.Body, unix(k.CreatedAt)); err != nil {
			return fmt.Errorf("import idempotency key %s/%q: %w", k.ProjectID, k.Key, err)
		}
	}
	return nil
}

// insertComponent stores a component's definition (the row CreateComponent
// writes; CreateComponent could share it).
func insertComponent(ctx context.Context, q querier, c plumb.Component) error {
	globs, err := json.Marshal(c.PathGlobs)
	if err != nil {
		return err
	}
	_, err = q.ExecContext(ctx, `INSERT INTO components (id, project_id, name, name_fold, description, path_globs, creator_id, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, c.ID, c.ProjectID, c.Name, fold(c.Name), c.Description, string(globs), c.CreatorID, unix(c.CreatedAt), unix(c.UpdatedAt))
	return err
}
