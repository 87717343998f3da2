package sqlstore

import (
	"encoding/binary"
	"errors"
	"io"
	"strconv"
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
	buf := make([]byte, 0, 16)
	buf = append(buf, 0)
	buf = binary.AppendUvarint(buf, uint64(len(hits)))
	for i := 0; i < len(hits); {
		gap := i
		for i < len(hits) && hits[i] < 0 {
			i++
		}
		if i == len(hits) {
			break
		}
		start := i
		for i < len(hits) && hits[i] >= 0 {
			i++
		}
		buf = binary.AppendUvarint(buf, uint64(start-gap))
		buf = binary.AppendUvarint(buf, uint64(i-start))
		for _, h := range hits[start:i] {
			buf = binary.AppendVarint(buf, h)
		}
	}
	return buf
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

// HitCounts are a file's line counts: covered (> 0), missed (0), omitted
// (not coverable) and in total.
type HitCounts struct {
	Covered, Missed, Omitted, Total int64
}

// Hits are one file's stored line hits, read without expanding them.
type Hits []byte

// Counts counts the file's lines.
func (h Hits) Counts() (HitCounts, error) {
	var c HitCounts
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

// countHits returns covered (> 0), missed (0) and omitted (< 0) line counts.
func countHits(hits []int64) (covered, missed, omitted int64) {
	for _, h := range hits {
		switch {
		case h > 0:
			covered++
		case h == 0:
			missed++
		default:
			omitted++
		}
	}
	return
}
