package demo

import (
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"github.com/plumbhq/plumb"
	"github.com/plumbhq/plumb/dataset"
)

// Coverage tags of the demo's uploads.
const (
	tagUnit        = "unit"
	tagIntegration = "integration"
)

// addCoverage adds a project's coverage: unit and integration reports for
// every analysed commit of the default branch (CI uploads them with each
// analysis), one of them tagged as a release, and for the latest commit of
// the feature branch.
func (g *generator) addCoverage(pr *projectRun) {
	def := pr.def
	r := newStream("coverage", def.key)
	n := len(pr.snaps)
	picks := make([]int, n)
	for i := range picks {
		picks[i] = i
	}
	release := -1
	if def.release != "" {
		// The release: the covered commit closest to six weeks ago.
		target := g.now.Add(-42 * day)
		best := time.Duration(math.MaxInt64)
		for _, i := range picks {
			if d := absDuration(pr.snaps[i].AnalyzedAt.Sub(target)); d < best {
				best, release = d, i
			}
		}
	}
	var list []dataset.Coverage
	for _, i := range picks {
		s := pr.snaps[i]
		state := pr.hist.states[i]
		progress := float64(i) / float64(max(1, n-1))
		gitTag := ""
		if i == release {
			gitTag = def.release
		}
		at := s.AnalyzedAt.Add(-secs(r, 60, 900))
		for _, tag := range []string{tagUnit, tagIntegration} {
			list = append(list, dataset.Coverage{
				ID: g.newID(at), ProjectID: pr.id, CommitSHA: s.CommitSHA, Branch: def.defaultBranch, GitTag: gitTag,
				CoverageTag: tag, UploadedAt: at, Files: coverFiles(r, def.key, tag, state, progress),
			})
			at = at.Add(secs(r, 20, 240))
		}
	}
	if k := len(pr.features) - 1; k >= 0 {
		s := pr.features[k]
		state := map[string]dataset.File{}
		for p, f := range pr.hist.states[pr.featBase[k]] {
			state[p] = f
		}
		for _, p := range sortedKeys(def.feature.files) {
			lines := def.feature.files[p]
			state[p] = dataset.File{Path: p, Lines: lines, LOC: lines * 4 / 5}
		}
		at := s.AnalyzedAt.Add(-secs(r, 60, 900))
		for _, tag := range []string{tagUnit, tagIntegration} {
			list = append(list, dataset.Coverage{
				ID: g.newID(at), ProjectID: pr.id, CommitSHA: s.CommitSHA, Branch: s.Branch,
				CoverageTag: tag, UploadedAt: at, Files: coverFiles(r, def.key, tag, state, 1),
			})
			at = at.Add(secs(r, 20, 240))
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].UploadedAt.Before(list[j].UploadedAt) })
	g.doc.Coverage = append(g.doc.Coverage, list...)
}

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// covers reports whether the tests under tag exercise path, and how well:
// unit tests reach most source files, integration tests the Go packages
// under internal/. The choice is stable over time.
func covers(project, tag, p string) (ratio float64, ok bool) {
	k := kindOf(p)
	if k != kindGo && k != kindTS && k != kindPy {
		return 0, false
	}
	if k == kindTS && !strings.HasSuffix(p, ".ts") && !strings.HasSuffix(p, ".tsx") {
		return 0, false
	}
	h := unitHash(project, tag, p)
	switch tag {
	case tagUnit:
		if h >= 0.85 {
			return 0, false
		}
		return 0.45 + 0.5*unitHash(project, "ratio", tag, p), true
	default:
		if k != kindGo || !strings.HasPrefix(p, "internal/") || h >= 0.55 {
			return 0, false
		}
		return 0.25 + 0.5*unitHash(project, "ratio", tag, p), true
	}
}

// coverFiles makes the per-file hits of one upload over a tree. Coverage
// creeps up over the year (progress goes from 0 to 1).
func coverFiles(r *rand.Rand, project, tag string, state map[string]dataset.File, progress float64) []dataset.CoverageFile {
	var out []dataset.CoverageFile
	for _, p := range sortedKeys(state) {
		ratio, ok := covers(project, tag, p)
		if !ok {
			continue
		}
		ratio = min(ratio+0.08*progress, 0.98)
		h := hits(newStream("hits", project, tag, p), r, state[p], ratio)
		out = append(out, dataset.CoverageFile{Path: p, Hits: h, Branches: branchFigures(project, tag, state[p], h)})
	}
	if out == nil {
		out = []dataset.CoverageFile{}
	}
	return out
}

// hits draws one file's line hits: runs of lines that are not coverable
// (blank lines, comments, declarations) between blocks of statements, each
// block run as a whole, or missed, with the given probability of a hit.
// The layout and which blocks run come from the file's own stream (stable:
// the same for every upload of the file, so its coverage changes only as
// the file and ratio do, as a real project's does); the hit counts from r.
func hits(stable, r *rand.Rand, f dataset.File, ratio float64) []int64 {
	out := make([]int64, f.Lines)
	coverable := float64(f.LOC) * 0.85 / float64(f.Lines)
	const block = 6.0
	gap := block * (1 - coverable) / max(coverable, 0.05)
	i := 0
	for i < len(out) {
		// A run of lines that cannot be covered.
		for k := 1 + stable.IntN(int(2*gap)+1); k > 0 && i < len(out); k-- {
			out[i] = -1
			i++
		}
		// A block of statements.
		var count int64
		if stable.Float64() < ratio {
			count = max(1, int64(math.Round(math.Exp(2.5+1.4*r.NormFloat64()))))
		}
		for k := 1 + stable.IntN(2*block); k > 0 && i < len(out); k-- {
			c := count
			if c > 0 && r.IntN(8) == 0 {
				c *= int64(2 + r.IntN(9)) // a loop body
			}
			out[i] = c
			i++
		}
	}
	return out
}

// branchFigures gives the coverable `if` lines of a file's generated source
// (sourceText) two branches each: none run on a missed line; on a covered
// one both, or (a quarter of the time) one, a partial line. Which comes
// from the file's own stream under the tag, so it is the same at every
// upload of the file, as a real test suite's branches are.
func branchFigures(project, tag string, f dataset.File, hits []int64) []plumb.LineBranches {
	var out []plumb.LineBranches
	stable := newStream("branches", project, tag, f.Path)
	for i, line := range strings.Split(sourceText(f), "\n") {
		t := strings.TrimSpace(line)
		if i >= len(hits) || hits[i] < 0 || !strings.HasPrefix(t, "if ") && !strings.HasPrefix(t, "if (") {
			continue
		}
		covered := 0
		if hits[i] > 0 {
			covered = 2
			if stable.Float64() < 0.25 {
				covered = 1
			}
		}
		out = append(out, plumb.LineBranches{Line: i + 1, Total: 2, Covered: covered})
	}
	return out
}
