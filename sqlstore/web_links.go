package sqlstore

import (
	"context"
	"database/sql"
	"strconv"
	"strings"

	"github.com/plumbhq/plumb"
)

// PathsWithCoverage returns which of paths have coverage at the commit a
// reference resolves to (the web links an issue's location to the coverage
// viewer only then). A reference without coverage gives none, not an error.
func (db *DB) PathsWithCoverage(ctx context.Context, projectID, ref string, paths []string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(paths) == 0 {
		return out, nil
	}
	err := db.readTx(ctx, func(tx *sql.Tx) error {
		sha, err := resolveReference(ctx, tx, projectID, ref)
		if plumb.ErrorCode(err) == plumb.ENOTFOUND {
			return nil
		} else if err != nil {
			return err
		}
		args := []any{projectID, sha}
		marks := make([]string, 0, len(paths))
		for _, p := range paths {
			args = append(args, p)
			marks = append(marks, "$"+strconv.Itoa(len(args)))
		}
		return eachRecord(ctx, tx, `SELECT p.path FROM paths p WHERE p.project_id = $1 AND p.path IN (`+strings.Join(marks, ", ")+`)
			AND EXISTS (SELECT 1 FROM coverage_union u WHERE u.project_id = $1 AND u.commit_sha = $2 AND u.path_id = p.id)`, args, scanString,
			func(path string) error {
				out[path] = true
				return nil
			})
	})
	return out, err
}
