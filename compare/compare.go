// Package compare answers what a change (a head commit against its base)
// does: total coverage of both sides and its delta, patch coverage (the
// coverage of the changed lines), issues new, fixed and unchanged by
// fingerprint, and the metrics delta. It holds the computations only; the
// store loads the figures and the API serves the result (docs/pull-requests.md).
package compare

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/plumbhq/plumb"
)

// LineRange is an inclusive range of line numbers (1-based).
type LineRange struct{ Start, End int }

// FileChange is one file of a change as `git diff -M --unified=0 base...head`
// reports it: the file's head path, its base path when renamed, and the head
// lines added or modified. A deleted file has no head lines.
type FileChange struct {
	Path         string      `json:"path"`
	PreviousPath string      `json:"previousPath,omitempty"`
	Status       string      `json:"status"` // added, modified, renamed, deleted
	AddedLines   []LineRange `json:"addedLines"`
}

// File statuses of a change.
var FileStatuses = []string{"added", "modified", "renamed", "deleted"}

// Change is what a head commit changes against its base.
type Change struct {
	CommitSHA         string
	Branch            string
	BaseCommitSHA     string
	BaseBranch        string
	PullRequestNumber *int
	Files             []FileChange
}

// Validate checks a change's files, naming every problem, and puts each
// file's ranges in order, merged.
func (c *Change) Validate() []string {
	var problems []string
	seen := map[string]bool{}
	for i := range c.Files {
		f := &c.Files[i]
		at := fmt.Sprintf("files[%d]", i)
		if f.Path == "" {
			problems = append(problems, at+".path is required.")
		}
		if !plumb.Contains(FileStatuses, f.Status) {
			problems = append(problems, fmt.Sprintf("%s.status must be one of %s, got %q.", at, strings.Join(FileStatuses, ", "), f.Status))
		}
		if f.Status == "renamed" && f.PreviousPath == "" {
			problems = append(problems, at+".previousPath is required for a renamed file.")
		}
		if seen[f.Path] && f.Path != "" {
			problems = append(problems, fmt.Sprintf("%s.path %q is listed twice.", at, f.Path))
		}
		seen[f.Path] = true
		for j, r := range f.AddedLines {
			if r.Start < 1 || r.End < r.Start {
				problems = append(problems, fmt.Sprintf("%s.addedLines[%d] must be [start, end] with 1 <= start <= end, got [%d, %d].", at, j, r.Start, r.End))
			}
		}
		if f.Status == "deleted" && len(f.AddedLines) > 0 {
			problems = append(problems, at+".addedLines must be empty for a deleted file.")
		}
		f.AddedLines = MergeRanges(f.AddedLines)
	}
	return problems
}

// MergeRanges sorts ranges and merges those that overlap or touch.
func MergeRanges(rs []LineRange) []LineRange {
	if len(rs) == 0 {
		return rs
	}
	rs = slices.Clone(rs)
	sort.Slice(rs, func(i, j int) bool { return rs[i].Start < rs[j].Start })
	out := rs[:1]
	for _, r := range rs[1:] {
		last := &out[len(out)-1]
		if r.Start <= last.End+1 {
			last.End = max(last.End, r.End)
			continue
		}
		out = append(out, r)
	}
	return out
}

// Coverage counts coverable lines.
type Coverage struct {
	Covered   int64 `json:"covered"`
	Coverable int64 `json:"coverable"`
}

// Percent is covered ÷ coverable in percent with two decimals, nil when
// nothing is coverable.
func (c Coverage) Percent() *float64 {
	if c.Coverable == 0 {
		return nil
	}
	p := math.Round(float64(c.Covered)*10000/float64(c.Coverable)) / 100
	return &p
}

// PatchFile is the patch coverage of one changed file.
type PatchFile struct {
	Path         string
	PreviousPath string
	Status       string
	// HasCoverage is false when the head commit has no coverage of the file
	// (its changed lines then count as neither covered nor coverable).
	HasCoverage bool
	Coverage    Coverage
	// Uncovered are the changed lines that are coverable and were not hit.
	Uncovered []LineRange
}

// Patch is the patch coverage of a change.
type Patch struct {
	Coverage     Coverage
	ChangedLines int64
	Files        []PatchFile
}

// PatchCoverage computes the coverage of a change's added lines from the
// head commit's hits (hits(path) returns nil for a file without coverage;
// hits[i] is line i+1: -1 not coverable, 0 missed, >0 hit). Deleted files add
// no line. Files are listed in path order.
func PatchCoverage(files []FileChange, hits func(path string) []int64) Patch {
	var p Patch
	for _, f := range files {
		if f.Status == "deleted" {
			continue
		}
		pf := PatchFile{Path: f.Path, PreviousPath: f.PreviousPath, Status: f.Status}
		h := hits(f.Path)
		pf.HasCoverage = h != nil
		var open *LineRange
		for _, r := range f.AddedLines {
			p.ChangedLines += int64(r.End - r.Start + 1)
			for line := r.Start; line <= r.End; line++ {
				if line-1 >= len(h) || h[line-1] < 0 {
					continue
				}
				pf.Coverage.Coverable++
				if h[line-1] > 0 {
					pf.Coverage.Covered++
					continue
				}
				if open != nil && open.End == line-1 {
					open.End = line
				} else {
					pf.Uncovered = append(pf.Uncovered, LineRange{line, line})
					open = &pf.Uncovered[len(pf.Uncovered)-1]
				}
			}
		}
		p.Coverage.Covered += pf.Coverage.Covered
		p.Coverage.Coverable += pf.Coverage.Coverable
		p.Files = append(p.Files, pf)
	}
	sort.Slice(p.Files, func(i, j int) bool { return p.Files[i].Path < p.Files[j].Path })
	return p
}

// IssueClass is how an issue stands between base and head.
type IssueClass string

const (
	IssueNew       IssueClass = "new"
	IssueFixed     IssueClass = "fixed"
	IssueUnchanged IssueClass = "unchanged"
)

// IssueSets are the issues of a comparison by class, each in listing order.
type IssueSets struct {
	New, Fixed, Unchanged []plumb.Issue
}

// ClassifyIssues splits issues by fingerprint: in head only (new), in base
// only (fixed), in both (unchanged, as head has them).
func ClassifyIssues(base, head []plumb.Issue) IssueSets {
	inBase := make(map[string]struct{}, len(base))
	for i := range base {
		inBase[base[i].Fingerprint] = struct{}{}
	}
	inHead := make(map[string]struct{}, len(head))
	s := IssueSets{Unchanged: make([]plumb.Issue, 0, len(head))}
	for i := range head {
		is := &head[i]
		inHead[is.Fingerprint] = struct{}{}
		if _, ok := inBase[is.Fingerprint]; ok {
			s.Unchanged = append(s.Unchanged, *is)
		} else {
			s.New = append(s.New, *is)
		}
	}
	for i := range base {
		if _, ok := inHead[base[i].Fingerprint]; !ok {
			s.Fixed = append(s.Fixed, base[i])
		}
	}
	return s
}

// NewOpenIssues returns the head's open issues whose fingerprint no open
// issue of the base has: ClassifyIssues(open of base, open of head).New,
// without copying either side.
func NewOpenIssues(base, head []plumb.Issue) []plumb.Issue {
	open := make(map[string]struct{}, len(base))
	for i := range base {
		if base[i].Status == "open" {
			open[base[i].Fingerprint] = struct{}{}
		}
	}
	var out []plumb.Issue
	for i := range head {
		if _, old := open[head[i].Fingerprint]; !old && head[i].Status == "open" {
			out = append(out, head[i])
		}
	}
	return out
}

// Of returns the issues of one class.
func (s IssueSets) Of(c IssueClass) []plumb.Issue {
	switch c {
	case IssueNew:
		return s.New
	case IssueFixed:
		return s.Fixed
	default:
		return s.Unchanged
	}
}

// MissingIssueData says why the issues of a comparison cannot be classified,
// or "" when they can. Issues are compared between two analyses: without one
// on a side, every issue of the other side would look new or fixed, so the
// issue comparison has no data until both commits have an analysis.
func MissingIssueData(baseAnalysed, headAnalysed bool) string {
	switch {
	case !baseAnalysed && !headAnalysed:
		return "no analysis of either commit"
	case !headAnalysed:
		return "no analysis of the head commit yet"
	case !baseAnalysed:
		return "no analysis of the base commit"
	}
	return ""
}
