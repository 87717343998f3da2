package demo

import (
	"math/rand/v2"
	"path"
	"sort"
	"strings"

	"github.com/plumbhq/plumb/dataset"
)

// A project's source tree is written as lines "dir: name|name|…" ("." is the
// repository root). A name starting with '!' is in the tree from the first
// analysis on; one starting with '-' is there at first and deleted later; any
// other name is there at first or added during the year, at random. A name
// ending in '*' comes with its test file (foo.go → foo_test.go, Foo.tsx →
// Foo.test.tsx, foo.py → test_foo.py), added with it.

// plannedFile is one file of a project's tree over its history.
type plannedFile struct {
	path   string
	pinned bool // present from the first snapshot on
	doomed bool // present at first, removed later
	group  int  // files of one group (a file and its test) arrive together
}

// parseTree expands a tree description.
func parseTree(spec string) []plannedFile {
	var files []plannedFile
	group := 0
	for _, line := range strings.Split(spec, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		dir, names, ok := strings.Cut(line, ":")
		if !ok {
			panic("demo: bad tree line " + line)
		}
		dir = strings.TrimSpace(dir)
		for _, name := range strings.Split(names, "|") {
			name = strings.TrimSpace(name)
			if name == "" {
				continue
			}
			f := plannedFile{group: group}
			group++
			switch name[0] {
			case '!':
				f.pinned, name = true, name[1:]
			case '-':
				f.doomed, name = true, name[1:]
			}
			withTest := strings.HasSuffix(name, "*")
			name = strings.TrimSuffix(name, "*")
			f.path = join(dir, name)
			files = append(files, f)
			if withTest {
				t := f
				t.path = join(dir, testName(name))
				files = append(files, t)
			}
		}
	}
	return files
}

func join(dir, name string) string {
	if dir == "." {
		return name
	}
	return dir + "/" + name
}

// testName is the name of the test file of a source file.
func testName(name string) string {
	ext := path.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	switch ext {
	case ".go":
		return stem + "_test.go"
	case ".py":
		return "test_" + name
	default:
		return stem + ".test" + ext
	}
}

// fileKind classifies a path for its figures, its issues and its coverage.
type fileKind int

const (
	kindGo fileKind = iota
	kindGoTest
	kindTS
	kindTSTest
	kindPy
	kindPyTest
	kindSQL
	kindShell
	kindDocker
	kindTerraform
	kindConfig
	kindDoc
	kindLock
)

func kindOf(p string) fileKind {
	base := path.Base(p)
	switch {
	case base == "go.sum" || base == "package-lock.json" || base == "poetry.lock" || base == "requirements.txt" || base == "go.mod" || base == "package.json":
		return kindLock
	case base == "Dockerfile" || strings.HasPrefix(base, "Dockerfile."):
		return kindDocker
	case strings.HasSuffix(base, "_test.go"):
		return kindGoTest
	case strings.HasSuffix(base, ".go"):
		return kindGo
	case strings.Contains(base, ".test.") || strings.Contains(base, ".spec."):
		return kindTSTest
	case strings.HasSuffix(base, ".ts") || strings.HasSuffix(base, ".tsx") || strings.HasSuffix(base, ".js") || strings.HasSuffix(base, ".cjs"):
		return kindTS
	case strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py") || base == "conftest.py":
		return kindPyTest
	case strings.HasSuffix(base, ".py"):
		return kindPy
	case strings.HasSuffix(base, ".sql"):
		return kindSQL
	case strings.HasSuffix(base, ".sh"):
		return kindShell
	case strings.HasSuffix(base, ".tf"):
		return kindTerraform
	case strings.HasSuffix(base, ".md"):
		return kindDoc
	default:
		return kindConfig
	}
}

// isDependencyManifest reports whether p lists dependencies (trivy's files).
func isDependencyManifest(p string) bool {
	switch path.Base(p) {
	case "go.sum", "package-lock.json", "poetry.lock", "requirements.txt":
		return true
	}
	return false
}

// fileTraits are the per-file ratios that keep a file's figures coherent as
// its length drifts.
type fileTraits struct {
	locRatio, cplxRatio, dupRatio float64
}

// figureRange is how a kind of file is usually sized.
type figureRange struct {
	median, sigma  float64
	lo, hi         int64
	locLo, locHi   float64 // LOC as a share of lines
	cplxLo, cplxHi float64 // complexity per line of code
	dupShare       float64 // share of files with duplicated lines
}

var figureRanges = map[fileKind]figureRange{
	kindGo:        {140, 0.7, 18, 1400, 0.72, 0.86, 0.06, 0.22, 0.35},
	kindGoTest:    {190, 0.7, 25, 1600, 0.80, 0.90, 0.03, 0.10, 0.45},
	kindTS:        {105, 0.7, 12, 900, 0.80, 0.92, 0.05, 0.18, 0.30},
	kindTSTest:    {120, 0.6, 20, 700, 0.85, 0.93, 0.02, 0.08, 0.40},
	kindPy:        {120, 0.7, 12, 900, 0.68, 0.84, 0.06, 0.20, 0.25},
	kindPyTest:    {110, 0.6, 15, 600, 0.78, 0.88, 0.02, 0.08, 0.30},
	kindSQL:       {45, 0.6, 6, 400, 0.80, 0.92, 0, 0, 0.05},
	kindShell:     {60, 0.6, 8, 300, 0.70, 0.85, 0.03, 0.10, 0},
	kindDocker:    {35, 0.4, 8, 120, 0.70, 0.85, 0, 0, 0},
	kindTerraform: {90, 0.6, 10, 500, 0.80, 0.92, 0, 0, 0.15},
	kindConfig:    {45, 0.7, 5, 400, 0.85, 0.95, 0, 0, 0},
	kindDoc:       {90, 0.7, 8, 600, 0, 0, 0, 0, 0},
	kindLock:      {60, 0.5, 8, 200, 0, 0, 0, 0, 0},
}

// lockLines sizes dependency files, which are far longer than their kind's
// default.
var lockLines = map[string][2]float64{
	"go.sum":            {380, 0.4},
	"package-lock.json": {9500, 0.3},
	"poetry.lock":       {2100, 0.3},
}

// newTraits draws the stable ratios of one file.
func newTraits(r *rand.Rand, k fileKind) fileTraits {
	fr := figureRanges[k]
	t := fileTraits{
		locRatio:  fr.locLo + r.Float64()*(fr.locHi-fr.locLo),
		cplxRatio: fr.cplxLo + r.Float64()*(fr.cplxHi-fr.cplxLo),
	}
	if r.Float64() < fr.dupShare {
		t.dupRatio = 0.02 + 0.25*r.Float64()*r.Float64()
	}
	return t
}

// newLines draws a file's initial length.
func newLines(r *rand.Rand, p string, k fileKind) int64 {
	if ll, ok := lockLines[path.Base(p)]; ok {
		return lognormal(r, ll[0], ll[1], 100, 40000)
	}
	fr := figureRanges[k]
	return lognormal(r, fr.median, fr.sigma, fr.lo, fr.hi)
}

// figures computes a file's figures from its length and traits: LOC < lines,
// duplicated lines ≤ lines.
func figures(p string, lines int64, t fileTraits) dataset.File {
	lines = max(lines, 3)
	loc := int64(float64(lines) * t.locRatio)
	loc = min(loc, lines-1)
	return dataset.File{
		Path:            p,
		Lines:           lines,
		LOC:             loc,
		Complexity:      int64(float64(loc) * t.cplxRatio),
		DuplicatedLines: min(int64(float64(lines)*t.dupRatio), lines),
	}
}

// history is a project's default-branch tree over its snapshots.
type history struct {
	states  []map[string]dataset.File // the whole tree at each snapshot
	changed [][]dataset.File          // what each snapshot lists in Files
	removed [][]string                // what each snapshot lists in Removed
	traits  map[string]fileTraits
	addedAt map[string]int // snapshot index at which a path appeared
}

// alive reports whether p is in the tree at snapshot i.
func (h *history) alive(p string, i int) bool {
	_, ok := h.states[i][p]
	return ok
}

// paths returns the sorted paths of the tree at snapshot i.
func (h *history) paths(i int) []string { return sortedKeys(h.states[i]) }

// evolve plays a tree through n snapshots spanning years (of a year, at
// most 1): most files are there at first, the rest arrive over time (over a
// year, about a quarter of the groups), doomed files leave, and a few files
// change at each snapshot.
func evolve(r *rand.Rand, planned []plannedFile, n int, years float64) *history {
	h := &history{traits: map[string]fileTraits{}, addedAt: map[string]int{}}
	// When each group arrives, and when each doomed file leaves.
	arrive := map[int]int{}
	for _, f := range planned {
		if _, ok := arrive[f.group]; ok {
			continue
		}
		switch {
		case f.pinned || f.doomed || n == 1 || r.Float64() >= 0.28*years:
			arrive[f.group] = 0
		default:
			arrive[f.group] = 1 + r.IntN(n-1)
		}
	}
	leave := map[string]int{}
	for _, f := range planned {
		if f.doomed && n > 2 {
			leave[f.path] = 1 + r.IntN(max(1, (n-1)*4/5))
		}
	}
	// The files of a group that arrives later come one by one over the
	// next weeks (about a fifth of the history), as a real feature lands
	// in several merges.
	spread := max(1, n/5)
	byIndex := make([][]plannedFile, n)
	for _, f := range planned {
		i := arrive[f.group]
		if i > 0 {
			i = min(n-1, i+r.IntN(spread))
		}
		byIndex[i] = append(byIndex[i], f)
	}
	leaving := make([][]string, n)
	for _, p := range sortedKeys(leave) {
		leaving[leave[p]] = append(leaving[leave[p]], p)
	}

	// Files that arrive after the first analysis start at a part of their
	// size and grow towards it (growing: their final lines), as new code
	// does.
	growing := map[string]int64{}
	cur := map[string]dataset.File{}
	for i := 0; i < n; i++ {
		next := make(map[string]dataset.File, len(cur)+8)
		for p, f := range cur {
			next[p] = f
		}
		var changed []dataset.File
		var removed []string
		for _, p := range leaving[i] {
			delete(next, p)
			removed = append(removed, p)
		}
		touched := map[string]bool{}
		if i > 0 {
			// A few existing files change: mostly code, now and then a
			// dependency file.
			alive := sortedKeys(cur)
			for k := 1 + r.IntN(6); k > 0; k-- {
				p := alive[r.IntN(len(alive))]
				kind := kindOf(p)
				if touched[p] || (kind == kindDoc || kind == kindConfig) && r.Float64() < 0.7 {
					continue
				}
				if _, ok := next[p]; !ok {
					continue
				}
				touched[p] = true
				old := next[p]
				delta := int64(r.IntN(40)) - 12
				if delta == 0 {
					delta = 3
				}
				if kind == kindLock {
					delta = int64(2 + 2*r.IntN(12))
				}
				f := figures(p, max(old.Lines+delta, 3), h.traits[p])
				if f == old {
					f = figures(p, old.Lines+5, h.traits[p])
				}
				next[p] = f
				changed = append(changed, f)
			}
		}
		for _, p := range sortedKeys(growing) {
			f, ok := next[p]
			if !ok {
				delete(growing, p)
				continue
			}
			if r.Float64() < 0.4 {
				continue
			}
			lines := f.Lines + max(3, (growing[p]-f.Lines)/4)
			if lines >= growing[p] {
				lines = growing[p]
				delete(growing, p)
			}
			g := figures(p, lines, h.traits[p])
			if g == f {
				continue
			}
			next[p] = g
			if touched[p] {
				for j := range changed {
					if changed[j].Path == p {
						changed[j] = g
					}
				}
			} else {
				touched[p] = true
				changed = append(changed, g)
			}
		}
		for _, pf := range byIndex[i] {
			k := kindOf(pf.path)
			h.traits[pf.path] = newTraits(r, k)
			h.addedAt[pf.path] = i
			lines := newLines(r, pf.path, k)
			if i > 0 && k != kindLock {
				growing[pf.path] = lines
				lines = max(3, lines*int64(15+r.IntN(31))/100)
			}
			f := figures(pf.path, lines, h.traits[pf.path])
			next[pf.path] = f
			changed = append(changed, f)
		}
		sort.Slice(changed, func(a, b int) bool { return changed[a].Path < changed[b].Path })
		sort.Strings(removed)
		if changed == nil {
			changed = []dataset.File{}
		}
		if removed == nil {
			removed = []string{}
		}
		h.states = append(h.states, next)
		h.changed = append(h.changed, changed)
		h.removed = append(h.removed, removed)
		cur = next
	}
	return h
}
