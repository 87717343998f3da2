package sqlstore

import (
	"context"

	"github.com/plumbhq/plumb"
)

// FileCoverageHits is StoredFileCoverage in the root package's types, as the
// API's Store reads it: each coverage tag's hits of one file at a reference.
func (db *DB) FileCoverageHits(ctx context.Context, projectID, ref, path string) (tags []string, files []plumb.StoredFileCoverage, err error) {
	tags, stored, err := db.StoredFileCoverage(ctx, projectID, ref, path)
	if err != nil {
		return nil, nil, err
	}
	files = make([]plumb.StoredFileCoverage, len(stored))
	for i, f := range stored {
		files[i] = plumb.StoredFileCoverage{Tag: f.Tag, Path: f.Path, Hits: f.Hits}
	}
	return tags, files, nil
}
