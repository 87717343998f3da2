package plumb

import (
	"time"

	"github.com/plumbhq/plumb/metric"
)

// Snapshot is one analysis of one commit on one branch at one time.
type Snapshot struct {
	ID         string
	ProjectID  string
	Branch     string
	CommitSHA  string
	AnalyzedAt time.Time
	// Measured is true when the snapshot became the project's current one
	// (it was the newest default-branch analysis when it arrived).
	Measured bool
	// History is true when the snapshot entered the default branch's metric
	// history: as the current snapshot, or, older than the current one, at
	// its own time.
	History bool
	// Kept and Replaced count, per tool, the issues of the commit's earlier
	// snapshot on the same branch that an analysis upload kept (its tools
	// were not in the upload) or replaced (the upload brought that tool's
	// own issues).
	Kept, Replaced map[string]int
}

// Where a snapshot stands in the metrics, as the snapshots table's
// measured column keeps it (an integer: these numbers are the schema's).
const (
	// SnapshotUnmeasured: not in the metrics (another branch than the
	// default one).
	SnapshotUnmeasured = 0
	// SnapshotMeasured: it became the project's current snapshot (Measured
	// and History).
	SnapshotMeasured = 1
	// SnapshotHistory: a default-branch snapshot that arrived after a newer
	// one: in the metric history at its own time, with its whole tree kept,
	// never current (History, not Measured).
	SnapshotHistory = 2
)

// Measurement is the snapshot's SnapshotUnmeasured, SnapshotMeasured or
// SnapshotHistory.
func (s *Snapshot) Measurement() int {
	switch {
	case s.Measured:
		return SnapshotMeasured
	case s.History:
		return SnapshotHistory
	}
	return SnapshotUnmeasured
}

// SetMeasurement sets Measured and History from a measurement.
func (s *Snapshot) SetMeasurement(m int64) {
	s.Measured, s.History = m == SnapshotMeasured, m != SnapshotUnmeasured
}

// FileFigures are one file's analysis figures as a tool reports them.
type FileFigures struct {
	Path            string
	Lines           int64 // physical lines
	LOC             int64 // lines of code (no blank or comment lines)
	Complexity      int64 // cognitive complexity
	DuplicatedLines int64
}

// SnapshotInput is a new snapshot with its files and issues.
type SnapshotInput struct {
	ID         string // optional; a new UUIDv7 when empty
	ProjectID  string
	Branch     string
	CommitSHA  string
	AnalyzedAt time.Time
	// Files are the files whose figures changed since the previous
	// default-branch snapshot; with FullTree they are every file and any file
	// not listed is removed.
	Files    []FileFigures
	Removed  []string
	FullTree bool
	// Issues in listing order. An issue's status is the one its fingerprint
	// already has in the project, else the status given, else open; with
	// KeepStatus (import) the given status is stored as is.
	Issues     []Issue
	KeepStatus bool
	// Clones are the analysis' duplicated blocks; each place must be within
	// a file of Files.
	Clones []Clone
	// FindingsOnly: the snapshot carries issues only (a SARIF upload), so
	// it is no analysis of its commit (AnalysedCommits leaves it out).
	FindingsOnly bool
}

// CoverageInput is one coverage report for one commit under one coverage tag.
type CoverageInput struct {
	ID          string // optional
	ProjectID   string
	CommitSHA   string
	Branch      string // branch the commit was on, if known
	GitTag      string // git tag pointing at the commit, if any
	CoverageTag string // e.g. "unit"; "default" when empty
	PullRequest int    // pull request number the upload was made for; 0 none
	UploadedAt  time.Time
	Files       []CoverageFile
}

// CoverageFile is one file's hits, in one of two forms:
//   - dense: Hits[i] is line i+1; -1 not coverable, 0 missed, n > 0 hit n
//     times;
//   - sparse, when Lines is not nil: the coverable lines in ascending order,
//     each once, and Total the file's number of lines (at least the last
//     one's); Hits is then nil.
//
// Parsers of formats that name lines one by one give the sparse form, so
// the memory a file takes follows the lines its report gives, not the
// highest line number it names.
//
// Branches are the branch figures of the lines a report gives them for
// (sparse in either form: ascending lines, each once; nil when none).
type CoverageFile struct {
	Path     string
	Hits     []int64
	Lines    []LineHit
	Total    int
	Branches []LineBranches
}

// LineHit is one coverable line of a file: its number (from 1) and its hit
// count (0: missed).
type LineHit struct {
	Line int
	Hits int64
}

// Sparse reports whether the file is in the sparse form.
func (f CoverageFile) Sparse() bool { return f.Lines != nil }

// NumLines is the file's number of lines.
func (f CoverageFile) NumLines() int {
	if f.Sparse() {
		return f.Total
	}
	return len(f.Hits)
}

// Coverable counts the entries the file holds: its coverable lines when
// sparse, every line when dense.
func (f CoverageFile) Coverable() int {
	if f.Sparse() {
		return len(f.Lines)
	}
	return len(f.Hits)
}

// Dense returns the file's hits in the dense form (a new slice when the
// file is sparse): NumLines entries.
func (f CoverageFile) Dense() []int64 {
	if !f.Sparse() {
		return f.Hits
	}
	out := make([]int64, f.Total)
	for i := range out {
		out[i] = -1
	}
	for _, l := range f.Lines {
		out[l.Line-1] = l.Hits
	}
	return out
}

// Component is a named set of path globs in a project.
type Component struct {
	ID          string
	ProjectID   string
	Name        string
	Description string
	PathGlobs   []string
	CreatorID   string
	CreatedAt   time.Time
	UpdatedAt   time.Time
	FileCount   int64
}

// TotalsAt is a component's or a project's totals at one measurement.
type TotalsAt struct {
	At     time.Time
	Totals metric.Totals
}

// SnapshotSpool holds a snapshot's records on their way to the store, which
// makes it (NewSnapshotSpool) and takes it back (AddAnalysis, AddFindings):
// records are checked as they are added and sorted on disk, so a report of
// any size costs a bounded amount of memory. Problems are reported when the
// snapshot is stored. Close removes its temporary files.
type SnapshotSpool interface {
	AddFile(f FileFigures) error
	AddRemoved(path string) error
	AddIssue(is Issue) error
	AddClone(a, b ClonePlace, lines int) error
	Close()
}
