package sqlstore

// Export and import of a whole dataset (see docs/dataset.md and package
// dataset). Export streams the document in its canonical order and layout,
// holding in memory only the small lists (users, tokens, workspaces,
// projects, upload tokens, applications, components) and one page of
// snapshot or coverage headers at a time; issues, files, builds, build
// events and idempotency keys stream row by row. Import validates the whole
// document first, then writes it in one transaction through the same insert
// paths as the live service, so every derived table (current snapshot, file
// versions, component totals, coverage unions and totals) is rebuilt exactly
// as it was built the first time.

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/dataset"
)

// exportPage is how many snapshot or coverage headers Export holds at once.
const exportPage = 256

// Export writes the whole dataset to w as one JSON document, in the
// canonical order and layout of docs/dataset.md. It reads one consistent
// state of the database and holds only small lists in memory, so a project
// with a million issues exports in bounded memory. Token secrets are never
// exported (they are not stored); tokens carry their hash.
func (db *DB) Export(ctx context.Context, w io.Writer) error {
	return db.readTx(ctx, func(tx *sql.Tx) error { return exportTx(ctx, tx, w) })
}

func exportTx(ctx context.Context, tx *sql.Tx, out io.Writer) error {
	doc, err := loadRecords(ctx, tx)
	if err != nil {
		return err
	}
	dataset.SortRecords(doc)
	w := dataset.NewWriter(out)
	elements := func(name string, n int, each func(i int)) {
		w.OpenList(name, true)
		for i := 0; i < n; i++ {
			each(i)
		}
		w.CloseList()
	}
	elements("users", len(doc.Users), func(i int) { w.Element(&doc.Users[i]) })
	elements("tokens", len(doc.Tokens), func(i int) { w.Element(&doc.Tokens[i]) })
	elements("workspaces", len(doc.Workspaces), func(i int) { w.Element(&doc.Workspaces[i]) })
	elements("projects", len(doc.Projects), func(i int) { w.Element(&doc.Projects[i]) })
	elements("uploadTokens", len(doc.UploadTokens), func(i int) { w.Element(&doc.UploadTokens[i]) })
	elements("applications", len(doc.Applications), func(i int) { w.Element(&doc.Applications[i]) })

	w.OpenList("builds", true)
	for _, p := range doc.Projects {
		if err := exportBuilds(ctx, tx, w, p.ID); err != nil {
			return err
		}
	}
	w.CloseList()

	// Build events in build order (as exportBuilds lists the builds), then seq.
	w.OpenList("buildEvents", true)
	for _, p := range doc.Projects {
		if err := writeRecords(ctx, tx, w, `SELECT e.build_id, e.seq, e.status, e.reason, e.at
			FROM build_events e JOIN builds b ON b.id = e.build_id
			WHERE b.project_id = $1 ORDER BY b.submitted_at, b.id, e.seq`, []any{p.ID}, scanBuildEventRecord); err != nil {
			return err
		}
	}
	w.CloseList()

	w.OpenList("snapshots", true)
	if err := exportSnapshots(ctx, tx, w); err != nil {
		return err
	}
	w.CloseList()

	w.OpenList("issueStates", true)
	for _, p := range doc.Projects {
		if err := eachRow(ctx, tx, `SELECT fingerprint, status FROM issue_states WHERE project_id = $1
			AND (origin_seq IS NULL OR origin_seq NOT IN (SELECT seq FROM snapshots WHERE project_id = $1 AND pending = 1)) ORDER BY fingerprint`,
			[]any{p.ID}, func(rows *sql.Rows) error {
				st := dataset.IssueState{ProjectID: p.ID}
				if err := rows.Scan(&st.Fingerprint, &st.Status); err != nil {
					return err
				}
				w.Element(&st)
				return w.Err()
			}); err != nil {
			return err
		}
	}
	w.CloseList()

	w.OpenList("coverage", true)
	if err := exportCoverage(ctx, tx, w); err != nil {
		return err
	}
	w.CloseList()

	elements("components", len(doc.Components), func(i int) { w.Element(&doc.Components[i]) })

	// Idempotency keys with their kept response. A key whose request is
	// still under way (status 0, no response yet) is left out: no request
	// is under way in the database an import fills, so a retry there must
	// run again, as it would had the request failed.
	w.OpenList("idempotencyKeys", true)
	for _, p := range doc.Projects {
		if err := writeRecords(ctx, tx, w, `SELECT project_id, key, request_hash, body_hash, status, body, created_at
			FROM idempotency_keys WHERE project_id = $1 AND status <> 0 ORDER BY key`, []any{p.ID}, scanIdempotencyKeyRecord); err != nil {
			return err
		}
	}
	w.CloseList()
	return w.Close()
}

// queryRecords runs a query and returns the record scan makes of each row.
func queryRecords[T any](ctx context.Context, q querier, query string, args []any, scan func(*sql.Rows) (T, error)) ([]T, error) {
	var out []T
	err := eachRow(ctx, q, query, args, func(rows *sql.Rows) error {
		v, err := scan(rows)
		if err != nil {
			return err
		}
		out = append(out, v)
		return nil
	})
	return out, err
}

// writeRecords runs a query and writes the record scan makes of each row as
// an element of w's current list, one row at a time.
func writeRecords[T any](ctx context.Context, q querier, w *dataset.Writer, query string, args []any, scan func(*sql.Rows) (T, error)) error {
	return eachRow(ctx, q, query, args, func(rows *sql.Rows) error {
		v, err := scan(rows)
		if err != nil {
			return err
		}
		w.Element(&v)
		return w.Err()
	})
}

func scanUploadTokenRecord(rows *sql.Rows) (dataset.UploadToken, error) {
	var t dataset.UploadToken
	var created int64
	var used, revoked sql.NullInt64
	if err := rows.Scan(&t.ID, &t.ProjectID, &t.Name, &t.Hash, &t.CreatedBy, &created, &used, &revoked); err != nil {
		return t, err
	}
	t.CreatedAt, t.LastUsedAt, t.RevokedAt = fromUnix(created), fromNullUnix(used), fromNullUnix(revoked)
	return t, nil
}

func scanBuildEventRecord(rows *sql.Rows) (dataset.BuildEvent, error) {
	var e dataset.BuildEvent
	var reason sql.NullString
	var at int64
	if err := rows.Scan(&e.BuildID, &e.Seq, &e.Status, &reason, &at); err != nil {
		return e, err
	}
	if reason.Valid {
		e.Reason = &reason.String
	}
	e.At = fromUnix(at)
	return e, nil
}

func scanIdempotencyKeyRecord(rows *sql.Rows) (dataset.IdempotencyKey, error) {
	var k dataset.IdempotencyKey
	var created int64
	if err := rows.Scan(&k.ProjectID, &k.Key, &k.RequestHash, &k.BodyHash, &k.Status, &k.Body, &created); err != nil {
		return k, err
	}
	k.CreatedAt = fromUnix(created)
	return k, nil
}

// eachRow runs a query and calls fn for each row; rows are closed before it
// returns, so the caller may run the next query on the same transaction.
func eachRow(ctx context.Context, q querier, query string, args []any, fn func(*sql.Rows) error) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// loadRecords reads the small lists: users, tokens, workspaces with members,
// projects with admins, upload tokens, applications with projects, and
// components.
func loadRecords(ctx context.Context, tx *sql.Tx) (*dataset.Document, error) {
	doc := &dataset.Document{}
	err := eachRow(ctx, tx, `SELECT id, login, name, email, avatar_url, provider_url, created_at, updated_at, disabled_at, password_hash FROM users`, nil, func(rows *sql.Rows) error {
		var u dataset.User
		var created, updated int64
		var disabled sql.NullInt64
		if err := rows.Scan(&u.ID, &u.Login, &u.Name, &u.Email, &u.AvatarURL, &u.ProviderURL, &created, &updated, &disabled, &u.PasswordHash); err != nil {
			return err
		}
		u.CreatedAt = fromUnix(created)
		u.UpdatedAt = fromUnix(max(updated, created))
		u.DisabledAt = fromNullUnix(disabled)
		doc.Users = append(doc.Users, u)
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = eachRow(ctx, tx, `SELECT id, user_id, name, hash, created_at, last_used_at, revoked_at FROM tokens`, nil, func(rows *sql.Rows) error {
		t, err := scanToken(rows)
		if err != nil {
			return err
		}
		doc.Tokens = append(doc.Tokens, dataset.Token{ID: t.ID, UserID: t.UserID, Name: t.Name, Hash: t.Hash,
			CreatedAt: t.CreatedAt, LastUsedAt: t.LastUsedAt, RevokedAt: t.RevokedAt})
		return nil
	})
	if err != nil {
		return nil, err
	}
	members := map[string][]dataset.Member{}
	err = eachRow(ctx, tx, `SELECT workspace_id, user_id, role FROM workspace_members`, nil, func(rows *sql.Rows) error {
		var ws string
		var m dataset.Member
		if err := rows.Scan(&ws, &m.UserID, &m.Role); err != nil {
			return err
		}
		members[ws] = append(members[ws], m)
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = eachRow(ctx, tx, `SELECT `+workspaceColumns+` FROM workspaces w`, nil, func(rows *sql.Rows) error {
		w, err := scanWorkspace(rows)
		if err != nil {
			return err
		}
		doc.Workspaces = append(doc.Workspaces, dataset.Workspace{ID: w.ID, Key: w.Key, AvatarURL: w.AvatarURL, ProviderURL: w.ProviderURL,
			ApplicationsEnabled: w.ApplicationsEnabled, CreatedAt: w.CreatedAt, UpdatedAt: w.UpdatedAt, Members: nonNil(members[w.ID])})
		return nil
	})
	if err != nil {
		return nil, err
	}
	admins, err := pairs(ctx, tx, `SELECT project_id, user_id FROM project_admins`)
	if err != nil {
		return nil, err
	}
	publicBadges, err := pairs(ctx, tx, `SELECT id, '' FROM projects WHERE badges_public = 1`)
	if err != nil {
		return nil, err
	}
	err = eachRow(ctx, tx, `SELECT `+projectColumns+` FROM projects p`, nil, func(rows *sql.Rows) error {
		p, err := scanProject(rows)
		if err != nil {
			return err
		}
		_, public := publicBadges[p.ID]
		doc.Projects = append(doc.Projects, dataset.Project{ID: p.ID, WorkspaceID: p.WorkspaceID, Key: p.Key, DefaultBranch: p.DefaultBranch,
			ComponentsEnabled: p.ComponentsEnabled, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt, AdminIDs: nonNil(admins[p.ID]), BadgesPublic: public})
		return nil
	})
	if err != nil {
		return nil, err
	}
	doc.UploadTokens, err = queryRecords(ctx, tx, `SELECT id, project_id, name, hash, created_by, created_at, last_used_at, revoked_at
		FROM upload_tokens`, nil, scanUploadTokenRecord)
	if err != nil {
		return nil, err
	}
	appProjects, err := pairs(ctx, tx, `SELECT application_id, project_id FROM application_projects`)
	if err != nil {
		return nil, err
	}
	err = eachRow(ctx, tx, `SELECT id, workspace_id, name, description, created_at FROM applications`, nil, func(rows *sql.Rows) error {
		var a dataset.Application
		var created int64
		if err := rows.Scan(&a.ID, &a.WorkspaceID, &a.Name, &a.Description, &created); err != nil {
			return err
		}
		a.CreatedAt = fromUnix(created)
		a.ProjectIDs = nonNil(appProjects[a.ID])
		doc.Applications = append(doc.Applications, a)
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = eachRow(ctx, tx, `SELECT `+componentColumns+` FROM components c`, nil, func(rows *sql.Rows) error {
		c, err := scanComponent(rows)
		if err != nil {
			return err
		}
		doc.Components = append(doc.Components, dataset.Component{ID: c.ID, ProjectID: c.ProjectID, Name: c.Name, Description: c.Description,
			PathGlobs: nonNil(c.PathGlobs), CreatorID: c.CreatorID, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt})
		return nil
	})
	return doc, err
}

// pairs reads a two-column link table into a map from the first column to
// the second.
func pairs(ctx context.Context, tx *sql.Tx, query string) (map[string][]string, error) {
	out := map[string][]string{}
	err := eachRow(ctx, tx, query, nil, func(rows *sql.Rows) error {
		var a, b string
		if err := rows.Scan(&a, &b); err != nil {
			return err
		}
		out[a] = append(out[a], b)
		return nil
	})
	return out, err
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func exportBuilds(ctx context.Context, tx *sql.Tx, w *dataset.Writer, projectID string) error {
	return eachRow(ctx, tx, `SELECT `+buildColumns+` FROM builds WHERE project_id = $1 ORDER BY submitted_at, id`,
		[]any{projectID}, func(rows *sql.Rows) error {
			b, err := scanBuild(rows)
			if err != nil {
				return err
			}
			w.Element(&dataset.Build{ID: b.ID, ProjectID: b.ProjectID, Type: b.Type, Status: b.Status, BranchName: b.BranchName,
				CommitSHA: b.CommitSHA, CommitMessage: b.CommitMessage, SubmittedAt: b.SubmittedAt, StartedAt: b.StartedAt,
				FinishedAt: b.FinishedAt, StatusReason: b.StatusReason, Conclusion: b.Conclusion, ExitCode: b.ExitCode, Source: b.Source,
				PullRequestNumber: b.PullRequestNumber, CommitterLogin: b.CommitterLogin, SnapshotID: b.SnapshotID})
			return w.Err()
		})
}

// exportSnapshots writes every snapshot in insertion (seq) order, a page of
// headers at a time, each followed by its files, removals and issues.
func exportSnapshots(ctx context.Context, tx *sql.Tx, w *dataset.Writer) error {
	type header struct {
		seq      int64
		head     dataset.SnapshotHead
		measured int
	}
	var after int64 = -1
	for {
		var page []header
		err := eachRow(ctx, tx, `SELECT seq, id, project_id, branch, commit_sha, analyzed_at, measured FROM snapshots
			WHERE seq > $1 AND pending = 0 ORDER BY seq LIMIT $2`, []any{after, exportPage}, func(rows *sql.Rows) error {
			var h header
			var at int64
			if err := rows.Scan(&h.seq, &h.head.ID, &h.head.ProjectID, &h.head.Branch, &h.head.CommitSHA, &at, &h.measured); err != nil {
				return err
			}
			h.head.AnalyzedAt = fromUnix(at)
			h.head.FullTree = h.measured == measuredHistory
			page = append(page, h)
			return nil
		})
		if err != nil {
			return err
		}
		if len(page) == 0 {
			return nil
		}
		for _, h := range page {
			w.OpenRecord(h.head)
			w.OpenList("files", true)
			switch h.measured {
			case 1:
				if err := exportSnapshotFiles(ctx, tx, w, h.seq); err != nil {
					return err
				}
			case measuredHistory:
				if err := exportHistoryFiles(ctx, tx, w, h.seq); err != nil {
					return err
				}
			}
			w.CloseList()
			w.OpenList("removed", false)
			if h.measured == 1 {
				err := eachRow(ctx, tx, `SELECT p.path FROM file_versions v JOIN paths p ON p.id = v.path_id
					WHERE v.since_seq = $1 AND v.deleted = 1 ORDER BY p.path`, []any{h.seq}, func(rows *sql.Rows) error {
					var p string
					if err := rows.Scan(&p); err != nil {
						return err
					}
					w.Element(p)
					return w.Err()
				})
				if err != nil {
					return err
				}
			}
			w.CloseList()
			w.OpenList("issues", true)
			err := eachRow(ctx, tx, `SELECT `+issueColumns+` FROM issues WHERE snapshot_seq = $1 ORDER BY seq`, []any{h.seq},
				func(rows *sql.Rows) error {
					_, is, err := scanIssue(rows)
					if err != nil {
						return err
					}
					w.Element(&dataset.Issue{ID: is.ID, Fingerprint: is.Fingerprint, Tool: is.Tool, RuleKey: is.RuleKey, Message: is.Message,
						Category: is.Category, Level: is.Level, Status: is.Status, DocumentationURL: is.DocumentationURL, Path: is.Path,
						StartLine: is.StartLine, EndLine: is.EndLine})
					return w.Err()
				})
			if err != nil {
				return err
			}
			w.CloseList()
			w.CloseRecord()
			if err := w.Err(); err != nil {
				return err
			}
		}
		after = page[len(page)-1].seq
	}
}

// exportHistoryFiles writes the whole tree kept for a snapshot that entered
// the history after a newer one.
func exportHistoryFiles(ctx context.Context, tx *sql.Tx, w *dataset.Writer, seq int64) error {
	return eachRow(ctx, tx, `SELECT p.path, f.lines, f.loc, f.complexity, f.duplicated_lines FROM snapshot_files f
		JOIN paths p ON p.id = f.path_id WHERE f.snapshot_seq = $1 ORDER BY p.path`, []any{seq}, func(rows *sql.Rows) error {
		var f dataset.File
		if err := rows.Scan(&f.Path, &f.Lines, &f.LOC, &f.Complexity, &f.DuplicatedLines); err != nil {
			return err
		}
		w.Element(&f)
		return w.Err()
	})
}

// exportSnapshotFiles writes the files of a measured snapshot whose base
// figures (lines, loc, complexity, duplicated lines) differ from the path's
// previous version, or that are new. A file_versions row whose only change
// is in the issue figures is left out: an import recomputes those from the
// snapshot's issues and writes the same row again.
func exportSnapshotFiles(ctx context.Context, tx *sql.Tx, w *dataset.Writer, seq int64) error {
	return eachRow(ctx, tx, `SELECT p.path, v.lines, v.loc, v.complexity, v.duplicated_lines,
			pv.deleted, pv.lines, pv.loc, pv.complexity, pv.duplicated_lines
		FROM file_versions v JOIN paths p ON p.id = v.path_id
		LEFT JOIN file_versions pv ON pv.path_id = v.path_id AND pv.since_seq =
			(SELECT max(x.since_seq) FROM file_versions x WHERE x.path_id = v.path_id AND x.since_seq < v.since_seq)
		WHERE v.since_seq = $1 AND v.deleted = 0 ORDER BY p.path`, []any{seq}, func(rows *sql.Rows) error {
		var f dataset.File
		var pdel, plines, ploc, pcx, pdup sql.NullInt64
		if err := rows.Scan(&f.Path, &f.Lines, &f.LOC, &f.Complexity, &f.DuplicatedLines, &pdel, &plines, &ploc, &pcx, &pdup); err != nil {
			return err
		}
		if pdel.Valid && pdel.Int64 == 0 && plines.Int64 == f.Lines && ploc.Int64 == f.LOC && pcx.Int64 == f.Complexity && pdup.Int64 == f.DuplicatedLines {
			return nil
		}
		w.Element(&f)
		return w.Err()
	})
}

// exportCoverage writes every coverage upload in insertion (seq) order. The
// store keeps hits merged per (commit, coverage tag, file), not per upload,
// so the merged hits go with the first upload of each (commit, coverage tag)
// and its later uploads carry no files; an import merges them back to the
// same rows.
func exportCoverage(ctx context.Context, tx *sql.Tx, w *dataset.Writer) error {
	type header struct {
		seq   int64
		head  dataset.CoverageHead
		first bool
	}
	var after int64 = -1
	for {
		var page []header
		err := eachRow(ctx, tx, `SELECT u.seq, u.id, u.project_id, u.commit_sha, u.branch, u.git_tag, u.coverage_tag, coalesce(u.pull_request_number, 0), u.uploaded_at,
				NOT EXISTS (SELECT 1 FROM coverage_uploads x WHERE x.pending = 0 AND x.project_id = u.project_id AND x.commit_sha = u.commit_sha
					AND x.coverage_tag = u.coverage_tag AND x.seq < u.seq)
			FROM coverage_uploads u WHERE u.seq > $1 AND u.pending = 0 ORDER BY u.seq LIMIT $2`, []any{after, exportPage}, func(rows *sql.Rows) error {
			var h header
			var at int64
			if err := rows.Scan(&h.seq, &h.head.ID, &h.head.ProjectID, &h.head.CommitSHA, &h.head.Branch, &h.head.GitTag,
				&h.head.CoverageTag, &h.head.PullRequest, &at, &h.first); err != nil {
				return err
			}
			h.head.UploadedAt = fromUnix(at)
			page = append(page, h)
			return nil
		})
		if err != nil {
			return err
		}
		if len(page) == 0 {
			return nil
		}
		for _, h := range page {
			w.OpenRecord(h.head)
			w.OpenList("files", true)
			if h.first {
				err := eachRow(ctx, tx, `SELECT p.path, f.hits FROM coverage_files f JOIN paths p ON p.id = f.path_id
					WHERE f.project_id = $1 AND f.commit_sha = $2 AND f.coverage_tag = $3 ORDER BY p.path`,
					[]any{h.head.ProjectID, h.head.CommitSHA, h.head.CoverageTag}, func(rows *sql.Rows) error {
						var f dataset.CoverageFile
						var blob []byte
						if err := rows.Scan(&f.Path, &blob); err != nil {
							return err
						}
						hits, err := decodeHits(blob)
						if err != nil {
							return err
						}
						f.Hits = hits
						w.Element(&f)
						return w.Err()
					})
				if err != nil {
					return err
				}
			}
			w.CloseList()
			w.CloseRecord()
			if err := w.Err(); err != nil {
				return err
			}
		}
		after = page[len(page)-1].seq
	}
}

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
	exec := func(query string, args ...any) error {
		_, err := tx.ExecContext(ctx, query, args...)
		return err
	}
	for _, u := range doc.Users {
		updated := u.UpdatedAt
		if updated.IsZero() {
			updated = u.CreatedAt
		}
		if err := exec(`INSERT INTO users (id, login, name, email, avatar_url, provider_url, created_at, updated_at, disabled_at, password_hash)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
			u.ID, u.Login, u.Name, u.Email, u.AvatarURL, u.ProviderURL, unix(u.CreatedAt), unix(updated), nullUnix(u.DisabledAt), u.PasswordHash); err != nil {
			return fmt.Errorf("import user %s: %w", u.ID, err)
		}
	}
	for _, t := range doc.Tokens {
		hash := t.Hash
		if t.Token != "" {
			hash = HashToken(t.Token)
		}
		if err := exec(`INSERT INTO tokens (id, user_id, name, hash, created_at, last_used_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			t.ID, t.UserID, t.Name, hash, unix(t.CreatedAt), nullUnix(t.LastUsedAt), nullUnix(t.RevokedAt)); err != nil {
			return fmt.Errorf("import token %s: %w", t.ID, err)
		}
	}
	for _, w := range doc.Workspaces {
		if err := insertWorkspace(ctx, tx, plumb.Workspace{ID: w.ID, Key: w.Key, AvatarURL: w.AvatarURL, ProviderURL: w.ProviderURL,
			ApplicationsEnabled: w.ApplicationsEnabled, CreatedAt: w.CreatedAt, UpdatedAt: w.UpdatedAt}); err != nil {
			return fmt.Errorf("import workspace %s: %w", w.ID, err)
		}
		for _, m := range w.Members {
			if err := exec(`INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, $3)`, w.ID, m.UserID, m.Role); err != nil {
				return fmt.Errorf("import workspace %s member %s: %w", w.ID, m.UserID, err)
			}
		}
	}
	for _, p := range doc.Projects {
		if err := insertProject(ctx, tx, plumb.Project{ID: p.ID, WorkspaceID: p.WorkspaceID, Key: p.Key, DefaultBranch: p.DefaultBranch,
			ComponentsEnabled: p.ComponentsEnabled, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt}); err != nil {
			return fmt.Errorf("import project %s: %w", p.ID, err)
		}
		if p.BadgesPublic {
			if err := exec(`UPDATE projects SET badges_public = 1 WHERE id = $1`, p.ID); err != nil {
				return fmt.Errorf("import project %s: %w", p.ID, err)
			}
		}
		for _, u := range p.AdminIDs {
			if err := exec(`INSERT INTO project_admins (project_id, user_id) VALUES ($1, $2)`, p.ID, u); err != nil {
				return fmt.Errorf("import project %s admin %s: %w", p.ID, u, err)
			}
		}
	}
	for _, t := range doc.UploadTokens {
		hash := t.Hash
		if t.Token != "" {
			hash = HashToken(t.Token)
		}
		if err := exec(`INSERT INTO upload_tokens (id, project_id, name, hash, created_by, created_at, last_used_at, revoked_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, t.ID, t.ProjectID, t.Name, hash, t.CreatedBy, unix(t.CreatedAt),
			nullUnix(t.LastUsedAt), nullUnix(t.RevokedAt)); err != nil {
			return fmt.Errorf("import upload token %s: %w", t.ID, err)
		}
	}
	for _, a := range doc.Applications {
		if err := insertApplication(ctx, tx, plumb.Application{ID: a.ID, WorkspaceID: a.WorkspaceID, Name: a.Name,
			Description: a.Description, CreatedAt: a.CreatedAt}); err != nil {
			return fmt.Errorf("import application %s: %w", a.ID, err)
		}
		for _, p := range a.ProjectIDs {
			if err := exec(`INSERT INTO application_projects (application_id, project_id) VALUES ($1, $2)`, a.ID, p); err != nil {
				return fmt.Errorf("import application %s project %s: %w", a.ID, p, err)
			}
		}
	}
	for i := range doc.Snapshots {
		s := &doc.Snapshots[i]
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
		if _, err := db.addSnapshot(ctx, tx, in); err != nil {
			return fmt.Errorf("import snapshot %s: %w", s.ID, err)
		}
	}
	for _, b := range doc.Builds {
		if err := insertBuild(ctx, tx, plumb.Build{ID: b.ID, ProjectID: b.ProjectID, Type: b.Type, Status: b.Status, BranchName: b.BranchName,
			CommitSHA: b.CommitSHA, CommitMessage: b.CommitMessage, SubmittedAt: b.SubmittedAt, StartedAt: b.StartedAt, FinishedAt: b.FinishedAt,
			StatusReason: b.StatusReason, Conclusion: b.Conclusion, ExitCode: b.ExitCode, Source: b.Source,
			PullRequestNumber: b.PullRequestNumber, CommitterLogin: b.CommitterLogin, SnapshotID: b.SnapshotID}); err != nil {
			return fmt.Errorf("import build %s: %w", b.ID, err)
		}
	}
	for _, e := range doc.BuildEvents {
		if err := exec(`INSERT INTO build_events (build_id, seq, status, reason, at) VALUES ($1, $2, $3, $4, $5)`,
			e.BuildID, e.Seq, e.Status, e.Reason, unix(e.At)); err != nil {
			return fmt.Errorf("import build %s event %d: %w", e.BuildID, e.Seq, err)
		}
	}
	for _, st := range doc.IssueStates {
		// Importing the snapshots' issues recorded a state for each of their
		// fingerprints; the document's states are the final word.
		if err := exec(`INSERT INTO issue_states (project_id, fingerprint, status) VALUES ($1, $2, $3)
			ON CONFLICT (project_id, fingerprint) DO UPDATE SET status = excluded.status`,
			st.ProjectID, st.Fingerprint, st.Status); err != nil {
			return fmt.Errorf("import issue state %s/%s: %w", st.ProjectID, st.Fingerprint, err)
		}
	}
	for i := range doc.Coverage {
		c := &doc.Coverage[i]
		in := plumb.CoverageInput{ID: c.ID, ProjectID: c.ProjectID, CommitSHA: c.CommitSHA, Branch: c.Branch, GitTag: c.GitTag,
			CoverageTag: c.CoverageTag, PullRequest: c.PullRequest, UploadedAt: c.UploadedAt, Files: make([]plumb.CoverageFile, len(c.Files))}
		if in.CoverageTag == "" {
			in.CoverageTag = "default"
		}
		for j, f := range c.Files {
			in.Files[j] = plumb.CoverageFile{Path: f.Path, Hits: f.Hits}
		}
		if err := db.addCoverage(ctx, tx, in); err != nil {
			return fmt.Errorf("import coverage upload %s: %w", c.ID, err)
		}
	}
	for _, c := range doc.Components {
		comp := plumb.Component{ID: c.ID, ProjectID: c.ProjectID, Name: c.Name, Description: c.Description, PathGlobs: c.PathGlobs,
			CreatorID: c.CreatorID, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
		if err := insertComponent(ctx, tx, comp); err != nil {
			return fmt.Errorf("import component %s: %w", c.ID, err)
		}
		if err := backfillComponent(ctx, tx, comp); err != nil {
			return fmt.Errorf("import component %s: %w", c.ID, err)
		}
	}
	for _, k := range doc.IdempotencyKeys {
		if err := exec(`INSERT INTO idempotency_keys (project_id, key, request_hash, body_hash, status, body, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
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
