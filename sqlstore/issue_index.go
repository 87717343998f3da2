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
// snapshot's issues, in listing order: 11 bytes an issue. Filtering and
// skipping to any offset is a linear scan over these arrays, which stays within
// a few milliseconds for a million issues, where SQL would have to step through
// every skipped row.
type issueIndex struct {
	seq   []int64
	attrs []uint8             // category<<4 | level<<1 | status (15 × 5 × 2 combinations fit a byte)
	tool  []uint16            // tool number
	tools map[string][]uint16 // lower-cased tool name → tool numbers
	names []string            // tool number → tool name
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
	match := x.matcher(f)
	skip, limit := f.Page.Offset, f.Page.Limit
	out := make([]int64, 0, limit)
	for i := range x.seq {
		if !match(i) {
			continue
		}
		if skip > 0 {
			skip--
			continue
		}
		out = append(out, x.seq[i])
		if len(out) == limit {
			break
		}
	}
	return out
}

// counts counts the issues that pass the filter (its page ignored) by
// category, level, status and tool (see plumb.NewIssueCounts).
func (x *issueIndex) counts(f plumb.IssueFilter) plumb.IssueCounts {
	match := x.matcher(f)
	c := plumb.NewIssueCounts()
	for i := range x.seq {
		if !match(i) {
			continue
		}
		a := x.attrs[i]
		c.Total++
		c.ByCategory[enumName(plumb.IssueCategories, a>>4)]++
		c.ByLevel[enumName(plumb.IssueLevels, a>>1&7)]++
		c.ByStatus[enumName(plumb.IssueStatuses, a&1)]++
		c.ByTool[x.names[x.tool[i]]]++
	}
	return c
}

// matcher returns whether the issue at position i passes the filter's
// category, level, status and tool conditions.
func (x *issueIndex) matcher(f plumb.IssueFilter) func(i int) bool {
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
	// One lookup per issue: which of the 256 attribute bytes pass the filter.
	var pass [256]bool
	for c := uint8(0); c < 16; c++ {
		for l := uint8(0); l < 8; l++ {
			for st := uint8(0); st < 2; st++ {
				pass[packAttrs(c, l, st)] = catMask&(1<<c) != 0 && lvlMask&(1<<l) != 0 && stMask&(1<<st) != 0
			}
		}
	}
	var toolOK []bool
	if len(f.Tools) > 0 {
		toolOK = make([]bool, len(x.names)+1)
		for _, t := range f.Tools {
			for _, n := range x.tools[strings.ToLower(t)] {
				toolOK[n] = true
			}
		}
	}
	return func(i int) bool {
		return pass[x.attrs[i]] && (toolOK == nil || toolOK[x.tool[i]])
	}
}

func loadIssueIndex(ctx context.Context, tx *sql.Tx, snapshot int64) (*issueIndex, error) {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM issues WHERE snapshot_seq = $1`, snapshot).Scan(&n); err != nil {
		return nil, err
	}
	x := &issueIndex{seq: make([]int64, 0, n), attrs: make([]uint8, 0, n), tool: make([]uint16, 0, n), tools: map[string][]uint16{}}
	rows, err := tx.QueryContext(ctx, `SELECT seq, category, level, status, tool FROM issues WHERE snapshot_seq = $1 ORDER BY seq`, snapshot)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	toolNum := map[string]uint16{}
	var seq int64
	var cat, lvl, st, tool string
	for rows.Next() {
		if err := rows.Scan(&seq, &cat, &lvl, &st, &tool); err != nil {
			return nil, err
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
	}
	return x, rows.Err()
}

// issueIndexCache keeps the indexes of the most recently read projects. An
// entry is valid for one (snapshot, issues_version) of its project, so a new
// snapshot or a status change is seen at once, by every replica.
type issueIndexCache struct {
	mu      sync.Mutex
	max     int
	order   *list.List // of *issueIndexEntry, most recent first
	entries map[string]*list.Element
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
	return &issueIndexCache{max: max, order: list.New(), entries: map[string]*list.Element{}}
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
	e.once.Do(func() { e.index, e.err = loadIssueIndex(ctx, tx, snapshot) })
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
