package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/plumbhq/plumb"
)

const issueColumns = `seq, id, fingerprint, tool, rule_key, message, category, level, status, documentation_url, path, start_line, end_line`

func scanIssue(s interface{ Scan(...any) error }) (int64, plumb.Issue, error) {
	var seq int64
	var is plumb.Issue
	var doc sql.NullString
	var start, end sql.NullInt64
	err := s.Scan(&seq, &is.ID, &is.Fingerprint, &is.Tool, &is.RuleKey, &is.Message, &is.Category, &is.Level, &is.Status, &doc, &is.Path, &start, &end)
	is.DocumentationURL = doc.String
	is.StartLine, is.EndLine = fromNullInt(start), fromNullInt(end)
	return seq, is, err
}

// EachIssue calls fn for the current issues of a project (those of its latest
// default-branch snapshot) that match the filter, in listing order.
//
// A page with a limit is served from the project's issue index (see
// issue_index.go), so a deep offset costs a scan of a few compact arrays, not
// of the table. Without a limit (an export) the rows stream straight from SQL.
func (db *DB) EachIssue(ctx context.Context, projectID string, f plumb.IssueFilter, fn func(plumb.Issue) error) error {
	return db.readTx(ctx, func(tx *sql.Tx) error {
		var snapshot sql.NullInt64
		var version int64
		if err := tx.QueryRowContext(ctx, `SELECT current_snapshot, issues_version FROM projects WHERE id = $1`, projectID).
			Scan(&snapshot, &version); err != nil {
			return err
		}
		if !snapshot.Valid {
			return nil
		}
		if f.Page.Limit <= 0 {
			if len(f.Tools) > 0 {
				// Tool names match case-insensitively with Unicode folding,
				// which SQL's lower() does not do: the index turns the
				// filter into the exact names present.
				idx, err := db.issueIndexes.get(ctx, tx, projectID, snapshot.Int64, version)
				if err != nil {
					return err
				}
				if f.Tools = idx.toolNames(f.Tools); len(f.Tools) == 0 {
					return nil
				}
			}
			return streamIssues(ctx, tx, db.d, snapshot.Int64, f, fn)
		}
		idx, err := db.issueIndexes.get(ctx, tx, projectID, snapshot.Int64, version)
		if err != nil {
			return err
		}
		seqs := idx.page(f)
		return fetchIssues(ctx, tx, seqs, fn)
	})
}

// streamIssues runs the filter as SQL and streams every matching row.
func streamIssues(ctx context.Context, tx *sql.Tx, d dialect, snapshot int64, f plumb.IssueFilter, fn func(plumb.Issue) error) error {
	// A snapshot's issues are inserted together, so their seqs (the table's
	// rowids) form one contiguous range: scanning that range reads the table
	// in order without an index lookup per row.
	var lo, hi sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT min(seq), max(seq) FROM issues WHERE snapshot_seq = $1`, snapshot).Scan(&lo, &hi); err != nil || !lo.Valid {
		return err
	}
	var where strings.Builder
	args := []any{snapshot, lo.Int64, hi.Int64}
	where.WriteString(`seq BETWEEN $2 AND $3 AND snapshot_seq = $1`)
	addIn := func(col string, vals []string) {
		if len(vals) == 0 {
			return
		}
		where.WriteString(" AND " + col + " IN (")
		for i, v := range vals {
			if i > 0 {
				where.WriteString(", ")
			}
			args = append(args, v)
			fmt.Fprintf(&where, "$%d", len(args))
		}
		where.WriteString(")")
	}
	addIn("category", f.Categories)
	addIn("level", f.Levels)
	addIn("status", f.Statuses)
	addIn("tool", f.Tools) // exact names (see EachIssue)
	q := fmt.Sprintf(`SELECT %s FROM issues WHERE %s ORDER BY seq LIMIT %s OFFSET %d`, issueColumns, where.String(), d.noLimit, f.Page.Offset)
	return eachRow(ctx, tx, q, args, func(rows *sql.Rows) error {
		_, is, err := scanIssue(rows)
		if err != nil {
			return err
		}
		return fn(is)
	})
}

// fetchIssues loads the issues with the given seqs and calls fn in seq order.
func fetchIssues(ctx context.Context, tx *sql.Tx, seqs []int64, fn func(plumb.Issue) error) error {
	if len(seqs) == 0 {
		return nil
	}
	var in strings.Builder
	for i, s := range seqs {
		if i > 0 {
			in.WriteByte(',')
		}
		fmt.Fprintf(&in, "%d", s)
	}
	bySeq := make(map[int64]plumb.Issue, len(seqs))
	err := eachRow(ctx, tx, `SELECT `+issueColumns+` FROM issues WHERE seq IN (`+in.String()+`)`, nil, func(rows *sql.Rows) error {
		seq, is, err := scanIssue(rows)
		if err == nil {
			bySeq[seq] = is
		}
		return err
	})
	if err != nil {
		return err
	}
	for _, s := range seqs {
		if is, ok := bySeq[s]; ok {
			if err := fn(is); err != nil {
				return err
			}
		}
	}
	return nil
}

// IssueCounts counts the project's current issues that pass the filter (its
// page is ignored) by category, level, status and tool.
func (db *DB) IssueCounts(ctx context.Context, projectID string, f plumb.IssueFilter) (plumb.IssueCounts, error) {
	c := plumb.NewIssueCounts()
	err := db.readTx(ctx, func(tx *sql.Tx) error {
		var snapshot sql.NullInt64
		var version int64
		if err := tx.QueryRowContext(ctx, `SELECT current_snapshot, issues_version FROM projects WHERE id = $1`, projectID).
			Scan(&snapshot, &version); err != nil || !snapshot.Valid {
			return err
		}
		idx, err := db.issueIndexes.get(ctx, tx, projectID, snapshot.Int64, version)
		if err != nil {
			return err
		}
		c = idx.counts(f)
		return nil
	})
	return c, err
}

// readIssueStates adds to states the fingerprint → status of the project's
// issue_states rows that match cond, whose parameters are args from $2 on.
func readIssueStates(ctx context.Context, q querier, states map[string]string, projectID, cond string, args ...any) error {
	return eachRow(ctx, q, `SELECT fingerprint, status FROM issue_states WHERE project_id = $1 AND `+cond,
		append([]any{projectID}, args...), func(rows *sql.Rows) error {
			var fp, st string
			if err := rows.Scan(&fp, &st); err != nil {
				return err
			}
			states[fp] = st
			return nil
		})
}
