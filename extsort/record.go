package extsort

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// Records are built with the Append functions and read back with a Reader:
// strings are length-prefixed, integers varint-encoded.

// AppendString appends a length-prefixed string.
func AppendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// AppendInt appends a varint.
func AppendInt(b []byte, v int64) []byte { return binary.AppendVarint(b, v) }

// ErrCorrupt is a record that does not decode.
var ErrCorrupt = errors.New("extsort: corrupt record")

// Reader decodes a record field by field. A decoding error sticks: every
// later read returns a zero value, and Err reports it.
type Reader struct {
	b   []byte
	err error
}

// NewReader reads rec.
func NewReader(rec []byte) Reader { return Reader{b: rec} }

// Bytes reads a length-prefixed string without copying it (valid while the
// record is).
func (r *Reader) Bytes() []byte {
	n, k := binary.Uvarint(r.b)
	if k <= 0 || uint64(len(r.b)-k) < n {
		r.fail()
		return nil
	}
	v := r.b[k : k+int(n)]
	r.b = r.b[k+int(n):]
	return v
}

// String reads a length-prefixed string.
func (r *Reader) String() string { return string(r.Bytes()) }

// Int reads a varint.
func (r *Reader) Int() int64 {
	v, k := binary.Varint(r.b)
	if k <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[k:]
	return v
}

// Rest is what is left of the record.
func (r *Reader) Rest() []byte { return r.b }

func (r *Reader) fail() {
	if r.err == nil {
		r.err = ErrCorrupt
	}
	r.b = nil
}

// Err is the first decoding error.
func (r *Reader) Err() error { return r.err }

// Spool is an append-only list of records read back in the order written:
// in memory up to its budget, then in a temporary file.
type Spool struct {
	dir    string
	budget int
	mem    []byte
	f      *os.File
	w      *bufio.Writer
	n      int64
}

// NewSpool returns a spool that keeps about budget bytes in memory before
// it moves to a temporary file in dir (the system's when empty).
func NewSpool(dir string, budget int) *Spool { return &Spool{dir: dir, budget: budget} }

// Len is the number of records added since the last Reset.
func (s *Spool) Len() int64 { return s.n }

// Add appends a record.
func (s *Spool) Add(rec []byte) error {
	s.n++
	if s.f == nil && len(s.mem)+len(rec) <= s.budget {
		s.mem = binary.AppendUvarint(s.mem, uint64(len(rec)))
		s.mem = append(s.mem, rec...)
		return nil
	}
	if s.f == nil {
		f, err := tempFile(s.dir)
		if err != nil {
			return err
		}
		s.f, s.w = f, bufio.NewWriterSize(f, runBuffer)
		if _, err := s.w.Write(s.mem); err != nil {
			return fmt.Errorf("write spool: %w", err)
		}
		s.mem = nil
	}
	var hdr [binary.MaxVarintLen64]byte
	k := binary.PutUvarint(hdr[:], uint64(len(rec)))
	s.w.Write(hdr[:k])
	if _, err := s.w.Write(rec); err != nil {
		return fmt.Errorf("write spool: %w", err)
	}
	return nil
}

// Each calls fn with every record in the order added (rec is valid during
// the call only). An error of fn stops the walk and is returned.
func (s *Spool) Each(fn func(rec []byte) error) error {
	var src *source
	if s.f != nil {
		if err := s.w.Flush(); err != nil {
			return fmt.Errorf("write spool: %w", err)
		}
		if _, err := s.f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		src = &source{r: bufio.NewReaderSize(s.f, runBuffer)}
		defer s.f.Seek(0, io.SeekEnd)
	} else {
		src = &source{r: bufio.NewReader(bytes.NewReader(s.mem))}
	}
	for {
		ok, err := src.next()
		if err != nil || !ok {
			return err
		}
		if err := fn(src.cur); err != nil {
			return err
		}
	}
}

// Reset empties the spool (its file, if any, is reused).
func (s *Spool) Reset() error {
	s.n, s.mem = 0, s.mem[:0]
	if s.f == nil {
		return nil
	}
	s.w.Reset(s.f)
	if err := s.f.Truncate(0); err != nil {
		return err
	}
	_, err := s.f.Seek(0, io.SeekStart)
	return err
}

// Close removes the spool's file.
func (s *Spool) Close() {
	if s.f != nil {
		name := s.f.Name()
		s.f.Close()
		os.Remove(name)
		s.f = nil
	}
	s.mem = nil
}
