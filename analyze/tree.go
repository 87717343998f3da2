package analyze

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"
)

// TreeFile is one file of a tree that is not on disk (a commit's tree read
// from git): its repository-relative, slash-separated path, an id that
// changes whenever its content does (the git blob id) and its size.
type TreeFile struct {
	Path string
	ID   string
	Size int64
}

// Cache keeps what the analysis measured of each file, by path and content
// id, so that analysing many versions of a tree (plumb analyze --history)
// reads and measures only the files that changed between them. Clone
// detection, which compares files with each other, still runs on every
// tree, over the cached tokens. A Cache serves one configuration at a time:
// a run with another one empties it. It is safe for one Run at a time.
type Cache struct {
	mu     sync.Mutex
	config string
	files  map[cacheKey]measured
	// Hits and Misses count the files found in the cache and measured, over
	// every run (for progress lines and benchmarks).
	Hits, Misses int
}

type cacheKey struct{ path, id string }

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{files: map[cacheKey]measured{}} }

// use readies the cache for a run with cfg, emptying it when the
// configuration differs from its previous run's.
func (c *Cache) use(cfg Config) {
	key := fmt.Sprintf("%+v", cfg)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.files == nil || c.config != key {
		c.files, c.config = map[cacheKey]measured{}, key
	}
}

// measure returns the cached outcome for the file, measuring it when the
// cache has none. Files without an id are always measured.
func (c *Cache) measure(cand candidate, read func(string) ([]byte, error), cfg Config) measured {
	if c == nil || cand.id == "" {
		return measure(cand, read, cfg)
	}
	k := cacheKey{cand.rel, cand.id}
	c.mu.Lock()
	m, ok := c.files[k]
	if ok {
		c.Hits++
	}
	c.mu.Unlock()
	if ok {
		return m
	}
	m = measure(cand, read, cfg)
	if m.skip != nil && !m.quiet && strings.HasPrefix(m.skip.Reason, "unreadable") {
		return m // a failed read is not the file's content: try again next time
	}
	c.mu.Lock()
	c.files[k] = m
	c.Misses++
	c.mu.Unlock()
	return m
}

// fromList takes the files to analyse from o.Tree or o.Files instead of a
// walk, applying the rules a walk applies: the .gitignore files of the list
// (read with read), the excludes, and the vendored-directory rule, to each
// file and each of its directories.
func (w *walker) fromList(o Options, read func(string) ([]byte, error)) {
	files := o.Tree
	if files == nil {
		files = make([]TreeFile, len(o.Files))
		for i, p := range o.Files {
			files[i] = TreeFile{Path: p}
		}
	}
	var ignores []*ignoreFile
	for _, f := range files {
		if path.Base(f.Path) != ".gitignore" {
			continue
		}
		b, err := read(f.Path)
		if err != nil {
			w.skipped = append(w.skipped, Skipped{f.Path, "unreadable: " + err.Error()})
			continue
		}
		dir := path.Dir(f.Path)
		if dir == "." {
			dir = ""
		} else {
			dir += "/"
		}
		ignores = append(ignores, parseGitignore(dir, b))
	}
	// outermost first: the last matching rule decides, and deeper files
	// override shallower ones
	sort.SliceStable(ignores, func(i, j int) bool {
		return strings.Count(ignores[i].dir, "/") < strings.Count(ignores[j].dir, "/")
	})
	leftOut := map[string]bool{} // directories, once decided
	dirOut := func(dir string) bool {
		out, ok := leftOut[dir]
		if !ok {
			out = w.excludedPath(dir) || w.excludedPath(dir+"/") || ignored(ignores, dir, true)
			leftOut[dir] = out
		}
		return out
	}
	for _, f := range files {
		if excludedByDir(f.Path, w.cfg) || w.excludedPath(f.Path) || ignored(ignores, f.Path, false) {
			w.excluded++
			continue
		}
		out := false
		for i := strings.IndexByte(f.Path, '/'); i >= 0 && !out; i = nextSlash(f.Path, i) {
			out = dirOut(f.Path[:i])
		}
		if out {
			w.excluded++
			continue
		}
		w.files = append(w.files, candidate{rel: f.Path, id: f.ID, size: f.Size})
	}
}

// nextSlash is the index of the next / in p after i, or -1.
func nextSlash(p string, i int) int {
	j := strings.IndexByte(p[i+1:], '/')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}
