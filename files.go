package plumb

import (
	"io"
	"time"
)

// What the web's file pages read (the file tree and a file's page): the
// commit a reference shows, each file's figures there, and a file's kept
// source.

// FilesAt is the commit a reference shows on the file pages, and what the
// store keeps of it.
type FilesAt struct {
	Ref        string // the reference asked for (refs/heads/…, refs/tags/…, refs/pull/N or a SHA)
	SHA        string // the commit it names
	SnapshotID string // the commit's latest analysis (snapshot); "" when it has none
	// Figures says where per-file figures come from: FiguresCurrent (the
	// project's current snapshot), FiguresHistory (a snapshot kept whole in
	// the metric history), or "" (only the default branch's are kept).
	Figures  string
	Coverage bool // whether the commit has coverage
	// Version changes whenever what the file pages read of the commit
	// does (a new analysis or coverage upload, an issue's status): a key
	// for what is made of it.
	Version string
}

// Where a FilesAt's per-file figures come from.
const (
	FiguresCurrent = "current"
	FiguresHistory = "history"
)

// TreeFile is one file's figures at a commit: its analysis figures (when
// Figures) and its coverage, the union of every coverage tag (when
// Coverage).
type TreeFile struct {
	Path                                                string
	Figures                                             bool
	Lines, LOC, Complexity, DuplicatedLines, OpenIssues int64
	Coverage                                            bool
	Covered, Missed                                     int64
}

// FileSource is what is kept of one file's text at a commit: its content
// when State is "ok", else why there is none (the states of package source:
// too_large, binary, absent, disabled).
type FileSource struct {
	State   string
	BlobID  string // an "ok" content's git blob id: the same id, the same text
	Origin  string // where an "ok" content came from (upload, github, gitlab…)
	Size    int64
	Content []byte
	// FetchedFrom and FetchedAt: this file at this commit was fetched from
	// the project's code host (github or gitlab) on a first view, at that
	// time; "" and zero for an upload.
	FetchedFrom string
	FetchedAt   time.Time
	// FetchFailure says, for an "absent" source, why fetching it from the
	// project's code host failed (a codehost.FetchReason: not_found,
	// rate_limited, unauthorized, too_large, mismatch, failed); "" when
	// no fetch was tried. FetchHost is the host (github or gitlab),
	// FetchRetry when a view tries again.
	FetchFailure string
	FetchHost    string
	FetchRetry   time.Time
}

// SourceWalk yields the files of one write of sources: it calls put once per
// file with its path and content, and returns put's first error (or its
// own). The content is read before put returns.
type SourceWalk func(put func(path string, content io.Reader) error) error

// SourcesDeleted counts what a deletion of sources removed.
type SourcesDeleted struct {
	Commits int64 // commits whose file states were removed
	Blobs   int64 // contents removed
}

// SourcesPut counts what one write of sources kept.
type SourcesPut struct {
	Files       int   // files whose state was written
	NewBlobs    int   // contents stored for the first time
	ReusedBlobs int   // contents already stored (the same blob id)
	TooLarge    int   // files over the per-file cap, marked so
	Binary      int   // binary files, marked so
	StoredBytes int64 // compressed bytes of the new contents
}
