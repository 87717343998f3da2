package sqlstore

// Export of a whole dataset (docs/dataset.md, package dataset). Export
// streams the document in its canonical order and layout, holding in memory
// only the small lists (users, tokens, workspaces, projects, upload tokens,
// applications, components) and one page of snapshot or coverage headers at
// a time; issues, files, builds, build events, issue states and idempotency
// keys stream row by row.

import (
	"context"
	"database/sql"
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
	return db.ExportWith(ctx, w, ExportOptions{})
}

// ExportOptions tunes an export.
type ExportOptions struct {
	// WithoutSource leaves the sources out (a smaller backup; docs/sources.md).
	WithoutSource bool
}

// ExportWith is Export with options.
func (db *DB) ExportWith(ctx context.Context, w io.Writer, opt ExportOptions) error {
	return db.readTx(ctx, func(tx *sql.Tx) error { return exportTx(ctx, tx, w, opt) })
}

func exportTx(ctx context.Context, tx *sql.Tx, out io.Writer, opt ExportOptions) error {
	doc, err := loadRecords(ctx, tx)
	if err != nil {
		return err
	}
	dataset.SortRecords(doc)
	w := dataset.NewWriter(out)
	lists := []struct {
		name  string
		write func() error
	}{
		{"users", elements(w, doc.Users)},
		{"tokens", elements(w, doc.Tokens)},
		{"workspaces", elements(w, doc.Workspaces)},
		{"projects", elements(w, doc.Projects)},
		{"uploadTokens", elements(w, doc.UploadTokens)},
		{"applications", elements(w, doc.Applications)},
		{"builds", projectRecords(ctx, tx, w, doc.Projects, `SELECT `+buildColumns+` FROM builds WHERE project_id = $1 ORDER BY submitted_at, id`,
			scanBuildRecord)},
		// In build order (as the builds are listed), then seq.
		{"buildEvents", projectRecords(ctx, tx, w, doc.Projects, `SELECT e.build_id, e.seq, e.status, e.reason, e.at
			FROM build_events e JOIN builds b ON b.id = e.build_id
			WHERE b.project_id = $1 ORDER BY b.submitted_at, b.id, e.seq`, scanBuildEventRecord)},
		{"snapshots", func() error { return exportSnapshots(ctx, tx, w) }},
		// The states of fingerprints, less those a pending (unpublished)
		// snapshot brought.
		{"issueStates", projectRecords(ctx, tx, w, doc.Projects, `SELECT project_id, fingerprint, status FROM issue_states WHERE project_id = $1
			AND (origin_seq IS NULL OR origin_seq NOT IN (SELECT seq FROM snapshots WHERE project_id = $1 AND pending = 1)) ORDER BY fingerprint`,
			scanIssueStateRecord)},
		{"coverage", func() error { return exportCoverage(ctx, tx, w) }},
		{"components", elements(w, doc.Components)},
		// Idempotency keys with their kept response. A key whose request is
		// still under way (status 0, no response yet) is left out: no
		// request is under way in the database an import fills, so a retry
		// there must run again, as it would had the request failed.
		{"idempotencyKeys", projectRecords(ctx, tx, w, doc.Projects, `SELECT project_id, key, request_hash, body_hash, status, body, created_at
			FROM idempotency_keys WHERE project_id = $1 AND status <> 0 ORDER BY key`, scanIdempotencyKeyRecord)},
	}
	for _, l := range lists {
		w.OpenList(l.name, true)
		if err := l.write(); err != nil {
			return err
		}
		w.CloseList()
	}
	if !opt.WithoutSource {
		if err := exportSources(ctx, tx, w, doc.Projects); err != nil {
			return err
		}
	}
	return w.Close()
}

// elements returns a writer of records held in memory, as elements of w's
// current list.
func elements[T any](w *dataset.Writer, records []T) func() error {
	return func() error {
		for i := range records {
			w.Element(&records[i])
		}
		return w.Err()
	}
}

// projectRecords returns a writer of the records query gives for each
// project in turn ($1 is the project's id), as elements of w's current list.
func projectRecords[T any](ctx context.Context, tx *sql.Tx, w *dataset.Writer, projects []dataset.Project, query string,
	scan func(scanner) (T, error)) func() error {
	return func() error {
		for _, p := range projects {
			if err := writeRecords(ctx, tx, w, query, []any{p.ID}, scan); err != nil {
				return err
			}
		}
		return nil
	}
}

// writeRecords runs a query and writes the record scan makes of each row as
// an element of w's current list, one row at a time.
func writeRecords[T any](ctx context.Context, q querier, w *dataset.Writer, query string, args []any, scan func(scanner) (T, error)) error {
	return eachRecord(ctx, q, query, args, scan, func(v T) error {
		w.Element(&v)
		return w.Err()
	})
}

// inPages reads the rows of query a page of exportPage rows at a time ($1 is
// the seq after which a page starts, $2 the page size) and calls each for
// every row. A page's rows are closed before each runs, so each may query
// the same transaction.
func inPages[T any](ctx context.Context, tx *sql.Tx, query string, scan func(scanner) (T, error), seq func(T) int64, each func(T) error) error {
	var after int64 = -1
	for {
		page, err := queryRecords(ctx, tx, query, []any{after, exportPage}, scan)
		if err != nil || len(page) == 0 {
			return err
		}
		for _, r := range page {
			if err := each(r); err != nil {
				return err
			}
		}
		after = seq(page[len(page)-1])
	}
}

// loader reads the records of one export's small lists, keeping the first
// error: after one, it reads nothing more.
type loader struct {
	ctx context.Context
	tx  *sql.Tx
	err error
}

// load returns the records query gives, or nil once l has failed.
func load[T any](l *loader, query string, scan func(scanner) (T, error)) []T {
	if l.err != nil {
		return nil
	}
	var out []T
	out, l.err = queryRecords(l.ctx, l.tx, query, nil, scan)
	return out
}

// loadGroups returns the values query gives, grouped by their key, or nil
// once l has failed.
func loadGroups[T any](l *loader, query string, scan func(scanner) (string, T, error)) map[string][]T {
	if l.err != nil {
		return nil
	}
	var out map[string][]T
	out, l.err = queryGroups(l.ctx, l.tx, query, nil, scan)
	return out
}

// loadByKey returns the value query gives for each key, for a table with
// one row per key (a project's badge token, its quality gate), or nil once
// l has failed.
func loadByKey[T any](l *loader, query string, scan func(scanner) (string, T, error)) map[string]*T {
	groups := loadGroups(l, query, scan)
	out := make(map[string]*T, len(groups))
	for key, vs := range groups {
		out[key] = &vs[0]
	}
	return out
}

// loadRecords reads the small lists: users, tokens, workspaces with members,
// projects with admins, upload tokens, applications with projects, and
// components.
func loadRecords(ctx context.Context, tx *sql.Tx) (*dataset.Document, error) {
	l := &loader{ctx: ctx, tx: tx}
	doc := &dataset.Document{}
	doc.Users = load(l, `SELECT id, login, name, email, avatar_url, provider_url, created_at, updated_at, disabled_at, password_hash FROM users`,
		scanUserRecord)
	doc.Tokens = load(l, `SELECT id, user_id, name, hash, created_at, last_used_at, revoked_at FROM tokens`, scanTokenRecord)
	members := loadGroups(l, `SELECT workspace_id, user_id, role FROM workspace_members`, func(rows scanner) (string, dataset.Member, error) {
		var ws string
		var m dataset.Member
		err := rows.Scan(&ws, &m.UserID, &m.Role)
		return ws, m, err
	})
	doc.Workspaces = load(l, `SELECT `+workspaceColumns+` FROM workspaces w`, func(rows scanner) (dataset.Workspace, error) {
		w, err := scanWorkspace(rows)
		return dataset.Workspace{ID: w.ID, Key: w.Key, AvatarURL: w.AvatarURL, ProviderURL: w.ProviderURL,
			ApplicationsEnabled: w.ApplicationsEnabled, CreatedAt: w.CreatedAt, UpdatedAt: w.UpdatedAt, Members: nonNil(members[w.ID])}, err
	})
	admins := loadGroups(l, `SELECT project_id, user_id FROM project_admins`, scanPair)
	publicBadges := loadGroups(l, `SELECT id, '' FROM projects WHERE badges_public = 1`, scanPair)
	noSources := loadGroups(l, `SELECT id, '' FROM projects WHERE sources_disabled = 1`, scanPair)
	badgeTokens := loadBadgeTokens(l)
	gates := loadQualityGates(l)
	doc.Projects = load(l, `SELECT `+projectColumns+` FROM projects p`, func(rows scanner) (dataset.Project, error) {
		p, err := scanProject(rows)
		_, public := publicBadges[p.ID]
		_, disabled := noSources[p.ID]
		return dataset.Project{ID: p.ID, WorkspaceID: p.WorkspaceID, Key: p.Key, DefaultBranch: p.DefaultBranch,
			ComponentsEnabled: p.ComponentsEnabled, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt, AdminIDs: nonNil(admins[p.ID]), BadgesPublic: public,
			SourcesDisabled: disabled, BadgeToken: badgeTokens[p.ID], QualityGate: gates[p.ID]}, err
	})
	doc.UploadTokens = load(l, `SELECT id, project_id, name, hash, created_by, created_at, last_used_at, revoked_at FROM upload_tokens`,
		scanUploadTokenRecord)
	appProjects := loadGroups(l, `SELECT application_id, project_id FROM application_projects`, scanPair)
	doc.Applications = load(l, `SELECT id, workspace_id, name, description, created_at FROM applications`, func(rows scanner) (dataset.Application, error) {
		a, err := scanApplicationRecord(rows)
		a.ProjectIDs = nonNil(appProjects[a.ID])
		return a, err
	})
	doc.Components = load(l, `SELECT `+componentColumns+` FROM components c`, scanComponentRecord)
	return doc, l.err
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func scanUserRecord(rows scanner) (dataset.User, error) {
	var u dataset.User
	var created, updated int64
	var disabled sql.NullInt64
	if err := rows.Scan(&u.ID, &u.Login, &u.Name, &u.Email, &u.AvatarURL, &u.ProviderURL, &created, &updated, &disabled, &u.PasswordHash); err != nil {
		return u, err
	}
	u.CreatedAt = fromUnix(created)
	u.UpdatedAt = fromUnix(max(updated, created))
	u.DisabledAt = fromNullUnix(disabled)
	return u, nil
}

func scanTokenRecord(rows scanner) (dataset.Token, error) {
	t, err := scanToken(rows)
	return dataset.Token{ID: t.ID, UserID: t.UserID, Name: t.Name, Hash: t.Hash, CreatedAt: t.CreatedAt, LastUsedAt: t.LastUsedAt, RevokedAt: t.RevokedAt}, err
}

func scanUploadTokenRecord(rows scanner) (dataset.UploadToken, error) {
	var t dataset.UploadToken
	var created int64
	var used, revoked sql.NullInt64
	if err := rows.Scan(&t.ID, &t.ProjectID, &t.Name, &t.Hash, &t.CreatedBy, &created, &used, &revoked); err != nil {
		return t, err
	}
	t.CreatedAt, t.LastUsedAt, t.RevokedAt = fromUnix(created), fromNullUnix(used), fromNullUnix(revoked)
	return t, nil
}

func scanApplicationRecord(rows scanner) (dataset.Application, error) {
	var a dataset.Application
	var created int64
	err := rows.Scan(&a.ID, &a.WorkspaceID, &a.Name, &a.Description, &created)
	a.CreatedAt = fromUnix(created)
	return a, err
}

func scanComponentRecord(rows scanner) (dataset.Component, error) {
	c, err := scanComponent(rows)
	return dataset.Component{ID: c.ID, ProjectID: c.ProjectID, Name: c.Name, Description: c.Description,
		PathGlobs: nonNil(c.PathGlobs), CreatorID: c.CreatorID, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}, err
}

func scanBuildRecord(rows scanner) (dataset.Build, error) {
	b, err := scanBuild(rows)
	return dataset.Build{ID: b.ID, ProjectID: b.ProjectID, Type: b.Type, Status: b.Status, BranchName: b.BranchName,
		CommitSHA: b.CommitSHA, CommitMessage: b.CommitMessage, SubmittedAt: b.SubmittedAt, StartedAt: b.StartedAt,
		FinishedAt: b.FinishedAt, StatusReason: b.StatusReason, Conclusion: b.Conclusion, ExitCode: b.ExitCode, Source: b.Source,
		PullRequestNumber: b.PullRequestNumber, CommitterLogin: b.CommitterLogin, SnapshotID: b.SnapshotID}, err
}

func scanBuildEventRecord(rows scanner) (dataset.BuildEvent, error) {
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

func scanIssueStateRecord(rows scanner) (dataset.IssueState, error) {
	var st dataset.IssueState
	err := rows.Scan(&st.ProjectID, &st.Fingerprint, &st.Status)
	return st, err
}

func scanIdempotencyKeyRecord(rows scanner) (dataset.IdempotencyKey, error) {
	var k dataset.IdempotencyKey
	var created int64
	if err := rows.Scan(&k.ProjectID, &k.Key, &k.RequestHash, &k.BodyHash, &k.Status, &k.Body, &created); err != nil {
		return k, err
	}
	k.CreatedAt = fromUnix(created)
	return k, nil
}

// snapshotHeader is a snapshot as Export pages through them.
type snapshotHeader struct {
	seq      int64
	head     dataset.SnapshotHead
	measured int
}

// exportSnapshots writes every published snapshot in insertion (seq) order,
// a page of headers at a time, each followed by its files, removals and
// issues.
func exportSnapshots(ctx context.Context, tx *sql.Tx, w *dataset.Writer) error {
	return inPages(ctx, tx, `SELECT seq, id, project_id, branch, commit_sha, analyzed_at, measured FROM snapshots
		WHERE seq > $1 AND pending = 0 ORDER BY seq LIMIT $2`, func(rows scanner) (snapshotHeader, error) {
		var h snapshotHeader
		var at int64
		err := rows.Scan(&h.seq, &h.head.ID, &h.head.ProjectID, &h.head.Branch, &h.head.CommitSHA, &at, &h.measured)
		h.head.AnalyzedAt = fromUnix(at)
		h.head.FullTree = h.measured == plumb.SnapshotHistory
		return h, err
	}, func(h snapshotHeader) int64 { return h.seq }, func(h snapshotHeader) error { return exportSnapshot(ctx, tx, w, h) })
}

// exportSnapshot writes one snapshot: a measured one (it became current)
// with the files it changed and the paths it removed, one in the history
// with its whole tree, any other with neither; each with its issues.
func exportSnapshot(ctx context.Context, tx *sql.Tx, w *dataset.Writer, h snapshotHeader) error {
	w.OpenRecord(h.head)
	none := func() error { return nil }
	files, removed := none, none
	switch h.measured {
	case plumb.SnapshotMeasured:
		files = func() error { return exportSnapshotFiles(ctx, tx, w, h.seq) }
		removed = func() error {
			return writeRecords(ctx, tx, w, `SELECT p.path FROM file_versions v JOIN paths p ON p.id = v.path_id
				WHERE v.since_seq = $1 AND v.deleted = 1 ORDER BY p.path`, []any{h.seq}, scanString)
		}
	case plumb.SnapshotHistory:
		files = func() error {
			return writeRecords(ctx, tx, w, `SELECT p.path, f.lines, f.loc, f.complexity, f.duplicated_lines FROM snapshot_files f
				JOIN paths p ON p.id = f.path_id WHERE f.snapshot_seq = $1 ORDER BY p.path`, []any{h.seq}, scanFileRecord)
		}
	}
	lists := []struct {
		name      string
		multiline bool
		write     func() error
	}{
		{"files", true, files},
		{"removed", false, removed},
		{"issues", true, func() error {
			return writeRecords(ctx, tx, w, `SELECT `+issueColumns+` FROM issues WHERE snapshot_seq = $1 ORDER BY seq`, []any{h.seq}, scanIssueRecord)
		}},
	}
	for _, l := range lists {
		w.OpenList(l.name, l.multiline)
		if err := l.write(); err != nil {
			return err
		}
		w.CloseList()
	}
	if err := exportClones(ctx, tx, w, h.seq); err != nil {
		return err
	}
	w.CloseRecord()
	return w.Err()
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

func scanFileRecord(rows scanner) (dataset.File, error) {
	var f dataset.File
	err := rows.Scan(&f.Path, &f.Lines, &f.LOC, &f.Complexity, &f.DuplicatedLines)
	return f, err
}

func scanIssueRecord(rows scanner) (dataset.Issue, error) {
	_, is, err := scanIssue(rows)
	return dataset.Issue{ID: is.ID, Fingerprint: is.Fingerprint, Tool: is.Tool, RuleKey: is.RuleKey, Message: is.Message,
		Category: is.Category, Level: is.Level, Status: is.Status, DocumentationURL: is.DocumentationURL, Path: is.Path,
		StartLine: is.StartLine, EndLine: is.EndLine}, err
}

// coverageHeader is a coverage upload as Export pages through them; first
// marks the first upload of its (commit, coverage tag).
type coverageHeader struct {
	seq   int64
	head  dataset.CoverageHead
	first bool
}

// exportCoverage writes every published coverage upload in insertion (seq)
// order. The store keeps hits merged per (commit, coverage tag, file), not
// per upload, so the merged hits go with the first upload of each (commit,
// coverage tag) and its later uploads carry no files; an import merges them
// back to the same rows.
func exportCoverage(ctx context.Context, tx *sql.Tx, w *dataset.Writer) error {
	return inPages(ctx, tx, `SELECT u.seq, u.id, u.project_id, u.commit_sha, u.branch, u.git_tag, u.coverage_tag, coalesce(u.pull_request_number, 0), u.uploaded_at,
			NOT EXISTS (SELECT 1 FROM coverage_uploads x WHERE x.pending = 0 AND x.project_id = u.project_id AND x.commit_sha = u.commit_sha
				AND x.coverage_tag = u.coverage_tag AND x.seq < u.seq)
		FROM coverage_uploads u WHERE u.seq > $1 AND u.pending = 0 ORDER BY u.seq LIMIT $2`, func(rows scanner) (coverageHeader, error) {
		var h coverageHeader
		var at int64
		err := rows.Scan(&h.seq, &h.head.ID, &h.head.ProjectID, &h.head.CommitSHA, &h.head.Branch, &h.head.GitTag,
			&h.head.CoverageTag, &h.head.PullRequest, &at, &h.first)
		h.head.UploadedAt = fromUnix(at)
		return h, err
	}, func(h coverageHeader) int64 { return h.seq }, func(h coverageHeader) error {
		w.OpenRecord(h.head)
		w.OpenList("files", true)
		if h.first {
			if err := writeRecords(ctx, tx, w, `SELECT p.path, f.hits, f.branches FROM coverage_files f JOIN paths p ON p.id = f.path_id
				WHERE f.project_id = $1 AND f.commit_sha = $2 AND f.coverage_tag = $3 ORDER BY p.path`,
				[]any{h.head.ProjectID, h.head.CommitSHA, h.head.CoverageTag}, scanCoverageFileRecord); err != nil {
				return err
			}
		}
		w.CloseList()
		w.CloseRecord()
		return w.Err()
	})
}

func scanCoverageFileRecord(rows scanner) (dataset.CoverageFile, error) {
	var f dataset.CoverageFile
	var blob, branches []byte
	if err := rows.Scan(&f.Path, &blob, &branches); err != nil {
		return f, err
	}
	hits, err := decodeHits(blob)
	f.Hits = hits
	if err != nil {
		return f, err
	}
	f.Branches, err = decodeBranches(branches)
	return f, err
}
