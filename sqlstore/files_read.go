package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/plumbhq/plumb"
)

// Reads of the web's file pages (web/files.go): the commit a reference
// shows, every file's figures there in one pass (the tree aggregates them),
// a file's issues and its kept source.

// FilesAt resolves a reference for the file pages. refs/heads/<branch> is the
// branch's latest analysis (the project's current snapshot for the default
// branch), else the commit of its latest coverage upload; refs/tags/… and
// refs/pull/N are the commit of their latest coverage upload; a SHA (or a
// unique prefix of 7 or more) is that commit, analysed or with coverage.
// A reference that names nothing the project has is ENOTFOUND.
func (db *DB) FilesAt(ctx context.Context, projectID, ref string) (plumb.FilesAt, error) {
	at := plumb.FilesAt{Ref: ref}
	err := db.readTx(ctx, func(tx *sql.Tx) error {
		var current sql.NullInt64
		var defaultBranch string
		err := tx.QueryRowContext(ctx, `SELECT current_snapshot, default_branch FROM projects WHERE id = $1`, projectID).Scan(&current, &defaultBranch)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound("No such project.")
		} else if err != nil {
			return err
		}
		var seq sql.NullInt64
		switch {
		case strings.HasPrefix(ref, "refs/heads/"):
			branch := strings.TrimPrefix(ref, "refs/heads/")
			if branch == defaultBranch && current.Valid {
				err = tx.QueryRowContext(ctx, `SELECT seq, commit_sha FROM snapshots WHERE seq = $1`, current.Int64).Scan(&seq, &at.SHA)
			} else {
				err = tx.QueryRowContext(ctx, `SELECT seq, commit_sha FROM snapshots WHERE project_id = $1 AND branch = $2 AND pending = 0
					ORDER BY analyzed_at DESC, seq DESC LIMIT 1`, projectID, branch).Scan(&seq, &at.SHA)
			}
			if errors.Is(err, sql.ErrNoRows) {
				err = nil
			}
		case !strings.HasPrefix(ref, "refs/"):
			prefix := strings.ToLower(ref)
			if len(prefix) < 7 || !shaPattern.MatchString(prefix) {
				return notFound(fmt.Sprintf("Reference %q is neither a branch, a tag, refs/pull/<number> nor a commit SHA.", ref))
			}
			var found []string
			found, err = queryRecords(ctx, tx, `SELECT DISTINCT commit_sha FROM snapshots WHERE project_id = $1 AND pending = 0 AND commit_sha >= $2 AND commit_sha < $3 LIMIT 2`,
				[]any{projectID, prefix, prefix + "~"}, scanString)
			if len(found) > 1 {
				return notFound(fmt.Sprintf("Commit prefix %q is ambiguous; give more characters of the SHA.", ref))
			} else if len(found) == 1 {
				at.SHA = found[0]
			}
		}
		if err != nil {
			return err
		}
		if at.SHA == "" {
			if at.SHA, err = resolveReference(ctx, tx, projectID, ref); err != nil {
				if plumb.ErrorCode(err) == plumb.ENOTFOUND {
					return notFound(fmt.Sprintf("Reference %q has neither an analysis nor coverage in this project.", ref))
				}
				return err
			}
		}
		if !seq.Valid {
			// The commit's latest snapshot, the current one first.
			err = tx.QueryRowContext(ctx, `SELECT seq FROM snapshots WHERE project_id = $1 AND commit_sha = $2 AND pending = 0
				ORDER BY CASE WHEN seq = $3 THEN 0 ELSE 1 END, analyzed_at DESC, seq DESC LIMIT 1`, projectID, at.SHA, current.Int64).Scan(&seq)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return err
			}
		}
		if seq.Valid {
			var kept int
			if err := tx.QueryRowContext(ctx, `SELECT s.id, CASE WHEN EXISTS (SELECT 1 FROM snapshot_files f WHERE f.snapshot_seq = s.seq) THEN 1 ELSE 0 END
				FROM snapshots s WHERE s.seq = $1`, seq.Int64).Scan(&at.SnapshotID, &kept); err != nil {
				return err
			}
			switch {
			case current.Valid && seq.Int64 == current.Int64:
				at.Figures = plumb.FiguresCurrent
			case kept > 0:
				at.Figures = plumb.FiguresHistory
			}
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT CASE WHEN EXISTS (SELECT 1 FROM coverage_union WHERE project_id = $1 AND commit_sha = $2) THEN 1 ELSE 0 END`, projectID, at.SHA).Scan(&n); err != nil {
			return err
		}
		at.Coverage = n > 0
		var lastUpload sql.NullInt64
		var issuesVersion int64
		if err := tx.QueryRowContext(ctx, `SELECT (SELECT max(seq) FROM coverage_uploads WHERE project_id = $1 AND commit_sha = $2 AND pending = 0),
			(SELECT issues_version FROM projects WHERE id = $1)`, projectID, at.SHA).Scan(&lastUpload, &issuesVersion); err != nil {
			return err
		}
		var components int64
		if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(updated_at), 0) FROM components WHERE project_id = $1`, projectID).Scan(&components); err != nil {
			return err
		}
		at.Version = fmt.Sprintf("%s/%d/%d/%d/%d", at.SHA, seq.Int64, lastUpload.Int64, issuesVersion, components)
		return nil
	})
	return at, err
}

// snapshotSeq is the seq of a project's snapshot by id.
func snapshotSeq(ctx context.Context, q querier, projectID, id string) (int64, error) {
	var seq int64
	err := q.QueryRowContext(ctx, `SELECT seq FROM snapshots WHERE id = $1 AND project_id = $2 AND pending = 0`, id, projectID).Scan(&seq)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, notFound("No such snapshot.")
	}
	return seq, err
}

// TreeFiles returns the figures of every file at at whose path starts with
// prefix ("" every file), of one component when componentID is set, in no
// particular order: one query per kind of figure (analysis, coverage, open
// issues when no figures are kept), however many directories the caller
// builds from them.
func (db *DB) TreeFiles(ctx context.Context, projectID string, at plumb.FilesAt, prefix, componentID string) ([]plumb.TreeFile, error) {
	return db.treeFiles(ctx, projectID, at, `substr(p.path, 1, length($2)) = $2`, prefix, componentID)
}

// FileFigures returns one file's figures at at (found false when the commit
// has neither figures, open issues nor coverage of it).
func (db *DB) FileFigures(ctx context.Context, projectID string, at plumb.FilesAt, path string) (f plumb.TreeFile, found bool, err error) {
	files, err := db.treeFiles(ctx, projectID, at, `p.path = $2`, path, "")
	if err != nil || len(files) == 0 {
		return plumb.TreeFile{Path: path}, false, err
	}
	return files[0], true, nil
}

// treeFiles reads the files whose path passes pathCond (on $2, pathArg).
func (db *DB) treeFiles(ctx context.Context, projectID string, at plumb.FilesAt, pathCond, pathArg, componentID string) ([]plumb.TreeFile, error) {
	var out []plumb.TreeFile
	err := db.readTx(ctx, func(tx *sql.Tx) error {
		byPath := map[string]int{}
		add := func(path string) *plumb.TreeFile {
			i, ok := byPath[path]
			if !ok {
				i = len(out)
				byPath[path] = i
				out = append(out, plumb.TreeFile{Path: path})
			}
			return &out[i]
		}
		where := `p.project_id = $1 AND ` + pathCond
		args := []any{projectID, pathArg}
		if componentID != "" {
			where += ` AND p.id IN (SELECT path_id FROM component_paths WHERE component_id = $3)`
			args = append(args, componentID)
		}
		figures := func(query string, extra ...any) error {
			return eachRow(ctx, tx, query, append(args[:len(args):len(args)], extra...), func(rows *sql.Rows) error {
				var id int64
				var path string
				var f plumb.TreeFile
				if err := rows.Scan(&id, &path, &f.Lines, &f.LOC, &f.Complexity, &f.DuplicatedLines, &f.OpenIssues); err != nil {
					return err
				}
				t := add(path)
				f.Path, f.Figures = path, true
				*t = f
				return nil
			})
		}
		const cols = `p.id, p.path, v.lines, v.loc, v.complexity, v.duplicated_lines, v.open_issues`
		var seq int64
		if at.SnapshotID != "" {
			var err error
			if seq, err = snapshotSeq(ctx, tx, projectID, at.SnapshotID); err != nil {
				return err
			}
		}
		switch at.Figures {
		case plumb.FiguresCurrent:
			if err := figures(`SELECT ` + cols + ` FROM paths p JOIN projects pr ON pr.id = p.project_id
				JOIN file_versions v ON v.path_id = p.id AND v.since_seq = ` + currentVersion + `
				WHERE ` + where + ` AND v.deleted = 0`); err != nil {
				return err
			}
		case plumb.FiguresHistory:
			if err := figures(`SELECT `+cols+` FROM snapshot_files v JOIN paths p ON p.id = v.path_id
				WHERE `+where+` AND v.snapshot_seq = $`+fmt.Sprint(len(args)+1), seq); err != nil {
				return err
			}
		}
		if at.SnapshotID != "" {
			// The open issues of files without figures (a SARIF log names
			// files the analysis did not measure, and a branch's analysis
			// keeps no figures) still count, by the issues' own paths.
			iwhere := strings.ReplaceAll(pathCond, "p.path", "i.path")
			if componentID != "" {
				iwhere += ` AND p.id IN (SELECT path_id FROM component_paths WHERE component_id = $3)`
			}
			err := eachRow(ctx, tx, `SELECT i.path, count(*) FROM issues i LEFT JOIN paths p ON p.project_id = $1 AND p.path = i.path
				WHERE `+iwhere+` AND i.snapshot_seq = $`+fmt.Sprint(len(args)+1)+` AND i.status = 'open' GROUP BY i.path`,
				append(args[:len(args):len(args)], seq), func(rows *sql.Rows) error {
					var n int64
					var path string
					if err := rows.Scan(&path, &n); err != nil {
						return err
					}
					if f := add(path); !f.Figures {
						f.OpenIssues = n
					}
					return nil
				})
			if err != nil {
				return err
			}
		}
		if !at.Coverage {
			return nil
		}
		return eachRow(ctx, tx, `SELECT p.id, p.path, u.covered, u.missed FROM coverage_union u JOIN paths p ON p.id = u.path_id
			WHERE `+where+` AND u.project_id = $1 AND u.commit_sha = $`+fmt.Sprint(len(args)+1), append(args[:len(args):len(args)], at.SHA),
			func(rows *sql.Rows) error {
				var id, covered, missed int64
				var path string
				if err := rows.Scan(&id, &path, &covered, &missed); err != nil {
					return err
				}
				t := add(path)
				t.Coverage, t.Covered, t.Missed = true, covered, missed
				return nil
			})
	})
	return out, err
}

// FileIssues returns every issue of a snapshot at path (open and ignored),
// in listing order.
func (db *DB) FileIssues(ctx context.Context, projectID, snapshotID, path string) ([]plumb.Issue, error) {
	var out []plumb.Issue
	err := db.readTx(ctx, func(tx *sql.Tx) error {
		seq, err := snapshotSeq(ctx, tx, projectID, snapshotID)
		if err != nil {
			return err
		}
		out, err = queryRecords(ctx, tx, `SELECT `+issueColumns+` FROM issues WHERE snapshot_seq = $1 AND path = $2 ORDER BY seq`,
			[]any{seq, path}, func(row scanner) (plumb.Issue, error) {
				_, is, err := scanIssue(row)
				is.ProjectID, is.SnapshotID = projectID, snapshotID
				return is, err
			})
		return err
	})
	return out, err
}

// FileSource is GetSource in the web's terms.
func (db *DB) FileSource(ctx context.Context, projectID, commit, path string) (plumb.FileSource, error) {
	s, err := db.GetSource(ctx, projectID, commit, path)
	return s.domain(), err
}

// FileSourceStates is SourceStates in the domain's type (the pull-request
// diff's sources without their content).
func (db *DB) FileSourceStates(ctx context.Context, projectID, commit string, paths []string) (map[string]plumb.FileSource, error) {
	states, err := db.SourceStates(ctx, projectID, commit, paths)
	out := make(map[string]plumb.FileSource, len(states))
	for p, s := range states {
		out[p] = s.domain()
	}
	return out, err
}

func (s Source) domain() plumb.FileSource {
	return plumb.FileSource{State: string(s.State), BlobID: s.BlobID, Origin: s.Origin, Size: s.Size, Content: s.Content, FetchedFrom: s.FetchedFrom, FetchedAt: s.FetchedAt}
}
