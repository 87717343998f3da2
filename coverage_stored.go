package plumb

import "io"

// StoredHits are one file's line hits in the form the store keeps them:
// counted and written as JSON without being decoded into memory first.
type StoredHits interface {
	Counts() (HitCounts, error)
	WriteJSON(w io.Writer) error
}

// StoredFileCoverage is one coverage tag's hits of one file at a commit.
type StoredFileCoverage struct {
	Tag  string
	Path string
	Hits StoredHits
}
