package extsort

import (
	"encoding/binary"
	"errors"
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
