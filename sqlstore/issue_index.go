package sqlstore

import (
	"container/list"
	"context"
	"database/sql"
	"strings"
	"sync"

	"github.com/plumbhq/plumb"
)

// issueIndex is a compact, in-memory copy of the filterable columns of one
// snapshot's issues, in listing order: 11 bytes an issue. A filter is a
// lookup per issue, never SQL stepping through skipped rows.
//
// The issues are also summarised in blocks of blockSize: each block lists
// the distinct (tool, attributes) pairs of its issues with their counts, so
// a deep offset skips whole blocks by their counts and scans only the block
// where the page starts, and counts read only the summaries. A block has
// one pair per tool, category, level and status present (a few hundred in
// practice, never more than its issues), so a page at offset 900,000 of
// 1,000,000 issues costs tens of microseconds, not a scan of 900,000
// (docs/benchmarks.md, issue 19 item 25).
type issueIndex struct {
	seq   []int64
	attrs []uint8             // category<<4 | level<<1 | status (15 × 5 × 2 combinations fit a byte)
	tool  []uint16            // tool number
	tools map[string][]uint16 // lower-cased tool name → tool numbers
	names []string            // tool number → tool name

	// Block b covers the issues [b*blockSize, (b+1)*blockSize); its pairs
	// are sumKey[sumStart[b]:sumStart[b+1]] (tool<<8 | attrs), sumCount
	// the number of issues of each.
	blockSize int
	sumStart  []int
	sumKey    []uint32
	sumCount  []uint32
}

// issueBlockSize is the number of issues a block summary covers.
const issueBlockSize = 16384

// summarize builds the block summaries of the index.
func (x *issueIndex) summarize(size int) {
	x.blockSize = size
	x.sumStart = append(x.sumStart[:0], 0)
	x.sumKey, x.sumCount = x.sumKey[:0], x.sumCount[:0]
	counts := map[uint32]uint32{}
	for lo := 0; lo < len(x.seq); lo += size {
		hi := min(lo+size, len(x.seq))
		clear(counts)
		for i := lo; i < hi; i++ {
			counts[uint32(x.tool[i])<<8|uint32(x.attrs[i])]++
		}
		for k, n := range counts {
			x.sumKey = append(x.sumKey, k)
			x.sumCount = append(x.sumCount, n)
		}
		x.sumStart = append(x.sumStart, len(x.sumKey))
	}
}

// blockMatches counts the issues of block b that pass the filter.
func (x *issueIndex) blockMatches(m *issueMatch, b int) int {
	n := 0
	keys, counts := x.sumKey[x.sumStart[b]:x.sumStart[b+1]], x.sumCount[x.sumStart[b]:x.sumStart[b+1]]
	for k, key := range keys {
		c := counts[k]
		if !m.ok(uint8(key), uint16(key>>8)) {
			c = 0 // no branch on the outcome: it is as good as random
		}
		n += int(c)
	}
	return n
}

// toolNames returns the exact tool names a case-insensitive tool filter
// selects (Unicode case folding, as for paged reads).
func (x *issueIndex) toolNames(filter []string) []string {
	var out []string
	for _, t := range filter {
		for _, n := range x.tools[strings.ToLower(t)] {
			out = append(out, x.names[n])
		}
	}
	return out
}

func packAttrs(category, level, status uint8) uint8 { return category<<4 | level<<1 | status }

// enumName is the value of a code, or "" for a code of no value.
func enumName(values []string, code uint8) string {
	if int(code) < len(values) {
		return values[code]
	}
	return ""
}

func enumCode(values []string, v string) uint8 {
	for i, s := range values {
		if s == v {
			return uint8(i)
		}
	}
	return 255
}

// page returns the seqs of the issues of one page of the filter's result.
func (x *issueIndex) page(f plumb.IssueFilter) []int64 {
	m := x.matcher(f)
	skip, limit := f.Page.Offset, f.Page.Limit
	out := make([]int64, 0, max(limit, 0))
	if limit <= 0 {
		return out
	}
	for b := 0; b+1 < len(x.sumStart); b++ {
		n := x.blockMatches(m, b)
		if n <= skip {
			skip -= n // the whole block is before the page (or has no match)
			continue
		}
		// The loop stays inline: a call per issue doubled the cost of the
		// blocks scanned (issue 19 item 25).
		for i, hi := b*x.blockSize, min((b+1)*x.blockSize, len(x.seq)); i < hi; i++ {
			if !m.pass[x.attrs[i]] || (m.toolOK != nil && !m.toolOK[x.tool[i]]) {
				continue
			}
			if skip > 0 {
				skip--
				continue
			}
			out = append(out, x.seq[i])
			if len(out) == limit {
				return out
			}
		}
	}
	return out
}

// counts counts the issues that pass the filter (its page ignored) by
// category, level, status and tool (see plumb.NewIssueCounts), from the
// block summaries.
func (x *issueIndex) counts(f plumb.IssueFilter) plumb.IssueCounts {
	m := x.matcher(f)
	var byCat [16]int
	var byLevel [8]int
	var byStatus [2]int
	byTool := make([]int, len(x.names))
	total := 0
	for k, key := range x.sumKey {
		a, t := uint8(key), uint16(key>>8)
		if !m.ok(a, t) {
			continue
		}
		n := int(x.sumCount[k])
		total += n
		byCat[a>>4] += n
		byLevel[a>>1&7] += n
		byStatus[a&1] += n
		byTool[t] += n
	}
	c := plumb.NewIssueCounts()
	c.Total = total
	add := func(into map[string]int, values []string, counts []int) {
		for code, n := range counts {
			if n > 0 {
				into[enumName(values, uint8(code))] += n
			}
		}
	}
	add(c.ByCategory, plumb.IssueCategories, byCat[:])
	add(c.ByLevel, plumb.IssueLevels, byLevel[:])
	add(c.ByStatus, plumb.IssueStatuses, byStatus[:])
	for t, n := range byTool {
		if n > 0 {
			c.ByTool[x.names[t]] += n
		}
	}
	return c
}

// issueMatch is a filter's category, level, status and tool conditions.
type issueMatch struct {
	pass   [256]bool // which of the 256 attribute bytes pass
	toolOK []bool    // by tool number; nil when every tool passes
}

func (m *issueMatch) ok(attrs uint8, tool uint16) bool {
	return m.pass[attrs] && (m.toolOK == nil || m.toolOK[tool])
}

// matcher compiles the filter's category, level, status and tool conditions.
func (x *issueIndex) matcher(f plumb.IssueFilter) *issueMatch {
	mask := func(values, selected []string) uint32 {
		if len(selected) == 0 {
			return ^uint32(0)
		}
		var m uint32
		for _, s := range selected {
			if c := enumCode(values, s); c < 32 {
				m |= 1 << c
			}
		}
		return m
	}
	catMask := mask(plumb.IssueCategories, f.Categories)
	lvlMask := mask(plumb.IssueLevels, f.Levels)
	stMask := mask(plumb.IssueStatuses, f.Statuses)
	m := &issueMatch{}
	for c := uint8(0); c < 16; c++ {
		for l := uint8(0); l < 8; l++ {
			for st := uint8(0); st < 2; st++ {
				m.pass[packAttrs(c, l, st)] = catMask&(1<<c) != 0 && lvlMask&(1<<l) != 0 && stMask&(1<<st) != 0
			}
		}
	}
	if len(f.Tools) > 0 {
		m.toolOK = make([]bool, len(x.names)+1)
		for _, t := range f.Tools {
			for _, n := range x.tools[strings.ToLower(t)] {
				m.toolOK[n] = true
			}
		}
	}
	return m
}

func loadIssueIndex(ctx context.Context, tx *sql.Tx, snapshot int64, blockSize int) (*issueIndex, error) {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM issues WHERE snapshot_seq = $1`, snapshot).Scan(&n); err != nil {
		return nil, err
	}
	x := &issueIndex{seq: make([]int64, 0, n), attrs: make([]uint8, 0, n), tool: make([]uint16, 0, n), tools: map[string][]uint16{}}
	toolNum := map[string]uint16{}
	var seq int64
	var cat, lvl, st, tool string
	err := eachRow(ctx, tx, `SELECT seq, category, level, status, tool FROM issues WHERE snapshot_seq = $1 ORDER BY seq`, []any{snapshot}, func(rows *sql.Rows) error {
		if err := rows.Scan(&seq, &cat, &lvl, &st, &tool); err != nil {
			return err
		}
		num, ok := toolNum[tool]
		if !ok {
			num = uint16(len(toolNum))
			toolNum[tool] = num
			k := strings.ToLower(tool)
			x.tools[k] = append(x.tools[k], num)
			x.names = append(x.names, tool)
		}
		x.seq = append(x.seq, seq)
		x.attrs = append(x.attrs, packAttrs(enumCode(plumb.IssueCategories, cat)&15, enumCode(plumb.IssueLevels, lvl)&7, enumCode(plumb.IssueStatuses, st)&1))
		x.tool = append(x.tool, num)
		return nil
	})
	if err != nil {
		return nil, err
	}
	x.summarize(blockSize)
	return x, nil
}

// issueIndexCache keeps the indexes of the most recently read projects. An
// entry is valid for one (snapshot, issues_version) of its project, so a new
// snapshot or a status change is seen at once, by every replica.
type issueIndexCache struct {
	mu        sync.Mutex
	max       int
	blockSize int        // issues a block summary covers (issueBlockSize; tests set less)
	order     *list.List // of *issueIndexEntry, most recent first
	entries   map[string]*list.Element
}

type issueIndexEntry struct {
	project  string
	snapshot int64
	version  int64
	once     sync.Once
	index    *issueIndex
	err      error
}

func newIssueIndexCache(max int) *issueIndexCache {
	return &issueIndexCache{max: max, blockSize: issueBlockSize, order: list.New(), entries: map[string]*list.Element{}}
}

func (c *issueIndexCache) get(ctx context.Context, tx *sql.Tx, project string, snapshot, version int64) (*issueIndex, error) {
	c.mu.Lock()
	var e *issueIndexEntry
	if el, ok := c.entries[project]; ok {
		e = el.Value.(*issueIndexEntry)
		if e.snapshot == snapshot && e.version == version {
			c.order.MoveToFront(el)
		} else {
			c.order.Remove(el)
			delete(c.entries, project)
			e = nil
		}
	}
	if e == nil {
		e = &issueIndexEntry{project: project, snapshot: snapshot, version: version}
		c.entries[project] = c.order.PushFront(e)
		for c.order.Len() > c.max {
			last := c.order.Back()
			c.order.Remove(last)
			delete(c.entries, last.Value.(*issueIndexEntry).project)
		}
	}
	c.mu.Unlock()
	// One request builds an entry; concurrent ones wait for it.
	e.once.Do(func() { e.index, e.err = loadIssueIndex(ctx, tx, snapshot, c.blockSize) })
	if e.err != nil {
		c.mu.Lock()
		if el, ok := c.entries[project]; ok && el.Value.(*issueIndexEntry) == e {
			c.order.Remove(el)
			delete(c.entries, project)
		}
		c.mu.Unlock()
		return nil, e.err
	}
	return e.index, nil
}
