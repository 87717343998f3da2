package sqlstore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/plumbhq/plumb"
)

// Line hits are stored sparse, so that their cost follows the lines a report
// gives, not its largest line number: a 0 byte, the number of lines, then
// runs, each the count of lines not coverable (-1) before it, its length,
// and one zig-zag varint per line of the run. Lines after the last run are
// not coverable. A file with one line reported at line 4,000,000 is a
// dozen bytes; a dense file is about a byte per line.
//
// Blobs written before this format (the number of lines, then one varint
// per line) still decode: a leading 0 there is a file of no lines, one byte.

var errCorruptHits = errors.New("corrupt hits blob")

func encodeHits(hits []int64) []byte {
	e := newHitEncoder(len(hits))
	c := &denseCursor{hits: hits}
	for i, h, ok := c.next(); ok; i, h, ok = c.next() {
		e.add(i, h)
	}
	return e.bytes()
}

// eachHitRun calls fn for each run of a blob: first its line index (0-based),
// then the hits of its lines, with total the file's number of lines; lines
// outside every run are not coverable (-1).
func eachHitRun(b []byte, fn func(total, first int, hits []int64) error) error {
	if len(b) <= 1 || b[0] != 0 {
		// The dense format: one run from line 1.
		hits, err := decodeDense(b)
		if err != nil {
			return err
		}
		return fn(len(hits), 0, hits)
	}
	b = b[1:]
	n, k := binary.Uvarint(b)
	if k <= 0 || n > 1<<31 {
		return errCorruptHits
	}
	b = b[k:]
	total, line := int(n), 0
	var run []int64
	for len(b) > 0 {
		gap, k := binary.Uvarint(b)
		if k <= 0 {
			return errCorruptHits
		}
		b = b[k:]
		cnt, k := binary.Uvarint(b)
		if k <= 0 || cnt > uint64(len(b)) || uint64(line)+gap+cnt > uint64(total) {
			return errCorruptHits
		}
		b = b[k:]
		line += int(gap)
		run = run[:0]
		for j := uint64(0); j < cnt; j++ {
			v, k := binary.Varint(b)
			if k <= 0 {
				return errCorruptHits
			}
			run = append(run, v)
			b = b[k:]
		}
		if err := fn(total, line, run); err != nil {
			return err
		}
		line += int(cnt)
	}
	if total > 0 && line == 0 {
		return fn(total, total, nil) // no coverable line: report the total
	}
	return nil
}

func decodeDense(b []byte) ([]int64, error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return nil, errCorruptHits
	}
	b = b[k:]
	out := make([]int64, n)
	for i := range out {
		v, k := binary.Varint(b)
		if k <= 0 {
			return nil, errCorruptHits
		}
		out[i] = v
		b = b[k:]
	}
	return out, nil
}

func decodeHits(b []byte) ([]int64, error) {
	var out []int64
	err := eachHitRun(b, func(total, first int, hits []int64) error {
		if out == nil {
			out = make([]int64, total)
			for i := range out {
				out[i] = -1
			}
		}
		copy(out[first:], hits)
		return nil
	})
	if out == nil {
		out = []int64{}
	}
	return out, err
}

// Hits are one file's stored line hits, read without expanding them.
type Hits []byte

// Counts counts the file's lines.
func (h Hits) Counts() (plumb.HitCounts, error) {
	var c plumb.HitCounts
	err := eachHitRun(h, func(total, _ int, hits []int64) error {
		c.Total = int64(total)
		for _, v := range hits {
			switch {
			case v > 0:
				c.Covered++
			case v == 0:
				c.Missed++
			}
		}
		return nil
	})
	c.Omitted = c.Total - c.Covered - c.Missed
	return c, err
}

// WriteJSON writes the hits as a JSON array, one number per line (-1 for a
// line not coverable), streaming: memory stays that of the stored form.
func (h Hits) WriteJSON(w io.Writer) error {
	buf := make([]byte, 0, 32<<10)
	flush := func() error {
		_, err := w.Write(buf)
		buf = buf[:0]
		return err
	}
	line, total := 0, 0
	sep := func() {
		if line > 0 {
			buf = append(buf, ',')
		}
	}
	pad := func(upTo int) error {
		for ; line < upTo; line++ {
			sep()
			buf = append(buf, '-', '1')
			if len(buf) > cap(buf)-64 {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		return nil
	}
	buf = append(buf, '[')
	err := eachHitRun(h, func(t, first int, hits []int64) error {
		total = t
		if err := pad(first); err != nil {
			return err
		}
		for _, v := range hits {
			sep()
			buf = strconv.AppendInt(buf, v, 10)
			line++
			if len(buf) > cap(buf)-64 {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := pad(total); err != nil {
		return err
	}
	buf = append(buf, ']')
	return flush()
}

// Merging without expanding. An upload's file is merged with the hits the
// commit has (its tag's, and every tag's for the union) line by line over
// cursors on the coverable lines, in line order, and the merged hits are
// encoded as they come: the work and the memory follow the coverable lines
// of the report and of what is stored, never the highest line number (a
// report naming line 4,194,304 costs one line, not a 32 MiB array).

// hitCursor walks a file's coverable lines in order: the line's index (from
// 0) and its hits (at least 0).
type hitCursor interface {
	next() (idx int, h int64, ok bool)
}

type denseCursor struct {
	hits []int64
	i    int
}

func (c *denseCursor) next() (int, int64, bool) {
	for c.i < len(c.hits) {
		i := c.i
		c.i++
		if c.hits[i] >= 0 {
			return i, c.hits[i], true
		}
	}
	return 0, 0, false
}

type sparseCursor struct {
	lines []plumb.LineHit
	i     int
}

func (c *sparseCursor) next() (int, int64, bool) {
	if c.i >= len(c.lines) {
		return 0, 0, false
	}
	l := c.lines[c.i]
	c.i++
	return l.Line - 1, l.Hits, true
}

// fileCursor walks an upload's file, in either form.
func fileCursor(f plumb.CoverageFile) hitCursor {
	if f.Sparse() {
		return &sparseCursor{lines: f.Lines}
	}
	return &denseCursor{hits: f.Hits}
}

// blobCursor walks a stored blob (either format) without expanding it.
type blobCursor struct {
	b     []byte
	total int
	idx   int // the index of the next value
	left  int // values left in the current run
	dense bool
	err   error
}

func newBlobCursor(b []byte) *blobCursor {
	c := &blobCursor{}
	if len(b) <= 1 || b[0] != 0 {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)) {
			c.err = errCorruptHits
			return c
		}
		c.b, c.total, c.left, c.dense = b[k:], int(n), int(n), true
		return c
	}
	n, k := binary.Uvarint(b[1:])
	if k <= 0 || n > 1<<31 {
		c.err = errCorruptHits
		return c
	}
	c.b, c.total = b[1+k:], int(n)
	return c
}

func (c *blobCursor) next() (int, int64, bool) {
	for c.err == nil {
		if c.left > 0 {
			v, k := binary.Varint(c.b)
			if k <= 0 {
				c.err = errCorruptHits
				break
			}
			c.b, c.left = c.b[k:], c.left-1
			i := c.idx
			c.idx++
			if v >= 0 {
				return i, v, true
			}
			continue
		}
		if c.dense || len(c.b) == 0 {
			break
		}
		gap, k := binary.Uvarint(c.b)
		if k <= 0 {
			c.err = errCorruptHits
			break
		}
		c.b = c.b[k:]
		cnt, k := binary.Uvarint(c.b)
		if k <= 0 || cnt > uint64(len(c.b)) || uint64(c.idx)+gap+cnt > uint64(c.total) {
			c.err = errCorruptHits
			break
		}
		c.b, c.idx, c.left = c.b[k:], c.idx+int(gap), int(cnt)
	}
	return 0, 0, false
}

// hitEncoder writes the stored form of a file's hits given line by line in
// order (the format of encodeHits).
type hitEncoder struct {
	buf   []byte // the header and the finished runs
	run   []byte // the open run's values
	n     int    // its lines
	start int    // the index of its first line
	end   int    // the index after the previous run
}

func newHitEncoder(total int) *hitEncoder {
	return &hitEncoder{buf: binary.AppendUvarint([]byte{0}, uint64(total))}
}

func (e *hitEncoder) add(idx int, h int64) {
	if e.n > 0 && idx != e.start+e.n {
		e.flush()
	}
	if e.n == 0 {
		e.start = idx
	}
	e.run = binary.AppendVarint(e.run, h)
	e.n++
}

func (e *hitEncoder) flush() {
	if e.n == 0 {
		return
	}
	e.buf = binary.AppendUvarint(e.buf, uint64(e.start-e.end))
	e.buf = binary.AppendUvarint(e.buf, uint64(e.n))
	e.buf = append(e.buf, e.run...)
	e.end, e.run, e.n = e.start+e.n, e.run[:0], 0
}

func (e *hitEncoder) bytes() []byte {
	e.flush()
	return e.buf
}

// mergeHits encodes a and b merged (plumb.MergeHits: counts add, a line
// coverable in either is coverable) into enc, counting covered and missed
// lines.
func mergeHits(a, b hitCursor, enc *hitEncoder) (covered, missed int64) {
	ai, ah, aok := a.next()
	bi, bh, bok := b.next()
	for aok || bok {
		var i int
		var h int64
		switch {
		case aok && (!bok || ai < bi):
			i, h = ai, ah
			ai, ah, aok = a.next()
		case bok && (!aok || bi < ai):
			i, h = bi, bh
			bi, bh, bok = b.next()
		default:
			i, h = ai, ah+bh
			if bh > math.MaxInt64-ah {
				h = math.MaxInt64
			}
			ai, ah, aok = a.next()
			bi, bh, bok = b.next()
		}
		enc.add(i, h)
		if h > 0 {
			covered++
		} else {
			missed++
		}
	}
	return covered, missed
}

// unionCounts counts the covered and missed lines of the union of several
// tags' hits (the larger count per line).
func unionCounts(cs []hitCursor) (covered, missed int64) {
	type head struct {
		idx int
		h   int64
		ok  bool
	}
	heads := make([]head, len(cs))
	for i, c := range cs {
		heads[i].idx, heads[i].h, heads[i].ok = c.next()
	}
	for {
		low, found := 0, false
		for _, h := range heads {
			if h.ok && (!found || h.idx < low) {
				low, found = h.idx, true
			}
		}
		if !found {
			return covered, missed
		}
		var top int64
		for i := range heads {
			if heads[i].ok && heads[i].idx == low {
				top = max(top, heads[i].h)
				heads[i].idx, heads[i].h, heads[i].ok = cs[i].next()
			}
		}
		if top > 0 {
			covered++
		} else {
			missed++
		}
	}
}

// checkCoverageFile says what is wrong with an upload's file's hits, if
// anything: a dense hit below -1; sparse lines out of order, repeated,
// outside 1..Total, or with negative hits; malformed branch figures
// (checkBranches).
func checkCoverageFile(f plumb.CoverageFile) string {
	if msg := checkBranches(f.Branches); msg != "" {
		return msg
	}
	if !f.Sparse() {
		for j, h := range f.Hits {
			if h < -1 {
				return fmt.Sprintf("line %d has hit count %d; hits are -1, 0 or a positive count", j+1, h)
			}
		}
		return ""
	}
	prev := 0
	for _, l := range f.Lines {
		switch {
		case l.Hits < 0:
			return fmt.Sprintf("line %d has hit count %d; hits are 0 or a positive count", l.Line, l.Hits)
		case l.Line <= prev:
			return fmt.Sprintf("line %d comes after line %d; lines are given once each, in order", l.Line, prev)
		case l.Line > f.Total:
			return fmt.Sprintf("line %d is past the file's %d lines", l.Line, f.Total)
		}
		prev = l.Line
	}
	return ""
}
