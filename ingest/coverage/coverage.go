// Package coverage reads coverage reports in the formats teams' tools write
// (LCOV, Cobertura XML, JaCoCo XML, Clover XML, Go coverprofile, SimpleCov
// JSON, Istanbul coverage-final.json, the qlty JSON Lines format) into Plumb's line hits, streaming: files
// are handed over one at a time, so a report of any size is read in bounded
// memory.
package coverage

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"path"
	"slices"
	"strings"

	"github.com/plumbhq/plumb"
)

// Format names a coverage report format.
type Format string

// The formats Plumb reads.
const (
	LCOV      Format = "lcov"
	Cobertura Format = "cobertura"
	JaCoCo    Format = "jacoco"
	Clover    Format = "clover"
	GoCover   Format = "go"
	SimpleCov Format = "simplecov"
	Istanbul  Format = "istanbul"
	Qlty      Format = "qlty"
)

// Formats lists every format, in the order Detect tries them.
var Formats = []Format{LCOV, GoCover, Cobertura, JaCoCo, Clover, SimpleCov, Istanbul, Qlty}

// Options maps the paths a report names to repository-relative paths.
type Options struct {
	// StripPrefix is removed from the start of every path (after
	// normalising; a trailing "/" is implied), AddPrefix then prepended.
	StripPrefix string
	AddPrefix   string
	// ModulePath is the Go module path (from go.mod) that Go coverprofile
	// import paths are made relative to; when empty, the parser infers it
	// as the longest common directory prefix of the import paths.
	ModulePath string
	// TempDir holds the temporary files of a parser that sorts on disk
	// (Go coverprofiles); the system's temporary folder when empty.
	TempDir string
}

// File is one file's coverage: Hits[i] is line i+1 (-1 not coverable,
// 0 missed, n > 0 hit n times).
type File = plumb.CoverageFile

// Emit receives each file of a report as it is read. The same path may come
// more than once (several records for one file); the store merges them line
// by line.
type Emit func(File) error

// ParseError is a malformed report: it names the line (or the XML/JSON
// element) and says what was expected.
type ParseError struct {
	Format  Format
	Line    int    // 1-based line of the report, when known
	Element string // the XML element or JSON path, when known
	Msg     string
}

func (e *ParseError) Error() string {
	where := ""
	switch {
	case e.Line > 0 && e.Element != "":
		where = fmt.Sprintf(" at line %d (%s)", e.Line, e.Element)
	case e.Line > 0:
		where = fmt.Sprintf(" at line %d", e.Line)
	case e.Element != "":
		where = fmt.Sprintf(" at %s", e.Element)
	}
	return fmt.Sprintf("%s report%s: %s", e.Format, where, e.Msg)
}

// Parser reads one format.
type Parser func(r io.Reader, opt Options, emit Emit) error

// parsers holds each format's parser, written in the format's own file.
var parsers = map[Format]Parser{
	LCOV:      parseLCOV,
	GoCover:   parseGoCover,
	Cobertura: parseCobertura,
	JaCoCo:    parseJaCoCo,
	Clover:    parseClover,
	SimpleCov: parseSimpleCov,
	Istanbul:  parseIstanbul,
	Qlty:      parseQlty,
}

// lineRead takes what bufio.Reader.ReadSlice('\n') gave for a text report's
// next line, counts the line in *lineNo and says what err means for it:
// io.EOF only at the end of the report (no line left), bufio.ErrBufferFull
// for a line longer than the buffer (line is its start), nil for a whole
// line (the last may lack its '\n'). It is small enough for the compiler to
// inline in the parsers' loops.
func lineRead(line []byte, err error, lineNo *int) error {
	if len(line) == 0 {
		return err
	}
	*lineNo++
	if err == io.EOF {
		return nil
	}
	return err
}

// Parse reads a report of the given format.
func Parse(r io.Reader, f Format, opt Options, emit Emit) error {
	p, ok := parsers[f]
	if !ok {
		return fmt.Errorf("unknown coverage format %q; accepted: %s", f, formatList())
	}
	return p(r, opt, emit)
}

func formatList() string {
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}

// MapPath turns a path from a report into a repository-relative path with
// the options' prefixes: backslashes become slashes, "./" and duplicate
// slashes go, StripPrefix is removed, AddPrefix is added. It reports false for
// a path that is empty or escapes the repository ("../").
func MapPath(p string, opt Options) (string, bool) {
	p = strings.ReplaceAll(p, "\\", "/")
	if strip := strings.Trim(strings.ReplaceAll(opt.StripPrefix, "\\", "/"), "/"); strip != "" {
		q := strings.TrimPrefix(p, "/")
		if q == strip {
			return "", false
		}
		if strings.HasPrefix(q, strip+"/") {
			p = q[len(strip)+1:]
		}
	}
	p = path.Clean(strings.TrimLeft(p, "/"))
	if p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	if add := strings.Trim(strings.ReplaceAll(opt.AddPrefix, "\\", "/"), "/"); add != "" {
		p = path.Clean(add + "/" + p)
		if p == ".." || strings.HasPrefix(p, "../") {
			return "", false
		}
	}
	return p, true
}

// maxLine is the highest line number a report may give (4 Mi lines is
// 32 MiB of dense hits, for the files that really have that many).
const maxLine = 1 << 22

// LineHit is one coverable line and its hits (File's sparse form).
type LineHit = plumb.LineHit

// lineMap collects one file's line hits as a report names them. While the
// lines named are dense enough (the highest at most twice the records read,
// plus 1,024) it keeps them in an array by line, as most reports are; once a
// record names a line beyond that, it keeps them sparse, one entry per
// record. Either way its memory follows the records read, never the highest
// line number a record names (one record at line 4,194,304 is one entry,
// not 32 MiB).
type lineMap struct {
	combine func(a, b int64) int64 // a line named twice: its hits
	// sumBranches: a line's branch records add up (each names one branch,
	// as LCOV's BRDA); otherwise a line named twice keeps the larger figures
	// (each record gives the line's whole figures, as a Cobertura <line>).
	sumBranches bool
	branches    branchSet

	dense    []int64   // by line, -1 for a line with no hits (dense form)
	lines    []LineHit // in the order named (sparse form)
	sparse   bool
	records  int
	total    int  // the highest line named, coverable or not
	unsorted bool // sparse: some line came after a higher one
	hint     int  // capacity for the next file's lines
}

// denseSlack is how far past twice the records read a line may be while
// the lines are kept dense.
const denseSlack = 1024

// add notes a line's hits; h < 0 names a line that is not coverable (it
// counts in the file's length only).
func (m *lineMap) add(line int, h int64) {
	m.records++
	m.total = max(m.total, line)
	if !m.sparse && line > len(m.dense) {
		if line > 2*m.records+denseSlack {
			m.toSparse()
		} else {
			if m.dense == nil && m.hint > line {
				m.dense = make([]int64, 0, m.hint)
			}
			m.dense = growHits(m.dense, line)
		}
	}
	switch {
	case h < 0:
	case !m.sparse:
		if old := m.dense[line-1]; old < 0 {
			m.dense[line-1] = h
		} else {
			m.dense[line-1] = m.combine(old, h)
		}
	default:
		if n := len(m.lines); n > 0 && m.lines[n-1].Line >= line {
			m.unsorted = true
		}
		m.lines = append(m.lines, LineHit{Line: line, Hits: h})
	}
}

// toSparse moves the lines collected densely to the sparse form.
func (m *lineMap) toSparse() {
	m.sparse = true
	for i, h := range m.dense {
		if h >= 0 {
			m.lines = append(m.lines, LineHit{Line: i + 1, Hits: h})
		}
	}
	m.dense = nil
}

// file returns the file collected (sparse: in line order, each line once)
// and starts a new one.
func (m *lineMap) file(path string) File {
	var f File
	if !m.sparse {
		hits := m.dense
		if hits == nil {
			hits = []int64{}
		}
		f = File{Path: path, Hits: hits}
		m.hint = min(max(m.hint/2, len(hits)), 1<<16)
	} else {
		lines := m.lines
		if m.unsorted {
			slices.SortStableFunc(lines, func(a, b LineHit) int { return a.Line - b.Line })
		}
		out := lines[:0]
		for _, l := range lines {
			if n := len(out); n > 0 && out[n-1].Line == l.Line {
				out[n-1].Hits = m.combine(out[n-1].Hits, l.Hits)
				continue
			}
			out = append(out, l)
		}
		if out == nil {
			out = []LineHit{}
		}
		f = File{Path: path, Lines: slices.Clip(out), Total: m.total}
	}
	f.Branches = m.branches.take(m.sumBranches)
	*m = lineMap{combine: m.combine, sumBranches: m.sumBranches, hint: m.hint, branches: branchSet{hint: m.branches.hint}}
	return f
}

// branch notes branch figures of a line: total branches, covered of them
// (0 <= covered <= total; a line with no branches is not noted).
func (m *lineMap) branch(line, total, covered int) {
	if total <= 0 {
		return
	}
	m.branches.add(line, total, covered, m.sumBranches)
}

// branchSet collects one file's branch figures, one entry per line while
// the lines come in order (a report names a line's branches together).
type branchSet struct {
	lines    []plumb.LineBranches
	unsorted bool
	hint     int // capacity for the next file's lines
}

func (b *branchSet) add(line, total, covered int, sum bool) {
	if n := len(b.lines); n > 0 {
		last := &b.lines[n-1]
		if last.Line == line {
			*last = combineBranches(*last, total, covered, sum)
			return
		}
		if last.Line > line {
			b.unsorted = true
		}
	}
	if b.lines == nil && b.hint > 0 {
		b.lines = make([]plumb.LineBranches, 0, b.hint)
	}
	b.lines = append(b.lines, combineBranches(plumb.LineBranches{Line: line}, total, covered, true))
}

// combineBranches adds figures to a line's: summed (each record its own
// branches) or the larger of each; clamped to plumb.MaxBranches.
func combineBranches(l plumb.LineBranches, total, covered int, sum bool) plumb.LineBranches {
	if sum {
		l.Total, l.Covered = l.Total+total, l.Covered+covered
	} else {
		l.Total, l.Covered = max(l.Total, total), max(l.Covered, covered)
	}
	l.Total = min(l.Total, plumb.MaxBranches)
	l.Covered = min(l.Covered, l.Total)
	return l
}

// take returns the figures collected (ascending lines, each once; nil when
// none) and starts a new file.
func (b *branchSet) take(sum bool) []plumb.LineBranches {
	lines := b.lines
	if len(lines) == 0 {
		return nil
	}
	if b.unsorted {
		slices.SortStableFunc(lines, func(x, y plumb.LineBranches) int { return x.Line - y.Line })
		out := lines[:1]
		for _, l := range lines[1:] {
			if last := &out[len(out)-1]; last.Line == l.Line {
				*last = combineBranches(*last, l.Total, l.Covered, sum)
				continue
			}
			out = append(out, l)
		}
		lines = out
	}
	*b = branchSet{hint: min(len(lines), 1<<12)}
	return slices.Clip(lines)
}

// growHits extends hits to n lines (n <= maxLine), the new ones not coverable
// (-1).
func growHits(hits []int64, n int) []int64 {
	old := len(hits)
	if n > cap(hits) {
		c := max(2*cap(hits), 64, n)
		c = min(c, maxLine)
		grown := make([]int64, n, c)
		copy(grown, hits)
		hits = grown
	} else {
		hits = hits[:n]
	}
	for i := old; i < n; i++ {
		hits[i] = -1
	}
	return hits
}

// addHits adds two counts, saturating.
func addHits(a, b int64) int64 {
	if b > math.MaxInt64-a {
		return math.MaxInt64
	}
	return a + b
}

// maxHits is the larger count.
func maxHits(a, b int64) int64 { return max(a, b) }

// skipBOM buffers r and drops a UTF-8 byte order mark (Windows tools write
// one).
func skipBOM(r io.Reader) *bufio.Reader {
	br := bufio.NewReaderSize(r, 1<<16)
	if b, err := br.Peek(3); err == nil && string(b) == "\xEF\xBB\xBF" {
		br.Discard(3)
	}
	return br
}
