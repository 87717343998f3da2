package demo

import (
	"encoding/base64"
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/plumbhq/plumb/dataset"
	"github.com/plumbhq/plumb/source"
)

// The demo's sources (docs/sources.md): every file of every commit the demo
// analysed or covered has a generated text, so the file pages show code. A
// file's text depends only on its path and figures, so a file that did not
// change between two commits is one blob, as in a real repository. The text
// has exactly the file's lines, of which its lines of code are code, and
// holds one `if` per point of the file's cognitive complexity, each at the
// top of a function body: the page's scorer gives the file's figure back for
// the languages it scores.

// sourceLang is how one language writes the pieces of a generated file.
type sourceLang struct {
	header  func(p string) []string // the first code lines (package, imports)
	open    func(n int) string      // a function's first line
	ifBlock func(k int) []string    // one branch: +1 cognitive complexity
	stmt    func(k int) string      // one statement of a body
	ret     string                  // the body's last statement
	close   string                  // the function's last line ("" for none)
	decl    func(n int) string      // a top-level line that fills a gap
	comment func(s string) string   // a comment line
}

var (
	braceLang = func(open func(int) string, ifb func(int) []string, stmt func(int) string, ret string, decl func(int) string) sourceLang {
		return sourceLang{
			header: func(string) []string { return nil }, open: open, ifBlock: ifb, stmt: stmt, ret: ret, close: "}",
			decl: decl, comment: func(s string) string { return "// " + s },
		}
	}
	goLang = sourceLang{
		header: func(p string) []string {
			dir := path.Base(path.Dir(p))
			if dir == "." || dir == "/" {
				dir = "main"
			}
			return []string{"package " + strings.NewReplacer("-", "", ".", "").Replace(dir)}
		},
		open: func(n int) string { return fmt.Sprintf("func step%d(x int) int {", n) },
		ifBlock: func(k int) []string {
			return []string{fmt.Sprintf("\tif x > %d {", k), fmt.Sprintf("\t\tx -= %d", k), "\t}"}
		},
		stmt:    func(k int) string { return fmt.Sprintf("\tx += %d", k) },
		ret:     "\treturn x",
		close:   "}",
		decl:    func(n int) string { return fmt.Sprintf("var limit%d = %d", n, n*7) },
		comment: func(s string) string { return "// " + s },
	}
	jsLang = braceLang(
		func(n int) string { return fmt.Sprintf("export function step%d(x: number): number {", n) },
		func(k int) []string {
			return []string{fmt.Sprintf("  if (x > %d) {", k), fmt.Sprintf("    x -= %d;", k), "  }"}
		},
		func(k int) string { return fmt.Sprintf("  x += %d;", k) },
		"  return x;",
		func(n int) string { return fmt.Sprintf("export const limit%d = %d;", n, n*7) },
	)
	plainJSLang = braceLang(
		func(n int) string { return fmt.Sprintf("export function step%d(x) {", n) },
		jsLang.ifBlock, jsLang.stmt, jsLang.ret, jsLang.decl,
	)
	pyLang = sourceLang{
		header: func(string) []string { return nil },
		open:   func(n int) string { return fmt.Sprintf("def step%d(x):", n) },
		ifBlock: func(k int) []string {
			return []string{fmt.Sprintf("    if x > %d:", k), fmt.Sprintf("        x -= %d", k)}
		},
		stmt:    func(k int) string { return fmt.Sprintf("    x += %d", k) },
		ret:     "    return x",
		decl:    func(n int) string { return fmt.Sprintf("LIMIT_%d = %d", n, n*7) },
		comment: func(s string) string { return "# " + s },
	}
	shLang = sourceLang{
		header: func(string) []string { return []string{"set -eu"} },
		open:   func(n int) string { return fmt.Sprintf("step%d() {", n) },
		ifBlock: func(k int) []string {
			return []string{fmt.Sprintf("  if [ \"$1\" -gt %d ]; then", k), fmt.Sprintf("    set -- $(( $1 - %d ))", k), "  fi"}
		},
		stmt:    func(k int) string { return fmt.Sprintf("  set -- $(( $1 + %d ))", k) },
		ret:     "  echo \"$1\"",
		close:   "}",
		decl:    func(n int) string { return fmt.Sprintf("LIMIT_%d=%d", n, n*7) },
		comment: func(s string) string { return "# " + s },
	}
	// A file the demo does not write as code (SQL, YAML, Markdown…): lines
	// of settings, which no scorer reads.
	dataLang = sourceLang{
		header:  func(string) []string { return nil },
		decl:    func(n int) string { return fmt.Sprintf("setting_%d = %d", n, n*7) },
		comment: func(s string) string { return "# " + s },
	}
)

func langOf(p string) sourceLang {
	switch path.Ext(p) {
	case ".go":
		return goLang
	case ".ts", ".tsx":
		return jsLang
	case ".js", ".jsx", ".mjs", ".cjs":
		return plainJSLang
	case ".py":
		return pyLang
	case ".sh":
		return shLang
	case ".java", ".kt", ".cs", ".c", ".cc", ".cpp", ".h", ".swift", ".scala", ".rs", ".php":
		return braceLang(
			func(n int) string { return fmt.Sprintf("int step%d(int x) {", n) },
			func(k int) []string {
				return []string{fmt.Sprintf("  if (x > %d) {", k), fmt.Sprintf("    x -= %d;", k), "  }"}
			},
			func(k int) string { return fmt.Sprintf("  x += %d;", k) },
			"  return x;",
			func(n int) string { return fmt.Sprintf("static int limit%d = %d;", n, n*7) },
		)
	}
	return dataLang
}

// sourceText generates a file's text: f.Lines lines, f.LOC of them code,
// f.Complexity branches.
func sourceText(f dataset.File) string {
	lang := langOf(f.Path)
	total, loc := int(f.Lines), int(min(f.LOC, f.Lines))
	code := lang.header(f.Path)
	if len(code) > loc {
		code = code[:loc]
	}
	ifs := int(f.Complexity)
	// Functions: each takes open + body + return (+ close); sizes follow
	// the path, so the layout is stable while the file is.
	h := hashString("source", f.Path)
	var funcs [][]string
	fn := 0
	for lang.open != nil {
		room := loc - len(code) - linesOf(funcs)
		fixed := 2 // open, return
		if lang.close != "" {
			fixed++
		}
		if room < fixed+1 {
			break
		}
		size := min(room, fixed+4+int((h>>uint(fn%48))%12))
		if room-size < fixed+1 {
			size = room
		}
		fn++
		body := []string{lang.open(fn)}
		bodyRoom := size - fixed
		for bodyRoom > 0 {
			if b := lang.ifBlock(fn*10 + len(body)); ifs > 0 && len(b) <= bodyRoom {
				body = append(body, b...)
				bodyRoom -= len(b)
				ifs--
				continue
			}
			body = append(body, lang.stmt(fn*10+len(body)))
			bodyRoom--
		}
		body = append(body, lang.ret)
		if lang.close != "" {
			body = append(body, lang.close)
		}
		funcs = append(funcs, body)
	}
	var decls []string
	for n := 1; len(code)+linesOf(funcs)+len(decls) < loc; n++ {
		decls = append(decls, lang.decl(n))
	}
	// The lines that are not code: a blank line and a comment before each
	// function while they last, the rest as comments at the end.
	nonCode := total - loc
	out := make([]string, 0, total)
	out = append(out, code...)
	out = append(out, decls...)
	for i, body := range funcs {
		if nonCode > 0 {
			out = append(out, "")
			nonCode--
		}
		if nonCode > 0 {
			out = append(out, lang.comment(fmt.Sprintf("step%d moves x towards its limit.", i+1)))
			nonCode--
		}
		out = append(out, body...)
	}
	for ; nonCode > 0; nonCode-- {
		out = append(out, lang.comment("Generated by plumb demo."))
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n") + "\n"
}

func linesOf(funcs [][]string) int {
	n := 0
	for _, f := range funcs {
		n += len(f)
	}
	return n
}

// sourceSet collects one project's sources: each content once, and the
// files of each commit.
type sourceSet struct {
	projectID string
	blobs     map[string]dataset.SourceBlob
	commits   []dataset.SourceCommit
	byFile    map[dataset.File]string // a file's figures → its blob id
}

// add records the sources of one commit's tree.
func (s *sourceSet) add(commit string, at time.Time, tree map[string]dataset.File) {
	files := make([]dataset.SourceFile, 0, len(tree))
	for _, p := range sortedKeys(tree) {
		f := tree[p]
		f.Path = p
		id, ok := s.byFile[f]
		if !ok {
			text := sourceText(f)
			id = source.BlobID([]byte(text))
			if _, dup := s.blobs[id]; !dup {
				s.blobs[id] = dataset.SourceBlob{ProjectID: s.projectID, BlobID: id, Origin: source.OriginUpload,
					CreatedAt: at, Size: int64(len(text)), Zstd: base64.StdEncoding.EncodeToString(source.Compress([]byte(text)))}
			}
			s.byFile[f] = id
		}
		files = append(files, dataset.SourceFile{Path: p, State: string(source.StateOK), BlobID: id, Size: s.blobs[id].Size})
	}
	s.commits = append(s.commits, dataset.SourceCommit{ProjectID: s.projectID, CommitSHA: commit, CreatedAt: at, Files: files})
}

// addSources gives every analysed or covered commit of a project its
// sources: each default-branch snapshot's tree, and each feature-branch
// snapshot's (its base's tree with the branch's own files).
func (g *generator) addSources(pr *projectRun) {
	s := &sourceSet{projectID: pr.id, blobs: map[string]dataset.SourceBlob{}, byFile: map[dataset.File]string{}}
	for i, snap := range pr.snaps {
		s.add(snap.CommitSHA, snap.AnalyzedAt.Add(-time.Minute), pr.hist.states[i])
	}
	for k, snap := range pr.features {
		tree := map[string]dataset.File{}
		for p, f := range pr.hist.states[pr.featBase[k]] {
			tree[p] = f
		}
		if fd := pr.def.feature; fd != nil {
			for p, lines := range fd.files {
				tree[p] = dataset.File{Path: p, Lines: lines, LOC: lines * 4 / 5}
			}
		}
		s.add(snap.CommitSHA, snap.AnalyzedAt.Add(-time.Minute), tree)
	}
	blobs := make([]dataset.SourceBlob, 0, len(s.blobs))
	for _, b := range s.blobs {
		blobs = append(blobs, b)
	}
	sort.Slice(blobs, func(i, j int) bool { return blobs[i].BlobID < blobs[j].BlobID })
	sort.Slice(s.commits, func(i, j int) bool { return s.commits[i].CommitSHA < s.commits[j].CommitSHA })
	g.doc.SourceBlobs = append(g.doc.SourceBlobs, blobs...)
	g.doc.SourceCommits = append(g.doc.SourceCommits, s.commits...)
}
