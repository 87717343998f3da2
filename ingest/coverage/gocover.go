package coverage

// Go coverprofiles, as written by `go test -coverprofile` (and `go tool
// covdata textfmt`):
//
//	mode: set|count|atomic
//	<import path>/<file>.go:<startLine>.<startCol>,<endLine>.<endCol> <numStmts> <count>
//
// Blocks become line hits by this rule:
//
//   - Identical blocks (same file and range; a profile that concatenates
//     several test binaries' profiles, or -coverpkg, repeats them) are merged
//     first the way `go tool cover` merges them: in set mode a block ran if
//     it ran anywhere (max), in count and atomic modes the counts add.
//   - Every line from a block's start line to its end line is coverable, and
//     a line's count is the maximum over the blocks touching it: a line is
//     covered when any block on it ran. (A line shared by a block that ran and
//     one that did not, e.g. `if x {` where the condition ran and the body did
//     not, counts as covered; the body's own lines count as missed.)
//   - Blocks with no statements (an empty function body, `{}`) cover nothing.
//
// This is a line view of Go's statement coverage, so its percentage differs
// from `go tool cover -func`; but a file whose statements all ran has no
// missed line, and a file none of whose statements ran has no covered line.
//
// Paths: an import path loses Options.ModulePath + "/" when it has it; when
// ModulePath is empty, the module path is taken to be the longest common
// directory prefix of all the profile's import paths (so a profile of a single
// package cannot tell its directory: pass ModulePath to be sure). MapPath then
// applies StripPrefix and AddPrefix.
//
// Memory: the inferred module path needs every import path, and one file's
// blocks may be anywhere in the profile (one run per test binary), so the
// blocks are written to a temporary file as they are read (32 bytes each),
// then sorted on disk by repository path and range (package extsort, 16 MiB
// of memory) and painted one file at a time. What stays in memory is the
// file names and, for the file being painted, the blocks spanning the line
// being painted and the runs of painted lines; never all the blocks.

import (
	"bufio"
	"bytes"
	"container/heap"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/plumbhq/plumb/extsort"
)

const (
	goCoverMaxLine = 1 << 22 // as maxLine
	goCoverBufSize = 1 << 16 // also the longest line accepted
)

// goCoverBlock is one block of a profile.
type goCoverBlock struct {
	startLine, startCol, endLine, endCol int32
	numStmt                              int32
	count                                int64
}

// goCoverRecord is a block as sorted: the file's rank in path order, the
// range (big-endian, so records compare as bytes), statements and count.
const (
	goCoverRecord = 32
	goCoverKey    = 20 // rank and range
)

func putGoCoverBlock(rec []byte, file uint32, b goCoverBlock) {
	binary.BigEndian.PutUint32(rec[0:], file)
	binary.BigEndian.PutUint32(rec[4:], uint32(b.startLine))
	binary.BigEndian.PutUint32(rec[8:], uint32(b.startCol))
	binary.BigEndian.PutUint32(rec[12:], uint32(b.endLine))
	binary.BigEndian.PutUint32(rec[16:], uint32(b.endCol))
	binary.BigEndian.PutUint32(rec[20:], uint32(b.numStmt))
	binary.BigEndian.PutUint64(rec[24:], uint64(b.count))
}

func getGoCoverBlock(rec []byte) (uint32, goCoverBlock) {
	return binary.BigEndian.Uint32(rec[0:]), goCoverBlock{
		startLine: int32(binary.BigEndian.Uint32(rec[4:])), startCol: int32(binary.BigEndian.Uint32(rec[8:])),
		endLine: int32(binary.BigEndian.Uint32(rec[12:])), endCol: int32(binary.BigEndian.Uint32(rec[16:])),
		numStmt: int32(binary.BigEndian.Uint32(rec[20:])), count: int64(binary.BigEndian.Uint64(rec[24:])),
	}
}

// goCoverSortBudget is the memory the block sort may use.
const goCoverSortBudget = 16 << 20

func parseGoCover(r io.Reader, opt Options, emit Emit) error {
	br := bufio.NewReaderSize(r, goCoverBufSize)
	var (
		lineNo int
		mode   string
		files  []string
		fileID = map[string]int32{}
		rec    [goCoverRecord]byte
	)
	// The blocks as read, file by file index; sorted once the paths are known.
	spill, err := os.CreateTemp(opt.TempDir, "plumb-gocover-*")
	if err != nil {
		return fmt.Errorf("create block spool: %w", err)
	}
	os.Remove(spill.Name())
	defer func() {
		spill.Close()
		os.Remove(spill.Name())
	}()
	w := bufio.NewWriterSize(spill, 256<<10)
	nBlocks := 0
	fail := func(msg string, args ...any) error {
		return &ParseError{Format: GoCover, Line: lineNo, Msg: fmt.Sprintf(msg, args...)}
	}
	for {
		line, err := br.ReadSlice('\n')
		if err = lineRead(line, err, &lineNo); err == io.EOF {
			break
		}
		if err == bufio.ErrBufferFull {
			return fail("expected a line shorter than %d bytes", goCoverBufSize)
		}
		if err != nil {
			return err
		}
		line = bytes.TrimSpace(line)
		switch {
		case len(line) == 0:
		case bytes.HasPrefix(line, []byte("mode:")):
			m := string(bytes.TrimSpace(line[len("mode:"):]))
			if m != "set" && m != "count" && m != "atomic" {
				return fail("expected mode: set, count or atomic, got %q", lcovQuote(line))
			}
			if mode != "" && m != mode {
				return fail("expected mode: %s as on the profile's first line (profiles of different modes cannot be merged), got mode: %s", mode, m)
			}
			mode = m
		case mode == "":
			return fail("expected the first line to be mode: set, count or atomic, got %q", lcovQuote(line))
		default:
			name, b, msg := goCoverParseBlock(line)
			if msg != "" {
				return fail("%s, got %q", msg, lcovQuote(line))
			}
			id, ok := fileID[string(name)]
			if !ok {
				if len(files) == math.MaxInt32 {
					return fail("expected fewer files")
				}
				id = int32(len(files))
				files = append(files, string(name))
				fileID[files[id]] = id
			}
			putGoCoverBlock(rec[:], uint32(id), b)
			if _, err := w.Write(rec[:]); err != nil {
				return fmt.Errorf("write block spool: %w", err)
			}
			nBlocks++
		}
		if err == io.EOF {
			break
		}
	}
	if mode == "" {
		lineNo = 1
		return fail("expected the first line to be mode: set, count or atomic, got an empty profile")
	}
	fileID = nil
	if err := w.Flush(); err != nil {
		return fmt.Errorf("write block spool: %w", err)
	}

	// Map every import path to its repository path.
	module := strings.Trim(opt.ModulePath, "/")
	if module == "" {
		module = goCoverCommonDir(files)
	}
	paths := make([]string, len(files))
	for i, f := range files {
		p := f
		if module != "" && strings.HasPrefix(p, module+"/") {
			p = p[len(module)+1:]
		}
		mapped, ok := MapPath(p, opt)
		if !ok {
			return &ParseError{Format: GoCover, Element: f, Msg: "expected a file path inside the repository"}
		}
		paths[i] = mapped
	}
	files = nil
	// Each file's rank in path order (two import paths may map to one
	// path: they share a rank), and each rank's path.
	order := make([]int32, len(paths))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(paths[a], paths[b]) })
	rank := make([]uint32, len(paths))
	var rankPath []string
	for k, id := range order {
		if k == 0 || paths[id] != paths[order[k-1]] {
			rankPath = append(rankPath, paths[id])
		}
		r := len(rankPath) - 1
		rank[id] = uint32(r)
	}
	paths, order = nil, nil

	// Sort the blocks by rank and range, so that identical blocks are
	// adjacent and a file's blocks are contiguous.
	sorter := extsort.New(opt.TempDir, goCoverSortBudget, func(a, b []byte) int { return bytes.Compare(a[:goCoverKey], b[:goCoverKey]) })
	defer sorter.Close()
	if _, err := spill.Seek(0, io.SeekStart); err != nil {
		return err
	}
	sr := bufio.NewReaderSize(spill, 256<<10)
	for range nBlocks {
		if _, err := io.ReadFull(sr, rec[:]); err != nil {
			return fmt.Errorf("read block spool: %w", err)
		}
		id, b := getGoCoverBlock(rec[:])
		putGoCoverBlock(rec[:], rank[id], b)
		if err := sorter.Add(rec[:]); err != nil {
			return err
		}
	}
	it, err := sorter.Iter()
	if err != nil {
		return err
	}
	sum := mode != "set"
	var (
		painter goCoverPainter
		cur     = -1 // rank being painted
		pending goCoverBlock
		have    bool
	)
	flushBlock := func() {
		if have && pending.numStmt > 0 {
			painter.paint(pending)
		}
		have = false
	}
	flushFile := func() error {
		flushBlock()
		if cur < 0 {
			return nil
		}
		return emit(painter.file(rankPath[cur]))
	}
	for it.Next() {
		r, b := getGoCoverBlock(it.Record())
		if int(r) != cur {
			if err := flushFile(); err != nil {
				return err
			}
			cur = int(r)
			painter.reset()
		}
		if have && goCoverSameRange(pending, b) {
			// Merge identical blocks.
			pending.numStmt = max(pending.numStmt, b.numStmt)
			switch {
			case !sum:
				pending.count = max(pending.count, b.count)
			case b.count > math.MaxInt64-pending.count:
				pending.count = math.MaxInt64
			default:
				pending.count += b.count
			}
			continue
		}
		flushBlock()
		pending, have = b, true
	}
	if err := it.Err(); err != nil {
		return err
	}
	return flushFile()
}

func goCoverSameRange(a, b goCoverBlock) bool {
	return a.startLine == b.startLine && a.startCol == b.startCol && a.endLine == b.endLine && a.endCol == b.endCol
}

// goCoverParseBlock reads "<file>:<sl>.<sc>,<el>.<ec> <numStmts> <count>".
func goCoverParseBlock(line []byte) (name []byte, b goCoverBlock, msg string) {
	const want = "expected <file>:<startLine>.<startCol>,<endLine>.<endCol> <numStmts> <count>"
	sp := bytes.LastIndexByte(line, ' ')
	if sp < 0 {
		return nil, b, want
	}
	count, ok := goCoverUint(line[sp+1:], math.MaxInt64)
	if !ok {
		return nil, b, want + " with an integer count of at least 0"
	}
	rest := bytes.TrimRight(line[:sp], " ")
	sp = bytes.LastIndexByte(rest, ' ')
	if sp < 0 {
		return nil, b, want
	}
	numStmt, ok := goCoverUint(rest[sp+1:], math.MaxInt32)
	if !ok {
		return nil, b, want + " with an integer statement count"
	}
	rest = bytes.TrimRight(rest[:sp], " ")
	colon := bytes.LastIndexByte(rest, ':')
	if colon < 1 {
		return nil, b, want
	}
	name, rng := rest[:colon], rest[colon+1:]
	var pos [4]int64
	for k := range pos {
		sep := byte('.')
		if k == 1 {
			sep = ','
		}
		end := len(rng)
		if k < 3 {
			end = bytes.IndexByte(rng, sep)
			if end < 0 {
				return nil, b, want
			}
		}
		v, ok := goCoverUint(rng[:end], goCoverMaxLine)
		if !ok {
			return nil, b, fmt.Sprintf("%s with integer positions (lines 1 to %d)", want, goCoverMaxLine)
		}
		pos[k] = v
		if k < 3 {
			rng = rng[end+1:]
		}
	}
	if pos[0] < 1 || pos[2] < pos[0] {
		return nil, b, want + " with 1 ≤ startLine ≤ endLine"
	}
	b = goCoverBlock{
		startLine: int32(pos[0]), startCol: int32(pos[1]),
		endLine: int32(pos[2]), endCol: int32(pos[3]),
		numStmt: int32(numStmt), count: count,
	}
	return name, b, ""
}

// goCoverUint parses a decimal integer in [0, limit].
func goCoverUint(b []byte, limit int64) (int64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := int64(c - '0')
		if n > (limit-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	return n, true
}

// goCoverCommonDir is the longest directory prefix (whole path elements)
// shared by every name.
func goCoverCommonDir(names []string) string {
	if len(names) == 0 {
		return ""
	}
	prefix := names[0]
	if i := strings.LastIndexByte(prefix, '/'); i >= 0 {
		prefix = prefix[:i]
	} else {
		return ""
	}
	for _, n := range names[1:] {
		for prefix != "" && !strings.HasPrefix(n, prefix+"/") {
			i := strings.LastIndexByte(prefix, '/')
			if i < 0 {
				prefix = ""
			} else {
				prefix = prefix[:i]
			}
		}
		if prefix == "" {
			return ""
		}
	}
	return prefix
}

// goCoverPainter turns one file's blocks into line hits: each line gets the
// maximum count of the blocks spanning it, -1 when none does. The blocks
// come in start order; the painter sweeps the lines in that order, holding
// only the blocks spanning the current line (a heap, highest count first;
// a block that has ended leaves it when it comes to the top), and notes
// the painted lines as runs of one count. Its memory follows the blocks and
// the runs, never the highest line number (a block on line 4,194,304 is one
// run); the file is then given dense or sparse, whichever is smaller.
type goCoverPainter struct {
	active goCoverActive
	line   int32 // the next line to paint
	runs   []goCoverRun
}

// goCoverRun is a run of painted lines with one count.
type goCoverRun struct {
	first, last int32
	count       int64
}

// goCoverActive is a max-heap of the blocks spanning the sweep's line.
type goCoverActive []goCoverSpan

type goCoverSpan struct {
	end   int32
	count int64
}

func (h goCoverActive) Len() int           { return len(h) }
func (h goCoverActive) Less(i, j int) bool { return h[i].count > h[j].count }
func (h goCoverActive) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *goCoverActive) Push(x any)        { *h = append(*h, x.(goCoverSpan)) }
func (h *goCoverActive) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func (p *goCoverPainter) reset() {
	p.active = p.active[:0]
	p.line = 0
	p.runs = nil
}

// paint adds a block (blocks come in ascending start line).
func (p *goCoverPainter) paint(b goCoverBlock) {
	p.advance(b.startLine)
	p.line = b.startLine
	heap.Push(&p.active, goCoverSpan{end: b.endLine, count: b.count})
}

// advance paints the lines before upto with the blocks spanning them.
func (p *goCoverPainter) advance(upto int32) {
	for p.line < upto {
		for len(p.active) > 0 && p.active[0].end < p.line {
			heap.Pop(&p.active)
		}
		if len(p.active) == 0 {
			return
		}
		top := p.active[0]
		last := min(top.end, upto-1)
		if n := len(p.runs); n > 0 && p.runs[n-1].last+1 == p.line && p.runs[n-1].count == top.count {
			p.runs[n-1].last = last
		} else {
			p.runs = append(p.runs, goCoverRun{first: p.line, last: last, count: top.count})
		}
		p.line = last + 1
	}
}

// file paints what is left and returns the file's hits (none when nothing
// was painted).
func (p *goCoverPainter) file(path string) File {
	p.advance(math.MaxInt32)
	if len(p.runs) == 0 {
		return File{Path: path}
	}
	used := int(p.runs[len(p.runs)-1].last)
	painted := 0
	for _, r := range p.runs {
		painted += int(r.last-r.first) + 1
	}
	if painted*2 >= used {
		hits := make([]int64, used)
		for i := range hits {
			hits[i] = -1
		}
		for _, r := range p.runs {
			for l := r.first; l <= r.last; l++ {
				hits[l-1] = r.count
			}
		}
		return File{Path: path, Hits: hits}
	}
	lines := make([]LineHit, 0, painted)
	for _, r := range p.runs {
		for l := r.first; l <= r.last; l++ {
			lines = append(lines, LineHit{Line: int(l), Hits: r.count})
		}
	}
	return File{Path: path, Lines: lines, Total: used}
}
