// Package analyze computes the per-file figures of an analysis upload
// (docs/ingest.md) from a source tree: physical lines, lines of code,
// comment and blank lines (as cloc counts them), cognitive complexity,
// duplicated lines, and the issues the analysis itself finds (functions
// that are too complex, too long, too deeply nested or take too many
// parameters; files that are too long; duplicated blocks).
// docs/analyze.md documents the definitions and their accuracy.
package analyze

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/plumbhq/plumb/analyze/cognitive"
	"github.com/plumbhq/plumb/analyze/dup"
	"github.com/plumbhq/plumb/analyze/lang"
	"github.com/plumbhq/plumb/metric"
)

// Options of one analysis.
type Options struct {
	Dir     string   // the tree's root
	Exclude []string // globs of repository-relative paths (* matches any run, / included)
	// Config: nil reads Dir/.plumb.yml.
	Config *Config
	// Workers reading and measuring files (0: one per CPU).
	Workers int
	// Progress, when set, is called as files are measured (from several
	// goroutines, never concurrently).
	Progress func(done, total int)
	// Read, when set, reads a file instead of the file system (history
	// analysis reads blobs from git).
	Read func(rel string) ([]byte, error)
	// Files, when set with Read, is the list of files to analyse instead of
	// walking Dir (repository-relative, slash-separated).
	Files []string
	// Tree, when set with Read, is the list of files to analyse with their
	// content ids and sizes (a commit's tree); it takes precedence over
	// Files. The .gitignore files in Files or Tree apply as in a walk.
	Tree []TreeFile
	// Cache, when set, keeps each file's measurement by path and content
	// id (Tree's ids) across runs.
	Cache *Cache
}

// File is the result for one file.
type File struct {
	Path            string               `json:"path"`
	Language        string               `json:"language"`
	Lines           int                  `json:"lines"`
	Blank           int                  `json:"blank"`
	Comment         int                  `json:"comment"`
	Code            int                  `json:"loc"`
	Complexity      int                  `json:"complexity"`
	DuplicatedLines int                  `json:"duplicatedLines"`
	Functions       []cognitive.Function `json:"functions,omitempty"`
}

// Result is a whole analysis.
type Result struct {
	Files   []File    `json:"files"`
	Skipped []Skipped `json:"skipped,omitempty"`
	// Warnings name files that are measured only in part (a Go file that
	// does not parse has line counts but no complexity).
	Warnings []Skipped   `json:"warnings,omitempty"`
	Excluded int         `json:"excluded"`
	Clones   []dup.Clone `json:"clones,omitempty"`
	Issues   []Issue     `json:"issues,omitempty"`
	Config   Config      `json:"-"`
}

// Run analyses a tree.
func Run(ctx context.Context, o Options) (*Result, error) {
	cfg := Config{}.withDefaults()
	if o.Config != nil {
		cfg = o.Config.withDefaults()
	} else if o.Read == nil {
		c, err := LoadConfig(o.Dir)
		if err != nil {
			return nil, err
		}
		cfg = c
	}
	w := &walker{root: o.Dir, cfg: cfg}
	for _, p := range append(append([]string{}, cfg.Exclude...), o.Exclude...) {
		g, err := metric.CompileGlob(p)
		if err != nil {
			return nil, fmt.Errorf("exclude %q: %v", p, err)
		}
		w.excludes = append(w.excludes, g)
	}
	if o.Read != nil {
		w.fromList(o, o.Read)
	} else if err := w.walk(); err != nil {
		return nil, err
	}
	read := o.Read
	if read == nil {
		abs := map[string]string{}
		for _, c := range w.files {
			abs[c.rel] = c.abs
		}
		read = func(rel string) ([]byte, error) { return os.ReadFile(abs[rel]) }
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	res := &Result{Config: cfg, Excluded: w.excluded, Skipped: w.skipped}
	if o.Cache != nil {
		o.Cache.use(cfg)
	}
	outs := make([]measured, len(w.files))
	var next, done atomic.Int64
	var progressMu sync.Mutex
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(w.files) || ctx.Err() != nil {
					return
				}
				c := w.files[i]
				outs[i] = o.Cache.measure(c, read, cfg)
				n := done.Add(1)
				if o.Progress != nil {
					progressMu.Lock()
					o.Progress(int(n), len(w.files))
					progressMu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var docs []dup.Doc
	for _, out := range outs {
		switch {
		case out.skip != nil && out.quiet:
			res.Excluded++
		case out.skip != nil:
			res.Skipped = append(res.Skipped, *out.skip)
		case out.file != nil:
			if out.warn != "" {
				res.Warnings = append(res.Warnings, Skipped{out.file.Path, out.warn})
			}
			res.Files = append(res.Files, *out.file)
			if out.tokens != nil {
				docs = append(docs, dup.Doc{Index: len(res.Files) - 1, Path: out.file.Path, Group: dupGroup(out.file.Language), Tokens: out.tokens})
			}
		}
	}
	if !cfg.Duplication.Off && cfg.Duplication.MinTokens > 0 {
		clones, lines := dup.Detect(docs, dup.Options{MinTokens: cfg.Duplication.MinTokens, MinLines: cfg.Duplication.MinLines})
		res.Clones = clones
		for i, n := range lines {
			f := &res.Files[docs[i].Index]
			f.DuplicatedLines = n
			if f.DuplicatedLines > f.Lines {
				f.DuplicatedLines = f.Lines
			}
		}
	}
	sort.Slice(res.Skipped, func(i, j int) bool { return res.Skipped[i].Path < res.Skipped[j].Path })
	res.Issues = findIssues(res, cfg)
	return res, nil
}

// excludedByDir applies the vendored-directory rule to a path (for file
// lists that were not walked).
func excludedByDir(rel string, cfg Config) bool {
	vendored := cfg.Vendored == nil || !*cfg.Vendored
	start := 0
	for i := 0; i <= len(rel); i++ {
		if i == len(rel) || rel[i] == '/' {
			if i < len(rel) {
				name := rel[start:i]
				if skippedDirs[name] || (vendored && vendoredDirs[name]) {
					return true
				}
			}
			start = i + 1
		}
	}
	return false
}

// measure reads and measures one file. A file that cannot be read, or that
// makes a measurement fail, is skipped with the reason; it never stops the
// analysis.
func measure(c candidate, read func(string) ([]byte, error), cfg Config) (f *File, toks []dup.Token, skip *Skipped, quiet bool, warn string) {
	defer func() {
		if r := recover(); r != nil {
			f, toks, skip, quiet = nil, nil, &Skipped{c.rel, fmt.Sprintf("internal error while measuring: %v", r)}, false
		}
	}()
	if c.size > cfg.MaxFileSize {
		return nil, nil, &Skipped{c.rel, fmt.Sprintf("larger than %d bytes (maxFileSize)", cfg.MaxFileSize)}, true, ""
	}
	src, err := read(c.rel)
	if err != nil {
		return nil, nil, &Skipped{c.rel, "unreadable: " + err.Error()}, false, ""
	}
	if int64(len(src)) > cfg.MaxFileSize {
		return nil, nil, &Skipped{c.rel, fmt.Sprintf("larger than %d bytes (maxFileSize)", cfg.MaxFileSize)}, true, ""
	}
	head := src
	if len(head) > 4096 {
		head = head[:4096]
	}
	l := lang.Detect(c.rel, head)
	if l == nil {
		return nil, nil, &Skipped{c.rel, "no known language"}, true, ""
	}
	if isBinary(src) {
		return nil, nil, &Skipped{c.rel, "binary"}, true, ""
	}
	if cfg.Generated == nil || !*cfg.Generated {
		if isGenerated(src) {
			return nil, nil, &Skipped{c.rel, "generated"}, true, ""
		}
		if isMinified(c.rel, src) {
			return nil, nil, &Skipped{c.rel, "minified"}, true, ""
		}
	}
	cnt := l.Count(src)
	f = &File{Path: c.rel, Language: l.Name, Lines: cnt.Lines, Blank: cnt.Blank, Comment: cnt.Comment, Code: cnt.Code}
	fns, err := cognitive.Analyze(l.Name, src)
	if err != nil {
		warn = "complexity not measured: " + err.Error()
	}
	f.Functions = fns
	for _, fn := range fns {
		f.Complexity += fn.Complexity
	}
	if !cfg.Duplication.Off {
		toks = dup.Tokenize(l.Name, src, !cfg.Duplication.Exact)
	}
	return f, toks, nil, false, warn
}

// dupGroups numbers languages for clone detection, shared by concurrent runs.
var dupGroups = struct {
	sync.Mutex
	m map[string]int
}{m: map[string]int{}}

// dupGroup numbers the languages for clone detection: a clone is sought
// within one language (JavaScript and its JSX, TypeScript and TSX, C and
// its headers together).
func dupGroup(language string) int {
	switch language {
	case "JSX":
		language = "JavaScript"
	case "TSX":
		language = "TypeScript"
	case "C/C++ Header", "C++":
		language = "C"
	}
	dupGroups.Lock()
	defer dupGroups.Unlock()
	if g, ok := dupGroups.m[language]; ok {
		return g
	}
	dupGroups.m[language] = len(dupGroups.m)
	return dupGroups.m[language]
}
