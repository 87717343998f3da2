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

// CoverageSummary describes one stored coverage report.
type CoverageSummary struct {
	ID          string
	CommitSHA   string
	CoverageTag string
	Files       int
	Covered     int64 // covered lines in this report
	Missed      int64 // missed lines in this report
}

// FileCoverageEntry is one coverage tag's line hits of one file.
type FileCoverageEntry struct {
	Tag  string
	Path string
	Hits []int64
}

// HitCounts are a file's line counts: covered (> 0), missed (0), omitted
// (not coverable) and in total.
type HitCounts struct {
	Covered, Missed, Omitted, Total int64
}
