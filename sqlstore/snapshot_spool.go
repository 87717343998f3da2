package sqlstore

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/extsort"
)

// SnapshotSpool holds a snapshot's files, removed paths and issues on their
// way to the store, sorted on disk in the order they are written (files and
// removed paths by path, issues in listing order), so that a report of any
// size costs the store a bounded amount of memory. Each record is checked
// as it is added; problems are reported when the snapshot is stored.
type SnapshotSpool struct {
	files, removed, issues *extsort.Sorter
	clones                 *extsort.Sorter // made by the first AddClone (clones.go)
	dir                    string
	imported               bool // filled from a plumb.SnapshotInput (addAll): clones are not checked against files

	tools     map[string]bool
	nFiles    int64
	nRemoved  int64
	nIssues   int64
	nClones   int64
	problems  []string
	nProblems int
	rec       []byte
}

// spoolBudget is the memory each of a spool's sorts may use.
const spoolBudget = 8 << 20

// maxProblems is the most problems an answer lists one by one.
const maxProblems = 100

// NewSnapshotSpool returns an empty spool whose temporary files go to dir
// (the system's temporary folder when empty). Close it when done.
func (db *DB) NewSnapshotSpool(dir string) plumb.SnapshotSpool { return NewSnapshotSpool(dir) }

// NewSnapshotSpool returns an empty spool whose temporary files go to dir
// (the system's temporary folder when empty). Close it when done.
func NewSnapshotSpool(dir string) *SnapshotSpool {
	return &SnapshotSpool{
		files:   extsort.New(dir, spoolBudget, compareByPath),
		removed: extsort.New(dir, spoolBudget/8, compareByPath),
		issues:  extsort.New(dir, spoolBudget, compareIssueRecords),
		tools:   map[string]bool{},
		dir:     dir,
	}
}

// Close removes the spool's temporary files.
func (sp *SnapshotSpool) Close() {
	sp.files.Close()
	sp.removed.Close()
	sp.issues.Close()
	if sp.clones != nil {
		sp.clones.Close()
	}
}

// Files and Issues count what was added.
func (sp *SnapshotSpool) Files() int64  { return sp.nFiles }
func (sp *SnapshotSpool) Issues() int64 { return sp.nIssues }

// Tools lists the tools of the issues added, sorted.
func (sp *SnapshotSpool) Tools() []string {
	out := keys(sp.tools)
	slices.Sort(out)
	return out
}

func (sp *SnapshotSpool) problem(format string, args ...any) {
	sp.nProblems++
	if len(sp.problems) < maxProblems {
		sp.problems = append(sp.problems, fmt.Sprintf(format, args...))
	}
}

// err reports the problems found, if any.
func (sp *SnapshotSpool) err() error {
	if sp.nProblems == 0 {
		return nil
	}
	out := slices.Clone(sp.problems)
	if more := sp.nProblems - len(out); more > 0 {
		out = append(out, fmt.Sprintf("… and %d more problems of the same kinds", more))
	}
	return plumb.Invalid(out)
}

// A file record is its path, its index among the files added, and its
// figures; a removed path is its path.
func compareByPath(a, b []byte) int {
	ra, rb := extsort.NewReader(a), extsort.NewReader(b)
	return bytes.Compare(ra.Bytes(), rb.Bytes())
}

// AddFile adds a file's figures.
func (sp *SnapshotSpool) AddFile(f plumb.FileFigures) error {
	i := sp.nFiles
	sp.nFiles++
	switch {
	case f.Path == "":
		sp.problem("files[%d]: path is required", i)
	case f.Lines < 0 || f.LOC < 0 || f.Complexity < 0 || f.DuplicatedLines < 0:
		sp.problem("files[%d] (%s): figures must not be negative", i, f.Path)
	case f.LOC > f.Lines || f.DuplicatedLines > f.Lines:
		sp.problem("files[%d] (%s): loc and duplicatedLines must not exceed lines", i, f.Path)
	}
	b := extsort.AppendString(sp.rec[:0], f.Path)
	for _, v := range []int64{i, f.Lines, f.LOC, f.Complexity, f.DuplicatedLines} {
		b = extsort.AppendInt(b, v)
	}
	sp.rec = b
	return sp.files.Add(b)
}

// checkPaths notes every file listed more than once (each path may have
// one entry). It reads the sorted files once, whatever the snapshot's
// branch, before anything is written.
func (sp *SnapshotSpool) checkPaths() error {
	if sp.nFiles < 2 {
		return nil
	}
	it, err := sp.files.Iter()
	if err != nil {
		return err
	}
	var prev []byte
	have := false
	for it.Next() {
		r := extsort.NewReader(it.Record())
		p := r.Bytes()
		if have && bytes.Equal(p, prev) {
			sp.problem("files[%d]: path %q is listed twice", r.Int(), p)
		}
		prev, have = append(prev[:0], p...), true
	}
	return it.Err()
}

// spooledFile is a file record read back.
type spooledFile struct {
	plumb.FileFigures
	index int64
}

func decodeSpooledFile(rec []byte) (spooledFile, error) {
	r := extsort.NewReader(rec)
	var f spooledFile
	f.Path = r.String()
	f.index, f.Lines, f.LOC, f.Complexity, f.DuplicatedLines = r.Int(), r.Int(), r.Int(), r.Int(), r.Int()
	return f, r.Err()
}

// AddRemoved adds a path the snapshot removes (a snapshot of changes).
func (sp *SnapshotSpool) AddRemoved(path string) error {
	sp.nRemoved++
	sp.rec = extsort.AppendString(sp.rec[:0], path)
	return sp.removed.Add(sp.rec)
}

// AddIssue adds an issue.
func (sp *SnapshotSpool) AddIssue(is plumb.Issue) error {
	i := sp.nIssues
	sp.nIssues++
	if err := plumb.IssueProblem(is); err != "" {
		sp.problem("issues[%d]: %s", i, err)
	}
	sp.tools[is.Tool] = true
	sp.rec = encodeIssueRecord(sp.rec[:0], &is)
	return sp.issues.Add(sp.rec)
}

// An issue record starts with its listing order (path, start line, rule
// key, fingerprint), then the rest of the issue.
func encodeIssueRecord(b []byte, is *plumb.Issue) []byte {
	line, end := int64(0), int64(-1)
	if is.StartLine != nil {
		line = int64(*is.StartLine)
	}
	if is.EndLine != nil {
		end = int64(*is.EndLine)
	}
	b = extsort.AppendString(b, is.Path)
	b = extsort.AppendInt(b, line)
	b = extsort.AppendString(b, is.RuleKey)
	b = extsort.AppendString(b, is.Fingerprint)
	b = extsort.AppendInt(b, boolInt64(is.StartLine != nil))
	b = extsort.AppendInt(b, end)
	for _, v := range []string{is.ID, is.Tool, is.Message, is.Category, is.Level, is.Status, is.DocumentationURL} {
		b = extsort.AppendString(b, v)
	}
	return b
}

func decodeIssueRecord(rec []byte) (plumb.Issue, error) {
	r := extsort.NewReader(rec)
	var is plumb.Issue
	is.Path = r.String()
	line := int(r.Int())
	is.RuleKey, is.Fingerprint = r.String(), r.String()
	hasLine, end := r.Int() == 1, int(r.Int())
	if hasLine {
		is.StartLine = &line
	}
	if end >= 0 {
		is.EndLine = &end
	}
	for _, v := range []*string{&is.ID, &is.Tool, &is.Message, &is.Category, &is.Level, &is.Status, &is.DocumentationURL} {
		*v = r.String()
	}
	return is, r.Err()
}

// compareIssueRecords orders issue records as plumb.CompareIssueOrder.
func compareIssueRecords(a, b []byte) int {
	ra, rb := extsort.NewReader(a), extsort.NewReader(b)
	if c := bytes.Compare(ra.Bytes(), rb.Bytes()); c != 0 {
		return c
	}
	if c := cmp.Compare(ra.Int(), rb.Int()); c != 0 {
		return c
	}
	if c := bytes.Compare(ra.Bytes(), rb.Bytes()); c != 0 {
		return c
	}
	return bytes.Compare(ra.Bytes(), rb.Bytes())
}

func boolInt64(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
