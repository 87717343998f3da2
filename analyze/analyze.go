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
	"path"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/plumbhq/plumb/analyze/cognitive"
	"github.com/plumbhq/plumb/analyze/dup"
	"github.com/plumbhq/plumb/analyze/lang"
	"github.com/plumbhq/plumb/analyze/token"
	"github.com/plumbhq/plumb/metric"
	"github.com/plumbhq/plumb/source"
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
	// each worker reads with its own reader: from the file system, into a
	// buffer it reuses for every file (measure keeps nothing of a file's
	// bytes), so that reading allocates and clears no memory per file
	reader := func() func(string) ([]byte, error) { return o.Read }
	if o.Read == nil {
		type place struct {
			abs  string
			size int64
		}
		places := map[string]place{}
		for _, c := range w.files {
			places[c.rel] = place{c.abs, c.size}
		}
		reader = func() func(string) ([]byte, error) {
			var buf []byte
			return func(rel string) ([]byte, error) {
				var err error
				p := places[rel]
				buf, err = readInto(buf[:0], p.abs, p.size)
				return buf, err
			}
		}
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
			read := reader()
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
	var goFiles []goFile
	groups := map[string]int{}
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
			if out.calls != nil {
				goFiles = append(goFiles, goFile{len(res.Files) - 1, out.calls})
			}
			if out.tokens.List != nil {
				docs = append(docs, dup.Doc{Index: len(res.Files) - 1, Path: out.file.Path, Group: dupGroup(groups, out.file.Language), Tokens: out.tokens, Anchors: out.anchors})
			}
		}
	}
	goPackages(res.Files, goFiles)
	if !cfg.Duplication.Off && cfg.Duplication.MinTokens > 0 {
		clones, lines := dup.DetectGroups(docs, dup.Options{MinTokens: cfg.Duplication.MinTokens, MinLines: cfg.Duplication.MinLines}, workers)
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
	res.Issues = findIssues(res, cfg, workers)
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

// measured is what measure found of one file.
type measured struct {
	file    *File
	tokens  dup.Tokens
	anchors []dup.Anchor       // computed here, in parallel, for dup.Detect
	calls   *cognitive.GoCalls // Go: for the recursion rule across a package's files
	skip    *Skipped
	quiet   bool // skipped by rule (generated…), not worth a warning
	warn    string
}

// measure reads and measures one file. A file that cannot be read, or that
// makes a measurement fail, is skipped with the reason; it never stops the
// analysis.
func measure(c candidate, read func(string) ([]byte, error), cfg Config) (m measured) {
	defer func() {
		if r := recover(); r != nil {
			m = measured{skip: &Skipped{c.rel, fmt.Sprintf("internal error while measuring: %v", r)}}
		}
	}()
	skip := func(reason string, quiet bool) measured {
		return measured{skip: &Skipped{c.rel, reason}, quiet: quiet}
	}
	if c.size > cfg.MaxFileSize {
		return skip(fmt.Sprintf("larger than %d bytes (maxFileSize)", cfg.MaxFileSize), true)
	}
	src, err := read(c.rel)
	if err != nil {
		return skip("unreadable: "+err.Error(), false)
	}
	if int64(len(src)) > cfg.MaxFileSize {
		return skip(fmt.Sprintf("larger than %d bytes (maxFileSize)", cfg.MaxFileSize), true)
	}
	if len(src) == 0 {
		return skip("empty", true) // as cloc: nothing to measure
	}
	l := lang.Detect(c.rel, src) // cloc reads a whole file to decide some extensions
	if l == nil {
		return skip("no known language", true)
	}
	if source.IsBinary(src) {
		return skip("binary", true)
	}
	if cfg.Generated == nil || !*cfg.Generated {
		if isGenerated(src) {
			return skip("generated", true)
		}
		if isMinified(c.rel, src) {
			return skip("minified", true)
		}
	}
	cnt := l.Count(src)
	f := &File{Path: c.rel, Language: l.Name, Lines: cnt.Lines, Blank: cnt.Blank, Comment: cnt.Comment, Code: cnt.Code}
	m.file = f
	// a file of moderate size is lexed once, for its score and its clones
	var toks []token.Token
	if sx := token.Syntaxes[l.Name]; sx != nil && len(src) < 4*dup.MaxTokens {
		toks = token.LexAppend(token.Borrow(), sx, src)
		defer func() { token.Return(toks) }()
	}
	lexed := false
	switch {
	case l.Name == "Go":
		f.Functions, m.calls, err = cognitive.AnalyzeGo(src)
	case toks != nil:
		f.Functions, lexed = cognitive.AnalyzeLexed(l.Name, src, toks)
	}
	if l.Name != "Go" && !lexed {
		f.Functions, err = cognitive.Analyze(l.Name, src)
	}
	if err != nil {
		m.warn = "complexity not measured: " + err.Error()
	}
	for _, fn := range f.Functions {
		f.Complexity += fn.Complexity
	}
	if !cfg.Duplication.Off {
		if toks != nil {
			m.tokens = dup.Normalize(src, toks[:min(len(toks), dup.MaxTokens)], !cfg.Duplication.Exact)
		} else {
			m.tokens = dup.Tokenize(l.Name, src, !cfg.Duplication.Exact)
		}
		m.anchors = dup.Anchors(m.tokens.List, cfg.Duplication.MinTokens)
	}
	return m
}

// goFile is a measured Go file: its index in Result.Files and its calls.
type goFile struct {
	index int
	calls *cognitive.GoCalls
}

// goPackages applies the recursion rule of cognitive complexity across
// the files of each Go package (one directory, one package clause), as
// gocognit does when it analyses a directory: a function on a call cycle
// that goes through several files scores its increment too.
func goPackages(files []File, gos []goFile) {
	type key struct{ dir, pkg string }
	pkgs := map[key][]goFile{}
	for _, g := range gos {
		k := key{path.Dir(files[g.index].Path), g.calls.Package}
		pkgs[k] = append(pkgs[k], g)
	}
	for _, members := range pkgs {
		if len(members) < 2 {
			continue
		}
		sort.Slice(members, func(i, j int) bool { return files[members[i].index].Path < files[members[j].index].Path })
		calls := make([]*cognitive.GoCalls, len(members))
		for i, g := range members {
			calls[i] = g.calls
		}
		for i, d := range cognitive.GoPackageRecursion(calls) {
			if d == nil {
				continue
			}
			// a copy: the measured functions may be cached (Options.Cache)
			f := &files[members[i].index]
			f.Functions = append([]cognitive.Function(nil), f.Functions...)
			for j := range f.Functions {
				f.Functions[j].Complexity += d[j]
				f.Complexity += d[j]
			}
		}
	}
}

// dupGroup numbers the languages for clone detection (in groups): a
// clone is sought within one language (JavaScript and its JSX, TypeScript
// and TSX, C and its headers together).
func dupGroup(groups map[string]int, language string) int {
	switch language {
	case "JSX":
		language = "JavaScript"
	case "TSX":
		language = "TypeScript"
	case "C/C++ Header", "C++":
		language = "C"
	}
	if g, ok := groups[language]; ok {
		return g
	}
	groups[language] = len(groups)
	return groups[language]
}
