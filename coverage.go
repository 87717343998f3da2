package plumb

// MergeHits merges two coverage reports of the same file for the same commit
// and coverage tag, line by line: hit counts add up, a line coverable (>= 0)
// in either report is coverable, and the longer report sets the length.
func MergeHits(a, b []int64) []int64 {
	if len(b) > len(a) {
		a, b = b, a
	}
	out := make([]int64, len(a))
	copy(out, a)
	for i, h := range b {
		switch {
		case h < 0:
		case out[i] < 0:
			out[i] = h
		default:
			out[i] += h
		}
	}
	return out
}

// CountHits counts a file's lines by their hits: covered (hit at least
// once), missed (coverable, never hit) and omitted (not coverable, -1).
func CountHits(hits []int64) (covered, missed, omitted int64) {
	for _, h := range hits {
		switch {
		case h > 0:
			covered++
		case h == 0:
			missed++
		default:
			omitted++
		}
	}
	return covered, missed, omitted
}

// CoverageSummary describes one stored coverage report.
type CoverageSummary struct {
	ID          string
	CommitSHA   string
	CoverageTag string
	Files       int
	Covered     int64 // covered lines in this report
	Missed      int64 // missed lines in this report
}

// FileCoverageEntry is one coverage tag's line hits of one file, and the
// branch figures of its lines that have them (ascending lines).
type FileCoverageEntry struct {
	Tag      string
	Path     string
	Hits     []int64
	Branches []LineBranches
}

// HitCounts are a file's line counts: covered (> 0), missed (0), omitted
// (not coverable) and in total.
type HitCounts struct {
	Covered, Missed, Omitted, Total int64
}

// LineBranches are one line's branch figures: how many branches (arms of
// its conditions) the line has, and how many of them ran.
type LineBranches struct {
	Line    int `json:"line"`
	Total   int `json:"total"`
	Covered int `json:"covered"`
}

// Partial reports whether a line with these figures and hits is partly
// covered: it ran (hits > 0), but some of its branches did not.
func (b LineBranches) Partial(hits int64) bool {
	return hits > 0 && b.Total > 0 && b.Covered < b.Total
}

// MaxBranches is the most branches one line may have (figures above it are
// clamped to it).
const MaxBranches = 1 << 16

// MergeBranches merges two reports' branch figures of the same file for the
// same commit and coverage tag (both sparse, in ascending line order, each
// line once), line by line: a line in either has its figures; a line in both
// has the larger total and the larger covered count (at most the total).
//
// Reports name branches in ways that cannot be matched across formats
// (LCOV block and branch numbers, Cobertura percentages, JaCoCo counts), so
// the merge keeps figures, not branch identities: when two uploads each
// covered a different branch of a line, the merged line counts the larger
// of the two covered counts, never more. It can only understate how many
// branches ran, never claim a branch ran that no report says ran.
func MergeBranches(a, b []LineBranches) []LineBranches {
	if len(a) == 0 {
		return b
	}
	if len(b) == 0 {
		return a
	}
	out := make([]LineBranches, 0, max(len(a), len(b)))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i].Line < b[j].Line:
			out = append(out, a[i])
			i++
		case i == len(a) || b[j].Line < a[i].Line:
			out = append(out, b[j])
			j++
		default:
			out = append(out, mergeLineBranches(a[i], b[j]))
			i++
			j++
		}
	}
	return out
}

// mergeLineBranches merges one line's figures from two reports.
func mergeLineBranches(a, b LineBranches) LineBranches {
	t := max(a.Total, b.Total)
	return LineBranches{Line: a.Line, Total: t, Covered: min(t, max(a.Covered, b.Covered))}
}
