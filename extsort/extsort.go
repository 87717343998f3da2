// Package extsort sorts more records than memory should hold: records (byte
// strings) are kept in memory up to a budget, then sorted and written to a
// temporary file (a run); reading merges the runs. Uploads use it to put a
// report's files and findings in the order the store writes them, so a
// report's size costs disk, not memory.
//
// The sort is stable: records that compare equal come out in the order they
// were added.
package extsort

import (
	"bufio"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// maxFanIn is the most runs merged at once; more are first merged into
// fewer, longer runs (each open run costs a read buffer).
const maxFanIn = 64

const runBuffer = 64 << 10

// Sorter collects records and hands them back in order.
type Sorter struct {
	cmp    func(a, b []byte) int
	dir    string
	budget int

	buf  []byte
	recs []span // records in buf, in insertion order
	runs []*os.File
	n    int64
	err  error
}

type span struct{ off, len uint32 }

// New returns a sorter comparing records with cmp that holds about budget
// bytes of records in memory and writes runs to temporary files in dir
// (the system's temporary folder when empty). Close removes them.
func New(dir string, budget int, cmp func(a, b []byte) int) *Sorter {
	if budget < 4<<10 {
		budget = 4 << 10
	}
	if budget > 1<<31 {
		budget = 1 << 31
	}
	return &Sorter{cmp: cmp, dir: dir, budget: budget}
}

// Len is the number of records added.
func (s *Sorter) Len() int64 { return s.n }

// Add copies a record into the sorter.
func (s *Sorter) Add(rec []byte) error {
	if s.err != nil {
		return s.err
	}
	if len(s.buf)+len(rec) > s.budget && len(s.recs) > 0 {
		if err := s.spill(); err != nil {
			s.err = err
			return err
		}
	}
	if len(rec) > s.budget {
		// A record larger than the budget is a run of its own.
		s.buf = append(s.buf[:0], rec...)
		s.recs = append(s.recs[:0], span{0, uint32(len(rec))})
		if err := s.spill(); err != nil {
			s.err = err
			return err
		}
		s.buf = nil
		s.n++
		return nil
	}
	if s.buf == nil {
		s.buf = make([]byte, 0, min(s.budget, 1<<20))
	}
	s.recs = append(s.recs, span{uint32(len(s.buf)), uint32(len(rec))})
	s.buf = append(s.buf, rec...)
	s.n++
	return nil
}

func (s *Sorter) rec(sp span) []byte { return s.buf[sp.off : sp.off+sp.len] }

func (s *Sorter) sortMemory() {
	slices.SortStableFunc(s.recs, func(a, b span) int { return s.cmp(s.rec(a), s.rec(b)) })
}

// spill sorts the records in memory and writes them as a run.
func (s *Sorter) spill() error {
	s.sortMemory()
	f, err := tempFile(s.dir)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, runBuffer)
	var hdr [binary.MaxVarintLen64]byte
	for _, sp := range s.recs {
		n := binary.PutUvarint(hdr[:], uint64(sp.len))
		w.Write(hdr[:n])
		w.Write(s.rec(sp))
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("write sort run: %w", err)
	}
	s.runs = append(s.runs, f)
	s.buf, s.recs = s.buf[:0], s.recs[:0]
	return nil
}

// tempFile creates a temporary file, unlinked at once where the system
// allows it (a crash leaves nothing behind).
func tempFile(dir string) (*os.File, error) {
	f, err := os.CreateTemp(dir, "plumb-sort-*")
	if err != nil {
		return nil, fmt.Errorf("create sort run: %w", err)
	}
	os.Remove(f.Name()) // where this fails (Windows), Close removes it
	return f, nil
}

// Close removes the sorter's temporary files and forgets its records.
func (s *Sorter) Close() error {
	for _, f := range s.runs {
		name := f.Name()
		f.Close()
		os.Remove(name) // already gone where unlinking open files works
	}
	s.runs, s.buf, s.recs = nil, nil, nil
	if s.err == nil {
		s.err = errors.New("extsort: sorter closed")
	}
	return nil
}

// Iter returns the records in order. Add must not be called afterwards.
// The iterator reads the sorter's runs: close the sorter after it.
func (s *Sorter) Iter() (*Iter, error) {
	if s.err != nil {
		return nil, s.err
	}
	s.sortMemory()
	for len(s.runs) > maxFanIn {
		if err := s.mergeRuns(); err != nil {
			s.err = err
			return nil, err
		}
	}
	it := &Iter{}
	for i, f := range s.runs {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		it.srcs = append(it.srcs, &source{idx: i, r: bufio.NewReaderSize(f, runBuffer)})
	}
	if len(s.recs) > 0 {
		it.srcs = append(it.srcs, &source{idx: len(s.runs), mem: s})
	}
	it.h = mergeHeap{cmp: s.cmp}
	for _, src := range it.srcs {
		ok, err := src.next()
		if err != nil {
			return nil, err
		}
		if ok {
			it.h.items = append(it.h.items, src)
		}
	}
	heap.Init(&it.h)
	return it, nil
}

// mergeRuns merges the first maxFanIn runs into one.
func (s *Sorter) mergeRuns() error {
	part := &Sorter{cmp: s.cmp, runs: s.runs[:maxFanIn]}
	it, err := part.Iter()
	if err != nil {
		return err
	}
	f, err := tempFile(s.dir)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, runBuffer)
	var hdr [binary.MaxVarintLen64]byte
	for it.Next() {
		rec := it.Record()
		n := binary.PutUvarint(hdr[:], uint64(len(rec)))
		w.Write(hdr[:n])
		w.Write(rec)
	}
	if err := it.Err(); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("write sort run: %w", err)
	}
	for _, r := range s.runs[:maxFanIn] {
		name := r.Name()
		r.Close()
		os.Remove(name)
	}
	// The merged run holds the earliest records: it goes first.
	s.runs = append([]*os.File{f}, s.runs[maxFanIn:]...)
	return nil
}

// source is one run (or the records left in memory) being merged.
type source struct {
	idx int // runs added earlier have lower indexes (ties go to them)
	r   *bufio.Reader
	mem *Sorter
	pos int
	cur []byte
	buf []byte
}

func (src *source) next() (bool, error) {
	if src.mem != nil {
		if src.pos >= len(src.mem.recs) {
			return false, nil
		}
		src.cur = src.mem.rec(src.mem.recs[src.pos])
		src.pos++
		return true, nil
	}
	n, err := binary.ReadUvarint(src.r)
	if err == io.EOF {
		return false, nil
	} else if err != nil {
		return false, fmt.Errorf("read sort run: %w", err)
	}
	if uint64(cap(src.buf)) < n {
		src.buf = make([]byte, n, max(n, 256))
	}
	src.buf = src.buf[:n]
	if _, err := io.ReadFull(src.r, src.buf); err != nil {
		return false, fmt.Errorf("read sort run: %w", err)
	}
	src.cur = src.buf
	return true, nil
}

type mergeHeap struct {
	cmp   func(a, b []byte) int
	items []*source
}

func (h *mergeHeap) Len() int { return len(h.items) }
func (h *mergeHeap) Less(i, j int) bool {
	a, b := h.items[i], h.items[j]
	if c := h.cmp(a.cur, b.cur); c != 0 {
		return c < 0
	}
	return a.idx < b.idx
}
func (h *mergeHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *mergeHeap) Push(x any)    { h.items = append(h.items, x.(*source)) }
func (h *mergeHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}

// Iter walks the sorted records.
type Iter struct {
	srcs []*source
	h    mergeHeap
	last *source // the source of the current record: advanced on Next
	rec  []byte
	err  error
}

// Next moves to the next record, reporting false at the end or on an error.
func (it *Iter) Next() bool {
	if it.err != nil {
		return false
	}
	if it.last != nil {
		ok, err := it.last.next()
		if err != nil {
			it.err = err
			return false
		}
		if ok {
			heap.Fix(&it.h, 0)
		} else {
			heap.Pop(&it.h)
		}
		it.last = nil
	}
	if it.h.Len() == 0 {
		it.rec = nil
		return false
	}
	it.last = it.h.items[0]
	it.rec = it.last.cur
	return true
}

// Record is the current record, valid until the next call of Next.
func (it *Iter) Record() []byte { return it.rec }

// Err is the error that stopped the iteration, if any.
func (it *Iter) Err() error { return it.err }
